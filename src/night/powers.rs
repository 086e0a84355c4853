//! The supervisor's powers at the desk (the seeds: corrections are
//! initialled by the Aufsicht; "Unleserliche oder falsche Listen können von
//! der Leitung berichtigt oder für ungültig erklärt werden"): initial a
//! game row, declare a sheet invalid, and take either back. Each is kept
//! on the sheet with who and when; the archive's trail records it as it
//! records a corrected value. The verifier and the standings read them.

use crate::error::PowerError;
use crate::sheet::SheetResult;
use crate::sheet::notes::{RowInitials, Void};

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

/// Declares the sheet invalid, or (`void` false) valid again.
pub fn verdict(
    sheet: &mut SheetResult,
    void: bool,
    by: &str,
    at: &str,
    reason: &str,
) -> Result<(), PowerError> {
    if !void {
        sheet.notes.void = None;
        return Ok(());
    }
    if reason.trim().is_empty() {
        return Err(PowerError::NoReason);
    }
    sheet.notes.void = Some(Void {
        by: by.to_string(),
        at: at.to_string(),
        reason: reason.trim().to_string(),
    });
    Ok(())
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
