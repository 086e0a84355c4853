//! A row misread the same way in several seats ("10" read "11" in all
//! four) stays legal: no rule flag names it, only the seats' Gesamt
//! disagree with their columns. The rows that alone would bring two or
//! more disagreeing Gesamt back to their columns, each cell by one digit
//! read otherwise and the row still legal, go to a person cell by cell,
//! with the value the Gesamt make it as a suggestion only. On a sheet in
//! a hand the reader does not know ([`POOR_HAND`]), misread in many rows
//! at once, no one row explains the Gesamt: there every cell of a column
//! that misses its Gesamt goes to a person.

use super::doubt::{Probable, column_name, even_odds_flag, signed};
use super::*;

/// A row's cells to ask about: seat, minus column, and the value the
/// Gesamt make it (none where no one value does).
type RowCells<T> = (u32, Vec<(usize, bool, T)>);

/// More rows than this explaining the Gesamt name none in particular:
/// the Gesamt flags stand alone.
const MOST_ROWS: usize = 3;

/// A sheet whose game cells are read unsure this often is in a hand the
/// reader does not know: where such a sheet's Gesamt disagree with their
/// columns, every cell of those columns goes to a person, since a misread
/// that still fits its row is as likely there as anywhere.
const POOR_HAND: f64 = 0.3;

/// The `CELL_UNCERTAIN` of each cell of a legal row that the seats'
/// Gesamt say was misread; cells flagged already keep their flag.
pub(super) fn legal_row_flags(sheet: &SheetResult, ev: &Evidence, flags: &mut Vec<Flag>) {
    let probable = Probable { sheet, flags };
    let off = columns_off(sheet, &probable);
    if off.len() < 2 {
        return;
    }
    let rows: Vec<RowCells<i64>> = sheet
        .games
        .iter()
        .filter_map(|g| explaining(g, &off, &ev.legal).map(|c| (g.no, c)))
        .collect();
    let named: Vec<RowCells<Option<i64>>> = if !rows.is_empty() && rows.len() <= MOST_ROWS {
        rows.into_iter()
            .map(|(no, cells)| {
                (
                    no,
                    cells.into_iter().map(|(s, m, v)| (s, m, Some(v))).collect(),
                )
            })
            .collect()
    } else if poorly_read(sheet, flags) {
        every_cell_of(sheet, &off)
    } else {
        return;
    };
    let mut new = Vec::new();
    for (no, cells) in named {
        for (seat, minus, value) in cells {
            let name = column_name(minus);
            let flagged = |f: &Flag| {
                f.row == Some(no) && f.seat == Some(seat) && f.field.as_deref() == Some(name)
            };
            let Some(fr) = ev.by_field.get(&Field::Game(no, seat, minus)) else {
                continue;
            };
            if flags.iter().any(flagged) {
                continue;
            }
            let (what, text) = (&fr.what, &fr.reading.text);
            let message = match value {
                Some(value) => say(
                    ev.lang,
                    "uncertain-legal-row",
                    &[("what", what), ("read", text), ("value", &value)],
                ),
                None => say(
                    ev.lang,
                    "uncertain-poor-hand",
                    &[("what", what), ("read", text)],
                ),
            };
            // As likely as the reading: the arithmetic's value stays a suggestion.
            let flag = even_odds_flag(fr, value, message, ev.lang);
            new.push(flag);
        }
    }
    flags.extend(new);
}

/// Whether [`POOR_HAND`] of the sheet's written game cells are read unsure.
fn poorly_read(sheet: &SheetResult, flags: &[Flag]) -> bool {
    let written = sheet
        .games
        .iter()
        .flat_map(|g| &g.cells)
        .filter(|c| c.plus.is_some() || c.minus.is_some())
        .count();
    let unsure = flags
        .iter()
        .filter(|f| f.code == Code::CellUncertain && f.row.is_some())
        .count();
    written > 0 && unsure as f64 >= POOR_HAND * written as f64
}

/// Every written cell of the columns `off` names, row by row.
fn every_cell_of(
    sheet: &SheetResult,
    off: &BTreeMap<(usize, bool), i64>,
) -> Vec<RowCells<Option<i64>>> {
    sheet
        .games
        .iter()
        .map(|g| {
            let cells = g
                .cells
                .iter()
                .enumerate()
                .flat_map(|(i, c)| [(i + 1, false, c.plus), (i + 1, true, c.minus)])
                .filter(|&(s, m, v)| v.is_some() && off.contains_key(&(s, m)))
                .map(|(s, m, _)| (s, m, None))
                .collect();
            (g.no, cells)
        })
        .collect()
}

/// Each seat's column (plus or minus) that misses its written Gesamt, by
/// how much the column is over it, the sheet read as it most probably is
/// (a Gesamt read unsure with no likely value: as read).
pub(super) fn columns_off(
    sheet: &SheetResult,
    probable: &Probable,
) -> BTreeMap<(usize, bool), i64> {
    let mut off = BTreeMap::new();
    for (i, g) in sheet.gesamt.iter().enumerate() {
        let Some(g) = g else { continue };
        for (minus, stands) in [(false, g.plus), (true, g.minus)] {
            let s = i + 1;
            let stands = stands.map(i64::from);
            let Some(written) = probable
                .footer_value(s, column_name(minus), stands)
                .or(stands)
            else {
                continue;
            };
            let o = probable.column(s, minus) - written;
            if o != 0 {
                off.insert((s, minus), o);
            }
        }
    }
    off
}

/// The cells of row `g` in the columns `off` names, each with the value
/// that brings its column to its Gesamt, where there are two or more, each
/// is one digit away from what was read, and the row so is legal.
fn explaining(
    g: &GameRow,
    off: &BTreeMap<(usize, bool), i64>,
    legal: &HashSet<Vec<i64>>,
) -> Option<Vec<(usize, bool, i64)>> {
    let mut changed = Vec::new();
    let mut values = Vec::new();
    for (i, c) in g.cells.iter().enumerate() {
        for (minus, v) in [(false, c.plus), (true, c.minus)] {
            let Some(v) = v.map(i64::from) else { continue };
            let value = match off.get(&(i + 1, minus)) {
                Some(&o) => {
                    let new = v - o;
                    if new < 0 || !one_digit_apart(v, new) {
                        return None;
                    }
                    changed.push((i + 1, minus, new));
                    new
                }
                None => v,
            };
            values.push(signed(minus, value));
        }
    }
    (changed.len() >= 2 && legal.contains(&key(values.into_iter()))).then_some(changed)
}

/// Two numbers of as many digits that differ in one place only (a digit
/// the writer's hand leaves in doubt).
fn one_digit_apart(a: i64, b: i64) -> bool {
    let (a, b) = (a.to_string(), b.to_string());
    a.len() == b.len() && a.chars().zip(b.chars()).filter(|(x, y)| x != y).count() == 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::reading;
    use crate::sheet::{Cell, Gesamt, finished_sheet};

    /// Two values `(a, b)` one digit apart, each of a legal merkur row in
    /// which two seats win it and two lose it.
    fn two_legal_values(rules: &RuleSet) -> (u32, u32) {
        let values: Vec<u32> = legal_rows(rules)
            .iter()
            .filter_map(|r| match r.values[..] {
                [a, b, c, d] if a == b && c == d && a > 0 && c == -a => u32::try_from(a).ok(),
                _ => None,
            })
            .collect();
        values
            .iter()
            .flat_map(|&a| values.iter().map(move |&b| (a, b)))
            .find(|&(a, b)| one_digit_apart(i64::from(a), i64::from(b)))
            .expect("two such values")
    }

    /// Rows of (v, v, -v, -v), the first `written` but read `read` in
    /// every seat, every field read surely; the footer as written.
    fn misread_row(written: u32, read: u32, other: u32) -> (SheetResult, CellReadings) {
        let row = |no: u32, v: u32| GameRow {
            no,
            cells: vec![Cell::plus(v), Cell::plus(v), Cell::minus(v), Cell::minus(v)],
            initials: false,
            class: None,
            extra: Map::new(),
        };
        let players = (1..=4).map(|i| Some(i.to_string())).collect();
        let written_sheet = finished_sheet("merkur", vec![row(1, written), row(2, other)], players);
        let mut sheet = written_sheet.clone();
        sheet.games[0] = row(1, read);
        let mut fields = Vec::new();
        for g in &sheet.games {
            for (i, c) in g.cells.iter().enumerate() {
                let (minus, v) = match (c.plus, c.minus) {
                    (Some(v), _) => (false, v),
                    (_, v) => (true, v.unwrap_or(0)),
                };
                fields.push(FieldReading {
                    field: Field::Game(g.no, i + 1, minus),
                    reading: reading(&v.to_string(), 0.999, &[]),
                    what: format!("row {} seat {}", g.no, i + 1),
                });
            }
        }
        for (i, g) in sheet.gesamt.iter().enumerate() {
            let Some(Gesamt { plus, minus }) = g else {
                continue;
            };
            for (m, v) in [(false, plus), (true, minus)] {
                fields.push(FieldReading {
                    field: Field::Gesamt(i + 1, m),
                    reading: reading(&v.unwrap_or(0).to_string(), 0.999, &[]),
                    what: "Gesamt".into(),
                });
            }
        }
        (
            sheet,
            CellReadings {
                fields,
                ..Default::default()
            },
        )
    }

    #[test]
    fn a_legal_row_misread_in_every_seat_should_be_named_by_the_gesamt() {
        let rules = RuleSet::load("merkur").expect("merkur");
        let (a, b) = two_legal_values(&rules);
        let (sheet, readings) = misread_row(a, b, a);
        let decoded = decode(sheet, &readings, &rules, Lang::En);
        let at_row: Vec<(usize, Option<(i64, f64)>)> = decoded
            .flags
            .iter()
            .filter(|f| f.code == Code::CellUncertain && f.row == Some(1))
            .map(|f| (f.seat.unwrap_or(0), f.suggestion()))
            .collect();
        let want: Vec<(usize, Option<(i64, f64)>)> =
            (1..=4).map(|s| (s, Some((i64::from(a), 0.5)))).collect();
        assert_eq!(at_row, want, "{:#?}", decoded.flags);
        assert_eq!(
            decoded.games[0].cells[0].plus,
            Some(b),
            "the reading stands"
        );
    }

    #[test]
    fn a_hand_read_unsure_should_send_every_cell_of_a_column_off_its_gesamt() {
        let (sheet, _) = misread_row(2, 2, 3);
        let unsure = |row: u32, seat: usize| Flag {
            code: Code::CellUncertain,
            severity: crate::check::flags::Severity::Warning,
            row: Some(row),
            seat: Some(seat),
            field: Some("plus".into()),
            message: String::new(),
            detail: FlagDetail::default(),
            extra: Map::new(),
        };
        // Eight cells written: two unsure is under POOR_HAND, three is over.
        assert!(!poorly_read(&sheet, &[unsure(1, 1), unsure(1, 2)]));
        assert!(poorly_read(
            &sheet,
            &[unsure(1, 1), unsure(1, 2), unsure(2, 1)]
        ));
        let off = BTreeMap::from([((2, false), 1), ((3, true), -1)]);
        let cells: Vec<RowCells<Option<i64>>> = every_cell_of(&sheet, &off);
        assert_eq!(
            cells,
            [
                (1, vec![(2, false, None), (3, true, None)]),
                (2, vec![(2, false, None), (3, true, None)])
            ]
        );
    }

    #[test]
    fn a_row_read_right_should_raise_nothing() {
        let rules = RuleSet::load("merkur").expect("merkur");
        let (a, _) = two_legal_values(&rules);
        let (sheet, readings) = misread_row(a, a, a);
        let decoded = decode(sheet, &readings, &rules, Lang::En);
        assert!(decoded.flags.is_empty(), "{:#?}", decoded.flags);
    }

    #[test]
    fn one_digit_apart_should_take_one_place_only() {
        assert!(one_digit_apart(10, 11));
        assert!(one_digit_apart(3, 5));
        assert!(!one_digit_apart(10, 1));
        assert!(!one_digit_apart(12, 21));
        assert!(!one_digit_apart(7, 7));
    }
}
