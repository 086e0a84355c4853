//! `evaluate`: results against the generator's truth, rates printed;
//! with `--scans`, scanned first and timed.

use std::path::{Path, PathBuf};

use anyhow::Result;
use clap::ValueEnum;

use aufsicht::catalogue::Tell;
use aufsicht::night::batch::ReaderKind;
use aufsicht::page::form::FormTemplate;
use aufsicht::{Lang, RuleSet};

use super::stdout_line;

/// The arguments of `evaluate`.
#[derive(clap::Args)]
pub struct EvaluateArgs {
    #[arg(long)]
    pub truth: PathBuf,
    #[arg(long)]
    pub results: PathBuf,
    /// Scans to read first (a generated set's scans/ folder).
    #[arg(long, requires = "rules")]
    pub scans: Option<PathBuf>,
    /// Rule set for --scans.
    #[arg(long)]
    pub rules: Option<String>,
    #[arg(long, value_enum, default_value = "cnn")]
    pub reader: ReaderArg,
    /// The participant list for --scans (as for `aufsicht scan`).
    #[arg(long, requires = "scans")]
    pub participants: Option<PathBuf>,
}

/// Which reader reads the handwritten digits.
#[derive(Clone, Copy, ValueEnum, PartialEq)]
pub enum ReaderArg {
    /// The trained digit model (default).
    Cnn,
    /// Tesseract's legacy engine with a digit whitelist.
    Tesseract,
}

pub fn run(a: EvaluateArgs, lang: Lang) -> Result<()> {
    let run = match (&a.scans, &a.rules) {
        (Some(scans), Some(rules)) => {
            let start = std::time::Instant::now();
            scan(&a, scans, rules, lang)?;
            Some((start.elapsed().as_secs_f64(), peak_memory_mb()))
        }
        _ => None,
    };
    let mut report = crate::evaluate::evaluate(&a.truth, &a.results).map_err(anyhow::Error::msg)?;
    report.run = run;
    for line in report.lines() {
        stdout_line(&line);
    }
    Ok(())
}

/// Reads every scan below `scans` into `--results` as `aufsicht scan
/// --no-archive` does (all cores), without its progress.
fn scan(a: &EvaluateArgs, scans: &Path, rules: &str, lang: Lang) -> Result<()> {
    use aufsicht::night::batch::run::{self, Inputs, Progress, ScanRun};
    let told = |e: &dyn Tell| anyhow::anyhow!(e.tell(lang));
    let rules = RuleSet::load(rules).map_err(|e| told(&e))?;
    let participants = a
        .participants
        .as_deref()
        .map(aufsicht::night::tournament::participants::Participants::load)
        .transpose()
        .map_err(|e| told(&e))?;
    let forms = FormTemplate::builtins();
    let night = ScanRun {
        forms: &forms,
        with_kept_forms: false,
        rules: &rules,
        reader: match a.reader {
            ReaderArg::Cnn => ReaderKind::Cnn,
            ReaderArg::Tesseract => ReaderKind::Tesseract,
        },
        participants: participants.as_ref(),
        out: &a.results,
        archive: None,
        lang,
    };
    let failed = |p: Progress| {
        if let Progress::Failed(file, why) = p {
            eprintln!("aufsicht-lab: {}: {why}", file.display());
        }
    };
    let scans = [scans.to_path_buf()];
    run::scan(&night, Inputs::Files(&scans), &failed).map_err(|e| told(&e))?;
    Ok(())
}

/// The process's peak resident memory (Linux), 0 where unknown.
fn peak_memory_mb() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<f64>().ok())
        })
        .map_or(0.0, |kb| kb / 1024.0)
}
