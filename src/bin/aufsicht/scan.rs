//! `scan`: images, PDFs and folders in; result files, `summary.csv` and
//! the archive out, with progress.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use clap::ValueEnum;

use aufsicht::catalogue::{Tell, say};
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
    if let Some(date) = &a.date {
        crate::common::check_date("--date", date, lang)?;
    }
    let archive = (!a.no_archive).then_some(ArchiveArg {
        file: a.archive,
        tournament: a.tournament,
        date: a.date,
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
    pub date: Option<String>,
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
    let _only_scan_here = lock_folder(out, lang)?;
    let archive = match archive {
        Some(a) => Some(open_scan_archive(a, out, &rules.id, lang)?),
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
    report_scan(out, &read.jobs, read.outcomes, &read.passed_over, lang)
}

/// What a scan read: the files with their result names, each one's
/// outcome, and what it passed over (with why).
pub struct Read {
    pub jobs: Vec<aufsicht::night::batch::Job>,
    pub outcomes: Outcomes,
    pub passed_over: Vec<(PathBuf, input::PassedOver)>,
}

/// Reads the files and folders given, with a progress bar.
fn read_files(
    batch: &aufsicht::night::batch::Batch,
    inputs: &[PathBuf],
    out: &Path,
    lang: Lang,
) -> Result<Read> {
    let found = input::collect(inputs);
    for (path, why) in &found.passed_over {
        eprintln!("aufsicht: {}: {}", path.display(), why.text(lang));
    }
    let jobs = aufsicht::night::result_names::name_beside(&found.files, out);
    let outcomes = run_with_progress(batch, &jobs, lang)?;
    Ok(Read {
        jobs,
        outcomes,
        passed_over: found.passed_over,
    })
}

/// Holds the output folder for this run: a second scan into it waits,
/// so the two never hand out one result name twice.
fn lock_folder(out: &Path, lang: Lang) -> Result<std::fs::File> {
    let path = out.join(".aufsicht-scan.lock");
    let file = std::fs::File::create(&path)
        .with_context(|| say(lang, "cannot-write-folder", &[("path", &out.display())]))?;
    if file.try_lock().is_err() {
        let said = say(lang, "scan-waiting", &[("path", &out.display())]);
        eprintln!("aufsicht: {said}");
        file.lock()
            .with_context(|| say(lang, "cannot-lock", &[("path", &path.display())]))?;
    }
    Ok(file)
}

fn open_scan_archive(
    a: ArchiveArg,
    out: &Path,
    rules: &str,
    lang: Lang,
) -> Result<(std::sync::Mutex<aufsicht::night::archive::Archive>, i64)> {
    let file = a.file.unwrap_or_else(|| out.join("aufsicht.sqlite"));
    let name = a.tournament.unwrap_or_else(|| {
        out.file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_else(|| "night".into())
    });
    let db = aufsicht::night::archive::Archive::open(&file).told(lang)?;
    let id = db.tournament(&name, rules).told(lang)?;
    if let Some(date) = &a.date {
        db.date(id, date).told(lang)?;
    }
    Ok((std::sync::Mutex::new(db), id))
}

pub type Outcomes =
    Vec<Result<aufsicht::night::batch::FileDone, aufsicht::night::batch::BatchError>>;

fn run_with_progress(
    batch: &aufsicht::night::batch::Batch,
    jobs: &[aufsicht::night::batch::Job],
    lang: Lang,
) -> Result<Outcomes> {
    use indicatif::{ProgressBar, ProgressStyle};
    use std::sync::atomic::{AtomicUsize, Ordering};
    let bar = ProgressBar::new(jobs.len() as u64).with_style(
        ProgressStyle::with_template(&say(lang, "scan-bar", &[]))
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let (sheets_done, flagged_so_far) = (AtomicUsize::new(0), AtomicUsize::new(0));
    let on_done = |d: &aufsicht::night::batch::FileDone| {
        let flagged = d
            .sheets
            .iter()
            .filter(|s| s.status != aufsicht::Status::Ok)
            .count();
        let n = sheets_done.fetch_add(d.sheets.len(), Ordering::Relaxed) + d.sheets.len();
        let f = flagged_so_far.fetch_add(flagged, Ordering::Relaxed) + flagged;
        let args: [(&str, &dyn std::fmt::Display); 2] = [("sheets", &n), ("flagged", &f)];
        bar.set_message(say(lang, "scan-progress", &args));
        bar.inc(1);
    };
    let outcomes = batch.run(jobs, &on_done).told(lang)?;
    bar.finish_and_clear();
    Ok(outcomes)
}

/// The summary file and the run's last words; the error says what is missing.
fn report_scan(
    out: &Path,
    jobs: &[aufsicht::night::batch::Job],
    outcomes: Outcomes,
    passed_over: &[(PathBuf, input::PassedOver)],
    lang: Lang,
) -> Result<()> {
    use aufsicht::night::summary::Row;
    let mut rows = Vec::new();
    let (mut failed, mut resumed, mut file_problems) = (0, 0, 0);
    let mut count = [0usize; 3];
    for (job, outcome) in jobs.iter().zip(outcomes) {
        match outcome {
            Ok(done) => {
                resumed += usize::from(done.from_archive);
                file_problems += usize::from(done.file_problem);
                for s in done.sheets {
                    count[s.status as usize] += 1;
                    rows.push(s.row);
                }
            }
            Err(e) => {
                failed += 1;
                eprintln!("aufsicht: {}: {}", job.file.display(), e.tell(lang));
                rows.push(Row::passed_over(&job.file, e.tell(lang)));
            }
        }
    }
    for (path, why) in passed_over {
        file_problems += usize::from(why.is_failure());
        rows.push(Row::passed_over(path, why.text(lang)));
    }
    let summary = out.join("summary.csv");
    aufsicht::night::summary::write(&summary, &rows)
        .with_context(|| say(lang, "cannot-write", &[("path", &summary.display())]))?;
    if resumed > 0 {
        eprintln!(
            "aufsicht: {}",
            say(lang, "scan-resumed", &[("count", &resumed)])
        );
    }
    let [ok, flagged, unreadable] = count;
    let args: [(&str, &dyn std::fmt::Display); 5] = [
        ("sheets", &(ok + flagged + unreadable)),
        ("ok", &ok),
        ("flagged", &flagged),
        ("unreadable", &unreadable),
        ("path", &out.display()),
    ];
    eprintln!("aufsicht: {}", say(lang, "scan-done", &args));
    if failed > 0 {
        bail!(say(lang, "scan-failed", &[("count", &failed)]));
    }
    if file_problems > 0 {
        return Err(Incomplete(say(lang, "scan-incomplete", &[("count", &file_problems)])).into());
    }
    Ok(())
}
