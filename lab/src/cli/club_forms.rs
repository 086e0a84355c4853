//! `club-forms`: club forms drawn from seeds, as template files (the truth
//! of what `form learn` should find) with their blanks beside them.

use std::path::PathBuf;

use anyhow::{Context, Result};

use crate::club_form::Layout;
use crate::print_colour::PrintColour;

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
    /// The colour the forms are printed in; with `mixed`, each layout's
    /// seed picks black or one of the colours. A colour is scanned in
    /// colour (a black-and-white capture sees its grey).
    #[arg(long, value_enum, default_value = "black")]
    pub print: PrintArg,
}

/// `--print`: one colour for every layout, or each its own.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum PrintArg {
    Black,
    Blue,
    Red,
    Green,
    LightBlue,
    Mixed,
}

impl PrintArg {
    /// The colour of the layout drawn from `seed`.
    pub fn of(self, seed: u64) -> PrintColour {
        match self {
            PrintArg::Black => PrintColour::Black,
            PrintArg::Blue => PrintColour::Blue,
            PrintArg::Red => PrintColour::Red,
            PrintArg::Green => PrintColour::Green,
            PrintArg::LightBlue => PrintColour::LightBlue,
            PrintArg::Mixed => {
                let all = PrintColour::COLOURS;
                // Half black, the rest the colours in turn.
                match seed % 2 {
                    0 => PrintColour::Black,
                    _ => all[(seed / 2) as usize % all.len()],
                }
            }
        }
    }
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
        let colour = a.print.of(seed);
        let mut rng = crate::synth::rng(seed);
        let png = a.out.join(format!("{}.png", layout.id));
        let saved = if colour == PrintColour::Black || how == crate::synth::Capture::Bilevel {
            crate::synth::capture(&drawn, how, &mut rng).0.save(&png)
        } else {
            let printed = colour.tint(&drawn);
            crate::synth::capture_colour(&printed, how, &mut rng)
                .0
                .save(&png)
        };
        saved.with_context(|| format!("cannot write {}", png.display()))?;
        super::stdout_line(&format!(
            "{} {}: {} seats, {} games, rows {:.1} mm{}{}",
            layout.id,
            layout.rules(),
            layout.seats,
            layout.games,
            layout.row_h,
            if layout.home_row { ", Wohnort" } else { "" },
            match colour {
                PrintColour::Black => String::new(),
                c => format!(", printed {}", c.name()),
            }
        ));
    }
    Ok(())
}
