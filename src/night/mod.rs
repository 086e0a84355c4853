//! The night: the batch over all inputs ([`batch`], result names unique by
//! construction in [`result_names`], files written whole by [`files`],
//! [`summary`]) and its driving from start to end ([`scan_run`]: the
//! folder held, the archive opened, files given or watched, the summary), the SQLite [`archive`], the night's [`participants`] from its [`roster`], the
//! [`standings`] (one [`ranking`] for every place that shows it), and the [`review`] page.

pub mod archive;
pub mod audit;
pub mod audit_page;
pub mod batch;
pub mod checks;
pub mod copies;
pub mod desk;
pub mod draw;
pub mod evidence;
pub mod files;
pub mod hall;
pub mod names;
pub mod participants;
pub mod powers;
pub mod ranking;
pub mod result_names;
pub mod review;
pub mod roster;
pub mod scan_run;
pub mod season;
pub mod seated;
pub mod seating;
pub mod standings;
pub mod summary;
