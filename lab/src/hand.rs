//! A writer's hand on the blank form: real handwritten digits (MNIST
//! training split) in a pen, rings, initials, dashes, signatures and
//! struck-out values.

use image::GrayImage;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use aufsicht::page::code::{PRINT_DPI, TableCode};
use aufsicht::page::form::{FormTemplate, MmBox};
use aufsicht::page::render::{mm_to_px, render_form, render_printed};
use aufsicht::sheet::{Cell, SheetResult};

use super::digits::Digits;
use super::hands::{Library, Writer};
use super::strokes::{self, InkBox, Mend, NO_INK, Pen, Strike, union};

/// What the generator drew besides the values: for measuring the reader.
#[derive(Debug, Clone, Default)]
pub struct Drawn {
    /// (row, seat, column) of every dash drawn in a blank column.
    pub dashes: Vec<(u32, usize, &'static str)>,
    /// The pen, the writer's digit size and whether its 1 and 7 are continental.
    pub writer: serde_json::Value,
    /// The page before anything was written on it.
    pub blank: GrayImage,
}

/// Which writers the generator draws.
#[derive(Clone, Copy)]
pub enum Hands<'a> {
    /// Tidy writers: digits 0.55 to 0.75 of the box, rings close around
    /// the value, each digit any MNIST writer's (the sets the model was
    /// trained and tuned on).
    Tidy,
    /// What real paper shows: one writer's own digits over the whole
    /// sheet, from half to 1.4 times the box height; ballpoint, pencil or
    /// felt-tip; rings 1 to 2.5 times the cell height, open or off centre,
    /// over the lines; numbers running over the cell line; continental 1
    /// and 7 for some.
    Wide(WideRanges),
    /// Writers in a hand of the library's many sources (a font, a stroke
    /// font, a synthesised hand, MNIST's writers): one family a sheet,
    /// every glyph drawn anew; laid out as tidy writers do, or as wide as
    /// [`Hands::Wide`]'s where ranges are given.
    Many(Option<WideRanges>, &'a Library),
}

/// Where a sheet's glyphs come from.
enum Glyphs<'a> {
    /// Any MNIST writer's digit.
    Mnist(&'a Digits),
    /// One MNIST writer's own few.
    Own(Box<Digits>),
    /// One writer of the many sources.
    Writer(Writer<'a>),
}

impl Glyphs<'_> {
    fn pick(&self, d: u32, rng: &mut ChaCha8Rng) -> [u8; 784] {
        match self {
            Glyphs::Mnist(digits) => *digits.pick(d, rng),
            Glyphs::Own(digits) => *digits.pick(d, rng),
            Glyphs::Writer(w) => w.glyph(d, rng),
        }
    }
}

/// The ranges a wide hand's writers are drawn from, each towards its low end.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WideRanges {
    /// Digit height, as a share of the box height.
    pub size: (f64, f64),
    /// Ring height, as a multiple of the cell height.
    pub ring: (f64, f64),
    /// The writer's slant, degrees (leaning forward where positive).
    pub slant: (f64, f64),
}

impl Default for WideRanges {
    fn default() -> Self {
        WideRanges {
            size: (0.5, 1.4),
            ring: (1.0, 2.5),
            slant: (0.0, 0.0),
        }
    }
}

/// How one writer writes, the same over the whole sheet.
struct Style {
    /// Digit height as a share of the box height (the writer's mean);
    /// `None`: a tidy hand's 0.55 to 0.75, at most 5.2 mm.
    size: Option<f64>,
    continental: bool,
    /// Ring height as a multiple of the cell height, and how much of a
    /// full turn a ring runs; `None`: tight rings.
    ring: Option<(f64, f64)>,
    /// Chance that a game value runs over its cell line into the empty
    /// cell beside it.
    overrun: f64,
    dash_rate: f64,
}

/// The sheet as `print` makes it, at its resolution (a code's modules are
/// whole pixels there), then brought to `dpi` as the printer and scanner do.
fn printed_page(form: &FormTemplate, code: &TableCode, dpi: f64) -> GrayImage {
    let page = render_printed(form, code, &[], PRINT_DPI);
    if (dpi - PRINT_DPI).abs() < 1e-9 {
        return page;
    }
    let to = |side: u32| (f64::from(side) * dpi / PRINT_DPI).round().max(1.0) as u32;
    let (w, h) = (to(page.width()), to(page.height()));
    image::imageops::resize(&page, w, h, image::imageops::FilterType::Triangle)
}

/// A coffee ring over the top half of a printed sheet's code: ink there,
/// no code to read.
pub fn blot_code(page: &mut GrayImage, form: &FormTemplate, dpi: f64) {
    let [x, y, side, _] = form.code_box();
    let px = |mm: f64| mm_to_px(mm, dpi).round() as u32;
    for yy in px(y)..px(y + side / 2.0).min(page.height()) {
        for xx in px(x)..px(x + side).min(page.width()) {
            if (xx + yy) % 7 < 3 {
                page.put_pixel(xx, yy, image::Luma([0]));
            }
        }
    }
}

/// Draws `sheet` by hand onto the blank form at `dpi`; onto the sheet
/// `print` makes where `printed` (round, table and players are then in
/// print, not written).
pub fn draw(
    sheet: &SheetResult,
    form: &FormTemplate,
    digits: &Digits,
    hands: Hands,
    printed: bool,
    dpi: f64,
    rng: &mut ChaCha8Rng,
) -> (GrayImage, Drawn) {
    let mut page = if printed {
        printed_page(form, &code_of(sheet, form), dpi)
    } else {
        render_form(form, dpi)
    };
    let blank = page.clone();
    let (pen, style, glyphs) = match hands {
        Hands::Tidy => {
            let (pen, style) = tidy_writer(rng);
            (pen, style, Glyphs::Mnist(digits))
        }
        Hands::Wide(ranges) => {
            let (pen, style) = wide_writer(&ranges, rng);
            (pen, style, Glyphs::Own(Box::new(digits.writer(2, rng))))
        }
        Hands::Many(ranges, library) => {
            let (pen, mut style) = match ranges {
                Some(ranges) => wide_writer(&ranges, rng),
                None => tidy_writer(rng),
            };
            let writer = library.writer(rng);
            // A synthesised hand writes its own continental forms.
            style.continental &= !writer.own_forms();
            (pen, style, Glyphs::Writer(writer))
        }
    };
    let hand_facts = match &glyphs {
        Glyphs::Writer(w) => Some(w.facts()),
        _ => None,
    };
    let mut hand = Hand {
        page: &mut page,
        glyphs: &glyphs,
        pen: &pen,
        style: &style,
        dpi,
        rng,
    };
    let f = &form.fields;
    if !printed {
        if let Some(r) = sheet.round {
            hand.write(&r.to_string(), f.round, Place::Inside);
        }
        if let Some(t) = sheet.table {
            hand.write(&t.to_string(), f.table, Place::Inside);
        }
        for (s, id) in sheet.players.iter().enumerate() {
            if let Some(id) = id {
                hand.write(id, f.player_id[s], Place::Inside);
            }
        }
    }
    let mut drawn = hand.games(sheet, form);
    for s in 0..form.seats {
        hand.footer(sheet, form, s);
    }
    drawn.writer = serde_json::json!({
        "pen": {"ink": pen.ink, "grow": pen.grow, "grain": pen.grain},
        "size": style.size,
        "continental": style.continental,
        "ring": style.ring,
        "overrun": style.overrun,
        "slant": pen.slant,
    });
    if let Some(facts) = hand_facts {
        drawn.writer["hand"] = facts;
    }
    drawn.blank = blank;
    (page, drawn)
}

/// The code `print` would put on `sheet`'s table.
fn code_of(sheet: &SheetResult, form: &FormTemplate) -> TableCode {
    TableCode::new(
        "generated",
        &form.id,
        sheet.round.unwrap_or(1),
        sheet.table.unwrap_or(1),
        sheet
            .players
            .iter()
            .map(|p| p.clone().unwrap_or_default())
            .collect(),
    )
}

/// The writer of the tidy sets, drawn as they always were.
fn tidy_writer(rng: &mut ChaCha8Rng) -> (Pen, Style) {
    let pen = Pen {
        ink: rng.random_range(10..90),
        grow: [-1, 0, 0, 1][rng.random_range(0..4)],
        grain: 0.0,
        slant: 0.0,
    };
    let style = Style {
        size: None,
        continental: false,
        ring: None,
        overrun: 0.0,
        dash_rate: rng.random_range(0.0..0.6),
    };
    (pen, style)
}

/// A pen of real paper: a ballpoint half the time, else a pencil or a
/// felt-tip.
pub(crate) fn real_pen(rng: &mut ChaCha8Rng) -> Pen {
    match rng.random_range(0..4) {
        0 => Pen {
            ink: rng.random_range(90..140),
            grow: [-1, 0][rng.random_range(0..2)],
            grain: rng.random_range(0.3..0.6),
            slant: 0.0,
        },
        1 => Pen {
            ink: rng.random_range(0..40),
            grow: 2,
            grain: 0.0,
            slant: 0.0,
        },
        _ => Pen {
            ink: rng.random_range(10..90),
            grow: [-1, 0, 0, 1][rng.random_range(0..4)],
            grain: 0.0,
            slant: 0.0,
        },
    }
}

/// A writer of real paper: ballpoint half the time, else pencil or felt-tip.
fn wide_writer(ranges: &WideRanges, rng: &mut ChaCha8Rng) -> (Pen, Style) {
    let pen = real_pen(rng);
    // Most hands are moderate, a few extreme: sizes and rings are drawn
    // towards the low end of their ranges (the square of a uniform share).
    let towards_low = |(lo, hi): (f64, f64), rng: &mut ChaCha8Rng| {
        lo + (hi - lo) * rng.random_range(0.0f64..1.0).powi(2)
    };
    let style = Style {
        size: Some(towards_low(ranges.size, rng)),
        continental: rng.random_bool(0.3),
        ring: Some((towards_low(ranges.ring, rng), rng.random_range(0.8..1.1))),
        overrun: [0.0, 0.05, 0.15][rng.random_range(0..3)],
        dash_rate: rng.random_range(0.0..0.6),
    };
    let pen = Pen {
        slant: slant(ranges.slant, rng),
        ..pen
    };
    (pen, style)
}

/// A writer's slant in `range` (degrees), drawn from a stream of its own:
/// a range of none draws nothing, and the writers of sets drawn without a
/// slant stay as they were.
fn slant((lo, hi): (f64, f64), rng: &ChaCha8Rng) -> f64 {
    if hi <= lo {
        return lo;
    }
    let mut own = rng.clone();
    own.set_stream(1);
    own.random_range(lo..hi)
}

/// Where a number's digits are drawn (px).
#[derive(Debug, Clone, Copy)]
struct Layout {
    digit_px: f64,
    gap: f64,
    left: f64,
    top: f64,
}

/// Where a number goes in its box.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Place {
    Inside,
    /// Its last digit over the box's right line.
    OverRight,
    /// Its first digit over the box's left line.
    OverLeft,
}

/// A writer's hand on the page: the digits it writes with, its pen.
struct Hand<'a> {
    page: &'a mut GrayImage,
    glyphs: &'a Glyphs<'a>,
    pen: &'a Pen,
    style: &'a Style,
    dpi: f64,
    rng: &'a mut ChaCha8Rng,
}

impl Hand<'_> {
    /// The game rows: values (circled where a solo is, struck and
    /// rewritten where corrected), dashes in some empty cells beside a
    /// value, initials.
    fn games(&mut self, sheet: &SheetResult, form: &FormTemplate) -> Drawn {
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
                        Some(v) => self.value(v, c, bx, col == "plus"),
                        None if other.is_some() && self.rng.random_bool(self.style.dash_rate) => {
                            strokes::dash(self.page, bx, self.pen, self.dpi, self.rng);
                            drawn.dashes.push((g.no, s + 1, col));
                        }
                        None => {}
                    }
                }
            }
            if g.initials {
                strokes::scribble(self.page, f.initials[i], self.pen, self.dpi, self.rng, 2);
            }
        }
        drawn
    }

    /// A game value in its cell: struck and rewritten where the cell is
    /// corrected, ringed where it is a solo's.
    fn value(&mut self, v: u32, c: &Cell, bx: MmBox, plus: bool) {
        if let Some((struck, how, mend)) = struck(c) {
            self.mended(v, struck, how, mend, bx);
            return;
        }
        let over = self.style.overrun > 0.0 && self.rng.random_bool(self.style.overrun);
        let place = match (over, plus) {
            (false, _) => Place::Inside,
            (true, true) => Place::OverRight,
            (true, false) => Place::OverLeft,
        };
        let ink = self.write(&v.to_string(), bx, place);
        if !c.circled {
            return;
        }
        let ring = match self.style.ring {
            None => strokes::tight_ring(ink, self.dpi, self.rng),
            Some((height, turn)) => {
                let cell_h = mm_to_px(bx[3], self.dpi);
                strokes::loose_ring(ink, cell_h, height, turn, self.rng)
            }
        };
        strokes::ring(self.page, &ring, self.pen, self.dpi);
    }

    /// A value `struck` out (`how`) and `v` written `mend` it: beside it,
    /// above it (the old value low in the box, the new one high, touching
    /// the line above), or over its digits (nothing struck: the new
    /// digits written on the old ones, a little bolder where the pen
    /// went twice).
    fn mended(&mut self, v: u32, struck: u32, how: Strike, mend: Mend, bx: MmBox) {
        let [x, y, w, h] = bx;
        let (old_box, new_box) = match mend {
            Mend::Beside => ([x, y, w * 0.5, h], [x + w * 0.5, y, w * 0.5, h]),
            Mend::Above => (
                [x, y + h * 0.35, w * 0.6, h * 0.65],
                [x + w * 0.3, y - h * 0.1, w * 0.7, h * 0.8],
            ),
            Mend::Over => {
                let at = self.layout(&struck.to_string(), bx, Place::Inside);
                self.write_at(&struck.to_string(), at);
                self.write_at(&v.to_string(), at);
                return;
            }
        };
        let old = self.write(&struck.to_string(), old_box, Place::Inside);
        strokes::strike(self.page, old, how, self.pen, self.dpi, self.rng);
        self.write(&v.to_string(), new_box, Place::Inside);
    }

    /// Seat `s`'s footer: Gesamt, Abzug, the signed Endergebnis, the signature.
    fn footer(&mut self, sheet: &SheetResult, form: &FormTemplate, s: usize) {
        let f = &form.fields;
        if let Some(gs) = sheet.gesamt[s] {
            for (v, bx) in [(gs.plus, f.gesamt[s].plus), (gs.minus, f.gesamt[s].minus)] {
                if let Some(v) = v {
                    self.write(&v.to_string(), bx, Place::Inside);
                }
            }
        }
        if let Some(a) = sheet.abzug[s] {
            self.write(&a.to_string(), f.abzug[s], Place::Inside);
        }
        if let Some(e) = sheet.endergebnis[s] {
            let text = if e > 0 {
                format!("+{e}")
            } else {
                e.to_string()
            };
            self.write(&text, f.endergebnis[s], Place::Inside);
        }
        if sheet.signatures[s] {
            strokes::scribble(self.page, f.signature[s], self.pen, self.dpi, self.rng, 5);
        }
    }

    /// Writes a number in a box with handwritten digits; returns the ink's box in px.
    fn write(&mut self, text: &str, bx: MmBox, place: Place) -> InkBox {
        let at = self.layout(text, bx, place);
        self.write_at(text, at)
    }

    /// Where `text` goes in `bx`: its digits' height, its first digit's
    /// left edge, its top.
    fn layout(&mut self, text: &str, bx: MmBox, place: Place) -> Layout {
        let dpi = self.dpi;
        let px = |mm: f64| mm_to_px(mm, dpi);
        let [x, y, w, h] = bx;
        let height_mm = match self.style.size {
            None => (h * self.rng.random_range(0.55..0.75)).min(5.2),
            Some(size) => h * size * self.rng.random_range(0.9..1.1),
        };
        let digit_px = px(height_mm);
        let char_w = digit_px * 0.75;
        let gap = px(self.rng.random_range(0.1..0.7));
        let n = text.chars().count() as f64;
        let total = n * char_w + (n - 1.0) * gap;
        let free = (px(w) - total).max(0.0);
        let left = match place {
            Place::Inside => px(x) + free * self.rng.random_range(0.2..0.8),
            Place::OverRight => px(x + w) - total + char_w * self.rng.random_range(0.3..0.8),
            Place::OverLeft => px(x) - char_w * self.rng.random_range(0.3..0.8),
        };
        let top = px(y) + (px(h) - digit_px) * self.rng.random_range(0.2..0.8);
        Layout {
            digit_px,
            gap,
            left,
            top,
        }
    }

    fn write_at(&mut self, text: &str, at: Layout) -> InkBox {
        let dpi = self.dpi;
        let px = |mm: f64| mm_to_px(mm, dpi);
        let Layout {
            digit_px,
            gap,
            left,
            top,
        } = at;
        let char_w = digit_px * 0.75;
        let mut cx = left;
        let mut ink = NO_INK;
        for ch in text.chars() {
            let jitter = px(self.rng.random_range(-0.3..0.3));
            if let Some(d) = ch.to_digit(10) {
                let glyph = self.glyphs.pick(d, self.rng);
                let pasted = strokes::paste_digit(
                    self.page,
                    &glyph,
                    cx - char_w * 0.2,
                    top + jitter,
                    digit_px / 20.0,
                    self.pen,
                );
                if self.style.continental {
                    strokes::continental(self.page, ch, &pasted, self.pen, self.dpi);
                }
                ink = union(ink, pasted.bbox);
                cx += char_w + gap;
            } else {
                ink = union(
                    ink,
                    self.sign(ch, cx, top + digit_px * 0.5 + jitter, char_w),
                );
                cx += char_w * 0.9 + gap;
            }
        }
        ink
    }

    /// A '-' (or '+') whose left edge is at `cx`, at height `mid`.
    fn sign(&mut self, ch: char, cx: f64, mid: f64, char_w: f64) -> InkBox {
        let (l, r) = (cx + char_w * 0.1, cx + char_w * 0.75);
        let tilt = mm_to_px(self.rng.random_range(-0.2..0.2), self.dpi);
        strokes::line(self.page, (l, mid), (r, mid + tilt), self.pen, self.dpi);
        let mut ink = (l, mid - 1.0, r, mid + 1.0);
        if ch == '+' {
            let c = (l + r) / 2.0;
            let (a, b) = ((c, mid - char_w * 0.33), (c, mid + char_w * 0.33));
            strokes::line(self.page, a, b, self.pen, self.dpi);
            ink = union(ink, (a.0, a.1, b.0, b.1));
        }
        ink
    }
}

/// The value a corrected cell had before, how it was struck out and where
/// the new one went (the truth's `struck`, `strike` and `mend`).
fn struck(c: &Cell) -> Option<(u32, Strike, Mend)> {
    if !c.corrected {
        return None;
    }
    let value = c.notes.struck?.value?;
    let named = |key: &str| c.extra.get(key).and_then(|s| s.as_str());
    let how = named("strike")
        .and_then(Strike::named)
        .unwrap_or(Strike::One);
    let mend = named("mend").and_then(Mend::named).unwrap_or(Mend::Beside);
    Some((value, how, mend))
}
