//! `club-forms`: club forms drawn from seeds, as template files (the truth
//! of what `form learn` should find) with their blanks beside them.

use std::path::PathBuf;

use anyhow::{Context, Result};

use crate::club_form::Layout;

/// The arguments of `club-forms`.
#[derive(clap::Args)]
pub struct ClubFormsArgs {
    /// The first layout's seed (from 1000 on: held-out layouts).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[arg(long, default_value_t = 10)]
    pub count: u64,
    /// Writes `club-<seed>.json` and its blank `club-<seed>.png` here.
    #[arg(long)]
    pub out: PathBuf,
    /// Dots per inch of the blanks.
    #[arg(long, default_value_t = 300.0)]
    pub dpi: f64,
    /// How the blanks are digitised (mixed: scanner, scanner, phone).
    #[arg(long, value_enum, default_value = "clean")]
    pub capture: super::generate::CaptureArg,
}

pub fn run(a: ClubFormsArgs) -> Result<()> {
    std::fs::create_dir_all(&a.out)
        .with_context(|| format!("cannot create {}", a.out.display()))?;
    for seed in a.seed..a.seed + a.count {
        let layout = Layout::drawn(seed);
        let json = serde_json::to_string_pretty(&layout.json())?;
        let path = a.out.join(format!("{}.json", layout.id));
        std::fs::write(&path, json + "\n")
            .with_context(|| format!("cannot write {}", path.display()))?;
        let drawn = aufsicht::page::render::render_form(&layout.template(), a.dpi);
        let how = a.capture.nth(seed as usize);
        let (blank, _) = crate::synth::capture(&drawn, how, &mut crate::synth::rng(seed));
        let png = a.out.join(format!("{}.png", layout.id));
        blank
            .save(&png)
            .with_context(|| format!("cannot write {}", png.display()))?;
        super::stdout_line(&format!(
            "{} {}: {} seats, {} games, rows {:.1} mm{}",
            layout.id,
            layout.rules(),
            layout.seats,
            layout.games,
            layout.row_h,
            if layout.home_row { ", Wohnort" } else { "" }
        ));
    }
    Ok(())
}
