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

use crate::catalogue::Tell;
use crate::check::messages::Lang;
use crate::error::ArchiveError;
use crate::night::club::archive::Archive;
use crate::night::batch::{Batch, BatchError, FileDone, Job};
use crate::night::batch::summary::Row;
use crate::page::input::{self, PassedOver};
use crate::sheet::Status;

/// The output folder held for this run: a second scan into it waits, so
/// the two never hand out one result name twice. Let go when dropped.
pub struct FolderLock(#[allow(dead_code)] std::fs::File);

impl FolderLock {
    /// Holds `out`; where another run holds it, `waiting` is called and
    /// this waits for it.
    pub fn take(out: &Path, waiting: impl FnOnce()) -> std::io::Result<FolderLock> {
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
pub fn open_night(
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
pub type Outcomes = Vec<Result<FileDone, BatchError>>;

/// What a scan read: the files with their result names, each one's
/// outcome, and what it passed over (with why).
#[derive(Default)]
pub struct Read {
    pub jobs: Vec<Job>,
    pub outcomes: Outcomes,
    pub passed_over: Vec<(PathBuf, PassedOver)>,
}

/// Reads the files found below the inputs (`input::collect`); `done`
/// hears of each file read.
pub fn read_files(
    batch: &Batch,
    found: input::Found,
    out: &Path,
    done: &(dyn Fn(&FileDone) + Sync),
) -> Result<Read, BatchError> {
    let jobs = crate::night::batch::result_names::name_beside(&found.files, out);
    let outcomes = batch.run(&jobs, done)?;
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
/// is set (the files in hand are finished first). `passed` hears of each
/// file passed over, once; `done` of each file read.
pub fn watch(
    batch: &Batch,
    dir: &Path,
    out: &Path,
    stop: &AtomicBool,
    passed: &dyn Fn(&Path, &PassedOver),
    done: &(dyn Fn(&FileDone) + Sync),
) -> Result<Read, BatchError> {
    let mut read = Read::default();
    let (mut seen, mut taken, mut told) = (Seen::new(), HashSet::new(), HashSet::new());
    let at_once = rayon::current_num_threads().max(1);
    while !stop.load(Ordering::SeqCst) {
        let found = input::collect(&[dir.to_path_buf()]);
        for (path, why) in found.passed_over {
            if told.insert(path.clone()) {
                passed(&path, &why);
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
            let outcomes = batch.run(&jobs, done)?;
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
    pub fn of(read: Read, lang: Lang) -> Tally {
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
    pub fn write_summary(&self, out: &Path) -> std::io::Result<PathBuf> {
        let summary = out.join("summary.csv");
        crate::night::batch::summary::write(&summary, &self.rows)?;
        Ok(summary)
    }
}
