//! The night as the organisers run it: the registered list ([`roster`],
//! checked on the sheets by [`participants`], naming players by [`names`]),
//! the [`draw`] and its [`seating`] (against the sheets: [`seated`]), the
//! [`hall`]'s papers, the [`standings`] (one [`ranking`] for every place
//! that shows it) and the night's [`checks`], among them sheets that
//! repeat each other ([`copies`]). Lists a club keeps in a spreadsheet are
//! read as Excel writes them ([`spreadsheet`]).

pub mod checks;
pub mod copies;
pub mod draw;
pub mod hall;
pub mod names;
pub mod participants;
pub mod ranking;
pub mod roster;
pub mod seated;
pub mod seating;
pub mod spreadsheet;
pub mod standings;
