//! `export`, `correct` and `archive`: the archive back to files, a
//! person's correction into it with its trail, and the archive's own
//! upkeep (a backup while it is in use).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use aufsicht::catalogue::{Tell, say};
use aufsicht::record::Decision;
use aufsicht::sheet::ValuePath;
use aufsicht::{Lang, SheetResult};

use crate::common::{Told, load_rules, open_archive, stdout_line};

/// The arguments of `export`.
#[derive(clap::Args)]
pub struct ExportArgs {
    /// The club's archive (what `scan --archive` fills).
    #[arg(long)]
    pub archive: PathBuf,
    /// The night, by its name or its date (YYYY-MM-DD); may be left out
    /// when the archive holds one.
    #[arg(long, conflicts_with = "season")]
    pub tournament: Option<String>,
    /// The folder the sheets' JSON and values.csv go to (made if missing).
    #[arg(long)]
    pub out: PathBuf,
    /// Every night of the archive, each in a folder of its own, with
    /// `nights.csv` naming them (docs/night.md).
    #[arg(long)]
    pub season: bool,
    /// With --season: the first night's date (YYYY-MM-DD).
    #[arg(long, requires = "season", value_parser = crate::common::date)]
    pub from: Option<chrono::NaiveDate>,
    /// With --season: the last night's date (YYYY-MM-DD).
    #[arg(long, requires = "season", value_parser = crate::common::date)]
    pub to: Option<chrono::NaiveDate>,
}

/// The arguments of `correct`.
#[derive(clap::Args)]
pub struct CorrectArgs {
    /// The club's archive the sheet was scanned into.
    #[arg(long)]
    pub archive: PathBuf,
    /// The night, by its name or its date; may be left out when the
    /// archive holds one.
    #[arg(long)]
    pub tournament: Option<String>,
    /// Rule set id or the path of a rule file (default: the one the sheet
    /// was scanned with, as the archive keeps it).
    #[arg(long)]
    pub rules: Option<String>,
    /// Who corrected it (name or initials), for the trail.
    #[arg(long)]
    pub by: String,
    /// The values changed are what counts where the writer erred (the
    /// Leitung's decision), not what the paper says; needs --reason.
    #[arg(long, requires = "reason")]
    pub counts: bool,
    /// Why the counted values count (with --counts).
    #[arg(long, requires = "counts")]
    pub reason: Option<String>,
    /// A value (`endergebnis/2`, `games/5/1/plus`) the paper says as the
    /// sheet gives it, though it is unchanged: its doubt settled.
    #[arg(long, conflicts_with = "counts")]
    pub confirm: Vec<String>,
    /// The corrected sheet result (a scan's JSON, edited).
    pub sheet: PathBuf,
}

/// The arguments of `archive`.
#[derive(clap::Args)]
pub struct ArchiveArgs {
    #[command(subcommand)]
    pub command: ArchiveCommand,
}

#[derive(clap::Subcommand)]
pub enum ArchiveCommand {
    /// Copy a consistent archive while the desk or a scan uses it
    /// (SQLite's online backup; the copy appears whole or not at all).
    Backup {
        /// The archive.
        archive: PathBuf,
        /// The copy (replaced).
        dest: PathBuf,
    },
    /// Hold every kept scan to its hash and every stored result to its
    /// hash and its values; fails when anything was altered.
    Check {
        /// The archive.
        archive: PathBuf,
    },
}

pub fn archive_run(a: ArchiveArgs, lang: Lang) -> Result<()> {
    match a.command {
        ArchiveCommand::Backup { archive, dest } => backup(&archive, &dest, lang),
        ArchiveCommand::Check { archive } => check(&archive, lang),
    }
}

/// Every damage on its own line; the scans' cost a sheet at the end.
fn check(archive: &Path, lang: Lang) -> Result<()> {
    use aufsicht::night::club::archive::Damage;
    let db = open_archive(archive, lang)?;
    let checked = db.check().told(lang)?;
    for d in &checked.damage {
        let line = match d {
            Damage::Scan { sha256 } => say(lang, "check-scan-altered", &[("sha256", sha256)]),
            Damage::Result { sheet } => say(lang, "check-result-altered", &[("sheet", sheet)]),
            Damage::Unreadable { sheet, why } => say(
                lang,
                "check-result-unreadable",
                &[("sheet", sheet), ("message", &why.tell(lang))],
            ),
            Damage::Values { sheet, fields } => say(
                lang,
                "check-values-differ",
                &[
                    ("sheet", sheet),
                    ("count", &fields.len()),
                    ("first", &fields[0]),
                ],
            ),
        };
        eprintln!("aufsicht: {line}");
    }
    let (_, bytes) = db.kept_scans().told(lang)?;
    let per_sheet = bytes / checked.sheets.max(1);
    let args: [(&str, &dyn std::fmt::Display); 5] = [
        ("scans", &checked.scans),
        ("sheets", &checked.sheets),
        (
            "mb",
            &aufsicht::catalogue::decimal(lang, bytes as f64 / 1e6, 1),
        ),
        ("kb", &(per_sheet / 1000)),
        ("without", &checked.without_scan),
    ];
    eprintln!("aufsicht: {}", say(lang, "check-summary", &args));
    if !checked.damage.is_empty() {
        bail!(say(
            lang,
            "check-damaged",
            &[("count", &checked.damage.len())]
        ));
    }
    Ok(())
}

/// SQLite's online backup, whole or not at all (`Archive::backup_to`).
fn backup(archive: &Path, dest: &Path, lang: Lang) -> Result<()> {
    open_archive(archive, lang)?.backup_to(dest).told(lang)?;
    let args: [(&str, &dyn std::fmt::Display); 2] =
        [("archive", &archive.display()), ("path", &dest.display())];
    eprintln!("aufsicht: {}", say(lang, "archive-backed-up", &args));
    Ok(())
}

pub fn export_run(a: ExportArgs, lang: Lang) -> Result<()> {
    if a.season {
        return export_season(&a, lang);
    }
    let db = open_archive(&a.archive, lang)?;
    let night = db.pick_tournament(a.tournament.as_deref()).told(lang)?;
    let count = export(&db, night, &a.out, lang)?;
    let args: [(&str, &dyn std::fmt::Display); 2] = [("count", &count), ("path", &a.out.display())];
    eprintln!("aufsicht: {}", say(lang, "export-done", &args));
    Ok(())
}

/// Every night (between --from and --to) in a folder of its own, named
/// by its date and name, and `nights.csv`: folder, name, date, rules,
/// sheets.
fn export_season(a: &ExportArgs, lang: Lang) -> Result<()> {
    let (from, to) = (a.from, a.to);
    let db = open_archive(&a.archive, lang)?;
    let mut index = csv::Writer::from_writer(Vec::new());
    index.write_record(["folder", "name", "date", "rules", "sheets"])?;
    let mut folders = std::collections::BTreeSet::new();
    let mut total = 0;
    for night in db.nights().told(lang)? {
        if !night.within(from, to) {
            continue;
        }
        let folder = night_folder(&night, &mut folders);
        let count = export(&db, night.id, &a.out.join(&folder), lang)?;
        total += count;
        let date = night.date.map(|d| d.to_string()).unwrap_or_default();
        let sheets = count.to_string();
        index.write_record([&folder, &night.name, &date, &night.rules, &sheets])?;
    }
    let path = a.out.join("nights.csv");
    let bytes = index
        .into_inner()
        .map_err(|e| anyhow::anyhow!(e.to_string()))?;
    std::fs::write(&path, bytes)
        .with_context(|| say(lang, "cannot-write", &[("path", &path.display())]))?;
    let args: [(&str, &dyn std::fmt::Display); 3] = [
        ("nights", &folders.len()),
        ("count", &total),
        ("path", &a.out.display()),
    ];
    eprintln!("aufsicht: {}", say(lang, "export-season-done", &args));
    Ok(())
}

/// A night's folder: its date and name, letters and digits kept, the rest
/// a dash; another night's folder of the same name gets the night's id.
fn night_folder(
    night: &aufsicht::night::club::archive::Night,
    taken: &mut std::collections::BTreeSet<String>,
) -> String {
    let name: String = night
        .name
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect();
    let base = match &night.date {
        Some(date) => format!("{date}-{name}"),
        None => name,
    };
    let folder = if taken.contains(&base) {
        format!("{base}-{}", night.id)
    } else {
        base
    };
    taken.insert(folder.clone());
    folder
}

pub fn correct_run(a: CorrectArgs, lang: Lang) -> Result<()> {
    let how = CorrectHow {
        rules: a.rules.as_deref(),
        by: &a.by,
        reason: a.reason.as_deref().filter(|_| a.counts),
        confirm: &a.confirm,
    };
    correct(&a.archive, a.tournament.as_deref(), how, &a.sheet, lang)
}

/// The night's sheets as contract JSON and its `values.csv` into `out`:
/// how many sheets.
fn export(
    db: &aufsicht::night::club::archive::Archive,
    t: i64,
    out: &Path,
    lang: Lang,
) -> Result<usize> {
    std::fs::create_dir_all(out)
        .with_context(|| say(lang, "cannot-create-folder", &[("path", &out.display())]))?;
    let sheets = db.sheets(t).told(lang)?;
    // The names the scan gave, where the archive knows them; else named anew.
    let files: Vec<(PathBuf, bool)> = sheets
        .iter()
        .map(|s| {
            let source = s.result.source.clone();
            let file = PathBuf::from(source.unwrap_or_else(|| format!("sheet-{}", s.id)));
            let pdf = s.result.page.is_some_and(|p| p > 1)
                || aufsicht::page::input::kind_of(&file) == aufsicht::page::input::Kind::Pdf;
            (file, pdf)
        })
        .collect();
    let mut distinct = files.clone();
    distinct.dedup();
    let named = aufsicht::night::batch::result_names::name_all(
        &distinct,
        &mut aufsicht::night::batch::result_names::Existing::none(),
    );
    let mut written = std::collections::BTreeSet::new();
    for (stored, file) in sheets.iter().zip(&files) {
        let page = stored.result.page.unwrap_or(1);
        let name = stored.result_file.clone().unwrap_or_else(|| {
            named
                .iter()
                .find(|n| (&n.file, n.pdf) == (&file.0, file.1))
                .map_or_else(
                    || format!("sheet-{}.json", stored.id),
                    |n| n.result_name(page),
                )
        });
        let path = out.join(&name);
        std::fs::write(&path, stored.result.to_json_pretty() + "\n")
            .with_context(|| say(lang, "cannot-write", &[("path", &path.display())]))?;
        written.insert(name);
    }
    let values = out.join("values.csv");
    let file = std::fs::File::create(&values)
        .with_context(|| say(lang, "cannot-write", &[("path", &values.display())]))?;
    db.write_values_csv(t, std::io::BufWriter::new(file))
        .told(lang)?;
    Ok(written.len())
}

/// How `correct` takes a corrected file: under which rules, by whom,
/// and (with a reason) as what counts.
struct CorrectHow<'a> {
    rules: Option<&'a str>,
    by: &'a str,
    reason: Option<&'a str>,
    confirm: &'a [String],
}

fn correct(
    archive: &Path,
    tournament: Option<&str>,
    how: CorrectHow,
    sheet: &Path,
    lang: Lang,
) -> Result<()> {
    let by = how.by;
    if by.trim().is_empty() {
        bail!(say(lang, "by-empty", &[]));
    }
    let input = SheetResult::from_path(sheet).told(lang)?;
    let mut db = open_archive(archive, lang)?;
    let t = db.pick_tournament(tournament).told(lang)?;
    let source = input.source.clone().unwrap_or_default();
    let page = input.page.unwrap_or(1);
    let stored = match db.sheet_id(t, &source, page).told(lang)? {
        Some(id) => db.sheet(t, id).told(lang)?,
        None => None,
    };
    let Some(stored) = stored else {
        let file = sheet.display();
        let args: [(&str, &dyn std::fmt::Display); 3] =
            [("file", &file), ("source", &source), ("page", &page)];
        bail!(say(lang, "correct-not-archived", &args));
    };
    let id = stored.id;
    // Every value that differs from the sheet as it stands is one
    // decision: what the paper says, or (--counts) what counts.
    let (_, mut changed) = aufsicht::record::answer::take_corrected(&stored.result, &input)
        .told(lang)
        .with_context(|| sheet.display().to_string())?;
    for text in how.confirm {
        let path: ValuePath = text
            .parse()
            .map_err(|_| anyhow::anyhow!(say(lang, "correct-bad-path", &[("path", text)])))?;
        if !changed.contains(&path) {
            changed.push(path);
        }
    }
    let decisions: Vec<Decision> = changed
        .into_iter()
        .map(|path| {
            let value = aufsicht::record::answer::get(&input, path);
            match how.reason {
                Some(reason) => Decision::Counts {
                    path: path.to_string(),
                    value,
                    reason: reason.to_string(),
                },
                None => Decision::Paper {
                    path: path.to_string(),
                    value,
                },
            }
        })
        .collect();
    let rules = match how.rules.or(stored.result.rules.as_deref()) {
        Some(r) => load_rules(r, lang)?,
        None => bail!(say(lang, "correct-no-rules", &[])),
    };
    let check = |s| aufsicht::verify(s, &rules, lang);
    let decided = db
        .decide(id, how.by, &decisions, None, &check)
        .told(lang)
        .with_context(|| sheet.display().to_string())?;
    let (changes, checked) = (decided.changes, decided.sheet);
    let blank = say(lang, "blank", &[]);
    for c in &changes {
        let (old, new) = (
            c.old.as_deref().unwrap_or(&blank),
            c.new.as_deref().unwrap_or(&blank),
        );
        let args: [(&str, &dyn std::fmt::Display); 3] =
            [("field", &c.field), ("old", &old), ("new", &new)];
        eprintln!("aufsicht: {}", say(lang, "correct-change", &args));
    }
    let args: [(&str, &dyn std::fmt::Display); 3] = [
        ("count", &changes.len()),
        ("by", &by),
        ("flags", &checked.flags.len()),
    ];
    eprintln!("aufsicht: {}", say(lang, "correct-done", &args));
    stdout_line(&checked.to_json_pretty(), lang)
}
