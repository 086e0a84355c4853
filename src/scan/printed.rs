//! A printed sheet (`print`): its code gives the form, round, table and
//! players exactly, so their handwriting or print is not asked about.

use super::*;
use crate::page::code::TableCode;

/// Margin (mm) cut around the form's code box: the paper may lie a little
/// off in the printer.
const CODE_MARGIN_MM: f64 = 4.0;

/// The code printed on the located page, where there is one of this form.
pub(super) fn read_code(aligned: &AlignedSheet) -> Option<TableCode> {
    let crop = cells::cut_at(
        aligned.page,
        &aligned.alignment,
        aligned.form.code_box(),
        CODE_MARGIN_MM,
        cells::PX_PER_MM,
    );
    TableCode::find(&crop).filter(|c| c.form == aligned.form.id)
}

/// Puts the code's round, table and players into the sheet as read, and
/// takes the readings of those fields out of what decoding weighs and
/// flags.
pub(super) fn apply_code(read: &mut SheetResult, readings: &mut CellReadings, code: &TableCode) {
    read.round = Some(code.round);
    read.table = Some(code.table);
    for (i, seat) in read.players.iter_mut().enumerate() {
        *seat = code.players.get(i).filter(|p| !p.is_empty()).cloned();
    }
    read.flags.retain(|f| {
        !(f.code == Code::CellUncertain
            && f.row.is_none()
            && matches!(f.field.as_deref(), Some("round" | "table" | "player_id")))
    });
    readings
        .fields
        .retain(|fr| !matches!(fr.field, Field::Round | Field::Table));
    read.notes.printed = true;
}
