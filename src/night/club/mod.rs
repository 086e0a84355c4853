//! The club's memory: the SQLite [`archive`] of every night (its store,
//! scans, migrations, check and backup), the [`season`], a complaint's
//! [`audit`] (and its page, [`audit_page`]) and the [`evidence`]: the scan
//! a result was read from, and no other; the Schreiber's ledger as a page
//! ([`writers_page`]).

pub mod archive;
pub mod audit;
pub mod audit_page;
pub mod evidence;
pub mod season;
pub mod writers_page;
