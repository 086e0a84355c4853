//! A second reader for a piece that may hold two touching digits: a net
//! that reads the piece whole as one of the hundred pairs "00".."99", or
//! as neither, beside cutting it in two. Where two digits overlap, every
//! cut leaves a stroke of one in the other ("55" leaning into each other
//! was read "35"); read whole, the overlap is just part of the picture.

use image::{GrayImage, Luma};

use super::{Shape, infer, ink_box};

/// The pair net's input (28 high, 40 wide) and classes: the pairs 00..99
/// (class = 10 × first + second) and [`NOT_TWO`].
pub const PAIR: Shape = Shape {
    height: 28,
    width: 40,
    classes: 101,
    layers: super::Layers::SMALL,
};

/// The class of a piece that is not two digits (one digit, or three).
pub const NOT_TWO: usize = 100;

/// The committed pair model; empty where none was trained yet.
static PAIR_MODEL: &[u8] = include_bytes!("../../../models/pairs.safetensors");

/// Ink (black on white) as the pair net's input in 0..1: the ink's box
/// scaled to at most 20 high and 36 wide, centred.
pub fn normalise_pair(ink: &GrayImage) -> Vec<f32> {
    let (h, w) = (PAIR.height, PAIR.width);
    let mut out = vec![0f32; h * w];
    let Some((x0, y0, x1, y1)) = ink_box(ink) else {
        return out;
    };
    let (bw, bh) = (x1 - x0 + 1, y1 - y0 + 1);
    let scale = (20.0 / f64::from(bh)).min(36.0 / f64::from(bw));
    let (sw, sh) = (
        ((f64::from(bw) * scale).round() as u32).clamp(1, 36),
        ((f64::from(bh) * scale).round() as u32).clamp(1, 20),
    );
    let crop = GrayImage::from_fn(bw, bh, |x, y| {
        Luma([255 - ink.get_pixel(x + x0, y + y0)[0]])
    });
    let small = image::imageops::resize(&crop, sw, sh, image::imageops::FilterType::Triangle);
    let (ox, oy) = ((w as u32 - sw) / 2, (h as u32 - sh) / 2);
    for (x, y, p) in small.enumerate_pixels() {
        out[((y + oy) as usize) * w + (x + ox) as usize] = f32::from(p[0]) / 255.0;
    }
    out
}

/// The pair net, calibrated as the digit net is.
pub struct PairReader {
    net: infer::Inference,
    temperature: f32,
}

impl PairReader {
    /// The committed model, or `None` where none was trained.
    pub fn committed() -> Option<Self> {
        Self::from_bytes(PAIR_MODEL.to_vec()).ok()
    }

    pub fn from_bytes(bytes: Vec<u8>) -> Result<Self, crate::read::ReaderError> {
        let (net, temperature) = super::load_net(bytes, "pair", |_| PAIR)?;
        Ok(PairReader { net, temperature })
    }

    /// Probabilities of the pairs 00..99 and [`NOT_TWO`] for each input
    /// made by [`normalise_pair`].
    pub fn classify(&self, inputs: &[Vec<f32>]) -> Vec<Vec<f32>> {
        let size = PAIR.height * PAIR.width;
        let flat: Vec<f32> = inputs.iter().flatten().copied().collect();
        if inputs.is_empty() || flat.len() != inputs.len() * size {
            return Vec::new();
        }
        let logits = self.net.forward(&flat, inputs.len());
        logits
            .chunks_exact(PAIR.classes)
            .map(|l| super::softmax(l, self.temperature))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pair_input_should_keep_the_pieces_proportions_centred() {
        // A block twice as broad as high fills 20 rows and 40 columns' middle.
        let mut ink = GrayImage::from_pixel(60, 40, Luma([255]));
        for y in 10..30 {
            for x in 10..50 {
                ink.put_pixel(x, y, Luma([0]));
            }
        }
        let input = normalise_pair(&ink);
        let on: Vec<(usize, usize)> = (0..input.len())
            .filter(|&i| input[i] > 0.5)
            .map(|i| (i % PAIR.width, i / PAIR.width))
            .collect();
        let xs = (on.iter().map(|p| p.0).min(), on.iter().map(|p| p.0).max());
        let ys = (on.iter().map(|p| p.1).min(), on.iter().map(|p| p.1).max());
        // 36 columns bound it, so it is 18 rows high, 5 rows below the top.
        assert_eq!(ys, (Some(5), Some(22)));
        assert_eq!(xs, (Some(2), Some(37)));
    }
}
