//! `evaluate`: results against the generator's truth, rates printed;
//! with `--scans`, scanned first and timed (a lab tool).

use std::path::PathBuf;

use anyhow::Result;

use aufsicht::Lang;

use crate::common::stdout_line;
use crate::scan::{ReaderArg, Setup};

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
    /// The participant list for --scans (as for scan).
    #[arg(long, requires = "scans")]
    pub participants: Option<PathBuf>,
}

pub fn run(a: EvaluateArgs, lang: Lang) -> Result<()> {
    let EvaluateArgs {
        truth,
        results,
        scans,
        rules,
        reader,
        participants,
    } = a;
    let run = match (scans, rules) {
        (Some(scans), Some(rules)) => {
            let start = std::time::Instant::now();
            let setup = Setup {
                rules: &rules,
                form: None,
                reader,
                participants: participants.as_deref(),
            };
            crate::scan::scan(
                &setup,
                &results,
                crate::scan::Inputs::Files(&[scans]),
                lang,
                None,
            )?;
            Some((start.elapsed().as_secs_f64(), peak_memory_mb()))
        }
        _ => None,
    };
    let mut report =
        aufsicht::lab::evaluate::evaluate(&truth, &results).map_err(anyhow::Error::msg)?;
    report.run = run;
    for line in report.lines() {
        stdout_line(&line);
    }
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
