//! `season`: the club's season table over the archive's nights (CSV).

use std::path::PathBuf;

use anyhow::{Context, Result};

use aufsicht::Lang;
use aufsicht::catalogue::say;
use aufsicht::night::club::archive::Archive;
use aufsicht::night::club::season::{self, SeasonRule};
use aufsicht::night::tournament::names::Names;

use crate::common::{Told, open_archive, write_stdout};

/// The arguments of `season`.
#[derive(clap::Args)]
pub struct SeasonArgs {
    /// The club's archive (what `scan --archive` fills).
    #[arg(long)]
    pub archive: PathBuf,
    /// The first night's date counted (YYYY-MM-DD).
    #[arg(long, value_parser = crate::common::date)]
    pub from: Option<chrono::NaiveDate>,
    /// The last night's date counted (YYYY-MM-DD).
    #[arg(long, value_parser = crate::common::date)]
    pub to: Option<chrono::NaiveDate>,
    /// The club's file: `[season] best = N`, `min_nights = M`, `qualify = K`.
    #[arg(long)]
    pub club: Option<PathBuf>,
    /// Also write the table as a page to print (HTML).
    #[arg(long)]
    pub page: Option<PathBuf>,
    /// `csv`: the contract's CSV; `csv-de`: for a spreadsheet in German
    /// (`;`, a byte-order mark, German heads, the players' names).
    #[arg(long, value_enum, default_value = "csv")]
    pub format: Format,
}

/// How the season table is written to standard output.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Csv,
    CsvDe,
}

pub fn run(a: SeasonArgs, lang: Lang) -> Result<()> {
    let (from, to) = (a.from, a.to);
    let club = club_file(a.club.as_ref(), lang)?;
    let db = open_archive(&a.archive, lang)?;
    let table = season::of_archive(&db, (from, to), &club.season, lang).told(lang)?;
    let unranked = table.lines.iter().filter(|l| l.rank.is_none()).count();
    if let Some(least) = club.season.min_nights.filter(|_| unranked > 0) {
        let args: [(&str, &dyn std::fmt::Display); 2] = [("count", &unranked), ("least", &least)];
        eprintln!("aufsicht: {}", say(lang, "season-unranked", &args));
    }
    if let Some(page) = &a.page {
        let title = say(lang, "season-title", &[]);
        let names = names_of(&db, &club, lang)?;
        let html = table.page(&title, lang, &names);
        aufsicht::night::files::write_whole(page, html.as_bytes())
            .with_context(|| say(lang, "cannot-write", &[("path", &page.display())]))?;
        crate::common::told_written(page, lang);
    }
    let mut csv = Vec::new();
    match a.format {
        Format::Csv => table.write_csv(&mut csv)?,
        Format::CsvDe => {
            let names = names_of(&db, &club, lang)?;
            (table.for_people(Lang::De, &names)).write_spreadsheet(&mut csv, Lang::De)?
        }
    }
    write_stdout(&csv, lang)
}

/// The club's file (CLUB.toml): its `[season]` rule, and its member list
/// (`[members] file`, relative to the club's file).
#[derive(Default)]
pub struct Club {
    pub season: SeasonRule,
    pub members: Option<PathBuf>,
    /// The Schreiber's seat where the club names another than the first
    /// (`[writers] seat = N`).
    pub writer_seat: Option<usize>,
}

/// The club's file at `path`; every night counts and no member list
/// names anyone without one.
pub fn club_file(path: Option<&PathBuf>, lang: Lang) -> Result<Club> {
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct File {
        #[serde(default)]
        season: SeasonRule,
        #[serde(default)]
        members: Option<Members>,
        #[serde(default)]
        writers: Option<Writers>,
    }
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Members {
        file: PathBuf,
    }
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Writers {
        seat: usize,
    }
    let Some(path) = path else {
        return Ok(Club::default());
    };
    let said = || say(lang, "season-club", &[("path", &path.display())]);
    let text = std::fs::read_to_string(path).with_context(said)?;
    let file: File = toml::from_str(&text).with_context(said)?;
    let beside = path.parent().unwrap_or(std::path::Path::new("."));
    Ok(Club {
        season: file.season,
        members: file.members.map(|m| beside.join(m.file)),
        writer_seat: file.writers.map(|w| w.seat),
    })
}

/// Who the numbers are: every night's list in the archive, then the
/// club's member list for those no night names.
pub fn names_of(db: &Archive, club: &Club, lang: Lang) -> Result<Names> {
    let mut names = db.names().told(lang)?;
    names.fill_from(&members_of(club, lang)?);
    Ok(names)
}

/// The names of the club's member list (none without one).
pub fn members_of(club: &Club, lang: Lang) -> Result<Names> {
    let Some(members) = &club.members else {
        return Ok(Names::default());
    };
    let said = || say(lang, "load-members", &[("path", &members.display())]);
    Names::load(members).told(lang).with_context(said)
}
