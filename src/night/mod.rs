//! The night and the club, in rooms:
//! - [`batch`]: a scan's run ([`batch::run`]: the folder held, the night's
//!   archive opened, files given or watched, tallied) over the batch on all
//!   cores, with result names unique by construction and `summary.csv`;
//! - [`tournament`]: the night as the organisers run it: the registered
//!   list, the draw and its seating, the hall's papers, the standings and
//!   the night's checks;
//! - [`club`]: the club's SQLite archive of every night, the season, a
//!   complaint's audit and the scans it shows;
//! - [`desk`]: the review page (the desk's powers are decisions of the
//!   night's record, [`crate::record`]);
//! - [`ledger`]: the Schreiber's ledger: whose points each footer error
//!   moved, and whose errors favour themselves beyond chance;
//! - [`files`]: files written whole, for all of them;
//! - [`table`]: a ranking's typed rows, for its CSV, JSON and pages.

pub mod batch;
pub mod club;
pub mod desk;
pub mod files;
pub mod ledger;
pub mod table;
pub mod tournament;
