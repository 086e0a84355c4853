//! Cells: each field box cut out of the aligned page, its ruled lines
//! removed without losing the strokes that cross them, and its marks told
//! apart: empty, a dash, ink to read; a circle around the value; a sign;
//! and the pen each piece of ink was written with.

use image::{GrayImage, Luma};

use crate::page::align::Alignment;
use crate::page::form::MmBox;

mod analyse;
mod cut;
mod ink;
mod lines;
mod pen;
mod ring;

pub use analyse::*;
pub use cut::*;
pub use ink::*;
pub use lines::*;
pub use pen::*;
pub use ring::*;

/// Crop resolution.
pub const PX_PER_MM: f64 = 10.0;
/// Margin cut around each box: strokes run over the ruled lines.
const MARGIN_MM: f64 = 1.2;

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mark {
    Empty,
    Dash,
    Ink,
}

/// One field as found on the page.
#[derive(Debug, Clone)]
pub struct CellImage {
    pub mark: Mark,
    pub circled: bool,
    /// A leading sign (Endergebnis): `'+'` or `'-'`.
    pub sign: Option<char>,
    /// The digits only: black ink on white, cropped to the ink.
    pub digits: GrayImage,
    /// Ink pixels in the box after line removal.
    pub ink_px: u32,
    /// Whether the ink kept reaches beyond the box's top or bottom line.
    beyond_lines: bool,
    /// Whether the ink kept runs on over the box's left or right line: a
    /// number written across the line between two columns, which may be
    /// the next column's.
    pub across_side: bool,
    /// Of a circled cell, its ink as drawn, ring and all (cropped): what
    /// it is, should the "ring" be digits (a "10" with a round 0).
    pub unpeeled: Option<GrayImage>,
}

impl CellImage {
    /// A field with nothing in it.
    pub fn blank() -> Self {
        CellImage {
            mark: Mark::Empty,
            circled: false,
            sign: None,
            digits: GrayImage::from_pixel(1, 1, Luma([255])),
            ink_px: 0,
            beyond_lines: false,
            across_side: false,
            unpeeled: None,
        }
    }
}

/// A crop cut from a drawn sheet, kept under `tests/fixtures/cells`.
#[cfg(test)]
pub(crate) fn fixture(name: &str) -> GrayImage {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/cells")
        .join(name);
    image::open(path).expect("fixture").to_luma8()
}

#[cfg(test)]
mod tests;
