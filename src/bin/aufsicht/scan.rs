//! `scan`: images, PDFs and folders in; result files, `summary.csv` and
//! the archive out, with progress.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use chrono::NaiveDate;
use clap::builder::{PossibleValuesParser, TypedValueParser};

use aufsicht::Lang;
use aufsicht::catalogue::say;
use aufsicht::night::batch::ReaderKind;
use aufsicht::night::batch::run::{self, NightArchive, Progress, ScanRun, Tally};
use aufsicht::page::form::FormTemplate;

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
    /// A folder of a club's own form templates (`*.json`): each page is
    /// recognised among them and the shipped forms.
    #[arg(long, conflicts_with = "form")]
    pub forms: Option<PathBuf>,
    /// Folder for the results.
    #[arg(long)]
    pub out: PathBuf,
    /// Which reader reads the handwritten digits: the trained digit model
    /// (cnn), or Tesseract's legacy engine with a digit whitelist.
    #[arg(long, default_value = "cnn", value_parser = reader_kind())]
    pub reader: ReaderKind,
    /// The archive (SQLite) the sheets go into; default: aufsicht.sqlite in --out.
    #[arg(long)]
    pub archive: Option<PathBuf>,
    /// The tournament's name in the archive; default: the name of --out.
    #[arg(long)]
    pub tournament: Option<String>,
    /// The night's date (YYYY-MM-DD), kept with the tournament for the season.
    #[arg(long, value_parser = crate::common::date)]
    pub date: Option<NaiveDate>,
    /// Do not archive (results and summary.csv only).
    #[arg(long, conflicts_with_all = ["archive", "tournament", "date"])]
    pub no_archive: bool,
    /// Read again the files the archive already holds (on --form, say):
    /// a new reading of each sheet; every answer, count, initials and
    /// verdict stands, and the trail names the program for what changed.
    #[arg(long, conflicts_with_all = ["no_archive", "watch"])]
    pub reread: bool,
    /// Who asked for the new reading; the trail names the program, which
    /// made the values.
    #[arg(long, requires = "reread")]
    pub by: Option<String>,
    /// The night's registered participant numbers (one per line, or a CSV
    /// with them in the first column): participant numbers are checked against it.
    #[arg(long)]
    pub participants: Option<PathBuf>,
    /// Read each file as the scanner drops it into this folder, until
    /// Ctrl-C (the file being read is finished first).
    #[arg(long, conflicts_with = "inputs")]
    pub watch: Option<PathBuf>,
    /// Scans to read: images (JPEG, PNG, TIFF), PDFs, and folders of them.
    #[arg(required_unless_present = "watch")]
    pub inputs: Vec<PathBuf>,
}

/// `--reader`: one of the reader names, straight into the library's kind.
fn reader_kind() -> impl TypedValueParser<Value = ReaderKind> {
    PossibleValuesParser::new(ReaderKind::NAMES).try_map(|name| name.parse::<ReaderKind>())
}

pub fn run(a: ScanArgs, lang: Lang) -> Result<()> {
    let participants = load_participants(a.participants.as_deref(), lang)?;
    let rules = load_rules(&a.rules, lang)?;
    let forms = match (&a.form, &a.forms) {
        (Some(f), _) => {
            vec![
                FormTemplate::load(f)
                    .told(lang)
                    .context(say(lang, "load-form", &[]))?,
            ]
        }
        (None, Some(dir)) => {
            FormTemplate::builtins_and(dir)
                .told(lang)
                .context(say(lang, "load-form", &[]))?
        }
        (None, None) => FormTemplate::builtins(),
    };
    let out = a.out.as_path();
    let run = ScanRun {
        forms: &forms,
        with_kept_forms: a.form.is_none() && a.forms.is_none(),
        rules: &rules,
        reader: a.reader,
        participants: participants.as_ref(),
        out,
        archive: (!a.no_archive).then_some(NightArchive {
            file: a.archive.as_deref(),
            name: a.tournament.as_deref(),
            date: a.date,
            reread: a.reread,
        }),
        lang,
    };
    let tally = match &a.watch {
        Some(dir) => crate::watch::watch(dir, out, lang, |stop, progress| {
            run::scan(&run, run::Inputs::Watch { dir, stop }, progress)
        }),
        None => with_bar(out, lang, |progress| {
            run::scan(&run, run::Inputs::Files(&a.inputs), progress)
        }),
    }
    .told(lang)?;
    report(out, &tally, lang)
}

/// A run shown with a progress bar: files passed over and the folder's
/// wait said on their own lines.
fn with_bar<T>(out: &Path, lang: Lang, scan: impl FnOnce(&(dyn Fn(Progress) + Sync)) -> T) -> T {
    use indicatif::{ProgressBar, ProgressStyle};
    use std::sync::atomic::{AtomicUsize, Ordering};
    let bar = ProgressBar::hidden().with_style(
        ProgressStyle::with_template(&say(lang, "scan-bar", &[]))
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let (sheets_done, flagged_so_far) = (AtomicUsize::new(0), AtomicUsize::new(0));
    let show = |p: Progress| match p {
        Progress::Waiting => crate::common::waiting(out, lang),
        Progress::PassedOver(path, why) => crate::common::passed_over(path, why, lang),
        Progress::Found(files) => {
            bar.set_length(files as u64);
            bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
        }
        Progress::Done(d) => {
            let flagged = d.flagged();
            let n = sheets_done.fetch_add(d.sheets.len(), Ordering::Relaxed) + d.sheets.len();
            let f = flagged_so_far.fetch_add(flagged, Ordering::Relaxed) + flagged;
            let args: [(&str, &dyn std::fmt::Display); 2] = [("sheets", &n), ("flagged", &f)];
            bar.set_message(say(lang, "scan-progress", &args));
            bar.inc(1);
        }
        Progress::Failed(file, why) => {
            bar.finish_and_clear();
            eprintln!("aufsicht: {}: {why}", file.display());
        }
        Progress::Watching => {}
    };
    let out = scan(&show);
    bar.finish_and_clear();
    out
}

/// The run's last words; the error says what is missing.
fn report(out: &Path, tally: &Tally, lang: Lang) -> Result<()> {
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
