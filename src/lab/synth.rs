//! Test data: random legal sheets of a rule set, drawn onto a rendered form
//! with real handwritten digits (MNIST training split), pens, circles,
//! initials, dashes and signatures, then scanned with faults (skew, scale,
//! a dark scanner bed, upside down, blur, noise; or a phone's perspective
//! and uneven light). The truth is written in the contract's shape.

use image::{GrayImage, Luma};
use imageproc::drawing::draw_antialiased_line_segment_mut;
use imageproc::geometric_transformations::{Border, Interpolation, Projection, warp_into};
use imageproc::pixelops::interpolate;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::json;

use crate::check::rules::RuleSet;
pub use crate::check::rules::{LegalRow, legal_rows};
use crate::page::form::{FormTemplate, MmBox};
use crate::page::render::{mm_to_px, render_form};
use crate::sheet::{Cell, GameRow, SheetResult, finished_sheet};

pub use super::digits::Digits;

/// What the generator drew besides the values: for measuring the reader.
#[derive(Debug, Clone, Default)]
pub struct Drawn {
    /// (row, seat, column) of every dash drawn in a blank column.
    pub dashes: Vec<(u32, usize, &'static str)>,
}

/// `games` rows drawn from the rule set's legal `rows`: Rufspiele and
/// normal games most, solos half as often, nothing beyond 36 points, the
/// first game one allowed first; now and then a penalty row among them.
fn choose_games(rows: &[LegalRow], games: usize, rng: &mut ChaCha8Rng) -> Vec<LegalRow> {
    let game_rows: Vec<&LegalRow> = rows.iter().filter(|r| r.counts_as_game).collect();
    let penalty = rows.iter().find(|r| !r.counts_as_game);
    let mut chosen: Vec<LegalRow> = Vec::new();
    while chosen.len() < games {
        let r = game_rows[rng.random_range(0..game_rows.len())];
        if r.values.iter().any(|v| v.abs() > 12 * 3) || (chosen.is_empty() && !r.first_game) {
            continue;
        }
        if r.solo && rng.random_bool(0.5) {
            continue;
        }
        chosen.push(r.clone());
    }
    if let Some(p) = penalty
        && rng.random_bool(0.3)
    {
        let at = rng.random_range(1..chosen.len());
        chosen.insert(at, p.clone());
    }
    chosen
}

/// A random legal sheet of `rules` at a table of `players` on `form`.
pub fn random_sheet(
    rules: &RuleSet,
    form: &FormTemplate,
    players: usize,
    rng: &mut ChaCha8Rng,
) -> SheetResult {
    let table = rules
        .tables
        .iter()
        .find(|t| t.players == players)
        .or_else(|| rules.tables.first())
        .cloned();
    let (players, games, sits_out) =
        table.map_or((4, 32, 0), |t| (t.players, t.games as usize, t.sits_out));
    let rows = legal_rows(rules);
    let seats = form.seats;
    let chosen = choose_games(&rows, games, rng);
    let mut out_rows = Vec::new();
    for (i, r) in chosen.iter().enumerate() {
        let sitter = (sits_out > 0).then_some(i % players);
        let mut playing: Vec<usize> = (0..players).filter(|&s| Some(s) != sitter).collect();
        shuffle(&mut playing, rng);
        let mut cells = vec![Cell::default(); seats];
        for (pos, &v) in r.values.iter().enumerate() {
            let s = playing[pos];
            cells[s] = if v > 0 || (v == 0 && rng.random_bool(0.5)) {
                Cell::plus(v.unsigned_abs() as u32)
            } else {
                Cell::minus(v.unsigned_abs() as u32)
            };
            cells[s].circled = r.circled == Some(pos);
        }
        out_rows.push(GameRow {
            no: i as u32 + 1,
            cells,
            initials: r.initials || rng.random_bool(0.03),
            class: None,
            extra: Default::default(),
        });
    }
    // Doppelkopf: every player plays a solo (Pflichtsolo).
    if rules.pflichtsolo.is_some() {
        let solos: Vec<&LegalRow> = rows
            .iter()
            .filter(|r| r.counts_as_game)
            .filter(|r| r.solo && r.values[0].abs() <= 18)
            .collect();
        let slots: Vec<usize> = (1..chosen.len())
            .filter(|&i| chosen[i].counts_as_game)
            .take(players)
            .collect();
        for (s, &slot) in slots.iter().enumerate() {
            let r = solos[rng.random_range(0..solos.len())];
            let sitter = (sits_out > 0).then_some((s + 1) % players);
            let others: Vec<usize> = (0..players)
                .filter(|&o| o != s && Some(o) != sitter)
                .collect();
            let mut cells = vec![Cell::default(); seats];
            let to_cell = |v: i64| {
                if v > 0 {
                    Cell::plus(v as u32)
                } else {
                    Cell::minus(v.unsigned_abs() as u32)
                }
            };
            cells[s] = to_cell(r.values[0]);
            cells[s].circled = true;
            for (j, &o) in others.iter().enumerate() {
                cells[o] = to_cell(r.values[j + 1]);
            }
            out_rows[slot].cells = cells;
        }
    }
    let ids = (0..seats)
        .map(|s| (s < players).then(|| rng.random_range(1..2000u32).to_string()))
        .collect();
    let mut sheet = finished_sheet(&rules.id, out_rows, ids);
    sheet.form = Some(form.id.clone());
    sheet.round = Some(rng.random_range(1..=rules.rounds.max(1)));
    sheet.table = Some(rng.random_range(1..60));
    sheet
}

/// Makes one mistake a writer makes on a finished sheet, and says which:
/// a game value written wrong (the footer summed from what was written),
/// a Gesamt added up wrong, an Abzug or Endergebnis worked out wrong.
pub fn writer_error(sheet: &mut SheetResult, rng: &mut ChaCha8Rng) -> serde_json::Value {
    let seats: Vec<usize> = (0..sheet.players.len())
        .filter(|&s| sheet.players[s].is_some())
        .collect();
    let Some(&seat) = seats.get(rng.random_range(0..seats.len().max(1))) else {
        return serde_json::Value::Null;
    };
    // Off by ten, or a digit slip.
    let slip = |v: u32, rng: &mut ChaCha8Rng| -> u32 {
        let d = [10, 1, 2, 5][rng.random_range(0..4)];
        if v > d && rng.random_bool(0.5) {
            v - d
        } else {
            v + d
        }
    };
    match rng.random_range(0..4) {
        0 => {
            let rows: Vec<usize> = (0..sheet.games.len())
                .filter(|&i| !sheet.games[i].cells[seat].is_empty())
                .collect();
            let Some(&i) = rows.get(rng.random_range(0..rows.len().max(1))) else {
                return serde_json::Value::Null;
            };
            let c = &mut sheet.games[i].cells[seat];
            let field = if c.plus.is_some() {
                &mut c.plus
            } else {
                &mut c.minus
            };
            *field = field.map(|v| slip(v, rng));
            let no = sheet.games[i].no;
            let done = finished_sheet(
                sheet.rules.as_deref().unwrap_or(""),
                std::mem::take(&mut sheet.games),
                sheet.players.clone(),
            );
            sheet.games = done.games;
            sheet.gesamt = done.gesamt;
            sheet.abzug = done.abzug;
            sheet.endergebnis = done.endergebnis;
            json!({"kind": "row value", "row": no, "seat": seat + 1})
        }
        1 => {
            if let Some(g) = sheet.gesamt[seat].as_mut() {
                if rng.random_bool(0.5) {
                    g.plus = g.plus.map(|v| slip(v, rng));
                } else {
                    g.minus = g.minus.map(|v| slip(v, rng));
                }
            }
            json!({"kind": "gesamt", "seat": seat + 1})
        }
        2 => {
            sheet.abzug[seat] = sheet.abzug[seat].map(|v| slip(v, rng));
            json!({"kind": "abzug", "seat": seat + 1})
        }
        _ => {
            sheet.endergebnis[seat] = sheet.endergebnis[seat].map(|v| {
                if v != 0 && rng.random_bool(0.3) {
                    -v
                } else {
                    let w = slip(v.unsigned_abs() as u32, rng);
                    i64::from(w) * if v < 0 { -1 } else { 1 }
                }
            });
            json!({"kind": "endergebnis", "seat": seat + 1})
        }
    }
}

fn shuffle<T>(v: &mut [T], rng: &mut ChaCha8Rng) {
    for i in (1..v.len()).rev() {
        let j = rng.random_range(0..=i);
        v.swap(i, j);
    }
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

/// How a page is digitised.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Capture {
    /// A flat, straight scan.
    Clean,
    /// An office scanner: skew, shift, scale, dark bed, sometimes upside down.
    Scanner,
    /// A phone photo: perspective, uneven light, blur.
    Phone,
}

/// Digitises a drawn page; returns the image and what was done (for the truth file).
pub fn capture(
    page: &GrayImage,
    how: Capture,
    rng: &mut ChaCha8Rng,
) -> (GrayImage, serde_json::Value) {
    match how {
        Capture::Clean => (page.clone(), json!({"capture": "clean"})),
        Capture::Scanner => scanned(page, rng),
        Capture::Phone => photographed(page, rng),
    }
}

/// An office scanner's capture: turned, scaled and shifted a little, on a
/// dark bed sometimes, upside down sometimes, blurred, with noise.
fn scanned(page: &GrayImage, rng: &mut ChaCha8Rng) -> (GrayImage, serde_json::Value) {
    let (w, h) = (page.width() as f64, page.height() as f64);
    let angle: f64 = rng.random_range(-5.0f64..5.0).to_radians();
    let scale = rng.random_range(0.97..1.03);
    let bed = rng.random_bool(0.4);
    let margin = if bed {
        rng.random_range(0.03..0.08)
    } else {
        0.0
    };
    let (ow, oh) = (w * (1.0 + 2.0 * margin), h * (1.0 + 2.0 * margin));
    let upside = rng.random_bool(0.15);
    let (shx, shy) = (
        rng.random_range(-0.015..0.015) * w,
        rng.random_range(-0.015..0.015) * h,
    );
    let (c, s) = (angle.cos() * scale, angle.sin() * scale);
    let flip = if upside { -1.0 } else { 1.0 };
    // Page centre to output centre, rotated and scaled (and turned if upside down).
    let (pcx, pcy) = (w / 2.0, h / 2.0);
    let m = [
        flip * c,
        -flip * s,
        ow / 2.0 + shx - flip * (c * pcx - s * pcy),
        flip * s,
        flip * c,
        oh / 2.0 + shy - flip * (s * pcx + c * pcy),
        0.0,
        0.0,
        1.0,
    ];
    let bed_value = if bed { rng.random_range(15..50) } else { 255 };
    let mut out = GrayImage::from_pixel(ow as u32, oh as u32, Luma([bed_value]));
    if let Some(p) = Projection::from_matrix(m.map(|v| v as f32)) {
        warp_into(
            page,
            p,
            Interpolation::Bilinear,
            Border::Constant(Luma([bed_value])),
            &mut out,
        );
    }
    let sigma = rng.random_range(0.3..1.0);
    let out = image::imageops::blur(&out, sigma);
    let out = imageproc::noise::gaussian_noise(&out, 0.0, rng.random_range(2.0..8.0), rng.random());
    let facts = json!({"capture": "scanner", "angle_deg": angle.to_degrees(), "scale": scale,
        "dark_bed": bed, "upside_down": upside, "blur": sigma});
    (out, facts)
}

/// A phone photo: the page in perspective on a table, lit unevenly,
/// blurred, with noise.
fn photographed(page: &GrayImage, rng: &mut ChaCha8Rng) -> (GrayImage, serde_json::Value) {
    let (w, h) = (page.width() as f64, page.height() as f64);
    let (ow, oh) = (w * 1.15, h * 1.15);
    let j = |rng: &mut ChaCha8Rng| rng.random_range(-0.05..0.05);
    let src = [(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)];
    let dst = [
        (ow * (0.06 + j(rng)), oh * (0.06 + j(rng))),
        (ow * (0.94 + j(rng)), oh * (0.06 + j(rng))),
        (ow * (0.94 + j(rng)), oh * (0.94 + j(rng))),
        (ow * (0.06 + j(rng)), oh * (0.94 + j(rng))),
    ];
    let table = rng.random_range(60..140);
    let mut out = GrayImage::from_pixel(ow as u32, oh as u32, Luma([table]));
    let to_f32 = |p: [(f64, f64); 4]| p.map(|(x, y)| (x as f32, y as f32));
    if let Some(p) = Projection::from_control_points(to_f32(src), to_f32(dst)) {
        warp_into(
            page,
            p,
            Interpolation::Bilinear,
            Border::Constant(Luma([table])),
            &mut out,
        );
    }
    // Uneven light: a gradient across the page, darker at one corner.
    let (gx, gy) = (rng.random_range(-0.35..0.35), rng.random_range(-0.35..0.35));
    for (x, y, p) in out.enumerate_pixels_mut() {
        let f = 1.0 + gx * (x as f64 / ow - 0.5) + gy * (y as f64 / oh - 0.5) - 0.1;
        p[0] = (f64::from(p[0]) * f).clamp(0.0, 255.0) as u8;
    }
    let sigma = rng.random_range(0.6..1.5);
    let out = image::imageops::blur(&out, sigma);
    let out = imageproc::noise::gaussian_noise(&out, 0.0, rng.random_range(3.0..9.0), rng.random());
    (
        out,
        json!({"capture": "phone", "corners": dst.iter().map(|p| [p.0, p.1]).collect::<Vec<_>>(), "blur": sigma}),
    )
}

pub fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}
