//! Flags: findings for a person to look at. Data with a severity, never `Err`.

use serde::{Deserialize, Serialize};

use crate::sheet::lenient::{Lenient, read_lenient, typed};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Code {
    RowNotZeroSum,
    RowIllegalValues,
    RowSeatBoth,
    RowSeatEmpty,
    FirstGameRestricted,
    ToutNotInitialled,
    CorrectionNotInitialled,
    SoloNotCircled,
    CircleNotSolo,
    GesamtMismatch,
    AbzugMismatch,
    EndergebnisMismatch,
    EndergebnisNotZero,
    GameCount,
    PflichtsoloMissing,
    SignatureMissing,
    PlayerIdMissing,
    InkDiffers,
    CellUncertain,
    SheetUnreadable,
    /// The sheet's form is another game's than the night's rule set.
    WrongGame,
}

impl Code {
    /// Every code, in declaration order.
    pub const ALL: [Code; 21] = [
        Code::RowNotZeroSum,
        Code::RowIllegalValues,
        Code::RowSeatBoth,
        Code::RowSeatEmpty,
        Code::FirstGameRestricted,
        Code::ToutNotInitialled,
        Code::CorrectionNotInitialled,
        Code::SoloNotCircled,
        Code::CircleNotSolo,
        Code::GesamtMismatch,
        Code::AbzugMismatch,
        Code::EndergebnisMismatch,
        Code::EndergebnisNotZero,
        Code::GameCount,
        Code::PflichtsoloMissing,
        Code::SignatureMissing,
        Code::PlayerIdMissing,
        Code::InkDiffers,
        Code::CellUncertain,
        Code::SheetUnreadable,
        Code::WrongGame,
    ];

    /// The code's words for a person (`code-<CODE>` in the catalogue).
    pub fn word(self, lang: crate::check::messages::Lang) -> String {
        crate::catalogue::say(lang, &format!("code-{}", self.as_str()), &[])
    }

    pub fn severity(self) -> Severity {
        match self {
            Code::SoloNotCircled
            | Code::CircleNotSolo
            | Code::SignatureMissing
            | Code::PlayerIdMissing
            | Code::InkDiffers
            | Code::CellUncertain => Severity::Warning,
            _ => Severity::Error,
        }
    }

    /// Flags that come from reading the paper, not from the values: `verify`
    /// keeps them as they are instead of recomputing them.
    pub fn is_from_reading(self) -> bool {
        matches!(
            self,
            Code::CellUncertain | Code::InkDiffers | Code::SheetUnreadable | Code::WrongGame
        )
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Code::RowNotZeroSum => "ROW_NOT_ZERO_SUM",
            Code::RowIllegalValues => "ROW_ILLEGAL_VALUES",
            Code::RowSeatBoth => "ROW_SEAT_BOTH",
            Code::RowSeatEmpty => "ROW_SEAT_EMPTY",
            Code::FirstGameRestricted => "FIRST_GAME_RESTRICTED",
            Code::ToutNotInitialled => "TOUT_NOT_INITIALLED",
            Code::CorrectionNotInitialled => "CORRECTION_NOT_INITIALLED",
            Code::SoloNotCircled => "SOLO_NOT_CIRCLED",
            Code::CircleNotSolo => "CIRCLE_NOT_SOLO",
            Code::GesamtMismatch => "GESAMT_MISMATCH",
            Code::AbzugMismatch => "ABZUG_MISMATCH",
            Code::EndergebnisMismatch => "ENDERGEBNIS_MISMATCH",
            Code::EndergebnisNotZero => "ENDERGEBNIS_NOT_ZERO",
            Code::GameCount => "GAME_COUNT",
            Code::PflichtsoloMissing => "PFLICHTSOLO_MISSING",
            Code::SignatureMissing => "SIGNATURE_MISSING",
            Code::PlayerIdMissing => "PLAYER_ID_MISSING",
            Code::InkDiffers => "INK_DIFFERS",
            Code::CellUncertain => "CELL_UNCERTAIN",
            Code::SheetUnreadable => "SHEET_UNREADABLE",
            Code::WrongGame => "WRONG_GAME",
        }
    }
}

/// One finding. `row` is the printed game row, `seat` counts from 1.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Flag {
    pub code: Code,
    pub severity: Severity,
    pub row: Option<u32>,
    pub seat: Option<usize>,
    pub field: Option<String>,
    pub message: String,
    #[serde(flatten)]
    pub detail: FlagDetail,
    #[serde(flatten)]
    pub extra: serde_json::Map<String, serde_json::Value>,
}

/// A person's settling of a flag or a sheet: who, when.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Settled {
    pub by: String,
    pub at: String,
}

/// A reading flag's extra fields: what was read, how surely, and what
/// decoding or the participant list suggest instead. Read leniently and
/// declared in alphabetical order, as [`crate::sheet::notes`] explains.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct FlagDetail {
    /// Other readings with their probability, best first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub alternatives: Vec<(String, f64)>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub confidence: Option<f64>,
    /// The footer or Pflichtsolo flags this reading alone would explain,
    /// folded into its look (one look for one cause); the message says them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub consequences: Vec<Flag>,
    /// What the message says of the consequences, so that verifying again
    /// says it once.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub consequences_said: Option<String>,
    /// The row and column sums doubt a value read surely.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub doubted: bool,
    /// The rule flags of the sheet as read that one of the alternatives
    /// would clear: they follow from this reading.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub explains: Vec<Code>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub not_in_participant_list: bool,
    /// The text as read ("" where nothing could be read).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reading: Option<String>,
    /// The game rows whose reading could explain a footer value that
    /// disagrees with its column, best first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rows: Vec<u32>,
    /// A count of the Leitung settled this flag: who, when.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub settled: Option<Settled>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suggestion: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suggestion_probability: Option<f64>,
    /// The suggestion was so sure that the footer value holds it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub taken: bool,
    #[serde(flatten)]
    pub unparsed: serde_json::Map<String, serde_json::Value>,
}

impl Lenient for FlagDetail {
    const FIELDS: &'static [&'static str] = &[
        "alternatives",
        "confidence",
        "consequences",
        "consequences_said",
        "doubted",
        "explains",
        "not_in_participant_list",
        "reading",
        "rows",
        "settled",
        "suggestion",
        "suggestion_probability",
        "taken",
    ];
    fn put(&mut self, key: &str, value: serde_json::Value) -> Result<(), serde_json::Value> {
        match key {
            "alternatives" => self.alternatives = typed(value)?,
            "confidence" => self.confidence = typed(value)?,
            "consequences" => self.consequences = typed(value)?,
            "consequences_said" => self.consequences_said = typed(value)?,
            "doubted" => self.doubted = typed(value)?,
            "explains" => self.explains = typed(value)?,
            "not_in_participant_list" => self.not_in_participant_list = typed(value)?,
            "reading" => self.reading = typed(value)?,
            "rows" => self.rows = typed(value)?,
            "settled" => self.settled = typed(value)?,
            "suggestion" => self.suggestion = typed(value)?,
            "suggestion_probability" => self.suggestion_probability = typed(value)?,
            "taken" => self.taken = typed(value)?,
            _ => return Err(value),
        }
        Ok(())
    }
    fn unparsed(&mut self) -> &mut serde_json::Map<String, serde_json::Value> {
        &mut self.unparsed
    }
}

impl<'de> Deserialize<'de> for FlagDetail {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        read_lenient(d)
    }
}

/// Puts a sheet's flags in the order a person reads them: game rows
/// first, by row, then the footer and the sheet, by seat and code.
pub fn sort(flags: &mut [Flag]) {
    flags.sort_by_key(|f| (f.row.is_none(), f.row, f.seat, f.code));
}

impl Flag {
    /// True for an error, and for a look that carries one folded into it
    /// (`consequences`): the sheet needs a person either way.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error || self.detail.consequences.iter().any(Flag::is_error)
    }

    /// True when this flag names the given game cell (its row) for the
    /// contract's "pointed at" rule.
    pub fn points_at_row(&self, row: u32) -> bool {
        self.row == Some(row)
    }

    /// True when this flag names a footer value of the seat (seat set, row null).
    pub fn points_at_footer(&self, seat: usize) -> bool {
        self.row.is_none() && self.seat == Some(seat)
    }

    /// A `CELL_UNCERTAIN`'s suggested value and its probability, where
    /// decoding gave one.
    pub fn suggestion(&self) -> Option<(i64, f64)> {
        Some((self.detail.suggestion?, self.detail.suggestion_probability?))
    }

    /// True when both flags report the same finding at the same place: code,
    /// row, seat and field (a seat's Gesamt Plus and Minus are two findings).
    pub fn same_finding(&self, other: &Flag) -> bool {
        self.code == other.code
            && self.row == other.row
            && self.seat == other.seat
            && self.field == other.field
    }

    /// True when this flag names a sheet field outside the games by its
    /// name (`player_id` of a seat; `round` or `table` with no seat).
    pub fn points_at_field(&self, seat: Option<usize>, field: &str) -> bool {
        self.row.is_none() && self.seat == seat && self.field.as_deref() == Some(field)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::messages::Lang;

    #[test]
    fn every_code_should_have_its_words_in_both_languages() {
        for code in Code::ALL {
            for lang in [Lang::De, Lang::En] {
                let word = code.word(lang);
                assert!(
                    !word.starts_with("code-") && !word.is_empty(),
                    "{code:?}: {word}"
                );
            }
        }
        assert_eq!(Code::CellUncertain.word(Lang::De), "unsicher gelesen");
    }
}
