//! `audit`: a player's night, or one sheet, from the archive alone: a
//! self-contained page to print or mail, or the contract's JSON.

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::ValueEnum;

use aufsicht::Lang;
use aufsicht::catalogue::say;
use aufsicht::night::club::archive::with_kept;
use aufsicht::night::club::audit::{Subject, audit, season_audit};
use aufsicht::night::club::audit_page::{Scans, page};
use aufsicht::night::tournament::ranking::NightRules;
use aufsicht::page::form::{FormTemplate, KnownForm};
use aufsicht::sheet::PlayerNo;

use crate::common::{Told, load_rules, open_archive};

/// The arguments of `audit`.
#[derive(clap::Args)]
pub struct AuditArgs {
    /// The club's archive (what `scan --archive` fills).
    #[arg(long)]
    pub archive: PathBuf,
    /// The participant number whose night is audited (every sheet they sat at).
    #[arg(
        long,
        required_unless_present_any = ["sheet", "writers"],
        conflicts_with_all = ["sheet", "writers"]
    )]
    pub player: Option<PlayerNo>,
    /// The archive id of the sheet audited (as the desk lists it).
    #[arg(long, conflicts_with = "writers")]
    pub sheet: Option<i64>,
    /// The Schreiber's ledger instead (the season, or the night
    /// --tournament names) as a page.
    #[arg(long)]
    pub writers: bool,
    /// With --writers: the Schreiber's seat where the club names another
    /// than the first (default: the club file's, else 1).
    #[arg(long, requires = "writers")]
    pub writer_seat: Option<usize>,
    /// One night, by its name or date; without it a player's audit covers
    /// every night they played, and a sheet is found in any night.
    #[arg(long)]
    pub tournament: Option<String>,
    /// The rule set to rank one night by (the night --tournament names, or
    /// the archive's only one); default: the one it was scanned with.
    #[arg(long)]
    pub rules: Option<String>,
    /// The club's file (`[season]`): the season's line under its rule.
    #[arg(long)]
    pub club: Option<PathBuf>,
    /// A page to print and read (html) or the audit as data (json).
    #[arg(long, value_enum, default_value = "html")]
    pub format: Format,
    /// The file the audit is written to.
    #[arg(long)]
    pub out: PathBuf,
}

#[derive(Clone, Copy, ValueEnum, PartialEq)]
pub enum Format {
    Html,
    Json,
}

pub fn run(a: AuditArgs, lang: Lang) -> Result<()> {
    let db = open_archive(&a.archive, lang)?;
    if a.writers {
        return writers(&db, &a, lang);
    }
    let subject = match (&a.player, a.sheet) {
        (Some(p), _) => Subject::Player(p.clone()),
        (None, Some(id)) => Subject::Sheet(id),
        (None, None) => unreachable!("clap requires --player or --sheet"),
    };
    let club = crate::season::club_file(a.club.as_ref(), lang)?;
    let one_night = a.tournament.is_some() || a.rules.is_some();
    let mut found = match one_night {
        true => {
            let tournament = db.pick_tournament(a.tournament.as_deref()).told(lang)?;
            let rules = match &a.rules {
                Some(r) => r.clone(),
                None => db.rules_of(tournament).told(lang)?,
            };
            let rules = load_rules(&rules, lang)?;
            audit(&db, tournament, subject, NightRules::of(&rules), lang).told(lang)?
        }
        false => season_audit(&db, subject, &club.season, lang).told(lang)?,
    };
    if club.members.is_some() {
        found.name_from(&crate::season::names_of(&db, &club, lang)?);
    }
    let text = match a.format {
        Format::Json => serde_json::to_string_pretty(&found)? + "\n",
        Format::Html => {
            let dir = crate::common::beside_archive(&a.archive);
            let kept = |sha: &str| db.scan_bytes(sha);
            let evidence =
                aufsicht::night::club::evidence::of_audit(&found, &kept, dir).told(lang)?;
            // Every version kept first: a sheet names the one it was read on.
            let mut forms = db.form_versions().told(lang)?;
            let at_hand = with_kept(&FormTemplate::builtins(), db.forms().told(lang)?);
            forms.extend(at_hand.into_iter().map(KnownForm::of));
            page(
                &found,
                &Scans {
                    forms: &forms,
                    evidence: &evidence,
                },
                lang,
            )
        }
    };
    aufsicht::night::files::write_whole(&a.out, text.as_bytes())
        .with_context(|| say(lang, "cannot-write", &[("path", &a.out.display())]))?;
    crate::common::told_written(&a.out, lang);
    Ok(())
}

/// `audit --writers`: the Schreiber's ledger of the season (or one night)
/// as a page that stands alone, or as the ledger's JSON.
fn writers(db: &aufsicht::night::club::archive::Archive, a: &AuditArgs, lang: Lang) -> Result<()> {
    use aufsicht::night::club::writers_page;
    let only = match a.tournament.as_deref() {
        Some(name) => Some(db.pick_tournament(Some(name)).told(lang)?),
        None => None,
    };
    let club = crate::season::club_file(a.club.as_ref(), lang)?;
    let seats = aufsicht::night::ledger::WriterSeats {
        by_table: Default::default(),
        otherwise: a.writer_seat.or(club.writer_seat),
    };
    crate::writers::seat_at_tables(db, only, &seats, lang)?;
    let writers = aufsicht::night::ledger::of_archive(db, only, &seats).told(lang)?;
    let text = match a.format {
        Format::Json => {
            serde_json::to_string_pretty(&serde_json::json!({ "writers": writers }))? + "\n"
        }
        Format::Html => {
            let what = match &a.tournament {
                Some(night) => night.clone(),
                None => say(lang, "writers-page-season", &[]),
            };
            let title = say(lang, "writers-page-title", &[("what", &what)]);
            let names = db.names().told(lang)?;
            let ledger = writers_page::Ledger {
                title: &title,
                names: &names,
                writer_seat: seats.otherwise.unwrap_or(1),
            };
            writers_page::page(&writers, &ledger, &|_| None, lang)
        }
    };
    aufsicht::night::files::write_whole(&a.out, text.as_bytes())
        .with_context(|| say(lang, "cannot-write", &[("path", &a.out.display())]))?;
    crate::common::told_written(&a.out, lang);
    Ok(())
}
