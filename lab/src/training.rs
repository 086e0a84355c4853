//! Training the digit nets (a lab tool): MNIST training digits augmented as
//! cells look, digits cut from drawn sheets beside them, AdamW with a
//! decaying rate, a temperature fitted on held-back digits. The product
//! reads with the nets ([`aufsicht::read::cnn`]); it never trains them.

use candle_core::{DType, Device, Module, Tensor};
use candle_nn::{VarBuilder, VarMap};
use image::{GrayImage, Luma};

use aufsicht::read::cnn::{HELD_BACK, Layers, Shape, normalise};

use crate::harvest::Sample;
use crate::net::Net;

use crate::checkpoint::{self, AdamW, Checkpointing};
use crate::hands::raster::{Bend, bend_with};

/// The first epoch's learning rate (of a net trained afresh), and its
/// factor from one epoch to the next.
pub const LEARNING_RATE: f64 = 2e-3;
pub const LEARNING_RATE_DECAY: f64 = 0.6;

/// Trains the net on MNIST training digits, augmented as cells look after
/// `cells::analyse` (binary ink; continental 1 and 7; thin and broad pens;
/// blur; a stroke cut where a ruled line was removed; scale), together with
/// `cells`: digits cut from drawn sheets by the pipeline itself
/// ([`crate::harvest`]). The last 5000 training images are held back: they,
/// and `held_cells` drawn from them, report accuracy, and `held_cells` fit
/// the temperature that calibrates the probabilities. The test split is
/// never used.
pub fn train(
    digits: &crate::synth::Digits,
    cells: &[crate::harvest::Sample],
    held_cells: &[crate::harvest::Sample],
    schedule: &Schedule,
    seed: u64,
    bent: f64,
    log: &mut dyn FnMut(String),
) -> candle_core::Result<VarMap> {
    use rand::RngExt;
    let n = digits.len();
    let held = HELD_BACK.min(n / 10);
    let train_n = n - held;
    let mut rng = crate::synth::rng(seed);
    let sample = |i: usize, rng: &mut rand_chacha::ChaCha8Rng| -> Sample {
        let (img, label) = digits.get(i);
        (normalise(&augment(img, label, rng)), u32::from(label))
    };
    // The held-back digits, augmented once, so that epochs compare, and
    // never bent: they measure the digits as people wrote them.
    let held_mnist: Vec<Sample> = (train_n..n).map(|i| sample(i, &mut rng)).collect();
    let sample = |i: usize, rng: &mut rand_chacha::ChaCha8Rng| -> Sample {
        if bent > 0.0 && rng.random_bool(bent) {
            let (img, label) = digits.get(i);
            let img = bend(img, rng);
            return (normalise(&augment(&img, label, rng)), u32::from(label));
        }
        sample(i, rng)
    };
    let lessons = Lessons {
        shape: Shape::DIGIT,
        fresh: train_n,
        draw: &sample,
        fixed: cells,
        held: &[
            ("held-back MNIST digits", &held_mnist),
            ("held-back digits cut from sheets", held_cells),
        ],
    };
    fit(&lessons, schedule, &mut rng, log)
}

/// How long and from where a net learns.
#[derive(Debug, Clone)]
pub struct Schedule {
    pub epochs: usize,
    /// The first epoch's learning rate; each later one's is
    /// `LEARNING_RATE_DECAY` times the one before.
    pub learning_rate: f64,
    /// A model (.safetensors of the same shape) to go on training instead
    /// of starting afresh; it brings its own layers.
    pub from: Option<std::path::PathBuf>,
    /// A fresh net's layers.
    pub layers: Layers,
    /// Where the training writes its checkpoint and whether it resumes.
    pub checkpoint: Option<Checkpointing>,
}

/// What a net is trained on.
pub struct Lessons<'a> {
    pub shape: Shape,
    /// How many inputs `draw` makes afresh in each epoch (augmented anew).
    pub fresh: usize,
    pub draw: &'a dyn Fn(usize, &mut rand_chacha::ChaCha8Rng) -> Sample,
    /// Inputs made once (cut from drawn sheets).
    pub fixed: &'a [Sample],
    /// Held-back inputs that report accuracy after every epoch; the last
    /// set that has any fits the temperature.
    pub held: &'a [(&'a str, &'a [Sample])],
}

/// Trains a net of `lessons.shape` with AdamW, the learning rate decaying
/// each epoch; the last class is the net's "none of these" (not one
/// digit, not two), reported apart. Each epoch's order and each batch's
/// fresh inputs come from their own seed (drawn once from `rng`), so a
/// training resumed from its checkpoint goes on as it would have.
pub fn fit(
    lessons: &Lessons,
    schedule: &Schedule,
    rng: &mut rand_chacha::ChaCha8Rng,
    log: &mut dyn FnMut(String),
) -> candle_core::Result<VarMap> {
    use rand::RngExt;
    let layers = match &schedule.from {
        Some(from) => Layers::of_file(from).map_err(candle_core::Error::Msg)?,
        None => schedule.layers,
    };
    let shape = Shape {
        layers,
        ..lessons.shape
    };
    let varmap = VarMap::new();
    let vb = VarBuilder::from_varmap(&varmap, DType::F32, &Device::Cpu);
    let net = Net::with_shape(vb, shape)?;
    let mut varmap = varmap;
    if let Some(from) = &schedule.from {
        // Only the net's weights: its temperature is fitted anew below.
        varmap.load(from)?;
    }
    let mut opt = AdamW::new(&varmap, schedule.learning_rate)?;
    let run = checkpoint::Run {
        seed: rng.random(),
        epochs: schedule.epochs,
        learning_rate: schedule.learning_rate,
        inputs: lessons.fresh + lessons.fixed.len(),
    };
    let mut progress = start(schedule, &mut opt, run, log)?;
    let held = Held::new(&net, shape, lessons);
    let mut clock = schedule
        .checkpoint
        .as_ref()
        .map(|c| checkpoint::Clock::new(c.every));
    while progress.epoch < schedule.epochs {
        let epoch = progress.epoch;
        opt.learning_rate = schedule.learning_rate * LEARNING_RATE_DECAY.powi(epoch as i32);
        let mut every_now_and_then = |p: &checkpoint::Progress, opt: &AdamW| match (
            &schedule.checkpoint,
            clock.as_mut().is_some_and(checkpoint::Clock::due),
        ) {
            (Some(c), true) => save_checkpoint(c, opt, p, log),
            _ => Ok(()),
        };
        let loss = one_epoch(
            &net,
            &mut opt,
            lessons,
            shape,
            &mut progress,
            &mut every_now_and_then,
        )?;
        let mut line = format!("epoch {}: loss {loss:.4}", epoch + 1);
        line += &held.report()?;
        log(line);
        progress.epoch += 1;
        progress.batch = 0;
        progress.loss_sum = 0.0;
        if let Some(c) = &schedule.checkpoint {
            save_checkpoint(c, &opt, &progress, log)?;
        }
    }
    let t = held.temperature()?;
    log(format!("temperature {t:.2} (calibrates the probabilities)"));
    varmap.get(
        1,
        "temperature",
        candle_nn::Init::Const(f64::from(t)),
        DType::F32,
        &Device::Cpu,
    )?;
    Ok(varmap)
}

/// Where a training starts: at its checkpoint where it resumes from one
/// that is there, else at the first batch.
fn start(
    schedule: &Schedule,
    opt: &mut AdamW,
    run: checkpoint::Run,
    log: &mut dyn FnMut(String),
) -> candle_core::Result<checkpoint::Progress> {
    let first = checkpoint::Progress {
        epoch: 0,
        batch: 0,
        loss_sum: 0.0,
        run,
    };
    match &schedule.checkpoint {
        Some(c) if c.resume && c.path.exists() => {
            let p = checkpoint::load(&c.path, opt, run)?;
            log(format!(
                "resumed from {}: epoch {}, batch {}",
                c.path.display(),
                p.epoch + 1,
                p.batch
            ));
            Ok(p)
        }
        Some(c) if c.resume => {
            log(format!(
                "no checkpoint at {} yet: starting afresh",
                c.path.display()
            ));
            Ok(first)
        }
        _ => Ok(first),
    }
}

fn save_checkpoint(
    c: &Checkpointing,
    opt: &AdamW,
    p: &checkpoint::Progress,
    log: &mut dyn FnMut(String),
) -> candle_core::Result<()> {
    checkpoint::save(&c.path, opt, p)?;
    log(format!(
        "checkpoint written to {} (epoch {}, batch {})",
        c.path.display(),
        p.epoch + 1,
        p.batch
    ));
    Ok(())
}

/// The held-back inputs and what the net makes of them.
struct Held<'a> {
    net: &'a Net,
    shape: Shape,
    sets: &'a [(&'a str, &'a [Sample])],
}

impl Held<'_> {
    fn new<'a>(net: &'a Net, shape: Shape, lessons: &'a Lessons) -> Held<'a> {
        Held {
            net,
            shape,
            sets: lessons.held,
        }
    }

    fn logits(&self, xs: &[Sample]) -> candle_core::Result<Vec<Vec<f32>>> {
        let mut out = Vec::with_capacity(xs.len());
        for chunk in xs.chunks(500) {
            let flat: Vec<f32> = chunk.iter().flat_map(|s| s.0.iter().copied()).collect();
            let dims = (chunk.len(), 1, self.shape.height, self.shape.width);
            let x = Tensor::from_vec(flat, dims, &Device::Cpu)?;
            out.extend(self.net.forward(&x)?.to_vec2::<f32>()?);
        }
        Ok(out)
    }

    /// Each set's share read right, classes and "none of these" apart.
    fn report(&self) -> candle_core::Result<String> {
        let none_of_these = self.shape.classes - 1;
        let mut line = String::new();
        for (name, set) in self.sets {
            let logits = self.logits(set)?;
            let (classes, n) = share_right(&logits, set, false, none_of_these);
            let (none, n_none) = share_right(&logits, set, true, none_of_these);
            line += &format!(
                ", {name} {classes:.2}% right ({n}), none of the classes {none:.2}% ({n_none})"
            );
        }
        Ok(line)
    }

    /// The temperature, calibrated where it is used: on the last set that
    /// has any inputs (those cut from sheets, if any).
    fn temperature(&self) -> candle_core::Result<f32> {
        let Some((_, set)) = self.sets.iter().rev().find(|(_, set)| !set.is_empty()) else {
            return Ok(1.0);
        };
        let labels: Vec<u32> = set.iter().map(|s| s.1).collect();
        Ok(fit_temperature(&self.logits(set)?, &labels))
    }
}

/// The rest of one pass over the lessons in the epoch's random order, in
/// batches of 64, from `progress.batch` on; `now_and_then` may write a
/// checkpoint after a batch. Gives the epoch's mean loss.
fn one_epoch(
    net: &Net,
    opt: &mut AdamW,
    lessons: &Lessons,
    shape: Shape,
    progress: &mut checkpoint::Progress,
    now_and_then: &mut dyn FnMut(&checkpoint::Progress, &AdamW) -> candle_core::Result<()>,
) -> candle_core::Result<f64> {
    use rand::RngExt;
    let dims = |n: usize| (n, 1, shape.height, shape.width);
    let seed_of = |batch: u64| {
        let epoch = progress.epoch as u64;
        progress.run.seed ^ (epoch.wrapping_mul(0x9E37_79B9_7F4A_7C15)).wrapping_add(batch)
    };
    let mut order_rng = crate::synth::rng(seed_of(u64::MAX));
    let mut order: Vec<usize> = (0..lessons.fresh + lessons.fixed.len()).collect();
    for i in (1..order.len()).rev() {
        order.swap(i, order_rng.random_range(0..=i));
    }
    let batches = order.chunks(64).count();
    for (b, batch) in order.chunks(64).enumerate().skip(progress.batch) {
        let mut rng = crate::synth::rng(seed_of(b as u64));
        let (xs, ys): (Vec<Vec<f32>>, Vec<u32>) = batch
            .iter()
            .map(|&i| match i.checked_sub(lessons.fresh) {
                Some(c) => lessons.fixed[c].clone(),
                None => (lessons.draw)(i, &mut rng),
            })
            .unzip();
        let x = Tensor::from_vec(xs.concat(), dims(batch.len()), &Device::Cpu)?;
        let y = Tensor::from_vec(ys, batch.len(), &Device::Cpu)?;
        let loss = candle_nn::loss::cross_entropy(&net.forward_train(&x, &mut rng)?, &y)?;
        opt.backward_step(&loss)?;
        progress.loss_sum += f64::from(loss.to_scalar::<f32>()?);
        progress.batch = b + 1;
        now_and_then(progress, opt)?;
    }
    Ok(progress.loss_sum / batches as f64)
}

/// Share (%) read right among the inputs of one kind (a class, or none of
/// the classes, `none_of_these`), and how many there were.
fn share_right(
    logits: &[Vec<f32>],
    set: &[Sample],
    none: bool,
    none_of_these: usize,
) -> (f64, usize) {
    let (mut right, mut all) = (0, 0);
    for (l, (_, y)) in logits.iter().zip(set) {
        if (*y as usize == none_of_these) == none {
            all += 1;
            right += usize::from(argmax(l) == *y as usize);
        }
    }
    (100.0 * right as f64 / all.max(1) as f64, all)
}

fn argmax(v: &[f32]) -> usize {
    v.iter()
        .enumerate()
        .max_by(|a, b| a.1.total_cmp(b.1))
        .map_or(0, |b| b.0)
}

/// The temperature with the least negative log-likelihood on held-back digits.
pub fn fit_temperature(logits: &[Vec<f32>], labels: &[u32]) -> f32 {
    let nll = |t: f32| -> f64 {
        logits
            .iter()
            .zip(labels)
            .map(|(l, &y)| {
                let m = l.iter().copied().fold(f32::MIN, f32::max);
                let z: f64 = l.iter().map(|v| f64::from((v - m) / t).exp()).sum();
                z.ln() - f64::from((l[y as usize] - m) / t)
            })
            .sum()
    };
    (10..=400)
        .map(|i| i as f32 / 100.0)
        .min_by(|a, b| nll(*a).total_cmp(&nll(*b)))
        .unwrap_or(1.0)
}

/// An MNIST digit as another hand might have written it: a small rotation
/// and shear, and a smooth random displacement of every pixel (Simard et
/// al., 2003, elastic distortion: displacements drawn at random, smoothed
/// with a Gaussian of 4 px and scaled, [`bend_with`]). The sheets' digits
/// are other writers' (the MNIST test split is other people's): a net that
/// has seen each training digit only as written learns those hands, not
/// the digit.
pub fn bend(img: &[u8; 784], rng: &mut rand_chacha::ChaCha8Rng) -> [u8; 784] {
    const ANOTHER_HAND: Bend = Bend {
        alpha: (6.0, 22.0),
        degrees: 10.0,
        shear: 0.25,
    };
    bend_with(img, ANOTHER_HAND, rng)
}

/// An MNIST digit as the cell stage delivers ink.
pub fn augment(img: &[u8; 784], label: u8, rng: &mut rand_chacha::ChaCha8Rng) -> GrayImage {
    use imageproc::drawing::draw_line_segment_mut;
    use rand::RngExt;
    let mut src = GrayImage::from_fn(28, 28, |x, y| Luma([img[(y * 28 + x) as usize]]));
    let on: Vec<(u32, u32)> = src
        .enumerate_pixels()
        .filter(|p| p.2[0] > 128)
        .map(|p| (p.0, p.1))
        .collect();
    let pen = |img: &mut GrayImage, a: (f32, f32), b: (f32, f32)| {
        for (dx, dy) in [(0.0, 0.0), (0.7, 0.0), (0.0, 0.7)] {
            draw_line_segment_mut(img, (a.0 + dx, a.1 + dy), (b.0 + dx, b.1 + dy), Luma([255]));
        }
    };
    // Continental hands: a 1 with a long up-stroke, a 7 with a crossbar.
    if label == 1
        && rng.random_bool(0.35)
        && let Some(&(x, y)) = on.iter().min_by_key(|p| p.1)
    {
        let (x, y) = (x as f32, y as f32);
        let len = rng.random_range(4.0..9.0f32);
        pen(&mut src, (x, y), (x - len * 0.8, y + len * 0.7));
    }
    if label == 7 && rng.random_bool(0.35) && !on.is_empty() {
        let cy = on.iter().map(|p| p.1 as f32).sum::<f32>() / on.len() as f32
            + rng.random_range(0.0..3.0f32);
        let row: Vec<u32> = on
            .iter()
            .filter(|p| (p.1 as f32 - cy).abs() < 1.0)
            .map(|p| p.0)
            .collect();
        if let (Some(&x0), Some(&x1)) = (row.iter().min(), row.iter().max()) {
            let half = rng.random_range(3.0..6.0f32);
            pen(&mut src, (x0 as f32 - half, cy), (x1 as f32 + half, cy));
        }
    }
    let side = rng.random_range(36..72u32);
    let mut big = image::imageops::resize(&src, side, side, image::imageops::FilterType::Triangle);
    let square = imageproc::morphology::Mask::square(3);
    match rng.random_range(0..6) {
        0 if side >= 48 => big = imageproc::morphology::grayscale_dilate(&big, &square),
        1 if side > 50 => big = imageproc::morphology::grayscale_erode(&big, &square),
        _ => {}
    }
    if rng.random_bool(0.3) {
        big = image::imageops::blur(&big, rng.random_range(0.6..1.6f32));
    }
    let cut = rng.random_range(80..140u8);
    let mut ink = GrayImage::from_fn(side, side, |x, y| {
        Luma([if big.get_pixel(x, y)[0] > cut { 0 } else { 255 }])
    });
    let dark = ink.pixels().filter(|p| p[0] == 0).count() as u32;
    if dark * 50 < side * side || dark * 2 > side * side {
        // A pen change that lost the digit: the plain digit instead.
        let plain =
            image::imageops::resize(&src, side, side, image::imageops::FilterType::Triangle);
        ink = GrayImage::from_fn(side, side, |x, y| {
            Luma([if plain.get_pixel(x, y)[0] > 100 {
                0
            } else {
                255
            }])
        });
    }
    // A ruled line removed through the digit leaves a gap in its strokes.
    if rng.random_bool(0.2) {
        let y0 = rng.random_range(side / 4..side * 3 / 4);
        for y in y0..(y0 + rng.random_range(1..4)).min(side) {
            for x in 0..side {
                ink.put_pixel(x, y, Luma([255]));
            }
        }
    }
    ink
}

#[cfg(test)]
mod tests {
    use super::*;

    use aufsicht::read::DigitReader;
    use aufsicht::read::cnn::{CnnReader, MODEL};
    use candle_core::Device;

    use crate::net::tests::largest_difference;

    #[test]
    fn a_bent_digit_should_move_its_ink_but_stay_the_digit() {
        let dir = crate::repository().join("samples/digits");
        let digits = crate::synth::Digits::from_dir(&dir).expect("bundled digits");
        let mut reader = CnnReader::new().expect("model");
        let mut rng = crate::synth::rng(5);
        let (mut right, mut moved) = (0, 0);
        for i in 0..200 {
            let (img, label) = digits.get(i * 5);
            let bent = bend(img, &mut rng);
            moved += usize::from(img.iter().zip(&bent).filter(|(a, b)| a != b).count() > 50);
            let ink = GrayImage::from_fn(28, 28, |x, y| {
                Luma([if bent[(y * 28 + x) as usize] > 100 {
                    0
                } else {
                    255
                }])
            });
            let big = image::imageops::resize(&ink, 56, 56, image::imageops::FilterType::Nearest);
            right += usize::from(reader.read(&big).text == label.to_string());
        }
        // Another hand's digit: moved, and a net that never saw it bent
        // still reads most (the unbent: 180/200 at least).
        assert!(moved >= 190, "{moved}/200 moved");
        assert!(right >= 160, "{right}/200 read right");
    }

    /// The first `n` bundled digits as the net takes them.
    fn bundled_samples(n: usize) -> Vec<Sample> {
        let digits = crate::synth::Digits::from_dir(&crate::repository().join("samples/digits"))
            .expect("bundled digits");
        (0..n)
            .map(|i| {
                let (img, label) = digits.get(i);
                let ink = GrayImage::from_fn(28, 28, |x, y| {
                    Luma([if img[(y * 28 + x) as usize] > 100 {
                        0
                    } else {
                        255
                    }])
                });
                (normalise(&ink), u32::from(label))
            })
            .collect()
    }

    /// Training from a model goes on from its weights: one step at a tiny
    /// rate leaves them almost as they were (a fresh net's are random).
    #[test]
    fn training_from_a_model_should_start_at_its_weights() {
        let dir = tempfile::tempdir().expect("temp dir");
        let from = dir.path().join("model.safetensors");
        std::fs::write(&from, MODEL).expect("model written");
        let fixed = bundled_samples(64);
        let lessons = Lessons {
            shape: Shape::DIGIT,
            fresh: 0,
            draw: &|_, _| unreachable!("no fresh inputs"),
            fixed: &fixed,
            held: &[],
        };
        let weights = |from: Option<std::path::PathBuf>| {
            let schedule = Schedule {
                epochs: 1,
                learning_rate: 1e-7,
                from,
                layers: Layers::SMALL,
                checkpoint: None,
            };
            let varmap =
                fit(&lessons, &schedule, &mut crate::synth::rng(1), &mut |_| {}).expect("trained");
            varmap.data().lock().expect("vars")["c1.weight"]
                .as_tensor()
                .clone()
        };
        let committed = candle_core::safetensors::load_buffer(MODEL, &Device::Cpu).expect("model")
            ["c1.weight"]
            .clone();
        assert!(largest_difference(weights(Some(from)), committed.clone()) < 1e-3);
        assert!(largest_difference(weights(None), committed) > 1e-2);
    }

    /// A training killed after a checkpoint and resumed from it ends with
    /// the weights of the same training run through.
    #[test]
    fn a_resumed_training_should_end_as_one_run_through() {
        let dir = tempfile::tempdir().expect("temp dir");
        let fixed = bundled_samples(150);
        let lessons = Lessons {
            shape: Shape::DIGIT,
            fresh: 0,
            draw: &|_, _| unreachable!("no fresh inputs"),
            fixed: &fixed,
            held: &[("digits", &fixed[..20])],
        };
        let path = dir.path().join("run.checkpoint");
        let kept = dir.path().join("kept.checkpoint");
        let schedule = |resume: bool| Schedule {
            epochs: 2,
            learning_rate: 1e-3,
            from: None,
            layers: Layers::SMALL,
            checkpoint: Some(Checkpointing {
                path: path.clone(),
                every: std::time::Duration::ZERO,
                resume,
            }),
        };
        let weights = |varmap: VarMap| -> Vec<f32> {
            let vars = varmap.data().lock().expect("vars");
            let mut names: Vec<&String> = vars.keys().collect();
            names.sort();
            names
                .iter()
                .flat_map(|n| {
                    vars[*n]
                        .as_tensor()
                        .flatten_all()
                        .and_then(|t| t.to_vec1::<f32>())
                        .expect("weights")
                })
                .collect()
        };
        // The whole run; the checkpoint in the first epoch's middle is kept.
        let mut lines = Vec::new();
        let through = fit(
            &lessons,
            &schedule(false),
            &mut crate::synth::rng(4),
            &mut |l| {
                if l.contains("(epoch 1, batch 2)") {
                    std::fs::copy(&path, &kept).expect("checkpoint kept");
                }
                lines.push(l);
            },
        )
        .expect("trained");
        assert!(kept.exists(), "no checkpoint in the first epoch: {lines:?}");
        // As if killed there: the kept checkpoint is the last one.
        std::fs::rename(&kept, &path).expect("checkpoint back");
        let mut resumed_lines = Vec::new();
        let resumed = fit(
            &lessons,
            &schedule(true),
            &mut crate::synth::rng(4),
            &mut |l| resumed_lines.push(l),
        )
        .expect("resumed");
        assert!(
            resumed_lines[0].contains("resumed from") && resumed_lines[0].contains("batch 2"),
            "{resumed_lines:?}"
        );
        let (a, b) = (weights(through), weights(resumed));
        assert_eq!(a.len(), b.len());
        let largest = a
            .iter()
            .zip(&b)
            .map(|(x, y)| (x - y).abs())
            .fold(0.0, f32::max);
        assert!(largest < 1e-5, "weights differ by {largest}");
        // Another training's checkpoint is refused, not taken.
        let other = fit(
            &lessons,
            &schedule(true),
            &mut crate::synth::rng(5),
            &mut |_| {},
        );
        assert!(other.is_err_and(|e| e.to_string().contains("another training")));
    }
}
