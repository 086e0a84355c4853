//! A night's batch: input files → pages → [`scan_page`] → result files in
//! the output folder, the archive, and `summary.csv`, on all cores.
//!
//! Every input has its own result files ([`result_names`]). Files
//! already in the archive (same image bytes) are not read again: a batch
//! killed midway resumes where it stopped. Result files are written whole
//! (temporary file, then rename): a kill never leaves half a JSON.

pub mod result_names;
pub mod run;
pub mod summary;

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use rayon::prelude::*;

use crate::catalogue::{Tell, say};
use crate::check::messages::Lang;
use crate::check::rules::RuleSet;
use crate::night::batch::summary::Row;
use crate::night::club::archive::{Archive, sha256_file};
use crate::page::form::FormTemplate;
use crate::page::input;
use crate::page::unreadable::{FileProblem, Unreadable};
use crate::read::{DigitReader, PrintReader, ReaderError};
use crate::scan::scan_page;
use crate::sheet::{SheetResult, Status};

/// Which reader reads the handwritten digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReaderKind {
    /// The trained digit model.
    Cnn,
    /// Tesseract's legacy engine with a digit whitelist.
    Tesseract,
}

impl ReaderKind {
    /// The names a user gives them (`--reader`).
    pub const NAMES: [&str; 2] = ["cnn", "tesseract"];
}

impl std::str::FromStr for ReaderKind {
    type Err = String;

    fn from_str(name: &str) -> Result<ReaderKind, String> {
        match name {
            "cnn" => Ok(ReaderKind::Cnn),
            "tesseract" => Ok(ReaderKind::Tesseract),
            other => Err(other.to_string()),
        }
    }
}

type Readers = (Box<dyn DigitReader + Send>, Box<dyn PrintReader + Send>);

/// One thread's engines and the form it found last.
struct Worker {
    readers: Result<Readers, ReaderError>,
    form_hint: usize,
}

fn readers(kind: ReaderKind) -> Result<Readers, ReaderError> {
    let digits: Box<dyn DigitReader + Send> = match kind {
        ReaderKind::Cnn => Box::new(crate::read::cnn::CnnReader::new()?),
        ReaderKind::Tesseract => crate::read::tesseract_digits()?,
    };
    Ok((digits, crate::read::print_reader()?))
}

/// One input file of the batch and the base of its result files.
pub type Job = crate::night::batch::result_names::Named;

/// What became of one input file. The results themselves are on disk
/// (and in the archive): a batch of any size keeps only these lines.
#[derive(Debug)]
pub struct FileDone {
    pub file: PathBuf,
    /// Per page: its result file, status and summary line.
    pub sheets: Vec<SheetDone>,
    /// Taken from the archive instead of read again.
    pub from_archive: bool,
    /// The file could not be read from the disk (its result says why).
    pub file_problem: bool,
}

impl FileDone {
    /// How many of its pages need a person (flagged or unreadable).
    pub fn flagged(&self) -> usize {
        self.sheets
            .iter()
            .filter(|s| s.status != crate::sheet::Status::Ok)
            .count()
    }
}

/// One page's result, as the run's summary needs it.
#[derive(Debug)]
pub struct SheetDone {
    pub path: PathBuf,
    pub status: Status,
    pub row: Row,
}

impl SheetDone {
    fn of(file: &Path, path: PathBuf, sheet: &SheetResult) -> Self {
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let row = Row::sheet(file, &name, sheet);
        SheetDone {
            status: sheet.status,
            row,
            path,
        }
    }
}

#[derive(Debug, thiserror::Error)]
#[error("{}", self.tell(Lang::En))]
pub enum BatchError {
    Readers(ReaderError),
    Write {
        path: String,
        problem: FileProblem,
    },
    /// The file could not be read to hash it: no result, no archive row.
    Hash {
        path: String,
        problem: FileProblem,
    },
    Archive(#[from] crate::error::ArchiveError),
}

impl Tell for BatchError {
    fn tell(&self, lang: Lang) -> String {
        match self {
            BatchError::Readers(e) => say(lang, "batch-readers", &[("message", &e.tell(lang))]),
            BatchError::Write { path, problem } => say(
                lang,
                "batch-write",
                &[("path", path), ("problem", &problem.text(lang))],
            ),
            BatchError::Hash { path, problem } => say(
                lang,
                "batch-hash",
                &[("path", path), ("problem", &problem.text(lang))],
            ),
            BatchError::Archive(e) => e.tell(lang),
        }
    }
}

/// The batch's settings.
pub struct Batch<'a> {
    pub forms: &'a [FormTemplate],
    pub rules: &'a RuleSet,
    pub reader: ReaderKind,
    pub lang: Lang,
    pub out: &'a Path,
    /// The archive and the tournament's id in it.
    pub archive: Option<(Mutex<Archive>, i64)>,
    /// The night's registered participant numbers, when known.
    pub participants: Option<&'a crate::night::tournament::participants::Participants>,
    /// Files the archive holds are read again, a new reading of each of
    /// their sheets ([`Archive::reread`]); otherwise what it holds is taken.
    pub reread: bool,
}

impl Batch<'_> {
    /// Runs every job on all cores; `done` is called as each file finishes
    /// (for progress). A file that fails to write is an `Err` for that file
    /// only: the rest of the batch goes on.
    pub fn run(
        &self,
        jobs: &[Job],
        done: &(dyn Fn(&FileDone) + Sync),
    ) -> Result<Vec<Result<FileDone, BatchError>>, BatchError> {
        // Fail early, once, when the readers cannot be made at all; that
        // first set is the pool's first worker.
        let first = readers(self.reader).map_err(BatchError::Readers)?;
        let pool = Pool(Mutex::new(vec![Worker {
            readers: Ok(first),
            form_hint: 0,
        }]));
        Ok(jobs
            .par_iter()
            .map(|job| {
                let out = self.file(&pool, job);
                if let Ok(d) = &out {
                    done(d);
                }
                out
            })
            .collect())
    }

    /// One file, its pages on all cores (a scanner's PDF may hold the whole
    /// night). Pages are decoded one at a time as a core is free for one.
    fn file(&self, pool: &Pool, job: &Job) -> Result<FileDone, BatchError> {
        // Every result names the bytes it was read from; a file that
        // cannot even be read to be hashed is that file's error.
        let sha = sha256_file(&job.file).map_err(|e| BatchError::Hash {
            path: job.file.display().to_string(),
            problem: FileProblem::from(&e),
        })?;
        if let Some((archive, tournament)) = &self.archive {
            let stored = lock(archive).find(*tournament, &sha)?;
            if !stored.is_empty() && !self.reread {
                return self.stored(job, stored, &sha);
            }
        }
        let mut read: Vec<PageDone> = input::load(&job.file)
            .par_bridge()
            .map(|page| pool.with(self.reader, |worker| self.page(worker, job, &page, &sha)))
            .collect::<Result<_, _>>()?;
        read.sort_by_key(|p| p.number);
        let bug = read.iter().any(|p| p.bug);
        let file_problem = read.iter().any(|p| p.file_problem);
        let mut sheets = Vec::new();
        // Each page's result, for the archive: one file's pages at a time.
        let mut pages: Vec<(String, SheetResult)> = Vec::new();
        for p in read {
            sheets.push(SheetDone::of(&job.file, p.path.clone(), &p.result));
            pages.push((file_name(&p.path), p.result));
        }
        if let (Some((archive, tournament)), false) = (&self.archive, bug) {
            let mut archive = lock(archive);
            if self.reread {
                let check = |sheet| self.check(sheet);
                archive.reread(*tournament, &sha, Some(&job.file), &pages, &check)?;
            } else {
                archive.store_file(*tournament, &sha, Some(&job.file), &pages)?;
            }
        }
        Ok(FileDone {
            file: job.file.clone(),
            sheets,
            from_archive: false,
            file_problem,
        })
    }

    /// A sheet checked again as this batch checks what it reads: the
    /// night's rules, and its list where it has one.
    fn check(&self, sheet: SheetResult) -> Result<SheetResult, crate::error::SheetError> {
        let mut checked = crate::check::verify::verify(sheet, self.rules, self.lang)?;
        if let Some(list) = self.participants {
            list.check(&mut checked, self.lang);
        }
        Ok(checked)
    }

    /// A file read before: its stored results written out again.
    fn stored(
        &self,
        job: &Job,
        stored: Vec<SheetResult>,
        sha: &str,
    ) -> Result<FileDone, BatchError> {
        let mut sheets = Vec::new();
        for mut s in stored {
            s.notes.source_sha256 = Some(sha.to_string());
            let path = self.out.join(job.result_name(s.page.unwrap_or(1)));
            write_whole(&path, &s)?;
            sheets.push(SheetDone::of(&job.file, path, &s));
        }
        Ok(FileDone {
            file: job.file.clone(),
            sheets,
            from_archive: true,
            file_problem: false,
        })
    }

    /// One page read with `worker`'s engines and its result file written.
    /// The worker's form hint (the form it found last: a night's sheets
    /// are mostly one form) is tried first.
    fn page(
        &self,
        worker: &mut Worker,
        job: &Job,
        page: &input::Page,
        sha: &str,
    ) -> Result<PageDone, BatchError> {
        let file_problem = page.image.as_ref().is_err_and(Unreadable::is_file_problem);
        let (digits, printed) = worker
            .readers
            .as_mut()
            .map_err(|e| BatchError::Readers(e.clone()))?;
        let forms: std::borrow::Cow<[FormTemplate]> = match worker.form_hint {
            0 => self.forms.into(),
            i => {
                let mut v = self.forms.to_vec();
                let end = (i + 1).min(v.len());
                v[..end].rotate_right(1);
                v.into()
            }
        };
        let seats = forms.first().map_or(4, |f| f.seats);
        let (mut result, bug) = guarded(page, seats, self.lang, || {
            scan_page(
                page,
                &forms,
                self.rules,
                digits.as_mut(),
                printed.as_mut(),
                self.lang,
            )
        });
        if let Some(list) = self.participants {
            list.check(&mut result, self.lang);
        }
        result.notes.source_sha256 = Some(sha.to_string());
        if let Some(i) = self
            .forms
            .iter()
            .position(|f| result.form.as_deref() == Some(f.id.as_str()))
        {
            worker.form_hint = i;
        }
        let path = self.out.join(job.result_name(page.number));
        write_whole(&path, &result)?;
        Ok(PageDone {
            number: page.number,
            path,
            result,
            // Not archived: a mended version reads the file again.
            bug,
            file_problem,
        })
    }
}

/// One page read, its result written.
struct PageDone {
    number: u32,
    path: PathBuf,
    result: SheetResult,
    /// Reading it panicked.
    bug: bool,
    file_problem: bool,
}

/// The threads' engines. Engines take a while to start (Tesseract's legacy
/// model most): one set per thread, reused across the batch, not one per
/// piece of work rayon splits off.
struct Pool(Mutex<Vec<Worker>>);

impl Pool {
    /// `work` done with a worker from the pool (a new one where none is free).
    fn with<T>(&self, kind: ReaderKind, work: impl FnOnce(&mut Worker) -> T) -> T {
        let taken = self.0.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let mut worker = taken.unwrap_or_else(|| Worker {
            readers: readers(kind),
            form_hint: 0,
        });
        let out = work(&mut worker);
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(worker);
        out
    }
}

/// A page's `scan`, where a panic (a bug in reading) makes that page
/// unreadable, saying so, instead of ending the whole batch; true when it did.
fn guarded(
    page: &input::Page,
    seats: usize,
    lang: Lang,
    scan: impl FnOnce() -> SheetResult,
) -> (SheetResult, bool) {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(scan)) {
        Ok(result) => (result, false),
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            let why = Unreadable::Internal(what);
            let source = page.source.display().to_string();
            (
                crate::scan::unreadable(&source, page.number, seats, &why, lang),
                true,
            )
        }
    }
}

fn lock(archive: &Mutex<Archive>) -> std::sync::MutexGuard<'_, Archive> {
    // A panic elsewhere cannot leave the archive half-written (transactions): go on.
    archive.lock().unwrap_or_else(|e| e.into_inner())
}

/// Writes the result under a temporary name, then renames it into place.
fn write_whole(path: &Path, sheet: &SheetResult) -> Result<(), BatchError> {
    let json = sheet.to_json_pretty() + "\n";
    crate::night::files::write_whole(path, json.as_bytes()).map_err(|e| BatchError::Write {
        path: path.display().to_string(),
        problem: FileProblem::from(&e),
    })
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page() -> input::Page {
        input::Page {
            source: PathBuf::from("night/table-7.png"),
            number: 1,
            multi: false,
            image: Ok(image::GrayImage::new(1, 1)),
            chroma: None,
        }
    }

    #[test]
    fn a_page_whose_reading_panics_should_be_unreadable_and_the_batch_go_on() {
        let (sheet, failed) = guarded(&page(), 4, Lang::En, || panic!("index out of bounds"));
        assert!(failed);
        assert_eq!(sheet.status, crate::sheet::Status::Unreadable);
        assert_eq!(sheet.source.as_deref(), Some("night/table-7.png"));
        assert_eq!(sheet.players.len(), 4);
        let message = &sheet.flags[0].message;
        assert!(
            message.contains("internal error while reading (index out of bounds)"),
            "{message}"
        );
    }

    #[test]
    fn a_page_read_without_panic_should_be_its_reading() {
        let read = crate::scan::unreadable("x", 1, 5, &Unreadable::NoTable, Lang::En);
        let (sheet, failed) = guarded(&page(), 4, Lang::En, || read.clone());
        assert!(!failed);
        assert_eq!(sheet.players.len(), 5);
        assert_eq!(sheet.flags[0].message, read.flags[0].message);
    }
}
