//! The night's record: what the paper says, what counts and the verdicts,
//! kept apart, and the sheet as it stands made from them by one function.
//!
//! For each sheet the archive keeps the machine's readings (the newest is
//! current) and the people's [`Decision`]s, each a [`Record`] with who and
//! when. Nothing is overwritten: taking a decision back is one more
//! record. [`stand::stand`] makes the sheet as it stands from the newest
//! reading and every record; the desk, the standings, the night's checks,
//! the ledger, the audit, the season and the export read that sheet.
//! A new power is one more kind of [`Decision`].
//!
//! - [`answer`]: a value set to what a person read on the paper;
//! - [`counts`]: whether a sheet counts in its night, and where;
//! - [`powers`]: initials and verdicts on a sheet;
//! - [`stand`]: the sheet as it stands, and as it counts;
//! - [`trail`]: what a record changed, line by line.

pub mod answer;
pub mod counts;
pub mod powers;
pub mod stand;
pub mod trail;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::{DecisionError, PowerError};
use crate::sheet::{SheetResult, ValuePath};

/// One decision of a person about one sheet, with who and when.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Record {
    pub by: String,
    pub at: String,
    #[serde(flatten)]
    pub decision: Decision,
}

/// What a person decided. Paths are the contract's (`games/3/2/plus`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Decision {
    /// What the paper says at `path` (the reading was wrong, or looked
    /// at and right).
    Paper { path: String, value: Value },
    /// What counts at `path` where the writer erred; the written value
    /// takes the decision back.
    Counts {
        path: String,
        value: Value,
        reason: String,
    },
    /// The Aufsicht's initials on a game row or a footer value.
    Initials {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        row: Option<u32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<usize>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        field: Option<String>,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        undo: bool,
    },
    /// The sheet declared invalid, or valid again.
    Void { void: bool, reason: String },
    /// The sheet is a copy of sheet `of`; `None` takes that back.
    Copy { of: Option<i64> },
    /// A sheet taken for another game's is the night's after all.
    Game { ours: bool },
    /// Something sent by mistake (a photo of something else, a dark
    /// retake) taken out of the night, or back in: kept, never counted.
    Discard { discard: bool, reason: String },
    /// The newest answer about `path` still standing is taken back: the
    /// value stands as it did before it (the reading, or an earlier
    /// answer), its doubt asked again.
    Withdraw { path: String },
}

impl Decision {
    /// The kind of the trail's lines this decision writes.
    pub fn kind(&self) -> trail::ChangeKind {
        use trail::ChangeKind;
        match self {
            Decision::Paper { .. } => ChangeKind::Paper,
            Decision::Counts { .. } => ChangeKind::Counts,
            Decision::Initials { .. } => ChangeKind::Initials,
            Decision::Void { .. } => ChangeKind::Void,
            Decision::Copy { .. } => ChangeKind::Copy,
            Decision::Game { .. } => ChangeKind::Game,
            Decision::Discard { .. } => ChangeKind::Discard,
            Decision::Withdraw { .. } => ChangeKind::Withdraw,
        }
    }

    /// Whether this decision can be taken on `sheet` (a path it has, a
    /// value of the path's kind, a row or footer field that is there, a
    /// reason for a void). A record that fails this is never stored.
    pub fn check(&self, sheet: &SheetResult) -> Result<(), DecisionError> {
        let mut probe = sheet.clone();
        apply(&mut probe, self, "", "", 0)
    }
}

/// Applies one decision to the sheet as the paper says it (counts are
/// gathered apart, by [`stand::stand`]); `itself` is the sheet's id.
pub(crate) fn apply(
    sheet: &mut SheetResult,
    decision: &Decision,
    by: &str,
    at: &str,
    itself: i64,
) -> Result<(), DecisionError> {
    match decision {
        Decision::Paper { path, value } => {
            let path: ValuePath = path.parse()?;
            answer::set(sheet, path, value)?;
        }
        Decision::Counts {
            path,
            value,
            reason,
        } => {
            if reason.trim().is_empty() {
                return Err(PowerError::NoCountReason.into());
            }
            // Checked as an answer would be, on a copy: a count never
            // changes what the paper says.
            let path: ValuePath = path.parse()?;
            answer::set(&mut sheet.clone(), path, value)?;
        }
        Decision::Initials {
            row,
            seat,
            field,
            undo,
        } => match (row, seat, field.as_deref()) {
            (Some(row), None, None) if *undo => powers::take_back_initials(sheet, *row)?,
            (Some(row), None, None) => powers::initial(sheet, *row, by, at)?,
            (None, Some(seat), Some(field)) if *undo => {
                powers::take_back_footer_initials(sheet, *seat, field)?
            }
            (None, Some(seat), Some(field)) => powers::initial_footer(sheet, *seat, field, by, at)?,
            _ => return Err(PowerError::RowOrField.into()),
        },
        Decision::Void { void, reason } => powers::verdict(sheet, *void, by, at, reason)?,
        Decision::Copy { of } => powers::copy_of(sheet, itself, *of, by, at)?,
        Decision::Game { ours } => powers::confirm_game(sheet, *ours, by, at),
        Decision::Discard { discard, reason } => powers::discard(sheet, *discard, by, at, reason)?,
        // What it takes back is left out by [`stand::stand`]; here its path
        // is checked.
        Decision::Withdraw { path } => {
            let path: ValuePath = path.parse()?;
            answer::get(sheet, path);
        }
    }
    Ok(())
}
