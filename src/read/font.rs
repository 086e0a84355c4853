//! Printed digits read by matching the form's own font: each glyph (a
//! piece as the digit reader cuts ink) scaled to a small square and held against the
//! ten digits drawn in that font. Print in a known font is far easier than
//! handwriting; this reader is what a build without Tesseract reads print
//! with (docs/install.md measures it against Tesseract).

use ab_glyph::{FontRef, PxScale};
use image::{GrayImage, Luma};

use super::{PrintReader, Reading};

/// Side (px) of the square a glyph is compared in.
const SIDE: u32 = 20;

/// More glyphs than a printed number has: not a number.
const MAX_GLYPHS: usize = 6;

/// How unlike the font's digit (see [`distance`]) a glyph may be and still
/// count wholly as it: print through a phone's blur or a fax's 200 dpi
/// lies at 0.02-0.2 from its digit and 0.2-0.6 from the others.
const NEAR: f32 = 0.15;

/// How unlike the font's digit a glyph may be at all (its confidence falls
/// from 1 at [`NEAR`] to 0 here).
const FAR: f32 = 0.4;

/// The ten digits of the form's font, each scaled as a glyph is.
pub struct FontDigits {
    digits: Vec<(char, Vec<f32>)>,
}

impl Default for FontDigits {
    fn default() -> Self {
        Self::new()
    }
}

impl FontDigits {
    pub fn new() -> Self {
        let digits = FontRef::try_from_slice(crate::page::render::REGULAR)
            .map(|font| {
                ('0'..='9')
                    .filter_map(|d| Some((d, squared(&dark(&drawn(&font, d)))?)))
                    .collect()
            })
            .unwrap_or_default();
        FontDigits { digits }
    }

    /// The digit nearest `glyph` and its confidence (0..1): how near it is
    /// to the font's digit, and how much nearer than to the next digit
    /// (sure where at most half as near as to the next).
    fn glyph(&self, mask: &GrayImage) -> Option<(char, f32)> {
        let g = squared(mask)?;
        let mut by: Vec<(char, f32)> = self
            .digits
            .iter()
            .map(|(d, t)| (*d, distance(&g, t)))
            .collect();
        by.sort_by(|a, b| a.1.total_cmp(&b.1));
        let (&(digit, best), &(_, next)) = (by.first()?, by.get(1)?);
        let apart = if next > 0.0 {
            (next - best) / next
        } else {
            0.0
        };
        let near = ((FAR - best) / (FAR - NEAR)).clamp(0.0, 1.0);
        Some((digit, (2.0 * apart).min(1.0) * near))
    }
}

impl PrintReader for FontDigits {
    fn line(&mut self, _img: &GrayImage) -> Option<Reading> {
        None
    }

    fn number(&mut self, img: &GrayImage) -> Reading {
        let glyphs = glyphs(img);
        if glyphs.is_empty() || glyphs.len() > MAX_GLYPHS {
            return Reading::none();
        }
        let mut text = String::new();
        let mut confidence = 1.0f32;
        for g in &glyphs {
            let Some((d, c)) = self.glyph(g) else {
                return Reading::none();
            };
            text.push(d);
            confidence = confidence.min(c);
        }
        Reading {
            text,
            confidence,
            alternatives: Vec::new(),
        }
    }
}

/// The digit `d` drawn large in `font`, black on white.
fn drawn(font: &FontRef, d: char) -> GrayImage {
    let mut img = GrayImage::from_pixel(80, 100, Luma([255]));
    let text = d.to_string();
    imageproc::drawing::draw_text_mut(&mut img, Luma([0]), 10, 5, PxScale::from(80.0), font, &text);
    img
}

/// Ink mask (255 ink) of a drawing in pure black on white.
fn dark(img: &GrayImage) -> GrayImage {
    GrayImage::from_fn(img.width(), img.height(), |x, y| {
        Luma([if img.get_pixel(x, y)[0] < 128 { 255 } else { 0 }])
    })
}

/// Glyphs lower than this share of the tallest are specks, not digits.
const MIN_HEIGHT: f64 = 0.5;

/// The glyphs in `img`, left to right, each an ink mask cut to its box:
/// the pieces the digit reader cuts a cell's ink into (specks dropped,
/// broken strokes merged), the low ones left out. Ink is told from paper
/// as a cell's is: a phone's grey paper and soft print too.
fn glyphs(img: &GrayImage) -> Vec<GrayImage> {
    let mut ink = crate::cells::binarize(img);
    image::imageops::invert(&mut ink);
    let pieces = crate::read::cnn::segment(&ink);
    let tallest = pieces.iter().map(GrayImage::height).max().unwrap_or(0);
    pieces
        .iter()
        .filter(|p| f64::from(p.height()) >= MIN_HEIGHT * f64::from(tallest))
        .map(dark)
        .collect()
}

/// An ink mask (255 ink) cut to its ink and scaled to `SIDE` px high (or
/// wide, where wider than high), centred in a `SIDE`-px square: 0 paper, 1 ink.
fn squared(mask: &GrayImage) -> Option<Vec<f32>> {
    let (mut x0, mut y0, mut x1, mut y1) = (u32::MAX, u32::MAX, 0, 0);
    for (x, y, p) in mask.enumerate_pixels() {
        if p[0] >= 128 {
            (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
        }
    }
    if x0 == u32::MAX {
        return None;
    }
    let (w, h) = (x1 - x0 + 1, y1 - y0 + 1);
    let scale = f64::from(SIDE) / f64::from(w.max(h));
    let sw = ((f64::from(w) * scale).round() as u32).clamp(1, SIDE);
    let sh = ((f64::from(h) * scale).round() as u32).clamp(1, SIDE);
    let cut = image::imageops::crop_imm(mask, x0, y0, w, h).to_image();
    let small = image::imageops::resize(&cut, sw, sh, image::imageops::FilterType::Triangle);
    let mut square = GrayImage::new(SIDE, SIDE);
    let (ox, oy) = ((SIDE - sw) / 2, (SIDE - sh) / 2);
    image::imageops::overlay(&mut square, &small, i64::from(ox), i64::from(oy));
    // Blurred, a stroke a little broader or narrower than the font's (the
    // printer's toner, the scan's cut) still lies on the font's stroke.
    let soft = imageproc::filter::gaussian_blur_f32(&square, BLUR);
    let v: Vec<f32> = soft.pixels().map(|p| f32::from(p[0]) / 255.0).collect();
    let mean = v.iter().sum::<f32>() / v.len() as f32;
    let centred: Vec<f32> = v.iter().map(|p| p - mean).collect();
    let norm = centred.iter().map(|p| p * p).sum::<f32>().sqrt();
    (norm > 0.0).then(|| centred.iter().map(|p| p / norm).collect())
}

/// The blur (px, of `SIDE`) a glyph and the font's digits are compared at.
const BLUR: f32 = 1.0;

/// How unlike two squared glyphs are: 1 less their correlation (0 the
/// same shape, 1 unrelated).
fn distance(a: &[f32], b: &[f32]) -> f32 {
    1.0 - a.iter().zip(b).map(|(p, q)| p * q).sum::<f32>()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::render::printed_number;

    #[test]
    fn a_printed_number_should_be_read_back() {
        let mut reader = FontDigits::new();
        for number in ["7", "14", "0107", "3589", "2026"] {
            let img = printed_number([0.0, 0.0, 20.0, 7.0], number, 0.0, 10.0);
            let r = reader.number(&img);
            assert_eq!(r.text, number);
            assert!(r.confidence > 0.6, "{number}: {}", r.confidence);
        }
    }

    #[test]
    fn a_blot_should_be_read_unsure_and_a_blank_as_nothing() {
        let mut reader = FontDigits::new();
        let mut blot = GrayImage::from_pixel(60, 60, Luma([255]));
        imageproc::drawing::draw_filled_circle_mut(&mut blot, (30, 30), 20, Luma([0]));
        assert!(reader.number(&blot).confidence < 0.3);
        let blank = GrayImage::from_pixel(60, 60, Luma([255]));
        assert_eq!(reader.number(&blank), Reading::none());
    }

    #[test]
    fn a_glyph_broken_in_two_should_be_one_digit() {
        let mut img = printed_number([0.0, 0.0, 10.0, 7.0], "5", 0.0, 10.0);
        let (w, h) = img.dimensions();
        // A white gap across the middle of the glyph, as a fax drops a line.
        for x in 0..w {
            img.put_pixel(x, h / 2, Luma([255]));
        }
        let r = FontDigits::new().number(&img);
        assert_eq!(r.text, "5");
    }
}
