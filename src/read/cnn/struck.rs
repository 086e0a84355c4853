//! The struck-ink net: tells a piece of a cell's ink that is a value
//! struck out (one or two strokes, a cross, a zigzag through its digits,
//! blacked out) or a digit written over another from writing. A writer who
//! mends a value strikes the old one and writes the new one beside or
//! above it; the reader then reads only the new one, and the cell is
//! `corrected`. Trained by the lab
//! (`lab::struck_training`, `aufsicht-lab train-struck`).

use image::GrayImage;

use super::pair::{PAIR, normalise_pair};
use super::{Shape, infer};

/// The net's input (a piece as the pair net sees it, its proportions kept)
/// and its three classes.
pub const STRUCK: Shape = Shape { classes: 3, ..PAIR };

/// The class of writing to read.
pub const WRITING: u32 = 0;
/// The class of a value struck out.
pub const STRUCK_CLASS: u32 = 1;
/// The class of a digit written over another.
pub const OVER: u32 = 2;

/// The committed model; empty where none was trained yet.
static STRUCK_MODEL: &[u8] = include_bytes!("../../../models/struck.safetensors");

/// A piece of ink (black on white) as the net's input.
pub fn input(piece: &GrayImage) -> Vec<f32> {
    normalise_pair(piece)
}

/// The struck-ink net, calibrated as the digit net is.
pub struct StruckNet {
    net: infer::Inference,
    temperature: f32,
}

impl StruckNet {
    /// The committed model, or `None` where none was trained.
    pub fn committed() -> Option<Self> {
        Self::from_bytes(STRUCK_MODEL.to_vec()).ok()
    }

    pub fn from_bytes(bytes: Vec<u8>) -> Result<Self, crate::read::ReaderError> {
        let (net, temperature) = super::load_net(bytes, "struck", |_| STRUCK)?;
        Ok(StruckNet { net, temperature })
    }

    /// Each piece's probabilities of writing, a struck value and a digit
    /// written over another, in the order of the classes.
    pub fn classify(&self, pieces: &[&GrayImage]) -> Vec<Vec<f32>> {
        if pieces.is_empty() {
            return Vec::new();
        }
        let flat: Vec<f32> = pieces.iter().flat_map(|p| input(p)).collect();
        let logits = self.net.forward(&flat, pieces.len());
        logits
            .chunks_exact(STRUCK.classes)
            .map(|l| super::softmax(l, self.temperature))
            .collect()
    }
}
