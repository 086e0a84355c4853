//! The rule checker: recomputes every flag that follows from a sheet's
//! values. It never changes a value: what is written stays written.

use crate::classify::{Candidate, candidates};
use crate::error::SheetError;
use crate::flags::{Code, Flag};
use crate::messages::{Lang, Msg, row_values};
use crate::rules::{RuleSet, TableSize};
use crate::sheet::{Cell, GameRow, SheetResult, Status};

/// Checks `sheet` against `rules`: flags and game classes recomputed, values untouched.
///
/// Flags that come from reading the paper (`CELL_UNCERTAIN`,
/// `SHEET_UNREADABLE`) are kept as they are. An unreadable sheet stays unreadable.
pub fn verify(
    mut sheet: SheetResult,
    rules: &RuleSet,
    lang: Lang,
) -> Result<SheetResult, SheetError> {
    let reading: Vec<Flag> = sheet
        .flags
        .drain(..)
        .filter(|f| f.code.is_from_reading())
        .collect();
    sheet.rules = Some(rules.id.clone());
    if sheet.status == Status::Unreadable || reading.iter().any(|f| f.code == Code::SheetUnreadable)
    {
        sheet.flags = reading;
        sheet.status = Status::Unreadable;
        return Ok(sheet);
    }

    let used = used_seats(&sheet);
    let table = rules
        .table_for(used)
        .ok_or_else(|| SheetError::SeatsForRules {
            used,
            rules: rules.id.clone(),
            max: rules.max_players(),
        })?;
    if table.players > sheet.seats() {
        return Err(SheetError::TooFewSeats {
            seats: sheet.seats(),
            rules: rules.id.clone(),
            players: table.players,
        });
    }
    let mut checker = Checker {
        rules,
        table,
        lang,
        flags: Vec::new(),
    };

    let first_game = sheet.games.iter().map(|g| g.no).min();
    for row in &mut sheet.games {
        row.class = checker.row(row, Some(row.no) == first_game);
        // A class read in with the sheet (it is not parsed) is replaced, not doubled.
        row.extra.remove("class");
    }
    checker.game_count(&sheet);
    checker.footer(&sheet);
    checker.seats(&sheet);

    let mut flags = checker.flags;
    flags.extend(reading);
    flags.sort_by_key(|f| (f.row.is_none(), f.row, f.seat, f.code));
    sheet.status = if flags.is_empty() {
        Status::Ok
    } else {
        Status::Flagged
    };
    sheet.flags = flags;
    Ok(sheet)
}

/// The highest seat (from 1) with anything on it: a 5-seat Doppelkopf sheet
/// with an empty fifth column is a 4-player table.
fn used_seats(sheet: &SheetResult) -> usize {
    (0..sheet.seats())
        .rev()
        .find(|&s| {
            sheet.players[s].is_some()
                || sheet.signatures[s]
                || sheet.abzug[s].is_some()
                || sheet.endergebnis[s].is_some()
                || sheet.gesamt[s].is_some_and(|g| g.plus.is_some() || g.minus.is_some())
                || sheet.games.iter().any(|g| g.cells[s].has_writing())
        })
        .map_or(0, |s| s + 1)
}

struct Checker<'r> {
    rules: &'r RuleSet,
    table: &'r TableSize,
    lang: Lang,
    flags: Vec<Flag>,
}

impl Checker<'_> {
    fn flag(
        &mut self,
        code: Code,
        row: Option<u32>,
        seat: Option<usize>,
        field: Option<&str>,
        msg: Msg,
    ) {
        self.flags.push(Flag {
            code,
            severity: code.severity(),
            row,
            seat,
            field: field.map(str::to_string),
            message: msg.text(self.lang),
            extra: Default::default(),
        });
    }

    fn row(&mut self, row: &GameRow, first_game: bool) -> Option<crate::classify::GameClass> {
        let no = row.no;
        let seats = self.table.players;
        let cells = &row.cells[..seats];

        for (s, cell) in cells.iter().enumerate() {
            if cell.corrected && !row.initials {
                self.flag(
                    Code::CorrectionNotInitialled,
                    Some(no),
                    Some(s + 1),
                    None,
                    Msg::CorrectionNotInitialled {
                        row: no,
                        seat: s + 1,
                    },
                );
            }
        }

        let mut broken = false;
        for (s, cell) in cells.iter().enumerate() {
            if cell.plus.is_some() && cell.minus.is_some() {
                broken = true;
                self.flag(
                    Code::RowSeatBoth,
                    Some(no),
                    Some(s + 1),
                    None,
                    Msg::RowSeatBoth {
                        row: no,
                        seat: s + 1,
                    },
                );
            }
        }
        let empty: Vec<usize> = (0..seats).filter(|&s| cells[s].is_empty()).collect();
        if empty.len() > self.table.sits_out {
            broken = true;
            for &s in &empty {
                self.flag(
                    Code::RowSeatEmpty,
                    Some(no),
                    Some(s + 1),
                    None,
                    Msg::RowSeatEmpty {
                        row: no,
                        seat: s + 1,
                    },
                );
            }
        }
        if broken {
            return None;
        }

        let values: Vec<Option<i64>> = cells.iter().map(Cell::value).collect();
        let sum: i64 = values.iter().flatten().sum();
        if sum != 0 {
            self.flag(
                Code::RowNotZeroSum,
                Some(no),
                None,
                None,
                Msg::RowNotZeroSum { row: no, sum },
            );
            return None;
        }

        // Who sits out: the empty seat, or else any seat written as 0.
        let sitters: Vec<Option<usize>> = match (self.table.sits_out, empty.as_slice()) {
            (0, _) => vec![None],
            (_, [s]) => vec![Some(*s)],
            _ => (0..seats)
                .filter(|&s| values[s] == Some(0))
                .map(Some)
                .collect(),
        };
        let circled = |s: usize| cells[s].circled;
        let mut found: Vec<Candidate> = Vec::new();
        for sitter in sitters {
            let playing: Vec<(usize, i64)> = (0..seats)
                .filter(|&s| Some(s) != sitter)
                .filter_map(|s| values[s].map(|v| (s, v)))
                .collect();
            for mut c in candidates(self.rules, &playing, &circled) {
                c.sitting_out = sitter;
                found.push(c);
            }
        }
        let Some(best) = found.into_iter().min_by_key(|c| {
            (
                circle_mismatches(c, cells),
                c.tariff.initials && !row.initials,
                first_game && !c.tariff.first_game,
                c.laufende,
                c.order,
            )
        }) else {
            self.flag(
                Code::RowIllegalValues,
                Some(no),
                None,
                None,
                Msg::RowIllegalValues {
                    row: no,
                    values: row_values(&values),
                },
            );
            return None;
        };

        let game = best.tariff.name.clone();
        if first_game && !best.tariff.first_game {
            self.flag(
                Code::FirstGameRestricted,
                Some(no),
                None,
                None,
                Msg::FirstGameRestricted {
                    row: no,
                    game: game.clone(),
                },
            );
        }
        if best.tariff.initials && !row.initials {
            self.flag(
                Code::ToutNotInitialled,
                Some(no),
                None,
                None,
                Msg::ToutNotInitialled {
                    row: no,
                    game: game.clone(),
                },
            );
        }
        let expected = best.circled_seat();
        for (s, cell) in cells.iter().enumerate() {
            let seat = s + 1;
            if expected == Some(s) && !cell.circled {
                self.flag(
                    Code::SoloNotCircled,
                    Some(no),
                    Some(seat),
                    None,
                    Msg::SoloNotCircled {
                        row: no,
                        seat,
                        game: game.clone(),
                    },
                );
            } else if expected != Some(s) && cell.circled {
                self.flag(
                    Code::CircleNotSolo,
                    Some(no),
                    Some(seat),
                    None,
                    Msg::CircleNotSolo { row: no, seat },
                );
            }
        }
        let playing: Vec<(usize, i64)> = values
            .iter()
            .enumerate()
            .filter_map(|(s, v)| v.map(|v| (s, v)))
            .collect();
        Some(best.to_class(&playing))
    }

    fn game_count(&mut self, sheet: &SheetResult) {
        let counted = sheet
            .games
            .iter()
            .filter(|g| g.class.as_ref().is_none_or(|c| c.counts_as_game))
            .count() as u32;
        let expected = self.table.games;
        if counted != expected {
            let players = self.table.players;
            self.flag(
                Code::GameCount,
                None,
                None,
                None,
                Msg::GameCount {
                    counted,
                    expected,
                    players,
                },
            );
        }
    }

    /// Each footer line against the line above it as written (or, where that
    /// is blank, as the rows give it): the flag lands on the step that is wrong.
    fn footer(&mut self, sheet: &SheetResult) {
        let mut ends = 0i64;
        for s in 0..self.table.players {
            let seat = s + 1;
            let column = |pick: fn(&Cell) -> Option<u32>| -> u64 {
                sheet
                    .games
                    .iter()
                    .filter_map(|g| pick(&g.cells[s]))
                    .map(u64::from)
                    .sum()
            };
            let plus_sum = column(|c| c.plus);
            let minus_sum = column(|c| c.minus);
            let gesamt = sheet.gesamt[s].unwrap_or_default();
            for (plus, written, sum) in [
                (true, gesamt.plus, plus_sum),
                (false, gesamt.minus, minus_sum),
            ] {
                if !matches_written(written, sum) {
                    self.flag(
                        Code::GesamtMismatch,
                        None,
                        Some(seat),
                        Some(if plus { "plus" } else { "minus" }),
                        Msg::GesamtMismatch {
                            seat,
                            plus,
                            written,
                            sum,
                        },
                    );
                }
            }
            let plus = gesamt.plus.map_or(plus_sum, u64::from);
            let minus = gesamt.minus.map_or(minus_sum, u64::from);
            let abzug = plus.min(minus);
            if !matches_written(sheet.abzug[s], abzug) {
                self.flag(
                    Code::AbzugMismatch,
                    None,
                    Some(seat),
                    Some("abzug"),
                    Msg::AbzugMismatch {
                        seat,
                        written: sheet.abzug[s],
                        expected: abzug,
                    },
                );
            }
            // Sums of u32 values over a page of rows stay far inside i64.
            let end = plus as i64 - minus as i64;
            let written = sheet.endergebnis[s];
            if written.unwrap_or(0) != end {
                self.flag(
                    Code::EndergebnisMismatch,
                    None,
                    Some(seat),
                    Some("endergebnis"),
                    Msg::EndergebnisMismatch {
                        seat,
                        written,
                        expected: end,
                    },
                );
            }
            ends = ends.saturating_add(written.unwrap_or(0));
        }
        if ends != 0 {
            self.flag(
                Code::EndergebnisNotZero,
                None,
                None,
                None,
                Msg::EndergebnisNotZero { sum: ends },
            );
        }
    }

    fn seats(&mut self, sheet: &SheetResult) {
        for s in 0..self.table.players {
            let seat = s + 1;
            if let Some(tag) = &self.rules.pflichtsolo {
                let played = sheet
                    .games
                    .iter()
                    .filter_map(|g| g.class.as_ref())
                    .any(|c| c.soloist == Some(seat) && c.tags.iter().any(|t| t == tag));
                if !played {
                    self.flag(
                        Code::PflichtsoloMissing,
                        None,
                        Some(seat),
                        None,
                        Msg::PflichtsoloMissing { seat },
                    );
                }
            }
            if !sheet.signatures[s] {
                self.flag(
                    Code::SignatureMissing,
                    None,
                    Some(seat),
                    Some("signature"),
                    Msg::SignatureMissing { seat },
                );
            }
            if sheet.players[s].is_none() {
                self.flag(
                    Code::PlayerIdMissing,
                    None,
                    Some(seat),
                    Some("player_id"),
                    Msg::PlayerIdMissing { seat },
                );
            }
        }
    }
}

/// A blank footer cell is right where the value would be 0.
fn matches_written(written: Option<u32>, value: u64) -> bool {
    written.map_or(0, u64::from) == value
}

fn circle_mismatches(c: &Candidate, cells: &[Cell]) -> usize {
    let expected = c.circled_seat();
    cells
        .iter()
        .enumerate()
        .filter(|(s, cell)| cell.circled != (expected == Some(*s)))
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_verified_sheet_verified_again_names_each_rows_class_once() {
        let rules = RuleSet::load("merkur").expect("rules");
        let once = verify(crate::synth::one_row_sheet(1), &rules, Lang::En).expect("verify");
        let text = once.to_json_pretty();
        let again = SheetResult::from_json("once.json", &text).expect("parse");
        let twice = verify(again, &rules, Lang::En).expect("verify");
        let text = twice.to_json_pretty();
        assert_eq!(text.matches("\"class\"").count(), 1, "{text}");
    }
}
