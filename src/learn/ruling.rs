//! The ruled lines of a blank form: the page straightened, every long dark
//! run along a row or a column, runs on neighbouring rows joined into one
//! line with its thickness. Positions are in mm of an A4-wide page.

use image::{GrayImage, Luma, imageops};
use imageproc::contrast::adaptive_threshold;
use imageproc::geometric_transformations::{
    Border, Interpolation, Projection, rotate_about_center, warp,
};

/// The printed width of the page: a Punkteliste is A4.
pub const PAGE_WIDTH_MM: f64 = 210.0;
/// Work at most at this many px a mm (300 dpi): a phone photo is shrunk.
const MAX_PX_PER_MM: f64 = 12.0;
/// Shortest ruled line looked for: longer than a printed letter's stroke.
const MIN_HORIZONTAL_MM: f64 = 4.0;
const MIN_VERTICAL_MM: f64 = 6.0;
/// A run may skip this many light pixels (a scan's broken thin line).
const GAP_PX: usize = 2;

/// One ruled line: `at` across it, from `from` to `to` along it, all in mm.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rule {
    pub at: f64,
    pub from: f64,
    pub to: f64,
    pub width: f64,
}

impl Rule {
    pub fn len(&self) -> f64 {
        self.to - self.from
    }
}

/// A blank form's ruling, and the straightened page it was found on.
pub struct Ruling {
    pub horizontal: Vec<Rule>,
    pub vertical: Vec<Rule>,
    /// The straightened page thresholded (0 = ink), at `px_per_mm`.
    pub ink: GrayImage,
    /// The straightened page.
    pub gray: GrayImage,
    pub px_per_mm: f64,
    pub page_mm: [f64; 2],
}

impl Ruling {
    /// The ruling of `page`, a scan or photo of a whole portrait page.
    pub fn of(page: &GrayImage) -> Self {
        let scale = (MAX_PX_PER_MM * PAGE_WIDTH_MM / f64::from(page.width())).min(1.0);
        let work = if scale < 1.0 {
            let (w, h) = (
                f64::from(page.width()) * scale,
                f64::from(page.height()) * scale,
            );
            imageops::resize(page, w as u32, h as u32, imageops::FilterType::Triangle)
        } else {
            page.clone()
        };
        let px_per_mm = f64::from(work.width()) / PAGE_WIDTH_MM;
        let radius = ((px_per_mm * 3.0).round() as u32).max(2);
        let straight = rectified(&work).unwrap_or_else(|| deskewed(&work, radius));
        let [x0, y0, x1, y1] = paper(&straight);
        let (w, h) = straight.dimensions();
        let mut gray = imageops::crop_imm(&straight, x0, y0, x1 - x0, y1 - y0).to_image();
        // A whole A4 sheet seen (a photo's foreshortening squeezes it one
        // way): its sides made A4's again.
        let aspect = f64::from(y1 - y0) / f64::from(x1 - x0);
        let whole = x0 > 0 && y0 > 0 && x1 < w && y1 < h;
        if whole && (aspect / A4_ASPECT - 1.0).abs() < 0.1 {
            let height = (f64::from(x1 - x0) * A4_ASPECT).round() as u32;
            gray = imageops::resize(&gray, x1 - x0, height, imageops::FilterType::Triangle);
        }
        let px_per_mm = f64::from(gray.width()) / PAGE_WIDTH_MM;
        let ink = adaptive_threshold(&gray, radius, 12);
        let min_h = (MIN_HORIZONTAL_MM * px_per_mm) as usize;
        let min_v = (MIN_VERTICAL_MM * px_per_mm) as usize;
        let to_mm = |rules: Vec<Rule>| -> Vec<Rule> {
            rules
                .into_iter()
                .map(|r| Rule {
                    at: r.at / px_per_mm,
                    from: r.from / px_per_mm,
                    to: r.to / px_per_mm,
                    width: r.width / px_per_mm,
                })
                .collect()
        };
        let horizontal = to_mm(joined(runs(&ink, true, min_h)));
        let vertical = to_mm(joined(runs(&ink, false, min_v)));
        let page_mm = [PAGE_WIDTH_MM, f64::from(gray.height()) / px_per_mm];
        Ruling {
            horizontal,
            vertical,
            ink,
            gray,
            px_per_mm,
            page_mm,
        }
    }
}

/// The ink inside a box of the straightened page.
pub struct Ink {
    /// Dark pixels, and pixels in all.
    pub dark: usize,
    pub area: usize,
    /// The dark pixels' bounds, `[x0, y0, x1, y1)` px.
    pub bounds: Option<[u32; 4]>,
}

impl Ruling {
    /// A position in mm as px of the straightened page, kept below `limit`.
    pub fn px(&self, mm: f64, limit: u32) -> u32 {
        ((mm * self.px_per_mm).round().max(0.0) as u32).min(limit)
    }

    /// The ink between `x0`–`x1` and `y0`–`y1` (mm).
    pub fn ink_in(&self, [x0, y0, x1, y1]: [f64; 4]) -> Ink {
        let (w, h) = self.ink.dimensions();
        let (a, b) = (self.px(x0, w), self.px(x1, w));
        let (c, d) = (self.px(y0, h), self.px(y1, h));
        let mut ink = Ink {
            dark: 0,
            area: (b.saturating_sub(a) * d.saturating_sub(c)) as usize,
            bounds: None,
        };
        for y in c..d {
            for x in a..b {
                if self.ink.get_pixel(x, y)[0] == 0 {
                    ink.dark += 1;
                    let k = ink.bounds.get_or_insert([x, y, x + 1, y + 1]);
                    *k = [k[0].min(x), k[1].min(y), k[2].max(x + 1), k[3].max(y + 1)];
                }
            }
        }
        ink
    }
}

/// The page made square to its game table: the largest ruled structure's
/// four corners taken to a rectangle of the mean side lengths, which undoes
/// a scan's rotation and a photo's perspective alike.
fn rectified(work: &GrayImage) -> Option<GrayImage> {
    let corners = crate::page::align::prepare(work).largest_structure()?;
    // A table square to the picture already is left as it is: its corners
    // are found to a pixel or two, its lines to a tenth of one.
    let [tl, tr, br, bl] = corners;
    let slope = |a: (f64, f64), b: (f64, f64), across: bool| {
        let (along, off) = if across {
            (b.1 - a.1, b.0 - a.0)
        } else {
            (b.0 - a.0, b.1 - a.1)
        };
        (off / along).abs()
    };
    let sides = [
        slope(tl, tr, false),
        slope(bl, br, false),
        slope(tl, bl, true),
        slope(tr, br, true),
    ];
    if sides.iter().all(|&s| s < SQUARE_SLOPE) {
        return None;
    }
    let dist = |a: (f64, f64), b: (f64, f64)| (a.0 - b.0).hypot(a.1 - b.1);
    let w = (dist(tl, tr) + dist(bl, br)) / 2.0;
    let h = (dist(tl, bl) + dist(tr, br)) / 2.0;
    let cx = corners.iter().map(|c| c.0).sum::<f64>() / 4.0;
    let cy = corners.iter().map(|c| c.1).sum::<f64>() / 4.0;
    let square = [
        (cx - w / 2.0, cy - h / 2.0),
        (cx + w / 2.0, cy - h / 2.0),
        (cx + w / 2.0, cy + h / 2.0),
        (cx - w / 2.0, cy + h / 2.0),
    ];
    let f32s = |q: [(f64, f64); 4]| q.map(|(x, y)| (x as f32, y as f32));
    let projection = Projection::from_control_points(f32s(corners), f32s(square))?;
    Some(warp(
        work,
        projection,
        Interpolation::Bilinear,
        Border::Constant(Luma([0])),
    ))
}

/// The paper in the picture (`[x0, y0, x1, y1)` px): where a scanner's
/// bed or a table top around it is darker, the span of bright columns and
/// rows; else the whole picture.
fn paper(img: &GrayImage) -> [u32; 4] {
    let (w, h) = img.dimensions();
    let span = |means: Vec<f64>| -> (u32, u32) {
        let (lo, hi) = means
            .iter()
            .fold((f64::MAX, f64::MIN), |(a, b), &m| (a.min(m), b.max(m)));
        if hi - lo < PAPER_CONTRAST {
            return (0, means.len() as u32);
        }
        let bright = |m: &f64| *m > (lo + hi) / 2.0;
        let first = means.iter().position(bright).unwrap_or(0);
        let last = means
            .iter()
            .rposition(bright)
            .map_or(means.len(), |l| l + 1);
        (first as u32, last as u32)
    };
    // Means over the middle half across, where the paper surely is.
    let mean = |xs: std::ops::Range<u32>, ys: std::ops::Range<u32>| {
        let n = (xs.len() * ys.len()).max(1) as f64;
        let sum: f64 = ys
            .flat_map(|y| xs.clone().map(move |x| (x, y)))
            .map(|(x, y)| f64::from(img.get_pixel(x, y)[0]))
            .sum();
        sum / n
    };
    let columns = (0..w).map(|x| mean(x..x + 1, h / 4..h * 3 / 4)).collect();
    let rows = (0..h).map(|y| mean(w / 4..w * 3 / 4, y..y + 1)).collect();
    let ((x0, x1), (y0, y1)) = (span(columns), span(rows));
    if (x1 - x0) * 2 < w || (y1 - y0) * 2 < h {
        return [0, 0, w, h];
    }
    [x0, y0, x1, y1]
}

/// An A4 page's height over its width.
const A4_ASPECT: f64 = 297.0 / 210.0;

/// How much brighter (grey levels) the paper must be than what is around
/// it to be told from it.
const PAPER_CONTRAST: f64 = 60.0;

/// Sides sloping less than this (about a quarter of a degree) make a
/// table square to the picture: what is left, the skew takes out.
const SQUARE_SLOPE: f64 = 0.004;

/// The page turned by its ruled lines' skew, where no table was found to
/// square it to.
fn deskewed(work: &GrayImage, radius: u32) -> GrayImage {
    let slope = crate::page::align::skew(&adaptive_threshold(work, radius, 12));
    if slope.abs() < 0.0005 {
        return work.clone();
    }
    rotate_about_center(
        work,
        -slope.atan() as f32,
        Interpolation::Bilinear,
        Border::Constant(Luma([255])),
    )
}

/// A dark run on one row (or column): `line` across, `[start, end)` along.
#[derive(Debug, Clone, Copy)]
struct Run {
    line: usize,
    start: usize,
    end: usize,
}

/// Every dark run of at least `min` px along rows (`horizontal`) or columns.
fn runs(ink: &GrayImage, horizontal: bool, min: usize) -> Vec<Run> {
    let (w, h) = (ink.width() as usize, ink.height() as usize);
    let (len, lines) = if horizontal { (w, h) } else { (h, w) };
    let raw = ink.as_raw();
    let dark = |line: usize, i: usize| {
        let k = if horizontal {
            line * w + i
        } else {
            i * w + line
        };
        raw[k] == 0
    };
    let mut out = Vec::new();
    for line in 0..lines {
        let (mut start, mut last, mut gap) = (None, 0, 0);
        for i in 0..=len {
            let on = i < len && dark(line, i);
            if on {
                start.get_or_insert(i);
                last = i;
                gap = 0;
                continue;
            }
            gap += 1;
            if let Some(s) = start
                && (gap > GAP_PX || i == len)
            {
                if last + 1 - s >= min {
                    out.push(Run {
                        line,
                        start: s,
                        end: last + 1,
                    });
                }
                start = None;
            }
        }
    }
    out
}

/// Runs on neighbouring lines that overlap or touch joined into one ruled
/// line (a line still sloping a little is a staircase of runs): its
/// position the runs' mean line (pixel centres) weighted by length, its
/// ends the outermost runs', its width its ink over its length.
fn joined(runs: Vec<Run>) -> Vec<Rule> {
    // Union-find over the runs: each joins every run it touches on the line
    // before (runs come line by line, left to right).
    let mut parent: Vec<usize> = (0..runs.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let (mut before, mut current) = (0..0, 0..0);
    for i in 0..runs.len() {
        if i == 0 || runs[i].line != runs[i - 1].line {
            let previous_line = i > 0 && runs[i - 1].line + 1 == runs[i].line;
            before = if previous_line { current.clone() } else { i..i };
            current = i..i;
        }
        current.end = i + 1;
        let run = runs[i];
        for j in before.clone() {
            let r = runs[j];
            if run.start <= r.end + GAP_PX && r.start <= run.end + GAP_PX {
                let (a, b) = (root(&mut parent, i), root(&mut parent, j));
                parent[a] = b;
            }
        }
    }
    let mut groups: std::collections::BTreeMap<usize, Vec<Run>> = Default::default();
    for (i, run) in runs.iter().enumerate() {
        groups.entry(root(&mut parent, i)).or_default().push(*run);
    }
    groups.values().map(|g| rule_of(g)).collect()
}

fn rule_of(group: &[Run]) -> Rule {
    let ink: f64 = group.iter().map(|r| (r.end - r.start) as f64).sum();
    let at = group
        .iter()
        .map(|r| (r.line as f64 + 0.5) * (r.end - r.start) as f64)
        .sum::<f64>()
        / ink;
    let from = group.iter().map(|r| r.start).min().unwrap_or(0) as f64;
    let to = group.iter().map(|r| r.end).max().unwrap_or(0) as f64;
    Rule {
        at,
        from,
        to,
        width: ink / (to - from).max(1.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 2-px line from x 10 to 89 on row 20–21 and a 1-px one on row 50.
    #[test]
    fn runs_on_neighbouring_rows_should_make_one_line_with_its_width() {
        let mut ink = GrayImage::from_pixel(100, 80, Luma([255]));
        for x in 10..90 {
            ink.put_pixel(x, 20, Luma([0]));
            ink.put_pixel(x, 21, Luma([0]));
            ink.put_pixel(x, 50, Luma([0]));
        }
        // A gap of one light pixel is bridged.
        ink.put_pixel(40, 50, Luma([255]));
        let rules = joined(runs(&ink, true, 30));
        assert_eq!(rules.len(), 2, "{rules:?}");
        assert_eq!((rules[0].at, rules[0].width), (21.0, 2.0));
        assert_eq!((rules[0].from, rules[0].to), (10.0, 90.0));
        assert_eq!((rules[1].at, rules[1].width), (50.5, 1.0));
        assert!(joined(runs(&ink, false, 5)).is_empty());
    }
}
