//! The check: a sheet's values against the tournament's rules. Rule sets
//! as data ([`rules`]), rows matched to the tariff ([`classify`]), every
//! flag raised ([`verify`]), flags as data ([`flags`]) with their sentences
//! in the supervisor's language ([`messages`]).

pub mod as_read;
pub mod classify;
pub mod flags;
pub mod messages;
mod one_look;
mod rows_named;
pub mod rules;
pub mod verify;
