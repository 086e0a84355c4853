//! `writers`: the Schreiber's ledger over folders of sheets (one a night)
//! or an archive's nights: per Schreiber their errors, whose points they
//! moved, and the chance that their own way was luck. JSON or CSV.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};

use aufsicht::catalogue::say;
use aufsicht::night::club::writers_page::verdict;
use aufsicht::night::ledger::{Writer, WriterSeats, of_archive, of_nights};
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
    /// The Schreiber's seat where the club names another than the first
    /// (default: the club file's `[writers] seat`, else 1).
    #[arg(long)]
    pub writer_seat: Option<usize>,
    /// The club's file (`[writers] seat = N`: the Schreiber's seat).
    #[arg(long)]
    pub club: Option<PathBuf>,
    /// The seating (`draw`): its `writer` column marks each table's
    /// Schreiber, where it has one.
    #[arg(long)]
    pub seating: Option<PathBuf>,
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

pub fn run(a: WritersArgs, lang: Lang) -> Result<()> {
    let rules = load_rules(&a.rules, lang)?;
    let seats = writer_seats(&a, lang)?;
    seat_within(&seats, rules.max_players(), lang)?;
    let writers = match &a.archive {
        Some(path) => {
            let db = open_archive(path, lang)?;
            let only = match a.tournament.as_deref() {
                Some(name) => Some(db.pick_tournament(Some(name)).told(lang)?),
                None => None,
            };
            seat_at_tables(&db, only, &seats, lang)?;
            // A seating is one night's draw: it marks no other night's tables.
            if a.seating.is_some() && only.is_none() && db.nights().told(lang)?.len() > 1 {
                bail!(say(lang, "writers-seating-one-night", &[]));
            }
            of_archive(&db, only, &seats).told(lang)?
        }
        None if a.seating.is_some() && a.dirs.len() > 1 => {
            bail!(say(lang, "writers-seating-one-night", &[]))
        }
        None => of_folders(&a.dirs, &seats, lang)?,
    };
    for w in writers.iter().filter(|w| w.flagged) {
        eprintln!("aufsicht: {}", verdict(w, lang));
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

/// A writer seat no table of the nights (`only`, else every night) has is
/// refused: one line.
pub fn seat_at_tables(
    db: &aufsicht::night::club::archive::Archive,
    only: Option<i64>,
    seats: &WriterSeats,
    lang: Lang,
) -> Result<()> {
    let nights = db.nights().told(lang)?;
    for night in nights.iter().filter(|n| only.is_none_or(|o| o == n.id)) {
        let rules = load_rules(&night.rules, lang)?;
        seat_within(seats, rules.max_players(), lang)?;
    }
    Ok(())
}

/// A writer seat outside `1..=seats` is refused: one line.
fn seat_within(seats: &WriterSeats, max: usize, lang: Lang) -> Result<()> {
    if let Some(seat) = seats.outside(max) {
        let args: [(&str, &dyn std::fmt::Display); 2] = [("seat", &seat), ("seats", &max)];
        bail!(say(lang, "writers-seat-outside", &args));
    }
    Ok(())
}

/// The ledger over folders, each one night named by the folder.
fn of_folders(dirs: &[PathBuf], seats: &WriterSeats, lang: Lang) -> Result<Vec<Writer>> {
    let mut nights: Vec<(String, Vec<(String, SheetResult)>)> = Vec::new();
    for dir in dirs {
        let name = dir.file_name().map_or_else(
            || dir.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let sheets = sheet_results(std::slice::from_ref(dir), lang)?
            .into_iter()
            .map(|(_, file, sheet)| (file.display().to_string(), sheet))
            .collect();
        nights.push((name, sheets));
    }
    Ok(of_nights(&nights, seats))
}

/// Where the Schreiber sit: the seating's `writer` column by table, else
/// `--writer-seat`, else the club's seat, else the first.
fn writer_seats(a: &WritersArgs, lang: Lang) -> Result<WriterSeats> {
    let club = crate::season::club_file(a.club.as_ref(), lang)?;
    let by_table = match &a.seating {
        Some(path) => {
            crate::common::load_seating(path, lang)?;
            let text = aufsicht::night::tournament::spreadsheet::read_text(path)
                .with_context(|| say(lang, "seating-read", &[("path", &path.display())]))?;
            aufsicht::night::tournament::seating::writer_seats(&text)
                .told(lang)
                .with_context(|| say(lang, "seating-read", &[("path", &path.display())]))?
        }
        None => Default::default(),
    };
    Ok(WriterSeats {
        by_table,
        otherwise: a.writer_seat.or(club.writer_seat),
    })
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
