//! A small convolutional digit reader (pure Rust) beside Tesseract: the lab
//! trains it with candle (`lab::training`); reading loads the model file's
//! tensors as plain numbers (`model`) and runs the forward pass in `infer`
//! (plain loops around serial matrix products, as fast as a batch of
//! sheets wants):
//! the model file is committed (`models/digits.safetensors`, ~740 kB) and
//! `aufsicht-lab train-digits` makes it again from the MNIST training split.
//! Besides the ten digits it knows "not one digit" (half a digit, two
//! touching ones), so that a wrong cut does not have to be read as digits.
//!
//! A cell's ink is cut into digits (broken strokes merged, touching digits
//! split), each normalised as MNIST is (20×20 box, centre of mass in 28×28)
//! and classified; the cell's reading is the digits' best string with the
//! product of their probabilities, and the next best strings as alternatives.

use image::{GrayImage, Luma};

use crate::read::{DigitReader, ReaderError, Reading};

mod adapt;
mod infer;
mod model;
mod net;
pub mod pair;
mod reader;
mod segment;
pub mod struck;

pub use infer::Inference;
pub use model::*;
pub use net::*;
pub use reader::*;
pub use segment::*;

/// A model file that cannot be read as the net `which`.
pub(crate) fn model_error(which: &'static str, e: impl std::fmt::Display) -> ReaderError {
    ReaderError::Model {
        which,
        message: e.to_string(),
    }
}

/// A piece read whole with this probability (its prior included) is not
/// also read as touching digits.
const SURE_WHOLE: f32 = 0.99;

/// A piece the net calls not one digit, and too narrow for the width prior
/// to offer a split, is also read as two touching digits with this prior
/// (a narrow "1" touching its neighbour: "17" read as "7").
const TOUCHING_PRIOR: f32 = 0.05;

/// A piece's readings are shares of the mass its ways give to digits (the
/// net's "not one digit" removed), but of at least this much: where every
/// way of reading it looks like no digit, no reading of it is sure.
/// 0.2, not 0.5: two clearly written touching digits (a table "23") whose
/// ways the width prior and the net both doubt stayed unsure at 0.5
/// (docs/reading.md).
const DIGITS_FLOOR: f32 = 0.2;

/// How many straight cuts of a piece into two digits are read (one along a
/// path comes on top, see [`two_cuts`]).
const TWO_CUTS: usize = 3;

/// A first cut into two read this surely (see [`surety`]) is not cut again.
const SURE_CUT: f32 = 0.99;

/// Training images held back from training (the last ones of the split).
pub const HELD_BACK: usize = 5000;

pub static MODEL: &[u8] = include_bytes!("../../../models/digits.safetensors");

/// The second net (`train-digits --deep`, `scripts/train-digits.sh --second`): a 3×3
/// pair of convolutions where the first has one 5×5, and 256 dense units.
/// Alone it reads about as well as the first, but errs elsewhere.
static SECOND_MODEL: &[u8] = include_bytes!("../../../models/second.safetensors");

/// The net's classes: the digits 0..9 and [`NOT_A_DIGIT`].
pub const CLASSES: usize = 11;

/// The class of an input that is not one whole digit: half a digit cut
/// apart, or two touching digits read as one. It lets the net veto a
/// wrong split instead of forcing a digit out of it.
pub const NOT_A_DIGIT: usize = 10;

/// A detached cap joins the digit below it (or beside its top right)
/// across a gap of at most 1/CAP_GAP of the writing's height.
const CAP_GAP: u32 = 6;

#[cfg(test)]
pub(crate) mod tests;
