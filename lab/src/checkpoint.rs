//! A training that survives the end of its process: the net's weights, the
//! optimiser's moments and how far the epochs got, written to one file now
//! and then, and read back by `--resume`. candle's AdamW keeps its moments
//! private, so the optimiser here is AdamW written out (the same update,
//! the same defaults) with its state in the open.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use candle_core::{DType, Device, Tensor, Var};
use candle_nn::VarMap;

/// Where and how often a training writes its checkpoint, and whether it
/// starts from the one already there.
#[derive(Debug, Clone)]
pub struct Checkpointing {
    pub path: PathBuf,
    pub every: Duration,
    pub resume: bool,
}

/// AdamW (Loshchilov & Hutter) as candle's: the same defaults (β 0.9 and
/// 0.999, ε 1e-8, weight decay 0.01), the variables in name order.
pub struct AdamW {
    vars: Vec<(String, Var, Var, Var)>,
    step: usize,
    pub learning_rate: f64,
}

const BETA1: f64 = 0.9;
const BETA2: f64 = 0.999;
const EPS: f64 = 1e-8;
const WEIGHT_DECAY: f64 = 0.01;

impl AdamW {
    pub fn new(varmap: &VarMap, learning_rate: f64) -> candle_core::Result<AdamW> {
        let data = varmap.data().lock().expect("the net's variables");
        let mut names: Vec<&String> = data.keys().collect();
        names.sort();
        let vars = names
            .into_iter()
            .map(|name| {
                let var = data[name].clone();
                let zeros = || Var::zeros(var.shape(), var.dtype(), var.device());
                Ok((name.clone(), var.clone(), zeros()?, zeros()?))
            })
            .collect::<candle_core::Result<_>>()?;
        Ok(AdamW {
            vars,
            step: 0,
            learning_rate,
        })
    }

    /// One step down the gradient of `loss`.
    pub fn backward_step(&mut self, loss: &Tensor) -> candle_core::Result<()> {
        let grads = loss.backward()?;
        self.step += 1;
        let lr = self.learning_rate;
        let scale_m = 1.0 / (1.0 - BETA1.powi(self.step as i32));
        let scale_v = 1.0 / (1.0 - BETA2.powi(self.step as i32));
        for (_, theta, m, v) in &self.vars {
            let Some(g) = grads.get(theta) else { continue };
            let next_m = ((m.as_tensor() * BETA1)? + (g * (1.0 - BETA1))?)?;
            let next_v = ((v.as_tensor() * BETA2)? + (g.sqr()? * (1.0 - BETA2))?)?;
            let adjusted = ((&next_m * scale_m)? / ((&next_v * scale_v)?.sqrt()? + EPS)?)?;
            let next_theta = ((theta.as_tensor() * (1.0 - lr * WEIGHT_DECAY))? - (adjusted * lr)?)?;
            m.set(&next_m)?;
            v.set(&next_v)?;
            theta.set(&next_theta)?;
        }
        Ok(())
    }
}

/// How far a training got: the next batch to learn from, and what
/// identifies the training (a checkpoint of another is refused).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Progress {
    pub epoch: usize,
    pub batch: usize,
    pub loss_sum: f64,
    pub run: Run,
}

/// What a checkpoint must agree with to be resumed: the seed the order
/// and the drawing come from, the epochs, the first rate and how many
/// inputs an epoch holds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Run {
    pub seed: u64,
    pub epochs: usize,
    pub learning_rate: f64,
    pub inputs: usize,
}

/// Writes the weights, the moments and the progress to `path` (through a
/// file beside it, so a process killed while writing leaves the last
/// checkpoint whole).
pub fn save(path: &Path, opt: &AdamW, progress: &Progress) -> candle_core::Result<()> {
    let mut tensors: HashMap<String, Tensor> = HashMap::new();
    for (name, theta, m, v) in &opt.vars {
        tensors.insert(format!("weight/{name}"), theta.as_tensor().clone());
        tensors.insert(format!("m/{name}"), m.as_tensor().clone());
        tensors.insert(format!("v/{name}"), v.as_tensor().clone());
    }
    let run = &progress.run;
    let counts = [
        progress.epoch,
        progress.batch,
        opt.step,
        run.epochs,
        run.inputs,
    ]
    .map(|n| n as u32)
    .to_vec();
    let seed = vec![run.seed as u32, (run.seed >> 32) as u32];
    let cpu = &Device::Cpu;
    tensors.insert("progress/counts".into(), Tensor::new(counts, cpu)?);
    tensors.insert("progress/seed".into(), Tensor::new(seed, cpu)?);
    let rates = vec![progress.loss_sum, run.learning_rate];
    tensors.insert("progress/rates".into(), Tensor::new(rates, cpu)?);
    let part = path.with_extension("part");
    candle_core::safetensors::save(&tensors, &part)?;
    std::fs::rename(&part, path)?;
    Ok(())
}

/// Reads the checkpoint at `path` into the net's variables and the
/// optimiser; gives the progress it holds. A checkpoint of another
/// training (another seed, epochs, rate or inputs) is refused.
pub fn load(path: &Path, opt: &mut AdamW, run: Run) -> candle_core::Result<Progress> {
    let tensors = candle_core::safetensors::load(path, &Device::Cpu)?;
    let get = |name: &str| {
        tensors
            .get(name)
            .ok_or_else(|| candle_core::Error::Msg(format!("no {name} in {}", path.display())))
    };
    let counts = get("progress/counts")?.to_vec1::<u32>()?;
    let seed = get("progress/seed")?.to_vec1::<u32>()?;
    let rates = get("progress/rates")?.to_vec1::<f64>()?;
    let [epoch, batch, step, epochs, inputs] = counts[..] else {
        return Err(candle_core::Error::Msg(
            "a checkpoint's counts are five".into(),
        ));
    };
    let written = Run {
        seed: u64::from(seed[0]) | (u64::from(seed[1]) << 32),
        epochs: epochs as usize,
        learning_rate: rates[1],
        inputs: inputs as usize,
    };
    if written != run {
        return Err(candle_core::Error::Msg(format!(
            "{} belongs to another training ({written:?}, this one is {run:?}): start it with the same arguments, or without --resume",
            path.display()
        )));
    }
    for (name, theta, m, v) in &opt.vars {
        theta.set(&get(&format!("weight/{name}"))?.to_dtype(DType::F32)?)?;
        m.set(get(&format!("m/{name}"))?)?;
        v.set(get(&format!("v/{name}"))?)?;
    }
    opt.step = step as usize;
    Ok(Progress {
        epoch: epoch as usize,
        batch: batch as usize,
        loss_sum: rates[0],
        run,
    })
}

/// When the next checkpoint is due.
pub struct Clock {
    last: Instant,
    every: Duration,
}

impl Clock {
    pub fn new(every: Duration) -> Clock {
        Clock {
            last: Instant::now(),
            every,
        }
    }

    /// Whether a checkpoint is due; if so, the clock starts again.
    pub fn due(&mut self) -> bool {
        let due = self.last.elapsed() >= self.every;
        if due {
            self.last = Instant::now();
        }
        due
    }
}
