//! `audit`: a player's night, or one sheet, from the archive alone: a
//! self-contained page to print or mail, or the contract's JSON.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::ValueEnum;

use aufsicht::Lang;
use aufsicht::catalogue::say;
use aufsicht::night::audit::{Subject, audit};
use aufsicht::night::audit_page::{Scans, page};
use aufsicht::night::ranking::NightRules;
use aufsicht::page::form::FormTemplate;

use crate::common::{Told, load_rules, open_archive};

/// The arguments of `audit`.
#[derive(clap::Args)]
pub struct AuditArgs {
    #[arg(long)]
    pub archive: PathBuf,
    /// The participant number whose night is audited (every sheet they sat at).
    #[arg(long, required_unless_present = "sheet", conflicts_with = "sheet")]
    pub player: Option<String>,
    /// The archive id of the sheet audited (as the desk lists it).
    #[arg(long)]
    pub sheet: Option<i64>,
    /// The tournament's name; may be left out when the archive holds one.
    #[arg(long)]
    pub tournament: Option<String>,
    /// The rule set to rank by; default: the one the night was scanned with.
    #[arg(long)]
    pub rules: Option<String>,
    #[arg(long, value_enum, default_value = "html")]
    pub format: Format,
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
    let tournament = db.pick_tournament(a.tournament.as_deref()).told(lang)?;
    let rules = match &a.rules {
        Some(r) => r.clone(),
        None => db.rules_of(tournament).told(lang)?,
    };
    let rules = load_rules(&rules, lang)?;
    let subject = match (&a.player, a.sheet) {
        (Some(p), _) => Subject::Player(p),
        (None, Some(id)) => Subject::Sheet(id),
        (None, None) => unreachable!("clap requires --player or --sheet"),
    };
    let night = NightRules {
        rules: &rules,
        participants: None,
        seating: None,
    };
    let found = audit(&db, tournament, subject, night, lang).told(lang)?;
    let text = match a.format {
        Format::Json => serde_json::to_string_pretty(&found)? + "\n",
        Format::Html => {
            let dir = a.archive.parent().unwrap_or(Path::new("."));
            let kept = |sha: &str| db.scan_bytes(sha);
            let evidence = aufsicht::night::evidence::of_audit(&found, &kept, dir).told(lang)?;
            let forms = FormTemplate::builtins();
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
    std::fs::write(&a.out, text)
        .with_context(|| say(lang, "cannot-write", &[("path", &a.out.display())]))
}
