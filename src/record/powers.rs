//! The supervisor's powers at the desk (the seeds: corrections are
//! initialled by the Aufsicht; "Unleserliche oder falsche Listen können von
//! der Leitung berichtigt oder für ungültig erklärt werden"): initial a
//! game row, declare a sheet invalid, and take either back. Each is kept
//! on the sheet with who and when; the archive's trail records it as it
//! records a corrected value. The verifier and the standings read them.

use crate::error::PowerError;
use crate::sheet::SheetResult;
use crate::sheet::notes::{CopyOf, FooterInitials, RowInitials, Settled, Void};

/// The footer fields the supervisor initials.
pub const FOOTER_FIELDS: [&str; 4] = ["plus", "minus", "abzug", "endergebnis"];

/// The supervisor initials game row `row`: a correction or a tout there is
/// initialled. Initialling a row again keeps the first initials.
pub fn initial(sheet: &mut SheetResult, row: u32, by: &str, at: &str) -> Result<(), PowerError> {
    has_row(sheet, row)?;
    let initials = &mut sheet.notes.supervisor_initials;
    if !initials.iter().any(|i| i.row == row) {
        initials.push(RowInitials {
            row,
            by: by.to_string(),
            at: at.to_string(),
        });
        initials.sort_by_key(|i| i.row);
    }
    Ok(())
}

/// Takes back the supervisor's initials of game row `row` (the paper's
/// own Aufs. box stays as read).
pub fn take_back_initials(sheet: &mut SheetResult, row: u32) -> Result<(), PowerError> {
    has_row(sheet, row)?;
    sheet.notes.supervisor_initials.retain(|i| i.row != row);
    Ok(())
}

/// The supervisor initials the footer value `field` of `seat` (from 1):
/// a later edit there is accepted. Initialling it again keeps the first.
pub fn initial_footer(
    sheet: &mut SheetResult,
    seat: usize,
    field: &str,
    by: &str,
    at: &str,
) -> Result<(), PowerError> {
    has_field(sheet, seat, field)?;
    let initials = &mut sheet.notes.footer_initials;
    if !initials.iter().any(|i| i.seat == seat && i.field == field) {
        initials.push(FooterInitials {
            seat,
            field: field.to_string(),
            by: by.to_string(),
            at: at.to_string(),
        });
        initials.sort_by(|a, b| (a.seat, &a.field).cmp(&(b.seat, &b.field)));
    }
    Ok(())
}

/// Takes back the supervisor's initials of a footer value.
pub fn take_back_footer_initials(
    sheet: &mut SheetResult,
    seat: usize,
    field: &str,
) -> Result<(), PowerError> {
    has_field(sheet, seat, field)?;
    let initials = &mut sheet.notes.footer_initials;
    initials.retain(|i| !(i.seat == seat && i.field == field));
    Ok(())
}

fn has_field(sheet: &SheetResult, seat: usize, field: &str) -> Result<(), PowerError> {
    if (1..=sheet.seats()).contains(&seat) && FOOTER_FIELDS.contains(&field) {
        Ok(())
    } else {
        Err(PowerError::NoSuchField {
            seat,
            field: field.to_string(),
        })
    }
}

/// Declares the sheet invalid, or (`void` false) valid again.
pub fn verdict(
    sheet: &mut SheetResult,
    void: bool,
    by: &str,
    at: &str,
    reason: &str,
) -> Result<(), PowerError> {
    sheet.notes.void = reasoned(void, by, at, reason)?;
    Ok(())
}

/// A verdict that needs a reason (invalid, discarded), or none where it
/// is taken back (`given` false).
fn reasoned(given: bool, by: &str, at: &str, reason: &str) -> Result<Option<Void>, PowerError> {
    if !given {
        return Ok(None);
    }
    if reason.trim().is_empty() {
        return Err(PowerError::NoReason);
    }
    Ok(Some(Void {
        by: by.to_string(),
        at: at.to_string(),
        reason: reason.trim().to_string(),
    }))
}

/// Settles sheet `itself` as a copy of sheet `of` (the same paper read
/// twice): it leaves the count; `None` takes that back.
pub fn copy_of(
    sheet: &mut SheetResult,
    itself: i64,
    of: Option<i64>,
    by: &str,
    at: &str,
) -> Result<(), PowerError> {
    sheet.notes.copy_of = match of {
        Some(of) if of == itself => return Err(PowerError::CopyOfItself),
        Some(of) => Some(CopyOf {
            of,
            by: by.to_string(),
            at: at.to_string(),
        }),
        None => None,
    };
    Ok(())
}

/// Takes a sheet sent by mistake out of the night (`discard`), with
/// why, or back in.
pub fn discard(
    sheet: &mut SheetResult,
    discard: bool,
    by: &str,
    at: &str,
    reason: &str,
) -> Result<(), PowerError> {
    sheet.notes.discarded = reasoned(discard, by, at, reason)?;
    Ok(())
}

/// Settles a sheet taken for another game's (`WRONG_GAME`) as the
/// night's after all, or takes that back (`ours` false).
pub fn confirm_game(sheet: &mut SheetResult, ours: bool, by: &str, at: &str) {
    sheet.notes.game_confirmed = ours.then(|| Settled {
        by: by.to_string(),
        at: at.to_string(),
    });
}

fn has_row(sheet: &SheetResult, row: u32) -> Result<(), PowerError> {
    if sheet.games.iter().any(|g| g.no == row) {
        Ok(())
    } else {
        Err(PowerError::NoSuchRow(row))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::flags::Code;
    use crate::check::messages::Lang;
    use crate::check::rules::RuleSet;

    fn corrected_sheet() -> SheetResult {
        let mut sheet = crate::sheet::example::one_row_sheet(1);
        sheet.games[0].cells[0].corrected = true;
        sheet
    }

    fn codes(sheet: SheetResult) -> Vec<Code> {
        let rules = RuleSet::load("merkur").expect("merkur");
        let checked = crate::verify(sheet, &rules, Lang::En).expect("verified");
        checked.flags.iter().map(|f| f.code).collect()
    }

    #[test]
    fn a_row_initialled_at_the_desk_should_lose_its_correction_flag_and_get_it_back_on_undo() {
        let mut sheet = corrected_sheet();
        assert!(codes(sheet.clone()).contains(&Code::CorrectionNotInitialled));
        initial(&mut sheet, 1, "AB", "2026-11-28T10:00:00Z").expect("row 1");
        assert!(!codes(sheet.clone()).contains(&Code::CorrectionNotInitialled));
        let json = serde_json::to_value(&sheet).expect("json");
        assert_eq!(json["supervisor_initials"][0]["by"], "AB");
        let back: SheetResult = serde_json::from_value(json).expect("read back");
        assert_eq!(
            back.notes.supervisor_initials,
            sheet.notes.supervisor_initials
        );
        take_back_initials(&mut sheet, 1).expect("row 1");
        assert!(codes(sheet).contains(&Code::CorrectionNotInitialled));
    }

    /// A sheet with a value written later in another pen at row 1, seat 1,
    /// and at seat 2's Endergebnis.
    fn edited_later() -> SheetResult {
        let mut sheet = crate::sheet::example::one_row_sheet(1);
        for (row, seat, field) in [(Some(1), 1, "plus"), (None, 2, "endergebnis")] {
            sheet.flags.push(crate::check::flags::Flag {
                code: Code::InkDiffers,
                severity: Code::InkDiffers.severity(),
                row,
                seat: Some(seat),
                field: Some(field.into()),
                message: "another pen".into(),
                detail: Default::default(),
                extra: Default::default(),
            });
        }
        sheet
    }

    fn checked(sheet: SheetResult) -> SheetResult {
        let rules = RuleSet::load("merkur").expect("merkur");
        crate::verify(sheet, &rules, Lang::En).expect("verified")
    }

    fn open_ink(sheet: &SheetResult) -> Vec<(Option<u32>, Option<usize>)> {
        let ink = sheet.flags.iter().filter(|f| f.code == Code::InkDiffers);
        ink.map(|f| (f.row, f.seat)).collect()
    }

    #[test]
    fn initials_should_accept_a_later_edit_and_undo_should_open_it_again() {
        let sheet = checked(edited_later());
        assert_eq!(open_ink(&sheet), [(Some(1), Some(1)), (None, Some(2))]);
        let mut initialled = sheet.clone();
        initial(&mut initialled, 1, "AB", "2026-11-28T10:00:00Z").expect("row 1");
        let initialled = checked(initialled);
        assert_eq!(open_ink(&initialled), [(None, Some(2))]);
        let accepted = &initialled.notes.accepted;
        assert_eq!(accepted.len(), 1);
        assert_eq!(
            (accepted[0].flag.row, accepted[0].by.as_str()),
            (Some(1), "AB")
        );
        // The footer value by its seat and field; a wrong field refused.
        let mut both = initialled.clone();
        initial_footer(&mut both, 2, "endergebnis", "CD", "2026-11-28T10:05:00Z").expect("seat 2");
        assert_eq!(
            initial_footer(&mut both, 2, "gesamt", "CD", "now"),
            Err(PowerError::NoSuchField {
                seat: 2,
                field: "gesamt".into()
            })
        );
        let both = checked(both);
        assert!(open_ink(&both).is_empty());
        assert_eq!(both.notes.accepted.len(), 2);
        // Verified again, nothing moves; taken back, the flags open again.
        assert_eq!(checked(both.clone()).notes.accepted, both.notes.accepted);
        let mut undone = both;
        take_back_initials(&mut undone, 1).expect("row 1");
        take_back_footer_initials(&mut undone, 2, "endergebnis").expect("seat 2");
        let undone = checked(undone);
        assert_eq!(open_ink(&undone), [(Some(1), Some(1)), (None, Some(2))]);
        assert!(undone.notes.accepted.is_empty());
    }

    #[test]
    fn a_row_the_sheet_does_not_have_should_be_refused() {
        let mut sheet = corrected_sheet();
        assert_eq!(
            initial(&mut sheet, 7, "AB", "now"),
            Err(PowerError::NoSuchRow(7))
        );
        assert!(sheet.notes.supervisor_initials.is_empty());
    }

    #[test]
    fn a_sheet_should_be_declared_invalid_only_with_a_reason_and_valid_again() {
        let mut sheet = corrected_sheet();
        assert_eq!(
            verdict(&mut sheet, true, "AB", "now", " "),
            Err(PowerError::NoReason)
        );
        verdict(&mut sheet, true, "AB", "now", "forged entry").expect("void");
        let json = serde_json::to_value(&sheet).expect("json");
        assert_eq!(json["void"]["reason"], "forged entry");
        verdict(&mut sheet, false, "AB", "later", "").expect("valid again");
        assert!(sheet.notes.void.is_none());
    }
}
