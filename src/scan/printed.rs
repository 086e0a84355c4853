//! A printed sheet (`print`): its code gives the form, round, table and
//! players exactly, so their handwriting or print is not asked about.

use super::*;
use crate::page::code::TableCode;

/// How the code box is cut, in turn until the code is found: resolution
/// (px a mm) and margin (mm; the paper may lie a little off in the
/// printer). The detector's cap-stone search is sensitive to how a soft
/// scan is sampled, and each cut finds codes the others miss (tuning
/// sets: generated printed nights, seeds 501-503, 62 sheets, office and
/// phone: at 10 and 15 px a mm with 4 mm, 54 found; with all eight cuts,
/// 59). A page without a code tries them all, about 10 ms.
const CODE_CUTS: [(f64, f64); 8] = [
    (10.0, 4.0),
    (8.0, 4.0),
    (20.0, 4.0),
    (10.0, 2.0),
    (10.0, 6.0),
    (15.0, 4.0),
    (8.0, 2.0),
    (20.0, 6.0),
];

/// A code box with less of its area dark than this holds no code (a QR
/// code is about half dark modules): a sheet not from `print` is not
/// searched, which would cost it about 20 ms.
const CODE_INK_SHARE: f64 = 0.15;

/// The code printed on the located page, where there is one of this form.
pub(super) fn read_code(aligned: &AlignedSheet) -> Option<TableCode> {
    let form = TableCode::form_tag(&aligned.form.id);
    let inside = cells::cut_at(
        aligned.page,
        &aligned.alignment,
        aligned.form.code_box(),
        -1.0,
        4.0,
    );
    let dark = inside.pixels().filter(|p| p[0] < 128).count();
    if (dark as f64) < CODE_INK_SHARE * f64::from(inside.width() * inside.height()) {
        return None;
    }
    CODE_CUTS.into_iter().find_map(|(px_per_mm, margin)| {
        let crop = cells::cut_at(
            aligned.page,
            &aligned.alignment,
            aligned.form.code_box(),
            margin,
            px_per_mm,
        );
        TableCode::find(&crop).filter(|c| c.form == form)
    })
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
