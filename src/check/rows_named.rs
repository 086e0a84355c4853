//! A Gesamt that disagrees with its column names the rows whose reading
//! could explain it, best first, so that a person does not have to hunt
//! through thirty rows for the one misread value.

use crate::catalogue::say;
use crate::check::flags::{Code, Flag};
use crate::check::messages::Lang;
use crate::sheet::SheetResult;

/// At most this many rows are named.
const MOST_NAMED: usize = 5;

/// Names on each `GESAMT_MISMATCH` in `flags` the rows of its column whose
/// reading could explain the difference (`reading` holds the sheet's
/// `CELL_UNCERTAIN`), in its `rows` and its message.
pub fn name_rows(sheet: &SheetResult, flags: &mut [Flag], reading: &[Flag], lang: Lang) {
    for flag in flags.iter_mut().filter(|f| f.code == Code::GesamtMismatch) {
        let (Some(seat), Some(field)) = (flag.seat, flag.field.as_deref()) else {
            continue;
        };
        let rows = explaining_rows(sheet, seat, field == "minus", reading);
        if rows.is_empty() {
            continue;
        }
        let list = rows
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        let named = say(
            lang,
            "rows-could-explain",
            &[("rows", &list), ("count", &rows.len())],
        );
        flag.message = format!("{} {named}", flag.message);
        flag.detail.rows = rows;
    }
}

/// The rows of a seat's column whose cell, read otherwise, could close the
/// column's difference to its Gesamt, best first: a cell asked about with
/// a suggestion that alone closes it, then one asked about with any
/// suggestion (one of several that close it together), then a cell whose
/// listed alternative alone closes it, then a cell asked about without
/// one; each by its probability.
fn explaining_rows(sheet: &SheetResult, seat: usize, minus: bool, reading: &[Flag]) -> Vec<u32> {
    let Some(gesamt) = sheet.gesamt.get(seat - 1).copied().flatten() else {
        return Vec::new();
    };
    let written = i64::from(if minus { gesamt.minus } else { gesamt.plus }.unwrap_or(0));
    let value_of = |c: &crate::sheet::Cell| if minus { c.minus } else { c.plus };
    let sum: i64 = sheet
        .games
        .iter()
        .filter_map(|g| g.cells.get(seat - 1).and_then(value_of))
        .map(i64::from)
        .sum();
    let closing = written - sum;
    let field = if minus { "minus" } else { "plus" };
    let mut scored: Vec<(f64, u32)> = Vec::new();
    for g in &sheet.games {
        let Some(cell) = g.cells.get(seat - 1) else {
            continue;
        };
        let Some(v) = value_of(cell).map(i64::from) else {
            continue;
        };
        let asked = reading.iter().find(|f| {
            f.code == Code::CellUncertain
                && f.row == Some(g.no)
                && f.seat == Some(seat)
                && f.field.as_deref() == Some(field)
        });
        let alternative = cell.notes.reading(minus).and_then(|r| {
            r.alternatives
                .iter()
                .find(|(w, _)| w - v == closing)
                .map(|a| a.1)
        });
        let score = match (asked.and_then(Flag::suggestion), alternative) {
            (Some((s, p)), _) if s != v && s - v == closing => 3.0 + p,
            (Some((s, p)), _) if s != v => 2.0 + p,
            (_, Some(p)) => 1.0 + p,
            _ if asked.is_some() => 0.5,
            _ => continue,
        };
        scored.push((score, g.no));
    }
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    scored.into_iter().take(MOST_NAMED).map(|s| s.1).collect()
}
