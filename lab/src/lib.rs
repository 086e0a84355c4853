//! The lab: tools that make and measure test data, not part of reading a
//! night. Sheets drawn with their truth ([`synth`]), digits cut from them
//! for training ([`harvest`]), later edits in another pen ([`edits`]), results rated against the truth
//! ([`evaluate`]), and the `aufsicht-lab` commands over them ([`cli`]).
//!
//! It is its own crate over the product's library, so the product cannot
//! call into it.

#[cfg(feature = "train")]
pub mod checkpoint;
pub mod cli;
pub mod club_form;
pub mod digits;
pub mod edits;
pub mod evaluate;
pub mod hand;
pub mod hands;
pub mod harvest;
#[cfg(feature = "train")]
pub mod net;
#[cfg(feature = "train")]
pub mod pair_training;
pub mod print_colour;
pub mod series;
pub mod strokes;
#[cfg(feature = "train")]
pub mod struck_training;
pub mod synth;
#[cfg(feature = "train")]
pub mod training;

/// The repository the lab lives in: its bundled samples, the fetched
/// MNIST data and the models are there, beside the product.
pub fn repository() -> &'static std::path::Path {
    std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}
