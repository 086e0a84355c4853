//! The review: the night's [`review`] page. The desk's powers are
//! decisions of the night's record ([`crate::record`]).

pub mod questions;
pub mod review;
pub mod sent;
