//! aufsicht: reads and checks the score sheets of Schafkopf and Doppelkopf
//! tournaments.
//!
//! The tree is the pipeline, one folder or file per stage, each passing one
//! type on:
//!
//! ```text
//! file ──page::input──▶ Page (image) ──scan::locate / page::align──▶ AlignedSheet
//!      ──cells + read (DigitReader: read::cnn, Tesseract)──▶ SheetResult (values as read) + CellReadings
//!      ──decode (legal rows, column sums)──▶ SheetResult (uncertain cells confirmed or flagged)
//!      ──check::verify (check::rules, check::classify)──▶ SheetResult with flags (those
//!        only an uncertain reading causes kept aside in `notes.flags_if_read_as_is`)
//!      ──where a flag stands, a second look (a solo's ring; a ring read as drawn;
//!        the reader's second net on the flagged footer and rows), then decode
//!        and verify again
//!      ──night::tournament::participants (the night's list, when given)──▶ participant numbers checked
//! ```
//!
//! What a stage adds beside the contract's values (readings, marks, the
//! alignment, a flag's alternatives and suggestion) is typed in
//! `sheet::notes` and `check::flags::FlagDetail`.
//!
//! `scan::scan_page` runs a page through all of it. The night:
//!
//! ```text
//! files ──night::batch (all cores)──▶ result files + summary.csv ──night::club::archive──▶ SQLite
//! readings + decisions ──record::stand──▶ the sheet as it stands (kept beside them)
//! [SheetResult as it counts: record::stand::counted] ──night::tournament::standings──▶ ranking + night checks
//! [SheetResult] + scans ──night::desk::review──▶ one HTML page (crops, edits → corrected JSON)
//! ```
//!
//! Rule sets (`check::rules`), form templates (`page::form`) and every
//! word the product says (`catalogue`) are data under `templates/`. The
//! lab (its own crate, `lab/`) makes test sheets and measures the pipeline
//! on them; the product cannot call into it.

pub mod catalogue;
pub mod error;
pub mod sheet;

pub mod page;

pub mod learn;

pub mod cells;
pub mod read;

pub mod decode;
pub mod scan;

pub mod check;

pub mod record;

pub mod night;

pub mod html;

pub use check::flags::{Code, Flag, Severity};
pub use check::messages::Lang;
pub use check::rules::RuleSet;
pub use check::verify::verify;
pub use error::{ArchiveError, ParticipantsError, SheetError, TemplateError};
pub use sheet::{SheetResult, Status};

/// Every Rust file under `src/` with its text: for the tests that read
/// the code (what it imports, which messages it asks for).
#[cfg(test)]
pub(crate) fn source_files() -> Vec<(std::path::PathBuf, String)> {
    fn walk(dir: &std::path::Path, out: &mut Vec<(std::path::PathBuf, String)>) {
        for entry in std::fs::read_dir(dir).expect("src").flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).expect("source");
                out.push((path, text));
            }
        }
    }
    let mut out = Vec::new();
    walk(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut out,
    );
    out
}
