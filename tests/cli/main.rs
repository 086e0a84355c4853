//! The integration tests, one binary: the command line as a user runs it,
//! and properties of the verifier on generated sheets.

mod common;

mod club;

mod desk;
mod desk_night;
mod draw;
mod form;
mod hostile;
mod night;
mod postgres;
mod properties;
mod questions;
mod review;
mod robust;
mod scan;
mod series;
mod standings;
mod verify;
mod watch;
mod writers;
