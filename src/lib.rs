//! aufsicht: reads and checks the score sheets of Schafkopf and Doppelkopf
//! tournaments.
//!
//! The pipeline, one module per stage, each passing one type on:
//!
//! ```text
//! file ──input──▶ Page (image) ──scan::locate / align──▶ AlignedSheet
//!      ──cells + read (DigitReader: cnn, Tesseract)──▶ SheetResult (values as read) + CellReadings
//!      ──decode (legal rows, column sums)──▶ SheetResult (uncertain cells confirmed or flagged)
//!      ──verify (rules, classify)──▶ SheetResult with flags (those only an uncertain
//!        reading causes kept aside: `verify::AS_READ_ONLY`)
//!      ──where a flag stands, a second look (a solo's ring; a ring read as drawn;
//!        the reader's second net on the flagged footer and rows), then decode
//!        and verify again
//!      ──participants (the night's list, when given)──▶ participant numbers checked
//! ```
//!
//! `scan::scan_page` runs a page through all of it. The night:
//!
//! ```text
//! files ──batch (all cores)──▶ result files + summary.csv ──archive──▶ SQLite (values, flags, corrections)
//! [SheetResult] ──standings──▶ ranking + night checks
//! [SheetResult] + scans ──review──▶ one HTML page (crops, edits → corrected JSON)
//! ```
//!
//! Rule sets (`rules`) and form templates (`form`) are data under
//! `templates/`. `synth`, `render` and `evaluate` make test sheets and
//! measure the pipeline on them.

pub mod catalogue;
pub mod error;
pub mod files;
pub mod flags;
pub mod messages;
pub mod sheet;

pub mod form;
pub mod rules;

pub mod align;
pub mod cells;
pub mod classify;
pub mod cnn;
pub mod decode;
pub mod geometry;
pub mod input;
pub mod participants;
pub mod read;
pub mod scan;
pub mod unreadable;
pub mod verify;

pub mod archive;
pub mod batch;
pub mod result_names;
pub mod review;
pub mod standings;
pub mod summary;

pub mod evaluate;
pub mod harvest;
pub mod render;
pub mod synth;

pub use error::{ArchiveError, ParticipantsError, SheetError, TemplateError};
pub use flags::{Code, Flag, Severity};
pub use messages::Lang;
pub use rules::RuleSet;
pub use sheet::{SheetResult, Status};
pub use verify::verify;
