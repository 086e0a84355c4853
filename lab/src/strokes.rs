//! What a pen puts on paper: digits pasted from MNIST, lines, rings,
//! dashes, scribbles and the strokes that strike a value out.

use image::{GrayImage, Luma};
use imageproc::drawing::draw_antialiased_line_segment_mut;
use imageproc::pixelops::interpolate;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use aufsicht::page::form::MmBox;
use aufsicht::page::render::mm_to_px;

/// A box of ink on the page, in px: `(x0, y0, x1, y1)`.
pub(super) type InkBox = (f64, f64, f64, f64);

/// An empty box that any [`union`] replaces.
pub(super) const NO_INK: InkBox = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);

pub(super) fn union(a: InkBox, b: InkBox) -> InkBox {
    (a.0.min(b.0), a.1.min(b.1), a.2.max(b.2), a.3.max(b.3))
}

/// A pen: darkness of the ink, stroke width change, and how grainy it is
/// (a pencil leaves paper showing through its stroke); and the slant of
/// the hand that holds it (degrees, leaning forward where positive).
#[derive(Debug, Clone, Copy)]
pub struct Pen {
    pub ink: u8,
    pub grow: i32,
    pub grain: f32,
    pub slant: f64,
}

/// A digit as pasted: its ink box, the top of its stroke and where the
/// stroke crosses its waist (the two places a continental 1 and 7 add to).
pub(super) struct Glyph {
    pub bbox: InkBox,
    pub top: (f64, f64),
    pub waist: (f64, f64),
}

/// Pastes an MNIST digit with its top-left at (`x0`, `y0`); MNIST digits
/// fill about 20 of their 28 pixels: `scale` maps 20 px to the digit height.
pub(super) fn paste_digit(
    page: &mut GrayImage,
    glyph: &[u8; 784],
    x0: f64,
    y0: f64,
    scale: f64,
    pen: &Pen,
) -> Glyph {
    let mut bbox = NO_INK;
    let side = (28.0 * scale).ceil() as u32;
    let src = GrayImage::from_fn(28, 28, |x, y| Luma([glyph[(y * 28 + x) as usize]]));
    let mut big = image::imageops::resize(&src, side, side, image::imageops::FilterType::Triangle);
    // A broader pen: only where a pixel is finer than the MNIST stroke change.
    if pen.grow > 0 && side > 48 {
        let grown =
            imageproc::morphology::grayscale_dilate(&big, &imageproc::morphology::Mask::square(3));
        // A felt-tip lays its full width down.
        let share = if pen.grow > 1 { 1 } else { 2 };
        for (p, g) in big.pixels_mut().zip(grown.pixels()) {
            p[0] = p[0].max(g[0] / share);
        }
    }
    let (ox, oy) = (
        (x0 - 4.0 * scale).round() as i64,
        (y0 - 4.0 * scale).round() as i64,
    );
    // A slanted hand: each row shifted by its height above the middle.
    let lean = pen.slant.to_radians().tan();
    let shift = |y: u32| (lean * (f64::from(side) / 2.0 - f64::from(y))).round() as i64;
    let mut inked = Vec::new();
    for (x, y, p) in big.enumerate_pixels() {
        let (px, py) = (ox + i64::from(x) + shift(y), oy + i64::from(y));
        if px < 0
            || py < 0
            || px >= i64::from(page.width())
            || py >= i64::from(page.height())
            || p[0] == 0
        {
            continue;
        }
        // MNIST strokes peak below full intensity: a pen lays down solid ink.
        let mut alpha = (f32::from(p[0]) / 170.0).min(1.0);
        if pen.grain > 0.0 {
            alpha *= 1.0 - pen.grain * grain_at(px, py);
        }
        if alpha > 0.5 {
            let (fx, fy) = (px as f64, py as f64);
            bbox = union(bbox, (fx, fy, fx, fy));
            inked.push((fx, fy));
        }
        let q = page.get_pixel_mut(px as u32, py as u32);
        let v = interpolate(Luma([pen.ink]), *q, alpha);
        *q = Luma([v[0].min(q[0])]);
    }
    let top = inked.first().copied().unwrap_or((bbox.0, bbox.1));
    let waist_y = bbox.1 + (bbox.3 - bbox.1) * 0.55;
    let at_waist: Vec<f64> = inked
        .iter()
        .filter(|p| (p.1 - waist_y).abs() < 1.0)
        .map(|p| p.0)
        .collect();
    let waist_x = if at_waist.is_empty() {
        (bbox.0 + bbox.2) / 2.0
    } else {
        at_waist.iter().sum::<f64>() / at_waist.len() as f64
    };
    Glyph {
        bbox,
        top,
        waist: (waist_x, waist_y),
    }
}

/// A fixed pattern of paper grain in 0..1 (no random draws: the same page
/// is the same picture).
fn grain_at(x: i64, y: i64) -> f32 {
    let h = (x.wrapping_mul(73_856_093) ^ y.wrapping_mul(19_349_663)).rem_euclid(1009);
    h as f32 / 1009.0
}

/// The strokes a continental hand adds: the 1's up-stroke, the 7's bar.
pub(super) fn continental(page: &mut GrayImage, digit: char, g: &Glyph, pen: &Pen, dpi: f64) {
    let height = g.bbox.3 - g.bbox.1;
    match digit {
        '1' => line(
            page,
            g.top,
            (g.top.0 - height * 0.3, g.top.1 + height * 0.28),
            pen,
            dpi,
        ),
        '7' => line(
            page,
            (g.waist.0 - height * 0.22, g.waist.1),
            (g.waist.0 + height * 0.22, g.waist.1 - height * 0.03),
            pen,
            dpi,
        ),
        _ => {}
    }
}

pub(super) fn line(page: &mut GrayImage, a: (f64, f64), b: (f64, f64), pen: &Pen, dpi: f64) {
    let width = (mm_to_px(0.35, dpi) + f64::from(pen.grow)).max(1.0);
    let n = width.round() as i32;
    for d in 0..n {
        let o = f64::from(d) - width / 2.0;
        for (dx, dy) in [(0.0, o), (o, 0.0)] {
            draw_antialiased_line_segment_mut(
                page,
                ((a.0 + dx) as i32, (a.1 + dy) as i32),
                ((b.0 + dx) as i32, (b.1 + dy) as i32),
                Luma([pen.ink]),
                |l, r, t| {
                    let v = interpolate(l, r, t);
                    Luma([v[0].min(r[0])])
                },
            );
        }
    }
}

/// A ring as an ellipse: centre, half-axes (px), how wobbly, where it
/// starts and how much of a full turn it runs (over 1: an overshoot).
pub(super) struct Ring {
    pub centre: (f64, f64),
    pub axes: (f64, f64),
    pub wobble: f64,
    pub start: f64,
    pub turn: f64,
}

/// A ring close around the ink, a little overshoot at the end.
pub(super) fn tight_ring(ink: InkBox, dpi: f64, rng: &mut ChaCha8Rng) -> Ring {
    let (x0, y0, x1, y1) = ink;
    let pad = mm_to_px(rng.random_range(0.5..1.1), dpi);
    let axes = (
        ((x1 - x0) / 2.0 + pad).max(mm_to_px(2.6, dpi)),
        (y1 - y0) / 2.0 + pad * 0.6,
    );
    Ring {
        centre: ((x0 + x1) / 2.0, (y0 + y1) / 2.0),
        axes,
        wobble: rng.random_range(0.0..0.06),
        start: rng.random_range(0.0..std::f64::consts::TAU),
        turn: 1.05,
    }
}

/// A ring as a hurried hand draws it: `height` times the cell's height
/// (`cell_h` px), off centre, open or overshooting by `turn`.
pub(super) fn loose_ring(
    ink: InkBox,
    cell_h: f64,
    height: f64,
    turn: f64,
    rng: &mut ChaCha8Rng,
) -> Ring {
    let (x0, y0, x1, y1) = ink;
    let b = cell_h * height * rng.random_range(0.45..0.55);
    let a = ((x1 - x0) / 2.0 + cell_h * 0.15).max(b * rng.random_range(0.9..1.4));
    Ring {
        centre: (
            (x0 + x1) / 2.0 + b * rng.random_range(-0.15..0.15),
            (y0 + y1) / 2.0 + b * rng.random_range(-0.2..0.2),
        ),
        axes: (a, b),
        wobble: rng.random_range(0.0..0.1),
        start: rng.random_range(0.0..std::f64::consts::TAU),
        turn: turn * rng.random_range(0.95..1.05),
    }
}

pub(super) fn ring(page: &mut GrayImage, r: &Ring, pen: &Pen, dpi: f64) {
    let n = 72;
    let point = |i: usize| {
        let t = r.start + (i as f64) * std::f64::consts::TAU * r.turn / n as f64;
        let k = 1.0 + r.wobble * (3.0 * t).sin();
        (
            r.centre.0 + r.axes.0 * k * t.cos(),
            r.centre.1 + r.axes.1 * k * t.sin(),
        )
    };
    for i in 0..n {
        line(page, point(i), point(i + 1), pen, dpi);
    }
}

pub(super) fn dash(page: &mut GrayImage, bx: MmBox, pen: &Pen, dpi: f64, rng: &mut ChaCha8Rng) {
    let px = |mm: f64| mm_to_px(mm, dpi);
    let [x, y, w, h] = bx;
    let len = rng.random_range(0.2..0.5) * w;
    let l = x + (w - len) * rng.random_range(0.2..0.8);
    let my = y + h * rng.random_range(0.4..0.6);
    line(
        page,
        (px(l), px(my)),
        (px(l + len), px(my + rng.random_range(-0.3..0.3))),
        pen,
        dpi,
    );
}

/// Initials and signatures: a few connected pen strokes.
pub(super) fn scribble(
    page: &mut GrayImage,
    bx: MmBox,
    pen: &Pen,
    dpi: f64,
    rng: &mut ChaCha8Rng,
    loops: usize,
) {
    let px = |mm: f64| mm_to_px(mm, dpi);
    let [x, y, w, h] = bx;
    let n = 4 + loops * 3;
    let mut prev = (px(x + w * 0.15), px(y + h * rng.random_range(0.3..0.7)));
    for i in 1..=n {
        let t = i as f64 / n as f64;
        let next = (
            px(x + w * (0.15 + 0.7 * t)),
            px(y + h * rng.random_range(0.2..0.8)),
        );
        line(page, prev, next, pen, dpi);
        prev = next;
    }
}

/// How a value is struck out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strike {
    One,
    Two,
    Cross,
    Zigzag,
    /// Blacked out: strokes so dense that nothing of the value shows.
    Blackout,
}

impl Strike {
    /// The strikes of the sets drawn so far.
    pub const ALL: [Strike; 4] = [Strike::One, Strike::Two, Strike::Cross, Strike::Zigzag];
    /// Every strike real paper shows.
    pub const WIDE: [Strike; 5] = [
        Strike::One,
        Strike::Two,
        Strike::Cross,
        Strike::Zigzag,
        Strike::Blackout,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Strike::One => "one stroke",
            Strike::Two => "two strokes",
            Strike::Cross => "cross",
            Strike::Zigzag => "zigzag",
            Strike::Blackout => "blacked out",
        }
    }

    pub fn named(name: &str) -> Option<Strike> {
        Strike::WIDE.into_iter().find(|s| s.name() == name)
    }
}

/// Where the new value goes beside the one struck out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mend {
    /// The old value in the box's left half, the new one in its right.
    Beside,
    /// The old value low in the box, the new one above it, over the line.
    Above,
    /// The new digits written over the old ones, nothing struck.
    Over,
}

impl Mend {
    pub const ALL: [Mend; 3] = [Mend::Beside, Mend::Above, Mend::Over];

    pub fn name(self) -> &'static str {
        match self {
            Mend::Beside => "beside",
            Mend::Above => "above",
            Mend::Over => "over",
        }
    }

    pub fn named(name: &str) -> Option<Mend> {
        Mend::ALL.into_iter().find(|m| m.name() == name)
    }
}

/// Strikes out the ink in `ink` (px), a little past its ends.
pub(super) fn strike(
    page: &mut GrayImage,
    ink: InkBox,
    how: Strike,
    pen: &Pen,
    dpi: f64,
    rng: &mut ChaCha8Rng,
) {
    let (x0, y0, x1, y1) = ink;
    let over = mm_to_px(rng.random_range(0.3..1.0), dpi);
    let (l, r) = (x0 - over, x1 + over);
    let at = |share: f64| y0 + (y1 - y0) * share;
    let tilt = (y1 - y0) * rng.random_range(-0.15..0.15);
    match how {
        Strike::One => line(page, (l, at(0.5) + tilt), (r, at(0.5) - tilt), pen, dpi),
        Strike::Two => {
            for s in [0.38, 0.62] {
                line(page, (l, at(s) + tilt), (r, at(s) - tilt), pen, dpi);
            }
        }
        Strike::Cross => {
            line(page, (l, at(0.1)), (r, at(0.9)), pen, dpi);
            line(page, (l, at(0.9)), (r, at(0.1)), pen, dpi);
        }
        Strike::Blackout => {
            // Lines a pen's width apart, to and fro over the whole value.
            let step = mm_to_px(0.3, dpi).max(1.0);
            let n = (((y1 - y0) / step).ceil() as usize).max(2);
            for i in 0..=n {
                let y = y0 + (y1 - y0) * i as f64 / n as f64;
                let dy = step * rng.random_range(-0.5..0.5);
                line(page, (l, y), (r, y + dy), pen, dpi);
            }
        }
        Strike::Zigzag => {
            let n = rng.random_range(3..6);
            let mut prev = (l, at(0.2));
            for i in 1..=n {
                let x = l + (r - l) * f64::from(i) / f64::from(n);
                let next = (x, if i % 2 == 1 { at(0.8) } else { at(0.2) });
                line(page, prev, next, pen, dpi);
                prev = next;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ink's mean x in the top and in the bottom quarter of its height.
    fn top_and_bottom_x(page: &GrayImage) -> (f64, f64) {
        let ys: Vec<u32> = page
            .enumerate_pixels()
            .filter(|(_, _, p)| p[0] < 128)
            .map(|(_, y, _)| y)
            .collect();
        let (y0, y1) = (
            ys.iter().min().copied().unwrap_or(0),
            ys.iter().max().copied().unwrap_or(0),
        );
        let q = (y1 - y0) / 4;
        let mean_x = |rows: std::ops::Range<u32>| {
            let xs: Vec<u32> = page
                .enumerate_pixels()
                .filter(|(_, y, p)| rows.contains(y) && p[0] < 128)
                .map(|(x, _, _)| x)
                .collect();
            xs.iter().map(|&x| f64::from(x)).sum::<f64>() / xs.len().max(1) as f64
        };
        (mean_x(y0..y0 + q), mean_x(y1 - q..y1 + 1))
    }

    #[test]
    fn a_slanted_hand_should_lean_its_digits_forward() {
        // An upright bar in the middle of a 28×28 glyph.
        let mut glyph = [0u8; 784];
        for y in 4..24 {
            for x in 13..15 {
                glyph[y * 28 + x] = 255;
            }
        }
        let pen = |slant| Pen {
            ink: 0,
            grow: 0,
            grain: 0.0,
            slant,
        };
        let drawn = |slant| {
            let mut page = GrayImage::from_pixel(120, 120, Luma([255]));
            paste_digit(&mut page, &glyph, 10.0, 10.0, 3.0, &pen(slant));
            top_and_bottom_x(&page)
        };
        let (top, bottom) = drawn(0.0);
        assert!((top - bottom).abs() < 1.0, "{top} {bottom}");
        let (top, bottom) = drawn(15.0);
        // 15° over the bar's 60 px: its top about 16 px right of its bottom.
        assert!(top - bottom > 10.0, "{top} {bottom}");
    }
}
