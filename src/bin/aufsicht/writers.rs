//! `writers`: the Schreiber's ledger over folders of sheets (one a night)
//! or an archive's nights: per Schreiber their errors, whose points they
//! moved, and the chance that their own way was luck. JSON or CSV.

use std::path::PathBuf;

use anyhow::{Context, Result};

use aufsicht::catalogue::say;
use aufsicht::night::ledger::{LedgerSheet, Writer, ledger};
use aufsicht::{Lang, SheetResult};

use crate::common::{Told, load_rules, open_archive, sheet_results};

#[derive(Clone, Copy, clap::ValueEnum)]
pub enum Format {
    Json,
    Csv,
}

/// The arguments of `writers`.
#[derive(clap::Args)]
pub struct WritersArgs {
    /// Rule set id or the path of a rule file.
    #[arg(long)]
    pub rules: String,
    #[arg(long, value_enum, default_value = "json")]
    pub format: Format,
    /// The file to write (default: standard output).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// The Schreiber's seat where the club names another than the first.
    #[arg(long, default_value_t = 1)]
    pub writer_seat: usize,
    /// The archive's nights instead of folders: the sheets as they stand
    /// there, corrections and verdicts included.
    #[arg(long, conflicts_with = "dirs")]
    pub archive: Option<PathBuf>,
    /// One night of --archive (by name or date); without it every night.
    #[arg(long, requires = "archive")]
    pub tournament: Option<String>,
    /// Folders of typed sheets or results (*.json), one a night.
    #[arg(required_unless_present = "archive")]
    pub dirs: Vec<PathBuf>,
}

/// A night's sheets: the night's name and each sheet's name and result.
type Nights = Vec<(String, Vec<(String, SheetResult)>)>;

pub fn run(a: WritersArgs, lang: Lang) -> Result<()> {
    load_rules(&a.rules, lang)?;
    let nights = nights(&a, lang)?;
    let sheets: Vec<LedgerSheet> = nights
        .iter()
        .flat_map(|(night, sheets)| {
            sheets.iter().map(move |(name, result)| LedgerSheet {
                night,
                sheet: name.clone(),
                result,
                writer_seat: a.writer_seat,
            })
        })
        .collect();
    let writers = ledger(&sheets);
    for w in writers.iter().filter(|w| w.flagged) {
        eprintln!("aufsicht: {}", flagged_line(w, lang));
    }
    let text = match a.format {
        Format::Json => {
            serde_json::to_string_pretty(&serde_json::json!({ "writers": writers }))? + "\n"
        }
        Format::Csv => csv_of(&writers)?,
    };
    match &a.out {
        Some(path) => aufsicht::night::files::write_whole(path, text.as_bytes())
            .with_context(|| say(lang, "cannot-write", &[("path", &path.display())])),
        None => crate::common::write_stdout(text.as_bytes(), lang),
    }
}

/// The nights: each folder one, named by the folder; or the archive's.
fn nights(a: &WritersArgs, lang: Lang) -> Result<Nights> {
    if let Some(path) = &a.archive {
        let db = open_archive(path, lang)?;
        let wanted = match a.tournament.as_deref() {
            Some(name) => Some(db.pick_tournament(Some(name)).told(lang)?),
            None => None,
        };
        let mut out = Vec::new();
        for night in db.nights().told(lang)? {
            if wanted.is_some_and(|w| w != night.id) {
                continue;
            }
            let sheets = db.sheets(night.id).told(lang)?;
            let named = sheets
                .into_iter()
                .map(|s| (s.id.to_string(), s.result))
                .collect();
            out.push((night.label(), named));
        }
        return Ok(out);
    }
    let mut out = Vec::new();
    for dir in &a.dirs {
        let name = dir.file_name().map_or_else(
            || dir.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let sheets = sheet_results(std::slice::from_ref(dir), lang)?
            .into_iter()
            .map(|(_, file, sheet)| (file.display().to_string(), sheet))
            .collect();
        out.push((name, sheets));
    }
    Ok(out)
}

/// What a flagged Schreiber's numbers say, and no more.
pub fn flagged_line(w: &Writer, lang: Lang) -> String {
    let points = format!("{:+}", w.to_self);
    let p = decimal(w.p, lang);
    let args: [(&str, &dyn std::fmt::Display); 5] = [
        ("player", &w.player),
        ("favouring", &w.favouring_self),
        ("errors", &w.errors),
        ("points", &points),
        ("p", &p),
    ];
    say(lang, "writers-flagged", &args)
}

/// A chance to four places, with the decimal comma in German.
fn decimal(p: f64, lang: Lang) -> String {
    let text = format!("{p:.4}");
    match lang {
        Lang::De => text.replace('.', ","),
        Lang::En => text,
    }
}

fn csv_of(writers: &[Writer]) -> Result<String> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record([
        "player",
        "sheets",
        "errors",
        "to_self",
        "to_partners",
        "against_others",
        "favouring_self",
        "p",
        "flagged",
    ])?;
    for x in writers {
        w.write_record([
            x.player.clone(),
            x.sheets.to_string(),
            x.errors.to_string(),
            x.to_self.to_string(),
            x.to_partners.to_string(),
            x.against_others.to_string(),
            x.favouring_self.to_string(),
            format!("{:.6}", x.p),
            x.flagged.to_string(),
        ])?;
    }
    Ok(String::from_utf8(w.into_inner()?)?)
}
