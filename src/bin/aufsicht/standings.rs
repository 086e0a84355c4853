//! `standings`: the night's ranking as CSV, night checks to stderr and a file.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};

use aufsicht::catalogue::{Tell, say};
use aufsicht::night::ranking::{NightRules, rank};
use aufsicht::{Lang, SheetResult};

use crate::common::{load_participants, load_rules, sheet_results};

/// The arguments of `standings`.
#[derive(clap::Args)]
pub struct StandingsArgs {
    /// Rule set id or the path of a rule file (its tie-breaks order equal totals).
    #[arg(long)]
    pub rules: String,
    /// Where the night checks go (CSV); default: standings-checks.csv in the first DIR.
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
    /// Folders of sheet results (*.json), e.g. one per round.
    #[arg(required = true)]
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
    let results = sheet_results(dirs, lang)?;
    refuse_other_rules(&results, &rules.id, lang)?;
    let sheets = results
        .into_iter()
        .map(|(_, file, sheet)| (file.display().to_string(), sheet))
        .collect();
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
    use std::io::Write;
    let _ = std::io::stdout().write_all(&out);
    let checks_path = checks.unwrap_or_else(|| dirs[0].join("standings-checks.csv"));
    let mut text = Vec::new();
    table.write_checks_csv(&mut text)?;
    std::fs::write(&checks_path, text)
        .with_context(|| say(lang, "write-checks", &[("path", &checks_path.display())]))?;
    for c in &table.checks {
        eprintln!("aufsicht: {}: {}", c.kind.as_str(), c.message);
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

/// A night is ranked under one rule set: results read under another
/// (a Doppelkopf table among Schafkopf ones) are named, not counted.
fn refuse_other_rules(
    results: &[(PathBuf, PathBuf, SheetResult)],
    rules: &str,
    lang: Lang,
) -> Result<()> {
    let other: Vec<String> = results
        .iter()
        .filter_map(|(_, file, s)| {
            let named = s.rules.as_deref()?;
            (named != rules).then(|| format!("{} ({named})", file.display()))
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
