//! Alignment: finds the printed ruled grid of a form on a page image and
//! fits a homography from form millimetres to image pixels.
//!
//! No registration marks: the game table's outer frame gives a first
//! estimate (its four corners), every ruled line of the template then pulls
//! the fit onto the lines actually printed (iterated least squares over
//! hundreds of line points). The share of line points found is the fit
//! quality; a page that does not reach it is not this form.

use crate::page::unreadable::Unreadable;
use image::Luma;
use image::{GrayImage, imageops};
use imageproc::contrast::adaptive_threshold;

use crate::page::form::FormTemplate;
use crate::page::geometry::Homography;

mod thick;
pub use thick::align_thick;

/// Below this share of template line points found, the page is not the form.
pub const MIN_FIT: f64 = 0.6;

/// As [`MIN_FIT`], for lines found over gaps ([`prepare_dashed`]): bridged
/// and filled runs lift a foreign form's share too (a Doppelkopf page on
/// the merkur form: 0.41 by whole runs, 0.50 over gaps), where the
/// black-and-white pages that need them fit 0.75-1.0 (docs/measurements.md).
pub const MIN_FIT_DASHED: f64 = 0.7;

/// The working image side: large enough for 0.2 mm lines, small enough to be fast.
const WORK_SIDE: f64 = 1800.0;

/// A page image with the line masks alignment needs, at working resolution.
pub struct Prepared {
    /// Working scale: working px per original px.
    pub scale: f64,
    pub horizontal: GrayImage,
    pub vertical: GrayImage,
    pub width: u32,
    pub height: u32,
    /// The corners of the largest ruled structures (see [`grid_corners`]):
    /// they depend on the page alone, so every form tried shares them.
    corners: Vec<[(f64, f64); 4]>,
}

/// Where the form lies on the page.
#[derive(Debug, Clone)]
pub struct Alignment {
    /// Form mm -> original image px.
    pub to_image: Homography,
    /// Share of template line points found on a ruled line (0..1).
    pub fit: f64,
    /// Mean distance of found line points from the template, in mm.
    pub residual_mm: f64,
    /// The page was upside down (or turned by 90°: the quarter turns).
    pub quarter_turns: u8,
    /// Found by its thick lines alone ([`align_thick`]): `fit` is their
    /// share, and never makes the form sure by itself.
    pub thin_lines_lost: bool,
}

impl Prepared {
    /// The corners (clockwise from top-left, original px) of the largest
    /// connected structure of ruled lines: on a blank form, its game table.
    pub fn largest_structure(&self) -> Option<[(f64, f64); 4]> {
        let back = 1.0 / self.scale;
        self.corners
            .first()
            .map(|q| q.map(|(x, y)| (x * back, y * back)))
    }

    /// A map into working px made a map into the original image's px.
    fn to_original(&self, working: &Homography) -> Homography {
        let back = 1.0 / self.scale;
        working.then(&Homography::scale_translate(back, back, 0.0, 0.0))
    }
}

pub fn prepare(page: &GrayImage) -> Prepared {
    prepare_with(page, &[0.0])
}

/// As [`prepare`], for a page whose lines slope differently across it (a
/// phone photo's strong perspective): line runs are looked for at the page's
/// skew plus each of these extra angles (degrees).
pub fn prepare_with(page: &GrayImage, extra_deg: &[f64]) -> Prepared {
    prepare_runs(page, extra_deg, WHOLE)
}

/// As [`prepare`], for a page whose thin lines came apart into dashes (a
/// black-and-white scan at 150 dpi: a 0.2 mm line is one pixel, and the
/// threshold breaks it every millimetre or two): line runs going on over
/// gaps of [`DASH_GAP_MM`] are taken, their gaps filled, so that a line is
/// found wherever along it it is looked for. The table is started from the
/// corners of `whole` too (the page prepared by whole runs): its thick frame
/// lies there unbroken, where bridged gaps can join it to the writing.
/// Only for a page no form fits otherwise: on others, runs over gaps
/// changed what was found.
pub fn prepare_dashed(page: &GrayImage, whole: Option<&Prepared>) -> Prepared {
    let runs = Runs {
        gap_mm: DASH_GAP_MM,
        share: DASH_INK_SHARE,
        fill: true,
    };
    let mut prep = prepare_runs(page, &[-2.0, -1.0, 0.0, 1.0, 2.0], runs);
    if let Some(whole) = whole {
        prep.corners.splice(0..0, whole.corners.iter().copied());
    }
    prep
}

/// A ruled line is ink over this many mm (one pixel either way).
const RUN_MM: f64 = 7.0;

/// See [`prepare_dashed`]: a line's run goes on over gaps this long (mm),
/// where at least [`DASH_INK_SHARE`] of it is ink. Measured on 60
/// black-and-white pages at 150 dpi (docs/measurements.md).
pub const DASH_GAP_MM: f64 = 2.0;
const DASH_INK_SHARE: f64 = 0.4;

/// How a ruled line's runs are taken: over gaps up to `gap_mm` where at
/// least `share` of the run is ink, the gaps marked as line where `fill`.
#[derive(Debug, Clone, Copy)]
struct Runs {
    gap_mm: f64,
    share: f64,
    fill: bool,
}

/// Whole runs: no gap.
const WHOLE: Runs = Runs {
    gap_mm: 0.0,
    share: 0.5,
    fill: false,
};

fn prepare_runs(page: &GrayImage, extra_deg: &[f64], runs: Runs) -> Prepared {
    let (w, h) = page.dimensions();
    let scale = (WORK_SIDE / f64::from(w.max(h))).min(1.0);
    let work = if scale < 1.0 {
        shrink(
            page,
            ((f64::from(w) * scale).round() as u32).max(1),
            ((f64::from(h) * scale).round() as u32).max(1),
        )
    } else {
        page.clone()
    };
    let (ww, wh) = work.dimensions();
    // Page width in working px if the page fills the image: lines are a few mm at least.
    let px_per_mm = f64::from(ww.max(wh)) / 297.0;
    let radius = ((px_per_mm * 3.0).round() as u32).max(2);
    let bin = adaptive_threshold(&work, radius, 12);
    let base = skew(&bin).atan();
    let mut horizontal = GrayImage::new(ww, wh);
    let mut vertical = GrayImage::new(ww, wh);
    for (mask, is_h) in [(&mut horizontal, true), (&mut vertical, false)] {
        let along = Along::new(&bin, is_h);
        for d in extra_deg {
            let t = (base + d.to_radians()).tan();
            along.mark_runs(runs, px_per_mm, t, mask);
        }
    }
    let corners = grid_corners(&horizontal, &vertical);
    Prepared {
        scale,
        horizontal,
        vertical,
        width: ww,
        height: wh,
        corners,
    }
}

/// The page shrunk to `w`×`h` with a bilinear convolution (which averages
/// over the whole source footprint when shrinking). The SIMD resizer takes a
/// fraction of the image crate's time, and finding the form was the largest
/// single step. A box filter was as fast but misaligned one phone photo.
fn shrink(page: &GrayImage, w: u32, h: u32) -> GrayImage {
    use fast_image_resize::{FilterType, PixelType, ResizeAlg, ResizeOptions, Resizer, images};
    let (pw, ph) = page.dimensions();
    let resized = images::ImageRef::new(pw, ph, page.as_raw(), PixelType::U8)
        .ok()
        .and_then(|src| {
            let mut dst = images::Image::new(w, h, PixelType::U8);
            let options =
                ResizeOptions::new().resize_alg(ResizeAlg::Convolution(FilterType::Bilinear));
            Resizer::new().resize(&src, &mut dst, &options).ok()?;
            GrayImage::from_raw(w, h, dst.into_vec())
        });
    resized.unwrap_or_else(|| imageops::thumbnail(page, w, h))
}

/// The page's rotation as a slope (tan): the angle at which the dark pixels'
/// projection across the lines is sharpest (ruled lines dominate it).
pub(crate) fn skew(bin: &GrayImage) -> f64 {
    let dark: Vec<(f64, f64)> = bin
        .enumerate_pixels()
        .filter(|(x, y, p)| p[0] == 0 && (x + y) % 3 == 0)
        .map(|(x, y, _)| (f64::from(x), f64::from(y)))
        .collect();
    let size = (bin.width() + bin.height()) as usize * 2;
    let mut best = (0.0, f64::MIN);
    for step in -24..=24 {
        let t = (f64::from(step) * 0.5).to_radians().tan();
        let mut hist = vec![0u32; size];
        for &(x, y) in &dark {
            let b = (y - x * t) as isize + size as isize / 2;
            if let Some(h) = usize::try_from(b).ok().and_then(|b| hist.get_mut(b)) {
                *h += 1;
            }
        }
        let score: f64 = hist.iter().map(|&h| f64::from(h) * f64::from(h)).sum();
        if score > best.1 {
            best = (t, score);
        }
    }
    best.0
}

/// A binarised page laid out along one direction of its lines: row `a`
/// holds the pixels along line position `a` (a row of the page for
/// horizontal lines, a column for vertical ones), so that following a line
/// reads memory in order either way.
struct Along {
    horizontal: bool,
    /// Pixels along a line, and line positions across.
    len: usize,
    lines: usize,
    /// Dark (0 in the page), `lines` rows of `len`.
    dark: Vec<bool>,
    /// Dark here or one pixel across (the hot loop's test), with a row
    /// before the first line position and one after the last: there, dark
    /// where the page's edge row is.
    near: Vec<bool>,
}

impl Along {
    fn new(bin: &GrayImage, horizontal: bool) -> Along {
        let (w, h) = (bin.width() as usize, bin.height() as usize);
        let (len, lines) = if horizontal { (w, h) } else { (h, w) };
        let raw = bin.as_raw();
        let mut dark = vec![false; lines * len];
        for y in 0..h {
            for x in 0..w {
                let (a, i) = if horizontal { (y, x) } else { (x, y) };
                dark[a * len + i] = raw[y * w + x] == 0;
            }
        }
        let mut near = vec![false; (lines + 2) * len];
        let row = |a: usize| &dark[a * len..(a + 1) * len];
        for a in 0..lines {
            let out = &mut near[(a + 1) * len..(a + 2) * len];
            out.copy_from_slice(row(a));
            for across in [a.checked_sub(1), Some(a + 1).filter(|&b| b < lines)]
                .into_iter()
                .flatten()
            {
                for (o, &d) in out.iter_mut().zip(row(across)) {
                    *o |= d;
                }
            }
        }
        if lines > 0 {
            near[..len].copy_from_slice(row(0));
            near[(lines + 1) * len..].copy_from_slice(row(lines - 1));
        }
        Along {
            horizontal,
            len,
            lines,
            dark,
            near,
        }
    }

    /// Marks in `mask` the dark pixels on a run of at least [`RUN_MM`]
    /// along lines of slope `t`, counting a pixel dark when it or a
    /// neighbour across the run is dark (what the slope leaves of the
    /// skew, and perspective, is tolerated); a run goes on over gaps of
    /// `runs.gap_mm`, which are marked too where `runs.fill`.
    fn mark_runs(&self, runs: Runs, px_per_mm: f64, t: f64, mask: &mut GrayImage) {
        let min_run = ((px_per_mm * RUN_MM).round() as usize).max(8);
        let gap = (px_per_mm * runs.gap_mm).round() as usize;
        let (len, lines) = (self.len, self.lines as i64);
        // Vertical lines lean the other way under a rotation.
        let t = if self.horizontal { t } else { -t };
        let near_at =
            |i: usize, a: i64| (-1..=lines).contains(&a) && self.near[(a + 1) as usize * len + i];
        let offset: Vec<i64> = (0..len).map(|i| (i as f64 * t).round() as i64).collect();
        let width = mask.width() as usize;
        let out = &mut **mask;
        let reach = (len as f64 * t.abs()).ceil() as i64 + 1;
        for line in -reach..lines + reach {
            // A run: where it starts, its last pixel on the line, how many are.
            let mut run: Option<(usize, usize, usize)> = None;
            for i in 0..=len {
                if i < len && near_at(i, line + offset[i]) {
                    run = Some(run.map_or((i, i, 1), |(s, _, n)| (s, i, n + 1)));
                    continue;
                }
                let Some((s, last, n)) = run else { continue };
                if i < len && i - last <= gap {
                    continue;
                }
                let long = last + 1 - s;
                if long >= min_run && n as f64 >= runs.share * long as f64 {
                    for (j, off) in offset.iter().enumerate().take(last + 1).skip(s) {
                        let a = line + off;
                        if !(0..lines).contains(&a) {
                            continue;
                        }
                        let a = a as usize;
                        if runs.fill || self.dark[a * len + j] {
                            let (x, y) = if self.horizontal { (j, a) } else { (a, j) };
                            out[y * width + x] = 255;
                        }
                    }
                }
                run = None;
            }
        }
    }
}

/// Fits `form` onto the prepared page, or says why not.
pub fn align(prep: &Prepared, form: &FormTemplate) -> Result<Alignment, Unreadable> {
    align_on(prep, form, &line_samples(form))
}

/// As [`align`], the fit pulled and measured by `samples` alone.
fn align_on(
    prep: &Prepared,
    form: &FormTemplate,
    samples: &[Sample],
) -> Result<Alignment, Unreadable> {
    if prep.corners.is_empty() {
        return Err(Unreadable::NoTable);
    }
    let [gx, gy, gw, gh] = form.grid();
    let template = [(gx, gy), (gx + gw, gy), (gx + gw, gy + gh), (gx, gy + gh)];
    // Every structure in each of four turns is a start; one pass of line
    // search ranks them, and the full refinement runs best first, skipping
    // starts whose first pass found under half the best fit's share (a
    // wrong start never comes near a right one: 0.05-0.4 against 0.9+).
    let mut starts: Vec<(f64, u8, Homography)> = prep
        .corners
        .iter()
        .flat_map(|c| (0..4u8).map(move |t| (c, t)))
        .filter_map(|(corners, turns)| {
            let pairs: Vec<_> = (0..4)
                .map(|i| (template[i], corners[(i + turns as usize) % 4]))
                .collect();
            let h0 = Homography::fit(&pairs)?;
            let (share, _, _) = refine(prep, samples, h0, &RADII_MM[..1])?;
            Some((share, turns, h0))
        })
        .collect();
    starts.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut best: Option<Alignment> = None;
    for (first, turns, h0) in starts {
        if best.as_ref().is_some_and(|b| first < b.fit / 2.0) {
            break;
        }
        let Some(fitted) = refine(prep, samples, h0, &RADII_MM) else {
            continue;
        };
        if best.as_ref().is_none_or(|b| fitted.0 > b.fit) {
            let to_image = prep.to_original(&fitted.1);
            best = Some(Alignment {
                to_image,
                fit: fitted.0,
                residual_mm: fitted.2,
                quarter_turns: turns,
                thin_lines_lost: false,
            });
        }
    }
    best.ok_or(Unreadable::TableMismatch)
}

/// The search radii from a seed that lies right near one spot of the page
/// and drifts away from it (a printed code's 15 mm): wider first passes.
const SEEDED_RADII_MM: [f64; 7] = [5.0, 3.5, 2.4, 1.6, 1.0, 0.7, 0.7];

/// Fits `form` onto the prepared page from `seed` (form mm → original px),
/// a start found by other means than the ruled lines (the printed code).
/// The fit says how many line points were found; `None` where the lines
/// could not be followed at all.
pub fn align_from(prep: &Prepared, form: &FormTemplate, seed: &Homography) -> Option<Alignment> {
    let to_work = Homography::scale_translate(prep.scale, prep.scale, 0.0, 0.0);
    let samples = line_samples(form);
    let (fit, h, residual_mm) = refine(prep, &samples, seed.then(&to_work), &SEEDED_RADII_MM)?;
    let to_image = prep.to_original(&h);
    Some(Alignment {
        quarter_turns: quarter_turns(&to_image),
        thin_lines_lost: false,
        to_image,
        fit,
        residual_mm,
    })
}

/// How far the form's x axis is turned on the page, in quarter turns clockwise.
pub fn quarter_turns(to_image: &Homography) -> u8 {
    let (a, b) = (to_image.apply((0.0, 0.0)), to_image.apply((100.0, 0.0)));
    let angle = (b.1 - a.1).atan2(b.0 - a.0);
    let quarters = (angle / std::f64::consts::FRAC_PI_2).round() as i64;
    quarters.rem_euclid(4) as u8
}

/// The four corners (clockwise from top-left, in working px) of the largest
/// connected structures of ruled lines: one of them is the game table (the
/// edge of a dark scanner bed or a table top can be larger). A structure
/// with one corner on the image's edge also starts from its [`completed`]
/// corners. Labelled on
/// the line masks pooled 2×2 (a quarter of the pixels; the corners only
/// start the refinement, which searches 2.4 mm around them).
fn grid_corners(horizontal: &GrayImage, vertical: &GrayImage) -> Vec<[(f64, f64); 4]> {
    let (w, h) = horizontal.dimensions();
    let (pw, ph) = (w.div_ceil(2), h.div_ceil(2));
    let mut union = GrayImage::new(pw, ph);
    for mask in [horizontal, vertical] {
        for (x, y, p) in mask.enumerate_pixels() {
            if p[0] > 0 {
                union.put_pixel(x / 2, y / 2, Luma([255]));
            }
        }
    }
    let labels = crate::page::label::connected_components(&union, 0);
    // Labels run 1..=n: a box per label, indexed by it.
    let mut boxes: Vec<Option<(u32, u32, u32, u32)>> = Vec::new();
    for (x, y, l) in labels.enumerate_pixels() {
        let l = l[0] as usize;
        if l == 0 {
            continue;
        }
        if boxes.len() <= l {
            boxes.resize(l + 1, None);
        }
        let e = boxes[l].get_or_insert((x, y, x, y));
        e.0 = e.0.min(x);
        e.1 = e.1.min(y);
        e.2 = e.2.max(x);
        e.3 = e.3.max(y);
    }
    let side = pw.max(ph);
    let mut big: Vec<(u32, u64)> = boxes
        .iter()
        .enumerate()
        .filter_map(|(l, b)| Some((l as u32, (*b)?)))
        .filter(|(_, b)| (b.2 - b.0).min(b.3 - b.1) >= side / 6)
        .map(|(l, b)| (l, u64::from(b.2 - b.0) * u64::from(b.3 - b.1)))
        .collect();
    big.sort_by_key(|&(l, area)| (std::cmp::Reverse(area), l));
    big.truncate(4);
    let mut ext = vec![[(f64::MAX, (0.0, 0.0)); 4]; big.len()];
    for (x, y, l) in labels.enumerate_pixels() {
        if l[0] == 0 {
            continue;
        }
        let Some(i) = big.iter().position(|b| b.0 == l[0]) else {
            continue;
        };
        // The pooled pixel's centre in working px.
        let (fx, fy) = (f64::from(x) * 2.0 + 0.5, f64::from(y) * 2.0 + 0.5);
        let keys = [fx + fy, -(fx - fy), -(fx + fy), fx - fy];
        for (k, e) in keys.iter().zip(ext[i].iter_mut()) {
            if *k < e.0 {
                *e = (*k, (fx, fy));
            }
        }
    }
    // Order: top-left (min x+y), top-right (max x-y), bottom-right (max x+y), bottom-left (min x-y).
    let quads: Vec<[(f64, f64); 4]> = ext
        .into_iter()
        .map(|e| [e[0].1, e[1].1, e[2].1, e[3].1])
        .collect();
    let mut starts = quads.clone();
    starts.extend(quads.iter().filter_map(|q| completed(q, w, h)));
    starts
}

/// How near the image's edge (working px) a corner is taken to be cut off.
const CUT_OFF_PX: f64 = 4.0;

/// A structure whose one corner lies on the image's edge ran off the
/// image (a page put crooked on the scanner): that corner is where the
/// structure leaves the image, not the table's, and a start from it can
/// settle on the ruled lines a row or a column off. The corner as the
/// other three make it a parallelogram is a second start; the better fit
/// wins.
fn completed(q: &[(f64, f64); 4], w: u32, h: u32) -> Option<[(f64, f64); 4]> {
    let (w, h) = (f64::from(w), f64::from(h));
    let cut = |&(x, y): &(f64, f64)| {
        x < CUT_OFF_PX || y < CUT_OFF_PX || x > w - 1.0 - CUT_OFF_PX || y > h - 1.0 - CUT_OFF_PX
    };
    let mut on_edge = (0..4).filter(|&i| cut(&q[i]));
    let i = on_edge.next()?;
    if on_edge.next().is_some() {
        return None;
    }
    let (a, b, c) = (q[(i + 3) % 4], q[(i + 2) % 4], q[(i + 1) % 4]);
    let mut out = *q;
    out[i] = (a.0 + c.0 - b.0, a.1 + c.1 - b.1);
    Some(out)
}

/// A point on a template line and whether the line is horizontal.
struct Sample {
    mm: (f64, f64),
    horizontal: bool,
}

fn line_samples(form: &FormTemplate) -> Vec<Sample> {
    samples_of(&form.lines)
}

/// Points along each of `lines` ([`line_samples`]).
fn samples_of(lines: &[[f64; 5]]) -> Vec<Sample> {
    let mut out = Vec::new();
    for &[x1, y1, x2, y2, _] in lines {
        let horizontal = (y1 - y2).abs() < 1e-6;
        let len = ((x2 - x1).powi(2) + (y2 - y1).powi(2)).sqrt();
        if len < 4.0 {
            continue;
        }
        let n = (len / 2.5).floor() as usize;
        for i in 0..n {
            let t = (1.2 + (len - 2.4) * (i as f64 + 0.5) / n as f64) / len;
            out.push(Sample {
                mm: (x1 + (x2 - x1) * t, y1 + (y2 - y1) * t),
                horizontal,
            });
        }
    }
    out
}

/// The search radius of each pass of [`refine`]: wide first, then close.
const RADII_MM: [f64; 5] = [2.4, 1.6, 1.0, 0.7, 0.7];

/// Iterated least squares: every sample looks for its line along the normal.
/// Returns (fit share, homography in working px, mean residual in mm).
fn refine(
    prep: &Prepared,
    samples: &[Sample],
    start: Homography,
    radii_mm: &[f64],
) -> Option<(f64, Homography, f64)> {
    let mut h = start;
    let mut result = None;
    for &radius_mm in radii_mm {
        let mut pairs = Vec::with_capacity(samples.len());
        let mut dist_mm = 0.0;
        for s in samples {
            if let Some((found, off_mm)) = probe(prep, &h, s, radius_mm)? {
                dist_mm += off_mm;
                pairs.push((s.mm, found));
            }
        }
        let share = pairs.len() as f64 / samples.len().max(1) as f64;
        let mean = dist_mm / pairs.len().max(1) as f64;
        if pairs.len() < 12 {
            return result.or(Some((share, h, mean)));
        }
        let next = Homography::fit(&pairs)?;
        result = Some((share, h, mean));
        h = next;
    }
    result.map(|(share, _, mean)| (share, h, mean))
}

/// Where sample `s`'s line was found near where `h` (form mm → working
/// px) puts it, within `radius_mm` along its normal, and how far off (mm);
/// `Some(None)` where it was not, `None` where `h` squashes the page.
fn probe(
    prep: &Prepared,
    h: &Homography,
    s: &Sample,
    radius_mm: f64,
) -> Option<Option<((f64, f64), f64)>> {
    let p = h.apply(s.mm);
    // Pixels per mm along the normal, from the current map.
    let q = if s.horizontal {
        h.apply((s.mm.0, s.mm.1 + 1.0))
    } else {
        h.apply((s.mm.0 + 1.0, s.mm.1))
    };
    let (nx, ny) = (q.0 - p.0, q.1 - p.1);
    let px_mm = (nx * nx + ny * ny).sqrt();
    if !px_mm.is_finite() || px_mm < 0.5 {
        return None;
    }
    // The line runs across its normal: on a page turned a quarter the
    // form's horizontal lines are the image's vertical ones.
    let mask = if ny.abs() >= nx.abs() {
        &prep.horizontal
    } else {
        &prep.vertical
    };
    let off = find_line(mask, p, (nx / px_mm, ny / px_mm), radius_mm * px_mm);
    Some(off.map(|off| {
        let found = (p.0 + nx / px_mm * off, p.1 + ny / px_mm * off);
        (found, off.abs() / px_mm)
    }))
}

/// How near (mm) a header line must lie where the fit puts it: as close
/// as the last pass of the fit looks, so that a box a row off is missed.
const HEADER_REACH_MM: f64 = 0.7;

/// The share of `form`'s ruled lines above its game table (the round and
/// table boxes, the player block) found where `to_image` (form mm →
/// original px) puts them; `None` where the form rules none there. The
/// game table fits a look-alike whose header lies elsewhere; this is what
/// tells them apart by lines.
pub fn header_share(prep: &Prepared, form: &FormTemplate, to_image: &Homography) -> Option<f64> {
    let top = form.grid()[1] - 0.5;
    let header: Vec<[f64; 5]> = form
        .lines
        .iter()
        .filter(|l| l[1].max(l[3]) < top)
        .copied()
        .collect();
    let samples = samples_of(&header);
    if samples.is_empty() {
        return None;
    }
    let to_work = Homography::scale_translate(prep.scale, prep.scale, 0.0, 0.0);
    let h = to_image.then(&to_work);
    let found = samples
        .iter()
        .filter(|s| matches!(probe(prep, &h, s, HEADER_REACH_MM), Some(Some(_))))
        .count();
    Some(found as f64 / samples.len() as f64)
}

/// Offset (px, along the unit normal) of the centre of the nearest mask run within `radius`.
fn find_line(mask: &GrayImage, p: (f64, f64), n: (f64, f64), radius: f64) -> Option<f64> {
    let r = radius.ceil() as i32;
    let on = |t: i32| -> bool {
        let x = (p.0 + n.0 * f64::from(t)).round();
        let y = (p.1 + n.1 * f64::from(t)).round();
        x >= 0.0
            && y >= 0.0
            && (x as u32) < mask.width()
            && (y as u32) < mask.height()
            && mask.get_pixel(x as u32, y as u32)[0] > 0
    };
    let mut best: Option<f64> = None;
    let mut t = -r;
    while t <= r {
        if on(t) {
            let start = t;
            while t < r && on(t + 1) {
                t += 1;
            }
            let centre = f64::from(start + t) / 2.0;
            if best.is_none_or(|b| centre.abs() < b.abs()) {
                best = Some(centre);
            }
        }
        t += 1;
    }
    best.filter(|b| b.abs() <= radius)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::render::render_form;

    #[test]
    fn a_rendered_form_aligns_to_itself() {
        let form = FormTemplate::load("punkteliste-a4-32").expect("form");
        let page = render_form(&form, 150.0);
        let a = align(&prepare(&page), &form).expect("aligned");
        assert!(a.fit > 0.95, "fit {}", a.fit);
        assert_eq!(a.quarter_turns, 0);
        let (x, y) = a.to_image.apply((100.0, 150.0));
        let px = 150.0 / 25.4;
        assert!(
            (x - 100.0 * px).abs() < 1.5 && (y - 150.0 * px).abs() < 1.5,
            "{x} {y}"
        );
    }

    /// Thin lines broken into dashes of 8 px with gaps of 8 px (1.35 mm at
    /// 150 dpi), as a black-and-white scan breaks them, the frame's thick
    /// lines whole: too few 7 mm runs are left, so the form is found only
    /// where runs go on over gaps.
    #[test]
    fn a_form_whose_lines_came_apart_into_dashes_is_found_over_the_gaps() {
        let form = FormTemplate::load("punkteliste-a4-32").expect("form");
        let drawn = render_form(&form, 150.0);
        let dark = |x: i64, y: i64| {
            let (x, y) = (
                x.clamp(0, i64::from(drawn.width()) - 1),
                y.clamp(0, i64::from(drawn.height()) - 1),
            );
            drawn.get_pixel(x as u32, y as u32)[0] < 128
        };
        // Within a pixel of a pixel whose 3×3 square is all dark.
        let core = |x: i64, y: i64| (-1..=1).all(|dy| (-1..=1).all(|dx| dark(x + dx, y + dy)));
        let thick = |x: i64, y: i64| (-1..=1).any(|dy| (-1..=1).any(|dx| core(x + dx, y + dy)));
        let mut page = drawn.clone();
        for (x, y, p) in page.enumerate_pixels_mut() {
            let (xi, yi) = (i64::from(x), i64::from(y));
            // Black and white, as such a scanner gives it.
            p[0] = if dark(xi, yi) { 0 } else { 255 };
            if p[0] == 255 || thick(xi, yi) {
                continue;
            }
            // Along a horizontal line gaps fall by x, along a vertical by y.
            let along_x = dark(xi - 1, yi) && dark(xi + 1, yi);
            if (along_x && x % 16 < 8) || (!along_x && y % 16 < 8) {
                p[0] = 255;
            }
        }
        let whole = align(&prepare(&page), &form).map_or(0.0, |a| a.fit);
        let a = align(&prepare_dashed(&page, None), &form).expect("aligned");
        assert!(
            whole < MIN_FIT && a.fit >= MIN_FIT_DASHED,
            "fit {} against {whole}",
            a.fit
        );
        let (x, y) = a.to_image.apply((100.0, 150.0));
        let px = 150.0 / 25.4;
        assert!(
            (x - 100.0 * px).abs() < 1.5 && (y - 150.0 * px).abs() < 1.5,
            "{x} {y}"
        );
    }

    #[test]
    fn an_upside_down_form_is_found_turned() {
        let form = FormTemplate::load("doko-a4-24x5").expect("form");
        let page = imageops::rotate180(&render_form(&form, 120.0));
        let a = align(&prepare(&page), &form).expect("aligned");
        assert!(a.fit > 0.9, "fit {}", a.fit);
        assert_eq!(a.quarter_turns, 2);
        let (x, y) = a.to_image.apply((20.0, 30.0));
        let px = 120.0 / 25.4;
        assert!(
            (x - (210.0 - 20.0) * px).abs() < 2.0 && (y - (297.0 - 30.0) * px).abs() < 2.0,
            "{x} {y}"
        );
    }

    /// A landscape scan: the page turned a quarter either way.
    #[test]
    fn a_form_turned_a_quarter_is_found_turned() {
        let form = FormTemplate::load("punkteliste-a4-32").expect("form");
        let upright = render_form(&form, 120.0);
        let px = 120.0 / 25.4;
        let (w, h) = (210.0 * px, 297.0 * px);
        let clockwise = imageops::rotate90(&upright);
        let counter = imageops::rotate270(&upright);
        // Form mm (20, 30) on each turned page, in px.
        for (page, turns, want) in [
            (clockwise, 1, (h - 30.0 * px, 20.0 * px)),
            (counter, 3, (30.0 * px, w - 20.0 * px)),
        ] {
            let a = align(&prepare(&page), &form).expect("aligned");
            assert!(a.fit > 0.9, "fit {}", a.fit);
            assert_eq!(a.quarter_turns, turns);
            let (x, y) = a.to_image.apply((20.0, 30.0));
            assert!(
                (x - want.0).abs() < 2.0 && (y - want.1).abs() < 2.0,
                "{x} {y}, want {want:?}"
            );
        }
    }

    /// A page put crooked on the scanner, its table's one corner off the
    /// image (fA1102 merkur-0069: read a row and a column off, 63 flags).
    #[test]
    fn a_table_with_a_corner_off_the_image_should_align_as_on_the_whole_page() {
        use imageproc::geometric_transformations::{Border, Interpolation, rotate_about_center};
        let form = FormTemplate::load("punkteliste-a4-32").expect("form");
        let page = rotate_about_center(
            &render_form(&form, 150.0),
            5f32.to_radians(),
            Interpolation::Bilinear,
            Border::Constant(Luma([255])),
        );
        let whole = align(&prepare(&page), &form).expect("whole page aligned");
        let [gx, gy, gw, gh] = form.grid();
        let (top_left, bottom_left) = (
            whole.to_image.apply((gx, gy)),
            whole.to_image.apply((gx, gy + gh)),
        );
        // Cut the page between the table's two left corners' x: one is off.
        let x0 = ((top_left.0 + bottom_left.0) / 2.0).round() as u32;
        let (w, h) = page.dimensions();
        let cut = imageops::crop_imm(&page, x0, 0, w - x0, h).to_image();
        let a = align(&prepare(&cut), &form).expect("cut page aligned");
        for mm in [
            (gx + gw - 10.0, gy + gh - 5.0),
            (gx + 30.0, gy + gh - 5.0),
            (gx + gw - 10.0, gy + 5.0),
        ] {
            let (x, y) = a.to_image.apply(mm);
            let (wx, wy) = whole.to_image.apply(mm);
            assert!(
                (x + f64::from(x0) - wx).abs() < 1.5 && (y - wy).abs() < 1.5,
                "{mm:?}: {x} {y}, on the whole page {wx} {wy}, cut at {x0}"
            );
        }
    }

    #[test]
    fn runs_should_be_marked_along_their_own_direction_only_where_long_enough() {
        // White (255) page; a horizontal line of 60 px at row 10, a dash of
        // 5 px at row 30, a vertical line of 60 px at column 70.
        let mut bin = GrayImage::from_pixel(100, 80, Luma([255]));
        (5..65).for_each(|x| bin.put_pixel(x, 10, Luma([0])));
        (5..10).for_each(|x| bin.put_pixel(x, 30, Luma([0])));
        (15..75).for_each(|y| bin.put_pixel(70, y, Luma([0])));
        let marked = |horizontal: bool| {
            let mut mask = GrayImage::new(100, 80);
            Along::new(&bin, horizontal).mark_runs(WHOLE, 2.0, 0.0, &mut mask);
            mask
        };
        let (h, v) = (marked(true), marked(false));
        assert_eq!(h.get_pixel(30, 10)[0], 255, "the long horizontal line");
        assert_eq!(h.get_pixel(7, 30)[0], 0, "a dash is no line");
        assert_eq!(
            h.get_pixel(70, 40)[0],
            0,
            "across a vertical line is no run"
        );
        assert_eq!(v.get_pixel(70, 40)[0], 255, "the long vertical line");
        assert_eq!(
            v.get_pixel(30, 10)[0],
            0,
            "across a horizontal line is no run"
        );
    }

    use proptest::prelude::*;

    /// How the runs were marked before they were followed along a copy
    /// laid out in each direction: what [`Along::mark_runs`] must mark.
    fn runs_mask_as_before(
        bin: &GrayImage,
        runs: Runs,
        px_per_mm: f64,
        horizontal: bool,
        t: f64,
    ) -> GrayImage {
        let min_run = ((px_per_mm * RUN_MM).round() as usize).max(8);
        let gap = (px_per_mm * runs.gap_mm).round() as usize;
        let (w, h) = bin.dimensions();
        let (len, lines) = if horizontal { (w, h) } else { (h, w) };
        // Vertical lines lean the other way under a rotation.
        let t = if horizontal { t } else { -t };
        // Buffer index of the pixel `i` along and `a` across.
        let index = |i: u32, a: u32| -> usize {
            if horizontal {
                a as usize * w as usize + i as usize
            } else {
                i as usize * w as usize + a as usize
            }
        };
        let dark: Vec<bool> = bin.as_raw().iter().map(|&v| v == 0).collect();
        let dark_at = |i: u32, a: i64| {
            u32::try_from(a)
                .ok()
                .filter(|&a| a < lines)
                .is_some_and(|a| dark[index(i, a)])
        };
        // Dark here or one pixel across, for every pixel (the hot loop's test).
        let mut near = dark.clone();
        let (wu, hu) = (w as usize, h as usize);
        for y in 0..hu {
            for x in 0..wu {
                let k = y * wu + x;
                if !dark[k] {
                    continue;
                }
                // Across is down/up for horizontal lines, left/right for vertical.
                let (before, after) = if horizontal {
                    ((y > 0).then(|| k - wu), (y + 1 < hu).then(|| k + wu))
                } else {
                    ((x > 0).then(|| k - 1), (x + 1 < wu).then(|| k + 1))
                };
                for n in [before, after].into_iter().flatten() {
                    near[n] = true;
                }
            }
        }
        let near_at = |i: u32, a: i64| match u32::try_from(a).ok().filter(|&a| a < lines) {
            Some(a) => near[index(i, a)],
            None => dark_at(i, a - 1) || dark_at(i, a + 1),
        };
        let offset: Vec<i64> = (0..len)
            .map(|i| (f64::from(i) * t).round() as i64)
            .collect();
        let mut out = vec![0u8; dark.len()];
        let reach = (f64::from(len) * t.abs()).ceil() as i64 + 1;
        for line in -reach..i64::from(lines) + reach {
            // A run: where it starts, its last pixel on the line, how many are.
            let mut run: Option<(u32, u32, usize)> = None;
            for i in 0..=len {
                if i < len && near_at(i, line + offset[i as usize]) {
                    run = Some(run.map_or((i, i, 1), |(s, _, n)| (s, i, n + 1)));
                    continue;
                }
                let Some((s, last, n)) = run else { continue };
                if i < len && (i - last) as usize <= gap {
                    continue;
                }
                let long = (last + 1 - s) as usize;
                if long >= min_run && n as f64 >= runs.share * long as f64 {
                    for j in s..=last {
                        let a = line + offset[j as usize];
                        let inside = u32::try_from(a).ok().filter(|&a| a < lines);
                        if let Some(a) = inside.filter(|&a| runs.fill || dark[index(j, a)]) {
                            out[index(j, a)] = 255;
                        }
                    }
                }
                run = None;
            }
        }
        GrayImage::from_raw(w, h, out).unwrap_or_else(|| GrayImage::new(w, h))
    }

    proptest! {
        #[test]
        fn runs_should_be_marked_as_before(
            (w, h, pixels) in (1u32..40, 1u32..40).prop_flat_map(|(w, h)| {
                (Just(w), Just(h),
                 proptest::collection::vec(prop_oneof![4 => Just(255u8), 1 => Just(0u8)], (w * h) as usize))
            }),
            t in -0.2f64..0.2,
            dashed: bool,
        ) {
            let bin = GrayImage::from_raw(w, h, pixels).expect("image");
            let runs = if dashed {
                Runs { gap_mm: DASH_GAP_MM, share: DASH_INK_SHARE, fill: true }
            } else {
                WHOLE
            };
            for horizontal in [true, false] {
                let mut mask = GrayImage::new(w, h);
                Along::new(&bin, horizontal).mark_runs(runs, 1.5, t, &mut mask);
                let before = runs_mask_as_before(&bin, runs, 1.5, horizontal, t);
                prop_assert_eq!(mask.into_raw(), before.into_raw());
            }
        }
    }

    #[test]
    fn a_blank_page_does_not_align() {
        let page = GrayImage::from_pixel(800, 1100, Luma([250]));
        assert!(
            align(
                &prepare(&page),
                &FormTemplate::load("punkteliste-a4-32").expect("form")
            )
            .is_err()
        );
    }

    #[test]
    fn the_other_form_fits_worse() {
        let doko = FormTemplate::load("doko-a4-24x5").expect("form");
        let schafkopf = FormTemplate::load("punkteliste-a4-32").expect("form");
        let prep = prepare(&render_form(&doko, 150.0));
        let right = align(&prep, &doko).expect("doko").fit;
        let wrong = align(&prep, &schafkopf).map(|a| a.fit).unwrap_or(0.0);
        assert!(
            right > 0.95 && wrong < MIN_FIT,
            "right {right} wrong {wrong}"
        );
    }

    /// Lines found over gaps lift a foreign form's share: still refused.
    #[test]
    fn the_other_form_fits_worse_over_gaps_too() {
        let doko = FormTemplate::load("doko-a4-24x5").expect("form");
        let schafkopf = FormTemplate::load("punkteliste-a4-32").expect("form");
        let prep = prepare_dashed(&render_form(&doko, 150.0), None);
        let wrong = align(&prep, &schafkopf).map(|a| a.fit).unwrap_or(0.0);
        assert!(wrong < MIN_FIT_DASHED, "wrong {wrong}");
    }
}
