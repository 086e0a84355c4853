//! aufsicht: reads and checks the score sheets of Schafkopf and Doppelkopf
//! tournaments.
//!
//! The pipeline, stage by stage (each a module, each passing one type on):
//!
//! ```text
//! SheetResult (typed, or read from a scan)  --verify(RuleSet)-->  SheetResult with flags
//! ```
//!
//! Reading scans (`Scan` → `AlignedSheet` → `CellReadings`) comes in front
//! of `verify`; standings and the archive come after it.

pub mod classify;
pub mod error;
pub mod flags;
pub mod messages;
pub mod rules;
pub mod sheet;
pub mod verify;

pub use error::{SheetError, TemplateError};
pub use flags::{Code, Flag, Severity};
pub use messages::Lang;
pub use rules::RuleSet;
pub use sheet::{SheetResult, Status};
pub use verify::verify;
pub mod align;
pub mod cells;
pub mod cnn;
pub mod evaluate;
pub mod form;
pub mod geometry;
pub mod input;
pub mod read;
pub mod render;
pub mod scan;
pub mod synth;
