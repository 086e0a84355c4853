//! What the pipeline writes beside the contract's fields: the readings,
//! marks and alignment a person and the review page look at.
//!
//! These are extra fields to other tools, which may write the same keys in
//! their own shapes. So each group reads leniently ([`super::lenient`]): a key
//! that fits its type is typed, one that does not stays as written, and a
//! round trip loses nothing. Fields are declared in alphabetical order, the
//! order their keys had when they were written from maps.

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

use super::lenient::{Lenient, read_lenient, typed};

use crate::cells::Mark;
use crate::check::flags::Flag;

/// A cell's extra fields.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct CellNotes {
    /// What the page showed in each column before reading.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub marks: Option<Marks>,
    /// How the Minus column's digits were read and ranked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub minus_reading: Option<CellReading>,
    /// How the Plus column's digits were read and ranked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plus_reading: Option<CellReading>,
    /// The ring was found only when looked for again.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub ring_second_look: bool,
    /// What looked like a ring read better as digits.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub ring_was_digits: bool,
    /// Of a corrected cell, the value struck out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub struck: Option<Struck>,
    #[serde(flatten)]
    pub unparsed: Map<String, Value>,
}

impl CellNotes {
    /// The reading of one column (`minus` or plus), where one was kept.
    pub fn reading(&self, minus: bool) -> Option<&CellReading> {
        if minus {
            self.minus_reading.as_ref()
        } else {
            self.plus_reading.as_ref()
        }
    }

    pub fn set_reading(&mut self, minus: bool, reading: CellReading) {
        *(if minus {
            &mut self.minus_reading
        } else {
            &mut self.plus_reading
        }) = Some(reading);
    }
}

impl Lenient for CellNotes {
    const FIELDS: &'static [&'static str] = &[
        "marks",
        "minus_reading",
        "plus_reading",
        "ring_second_look",
        "ring_was_digits",
        "struck",
    ];
    fn put(&mut self, key: &str, value: Value) -> Result<(), Value> {
        match key {
            "marks" => self.marks = typed(value)?,
            "minus_reading" => self.minus_reading = typed(value)?,
            "plus_reading" => self.plus_reading = typed(value)?,
            "ring_second_look" => self.ring_second_look = typed(value)?,
            "ring_was_digits" => self.ring_was_digits = typed(value)?,
            "struck" => self.struck = typed(value)?,
            _ => return Err(value),
        }
        Ok(())
    }
    fn unparsed(&mut self) -> &mut Map<String, Value> {
        &mut self.unparsed
    }
}

impl<'de> Deserialize<'de> for CellNotes {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        read_lenient(d)
    }
}

/// The value struck out of a corrected cell, in its column: `{"plus": N}`
/// or `{"minus": N}`, N null where it cannot be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Struck {
    pub minus: bool,
    pub value: Option<u32>,
}

impl Serialize for Struck {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(1))?;
        map.serialize_entry(if self.minus { "minus" } else { "plus" }, &self.value)?;
        map.end()
    }
}

impl<'de> Deserialize<'de> for Struck {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let map = std::collections::BTreeMap::<String, Option<u32>>::deserialize(d)?;
        match (map.len(), map.get("plus"), map.get("minus")) {
            (1, Some(&value), None) => Ok(Struck {
                minus: false,
                value,
            }),
            (1, None, Some(&value)) => Ok(Struck { minus: true, value }),
            _ => Err(serde::de::Error::custom(
                "struck: {\"plus\": N} or {\"minus\": N}",
            )),
        }
    }
}

/// What the page showed in a cell's two columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Marks {
    pub minus: Mark,
    pub plus: Mark,
}

/// What the reader saw in one column and how decoding ranked it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CellReading {
    /// Values with their probability, best first (at most four).
    pub alternatives: Vec<(i64, f64)>,
    pub confidence: f64,
    /// True where decoding took a value other than the one read.
    pub decoded: bool,
    /// The digits as read.
    pub read: String,
}

/// A sheet's extra fields.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct SheetNotes {
    /// Where the form lies on the image.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alignment: Option<Placement>,
    /// Rule flags that only the uncertain readings cause; a person sees
    /// them beside the cells (see [`crate::check::verify`]). Their keys
    /// are written sorted, as they always were.
    #[serde(skip_serializing_if = "Vec::is_empty", serialize_with = "sorted_keys")]
    pub flags_if_read_as_is: Vec<Flag>,
    /// The digit reader's name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reader: Option<String>,
    /// Round, table and players came from the sheet's printed code.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub printed: bool,
    /// The code of a printed sheet was not read; the round, table or
    /// numbers its print and the digit net agree on came from the print.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub numbers_from_print: bool,
    /// Game rows the supervisor initialled at the desk, as the paper's
    /// Aufs. box would be: a correction or a tout there is initialled.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub supervisor_initials: Vec<RowInitials>,
    /// Footer values the supervisor initialled at the desk.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub footer_initials: Vec<FooterInitials>,
    /// Flags the supervisor's initials accepted (a later edit in another
    /// pen, `INK_DIFFERS`): no longer open, kept with who and when; taking
    /// the initials back opens them again.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub accepted: Vec<Accepted>,
    /// The supervisor declared the sheet invalid: its players' points of
    /// its round count 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub void: Option<Void>,
    /// The supervisor settled that this sheet is a copy of another (the
    /// same paper scanned or photographed again): it leaves the count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub copy_of: Option<CopyOf>,
    /// The supervisor took the sheet out of the night: sent by mistake
    /// (a photo of something else, a retake). Kept, never counted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub discarded: Option<Void>,
    /// The supervisor settled that a sheet taken for another game's
    /// (`WRONG_GAME`) is the night's after all: the flag is accepted and
    /// the night's rules check it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game_confirmed: Option<Settled>,
    /// What the Leitung decided counts where the writer erred: the value
    /// written stays, the standings take the counted one.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub counts: Vec<Count>,
    /// The SHA-256 of the form template the sheet was read on (its JSON,
    /// [`crate::page::form::FormTemplate::content_sha256`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub form_sha256: Option<String>,
    /// The SHA-256 of the scan file the values were read from (hex): every
    /// crop a page shows is cut from the bytes with this hash, or from none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_sha256: Option<String>,
    #[serde(flatten)]
    pub unparsed: Map<String, Value>,
}

/// A game row the supervisor initialled: which, who, when.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RowInitials {
    pub row: u32,
    pub by: String,
    pub at: String,
}

/// A footer value the supervisor initialled: the seat (from 1), the
/// field (`plus` or `minus` of the Gesamt, `abzug`, `endergebnis`), who, when.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FooterInitials {
    pub seat: usize,
    pub field: String,
    pub by: String,
    pub at: String,
}

/// A flag the supervisor's initials accepted: the flag, who, when.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Accepted {
    pub flag: crate::check::flags::Flag,
    pub by: String,
    pub at: String,
}

/// A sheet settled as a copy: of which sheet (its archive id), who, when.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CopyOf {
    pub of: i64,
    pub by: String,
    pub at: String,
}

/// A value the Leitung counts instead of the one written: where (the
/// contract's path), what is written, what counts, who, when and why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Count {
    pub path: String,
    pub written: Value,
    pub value: Value,
    pub by: String,
    pub at: String,
    pub reason: String,
}

pub use crate::check::flags::Settled;

/// A sheet declared invalid: who, when, why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Void {
    pub by: String,
    pub at: String,
    pub reason: String,
}

impl Lenient for SheetNotes {
    const FIELDS: &'static [&'static str] = &[
        "alignment",
        "flags_if_read_as_is",
        "reader",
        "printed",
        "numbers_from_print",
        "supervisor_initials",
        "footer_initials",
        "accepted",
        "void",
        "copy_of",
        "discarded",
        "game_confirmed",
        "counts",
        "form_sha256",
        "source_sha256",
    ];
    fn put(&mut self, key: &str, value: Value) -> Result<(), Value> {
        match key {
            "alignment" => self.alignment = typed(value)?,
            "flags_if_read_as_is" => self.flags_if_read_as_is = typed(value)?,
            "reader" => self.reader = typed(value)?,
            "printed" => self.printed = typed(value)?,
            "numbers_from_print" => self.numbers_from_print = typed(value)?,
            "supervisor_initials" => self.supervisor_initials = typed(value)?,
            "footer_initials" => self.footer_initials = typed(value)?,
            "accepted" => self.accepted = typed(value)?,
            "void" => self.void = typed(value)?,
            "copy_of" => self.copy_of = typed(value)?,
            "discarded" => self.discarded = typed(value)?,
            "game_confirmed" => self.game_confirmed = typed(value)?,
            "counts" => self.counts = typed(value)?,
            "form_sha256" => self.form_sha256 = typed(value)?,
            "source_sha256" => self.source_sha256 = typed(value)?,
            _ => return Err(value),
        }
        Ok(())
    }
    fn unparsed(&mut self) -> &mut Map<String, Value> {
        &mut self.unparsed
    }
}

impl<'de> Deserialize<'de> for SheetNotes {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        read_lenient(d)
    }
}

/// `value` written as a JSON value: objects with their keys sorted.
fn sorted_keys<S: serde::Serializer, T: Serialize>(value: &T, s: S) -> Result<S::Ok, S::Error> {
    serde_json::to_value(value)
        .map_err(serde::ser::Error::custom)?
        .serialize(s)
}

/// Where the form lies on the image, as found by alignment.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Placement {
    pub fit: f64,
    pub quarter_turns: u8,
    pub residual_mm: f64,
    /// Printed row numbers the text reader confirmed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub row_numbers_read: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title_matches: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title_read: Option<String>,
    /// The header's lines or labels do not lie where the form puts them:
    /// its round, table and players were asked.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub header_off: bool,
    /// The form was found by its thick lines alone (a black-and-white scan
    /// lost the thin ones): `fit` is their share.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub thin_lines_lost: bool,
    /// Form mm → image px, a row-major 3×3 matrix: lets the review page cut
    /// cells without aligning again.
    pub to_image: Vec<f64>,
    pub upside_down: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sheet::Cell;

    #[test]
    fn a_note_in_a_foreign_shape_should_be_kept_as_written() {
        let text = r#"{"plus":3,"minus":null,"circled":false,"marks":"ink","ring_was_digits":true,"pen":"blue"}"#;
        let cell: Cell = serde_json::from_str(text).expect("cell");
        assert!(cell.notes.ring_was_digits);
        assert_eq!(cell.notes.marks, None);
        assert_eq!(cell.notes.unparsed["marks"], "ink");
        assert_eq!(cell.extra["pen"], "blue");
        let again: Value = serde_json::to_value(&cell).expect("json");
        assert_eq!(again["marks"], "ink");
        assert_eq!(again["pen"], "blue");
        assert_eq!(again["ring_was_digits"], true);
    }

    #[test]
    fn typed_notes_should_write_their_keys_in_alphabetical_order() {
        let mut cell = Cell::plus(3);
        cell.notes.set_reading(
            false,
            CellReading {
                alternatives: vec![(3, 1.0)],
                confidence: 1.0,
                decoded: false,
                read: "3".into(),
            },
        );
        cell.notes.marks = Some(Marks {
            minus: Mark::Empty,
            plus: Mark::Ink,
        });
        let text = serde_json::to_string(&cell).expect("json");
        assert_eq!(
            text,
            r#"{"plus":3,"minus":null,"circled":false,"marks":{"minus":"empty","plus":"ink"},"plus_reading":{"alternatives":[[3,1.0]],"confidence":1.0,"decoded":false,"read":"3"}}"#
        );
        let back: Cell = serde_json::from_str(&text).expect("cell");
        assert_eq!(back, cell);
    }
}
