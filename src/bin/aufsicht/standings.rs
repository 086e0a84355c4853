//! `standings`: the night's ranking as CSV, night checks to stderr and a file.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};

use aufsicht::catalogue::{Tell, say};
use aufsicht::night::tournament::ranking::{NightRules, rank};
use aufsicht::{Lang, SheetResult};

use aufsicht::night::club::archive::StoredSheet;

use crate::common::{Told, load_participants, load_rules, open_archive, sheet_results};

/// The arguments of `standings`.
#[derive(clap::Args)]
pub struct StandingsArgs {
    /// Rule set id or the path of a rule file (its tie-breaks order equal totals).
    #[arg(long)]
    pub rules: String,
    /// Where the night checks go (CSV); default: standings-checks.csv in
    /// the first DIR, or beside the archive.
    #[arg(long)]
    pub checks: Option<PathBuf>,
    /// The night's registered participant numbers: numbers nobody registered
    /// and registered players on no sheet become night checks.
    #[arg(long)]
    pub participants: Option<PathBuf>,
    /// The night's seating (`draw`): drawn tables with no sheet, and sheets
    /// whose players or seats are not the drawn ones, become night checks.
    #[arg(long)]
    pub seating: Option<PathBuf>,
    /// A night of this archive instead of folders of results: the
    /// sheets as they stand there, corrections and verdicts included.
    #[arg(long, conflicts_with = "dirs")]
    pub archive: Option<PathBuf>,
    /// The night in --archive, by its name or its date (YYYY-MM-DD); may
    /// be left out when the archive holds one.
    #[arg(long, requires = "archive")]
    pub tournament: Option<String>,
    /// Folders of sheet results (*.json), e.g. one per round.
    #[arg(required_unless_present = "archive")]
    pub dirs: Vec<PathBuf>,
}

pub fn run(a: StandingsArgs, lang: Lang) -> Result<()> {
    standings(&a, lang)
}

fn standings(a: &StandingsArgs, lang: Lang) -> Result<()> {
    let (checks, dirs) = (a.checks.clone(), &a.dirs);
    let rules = load_rules(&a.rules, lang)?;
    let participants = load_participants(a.participants.as_deref(), lang)?;
    let seating = a
        .seating
        .as_deref()
        .map(|p| crate::common::load_seating(p, lang))
        .transpose()?;
    let sheets = night_sheets(a, lang)?;
    refuse_other_rules(&sheets, &rules.id, lang)?;
    let night = NightRules {
        rules: &rules,
        participants: participants.as_ref(),
        seating: seating.as_ref(),
    };
    let ranked = rank(sheets, night, lang);
    for (name, e) in &ranked.unverified {
        let error = e.tell(lang);
        let args: [(&str, &dyn std::fmt::Display); 2] = [("file", name), ("error", &error)];
        eprintln!("aufsicht: {}", say(lang, "standings-verify-failed", &args));
    }
    let table = &ranked.standings;
    let mut out = Vec::new();
    table.write_csv(&mut out)?;
    crate::common::write_stdout(&out, lang)?;
    let beside = match (&a.archive, dirs.first()) {
        (Some(archive), _) => crate::common::beside_archive(archive).to_path_buf(),
        (None, Some(dir)) => dir.clone(),
        (None, None) => PathBuf::from("."),
    };
    let checks_path = checks.unwrap_or_else(|| beside.join("standings-checks.csv"));
    let mut text = Vec::new();
    table.write_checks_csv(&mut text)?;
    std::fs::write(&checks_path, text)
        .with_context(|| say(lang, "write-checks", &[("path", &checks_path.display())]))?;
    for c in &table.checks {
        eprintln!("aufsicht: {}: {}", c.kind.as_str(), c.message);
    }
    for (c, settled) in &table.settled {
        let note = say(lang, "check-settled", &[("by", &settled.by)]);
        eprintln!("aufsicht: {}: {} ({note})", c.kind.as_str(), c.message);
    }
    let review = table
        .players
        .iter()
        .filter(|p| !p.review.is_empty())
        .count();
    let (players, path) = (table.players.len(), checks_path.display());
    let args: [(&str, &dyn std::fmt::Display); 5] = [
        ("players", &players),
        ("sheets", &ranked.sheets.len()),
        ("checks", &table.checks.len()),
        ("path", &path),
        ("review", &review),
    ];
    eprintln!("aufsicht: {}", say(lang, "standings-done", &args));
    Ok(())
}

/// The night's sheets, each by the name it goes by: from the archive's
/// night, or the result files of the folders.
fn night_sheets(a: &StandingsArgs, lang: Lang) -> Result<Vec<(String, SheetResult)>> {
    if let Some(path) = &a.archive {
        let db = open_archive(path, lang)?;
        let night = db.pick_tournament(a.tournament.as_deref()).told(lang)?;
        let stored = db.sheets(night).told(lang)?;
        return Ok(stored.into_iter().map(StoredSheet::into_named).collect());
    }
    Ok(sheet_results(&a.dirs, lang)?
        .into_iter()
        .map(|(_, file, sheet)| (file.display().to_string(), sheet))
        .collect())
}

/// A night is ranked under one rule set: results read under another
/// (a Doppelkopf table among Schafkopf ones) are named, not counted.
fn refuse_other_rules(sheets: &[(String, SheetResult)], rules: &str, lang: Lang) -> Result<()> {
    let other: Vec<String> = sheets
        .iter()
        .filter_map(|(file, s)| {
            let named = s.rules.as_deref()?;
            (named != rules).then(|| format!("{file} ({named})"))
        })
        .collect();
    if let Some(first) = other.first() {
        let more = match other.len() {
            1 => String::new(),
            n => say(lang, "and-more", &[("count", &(n - 1))]),
        };
        let args: [(&str, &dyn std::fmt::Display); 4] = [
            ("count", &other.len()),
            ("rules", &rules),
            ("first", first),
            ("more", &more),
        ];
        bail!(say(lang, "standings-other-rules", &args));
    }
    Ok(())
}
