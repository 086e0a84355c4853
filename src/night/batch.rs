//! A night's batch: input files → pages → [`scan_page`] → result files in
//! the output folder, the archive, and `summary.csv`, on all cores.
//!
//! Every input has its own result files ([`crate::night::result_names`]). Files
//! already in the archive (same image bytes) are not read again: a batch
//! killed midway resumes where it stopped. Result files are written whole
//! (temporary file, then rename): a kill never leaves half a JSON.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use rayon::prelude::*;

use crate::catalogue::{Tell, say};
use crate::check::messages::Lang;
use crate::check::rules::RuleSet;
use crate::night::archive::{Archive, sha256_file};
use crate::night::summary::Row;
use crate::page::form::FormTemplate;
use crate::page::input;
use crate::page::unreadable::{FileProblem, Unreadable};
use crate::read::{DigitReader, ReaderError, TesseractReader};
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

type Readers = (Box<dyn DigitReader + Send>, TesseractReader);

/// One thread's engines and the form it found last.
struct Worker {
    readers: Result<Readers, ReaderError>,
    form_hint: usize,
}

fn readers(kind: ReaderKind) -> Result<Readers, ReaderError> {
    let digits: Box<dyn DigitReader + Send> = match kind {
        ReaderKind::Cnn => Box::new(crate::read::cnn::CnnReader::new()?),
        ReaderKind::Tesseract => Box::new(TesseractReader::digits()?),
    };
    Ok((digits, TesseractReader::printed()?))
}

/// One input file of the batch and the base of its result files.
pub type Job = crate::night::result_names::Named;

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
    Write { path: String, problem: FileProblem },
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
    pub participants: Option<&'a crate::night::participants::Participants>,
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
        let pool = Mutex::new(vec![Worker {
            readers: Ok(first),
            form_hint: 0,
        }]);
        Ok(jobs
            .par_iter()
            .map(|job| {
                // Engines take a while to start (Tesseract's legacy model
                // most): one set per thread, reused across the batch, not one
                // per piece of work rayon splits off.
                let taken = pool.lock().unwrap_or_else(|e| e.into_inner()).pop();
                let mut worker = taken.unwrap_or_else(|| Worker {
                    readers: readers(self.reader),
                    form_hint: 0,
                });
                let out = self.file(&mut worker.readers, &mut worker.form_hint, job);
                pool.lock().unwrap_or_else(|e| e.into_inner()).push(worker);
                if let Ok(d) = &out {
                    done(d);
                }
                out
            })
            .collect())
    }

    /// One file. `form_hint` is the form this worker found last: a night's
    /// sheets are mostly one form, and it is tried first.
    fn file(
        &self,
        readers: &mut Result<Readers, ReaderError>,
        form_hint: &mut usize,
        job: &Job,
    ) -> Result<FileDone, BatchError> {
        let name = |page: u32| self.out.join(job.result_name(page));
        // An unreadable file has no hash; it is read (and reported) each time.
        let sha = sha256_file(&job.file).ok();
        if let (Some((archive, tournament)), Some(sha)) = (&self.archive, &sha) {
            let stored = lock(archive).find(*tournament, sha)?;
            if !stored.is_empty() {
                let mut sheets = Vec::new();
                for s in stored {
                    let path = name(s.page.unwrap_or(1));
                    write_whole(&path, &s)?;
                    sheets.push(SheetDone::of(&job.file, path, &s));
                }
                return Ok(FileDone {
                    file: job.file.clone(),
                    sheets,
                    from_archive: true,
                    file_problem: false,
                });
            }
        }
        let (digits, printed) = readers
            .as_mut()
            .map_err(|e| BatchError::Readers(e.clone()))?;
        let mut sheets = Vec::new();
        // Each page's result, for the archive: one file's pages at a time.
        let mut pages: Vec<(String, SheetResult)> = Vec::new();
        let mut bug = false;
        let mut file_problem = false;
        for page in input::load(&job.file) {
            file_problem |= page.image.as_ref().is_err_and(Unreadable::is_file_problem);
            let forms: std::borrow::Cow<[FormTemplate]> = match *form_hint {
                0 => self.forms.into(),
                i => {
                    let mut v = self.forms.to_vec();
                    let end = (i + 1).min(v.len());
                    v[..end].rotate_right(1);
                    v.into()
                }
            };
            let seats = forms.first().map_or(4, |f| f.seats);
            let (mut result, failed) = guarded(&page, seats, self.lang, || {
                scan_page(
                    &page,
                    &forms,
                    self.rules,
                    digits.as_mut(),
                    printed,
                    self.lang,
                )
            });
            // Not archived: a mended version reads the file again.
            bug |= failed;
            if let Some(list) = self.participants {
                list.check(&mut result, self.lang);
            }
            if let Some(i) = self
                .forms
                .iter()
                .position(|f| result.form.as_deref() == Some(f.id.as_str()))
            {
                *form_hint = i;
            }
            let path = name(page.number);
            write_whole(&path, &result)?;
            sheets.push(SheetDone::of(&job.file, path.clone(), &result));
            pages.push((file_name(&path), result));
        }
        if let (Some((archive, tournament)), Some(sha), false) = (&self.archive, &sha, bug) {
            lock(archive).store_file(*tournament, sha, &pages)?;
        }
        Ok(FileDone {
            file: job.file.clone(),
            sheets,
            from_archive: false,
            file_problem,
        })
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
