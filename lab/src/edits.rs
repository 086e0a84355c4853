//! Later edits in another pen: after the sheet was written (its rows and
//! Gesamt summed), someone puts a digit in front of one game value with
//! a pen of their own. And the pens' colours, for a colour scanner's view
//! of the sheet.

use image::{GrayImage, RgbImage};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use serde_json::json;

use aufsicht::page::form::FormTemplate;
use aufsicht::page::render::mm_to_px;
use aufsicht::sheet::SheetResult;

use super::digits::Digits;
use super::print_colour::PrintColour;
use super::strokes::{self, Pen};

/// A pen's colour: how much darker than its grey each of red, green and
/// blue is laid down (1, 1, 1: neutral). Each keeps its grey (the
/// weights of luminance sum to about 1), so a colour pen darkens the grey
/// scan as its grey pen does.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PenColour {
    pub name: &'static str,
    pub darkening: [f64; 3],
}

/// The pens of a tournament's tables: black, a blue ballpoint and a
/// royal-blue gel pen.
pub const PEN_COLOURS: [PenColour; 3] = [
    PenColour {
        name: "black",
        darkening: [1.0, 1.0, 1.0],
    },
    PenColour {
        name: "blue",
        darkening: [1.15, 1.05, 0.55],
    },
    PenColour {
        name: "royal",
        darkening: [1.3, 1.1, 0.2],
    },
];

/// What a later edit did, for the truth file.
#[derive(Debug, Clone)]
pub struct LaterEdit {
    pub row: u32,
    /// From 1.
    pub seat: usize,
    pub minus: bool,
    pub before: u32,
    pub after: u32,
    pub pen: Pen,
}

impl LaterEdit {
    pub fn facts(&self, colour: Option<PenColour>) -> serde_json::Value {
        json!({
            "row": self.row,
            "seat": self.seat,
            "field": if self.minus { "minus" } else { "plus" },
            "before": self.before,
            "after": self.after,
            "pen": {"ink": self.pen.ink, "grow": self.pen.grow, "grain": self.pen.grain},
            "colour": colour.map(|c| c.name),
        })
    }
}

/// A pen other than the writer's: ballpoint, felt-tip or pencil, as
/// the writers of real paper use them.
pub fn other_pen(rng: &mut ChaCha8Rng) -> Pen {
    super::hand::real_pen(rng)
}

/// Puts a digit in front of one written game value of one or two digits
/// (a "5" made "15"), in `pen`, on `page` (drawn from `blank`); the
/// sheet's value becomes the new one. `None` where no value has room.
#[allow(clippy::too_many_arguments)]
pub fn later_edit(
    sheet: &mut SheetResult,
    page: &mut GrayImage,
    blank: &GrayImage,
    form: &FormTemplate,
    digits: &Digits,
    dpi: f64,
    pen: Pen,
    rng: &mut ChaCha8Rng,
) -> Option<LaterEdit> {
    let mut written: Vec<(u32, usize, bool, u32)> = Vec::new();
    for g in &sheet.games {
        for (s, c) in g.cells.iter().enumerate() {
            for (minus, v) in [(false, c.plus), (true, c.minus)] {
                if let Some(v @ 1..=99) = v
                    && !c.corrected
                {
                    written.push((g.no, s, minus, v));
                }
            }
        }
    }
    shuffle(&mut written, rng);
    let digit = rng.random_range(1..10u32);
    let glyph = digits.pick(digit, rng);
    let (row, s, minus, before, x0, y0, scale) =
        written.into_iter().find_map(|(row, s, minus, v)| {
            let pm = form.fields.game.get(row as usize - 1)?.get(s)?;
            let bx = if minus { pm.minus } else { pm.plus };
            let (x0, y0, scale) = room_in_front(page, blank, bx, dpi, glyph)?;
            Some((row, s, minus, v, x0, y0, scale))
        })?;
    strokes::paste_digit(page, glyph, x0, y0, scale, &pen);
    let after = digit * 10u32.pow(before.to_string().len() as u32) + before;
    let cell = sheet.cell_mut(row, s)?;
    *(if minus {
        &mut cell.minus
    } else {
        &mut cell.plus
    }) = Some(after);
    Some(LaterEdit {
        row,
        seat: s + 1,
        minus,
        before,
        after,
        pen,
    })
}

/// Where a digit goes in front of the writing in `bx`, inside the box:
/// the digit's place and scale (see [`strokes::paste_digit`]), as tall
/// as the writing, or squeezed to no less than 0.6 of it; `None` where
/// the writing leaves no room.
fn room_in_front(
    page: &GrayImage,
    blank: &GrayImage,
    bx: [f64; 4],
    dpi: f64,
    glyph: &[u8; 784],
) -> Option<(f64, f64, f64)> {
    let ink = writing_in(page, blank, bx, dpi)?;
    let columns: Vec<usize> = (0..28)
        .filter(|&c| (0..28).any(|r| glyph[r * 28 + c] > 0))
        .collect();
    let (first, last) = (*columns.first()? as f64, *columns.last()? as f64);
    let height = (ink.3 - ink.1 + 1.0).max(8.0);
    let gap = 0.1 * height;
    let room = ink.0 - gap - mm_to_px(bx[0] + 0.4, dpi);
    // The digit's width at the writing's height, MNIST's 20 px to it.
    let width = (last - first + 1.0) * height / 20.0;
    let squeeze = (room / width).min(1.0);
    if squeeze < 0.6 {
        return None;
    }
    let scale = squeeze * height / 20.0;
    let x0 = ink.0 - gap - (last + 1.0) * scale + 4.0 * scale;
    Some((x0, ink.1 + (1.0 - squeeze) * height / 2.0, scale))
}

/// `v` in a random order.
fn shuffle<T>(v: &mut [T], rng: &mut ChaCha8Rng) {
    for i in (1..v.len()).rev() {
        v.swap(i, rng.random_range(0..=i));
    }
}

/// The box of the writing inside `bx` (mm) on `page` (px: left, top,
/// right, bottom), told from the form by the blank page.
fn writing_in(
    page: &GrayImage,
    blank: &GrayImage,
    bx: [f64; 4],
    dpi: f64,
) -> Option<(f64, f64, f64, f64)> {
    let px = |mm: f64| mm_to_px(mm, dpi) as u32;
    let inset = 0.3;
    let (x0, y0) = (px(bx[0] + inset), px(bx[1] + inset));
    let (x1, y1) = (px(bx[0] + bx[2] - inset), px(bx[1] + bx[3] - inset));
    let mut found: Option<(f64, f64, f64, f64)> = None;
    for y in y0..y1.min(page.height()) {
        for x in x0..x1.min(page.width()) {
            let drop = i32::from(blank.get_pixel(x, y)[0]) - i32::from(page.get_pixel(x, y)[0]);
            if drop > 60 {
                let (fx, fy) = (f64::from(x), f64::from(y));
                found = Some(match found {
                    None => (fx, fy, fx, fy),
                    Some(b) => (b.0.min(fx), b.1.min(fy), b.2.max(fx), b.3.max(fy)),
                });
            }
        }
    }
    found
}

/// The sheet as a colour scanner sees it: the form (`blank`) in its print
/// colour, the writer's ink (`written` against `blank`) in the writer's
/// colour, the later edit's (`edited` against `written`) in the editor's.
pub fn in_colour(
    blank: &GrayImage,
    written: &GrayImage,
    edited: &GrayImage,
    (print, writer, editor): (PrintColour, PenColour, PenColour),
) -> RgbImage {
    let form = print.darkening();
    RgbImage::from_fn(blank.width(), blank.height(), |x, y| {
        let f = f64::from(blank.get_pixel(x, y)[0]);
        let w = f64::from(written.get_pixel(x, y)[0]).min(f);
        let e = f64::from(edited.get_pixel(x, y)[0]).min(w);
        image::Rgb(std::array::from_fn(|c| {
            let v = 255.0
                - (255.0 - f) * form[c]
                - (f - w) * writer.darkening[c]
                - (w - e) * editor.darkening[c];
            v.round().clamp(0.0, 255.0) as u8
        }))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Luma;

    #[test]
    fn a_pen_colour_should_keep_its_grey() {
        for c in PEN_COLOURS {
            let [r, g, b] = c.darkening;
            let luma = 0.299 * r + 0.587 * g + 0.114 * b;
            assert!((luma - 1.0).abs() < 0.07, "{}: {luma}", c.name);
        }
    }

    #[test]
    fn the_edit_should_take_its_own_colour_and_the_form_stay_black() {
        let blank = GrayImage::from_fn(3, 1, |x, _| Luma([if x == 0 { 20 } else { 250 }]));
        let written = GrayImage::from_fn(3, 1, |x, _| Luma([if x == 0 { 20 } else { 100 }]));
        let edited = GrayImage::from_fn(3, 1, |x, _| Luma([[20, 100, 60][x as usize]]));
        let pens = (PrintColour::Black, PEN_COLOURS[1], PEN_COLOURS[0]);
        let rgb = in_colour(&blank, &written, &edited, pens);
        assert_eq!(rgb.get_pixel(0, 0).0, [20, 20, 20]);
        let blue = rgb.get_pixel(1, 0).0;
        assert!(blue[2] > blue[0] + 50, "{blue:?}");
        let both = rgb.get_pixel(2, 0).0;
        assert_eq!(both[0] as i32 - blue[0] as i32, -40);
    }
}
