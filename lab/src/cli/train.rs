//! `train-digits`, `train-pairs` and `train-struck`: the reader's nets
//! trained on the MNIST training split and on digits and pieces cut from
//! drawn sheets (a lab tool).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use aufsicht::RuleSet;
use aufsicht::page::form::FormTemplate;

use crate::hands::{Library, Source, Split};
use crate::synth;

/// The sources a training with --hands draws its writers from.
const ALL_SOURCES: [Source; 4] = [Source::Mnist, Source::Font, Source::Hershey, Source::Synth];

/// The arguments of `train-digits`.
#[derive(clap::Args)]
pub struct TrainDigitsArgs {
    /// Folder with train-images.idx3-ubyte and train-labels.idx1-ubyte.
    #[arg(long, default_value = "data/mnist")]
    pub mnist: PathBuf,
    #[arg(long, default_value = "models/digits.safetensors")]
    pub out: PathBuf,
    #[arg(long, default_value_t = 5)]
    pub epochs: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Sheets drawn from the training digits and cut by the pipeline,
    /// whose digits train beside MNIST's (0: MNIST only).
    #[arg(long, default_value_t = 600)]
    pub sheets: usize,
    /// Share of the MNIST digits bent afresh each epoch (a small
    /// rotation, shear and elastic distortion; 0: none).
    #[arg(long, default_value_t = 0.0)]
    pub bent: f64,
    /// Hands of many sources (data/hands, scripts/fetch-hands.sh): their
    /// training families' glyphs learned beside MNIST's, and every other
    /// sheet written in them. Their held-out families are never used.
    #[arg(long)]
    pub hands: Option<PathBuf>,
    /// With --hands: writers whose ten digits are drawn, once, beside MNIST's.
    #[arg(long, default_value_t = 6000)]
    pub hand_writers: usize,
    /// With --hands: how the fonts' and stroke fonts' glyphs are drawn
    /// (`both`: each writer one way or the other).
    #[arg(long, value_enum, default_value = "outline")]
    pub rendering: crate::hands::Rendering,
    /// Sheets captured by the office scanner in black-and-white mode too,
    /// one in five (beside the scanner's and the phone's).
    #[arg(long)]
    pub bilevel: bool,
    /// With --hands: their sheets written as real paper is (numbers over
    /// the lines, big and small, rings across the cells, slanted), not
    /// in moderate sizes.
    #[arg(long, requires = "hands")]
    pub real_paper: bool,
    #[command(flatten)]
    pub go_on: GoOn,
}

/// The arguments of `train-pairs`.
#[derive(clap::Args)]
pub struct TrainPairsArgs {
    /// Folder with train-images.idx3-ubyte and train-labels.idx1-ubyte.
    #[arg(long, default_value = "data/mnist")]
    pub mnist: PathBuf,
    #[arg(long, default_value = "models/pairs.safetensors")]
    pub out: PathBuf,
    /// The defaults make the committed model (49 min on 2 cores).
    #[arg(long, default_value_t = 6)]
    pub epochs: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Sheets drawn from the training digits whose pieces train beside
    /// digits drawn side by side.
    #[arg(long, default_value_t = 1200)]
    pub sheets: usize,
    /// Digits drawn side by side afresh in each epoch.
    #[arg(long, default_value_t = 100000)]
    pub fresh: usize,
    #[command(flatten)]
    pub go_on: GoOn,
}

/// The arguments of `train-struck`.
#[derive(clap::Args)]
pub struct TrainStruckArgs {
    /// Folder with train-images.idx3-ubyte and train-labels.idx1-ubyte.
    #[arg(long, default_value = "data/mnist")]
    pub mnist: PathBuf,
    #[arg(long, default_value = "models/struck.safetensors")]
    pub out: PathBuf,
    /// The defaults make the committed model (18 min on 2 cores).
    #[arg(long, default_value_t = 3)]
    pub epochs: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Sheets drawn from the training digits with four to eight values
    /// struck out and written anew each, cut by the pipeline.
    #[arg(long, default_value_t = 600)]
    pub sheets: usize,
    /// Hands of many sources (data/hands, scripts/fetch-hands.sh): every
    /// other sheet written by one of their training families' writers.
    #[arg(long)]
    pub hands: Option<PathBuf>,
    #[command(flatten)]
    pub go_on: GoOn,
}

pub fn struck(a: TrainStruckArgs) -> Result<()> {
    use crate::struck_training::{harvest_struck, train_struck};
    let schedule = a.go_on.schedule(a.epochs, &a.out)?;
    let digits = synth::Digits::from_dir(&a.mnist).map_err(anyhow::Error::msg)?;
    let forms = training_forms()?;
    let held = aufsicht::read::cnn::HELD_BACK;
    let seed = a.seed.wrapping_mul(1000) + 7;
    let report = |h: &crate::struck_training::StruckHarvest, what: &str| {
        let of = |class: u32| h.samples.iter().filter(|s| s.1 == class).count();
        let struck = of(aufsicht::read::cnn::struck::STRUCK_CLASS);
        let over = of(aufsicht::read::cnn::struck::OVER);
        eprintln!(
            "aufsicht: {} pieces ({struck} struck, {over} written over; {} of {} corrected cells labelled) from {} sheets drawn with {what}, {} not found",
            h.samples.len(),
            h.corrected.1,
            h.corrected.0,
            h.sheets,
            h.lost_sheets
        );
    };
    let library = training_library(
        a.hands.as_deref(),
        &digits,
        crate::hands::Rendering::Outline,
    )?;
    let library = library.as_ref();
    let training = harvest_struck(
        &forms,
        &digits.clone().without_last(held),
        library,
        a.sheets,
        seed,
    );
    report(&training, "the training digits");
    let held_back = harvest_struck(
        &forms,
        &digits.last(held),
        library,
        a.sheets.div_ceil(6),
        seed + 1,
    );
    report(&held_back, "the held-back digits");
    let model = train_struck(
        &training.samples,
        &held_back.samples,
        &schedule,
        a.seed,
        &mut |line| eprintln!("aufsicht: {line}"),
    )
    .map_err(|e| anyhow::anyhow!("training failed: {e}"))?;
    save_model(&model, &a.out)
}

/// The training families of the hands in `dir`, MNIST's training digits
/// (but those held back) among them.
fn training_library(
    dir: Option<&std::path::Path>,
    digits: &synth::Digits,
    rendering: crate::hands::Rendering,
) -> Result<Option<Library>> {
    let Some(dir) = dir else { return Ok(None) };
    let held = aufsicht::read::cnn::HELD_BACK;
    let mnist = digits.clone().without_last(held);
    let library = Library::load(dir, &ALL_SOURCES, Split::Training, Some(mnist));
    library
        .map(|l| Some(l.rendered(rendering)))
        .map_err(anyhow::Error::msg)
}

pub fn digits(a: TrainDigitsArgs) -> Result<()> {
    let TrainDigitsArgs {
        mnist,
        out,
        epochs,
        seed,
        sheets,
        bent,
        hands,
        hand_writers,
        rendering,
        bilevel,
        real_paper,
        go_on,
    } = a;
    if !(0.0..=1.0).contains(&bent) {
        bail!("--bent is a share between 0 and 1, not {bent}");
    }
    let schedule = go_on.schedule(epochs, &out)?;
    let digits = synth::Digits::from_dir(&mnist).map_err(anyhow::Error::msg)?;
    let held = aufsicht::read::cnn::HELD_BACK;
    let library = training_library(hands.as_deref(), &digits, rendering)?;
    let writers = library.as_ref().map(|library| crate::harvest::Writers {
        library,
        ranges: if real_paper {
            crate::harvest::REAL_PAPER
        } else {
            crate::harvest::MODERATE
        },
    });
    let captures = if bilevel {
        crate::harvest::WITH_BILEVEL
    } else {
        crate::harvest::CAPTURES
    };
    let [cells, held_cells] =
            harvest_training_and_held(&digits, writers, sheets, seed.wrapping_mul(1000) + 1, captures, |h, what| {
                eprintln!(
                    "aufsicht: {} digits and {} parts not one digit cut from {} sheets drawn with {what} ({} of {} fields not in one piece per digit, {} sheets not found)",
                    h.samples.len() - h.not_digits,
                    h.not_digits,
                    h.sheets,
                    h.missegmented,
                    h.fields,
                    h.lost_sheets
                )
            })?
            .map(|h| h.samples);
    let digits = match &library {
        Some(library) => {
            let glyphs = crate::hands::glyphs_of_writers(library, hand_writers, seed);
            eprintln!(
                "aufsicht: {} glyphs of {hand_writers} writers of {} training families",
                glyphs.len(),
                library.families().len()
            );
            digits.with_before_last(glyphs, held)
        }
        None => digits,
    };
    eprintln!(
        "aufsicht: training on {} MNIST training digits and {} cut from sheets",
        digits.len() - held.min(digits.len() / 10),
        cells.len()
    );
    let model = crate::training::train(
        &digits,
        &cells,
        &held_cells,
        &schedule,
        seed,
        bent,
        &mut |line| eprintln!("aufsicht: {line}"),
    )
    .map_err(|e| anyhow::anyhow!("training failed: {e}"))?;
    save_model(&model, &out)
}

pub fn pairs(a: TrainPairsArgs) -> Result<()> {
    let TrainPairsArgs {
        mnist,
        out,
        epochs,
        seed,
        sheets,
        fresh,
        go_on,
    } = a;
    let schedule = go_on.schedule(epochs, &out)?;
    let digits = synth::Digits::from_dir(&mnist).map_err(anyhow::Error::msg)?;
    let [cut, held_cut] =
            harvest_training_and_held(&digits, None, sheets, seed.wrapping_mul(1000) + 3, crate::harvest::CAPTURES, |h, what| {
                let none = h
                    .pairs
                    .iter()
                    .filter(|s| s.1 as usize == aufsicht::read::cnn::pair::NOT_TWO)
                    .count();
                eprintln!(
                    "aufsicht: {} pieces of two touching digits and {none} of one or three cut from {} sheets drawn with {what}",
                    h.pairs.len() - none,
                    h.sheets,
                )
            })?
            .map(|h| h.pairs);
    let model = crate::pair_training::train_pairs(
        &digits,
        &cut,
        &held_cut,
        fresh,
        &schedule,
        seed,
        &mut |line| eprintln!("aufsicht: {line}"),
    )
    .map_err(|e| anyhow::anyhow!("training failed: {e}"))?;
    save_model(&model, &out)
}

/// Sheets drawn with the MNIST training digits but the held-back last
/// ones, and a sixth as many drawn with the held-back ones (seed + 1),
/// cut as the pipeline cuts them; `report` says what each gave.
fn harvest_training_and_held(
    digits: &synth::Digits,
    hands: Option<crate::harvest::Writers<'_>>,
    sheets: usize,
    seed: u64,
    captures: &[crate::synth::Capture],
    report: impl Fn(&crate::harvest::Harvest, &str),
) -> Result<[crate::harvest::Harvest; 2]> {
    let forms = training_forms()?;
    let held = aufsicht::read::cnn::HELD_BACK;
    let training = crate::harvest::harvest(
        &forms,
        &digits.clone().without_last(held),
        hands,
        sheets,
        seed,
        captures,
    );
    report(&training, "the training digits");
    let held_back = crate::harvest::harvest(
        &forms,
        &digits.clone().last(held),
        hands,
        sheets.div_ceil(6),
        seed + 1,
        captures,
    );
    report(&held_back, "the held-back digits");
    Ok([training, held_back])
}

/// Where a training starts: afresh, or from a model it goes on training,
/// or from its own checkpoint.
#[derive(clap::Args, Debug)]
pub struct GoOn {
    /// Go on training this model (of the same net) instead of starting afresh.
    #[arg(long)]
    from: Option<PathBuf>,
    /// The first epoch's learning rate (each later one is 0.6 times the one before).
    #[arg(long, default_value_t = crate::training::LEARNING_RATE)]
    learning_rate: f64,
    /// A fresh net with three convolutions and a dense layer twice as
    /// broad (about 1.3 times the work); a model to go on from brings its own.
    #[arg(long, conflicts_with_all = ["from", "wide"])]
    deep: bool,
    /// A fresh net of four 3×3 convolutions (32, 32, 64, 64) and 256 dense
    /// units (about 2.6 times the small net's work).
    #[arg(long, conflicts_with = "from")]
    wide: bool,
    /// The checkpoint the training writes now and then and at every
    /// epoch's end (default: the model's path with `.checkpoint`).
    #[arg(long)]
    checkpoint: Option<PathBuf>,
    /// Minutes between checkpoints within an epoch.
    #[arg(long, default_value_t = 15)]
    checkpoint_minutes: u64,
    /// Go on from the checkpoint where it is there (the same arguments as
    /// the run that wrote it; the harvest is drawn again, the same).
    #[arg(long)]
    resume: bool,
}

impl GoOn {
    /// Checked before the long harvest: a model that cannot be read fails at once.
    fn schedule(self, epochs: usize, out: &Path) -> Result<crate::training::Schedule> {
        if let Some(from) = &self.from {
            std::fs::File::open(from)
                .with_context(|| format!("cannot read the model {}", from.display()))?;
        }
        if !(self.learning_rate > 0.0 && self.learning_rate.is_finite()) {
            bail!(
                "--learning-rate must be a positive number, not {}",
                self.learning_rate
            );
        }
        if self.checkpoint_minutes == 0 {
            bail!("--checkpoint-minutes must be at least 1");
        }
        let path = self
            .checkpoint
            .unwrap_or_else(|| out.with_extension("checkpoint"));
        use aufsicht::read::cnn::Layers;
        Ok(crate::training::Schedule {
            epochs,
            learning_rate: self.learning_rate,
            from: self.from,
            layers: match (self.deep, self.wide) {
                (true, _) => Layers::DEEP,
                (_, true) => Layers::WIDE,
                _ => Layers::SMALL,
            },
            checkpoint: Some(crate::checkpoint::Checkpointing {
                path,
                every: std::time::Duration::from_secs(60 * self.checkpoint_minutes),
                resume: self.resume,
            }),
        })
    }
}

fn save_model(model: &candle_nn::VarMap, out: &Path) -> Result<()> {
    model
        .save(out)
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", out.display()))?;
    eprintln!("aufsicht: model written to {}", out.display());
    Ok(())
}

/// The rule sets and forms training sheets are drawn with, in turn.
fn training_forms() -> Result<Vec<(RuleSet, FormTemplate)>> {
    [
        ("merkur", "punkteliste-a4-32"),
        ("doppelkopf", "doko-a4-24x5"),
        ("schwaig", "punkteliste-a4-32"),
    ]
    .iter()
    .map(|(r, f)| Ok((RuleSet::load(r)?, FormTemplate::load(f)?)))
    .collect()
}
