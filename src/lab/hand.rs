//! A writer's hand on the blank form: real handwritten digits (MNIST
//! training split) in a pen, circles, initials, dashes and signatures.

use image::{GrayImage, Luma};
use imageproc::drawing::draw_antialiased_line_segment_mut;
use imageproc::pixelops::interpolate;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use crate::page::form::{FormTemplate, MmBox};
use crate::page::render::{mm_to_px, render_form};
use crate::sheet::SheetResult;

use super::digits::Digits;

/// What the generator drew besides the values: for measuring the reader.
#[derive(Debug, Clone, Default)]
pub struct Drawn {
    /// (row, seat, column) of every dash drawn in a blank column.
    pub dashes: Vec<(u32, usize, &'static str)>,
}

/// A pen: darkness of the ink and stroke width change.
struct Pen {
    ink: u8,
    grow: i32,
}

/// Draws `sheet` by hand onto the blank form at `dpi`.
pub fn draw(
    sheet: &SheetResult,
    form: &FormTemplate,
    digits: &Digits,
    dpi: f64,
    rng: &mut ChaCha8Rng,
) -> (GrayImage, Drawn) {
    let mut page = render_form(form, dpi);
    let pen = Pen {
        ink: rng.random_range(10..90),
        grow: [-1, 0, 0, 1][rng.random_range(0..4)],
    };
    let dash_rate = rng.random_range(0.0..0.6);
    let mut hand = Hand {
        page: &mut page,
        digits,
        pen: &pen,
        dpi,
        rng,
    };
    let f = &form.fields;
    if let Some(r) = sheet.round {
        hand.write(&r.to_string(), f.round, false);
    }
    if let Some(t) = sheet.table {
        hand.write(&t.to_string(), f.table, false);
    }
    for (s, id) in sheet.players.iter().enumerate() {
        if let Some(id) = id {
            hand.write(id, f.player_id[s], false);
        }
    }
    let drawn = hand.games(sheet, form, dash_rate);
    for s in 0..form.seats {
        hand.footer(sheet, form, s);
    }
    (page, drawn)
}

/// A writer's hand on the page: the digits it writes with, its pen.
struct Hand<'a> {
    page: &'a mut GrayImage,
    digits: &'a Digits,
    pen: &'a Pen,
    dpi: f64,
    rng: &'a mut ChaCha8Rng,
}

impl Hand<'_> {
    fn write(&mut self, text: &str, bx: MmBox, signed: bool) -> (f64, f64, f64, f64) {
        write_number(
            self.page,
            text,
            bx,
            self.digits,
            self.pen,
            self.dpi,
            self.rng,
            signed,
        )
    }

    /// The game rows: values (circled where a solo is), dashes in some
    /// empty cells beside a value (`dash_rate`), initials.
    fn games(&mut self, sheet: &SheetResult, form: &FormTemplate, dash_rate: f64) -> Drawn {
        let f = &form.fields;
        let mut drawn = Drawn::default();
        for g in &sheet.games {
            let i = g.no as usize - 1;
            for (s, c) in g.cells.iter().enumerate() {
                let pm = f.game[i][s];
                for (col, value, bx, other) in [
                    ("plus", c.plus, pm.plus, c.minus),
                    ("minus", c.minus, pm.minus, c.plus),
                ] {
                    match value {
                        Some(v) => {
                            let ink = self.write(&v.to_string(), bx, false);
                            if c.circled {
                                circle(self.page, ink, self.pen, self.dpi, self.rng);
                            }
                        }
                        None if other.is_some() && self.rng.random_bool(dash_rate) => {
                            dash(self.page, bx, self.pen, self.dpi, self.rng);
                            drawn.dashes.push((g.no, s + 1, col));
                        }
                        None => {}
                    }
                }
            }
            if g.initials {
                scribble(self.page, f.initials[i], self.pen, self.dpi, self.rng, 2);
            }
        }
        drawn
    }

    /// Seat `s`'s footer: Gesamt, Abzug, the signed Endergebnis, the signature.
    fn footer(&mut self, sheet: &SheetResult, form: &FormTemplate, s: usize) {
        let f = &form.fields;
        if let Some(gs) = sheet.gesamt[s] {
            for (v, bx) in [(gs.plus, f.gesamt[s].plus), (gs.minus, f.gesamt[s].minus)] {
                if let Some(v) = v {
                    self.write(&v.to_string(), bx, false);
                }
            }
        }
        if let Some(a) = sheet.abzug[s] {
            self.write(&a.to_string(), f.abzug[s], false);
        }
        if let Some(e) = sheet.endergebnis[s] {
            let text = if e > 0 {
                format!("+{e}")
            } else {
                e.to_string()
            };
            self.write(&text, f.endergebnis[s], true);
        }
        if sheet.signatures[s] {
            scribble(self.page, f.signature[s], self.pen, self.dpi, self.rng, 5);
        }
    }
}

/// Writes a number in a box with handwritten digits; returns the ink's box in px.
#[allow(clippy::too_many_arguments)]
fn write_number(
    page: &mut GrayImage,
    text: &str,
    bx: MmBox,
    digits: &Digits,
    pen: &Pen,
    dpi: f64,
    rng: &mut ChaCha8Rng,
    signed: bool,
) -> (f64, f64, f64, f64) {
    let px = |mm: f64| mm_to_px(mm, dpi);
    let [x, y, w, h] = bx;
    let height_mm = (h * rng.random_range(0.55..0.75)).min(5.2);
    let digit_px = px(height_mm);
    let char_w = digit_px * 0.75;
    let gap = px(rng.random_range(0.1..0.7));
    let n = text.chars().count() as f64;
    let total = n * char_w + (n - 1.0) * gap;
    let free = (px(w) - total).max(0.0);
    let mut cx = px(x) + free * rng.random_range(0.2..0.8);
    let top = px(y) + (px(h) - digit_px) * rng.random_range(0.2..0.8);
    let mut ink = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for ch in text.chars() {
        let jitter = px(rng.random_range(-0.3..0.3));
        match ch {
            '-' | '+' => {
                let (l, r) = (cx + char_w * 0.1, cx + char_w * 0.75);
                let mid = top + digit_px * 0.5 + jitter;
                line(
                    page,
                    (l, mid),
                    (r, mid + px(rng.random_range(-0.2..0.2))),
                    pen,
                    dpi,
                );
                ink = union(ink, (l, mid - 1.0, r, mid + 1.0));
                if ch == '+' {
                    let c = (l + r) / 2.0;
                    line(
                        page,
                        (c, mid - char_w * 0.33),
                        (c, mid + char_w * 0.33),
                        pen,
                        dpi,
                    );
                    ink = union(ink, (c, mid - char_w * 0.33, c, mid + char_w * 0.33));
                }
                cx += char_w * 0.9 + gap;
            }
            d => {
                let glyph = digits.pick(d.to_digit(10).unwrap_or(0), rng);
                let drawn = paste_digit(
                    page,
                    glyph,
                    cx - char_w * 0.2,
                    top + jitter,
                    digit_px / 20.0,
                    pen,
                );
                ink = union(ink, drawn);
                cx += char_w + gap;
            }
        }
    }
    let _ = signed;
    ink
}

/// MNIST digits fill about 20 of their 28 pixels: `scale` maps 20 px to the digit height.
fn union(a: (f64, f64, f64, f64), b: (f64, f64, f64, f64)) -> (f64, f64, f64, f64) {
    (a.0.min(b.0), a.1.min(b.1), a.2.max(b.2), a.3.max(b.3))
}

/// Returns the box of the ink drawn `(x0, y0, x1, y1)`.
fn paste_digit(
    page: &mut GrayImage,
    glyph: &[u8; 784],
    x0: f64,
    y0: f64,
    scale: f64,
    pen: &Pen,
) -> (f64, f64, f64, f64) {
    let mut bbox = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    let side = (28.0 * scale).ceil() as u32;
    let src = GrayImage::from_fn(28, 28, |x, y| Luma([glyph[(y * 28 + x) as usize]]));
    let mut big = image::imageops::resize(&src, side, side, image::imageops::FilterType::Triangle);
    // A broader pen: only where a pixel is finer than the MNIST stroke change.
    if pen.grow > 0 && side > 48 {
        let grown =
            imageproc::morphology::grayscale_dilate(&big, &imageproc::morphology::Mask::square(3));
        for (p, g) in big.pixels_mut().zip(grown.pixels()) {
            p[0] = p[0].max(g[0] / 2);
        }
    }
    let (ox, oy) = (
        (x0 - 4.0 * scale).round() as i64,
        (y0 - 4.0 * scale).round() as i64,
    );
    for (x, y, p) in big.enumerate_pixels() {
        let (px, py) = (ox + i64::from(x), oy + i64::from(y));
        if px < 0
            || py < 0
            || px >= i64::from(page.width())
            || py >= i64::from(page.height())
            || p[0] == 0
        {
            continue;
        }
        // MNIST strokes peak below full intensity: a pen lays down solid ink.
        let alpha = (f32::from(p[0]) / 170.0).min(1.0);
        if alpha > 0.5 {
            let (fx, fy) = (px as f64, py as f64);
            bbox = (
                bbox.0.min(fx),
                bbox.1.min(fy),
                bbox.2.max(fx),
                bbox.3.max(fy),
            );
        }
        let q = page.get_pixel_mut(px as u32, py as u32);
        let v = interpolate(Luma([pen.ink]), *q, alpha);
        *q = Luma([v[0].min(q[0])]);
    }
    bbox
}

fn line(page: &mut GrayImage, a: (f64, f64), b: (f64, f64), pen: &Pen, dpi: f64) {
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

fn circle(
    page: &mut GrayImage,
    ink: (f64, f64, f64, f64),
    pen: &Pen,
    dpi: f64,
    rng: &mut ChaCha8Rng,
) {
    let (x0, y0, x1, y1) = ink;
    let (cx, cy) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
    let pad = mm_to_px(rng.random_range(0.5..1.1), dpi);
    let (a, b) = (
        ((x1 - x0) / 2.0 + pad).max(mm_to_px(2.6, dpi)),
        (y1 - y0) / 2.0 + pad * 0.6,
    );
    // The same pen as the digits, slightly wobbly, a little overshoot at the end.
    let wobble = rng.random_range(0.0..0.06);
    let start = rng.random_range(0.0..std::f64::consts::TAU);
    let n = 72;
    let point = |i: usize| {
        let t = start + (i as f64) * std::f64::consts::TAU * 1.05 / n as f64;
        let r = 1.0 + wobble * (3.0 * t).sin();
        (cx + a * r * t.cos(), cy + b * r * t.sin())
    };
    for i in 0..n {
        line(page, point(i), point(i + 1), pen, dpi);
    }
}

fn dash(page: &mut GrayImage, bx: MmBox, pen: &Pen, dpi: f64, rng: &mut ChaCha8Rng) {
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
fn scribble(
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

