//! Values struck out and written anew. A game cell whose ink falls into
//! pieces of which the struck-ink net calls some a struck value and the
//! others writing is a correction: the writing is read as the cell's
//! value, the struck pieces apart as the value struck out (`struck`), and
//! the cell is `corrected`, so that the row's initials decide
//! `CORRECTION_NOT_INITIALLED`. A piece the net calls a digit written over
//! another makes the cell corrected too, its old value unknown and its
//! reading unsure: a person looks at it.

use std::sync::OnceLock;

use image::{GrayImage, Luma};

use crate::cells::crop_to_ink;
use crate::read::cnn::segment_placed;
use crate::read::cnn::struck::{OVER, STRUCK_CLASS, StruckNet, WRITING};

/// A piece the net calls struck (or written over) at least this surely is
/// one (see docs/reading.md for how it was chosen).
pub(super) const STRUCK_SURE: f32 = 0.9;

/// A piece beside a struck one is writing from this probability; a piece
/// neither this surely writing nor [`STRUCK_SURE`] struck leaves the cell
/// read as it is.
const WRITING_SURE: f32 = 0.5;

/// A piece neither surely writing nor surely struck, struck or written
/// over at least this likely, makes its cell's reading unsure.
const DOUBT_FROM: f32 = 0.5;

/// A struck value's reading below this gives no value (`struck` N null):
/// no rule checks a struck value, so a wrong one would stand where no flag
/// points. On the tuning nights c1 c3 (45 corrections found) 0.5 gave 26
/// right, 9 wrong; 0.9 gave 18 and 4; 0.99 gives 7 and 1.
pub(super) const STRUCK_READ: f32 = 0.99;

/// What the net finds in a cell's ink.
pub(super) enum Found {
    /// The writing and the value struck out, apart.
    Parted {
        writing: GrayImage,
        struck: GrayImage,
    },
    /// Digits written over digits: one ink.
    Over,
    /// Ink the net half takes for struck, or only struck ink: read as it
    /// is, but unsure, so that a person looks.
    Doubt,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Writing,
    Struck,
    Over,
}

/// The committed net, loaded once for every page.
fn net() -> Option<&'static StruckNet> {
    static NET: OnceLock<Option<StruckNet>> = OnceLock::new();
    NET.get_or_init(StruckNet::committed).as_ref()
}

/// What each cell's ink (black on white) holds, in one pass of the net
/// over the pieces of every cell of two or more: `None` where it is
/// writing only, of one piece, or the net is unsure of a piece (the ink
/// is then read as it is).
pub(super) fn find(inks: &[&GrayImage]) -> Vec<Option<Found>> {
    let Some(net) = net() else {
        return inks.iter().map(|_| None).collect();
    };
    // A cell of one piece is not asked: digits over digits found so were
    // one in ten, and asking about every such cell cost 5% of a sheet.
    let pieces: Vec<Vec<(GrayImage, u32, u32)>> = inks
        .iter()
        .map(|ink| segment_placed(ink))
        .map(|p| if p.len() < 2 { Vec::new() } else { p })
        .collect();
    let all: Vec<&GrayImage> = pieces.iter().flatten().map(|p| &p.0).collect();
    let probabilities = net.classify(&all);
    let mut at = 0;
    inks.iter()
        .zip(&pieces)
        .map(|(ink, placed)| {
            let p = probabilities.get(at..at + placed.len()).unwrap_or(&[]);
            at += placed.len();
            judge(ink, placed, p)
        })
        .collect()
}

/// The finding for one cell's placed pieces and their probabilities.
fn judge(ink: &GrayImage, placed: &[(GrayImage, u32, u32)], p: &[Vec<f32>]) -> Option<Found> {
    let mended = |p: &Vec<f32>| class(p, STRUCK_CLASS) + class(p, OVER);
    let Some(kinds) = p.iter().map(|p| kind(p)).collect::<Option<Vec<Kind>>>() else {
        return p
            .iter()
            .any(|p| mended(p) >= DOUBT_FROM)
            .then_some(Found::Doubt);
    };
    let count = |k: Kind| kinds.iter().filter(|&&x| x == k).count();
    let (writing, struck, over) = (count(Kind::Writing), count(Kind::Struck), count(Kind::Over));
    if kinds.len() != placed.len() || (struck == 0 && over == 0) {
        return None;
    }
    if over > 0 {
        return Some(if struck == 0 {
            Found::Over
        } else {
            Found::Doubt
        });
    }
    if writing == 0 {
        return Some(Found::Doubt);
    }
    // Masks (ink bright) of the writing and of the struck ink.
    let (w, h) = ink.dimensions();
    let mut apart = [GrayImage::new(w, h), GrayImage::new(w, h)];
    for ((piece, x0, y0), k) in placed.iter().zip(&kinds) {
        let mask = &mut apart[usize::from(*k == Kind::Struck)];
        for (x, y, v) in piece.enumerate_pixels() {
            if v[0] < 128 {
                mask.put_pixel(x + x0, y + y0, Luma([255]));
            }
        }
    }
    let [writing, struck] = apart;
    Some(Found::Parted {
        writing: crop_to_ink(&writing),
        struck: crop_to_ink(&struck),
    })
}

/// A piece's probability of `class`.
fn class(p: &[f32], class: u32) -> f32 {
    p.get(class as usize).copied().unwrap_or(0.0)
}

/// A piece's kind, where the net is sure enough of it.
fn kind(p: &[f32]) -> Option<Kind> {
    if class(p, STRUCK_CLASS) >= STRUCK_SURE {
        Some(Kind::Struck)
    } else if class(p, OVER) >= STRUCK_SURE {
        Some(Kind::Over)
    } else {
        (class(p, WRITING) >= WRITING_SURE).then_some(Kind::Writing)
    }
}

/// The writing of a field's ink: where the field was found corrected, the
/// ink found so again (`None` where this cut does not show it so).
pub(super) fn writing_of(ink: GrayImage, corrected: bool) -> Option<GrayImage> {
    if !corrected {
        return Some(ink);
    }
    match find(&[&ink]).pop().flatten()? {
        Found::Parted { writing, .. } => Some(writing),
        Found::Over | Found::Doubt => Some(ink),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cell's ink: a 4×6 block at x 0 (the first piece) and one at x 10.
    fn two_pieces() -> (GrayImage, Vec<(GrayImage, u32, u32)>) {
        let mut ink = GrayImage::from_pixel(14, 6, Luma([255]));
        for x in (0..4).chain(10..14) {
            for y in 0..6 {
                ink.put_pixel(x, y, Luma([0]));
            }
        }
        let piece = GrayImage::from_pixel(4, 6, Luma([0]));
        (ink, vec![(piece.clone(), 0, 0), (piece, 10, 0)])
    }

    #[test]
    fn a_struck_piece_beside_writing_should_be_parted_from_it() {
        let (ink, placed) = two_pieces();
        let p = vec![vec![0.04, 0.95, 0.01], vec![0.97, 0.02, 0.01]];
        let Some(Found::Parted { writing, struck }) = judge(&ink, &placed, &p) else {
            panic!("parted");
        };
        // Each is cropped to its own ink: one block each.
        let ink = |img: &GrayImage| {
            crate::read::cnn::ink_box(img).map(|b| (b.2 - b.0 + 1, b.3 - b.1 + 1))
        };
        assert_eq!(ink(&writing), Some((4, 6)));
        assert_eq!(ink(&struck), Some((4, 6)));
    }

    #[test]
    fn digits_written_over_digits_should_be_found_as_such() {
        let (ink, placed) = two_pieces();
        let p = vec![vec![0.02, 0.02, 0.96], vec![0.97, 0.02, 0.01]];
        assert!(matches!(judge(&ink, &placed, &p), Some(Found::Over)));
    }

    #[test]
    fn a_cell_should_be_read_as_it_is_unless_the_net_half_sees_a_strike() {
        let (ink, placed) = two_pieces();
        let writing = vec![vec![0.98, 0.01, 0.01], vec![0.97, 0.02, 0.01]];
        assert!(judge(&ink, &placed, &writing).is_none());
        let a_little_struck = vec![vec![0.6, 0.3, 0.1], vec![0.97, 0.02, 0.01]];
        assert!(judge(&ink, &placed, &a_little_struck).is_none());
        // Half struck, or struck with nothing written beside: a person looks.
        let unsure = vec![vec![0.3, 0.6, 0.1], vec![0.97, 0.02, 0.01]];
        assert!(matches!(judge(&ink, &placed, &unsure), Some(Found::Doubt)));
        let all_struck = vec![vec![0.04, 0.95, 0.01], vec![0.03, 0.96, 0.01]];
        assert!(matches!(
            judge(&ink, &placed, &all_struck),
            Some(Found::Doubt)
        ));
    }
}
