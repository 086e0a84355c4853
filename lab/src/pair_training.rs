//! Training the pair net (a lab tool): two MNIST training digits drawn
//! touching, as a hand writes a number in a narrow box, and pieces cut from
//! drawn sheets. The product reads with the net ([`aufsicht::read::cnn::pair`]).

use image::{GrayImage, Luma};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use crate::harvest::Sample;
use crate::training::{Lessons, Schedule, augment, fit};
use aufsicht::read::cnn::pair::{NOT_TWO, PAIR, normalise_pair};
use aufsicht::read::cnn::{HELD_BACK, ink_box};

/// The ink of `img` cropped to its box, scaled to `height`.
fn cropped_to_height(img: &GrayImage, height: u32) -> Option<GrayImage> {
    let (x0, y0, x1, y1) = ink_box(img)?;
    let crop = image::imageops::crop_imm(img, x0, y0, x1 - x0 + 1, y1 - y0 + 1).to_image();
    let width = ((f64::from(crop.width()) * f64::from(height) / f64::from(crop.height())).round()
        as u32)
        .max(1);
    Some(image::imageops::resize(
        &crop,
        width,
        height.max(1),
        image::imageops::FilterType::Triangle,
    ))
}

/// Digits written side by side so that each touches or runs into the
/// next, as a hand writes a number in a narrow box: each the first's
/// height (±15%), shifted up or down a little, and overlapping the one
/// before by up to a third of the narrower's width.
pub fn side_by_side(glyphs: &[GrayImage], rng: &mut ChaCha8Rng) -> GrayImage {
    let height = 40 + rng.random_range(0..30u32);
    let mut placed: Vec<(GrayImage, i64, i64)> = Vec::new();
    let mut right = 0i64;
    for g in glyphs {
        let h = (f64::from(height) * rng.random_range(0.85..1.15)).round() as u32;
        let Some(d) = cropped_to_height(g, h) else {
            continue;
        };
        let top = i64::from(height) / 2 - i64::from(h) / 2
            + (f64::from(height) * rng.random_range(-0.12..0.12)) as i64;
        let left = match placed.last() {
            None => 0,
            Some((prev, ..)) => {
                let narrower = f64::from(prev.width().min(d.width()));
                right - (narrower * rng.random_range(0.0..0.35)).round() as i64
            }
        };
        right = left + i64::from(d.width());
        placed.push((d, left, top));
    }
    let top = placed.iter().map(|p| p.2).min().unwrap_or(0);
    let bottom = placed
        .iter()
        .map(|p| p.2 + i64::from(p.0.height()))
        .max()
        .unwrap_or(1);
    let mut out = GrayImage::from_pixel(
        right.max(1) as u32,
        (bottom - top).max(1) as u32,
        Luma([255]),
    );
    for (d, left, t) in &placed {
        for (x, y, p) in d.enumerate_pixels() {
            let (tx, ty) = (left + i64::from(x), t - top + i64::from(y));
            if let Some(q) = out.get_pixel_mut_checked(tx as u32, ty as u32) {
                q[0] = q[0].min(p[0]);
            }
        }
    }
    out
}

/// A fresh training input from the MNIST digits `from` of `digits`:
/// mostly two touching digits and their pair, else one digit (sometimes
/// drawn broad) or three, as [`NOT_TWO`].
pub fn drawn_pair(
    digits: &crate::synth::Digits,
    from: std::ops::Range<usize>,
    rng: &mut ChaCha8Rng,
) -> Sample {
    let glyph = |rng: &mut ChaCha8Rng| {
        let (img, label) = digits.get(rng.random_range(from.clone()));
        (augment(img, label, rng), label)
    };
    match rng.random_range(0..20) {
        0..=1 => {
            let (g, _) = glyph(rng);
            let stretch = rng.random_range(1.0..1.7f64);
            let w = (f64::from(g.width()) * stretch).round() as u32;
            let broad =
                image::imageops::resize(&g, w, g.height(), image::imageops::FilterType::Triangle);
            (normalise_pair(&broad), NOT_TWO as u32)
        }
        2 => {
            let three: Vec<GrayImage> = (0..3).map(|_| glyph(rng).0).collect();
            (normalise_pair(&side_by_side(&three, rng)), NOT_TWO as u32)
        }
        _ => {
            let (a, la) = glyph(rng);
            let (b, lb) = glyph(rng);
            (
                normalise_pair(&side_by_side(&[a, b], rng)),
                u32::from(la) * 10 + u32::from(lb),
            )
        }
    }
}

/// Trains the pair net: `fresh` inputs drawn anew each epoch from the
/// MNIST training digits ([`drawn_pair`]) and `cut`, pieces cut from
/// sheets drawn with them ([`crate::harvest`]). The held-back digits
/// (the split's last [`HELD_BACK`]) drawn side by side, and
/// `held_cut`, pieces cut from sheets drawn with them, report accuracy;
/// `held_cut` fits the temperature. The test split is never used.
pub fn train_pairs(
    digits: &crate::synth::Digits,
    cut: &[Sample],
    held_cut: &[Sample],
    fresh: usize,
    schedule: &Schedule,
    seed: u64,
    log: &mut dyn FnMut(String),
) -> candle_core::Result<candle_nn::VarMap> {
    let n = digits.len();
    let held = HELD_BACK.min(n / 10);
    let train_n = n - held;
    let mut rng = crate::synth::rng(seed);
    let held_drawn: Vec<Sample> = (0..held)
        .map(|_| drawn_pair(digits, train_n..n, &mut rng))
        .collect();
    let draw = |_: usize, rng: &mut ChaCha8Rng| drawn_pair(digits, 0..train_n, rng);
    let lessons = Lessons {
        shape: PAIR,
        fresh,
        draw: &draw,
        fixed: cut,
        held: &[
            ("held-back digits drawn side by side", &held_drawn),
            ("held-back pieces cut from sheets", held_cut),
        ],
    };
    fit(&lessons, schedule, &mut rng, log)
}

#[cfg(test)]
mod tests {
    use super::*;

    use aufsicht::read::cnn::pair::PairReader;

    #[test]
    fn the_committed_pair_model_should_read_bundled_digits_side_by_side() {
        let reader = PairReader::committed().expect("committed pair model");
        let dir = crate::repository().join("samples/digits");
        let digits = crate::synth::Digits::from_dir(&dir).expect("bundled digits");
        let mut rng = crate::synth::rng(11);
        let drawn: Vec<Sample> = (0..200)
            .map(|_| drawn_pair(&digits, 0..digits.len(), &mut rng))
            .collect();
        let inputs: Vec<Vec<f32>> = drawn.iter().map(|s| s.0.clone()).collect();
        let probs = reader.classify(&inputs);
        assert_eq!(probs.len(), drawn.len());
        let right = drawn
            .iter()
            .zip(&probs)
            .filter(|((_, label), p)| {
                let best = (0..p.len()).max_by(|&a, &b| p[a].total_cmp(&p[b]));
                best == Some(*label as usize)
            })
            .count();
        assert!(right >= 140, "{right}/200");
    }

    #[test]
    fn digits_side_by_side_should_touch_or_overlap() {
        let mut rng = crate::synth::rng(5);
        let block = |w: u32| GrayImage::from_pixel(w, 30, Luma([0]));
        for _ in 0..20 {
            let both = side_by_side(&[block(20), block(40)], &mut rng);
            // No white column between them: each runs into the next.
            assert!(
                (0..both.width())
                    .all(|x| (0..both.height()).any(|y| both.get_pixel(x, y)[0] < 128))
            );
        }
    }
}
