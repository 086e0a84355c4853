//! Values struck out and written anew. A game cell whose ink falls into
//! pieces of which the struck-ink net calls some a struck value and others
//! writing is a correction: the writing is read as the cell's value, the
//! struck pieces apart as the value struck out (`struck`), and the cell is
//! `corrected`, so that the row's initials decide
//! `CORRECTION_NOT_INITIALLED`.

use std::sync::OnceLock;

use image::{GrayImage, Luma};

use crate::read::cnn::struck::StruckNet;
use crate::read::cnn::{ink_box, segment_placed};

/// A piece the net calls struck at least this surely is taken out of the
/// reading (see docs/reading.md for how it was chosen).
pub(super) const STRUCK_SURE: f32 = 0.9;

/// A piece kept as writing beside a struck one is called struck below this.
const WRITING_SURE: f32 = 0.5;

/// A struck value's reading below this gives no value (`struck` N null).
pub(super) const STRUCK_READ: f32 = 0.5;

/// A cell's ink parted into the writing and the value struck out.
pub(super) struct Parted {
    pub(super) writing: GrayImage,
    pub(super) struck: GrayImage,
}

/// The committed net, loaded once for every page.
fn net() -> Option<&'static StruckNet> {
    static NET: OnceLock<Option<StruckNet>> = OnceLock::new();
    NET.get_or_init(StruckNet::committed).as_ref()
}

/// The writing and the struck value of a cell's ink (black on white),
/// where at least two pieces are there, some surely struck and the others
/// surely writing; `None` otherwise (the ink is read as it is).
pub(super) fn part(ink: &GrayImage) -> Option<Parted> {
    let net = net()?;
    let pieces = segment_placed(ink);
    if pieces.len() < 2 {
        return None;
    }
    let images: Vec<&GrayImage> = pieces.iter().map(|p| &p.0).collect();
    let p = net.struck(&images);
    let struck: Vec<bool> = p.iter().map(|&p| p >= STRUCK_SURE).collect();
    let sure = p.iter().all(|p| !(WRITING_SURE..STRUCK_SURE).contains(p));
    if !sure || struck.iter().all(|&s| s) || !struck.iter().any(|&s| s) {
        return None;
    }
    let (w, h) = ink.dimensions();
    let mut writing = GrayImage::from_pixel(w, h, Luma([255]));
    let mut out = GrayImage::from_pixel(w, h, Luma([255]));
    for ((piece, x0, y0), &is_struck) in pieces.iter().zip(&struck) {
        let target = if is_struck { &mut out } else { &mut writing };
        for (x, y, v) in piece.enumerate_pixels() {
            if v[0] < 128 {
                target.put_pixel(x + x0, y + y0, Luma([0]));
            }
        }
    }
    Some(Parted {
        writing: cropped(&writing),
        struck: cropped(&out),
    })
}

/// Ink cropped to its box, as `cells` gives a field's digits.
fn cropped(ink: &GrayImage) -> GrayImage {
    match ink_box(ink) {
        Some((x0, y0, x1, y1)) => {
            image::imageops::crop_imm(ink, x0, y0, x1 - x0 + 1, y1 - y0 + 1).to_image()
        }
        None => ink.clone(),
    }
}

/// The writing of a field's ink: where the field was found corrected, the
/// ink parted again (`None` where this cut does not part so).
pub(super) fn writing_of(ink: GrayImage, corrected: bool) -> Option<GrayImage> {
    if !corrected {
        return Some(ink);
    }
    part(&ink).map(|p| p.writing)
}
