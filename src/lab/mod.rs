//! The lab: tools that make and measure test data, not part of reading a
//! night. Sheets drawn with their truth ([`synth`]), digits cut from them
//! for training ([`harvest`]), results rated against the truth
//! ([`evaluate`]). The product never calls into it.

pub mod digits;
pub mod evaluate;
pub mod hand;
pub mod harvest;
pub mod pair_training;
pub mod strokes;
pub mod struck_training;
pub mod synth;
pub mod training;
