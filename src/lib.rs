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
//!      ──night::participants (the night's list, when given)──▶ participant numbers checked
//! ```
//!
//! What a stage adds beside the contract's values (readings, marks, the
//! alignment, a flag's alternatives and suggestion) is typed in
//! `sheet::notes` and `check::flags::FlagDetail`.
//!
//! `scan::scan_page` runs a page through all of it. The night:
//!
//! ```text
//! files ──night::batch (all cores)──▶ result files + summary.csv ──night::archive──▶ SQLite
//! [SheetResult] ──night::standings──▶ ranking + night checks
//! [SheetResult] + scans ──night::review──▶ one HTML page (crops, edits → corrected JSON)
//! ```
//!
//! Rule sets (`check::rules`), form templates (`page::form`) and every
//! word the product says (`catalogue`) are data under `templates/`. `lab`
//! makes test sheets and measures the pipeline on them; the product does
//! not call into it.

pub mod catalogue;
pub mod error;
pub mod sheet;

pub mod page;

pub mod cells;
pub mod read;

pub mod decode;
pub mod scan;

pub mod check;

pub mod night;

pub mod lab;

pub use check::flags::{Code, Flag, Severity};
pub use check::messages::Lang;
pub use check::rules::RuleSet;
pub use check::verify::verify;
pub use error::{ArchiveError, ParticipantsError, SheetError, TemplateError};
pub use sheet::{SheetResult, Status};

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("src").flatten() {
            let path = entry.path();
            if path.is_dir() {
                rust_files(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }

    /// The lab depends on the product, never the other way round: outside
    /// `lab/` only the CLI's developer commands name it.
    #[test]
    fn the_product_should_not_import_the_lab() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let developer_commands = ["generate.rs", "train.rs", "evaluate.rs"];
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        assert!(files.len() > 40, "{files:?}");
        // Spelled in pieces so that this file does not name it.
        let needles = [["crate", "::lab"].concat(), ["aufsicht", "::lab"].concat()];
        let importing: Vec<&PathBuf> = files
            .iter()
            .filter(|f| !f.starts_with(src.join("lab")))
            .filter(|f| {
                !(f.starts_with(src.join("bin"))
                    && developer_commands.iter().any(|c| f.ends_with(c)))
            })
            .filter(|f| {
                let text = std::fs::read_to_string(f).expect("source");
                needles.iter().any(|n| text.contains(n.as_str()))
            })
            .collect();
        assert!(importing.is_empty(), "{importing:?}");
    }
}
