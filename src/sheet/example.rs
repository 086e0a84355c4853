//! Small sheets for the unit tests of the later stages.

use super::*;

/// A finished merkur sheet with one Rufspiel row (+1 +1 −1 −1) numbered
/// `row_no` and participants 1–4: for unit tests of the later stages.
pub(crate) fn one_row_sheet(row_no: u32) -> SheetResult {
    let row = GameRow {
        no: row_no,
        cells: vec![Cell::plus(1), Cell::plus(1), Cell::minus(1), Cell::minus(1)],
        initials: false,
        class: None,
        extra: Default::default(),
    };
    let ids = (1..=4).map(|i| Some(i.to_string())).collect();
    finished_sheet("merkur", vec![row], ids)
}
