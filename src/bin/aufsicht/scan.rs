//! `scan`: images, PDFs and folders in; result files, `summary.csv` and
//! the archive out, with progress.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use clap::ValueEnum;

use aufsicht::catalogue::say;
use aufsicht::night::batch::run;
use aufsicht::page::form::FormTemplate;
use aufsicht::{Lang, page::input};

use crate::common::{Incomplete, Told, load_participants, load_rules};

/// The arguments of `scan`.
#[derive(clap::Args)]
pub struct ScanArgs {
    /// Rule set id (merkur, schwaig, turnier30, laufende, doppelkopf) or the path of a rule file.
    #[arg(long)]
    pub rules: String,
    /// Form id (punkteliste-a4-32, doko-a4-24x5) or a template path; recognised when absent.
    #[arg(long)]
    pub form: Option<String>,
    /// Folder for the results.
    #[arg(long)]
    pub out: PathBuf,
    /// Which reader reads the handwritten digits.
    #[arg(long, value_enum, default_value = "cnn")]
    pub reader: ReaderArg,
    /// The archive (SQLite) the sheets go into; default: aufsicht.sqlite in --out.
    #[arg(long)]
    pub archive: Option<PathBuf>,
    /// The tournament's name in the archive; default: the name of --out.
    #[arg(long)]
    pub tournament: Option<String>,
    /// The night's date (YYYY-MM-DD), kept with the tournament for the season.
    #[arg(long)]
    pub date: Option<String>,
    /// Do not archive (results and summary.csv only).
    #[arg(long, conflicts_with_all = ["archive", "tournament", "date"])]
    pub no_archive: bool,
    /// The night's registered participant numbers (one per line, or a CSV
    /// with them in the first column): participant numbers are checked against it.
    #[arg(long)]
    pub participants: Option<PathBuf>,
    /// Read each file as the scanner drops it into this folder, until
    /// Ctrl-C (the file being read is finished first).
    #[arg(long, conflicts_with = "inputs")]
    pub watch: Option<PathBuf>,
    #[arg(required_unless_present = "watch")]
    pub inputs: Vec<PathBuf>,
}

#[derive(Clone, Copy, ValueEnum, PartialEq)]
pub enum ReaderArg {
    /// The trained digit model (default).
    Cnn,
    /// Tesseract's legacy engine with a digit whitelist.
    Tesseract,
}

pub fn run(a: ScanArgs, lang: Lang) -> Result<()> {
    let setup = Setup {
        rules: &a.rules,
        form: a.form.as_deref(),
        reader: a.reader,
        participants: a.participants.as_deref(),
    };
    let date = a
        .date
        .as_deref()
        .map(|d| crate::common::parse_date("--date", d, lang))
        .transpose()?;
    let archive = (!a.no_archive).then_some(ArchiveArg {
        file: a.archive,
        tournament: a.tournament,
        date,
    });
    match &a.watch {
        Some(dir) => scan(&setup, &a.out, Inputs::Watch(dir), lang, archive),
        None => scan(&setup, &a.out, Inputs::Files(&a.inputs), lang, archive),
    }
}

/// What a scan reads: the files and folders given, or each file the
/// scanner drops into a watched folder.
pub enum Inputs<'a> {
    Files(&'a [PathBuf]),
    Watch(&'a Path),
}

/// Where and under which name a scan archives its sheets.
pub struct ArchiveArg {
    pub file: Option<PathBuf>,
    pub tournament: Option<String>,
    pub date: Option<chrono::NaiveDate>,
}

#[allow(clippy::too_many_arguments)]
/// What reads the sheets: rule set, form, reader, participant list.
pub struct Setup<'a> {
    pub rules: &'a str,
    pub form: Option<&'a str>,
    pub reader: ReaderArg,
    pub participants: Option<&'a Path>,
}

pub fn scan(
    setup: &Setup,
    out: &Path,
    inputs: Inputs,
    lang: Lang,
    archive: Option<ArchiveArg>,
) -> Result<()> {
    use aufsicht::night::batch::{Batch, ReaderKind};
    let (rules, form, which) = (setup.rules, setup.form, setup.reader);
    let participants = load_participants(setup.participants, lang)?;
    let rules = load_rules(rules, lang)?;
    let forms = match form {
        Some(f) => vec![
            FormTemplate::load(f)
                .told(lang)
                .context(say(lang, "load-form", &[]))?,
        ],
        None => FormTemplate::builtins(),
    };
    let given: Vec<&Path> = match &inputs {
        Inputs::Files(files) => files.iter().map(PathBuf::as_path).collect(),
        Inputs::Watch(dir) => vec![dir],
    };
    for input in given {
        if std::fs::symlink_metadata(input).is_err() {
            bail!(say(lang, "input-missing", &[("path", &input.display())]));
        }
    }
    if let Inputs::Watch(dir) = &inputs
        && !dir.is_dir()
    {
        bail!(say(lang, "watch-not-folder", &[("path", &dir.display())]));
    }
    std::fs::create_dir_all(out)
        .with_context(|| say(lang, "cannot-create-folder", &[("path", &out.display())]))?;
    let waiting = || {
        let said = say(lang, "scan-waiting", &[("path", &out.display())]);
        eprintln!("aufsicht: {said}");
    };
    let _only_scan_here = run::FolderLock::take(out, waiting)
        .with_context(|| say(lang, "cannot-write-folder", &[("path", &out.display())]))?;
    let archive = match archive {
        Some(a) => {
            let (file, name, date) = (a.file.as_deref(), a.tournament.as_deref(), a.date);
            let (db, night) = run::open_night(file, name, date, out, &rules.id).told(lang)?;
            if let Some(list) = &participants {
                let mut kept = db.lock().unwrap_or_else(|p| p.into_inner());
                kept.keep_names(night, list.names()).told(lang)?;
            }
            Some((db, night))
        }
        None => None,
    };
    let batch = Batch {
        forms: &forms,
        rules: &rules,
        reader: match which {
            ReaderArg::Cnn => ReaderKind::Cnn,
            ReaderArg::Tesseract => ReaderKind::Tesseract,
        },
        lang,
        out,
        archive,
        participants: participants.as_ref(),
    };
    let read = match inputs {
        Inputs::Files(files) => read_files(&batch, files, out, lang)?,
        Inputs::Watch(dir) => crate::watch::watch(&batch, dir, out, lang)?,
    };
    report(out, run::Tally::of(read, lang), lang)
}

/// Reads the files and folders given, with a progress bar.
fn read_files(
    batch: &aufsicht::night::batch::Batch,
    inputs: &[PathBuf],
    out: &Path,
    lang: Lang,
) -> Result<run::Read> {
    use indicatif::{ProgressBar, ProgressStyle};
    use std::sync::atomic::{AtomicUsize, Ordering};
    let found = input::collect(inputs);
    for (path, why) in &found.passed_over {
        eprintln!("aufsicht: {}: {}", path.display(), why.text(lang));
    }
    let bar = ProgressBar::new(found.files.len() as u64).with_style(
        ProgressStyle::with_template(&say(lang, "scan-bar", &[]))
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let (sheets_done, flagged_so_far) = (AtomicUsize::new(0), AtomicUsize::new(0));
    let on_done = |d: &aufsicht::night::batch::FileDone| {
        let flagged = d.flagged();
        let n = sheets_done.fetch_add(d.sheets.len(), Ordering::Relaxed) + d.sheets.len();
        let f = flagged_so_far.fetch_add(flagged, Ordering::Relaxed) + flagged;
        let args: [(&str, &dyn std::fmt::Display); 2] = [("sheets", &n), ("flagged", &f)];
        bar.set_message(say(lang, "scan-progress", &args));
        bar.inc(1);
    };
    let read = run::read_files(batch, found, out, &on_done).told(lang)?;
    bar.finish_and_clear();
    Ok(read)
}

/// The summary file and the run's last words; the error says what is missing.
fn report(out: &Path, tally: run::Tally, lang: Lang) -> Result<()> {
    for (file, why) in &tally.failed {
        eprintln!("aufsicht: {}: {why}", file.display());
    }
    tally.write_summary(out).with_context(|| {
        say(
            lang,
            "cannot-write",
            &[("path", &out.join("summary.csv").display())],
        )
    })?;
    if tally.resumed > 0 {
        let args: [(&str, &dyn std::fmt::Display); 1] = [("count", &tally.resumed)];
        eprintln!("aufsicht: {}", say(lang, "scan-resumed", &args));
    }
    let (ok, flagged, unreadable) = (tally.ok, tally.flagged, tally.unreadable);
    let args: [(&str, &dyn std::fmt::Display); 5] = [
        ("sheets", &(ok + flagged + unreadable)),
        ("ok", &ok),
        ("flagged", &flagged),
        ("unreadable", &unreadable),
        ("path", &out.display()),
    ];
    eprintln!("aufsicht: {}", say(lang, "scan-done", &args));
    if !tally.failed.is_empty() {
        bail!(say(lang, "scan-failed", &[("count", &tally.failed.len())]));
    }
    if tally.file_problems > 0 {
        let args: [(&str, &dyn std::fmt::Display); 1] = [("count", &tally.file_problems)];
        return Err(Incomplete(say(lang, "scan-incomplete", &args)).into());
    }
    Ok(())
}
