//! A night's scan driven from start to end: the output folder held for
//! one run, the night's archive opened, the files read (those given, or
//! each one as the scanner drops it into a watched folder) and their
//! outcomes tallied into `summary.csv`. The command line around it parses
//! its arguments, shows progress and prints.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, SystemTime};

use crate::catalogue::{Tell, say};
use crate::check::messages::Lang;
use crate::check::rules::RuleSet;
use crate::error::ArchiveError;
use crate::night::batch::summary::Row;
use crate::night::batch::{Batch, BatchError, FileDone, Job, ReaderKind};
use crate::night::club::archive::{Archive, with_kept};
use crate::night::tournament::participants::Participants;
use crate::page::form::FormTemplate;
use crate::page::input::{self, PassedOver};
use crate::sheet::Status;

/// What reads a night's sheets and where the results go.
pub struct ScanRun<'a> {
    pub forms: &'a [FormTemplate],
    /// Also the forms the night keeps in its archive (none was named).
    pub with_kept_forms: bool,
    pub rules: &'a RuleSet,
    pub reader: ReaderKind,
    /// The night's registered list: numbers checked, names kept.
    pub participants: Option<&'a Participants>,
    /// The folder for the results and `summary.csv`.
    pub out: &'a Path,
    /// Where the sheets are archived; None: results and summary only.
    pub archive: Option<NightArchive<'a>>,
    pub lang: Lang,
}

/// Where and under which name a scan archives its sheets.
pub struct NightArchive<'a> {
    /// The archive file; default: `aufsicht.sqlite` in the output folder.
    pub file: Option<&'a Path>,
    /// The night's name; default: the output folder's name.
    pub name: Option<&'a str>,
    pub date: Option<chrono::NaiveDate>,
    /// Files the archive holds are read again (`--reread`): a new reading
    /// of each of their sheets.
    pub reread: bool,
}

/// What a scan reads: the files and folders given, or each file the
/// scanner drops into a watched folder until `stop` is set.
pub enum Inputs<'a> {
    Files(&'a [PathBuf]),
    Watch { dir: &'a Path, stop: &'a AtomicBool },
}

/// What a run tells as it goes, for a person to follow.
pub enum Progress<'a> {
    /// Another run holds the output folder: this one waits for it.
    Waiting,
    /// The files given were found: this many to read.
    Found(usize),
    /// The watched folder is looked at from now on.
    Watching,
    /// A file passed over, and why (once each).
    PassedOver(&'a Path, &'a PassedOver),
    /// A file read.
    Done(&'a FileDone),
    /// A file whose results could not be written or stored, and why.
    Failed(&'a Path, &'a str),
}

/// Why a scan could not run (one file's fault is that file's outcome).
#[derive(Debug, thiserror::Error)]
#[error("{}", self.tell(Lang::En))]
pub enum ScanError {
    InputMissing(PathBuf),
    /// The files and folders given hold no image or PDF to read.
    NothingToRead,
    WatchNotFolder(PathBuf),
    CreateFolder(PathBuf, #[source] std::io::Error),
    HoldFolder(PathBuf, #[source] std::io::Error),
    Archive(#[from] ArchiveError),
    Batch(#[from] BatchError),
    Summary(PathBuf, #[source] std::io::Error),
}

impl Tell for ScanError {
    fn tell(&self, lang: Lang) -> String {
        let with = |key: &str, path: &Path, e: &std::io::Error| {
            format!("{}: {e}", say(lang, key, &[("path", &path.display())]))
        };
        match self {
            ScanError::InputMissing(p) => say(lang, "input-missing", &[("path", &p.display())]),
            ScanError::NothingToRead => say(lang, "nothing-to-read", &[]),
            ScanError::WatchNotFolder(p) => {
                say(lang, "watch-not-folder", &[("path", &p.display())])
            }
            ScanError::CreateFolder(p, e) => with("cannot-create-folder", p, e),
            ScanError::HoldFolder(p, e) => with("cannot-write-folder", p, e),
            ScanError::Archive(e) => e.tell(lang),
            ScanError::Batch(e) => e.tell(lang),
            ScanError::Summary(p, e) => with("cannot-write", p, e),
        }
    }
}

/// A night's scan from start to end: the inputs checked, the output folder
/// made and held, the night's archive opened (the list's names kept with
/// it), the files read (given, or watched until stopped), their outcomes
/// tallied into `summary.csv`. `progress` hears of each step.
pub fn scan(
    run: &ScanRun,
    inputs: Inputs,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<Tally, ScanError> {
    check_inputs(&inputs)?;
    // Files given are found first: where there is no sheet to read, no
    // folder, night or summary is made of nothing.
    let found = match &inputs {
        Inputs::Files(files) => {
            let mut found = input::collect(files);
            // A folder read into itself holds this scan's own results.
            found.passed_over.retain(|(p, _)| !own_output(p, run.out));
            for (path, why) in &found.passed_over {
                progress(Progress::PassedOver(path, why));
            }
            if found.files.is_empty() {
                return Err(ScanError::NothingToRead);
            }
            Some(found)
        }
        Inputs::Watch { .. } => None,
    };
    let out = run.out;
    std::fs::create_dir_all(out).map_err(|e| ScanError::CreateFolder(out.into(), e))?;
    let _only_scan_here = FolderLock::take(out, || progress(Progress::Waiting))
        .map_err(|e| ScanError::HoldFolder(out.into(), e))?;
    let mut forms = run.forms.to_vec();
    let archive = match &run.archive {
        Some(a) => {
            let (db, night) = open_night(a.file, a.name, a.date, out, &run.rules.id)?;
            let mut kept = db.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(list) = run.participants {
                kept.keep_names(night, list.names())?;
            }
            kept.keep_forms(night, run.forms)?;
            if run.with_kept_forms {
                forms = with_kept(&forms, kept.forms_of(night)?);
            }
            drop(kept);
            Some((db, night))
        }
        None => None,
    };
    // The night's own game's forms first: a page on one of them ends the
    // search there, before the other game's forms are fitted to it.
    forms.sort_by_key(|f| f.game != run.rules.family.id());
    let batch = Batch {
        forms: &forms,
        rules: run.rules,
        reader: run.reader,
        lang: run.lang,
        out,
        reread: run.archive.as_ref().is_some_and(|a| a.reread),
        archive,
        participants: run.participants,
    };
    let read = match (inputs, found) {
        (Inputs::Watch { dir, stop }, _) => watch(&batch, dir, out, stop, progress)?,
        (Inputs::Files(_), found) => read_files(&batch, found.unwrap_or_default(), out, progress)?,
    };
    let tally = Tally::of(read, run.lang);
    for (file, why) in &tally.failed {
        progress(Progress::Failed(file, why));
    }
    tally
        .write_summary(out)
        .map_err(|e| ScanError::Summary(out.join("summary.csv"), e))?;
    Ok(tally)
}

/// Whether `path` is a file a scan writes into `out`: a result, the
/// summary, the archive and its journal, a file being written.
fn own_output(path: &Path, out: &Path) -> bool {
    let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    };
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let ours = name.ends_with(".json")
        || name == "summary.csv"
        || name.starts_with("aufsicht.sqlite")
        || name.starts_with('.');
    ours && path.parent().is_some_and(|dir| same(dir, out))
}

/// Every input given is there, and a watched folder is a folder.
fn check_inputs(inputs: &Inputs) -> Result<(), ScanError> {
    let given: Vec<&Path> = match inputs {
        Inputs::Files(files) => files.iter().map(PathBuf::as_path).collect(),
        Inputs::Watch { dir, .. } => vec![dir],
    };
    for input in given {
        if std::fs::symlink_metadata(input).is_err() {
            return Err(ScanError::InputMissing(input.into()));
        }
    }
    match inputs {
        Inputs::Watch { dir, .. } if !dir.is_dir() => Err(ScanError::WatchNotFolder(dir.into())),
        _ => Ok(()),
    }
}

/// The output folder held for this run: a second scan into it waits, so
/// the two never hand out one result name twice. Let go when dropped.
struct FolderLock(#[allow(dead_code)] std::fs::File);

impl FolderLock {
    /// Holds `out`; where another run holds it, `waiting` is called and
    /// this waits for it.
    fn take(out: &Path, waiting: impl FnOnce()) -> std::io::Result<FolderLock> {
        let file = std::fs::File::create(out.join(".aufsicht-scan.lock"))?;
        if file.try_lock().is_err() {
            waiting();
            file.lock()?;
        }
        Ok(FolderLock(file))
    }
}

/// The night's archive for a scan: `file` (default: `aufsicht.sqlite` in
/// `out`), its night named `name` (default: the name of `out`), dated
/// where `date` is given.
fn open_night(
    file: Option<&Path>,
    name: Option<&str>,
    date: Option<chrono::NaiveDate>,
    out: &Path,
    rules: &str,
) -> Result<(Mutex<Archive>, i64), ArchiveError> {
    let file = file.map_or_else(|| out.join("aufsicht.sqlite"), Path::to_path_buf);
    let name = name.map_or_else(
        || {
            out.file_name()
                .map_or_else(|| "night".into(), |n| n.to_string_lossy().to_string())
        },
        str::to_string,
    );
    let db = Archive::open(&file)?;
    let id = db.tournament(&name, rules)?;
    if let Some(date) = date {
        db.date(id, date)?;
    }
    Ok((Mutex::new(db), id))
}

/// Each file's outcome, in the order of the jobs.
type Outcomes = Vec<Result<FileDone, BatchError>>;

/// What a scan read: the files with their result names, each one's
/// outcome, and what it passed over (with why).
#[derive(Default)]
struct Read {
    jobs: Vec<Job>,
    outcomes: Outcomes,
    passed_over: Vec<(PathBuf, PassedOver)>,
}

/// Reads the files found below the inputs (`input::collect`); `progress`
/// hears of what was passed over, how many were found, and each file read.
fn read_files(
    batch: &Batch,
    found: input::Found,
    out: &Path,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<Read, BatchError> {
    progress(Progress::Found(found.files.len()));
    let jobs = crate::night::batch::result_names::name_beside(&found.files, out);
    let outcomes = batch.run(&jobs, &|d| progress(Progress::Done(d)))?;
    Ok(Read {
        jobs,
        outcomes,
        passed_over: found.passed_over,
    })
}

/// How often a watched folder is looked at; a file is read once it has
/// kept its size over one look (the scanner has finished writing it).
const POLL: Duration = Duration::from_millis(400);

/// Size and time of last change of a file, as last seen.
type Seen = HashMap<PathBuf, (u64, Option<SystemTime>)>;

/// Reads each file as it settles in `dir`, a few at a time, until `stop`
/// is set (the files in hand are finished first). `progress` hears that
/// the folder is watched, of each file passed over (once), and of each
/// file read.
fn watch(
    batch: &Batch,
    dir: &Path,
    out: &Path,
    stop: &AtomicBool,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<Read, BatchError> {
    progress(Progress::Watching);
    let mut read = Read::default();
    let (mut seen, mut taken, mut told) = (Seen::new(), HashSet::new(), HashSet::new());
    let at_once = rayon::current_num_threads().max(1);
    while !stop.load(Ordering::SeqCst) {
        let found = input::collect(&[dir.to_path_buf()]);
        for (path, why) in found.passed_over {
            if told.insert(path.clone()) {
                progress(Progress::PassedOver(&path, &why));
                read.passed_over.push((path, why));
            }
        }
        let ready: Vec<PathBuf> = found
            .files
            .into_iter()
            .filter(|f| !taken.contains(f) && settled(f, &mut seen))
            .collect();
        // A few at a time, so that a stop waits for little.
        for files in ready.chunks(at_once) {
            if stop.load(Ordering::SeqCst) {
                break;
            }
            let jobs = crate::night::batch::result_names::name_beside(files, out);
            let outcomes = batch.run(&jobs, &|d| progress(Progress::Done(d)))?;
            taken.extend(files.iter().cloned());
            read.jobs.extend(jobs);
            read.outcomes.extend(outcomes);
        }
        pause(stop);
    }
    Ok(read)
}

/// Whether `file` has kept its size and time since the last look, and
/// has something in it.
fn settled(file: &Path, seen: &mut Seen) -> bool {
    let Ok(meta) = std::fs::metadata(file) else {
        return false;
    };
    let now = (meta.len(), meta.modified().ok());
    let before = seen.insert(file.to_path_buf(), now);
    now.0 > 0 && before == Some(now)
}

/// Waits one look's time, or less where a stop comes.
fn pause(stop: &AtomicBool) {
    let step = Duration::from_millis(50);
    let mut waited = Duration::ZERO;
    while waited < POLL && !stop.load(Ordering::SeqCst) {
        std::thread::sleep(step);
        waited += step;
    }
}

/// A scan's outcomes counted, with the summary's rows.
#[derive(Default)]
pub struct Tally {
    pub rows: Vec<Row>,
    pub ok: usize,
    pub flagged: usize,
    pub unreadable: usize,
    /// Files whose results could not be written or stored, with why.
    pub failed: Vec<(PathBuf, String)>,
    /// Files whose results came from the archive (read before).
    pub resumed: usize,
    /// Files read only in part, or passed over for a fault of their own.
    pub file_problems: usize,
}

impl Tally {
    /// Counts what `read` read; messages in `lang`.
    fn of(read: Read, lang: Lang) -> Tally {
        let mut t = Tally::default();
        for (job, outcome) in read.jobs.iter().zip(read.outcomes) {
            match outcome {
                Ok(done) => {
                    t.resumed += usize::from(done.from_archive);
                    t.file_problems += usize::from(done.file_problem);
                    for s in done.sheets {
                        match s.status {
                            Status::Ok => t.ok += 1,
                            Status::Flagged => t.flagged += 1,
                            Status::Unreadable => t.unreadable += 1,
                        }
                        t.rows.push(s.row);
                    }
                }
                Err(e) => {
                    t.rows.push(Row::passed_over(&job.file, e.tell(lang)));
                    t.failed.push((job.file.clone(), e.tell(lang)));
                }
            }
        }
        for (path, why) in &read.passed_over {
            t.file_problems += usize::from(why.is_failure());
            t.rows.push(Row::passed_over(path, why.text(lang)));
        }
        t
    }

    /// Merges the rows into `out`'s `summary.csv` (written whole).
    fn write_summary(&self, out: &Path) -> std::io::Result<PathBuf> {
        let summary = out.join("summary.csv");
        crate::night::batch::summary::write(&summary, &self.rows)?;
        Ok(summary)
    }
}
