//! The page: files to page images ([`input`], bounded, with the reason a
//! page is [`unreadable`]), the form templates ([`form`]) and their
//! rendering ([`render`]) and why one cannot be used ([`template_error`]), the form's grid found on the image
//! ([`align`], with the [`geometry`] it fits), and a printed sheet's
//! [`code`], and a colour scan's colour beside its grey ([`chroma`]);
//! the pieces of a mask ([`label`]).

pub mod align;
pub mod chroma;
pub mod code;
pub mod form;
pub mod geometry;
pub mod input;
pub mod label;
pub mod render;
pub mod template_error;
pub mod unreadable;
