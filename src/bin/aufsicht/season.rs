//! `season`: the club's season table over the archive's nights (CSV).

use std::path::PathBuf;

use anyhow::{Context, Result};

use aufsicht::Lang;
use aufsicht::catalogue::say;
use aufsicht::night::season::{self, SeasonRule};

use crate::common::{Told, date_range, open_archive, write_stdout};

/// The arguments of `season`.
#[derive(clap::Args)]
pub struct SeasonArgs {
    #[arg(long)]
    pub archive: PathBuf,
    /// The first night's date counted (YYYY-MM-DD).
    #[arg(long)]
    pub from: Option<String>,
    /// The last night's date counted (YYYY-MM-DD).
    #[arg(long)]
    pub to: Option<String>,
    /// The club's file: `[season] best = N`, `min_nights = M`.
    #[arg(long)]
    pub club: Option<PathBuf>,
    /// Also write the table as a page to print (HTML).
    #[arg(long)]
    pub page: Option<PathBuf>,
}

pub fn run(a: SeasonArgs, lang: Lang) -> Result<()> {
    let (from, to) = date_range(a.from.as_deref(), a.to.as_deref(), lang)?;
    let rule = club_rule(a.club.as_ref(), lang)?;
    let db = open_archive(&a.archive, lang)?;
    let table = season::of_archive(&db, (from, to), &rule, lang).told(lang)?;
    if let Some(page) = &a.page {
        let title = say(lang, "season-title", &[]);
        std::fs::write(page, table.page(&title))
            .with_context(|| say(lang, "cannot-write", &[("path", &page.display())]))?;
    }
    let mut csv = Vec::new();
    table.write_csv(&mut csv)?;
    write_stdout(&csv, lang)
}

/// The club's `[season]` rule; every night counts without a file.
pub fn club_rule(path: Option<&PathBuf>, lang: Lang) -> Result<SeasonRule> {
    #[derive(serde::Deserialize)]
    struct Club {
        #[serde(default)]
        season: SeasonRule,
    }
    let Some(path) = path else {
        return Ok(SeasonRule::default());
    };
    let said = || say(lang, "season-club", &[("path", &path.display())]);
    let text = std::fs::read_to_string(path).with_context(said)?;
    let club: Club = toml::from_str(&text).with_context(said)?;
    Ok(club.season)
}
