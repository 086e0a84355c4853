//! The review desk's edits: a value named by its path on the sheet
//! (`games/<no>/<seat>/plus`, `gesamt/<seat>/minus`, `abzug/<seat>`,
//! `endergebnis/<seat>`, `players/<seat>`, `round`, `table`; seats from 1)
//! set to what a person read on the paper.
//!
//! A person who sets a value has looked at it: the `CELL_UNCERTAIN` on
//! that cell goes, whether the value changed or was kept as written. The
//! rule flags are the verifier's to raise again.

use serde_json::Value;

use crate::check::flags::Code;
use crate::error::{EditError, ValueKind};
use crate::sheet::{Cell, Column, GameRow, Gesamt, SheetResult, ValuePath};

/// The largest number a game or footer cell holds.
const MAX_CELL: i64 = 99_999;

/// Sets the value at `path` (a number, a digit string for a player, or
/// null for blank) and takes the cell's `CELL_UNCERTAIN` away. Returns
/// whether the value changed. Nothing changes where it is refused.
pub fn set(sheet: &mut SheetResult, path: ValuePath, value: &Value) -> Result<bool, EditError> {
    let bad = |wanted: ValueKind| EditError::Value {
        path: path.to_string(),
        value: value.to_string(),
        wanted,
    };
    if let Some(seat) = path.seat()
        && seat > sheet.players.len()
    {
        return Err(EditError::Seat {
            path: path.to_string(),
            seats: sheet.players.len(),
        });
    }
    let changed = match path {
        ValuePath::Player(seat) => {
            let number = match value {
                Value::Null => None,
                Value::String(s)
                    if (1..=6).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit()) =>
                {
                    Some(s.clone())
                }
                Value::Number(n) if n.as_u64().is_some_and(|n| n < 1_000_000) => {
                    Some(n.to_string())
                }
                _ => return Err(bad(ValueKind::Digits)),
            };
            replace(&mut sheet.players[seat - 1], number)
        }
        ValuePath::Endergebnis(seat) => {
            let v = number(value, -MAX_CELL..=MAX_CELL).ok_or_else(|| bad(ValueKind::Signed))?;
            if sheet.endergebnis.len() < seat {
                sheet.endergebnis.resize(sheet.players.len(), None);
            }
            replace(&mut sheet.endergebnis[seat - 1], v)
        }
        _ => {
            let range = match path {
                ValuePath::Round | ValuePath::Table => 1..=999,
                _ => 0..=MAX_CELL,
            };
            let v = number(value, range)
                .ok_or_else(|| bad(ValueKind::Unsigned))?
                .map(|v| v as u32);
            let slot = unsigned_slot(sheet, path);
            replace(slot, v)
        }
    };
    sheet
        .flags
        .retain(|f| !(f.code == Code::CellUncertain && path.is_cell_of(f)));
    Ok(changed)
}

/// `value` as a number in `range`, or blank; `None` where it is neither.
fn number(value: &Value, range: std::ops::RangeInclusive<i64>) -> Option<Option<i64>> {
    match value {
        Value::Null => Some(None),
        Value::Number(n) => n.as_i64().filter(|v| range.contains(v)).map(Some),
        _ => None,
    }
}

fn replace<T: PartialEq>(slot: &mut Option<T>, value: Option<T>) -> bool {
    let changed = *slot != value;
    *slot = value;
    changed
}

/// The place of an unsigned value (a game column, Gesamt, Abzug, round
/// or table), made where the sheet has no row or footer for it yet.
fn unsigned_slot(sheet: &mut SheetResult, path: ValuePath) -> &mut Option<u32> {
    let seats = sheet.players.len();
    match path {
        ValuePath::Round => &mut sheet.round,
        ValuePath::Table => &mut sheet.table,
        ValuePath::Abzug(seat) => {
            if sheet.abzug.len() < seats {
                sheet.abzug.resize(seats, None);
            }
            &mut sheet.abzug[seat - 1]
        }
        ValuePath::Gesamt { seat, column } => {
            if sheet.gesamt.len() < seats {
                sheet.gesamt.resize(seats, None);
            }
            let g = sheet.gesamt[seat - 1].get_or_insert_with(Gesamt::default);
            match column {
                Column::Plus => &mut g.plus,
                Column::Minus => &mut g.minus,
            }
        }
        ValuePath::Game { no, seat, column } => {
            let i = match sheet.games.iter().position(|g| g.no >= no) {
                Some(i) if sheet.games[i].no == no => i,
                found => {
                    let i = found.unwrap_or(sheet.games.len());
                    sheet.games.insert(i, empty_row(no, seats));
                    i
                }
            };
            let cells = &mut sheet.games[i].cells;
            if cells.len() < seats {
                cells.resize(seats, Cell::default());
            }
            let cell = &mut cells[seat - 1];
            match column {
                Column::Plus => &mut cell.plus,
                Column::Minus => &mut cell.minus,
            }
        }
        ValuePath::Endergebnis(_) | ValuePath::Player(_) => {
            unreachable!("signed and text values are set apart")
        }
    }
}

fn empty_row(no: u32, seats: usize) -> GameRow {
    GameRow {
        no,
        cells: vec![Cell::default(); seats],
        initials: false,
        class: None,
        extra: Default::default(),
    }
}

/// A sheet corrected as a whole (a result's JSON, edited) taken as the
/// desk takes its edits: the archive's sheet `before`, with every value
/// that differs in `corrected` set ([`set`]), so that value loses its
/// `CELL_UNCERTAIN` as at the desk. Everything else is `before`'s: its
/// flags, notes and status, so a doubt deleted from the file by hand
/// stays. Returns the sheet and the paths changed.
pub fn take_corrected(
    before: &SheetResult,
    corrected: &SheetResult,
) -> Result<(SheetResult, Vec<ValuePath>), EditError> {
    let mut changed: Vec<ValuePath> = Vec::new();
    for p in ValuePath::places_of(before)
        .into_iter()
        .chain(ValuePath::places_of(corrected))
    {
        if !changed.contains(&p) && get(before, p) != get(corrected, p) {
            changed.push(p);
        }
    }
    let mut sheet = before.clone();
    for &path in &changed {
        set(&mut sheet, path, &get(corrected, path))?;
    }
    Ok((sheet, changed))
}

/// A sheet's current value at `path`, as JSON (null for blank).
pub fn get(sheet: &SheetResult, path: ValuePath) -> Value {
    match path {
        ValuePath::Player(_) => path.text(sheet).into(),
        _ => path.number(sheet).into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::flags::Flag;
    use crate::error::EditError;

    #[test]
    fn a_value_corrected_as_a_whole_sheet_should_lose_its_doubt_and_nothing_else() {
        let mut row = empty_row(1, 4);
        row.cells = vec![Cell::plus(2), Cell::plus(2), Cell::minus(2), Cell::minus(2)];
        let players = (1..=4).map(|i| Some(i.to_string())).collect();
        let mut before = crate::sheet::finished_sheet("merkur", vec![row], players);
        let unsure = |seat: usize| Flag {
            code: Code::CellUncertain,
            severity: Code::CellUncertain.severity(),
            row: Some(1),
            seat: Some(seat),
            field: Some("plus".into()),
            message: String::new(),
            detail: Default::default(),
            extra: Default::default(),
        };
        before.flags = vec![unsure(1), unsure(2)];
        let mut corrected = before.clone();
        corrected.games[0].cells[0].plus = Some(5);
        // A doubt deleted by hand from the file, its value unchanged.
        corrected.flags.retain(|f| f.seat != Some(2));
        let (corrected, changed) = take_corrected(&before, &corrected).expect("taken");
        let game_1_1 = ValuePath::Game {
            no: 1,
            seat: 1,
            column: Column::Plus,
        };
        assert_eq!(changed, [game_1_1]);
        assert_eq!(
            corrected.flags,
            [unsure(2)],
            "the doubt of the cell kept as read stays"
        );
    }
    use serde_json::json;

    fn sheet() -> SheetResult {
        crate::sheet::example::one_row_sheet(1)
    }

    #[test]
    fn every_contract_path_should_read_back_as_written() {
        let sheet = sheet();
        let json = |j: Value| j.as_array().cloned();
        let no = sheet.games[0].no;
        let game = |no| ValuePath::Game {
            no,
            seat: 2,
            column: Column::Minus,
        };
        assert_eq!(
            game(no).json(&sheet),
            json(json!(["games", 0, "cells", 1, "minus"]))
        );
        assert_eq!(
            ValuePath::Endergebnis(4).json(&sheet),
            json(json!(["endergebnis", 3]))
        );
        assert_eq!(game(no + 9).json(&sheet), None, "no such row");
        assert_eq!(
            "games/7/1/plus"
                .parse::<ValuePath>()
                .map(|p| p.archive_field()),
            Ok("game.7.seat.1.plus".to_string())
        );
        for text in [
            "games/3/2/plus",
            "games/24/4/minus",
            "gesamt/1/minus",
            "abzug/4",
            "endergebnis/2",
            "players/3",
            "round",
            "table",
        ] {
            let path: ValuePath = text.parse().expect(text);
            assert_eq!(path.to_string(), text);
        }
    }

    #[test]
    fn a_path_off_the_sheet_should_be_refused() {
        for text in [
            "games/0/1/plus",
            "games/1/1/sum",
            "gesamt/1",
            "abzug/x",
            "../etc",
            "",
            "round/1",
        ] {
            assert!(
                matches!(text.parse::<ValuePath>(), Err(EditError::Path(_))),
                "{text}"
            );
        }
        let mut s = sheet();
        let seats = s.players.len();
        let beyond: ValuePath = format!("abzug/{}", seats + 1).parse().expect("path");
        assert!(matches!(
            set(&mut s, beyond, &json!(3)),
            Err(EditError::Seat { .. })
        ));
    }

    #[test]
    fn a_set_value_should_land_in_its_cell_and_only_there() {
        let mut s = sheet();
        let before = s.clone();
        let path: ValuePath = "games/5/2/minus".parse().expect("path");
        assert_eq!(set(&mut s, path, &json!(12)), Ok(true));
        assert_eq!(get(&s, path), json!(12));
        assert_eq!(set(&mut s, path, &json!(12)), Ok(false), "the same again");
        let changed = crate::night::club::archive::diff(&before, &s);
        assert_eq!(changed.len(), 1, "{changed:?}");
        assert_eq!(changed[0].field, "game.5.seat.2.minus");
        let end: ValuePath = "endergebnis/1".parse().expect("path");
        assert_eq!(set(&mut s, end, &json!(-42)), Ok(true));
        assert_eq!(s.endergebnis[0], Some(-42));
        let player: ValuePath = "players/2".parse().expect("path");
        assert_eq!(set(&mut s, player, &json!("0417")), Ok(true));
        assert_eq!(s.players[1].as_deref(), Some("0417"));
    }

    #[test]
    fn a_value_of_the_wrong_kind_should_be_refused_and_change_nothing() {
        let mut s = sheet();
        let before = s.clone();
        for (path, value) in [
            ("games/1/1/plus", json!(-3)),
            ("games/1/1/plus", json!("7")),
            ("abzug/1", json!(1.5)),
            ("round", json!(0)),
            ("players/1", json!("12a")),
            ("players/1", json!("1234567")),
        ] {
            let p: ValuePath = path.parse().expect(path);
            assert!(
                matches!(set(&mut s, p, &value), Err(EditError::Value { .. })),
                "{path} {value}"
            );
        }
        assert_eq!(s, before);
    }

    #[test]
    fn a_looked_at_cell_should_lose_its_uncertain_flag_and_keep_the_others() {
        let mut s = sheet();
        let uncertain = |row: Option<u32>, seat: Option<usize>, field: &str| Flag {
            code: Code::CellUncertain,
            severity: Code::CellUncertain.severity(),
            row,
            seat,
            field: Some(field.into()),
            message: String::new(),
            detail: Default::default(),
            extra: Default::default(),
        };
        s.flags = vec![
            uncertain(Some(1), Some(2), "plus"),
            uncertain(Some(1), Some(2), "minus"),
            uncertain(None, Some(2), "plus"),
        ];
        let path: ValuePath = "games/1/2/plus".parse().expect("path");
        assert_eq!(ValuePath::of_flag(&s.flags[0]), Some(path));
        let kept = get(&s, path);
        set(&mut s, path, &kept).expect("kept as written");
        assert_eq!(s.flags.len(), 2);
        assert!(s.flags.iter().all(|f| !path.is_cell_of(f)));
        assert_eq!(
            ValuePath::of_flag(&s.flags[1]),
            Some(ValuePath::Gesamt {
                seat: 2,
                column: Column::Plus
            })
        );
    }
}
