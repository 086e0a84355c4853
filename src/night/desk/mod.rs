//! The review: a sheet's [`edits`] at the desk, the supervisor's
//! [`powers`], and the night's [`review`] page.

pub mod edits;
pub mod powers;
pub mod review;
