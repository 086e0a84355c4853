//! One writer is one witness. A sheet is written by one hand, so where the
//! reader doubts between the same two digits in several cells of a row,
//! that is one doubt about one shape of this writer's, not several
//! independent ones: four 3s all drawn like 5s read "5" four times, and
//! their agreement says nothing of whether the shape is a 5. A row weighs
//! such readings together as one: each by the `1/k`-th power of its
//! probabilities, where `k` cells share the doubt (their product is then
//! the geometric mean of their readings, one reading's worth). Only
//! evidence from outside them (a surely read cell, the tariff, a column
//! sum) makes them sure.

use super::{Evidence, Field, FieldReading, is_uncertain};
use crate::read::Reading;

/// The digits a reading is in doubt between: its text and its likeliest
/// alternative of as many digits differ in one place, the pair of digits
/// there (smaller first, so that a shape read either way is one doubt).
pub(super) fn doubt_between(r: &Reading) -> Option<(u8, u8)> {
    read_over(r).map(|(a, b)| (a.min(b), a.max(b)))
}

/// The digit read and the digit it was doubted against, in the one place
/// where a reading and its likeliest alternative of as many digits differ.
fn read_over(r: &Reading) -> Option<(u8, u8)> {
    let alt = r
        .alternatives
        .iter()
        .map(|(t, _)| t)
        .find(|t| t.len() == r.text.len() && **t != r.text)?;
    let differ: Vec<(u8, u8)> = r
        .text
        .bytes()
        .zip(alt.bytes())
        .filter(|(a, b)| a != b)
        .collect();
    match differ[..] {
        [(a, b)] if a.is_ascii_digit() && b.is_ascii_digit() => Some((a, b)),
        _ => None,
    }
}

/// For each cell of a row (its doubt, or `None` for a cell read surely or
/// in no such doubt), the power its reading is weighed with: `1/k` for the
/// `k` cells that share one doubt, 1 for the others.
pub(super) fn weights(doubts: &[Option<(u8, u8)>]) -> Vec<f64> {
    doubts
        .iter()
        .map(|d| {
            let shared = d.map_or(1, |d| doubts.iter().filter(|o| **o == Some(d)).count());
            1.0 / shared as f64
        })
        .collect()
}

/// What evidence from outside a footer field's own shape settled.
pub(super) struct Settled<'a> {
    /// A game cell its row made sure (the tariff, the row's sure cells).
    pub(super) cells: &'a dyn Fn(Field) -> bool,
    /// A Gesamt (seat, minus) its column's sum confirmed.
    pub(super) gesamt: &'a dyn Fn(usize, bool) -> bool,
}

/// Whether a seat's footer field read in doubt is read so by the same
/// doubt as a field that would confirm it, itself still in doubt: the same
/// digit read over the same other one. A Gesamt "55" over "53" and a cell
/// of its column "5" over "3" that its row leaves in doubt are one shape
/// of the writer's read alike twice, and their agreement is no evidence
/// for either. A Gesamt shares so with its column's cells; an Abzug or
/// Endergebnis with the seat's Gesamt, unless that Gesamt's column
/// confirms it on its own (sharing with none of its cells).
pub(super) fn footer_shares_doubt(ev: &Evidence, field: Field, settled: &Settled) -> bool {
    let Some(doubt) = ev.by_field.get(&field).and_then(|f| read_over(&f.reading)) else {
        return false;
    };
    let alike = |o: &FieldReading| is_uncertain(o) && read_over(&o.reading) == Some(doubt);
    match field {
        Field::Gesamt(s, m) => ev.readings.fields.iter().any(|o| {
            matches!(o.field, Field::Game(_, t, n) if (t, n) == (s, m))
                && alike(o)
                && !(settled.cells)(o.field)
        }),
        Field::Abzug(s) | Field::Endergebnis(s) => [false, true].into_iter().any(|m| {
            let gesamt = Field::Gesamt(s, m);
            ev.by_field.get(&gesamt).is_some_and(|g| {
                alike(g) && (!(settled.gesamt)(s, m) || footer_shares_doubt(ev, gesamt, settled))
            })
        }),
        _ => false,
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::*;
    use super::*;
    use crate::read::reading;
    use crate::sheet::{Cell, finished_sheet};

    /// Game row `no` that seats 1 and 2 win by `k` from seats 3 and 4.
    fn partners(no: u32, k: u32) -> GameRow {
        GameRow {
            no,
            cells: vec![Cell::plus(k), Cell::plus(k), Cell::minus(k), Cell::minus(k)],
            initials: false,
            class: None,
            extra: Map::new(),
        }
    }

    /// A Doppelkopf night's sheet of 16 rows (k, k, -k, -k), k as the
    /// row's number gives it, rows 2, 9 and 16 written with 3s; its footer
    /// added up from what was written and read surely. Every game cell is
    /// read surely but the 3s, which `read_3` reads (by seat).
    pub(crate) fn one_shape_misread(
        read_3: &dyn Fn(usize) -> Reading,
    ) -> (SheetResult, CellReadings) {
        let k = |no: u32| {
            if [2, 9, 16].contains(&no) {
                3
            } else {
                2 - no % 2
            }
        };
        let players = (1..=4).map(|i| Some(i.to_string())).collect();
        let written: Vec<GameRow> = (1..=16).map(|no| partners(no, k(no))).collect();
        let mut sheet = finished_sheet("doppelkopf", written, players);
        let mut fields = Vec::new();
        for g in &mut sheet.games {
            for (i, c) in g.cells.iter_mut().enumerate() {
                let minus = c.minus.is_some();
                let r = if k(g.no) == 3 {
                    read_3(i + 1)
                } else {
                    reading(&k(g.no).to_string(), 0.999, &[])
                };
                let v = r.value();
                *c = if minus {
                    Cell::minus(v.unwrap_or(0))
                } else {
                    Cell::plus(v.unwrap_or(0))
                };
                fields.push(FieldReading {
                    field: Field::Game(g.no, i + 1, minus),
                    reading: r,
                    what: format!("row {} seat {}", g.no, i + 1),
                });
            }
        }
        for (i, g) in sheet.gesamt.iter().enumerate() {
            let g = g.unwrap_or_default();
            for (m, v) in [(false, g.plus), (true, g.minus)] {
                fields.push(FieldReading {
                    field: Field::Gesamt(i + 1, m),
                    reading: reading(&v.unwrap_or(0).to_string(), 0.999, &[]),
                    what: "Gesamt".into(),
                });
            }
        }
        let readings = CellReadings {
            fields,
            ..Default::default()
        };
        (sheet, readings)
    }

    /// The cells written 3 that hold a wrong value without a flag.
    pub(crate) fn silent_3s(decoded: &SheetResult) -> Vec<(u32, usize)> {
        let mut silent = Vec::new();
        for g in decoded.games.iter().filter(|g| [2, 9, 16].contains(&g.no)) {
            for (i, c) in g.cells.iter().enumerate() {
                let flagged = decoded.flags.iter().any(|f| {
                    f.code == Code::CellUncertain && f.row == Some(g.no) && f.seat == Some(i + 1)
                });
                if c.plus.or(c.minus) != Some(3) && !flagged {
                    silent.push((g.no, i + 1));
                }
            }
        }
        silent
    }

    #[test]
    fn one_shape_read_alike_in_every_seat_should_not_make_itself_sure() {
        let rules = RuleSet::load("doppelkopf").expect("doppelkopf");
        // Each seat's 3 read "5" in doubt, as one writer's 3s all drawn
        // alike read: four such doubts made each other sure in their row.
        let seats = [0.934, 0.903, 0.85, 0.893];
        for shift in [-0.3, -0.1, 0.0, 0.04] {
            let read_3 = |seat: usize| {
                let p: f32 = seats[seat - 1] + shift;
                reading("5", p, &[("3", 1.0 - p)])
            };
            let (sheet, readings) = one_shape_misread(&read_3);
            let decoded = decode(sheet, &readings, &rules, Lang::En);
            let silent = silent_3s(&decoded);
            assert!(
                silent.is_empty(),
                "{shift}: {silent:?} {:#?}",
                decoded.flags
            );
        }
    }

    #[test]
    fn a_footer_read_in_the_same_doubt_as_its_column_should_not_confirm_it() {
        // Rows (k, k, -k, -k) for k = 2, 4, 4, 3: every column adds up to
        // 13. The 3s and every footer's 3 are read "5" over "3", so the
        // sheet as read agrees with itself at 15 throughout.
        let rules = RuleSet::load("doppelkopf").expect("doppelkopf");
        let rows: Vec<GameRow> = [2, 4, 4, 3]
            .into_iter()
            .zip(1..)
            .map(|(k, no)| partners(no, k))
            .collect();
        let players = (1..=4).map(|i| Some(i.to_string())).collect();
        let mut sheet = finished_sheet("doppelkopf", rows, players);
        let doubtful = |read: &str, written: &str| reading(read, 0.9, &[(written, 0.1)]);
        let mut fields = Vec::new();
        for g in &mut sheet.games {
            for (i, c) in g.cells.iter_mut().enumerate() {
                let (minus, v) = (c.minus.is_some(), c.plus.or(c.minus).unwrap_or(0));
                let r = if v == 3 {
                    doubtful("5", "3")
                } else {
                    reading(&v.to_string(), 0.999, &[])
                };
                let shown = if v == 3 { 5 } else { v };
                *c = if minus {
                    Cell::minus(shown)
                } else {
                    Cell::plus(shown)
                };
                fields.push(FieldReading {
                    field: Field::Game(g.no, i + 1, minus),
                    reading: r,
                    what: format!("row {} seat {}", g.no, i + 1),
                });
            }
        }
        for s in 1..=4 {
            let minus = s > 2;
            let g = sheet.gesamt[s - 1].get_or_insert_default();
            *(if minus { &mut g.minus } else { &mut g.plus }) = Some(15);
            sheet.endergebnis[s - 1] = Some(if minus { -15 } else { 15 });
            let footer = [
                (Field::Gesamt(s, minus), doubtful("15", "13")),
                (Field::Gesamt(s, !minus), reading("0", 0.999, &[])),
                (Field::Abzug(s), reading("0", 0.999, &[])),
                (Field::Endergebnis(s), doubtful("15", "13")),
            ];
            for (field, r) in footer {
                fields.push(FieldReading {
                    field,
                    reading: r,
                    what: format!("{field:?}"),
                });
            }
        }
        let readings = CellReadings {
            fields,
            ..Default::default()
        };
        let decoded = decode(sheet, &readings, &rules, Lang::En);
        for s in 1..=4 {
            let asked = |f: &Flag| {
                f.code == Code::CellUncertain
                    && f.seat == Some(s)
                    && (f.row.is_none() || f.row == Some(4))
            };
            assert!(
                decoded.flags.iter().any(asked),
                "seat {s}: {:#?}",
                decoded.flags
            );
        }
    }

    #[test]
    fn a_doubt_should_be_the_pair_of_digits_in_the_one_place_that_differs() {
        assert_eq!(
            doubt_between(&reading("5", 0.7, &[("3", 0.3)])),
            Some((b'3', b'5'))
        );
        assert_eq!(
            doubt_between(&reading("3", 0.6, &[("5", 0.4)])),
            Some((b'3', b'5'))
        );
        assert_eq!(
            doubt_between(&reading("15", 0.6, &[("1", 0.2), ("13", 0.2)])),
            Some((b'3', b'5')),
            "the first alternative of as many digits"
        );
        assert_eq!(doubt_between(&reading("35", 0.6, &[("53", 0.4)])), None);
        assert_eq!(doubt_between(&reading("5", 0.999, &[])), None);
    }

    #[test]
    fn cells_sharing_a_doubt_should_count_as_one_witness() {
        let d = Some((b'3', b'5'));
        let other = Some((b'1', b'7'));
        assert_eq!(
            weights(&[d, d, None, d, other]),
            [1.0 / 3.0, 1.0 / 3.0, 1.0, 1.0 / 3.0, 1.0]
        );
    }
}
