//! The rule checker: recomputes every flag that follows from a sheet's
//! values. It never changes a value: what is written stays written.

use crate::check::classify::{Candidate, candidates};
use crate::check::flags::{Code, Flag};
use crate::check::messages::{Lang, Msg, row_values};
use crate::check::rules::{RuleSet, TableSize};
use crate::check::{as_read, one_look, rows_named};
use crate::error::SheetError;
use crate::sheet::notes::Accepted;
use crate::sheet::{Cell, GameRow, SheetResult, Status};

/// The `INK_DIFFERS` flags that the supervisor's initials at the desk
/// accept (the seeds: a change is valid once the Aufsicht has signed it),
/// taken out of `flags`: a game row's by the row's initials, a footer
/// value's by that value's. The paper's own Aufs. box does not accept a
/// later edit: it may have been there before the edit.
fn accept_initialled(sheet: &SheetResult, flags: &mut Vec<Flag>) -> Vec<Accepted> {
    let initials_of = |f: &Flag| {
        let notes = &sheet.notes;
        match (f.row, f.seat, f.field.as_deref()) {
            (Some(row), _, _) => notes
                .supervisor_initials
                .iter()
                .find(|i| i.row == row)
                .map(|i| (&i.by, &i.at)),
            (None, Some(seat), Some(field)) => notes
                .footer_initials
                .iter()
                .find(|i| i.seat == seat && i.field == field)
                .map(|i| (&i.by, &i.at)),
            _ => None,
        }
    };
    let mut accepted = Vec::new();
    flags.retain(|f| {
        let by = (f.code == Code::InkDiffers)
            .then(|| initials_of(f))
            .flatten();
        let Some((by, at)) = by else { return true };
        accepted.push(Accepted {
            flag: f.clone(),
            by: by.clone(),
            at: at.clone(),
        });
        false
    });
    accepted
}

/// The `WRONG_GAME` flag a supervisor settled as the night's game after
/// all (`game_confirmed`), taken out of `flags` into the accepted ones:
/// the night's rules then check the sheet.
fn accept_confirmed_game(sheet: &mut SheetResult, flags: &mut Vec<Flag>) {
    let Some(settled) = sheet.notes.game_confirmed.clone() else {
        return;
    };
    flags.retain(|f| {
        if f.code != Code::WrongGame {
            return true;
        }
        sheet.notes.accepted.push(Accepted {
            flag: f.clone(),
            by: settled.by.clone(),
            at: settled.at.clone(),
        });
        false
    });
}

/// Checks `sheet` against `rules`: flags and game classes recomputed, values untouched.
///
/// Flags that come from reading the paper (`CELL_UNCERTAIN`,
/// `SHEET_UNREADABLE`) are kept as they are. An unreadable sheet stays unreadable.
pub fn verify(
    mut sheet: SheetResult,
    rules: &RuleSet,
    lang: Lang,
) -> Result<SheetResult, SheetError> {
    // Flags accepted before are judged again: initials taken back open them.
    let accepted = sheet.notes.accepted.drain(..).map(|a| a.flag);
    let mut reading: Vec<Flag> = (sheet.flags.drain(..).chain(accepted))
        .filter(|f| f.code.is_from_reading())
        .collect();
    sheet.notes.accepted = accept_initialled(&sheet, &mut reading);
    accept_confirmed_game(&mut sheet, &mut reading);
    one_look::unfold(&mut reading);
    sheet.rules = Some(rules.id.clone());
    if sheet.status == Status::Unreadable || reading.iter().any(|f| f.code == Code::SheetUnreadable)
    {
        sheet.flags = reading;
        sheet.status = Status::Unreadable;
        return Ok(sheet);
    }
    // Another game's sheet: the night's tariff has nothing to say of it.
    if reading.iter().any(|f| f.code == Code::WrongGame) {
        sheet.flags = reading;
        sheet.status = Status::Flagged;
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
    let mut flags = check(&mut sheet, rules, table, lang);
    let as_read_flags = flags.clone();
    // A rule flag that the sheet as read shows but its most probable reading
    // (each uncertain cell at its suggestion) does not is a consequence of
    // the uncertain reading, not a finding about the writer: the
    // CELL_UNCERTAIN already points there, so it is kept aside, not raised.
    sheet.notes.flags_if_read_as_is.clear();
    if let Some(mut probable) = as_read::most_probable(&sheet, &reading) {
        let probable_flags = check(&mut probable, rules, table, lang);
        let (kept, aside): (Vec<Flag>, Vec<Flag>) = flags
            .into_iter()
            .partition(|f| probable_flags.iter().any(|p| f.same_finding(p)));
        flags = kept;
        // And one that only the most probable reading shows is the
        // writer's (a Gesamt that matches a misread cell, not the cell).
        for p in probable_flags {
            if !flags.iter().any(|f| f.same_finding(&p)) {
                flags.push(p);
            }
        }
        sheet.notes.flags_if_read_as_is = aside;
    }
    // Each uncertain cell names the raised flags its alternatives would clear.
    let recheck = |s: &mut SheetResult| check(s, rules, table, lang);
    let clears =
        as_read::explain_by_alternatives(&sheet, &flags, &as_read_flags, &mut reading, recheck);
    rows_named::name_rows(&sheet, &mut flags, &reading, lang);
    one_look::fold(&mut flags, &mut reading, &clears, lang);
    flags.extend(reading);
    crate::check::flags::sort(&mut flags);
    sheet.status = if flags.is_empty() {
        Status::Ok
    } else {
        Status::Flagged
    };
    sheet.flags = flags;
    Ok(sheet)
}

/// The rule flags of `sheet`, its rows' game classes set.
fn check(sheet: &mut SheetResult, rules: &RuleSet, table: &TableSize, lang: Lang) -> Vec<Flag> {
    let mut checker = Checker {
        rules,
        table,
        lang,
        flags: Vec::new(),
        initialled_at_desk: sheet
            .notes
            .supervisor_initials
            .iter()
            .map(|i| i.row)
            .collect(),
    };
    let first_game = sheet.games.iter().map(|g| g.no).min();
    for row in &mut sheet.games {
        row.class = checker.row(row, Some(row.no) == first_game);
        // A class read in with the sheet (it is not parsed) is replaced, not doubled.
        row.extra.remove("class");
    }
    checker.game_count(sheet);
    checker.footer(sheet);
    checker.seats(sheet);
    checker.flags
}

/// The highest seat (from 1) with anything on it: a 5-seat Doppelkopf sheet
/// with an empty fifth column is a 4-player table.
pub(crate) fn used_seats(sheet: &SheetResult) -> usize {
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
    /// Game rows the supervisor initialled at the desk.
    initialled_at_desk: std::collections::BTreeSet<u32>,
}

impl<'r> Checker<'r> {
    /// Initialled on the paper's Aufs. box, or by the supervisor at the desk.
    fn initialled(&self, row: &GameRow) -> bool {
        row.initials || self.initialled_at_desk.contains(&row.no)
    }

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
            detail: Default::default(),
            extra: Default::default(),
        });
    }

    /// The row's flags, and its game where the row is one.
    fn row(
        &mut self,
        row: &GameRow,
        first_game: bool,
    ) -> Option<crate::check::classify::GameClass> {
        let cells = &row.cells[..self.table.players];
        self.corrections(row);
        let empty = self.seats_written(row)?;
        let values: Vec<Option<i64>> = cells.iter().map(Cell::value).collect();
        let sum: i64 = values.iter().flatten().sum();
        if sum != 0 {
            let no = row.no;
            let msg = Msg::RowNotZeroSum { row: no, sum };
            self.flag(Code::RowNotZeroSum, Some(no), None, None, msg);
            return None;
        }
        let Some(best) = self.best_game(row, &values, &empty, first_game) else {
            let no = row.no;
            let values = row_values(&values);
            let msg = Msg::RowIllegalValues { row: no, values };
            self.flag(Code::RowIllegalValues, Some(no), None, None, msg);
            return None;
        };
        self.game_flags(row, &best, first_game);
        let playing: Vec<(usize, i64)> = values
            .iter()
            .enumerate()
            .filter_map(|(s, v)| v.map(|v| (s, v)))
            .collect();
        Some(best.to_class(&playing))
    }

    /// A value changed on the paper needs the supervisor's initials.
    fn corrections(&mut self, row: &GameRow) {
        let no = row.no;
        for (s, cell) in row.cells[..self.table.players].iter().enumerate() {
            if cell.corrected && !self.initialled(row) {
                let was = cell.notes.struck.and_then(|x| x.value);
                let msg = Msg::CorrectionNotInitialled {
                    row: no,
                    seat: s + 1,
                    change: was.zip(cell.plus.or(cell.minus)),
                };
                self.flag(
                    Code::CorrectionNotInitialled,
                    Some(no),
                    Some(s + 1),
                    None,
                    msg,
                );
            }
        }
    }

    /// The row's empty seats, or `None` where a seat holds both columns or
    /// more seats are empty than sit out (the row is no game then).
    fn seats_written(&mut self, row: &GameRow) -> Option<Vec<usize>> {
        let no = row.no;
        let cells = &row.cells[..self.table.players];
        let mut broken = false;
        for (s, cell) in cells.iter().enumerate() {
            if cell.plus.is_some() && cell.minus.is_some() {
                broken = true;
                let msg = Msg::RowSeatBoth {
                    row: no,
                    seat: s + 1,
                };
                self.flag(Code::RowSeatBoth, Some(no), Some(s + 1), None, msg);
            }
        }
        let empty: Vec<usize> = (0..cells.len()).filter(|&s| cells[s].is_empty()).collect();
        if empty.len() > self.table.sits_out {
            broken = true;
            for &s in &empty {
                let msg = Msg::RowSeatEmpty {
                    row: no,
                    seat: s + 1,
                };
                self.flag(Code::RowSeatEmpty, Some(no), Some(s + 1), None, msg);
            }
        }
        (!broken).then_some(empty)
    }

    /// The game of the tariff the row's values fit best: the circles as
    /// written, the initials, the first game's restriction, then the tariff's order.
    fn best_game(
        &self,
        row: &GameRow,
        values: &[Option<i64>],
        empty: &[usize],
        first_game: bool,
    ) -> Option<Candidate<'r>> {
        let seats = self.table.players;
        let cells = &row.cells[..seats];
        // Who sits out: the empty seat, or else any seat written as 0.
        let sitters: Vec<Option<usize>> = match (self.table.sits_out, empty) {
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
        found.into_iter().min_by_key(|c| {
            (
                circle_mismatches(c, cells),
                c.tariff.initials && !self.initialled(row),
                first_game && !c.tariff.first_game,
                c.laufende,
                c.order,
            )
        })
    }

    /// What the row's game asks of the sheet: allowed first, initialled,
    /// the soloist's value circled and no other.
    fn game_flags(&mut self, row: &GameRow, best: &Candidate, first_game: bool) {
        let no = row.no;
        let game = best.tariff.name.clone();
        if first_game && !best.tariff.first_game {
            let msg = Msg::FirstGameRestricted {
                row: no,
                game: game.clone(),
            };
            self.flag(Code::FirstGameRestricted, Some(no), None, None, msg);
        }
        if best.tariff.initials && !self.initialled(row) {
            let msg = Msg::ToutNotInitialled {
                row: no,
                game: game.clone(),
            };
            self.flag(Code::ToutNotInitialled, Some(no), None, None, msg);
        }
        let expected = best.circled_seat();
        for (s, cell) in row.cells[..self.table.players].iter().enumerate() {
            let seat = s + 1;
            if expected == Some(s) && !cell.circled {
                let msg = Msg::SoloNotCircled {
                    row: no,
                    seat,
                    game: game.clone(),
                };
                self.flag(Code::SoloNotCircled, Some(no), Some(seat), None, msg);
            } else if expected != Some(s) && cell.circled {
                let msg = Msg::CircleNotSolo { row: no, seat };
                self.flag(Code::CircleNotSolo, Some(no), Some(seat), None, msg);
            }
        }
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
    use crate::check::flags::FlagDetail;

    #[test]
    fn a_verified_sheet_verified_again_names_each_rows_class_once() {
        let rules = RuleSet::load("merkur").expect("rules");
        let once =
            verify(crate::sheet::example::one_row_sheet(1), &rules, Lang::En).expect("verify");
        let text = once.to_json_pretty();
        let again = SheetResult::from_json("once.json", &text).expect("parse");
        let twice = verify(again, &rules, Lang::En).expect("verify");
        let text = twice.to_json_pretty();
        assert_eq!(text.matches("\"class\"").count(), 1, "{text}");
    }

    /// Row 1 of a legal sheet with seat 3's minus read as `read_value`, the
    /// reading (`reading`) flagged uncertain with the suggestion 1 at `p`.
    fn misread_sheet(read_value: u32, reading: &str, p: f64) -> SheetResult {
        let mut sheet = crate::sheet::example::one_row_sheet(1);
        sheet.games[0].cells[2].minus = Some(read_value);
        sheet
            .flags
            .push(seat_3_minus_suggests_1(Some(1), reading, p));
        sheet
    }

    /// A CELL_UNCERTAIN on seat 3's minus (a game cell in `row`, or its
    /// Gesamt) read as `reading`, with the suggestion 1 at `p`.
    fn seat_3_minus_suggests_1(row: Option<u32>, reading: &str, p: f64) -> Flag {
        Flag {
            code: Code::CellUncertain,
            severity: Code::CellUncertain.severity(),
            row,
            seat: Some(3),
            field: Some("minus".into()),
            message: "uncertain".into(),
            detail: FlagDetail {
                reading: Some(reading.into()),
                suggestion: Some(1),
                suggestion_probability: Some(p),
                ..FlagDetail::default()
            },
            extra: Default::default(),
        }
    }

    fn codes(sheet: &SheetResult) -> Vec<Code> {
        sheet.flags.iter().map(|f| f.code).collect()
    }

    #[test]
    fn flags_only_an_uncertain_reading_causes_should_be_kept_aside() {
        let rules = RuleSet::load("merkur").expect("rules");
        let out = verify(misread_sheet(4, "4", 0.9), &rules, Lang::En).expect("verify");
        // (A one-row sheet also has too few games: that flag is the writer's.)
        assert_eq!(
            codes(&out),
            vec![Code::CellUncertain, Code::GameCount],
            "{:?}",
            out.flags
        );
        assert_eq!(
            out.games[0].cells[2].minus,
            Some(4),
            "the value stays as read"
        );
        let aside = serde_json::to_string(&out.notes.flags_if_read_as_is).expect("json");
        assert!(aside.contains("ROW_NOT_ZERO_SUM"), "{aside}");
        assert!(aside.contains("GESAMT_MISMATCH"), "{aside}");
        // Verified again (as `aufsicht verify` does): the same, not doubled.
        let again = verify(out.clone(), &rules, Lang::En).expect("verify");
        assert_eq!(again.to_json_pretty(), out.to_json_pretty());
    }

    #[test]
    fn an_unlikely_suggestion_should_not_hide_a_flag() {
        let rules = RuleSet::load("merkur").expect("rules");
        let out = verify(misread_sheet(4, "4", 0.3), &rules, Lang::En).expect("verify");
        assert!(
            codes(&out).contains(&Code::RowNotZeroSum),
            "{:?}",
            out.flags
        );
        assert!(out.notes.flags_if_read_as_is.is_empty());
    }

    #[test]
    fn an_uncertain_cell_should_name_the_raised_flags_its_alternatives_would_clear() {
        let rules = RuleSet::load("merkur").expect("rules");
        // Read "4" unsure, the suggestion 1 unlikely: the flags stay raised.
        let mut sheet = misread_sheet(4, "4", 0.3);
        sheet.flags[0].detail.alternatives = vec![("4".into(), 0.6), ("1".into(), 0.3)];
        let out = verify(sheet.clone(), &rules, Lang::En).expect("verify");
        assert!(
            codes(&out).contains(&Code::RowNotZeroSum),
            "{:?}",
            out.flags
        );
        let explains = |out: &SheetResult| {
            out.flags
                .iter()
                .find(|f| f.code == Code::CellUncertain)
                .map(|f| f.detail.explains.clone())
                .unwrap_or_default()
        };
        let named = explains(&out);
        assert!(named.contains(&Code::RowNotZeroSum), "{named:?}");
        assert!(named.contains(&Code::GesamtMismatch), "{named:?}");
        assert!(
            !named.contains(&Code::GameCount),
            "not this cell's: {named:?}"
        );
        // An alternative that clears nothing names nothing.
        sheet.flags[0].detail.alternatives = vec![("4".into(), 0.6), ("7".into(), 0.3)];
        sheet.flags[0].detail.suggestion = None;
        let out = verify(sheet, &rules, Lang::En).expect("verify");
        assert_eq!(explains(&out), Vec::<Code>::new());
    }

    #[test]
    fn a_flag_only_the_most_probable_reading_shows_should_be_raised() {
        // The writer added seat 3's minus column up to 2 (it holds a 1),
        // and the 1 was read as "2" (the row wants 1): as read, the column
        // matches its Gesamt; as most probably written, it does not.
        let rules = RuleSet::load("merkur").expect("rules");
        let mut sheet = misread_sheet(2, "2", 0.9);
        let g = sheet.gesamt[2].as_mut().expect("seat 3's Gesamt");
        g.minus = Some(2);
        let e = i64::from(g.plus.unwrap_or(0)) - 2;
        sheet.abzug[2] = Some(g.plus.unwrap_or(0).min(2));
        sheet.endergebnis[2] = Some(e);
        let out = verify(sheet, &rules, Lang::En).expect("verify");
        let gesamt = out
            .flags
            .iter()
            .find(|f| f.code == Code::GesamtMismatch)
            .expect("the writer's Gesamt is flagged");
        assert_eq!(gesamt.seat, Some(3), "{:?}", out.flags);
        assert!(
            !codes(&out).contains(&Code::RowNotZeroSum),
            "the misread row is the reader's: {:?}",
            out.flags
        );
    }

    #[test]
    fn a_misread_gesamt_minus_should_be_kept_aside_beside_the_writers_wrong_gesamt_plus() {
        // Seat 3: the writer's Gesamt Plus is 5 too high (read surely), its
        // Gesamt Minus, a 1, was read "7" with doubt (the column wants 1).
        let rules = RuleSet::load("merkur").expect("rules");
        let mut sheet = crate::sheet::example::one_row_sheet(1);
        let g = sheet.gesamt[2].as_mut().expect("seat 3's Gesamt");
        assert_eq!(g.minus, Some(1), "the column's sum");
        g.plus = Some(g.plus.unwrap_or(0) + 5);
        g.minus = Some(7);
        sheet.flags.push(seat_3_minus_suggests_1(None, "7", 0.97));
        let out = verify(sheet, &rules, Lang::En).expect("verify");
        let gesamt: Vec<_> = out
            .flags
            .iter()
            .filter(|f| f.code == Code::GesamtMismatch)
            .map(|f| (f.seat, f.field.as_deref()))
            .collect();
        assert_eq!(gesamt, vec![(Some(3), Some("plus"))], "{:?}", out.flags);
        let aside = serde_json::to_string(&out.notes.flags_if_read_as_is).expect("json");
        assert!(aside.contains("GESAMT_MISMATCH"), "{aside}");
    }

    /// Seat 3's Gesamt Minus (its column gives 1) read "7" unsure, "1"
    /// only 30% likely: not enough to keep its flags aside.
    fn gesamt_minus_read_7() -> SheetResult {
        let mut sheet = crate::sheet::example::one_row_sheet(1);
        let g = sheet.gesamt[2].as_mut().expect("seat 3's Gesamt");
        assert_eq!(g.minus, Some(1), "the column's sum");
        g.minus = Some(7);
        let mut u = seat_3_minus_suggests_1(None, "7", 0.3);
        u.detail.alternatives = vec![("7".into(), 0.6), ("1".into(), 0.3)];
        sheet.flags.push(u);
        sheet
    }

    #[test]
    fn the_footer_flags_one_unsure_footer_value_explains_should_be_its_one_look() {
        let rules = RuleSet::load("merkur").expect("rules");
        let out = verify(gesamt_minus_read_7(), &rules, Lang::En).expect("verify");
        assert_eq!(
            codes(&out),
            vec![Code::GameCount, Code::CellUncertain],
            "{:?}",
            out.flags
        );
        let look = &out.flags[1];
        let folded: Vec<(Code, Option<usize>)> = look
            .detail
            .consequences
            .iter()
            .map(|f| (f.code, f.seat))
            .collect();
        assert_eq!(
            folded,
            vec![
                (Code::GesamtMismatch, Some(3)),
                (Code::EndergebnisMismatch, Some(3))
            ]
        );
        for f in &look.detail.consequences {
            assert!(look.message.contains(&f.message), "{}", look.message);
        }
        assert!(
            look.is_error(),
            "the errors it carries keep the sheet in review"
        );
        // Verified again (as after a look at another cell): said once.
        let text = out.to_json_pretty();
        let again = SheetResult::from_json("again.json", &text).expect("parse");
        let again = verify(again, &rules, Lang::En).expect("verify");
        assert_eq!(again.to_json_pretty(), text);
        // Kept as read by a person (the desk drops the look): the
        // consequences stand as the writer's own flags.
        let mut kept = again.clone();
        kept.flags.retain(|f| f.code != Code::CellUncertain);
        let kept = verify(kept, &rules, Lang::En).expect("verify");
        assert_eq!(
            codes(&kept),
            vec![
                Code::GameCount,
                Code::GesamtMismatch,
                Code::EndergebnisMismatch
            ],
            "{:?}",
            kept.flags
        );
        // Set to what the column gives: nothing is left to say.
        let mut fixed = again;
        fixed.gesamt[2].as_mut().expect("Gesamt").minus = Some(1);
        let fixed = verify(fixed, &rules, Lang::En).expect("verify");
        let look = &fixed.flags[1];
        assert!(look.detail.consequences.is_empty(), "{look:?}");
        assert!(!look.is_error());
        assert!(!look.message.contains("Gesamt minus is 7"), "{look:?}");
    }

    #[test]
    fn a_footer_flag_should_stay_raised_where_only_a_game_cell_explains_it() {
        // Seat 3's game minus read "4" unsure ("1" 30%): its Gesamt
        // mismatch points at the seat's footer, the look at row 1.
        let rules = RuleSet::load("merkur").expect("rules");
        let mut sheet = misread_sheet(4, "4", 0.3);
        sheet.flags[0].detail.alternatives = vec![("4".into(), 0.6), ("1".into(), 0.3)];
        let out = verify(sheet, &rules, Lang::En).expect("verify");
        assert!(
            codes(&out).contains(&Code::GesamtMismatch),
            "{:?}",
            out.flags
        );
        assert!(out.flags.iter().all(|f| f.detail.consequences.is_empty()));
    }

    #[test]
    fn a_value_a_person_changed_should_be_checked_as_it_is() {
        let rules = RuleSet::load("merkur").expect("rules");
        // Read "7", suggested 1, then set to 4 by a person: 4 is checked.
        let out = verify(misread_sheet(4, "7", 0.9), &rules, Lang::En).expect("verify");
        assert!(
            codes(&out).contains(&Code::RowNotZeroSum),
            "{:?}",
            out.flags
        );
    }
}
