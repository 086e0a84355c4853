//! A small convolutional digit reader (candle, pure Rust) beside Tesseract:
//! the model file is committed (`models/digits.safetensors`, ~190 kB) and
//! `aufsicht train-digits` makes it again from the MNIST training split.
//!
//! A cell's ink is cut into digits (broken strokes merged, touching digits
//! split), each normalised as MNIST is (20×20 box, centre of mass in 28×28)
//! and classified; the cell's reading is the digits' best string with the
//! product of their probabilities, and the next best strings as alternatives.

use candle_core::{D, DType, Device, Module, Tensor};
use candle_nn::{Conv2d, Linear, VarBuilder, VarMap, conv2d, linear};
use image::{GrayImage, Luma};
use imageproc::region_labelling::{Connectivity, connected_components};

use crate::read::{DigitReader, Reading};

/// Training images held back from training (the last ones of the split).
pub const HELD_BACK: usize = 5000;

static MODEL: &[u8] = include_bytes!("../models/digits.safetensors");

pub struct Net {
    c1: Conv2d,
    c2: Conv2d,
    f1: Linear,
    f2: Linear,
}

impl Net {
    pub fn new(vb: VarBuilder) -> candle_core::Result<Self> {
        Ok(Net {
            c1: conv2d(1, 16, 5, Default::default(), vb.pp("c1"))?,
            c2: conv2d(16, 32, 5, Default::default(), vb.pp("c2"))?,
            f1: linear(512, 64, vb.pp("f1"))?,
            f2: linear(64, 10, vb.pp("f2"))?,
        })
    }
}

impl Module for Net {
    fn forward(&self, x: &Tensor) -> candle_core::Result<Tensor> {
        let x = self.c1.forward(x)?.relu()?.max_pool2d(2)?;
        let x = self.c2.forward(&x)?.relu()?.max_pool2d(2)?;
        let x = x.flatten_from(1)?;
        self.f2.forward(&self.f1.forward(&x)?.relu()?)
    }
}

/// Ink (black on white, any size) as an MNIST-style 28×28 input in 0..1.
pub fn normalise(ink: &GrayImage) -> Vec<f32> {
    let on: Vec<(u32, u32)> = ink
        .enumerate_pixels()
        .filter(|p| p.2[0] < 128)
        .map(|p| (p.0, p.1))
        .collect();
    let mut out = vec![0f32; 784];
    let Some(x0) = on.iter().map(|p| p.0).min() else {
        return out;
    };
    let x1 = on.iter().map(|p| p.0).max().unwrap_or(x0);
    let y0 = on.iter().map(|p| p.1).min().unwrap_or(0);
    let y1 = on.iter().map(|p| p.1).max().unwrap_or(y0);
    let (w, h) = (x1 - x0 + 1, y1 - y0 + 1);
    let scale = 20.0 / f64::from(w.max(h));
    let (sw, sh) = (
        ((f64::from(w) * scale).round() as u32).max(1),
        ((f64::from(h) * scale).round() as u32).max(1),
    );
    let crop = GrayImage::from_fn(w, h, |x, y| Luma([255 - ink.get_pixel(x + x0, y + y0)[0]]));
    let small = image::imageops::resize(&crop, sw, sh, image::imageops::FilterType::Triangle);
    let (mut mx, mut my, mut m) = (0.0, 0.0, 0.0);
    for (x, y, p) in small.enumerate_pixels() {
        let v = f64::from(p[0]);
        mx += v * f64::from(x);
        my += v * f64::from(y);
        m += v;
    }
    let (cx, cy) = if m > 0.0 {
        (mx / m, my / m)
    } else {
        (f64::from(sw) / 2.0, f64::from(sh) / 2.0)
    };
    let (ox, oy) = ((14.0 - cx).round() as i64, (14.0 - cy).round() as i64);
    for (x, y, p) in small.enumerate_pixels() {
        let (tx, ty) = (i64::from(x) + ox, i64::from(y) + oy);
        if (0..28).contains(&tx) && (0..28).contains(&ty) {
            out[(ty * 28 + tx) as usize] = f32::from(p[0]) / 255.0;
        }
    }
    out
}

/// A component's box and size: x0, y0, x1, y1, pixels.
type Bounds = (u32, u32, u32, u32, u32);

/// Cuts a cell's ink into single digits, left to right.
pub fn segment(ink: &GrayImage) -> Vec<GrayImage> {
    let (w, h) = ink.dimensions();
    let inv = GrayImage::from_fn(w, h, |x, y| {
        Luma([if ink.get_pixel(x, y)[0] < 128 { 255 } else { 0 }])
    });
    let labels = connected_components(&inv, Connectivity::Eight, Luma([0u8]));
    let mut boxes: std::collections::BTreeMap<u32, Bounds> = Default::default();
    for (x, y, l) in labels.enumerate_pixels() {
        if l[0] == 0 {
            continue;
        }
        let b = boxes.entry(l[0]).or_insert((x, y, x, y, 0));
        *b = (b.0.min(x), b.1.min(y), b.2.max(x), b.3.max(y), b.4 + 1);
    }
    let total: u32 = boxes.values().map(|b| b.4).sum();
    let height = boxes.values().map(|b| b.3 - b.1 + 1).max().unwrap_or(1);
    // Groups of labels: specks dropped, pieces overlapping in x merged (a broken stroke).
    let mut groups: Vec<(u32, u32, Vec<u32>)> = Vec::new();
    let mut list: Vec<(u32, Bounds)> = boxes
        .into_iter()
        .filter(|(_, b)| b.4 * 40 >= total)
        .collect();
    list.sort_by_key(|(_, b)| b.0);
    for (l, b) in list {
        if let Some(g) = groups.last_mut() {
            let overlap = g.1.min(b.2) as i64 - g.0.max(b.0) as i64;
            if overlap * 2 > i64::from((b.2 - b.0).min(g.1 - g.0)) {
                g.1 = g.1.max(b.2);
                g.2.push(l);
                continue;
            }
        }
        groups.push((b.0, b.2, vec![l]));
    }
    let mut out = Vec::new();
    for (x0, x1, ls) in groups {
        let piece = GrayImage::from_fn(x1 - x0 + 1, h, |x, y| {
            Luma([if ls.contains(&labels.get_pixel(x + x0, y)[0]) {
                0
            } else {
                255
            }])
        });
        // Touching digits: a piece much wider than the writing is high is two.
        if piece.width() * 4 > height * 5 {
            let ink_in = |x: u32| (0..h).filter(|&y| piece.get_pixel(x, y)[0] < 128).count();
            let (a, b) = (piece.width() * 3 / 10, piece.width() * 7 / 10);
            let cut = (a..b)
                .min_by_key(|&x| ink_in(x))
                .unwrap_or(piece.width() / 2);
            out.push(image::imageops::crop_imm(&piece, 0, 0, cut, h).to_image());
            out.push(image::imageops::crop_imm(&piece, cut, 0, piece.width() - cut, h).to_image());
        } else {
            out.push(piece);
        }
    }
    out
}

pub struct CnnReader {
    net: Net,
}

impl CnnReader {
    /// The committed model.
    pub fn new() -> Result<Self, String> {
        Self::from_bytes(MODEL.to_vec())
    }

    pub fn from_bytes(bytes: Vec<u8>) -> Result<Self, String> {
        let vb = VarBuilder::from_buffered_safetensors(bytes, DType::F32, &Device::Cpu)
            .map_err(|e| format!("digit model: {e}"))?;
        Ok(CnnReader {
            net: Net::new(vb).map_err(|e| format!("digit model: {e}"))?,
        })
    }

    /// Probabilities of 0..9 for each 28×28 input.
    pub fn classify(&self, inputs: &[Vec<f32>]) -> Vec<[f32; 10]> {
        let n = inputs.len();
        if n == 0 {
            return Vec::new();
        }
        let flat: Vec<f32> = inputs.iter().flatten().copied().collect();
        let run = || -> candle_core::Result<Vec<Vec<f32>>> {
            let x = Tensor::from_vec(flat, (n, 1, 28, 28), &Device::Cpu)?;
            candle_nn::ops::softmax(&self.net.forward(&x)?, D::Minus1)?.to_vec2::<f32>()
        };
        run()
            .unwrap_or_default()
            .into_iter()
            .map(|v| {
                let mut a = [0f32; 10];
                a.iter_mut().zip(v).for_each(|(o, p)| *o = p);
                a
            })
            .collect()
    }
}

impl DigitReader for CnnReader {
    fn name(&self) -> &str {
        "cnn-mnist"
    }

    fn read(&mut self, digits: &GrayImage) -> Reading {
        let parts = segment(digits);
        if parts.is_empty() || parts.len() > 6 {
            return Reading::none();
        }
        let probs = self.classify(&parts.iter().map(normalise).collect::<Vec<_>>());
        // Best strings: beam over the digits' top three.
        let mut beam: Vec<(String, f32)> = vec![(String::new(), 1.0)];
        for p in &probs {
            let mut top: Vec<(usize, f32)> = p.iter().copied().enumerate().collect();
            top.sort_by(|a, b| b.1.total_cmp(&a.1));
            let mut next = Vec::new();
            for (text, q) in &beam {
                for &(d, pd) in top.iter().take(3) {
                    next.push((format!("{text}{d}"), q * pd));
                }
            }
            next.sort_by(|a, b| b.1.total_cmp(&a.1));
            next.truncate(5);
            beam = next;
        }
        let (text, confidence) = beam.first().cloned().unwrap_or_default();
        Reading {
            text,
            confidence,
            alternatives: beam.into_iter().skip(1).take(3).collect(),
        }
    }
}

/// Trains the net on MNIST training digits, augmented as cells look after
/// `cells::analyse` (binary ink, thin and broad pens, scale). The last 5000
/// training images are held back to report accuracy; the test split is never used.
pub fn train(
    digits: &crate::synth::Digits,
    epochs: usize,
    seed: u64,
    log: &mut dyn FnMut(String),
) -> candle_core::Result<VarMap> {
    use candle_nn::{Optimizer, ParamsAdamW};
    use rand::RngExt;
    let varmap = VarMap::new();
    let vb = VarBuilder::from_varmap(&varmap, DType::F32, &Device::Cpu);
    let net = Net::new(vb)?;
    let mut opt = candle_nn::AdamW::new(
        varmap.all_vars(),
        ParamsAdamW {
            lr: 2e-3,
            ..Default::default()
        },
    )?;
    let n = digits.len();
    let held = HELD_BACK.min(n / 10);
    let train_n = n - held;
    let mut rng = crate::synth::rng(seed);
    let sample = |i: usize, rng: &mut rand_chacha::ChaCha8Rng| -> (Vec<f32>, u32) {
        let (img, label) = digits.get(i);
        (normalise(&augment(img, rng)), u32::from(label))
    };
    for epoch in 0..epochs {
        let mut order: Vec<usize> = (0..train_n).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, rng.random_range(0..=i));
        }
        let mut loss_sum = 0.0;
        let batches = order.chunks(64).count();
        for batch in order.chunks(64) {
            let (xs, ys): (Vec<Vec<f32>>, Vec<u32>) =
                batch.iter().map(|&i| sample(i, &mut rng)).unzip();
            let x = Tensor::from_vec(xs.concat(), (batch.len(), 1, 28, 28), &Device::Cpu)?;
            let y = Tensor::from_vec(ys, batch.len(), &Device::Cpu)?;
            let loss = candle_nn::loss::cross_entropy(&net.forward(&x)?, &y)?;
            opt.backward_step(&loss)?;
            loss_sum += f64::from(loss.to_scalar::<f32>()?);
        }
        let reader = CnnReader {
            net: Net::new(VarBuilder::from_varmap(&varmap, DType::F32, &Device::Cpu))?,
        };
        let mut right = 0;
        for chunk in (train_n..n).collect::<Vec<_>>().chunks(500) {
            let inputs: Vec<Vec<f32>> = chunk.iter().map(|&i| sample(i, &mut rng).0).collect();
            for (p, &i) in reader.classify(&inputs).iter().zip(chunk) {
                let best = p
                    .iter()
                    .enumerate()
                    .max_by(|a, b| a.1.total_cmp(b.1))
                    .map_or(0, |b| b.0);
                right += usize::from(best as u8 == digits.get(i).1);
            }
        }
        log(format!(
            "epoch {}: loss {:.4}, held-back training digits {:.2}% right",
            epoch + 1,
            loss_sum / batches as f64,
            100.0 * right as f64 / held.max(1) as f64
        ));
    }
    Ok(varmap)
}

/// An MNIST digit as the cell stage delivers ink: scaled, pen width varied, binarised.
fn augment(img: &[u8; 784], rng: &mut rand_chacha::ChaCha8Rng) -> GrayImage {
    use rand::RngExt;
    let src = GrayImage::from_fn(28, 28, |x, y| Luma([img[(y * 28 + x) as usize]]));
    let side = rng.random_range(36..72u32);
    let mut big = image::imageops::resize(&src, side, side, image::imageops::FilterType::Triangle);
    match rng.random_range(0..6) {
        0 => {
            big = imageproc::morphology::grayscale_dilate(
                &big,
                &imageproc::morphology::Mask::square(3),
            )
        }
        1 if side > 60 => {
            big = imageproc::morphology::grayscale_erode(
                &big,
                &imageproc::morphology::Mask::square(3),
            )
        }
        _ => {}
    }
    let cut = rng.random_range(80..140u8);
    GrayImage::from_fn(side, side, |x, y| {
        Luma([if big.get_pixel(x, y)[0] > cut { 0 } else { 255 }])
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use imageproc::drawing::draw_filled_rect_mut;
    use imageproc::rect::Rect;

    fn mnist_digit(index: usize) -> (GrayImage, u8) {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/digits");
        let digits = crate::synth::Digits::from_dir(&dir).expect("bundled digits");
        let (img, label) = digits.get(index);
        // As a cell delivers it: black ink on white, larger than 28 px.
        let src = GrayImage::from_fn(28, 28, |x, y| Luma([img[(y * 28 + x) as usize]]));
        let big = image::imageops::resize(&src, 56, 56, image::imageops::FilterType::Triangle);
        (
            GrayImage::from_fn(56, 56, |x, y| {
                Luma([if big.get_pixel(x, y)[0] > 100 { 0 } else { 255 }])
            }),
            label,
        )
    }

    #[test]
    fn touching_digits_are_split_and_broken_strokes_merged() {
        let mut two = GrayImage::from_pixel(60, 40, Luma([255]));
        draw_filled_rect_mut(&mut two, Rect::at(5, 5).of_size(22, 30), Luma([0]));
        draw_filled_rect_mut(&mut two, Rect::at(27, 5).of_size(25, 30), Luma([0]));
        assert_eq!(segment(&two).len(), 2, "one wide blob of two digits");
        let mut broken = GrayImage::from_pixel(30, 40, Luma([255]));
        draw_filled_rect_mut(&mut broken, Rect::at(10, 2).of_size(4, 16), Luma([0]));
        draw_filled_rect_mut(&mut broken, Rect::at(11, 20).of_size(4, 16), Luma([0]));
        assert_eq!(
            segment(&broken).len(),
            1,
            "a 1 cut by a ruled line is one digit"
        );
    }

    #[test]
    fn normalised_digits_are_centred_like_mnist() {
        let (img, _) = mnist_digit(3);
        let v = normalise(&img);
        let (mut mx, mut my, mut m) = (0.0, 0.0, 0.0);
        for (i, p) in v.iter().enumerate() {
            mx += f64::from(*p) * (i % 28) as f64;
            my += f64::from(*p) * (i / 28) as f64;
            m += f64::from(*p);
        }
        assert!((mx / m - 14.0).abs() < 1.5 && (my / m - 14.0).abs() < 1.5);
    }

    /// The committed model reads the bundled MNIST training digits (it was
    /// trained on them, so this checks the model and its plumbing, not its accuracy).
    #[test]
    fn the_committed_model_reads_handwritten_digits() {
        let mut reader = CnnReader::new().expect("model");
        let mut right = 0;
        for i in 0..200 {
            let (img, label) = mnist_digit(i * 5);
            let r = reader.read(&img);
            right += usize::from(r.text == label.to_string());
            assert!(r.confidence >= 0.0 && r.confidence <= 1.0);
        }
        assert!(right >= 180, "{right}/200");
    }
}
