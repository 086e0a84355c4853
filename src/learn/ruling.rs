//! The ruled lines of a blank form: the page straightened, every long dark
//! run along a row or a column, runs on neighbouring rows joined into one
//! line with its thickness. Positions are in mm of an A4-wide page.

use image::{GrayImage, imageops};
use imageproc::contrast::adaptive_threshold;

use super::straighten::{PictureEdges, Straight, straight};

/// The printed width of the page: a Punkteliste is A4.
pub const PAGE_WIDTH_MM: f64 = 210.0;
/// Work at most at this many px a mm (300 dpi): a phone photo is shrunk.
const MAX_PX_PER_MM: f64 = 12.0;
/// Shortest ruled line looked for: longer than a printed letter's stroke.
pub(super) const MIN_HORIZONTAL_MM: f64 = 4.0;
pub(super) const MIN_VERTICAL_MM: f64 = 6.0;
/// A run may skip this many light pixels (a scan's broken thin line).
const GAP_PX: usize = 2;

/// One ruled line: `at` across it, from `from` to `to` along it, all in mm.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rule {
    pub at: f64,
    pub from: f64,
    pub to: f64,
    pub width: f64,
    /// Its pixels' fitted slope: across per along, through `at` at `centre`.
    pub slope: f64,
    pub centre: f64,
}

impl Rule {
    pub fn len(&self) -> f64 {
        self.to - self.from
    }

    /// Where the line lies across at `along`.
    pub(super) fn across(&self, along: f64) -> f64 {
        self.at + self.slope * (along - self.centre)
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
    /// Where the picture ended on it.
    pub edges: PictureEdges,
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
        let Straight { gray, edges } = straight(&work, radius);
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
                    centre: r.centre / px_per_mm,
                    ..r
                })
                .collect()
        };
        let horizontal = to_mm(lines(&ink, true, min_h));
        let vertical = to_mm(lines(&ink, false, min_v));
        let page_mm = [PAGE_WIDTH_MM, f64::from(gray.height()) / px_per_mm];
        Ruling {
            horizontal,
            vertical,
            ink,
            gray,
            edges,
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

/// The ruled lines of `ink` along rows (`horizontal`) or columns, of
/// dark runs at least `min` px long, in px.
pub(super) fn lines(ink: &GrayImage, horizontal: bool, min: usize) -> Vec<Rule> {
    joined(runs(ink, horizontal, min))
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

/// A group of runs as one line: the least-squares line through its pixels.
fn rule_of(group: &[Run]) -> Rule {
    let len = |r: &Run| (r.end - r.start) as f64;
    let mid = |r: &Run| (r.start + r.end) as f64 / 2.0;
    let across = |r: &Run| r.line as f64 + 0.5;
    let ink: f64 = group.iter().map(len).sum();
    let at = group.iter().map(|r| across(r) * len(r)).sum::<f64>() / ink;
    let centre = group.iter().map(|r| mid(r) * len(r)).sum::<f64>() / ink;
    // A run's pixels spread along it as len²/12 about its middle.
    let spread: f64 = group
        .iter()
        .map(|r| len(r) * ((mid(r) - centre).powi(2) + len(r).powi(2) / 12.0))
        .sum();
    let together: f64 = group
        .iter()
        .map(|r| len(r) * (mid(r) - centre) * (across(r) - at))
        .sum();
    let from = group.iter().map(|r| r.start).min().unwrap_or(0) as f64;
    let to = group.iter().map(|r| r.end).max().unwrap_or(0) as f64;
    Rule {
        at,
        from,
        to,
        width: ink / (to - from).max(1.0),
        slope: together / spread.max(1.0),
        centre,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Luma;

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
        assert_eq!((rules[0].slope, rules[1].slope), (0.0, 0.0));
    }

    /// A line dropping one row every 50 px is fitted through its pixels.
    #[test]
    fn a_sloping_line_should_be_fitted_with_its_slope() {
        let mut ink = GrayImage::from_pixel(400, 60, Luma([255]));
        for x in 0..400 {
            ink.put_pixel(x, 20 + x / 50, Luma([0]));
        }
        let rules = joined(runs(&ink, true, 30));
        assert_eq!(rules.len(), 1, "{rules:?}");
        let r = rules[0];
        assert!((r.slope - 0.02).abs() < 0.001, "slope {}", r.slope);
        // Each step's middle on the line: row 20 (centre 20.5) at x 25.
        assert!((r.across(25.0) - 20.5).abs() < 0.1, "{r:?}");
        assert!((r.across(375.0) - 27.5).abs() < 0.1, "{r:?}");
    }
}
