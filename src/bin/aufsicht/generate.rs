//! `generate`: filled, scanned test sheets and their truth (a lab tool).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use clap::ValueEnum;
use rand::RngExt;

use aufsicht::page::form::FormTemplate;
use aufsicht::{Lang, RuleSet, lab::synth};

use crate::render::write_page;

/// The arguments of `generate`.
#[derive(clap::Args)]
pub struct GenerateArgs {
    #[arg(long)]
    pub rules: String,
    #[arg(long)]
    pub form: String,
    #[arg(long, default_value_t = 10)]
    pub count: usize,
    #[arg(long)]
    pub out: PathBuf,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Players at the table (Doppelkopf: 4 or 5).
    #[arg(long)]
    pub players: Option<usize>,
    #[arg(long, value_enum, default_value = "mixed")]
    pub capture: CaptureArg,
    #[arg(long, default_value_t = 200.0)]
    pub dpi: f64,
    #[arg(long, value_enum, default_value = "png")]
    pub format: Format,
    /// MNIST training digits (default: data/mnist, else the bundled subset).
    #[arg(long)]
    pub digits: Option<PathBuf>,
    /// Draw only the digits the model's training held back (measures the model fairly).
    #[arg(long)]
    pub held_back: bool,
    /// Share of sheets on which the writer makes one mistake (0..1).
    #[arg(long, default_value_t = 0.3)]
    pub writer_errors: f64,
    /// A whole night instead of --count sheets: this many players (a multiple
    /// of 4) at tables of four in every round of the rule set, seated anew each round.
    #[arg(long)]
    pub night: Option<usize>,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum CaptureArg {
    Clean,
    Scanner,
    Phone,
    Mixed,
}

#[derive(Clone, Copy, ValueEnum, PartialEq)]
pub enum Format {
    Png,
    Jpg,
    Tif,
    Pdf,
}

pub fn run(a: GenerateArgs, lang: Lang) -> Result<()> {
    generate(
        &a.rules,
        &a.form,
        a.count,
        &a.out,
        a.seed,
        a.players,
        a.capture,
        a.dpi,
        a.format,
        a.digits,
        a.held_back,
        a.writer_errors,
        a.night,
        lang,
    )
}

#[allow(clippy::too_many_arguments)]
fn generate(
    rules: &str,
    form: &str,
    count: usize,
    out: &Path,
    seed: u64,
    players: Option<usize>,
    capture: CaptureArg,
    dpi: f64,
    format: Format,
    digits: Option<PathBuf>,
    held_back: bool,
    writer_errors: f64,
    night: Option<usize>,
    lang: Lang,
) -> Result<()> {
    if !(0.0..=1.0).contains(&writer_errors) {
        bail!("--writer-errors is a share of the sheets: give a number from 0 to 1");
    }
    let rules = RuleSet::load(rules).context("cannot load the rule set (--rules)")?;
    let form = FormTemplate::load(form).context("cannot load the form (--form)")?;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let digits = match digits {
        Some(d) => synth::Digits::from_dir(&d),
        None => synth::Digits::from_dir(&root.join("data/mnist"))
            .or_else(|_| synth::Digits::from_dir(&root.join("samples/digits"))),
    }
    .map_err(anyhow::Error::msg)?;
    let digits = if held_back {
        digits.last(aufsicht::read::cnn::HELD_BACK)
    } else {
        digits
    };
    let (scans, truths) = (out.join("scans"), out.join("truth"));
    std::fs::create_dir_all(&scans)?;
    std::fs::create_dir_all(&truths)?;
    let seating = match night {
        Some(n) => {
            if n == 0 || n % 4 != 0 || n / 4 > 99 {
                bail!("--night {n}: give a multiple of 4 players (tables of four), at most 396");
            }
            night_seating(n, rules.rounds.max(1), seed)
        }
        None => Vec::new(),
    };
    let count = if night.is_some() {
        seating.len()
    } else {
        count
    };
    let drawing = Drawing {
        rules: &rules,
        form: &form,
        digits: &digits,
        seed,
        players,
        capture,
        dpi,
        format,
        writer_errors,
        lang,
        scans: &scans,
        truths: &truths,
    };
    for i in 0..count {
        drawing.sheet(i, seating.get(i))?;
    }
    eprintln!("aufsicht: {count} sheets in {}", scans.display());
    Ok(())
}

/// What every sheet of a `generate` run is drawn with.
struct Drawing<'a> {
    rules: &'a RuleSet,
    form: &'a FormTemplate,
    digits: &'a synth::Digits,
    seed: u64,
    players: Option<usize>,
    capture: CaptureArg,
    dpi: f64,
    format: Format,
    writer_errors: f64,
    lang: Lang,
    scans: &'a Path,
    truths: &'a Path,
}

impl Drawing<'_> {
    /// Sheet `i` (at a night's `seat`, where the night is drawn): its scan
    /// and its truth.
    fn sheet(&self, i: usize, seat: Option<&(u32, u32, Vec<String>)>) -> Result<()> {
        let mut rng = synth::rng(self.seed.wrapping_mul(1_000_003).wrapping_add(i as u64));
        let table = seat.map(|_| 4).or(self.players).unwrap_or_else(|| {
            let sizes: Vec<usize> = self
                .rules
                .tables
                .iter()
                .map(|t| t.players)
                .filter(|&p| p <= self.form.seats)
                .collect();
            sizes.get(i % sizes.len().max(1)).copied().unwrap_or(4)
        });
        let mut sheet = synth::random_sheet(self.rules, self.form, table, &mut rng);
        if let Some((round, table, ids)) = seat {
            sheet.round = Some(*round);
            sheet.table = Some(*table);
            for (slot, id) in sheet.players.iter_mut().zip(ids) {
                *slot = Some(id.clone());
            }
        }
        let mistake = if rng.random_bool(self.writer_errors) {
            synth::writer_error(&mut sheet, &mut rng)
        } else {
            serde_json::Value::Null
        };
        let (page, drawn) = synth::draw(&sheet, self.form, self.digits, self.dpi, &mut rng);
        let how = match self.capture {
            CaptureArg::Clean => synth::Capture::Clean,
            CaptureArg::Scanner => synth::Capture::Scanner,
            CaptureArg::Phone => synth::Capture::Phone,
            CaptureArg::Mixed => [
                synth::Capture::Scanner,
                synth::Capture::Scanner,
                synth::Capture::Phone,
            ][i % 3],
        };
        let (image, facts) = synth::capture(&page, how, &mut rng);
        let stem = match seat {
            Some((round, table, _)) => format!("{}-r{round}-t{table:02}", self.rules.id),
            None => format!("{}-{:04}", self.rules.id, i + 1),
        };
        let ext = match self.format {
            Format::Png => "png",
            Format::Jpg => "jpg",
            Format::Tif => "tif",
            Format::Pdf => "pdf",
        };
        let file = self.scans.join(format!("{stem}.{ext}"));
        write_page(&image, &file, self.dpi, Lang::En)?;
        let mut truth = aufsicht::verify(sheet, self.rules, self.lang)?;
        truth.source = Some(file.display().to_string());
        truth.extra.insert("capture".into(), facts);
        if !mistake.is_null() {
            truth.extra.insert("writer_error".into(), mistake);
        }
        truth
            .extra
            .insert("form_rows".into(), serde_json::json!(self.form.games));
        truth.extra.insert(
            "dashes".into(),
            serde_json::json!(
                drawn
                    .dashes
                    .iter()
                    .map(|(r, s, c)| serde_json::json!([r, s, c]))
                    .collect::<Vec<_>>()
            ),
        );
        std::fs::write(
            self.truths.join(format!("{stem}.json")),
            truth.to_json_pretty() + "\n",
        )?;

        Ok(())
    }
}

/// A night's seating: for each round and table (from 1) the participant
/// numbers of its four seats; every player plays every round, seated anew.
fn night_seating(players: usize, rounds: u32, seed: u64) -> Vec<(u32, u32, Vec<String>)> {
    let mut rng = synth::rng(seed ^ 0x5eed_2a11);
    let mut ids: Vec<u32> = Vec::new();
    while ids.len() < players {
        let id = rng.random_range(1..2000u32);
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    let mut out = Vec::new();
    for round in 1..=rounds {
        let mut order = ids.clone();
        for i in (1..order.len()).rev() {
            order.swap(i, rng.random_range(0..=i));
        }
        for (t, chunk) in order.chunks(4).enumerate() {
            out.push((
                round,
                t as u32 + 1,
                chunk.iter().map(u32::to_string).collect(),
            ));
        }
    }
    out
}
