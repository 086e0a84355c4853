//! Does this sheet count, and where? The one answer every view takes:
//! the ranking, the night's checks, the draw's tables, the Schreiber's
//! ledger, the desk's questions and the season.
//!
//! A sheet's own notes say most of it (a person's verdicts, its status).
//! The rest is the night's: the same paper read twice (a scan and a fax,
//! a photo sent again) counts once, the one stored first, until a person
//! decides. Two sheets are one paper when what they say agrees: their
//! game cells, their footers and their players, compared value by value,
//! so that a cell or a number read otherwise on the second look does not
//! make a second paper.

use std::collections::BTreeMap;

use crate::check::flags::Code;
use crate::sheet::{PlayerNo, SheetResult, Status};

/// How a sheet stands in its night.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Counting {
    /// Its points count, at its round and table.
    Counts,
    /// The same paper as the night's sheet `first` (its index), stored
    /// before it: it holds its table (the pair is seen twice), no points.
    Twin { first: usize },
    /// Read as another game's sheet and not confirmed as the night's.
    OtherGame,
    /// Nothing on it could be read.
    Unreadable,
    /// Declared invalid by a person: its table, its players lost the round.
    Void,
    /// Settled by a person as a copy of another sheet.
    Copy,
    /// Taken out of the night by a person (sent by mistake).
    Discarded,
}

impl Counting {
    /// How `sheet` stands by its own notes alone.
    pub fn of(sheet: &SheetResult) -> Counting {
        let notes = &sheet.notes;
        if notes.discarded.is_some() {
            Counting::Discarded
        } else if notes.void.is_some() {
            Counting::Void
        } else if notes.copy_of.is_some() {
            Counting::Copy
        } else if sheet.status == Status::Unreadable
            || sheet.flags.iter().any(|f| f.code == Code::SheetUnreadable)
        {
            Counting::Unreadable
        } else if notes.game_confirmed.is_none()
            && sheet.flags.iter().any(|f| f.code == Code::WrongGame)
        {
            Counting::OtherGame
        } else {
            Counting::Counts
        }
    }

    /// Whether its points go to its players.
    pub fn counts(self) -> bool {
        self == Counting::Counts
    }

    /// Whether it stands at its round and table (the draw's table has its
    /// sheet): a sheet that counts, a second scan of one, a void one.
    pub fn holds_table(self) -> bool {
        matches!(
            self,
            Counting::Counts | Counting::Twin { .. } | Counting::Void
        )
    }

    /// Whether its doubts are asked at the desk: where they can change a
    /// count, and on the same paper again (its doubts join the first's
    /// questions, so one answer settles both, whichever a person keeps).
    pub fn asks(self) -> bool {
        matches!(self, Counting::Counts | Counting::Twin { .. })
    }
}

/// How each of the night's `sheets` (in the order stored) stands.
pub fn night<'a>(sheets: impl IntoIterator<Item = &'a SheetResult>) -> Vec<Counting> {
    let sheets: Vec<&SheetResult> = sheets.into_iter().collect();
    let mut out: Vec<Counting> = sheets.iter().map(|s| Counting::of(s)).collect();
    // Each sheet's values once: the pairs are many on a night of 400.
    let said: Vec<Said> = sheets.iter().map(|s| Said::of(s)).collect();
    for b in 0..sheets.len() {
        if out[b] != Counting::Counts {
            continue;
        }
        let first = (0..b).find(|&a| out[a] == Counting::Counts && said[a].same_paper(&said[b]));
        if let Some(first) = first {
            out[b] = Counting::Twin { first };
        }
    }
    out
}

/// Share of the values on either sheet (game cells, footer) that both
/// write alike, from which two sheets whose players agree are one paper:
/// a second look at real paper reads about one cell in seven otherwise
/// (85% of cells), two tables' sheets agree on far fewer.
const SAME_PAPER_PLAYERS_ALIKE: f64 = 0.5;

/// The same share where the players cannot tell (too few read alike):
/// the values alone must make it one paper.
const SAME_PAPER_VALUES_ALONE: f64 = 0.8;

/// Game rows at least on the larger sheet, for values alone to tell.
const ROWS_TO_COMPARE: usize = 8;

/// What a sheet says, as two sheets are compared.
struct Said<'a> {
    sheet: &'a SheetResult,
    values: BTreeMap<At, i64>,
}

impl<'a> Said<'a> {
    fn of(sheet: &'a SheetResult) -> Self {
        Said {
            sheet,
            values: values(sheet),
        }
    }

    /// Whether this and `other` say the same things: one paper read
    /// twice. Two sheets naming different players where both are read
    /// are two tables, whatever their rows; where their players, round
    /// and table agree, half their values alike make them one paper,
    /// else four in five.
    fn same_paper(&self, other: &Said) -> bool {
        let (a, b) = (self.sheet, other.sheet);
        if a.seats() != b.seats() {
            return false;
        }
        let (alike_players, both_read) = players_alike(a, b);
        if both_read >= 2 && alike_players == 0 {
            return false;
        }
        let (alike, present) = values_alike(&self.values, &other.values);
        if present == 0 {
            return false;
        }
        let share = alike as f64 / present as f64;
        // A round or table read on both and otherwise: a misread header,
        // or another round of the same players; the values alone tell.
        let differ = |x: Option<u32>, y: Option<u32>| x.zip(y).is_some_and(|(x, y)| x != y);
        let header_differs = differ(a.round, b.round) || differ(a.table, b.table);
        if !header_differs && alike_players >= 2 && 2 * alike_players > both_read {
            share >= SAME_PAPER_PLAYERS_ALIKE
        } else {
            let rows = a.games.len().max(b.games.len());
            rows >= ROWS_TO_COMPARE && share >= SAME_PAPER_VALUES_ALONE
        }
    }
}

/// Whether `a` and `b` say the same things: one paper read twice
/// ([`Said::same_paper`]).
pub fn same_paper(a: &SheetResult, b: &SheetResult) -> bool {
    Said::of(a).same_paper(&Said::of(b))
}

/// Seats whose participant number is read on both sheets and alike (by
/// value), and seats read on both.
fn players_alike(a: &SheetResult, b: &SheetResult) -> (usize, usize) {
    let pairs = a.players.iter().zip(&b.players);
    let both: Vec<(PlayerNo, PlayerNo)> = pairs
        .filter_map(|(x, y)| Some((PlayerNo::new(x.as_deref()?), PlayerNo::new(y.as_deref()?))))
        .collect();
    (both.iter().filter(|(x, y)| x == y).count(), both.len())
}

/// Values written alike on both sheets, and written on either.
fn values_alike(va: &BTreeMap<At, i64>, vb: &BTreeMap<At, i64>) -> (usize, usize) {
    let alike = va.iter().filter(|(k, v)| vb.get(k) == Some(v)).count();
    let only_b = vb.keys().filter(|k| !va.contains_key(k)).count();
    (alike, va.len() + only_b)
}

/// Where a value stands on a sheet: a game row and seat, or a footer field and seat.
type At = (u32, usize);

/// Every written value of a sheet by where it stands (footer rows after
/// every game row).
fn values(s: &SheetResult) -> BTreeMap<At, i64> {
    let mut out = BTreeMap::new();
    for g in &s.games {
        for (seat, c) in g.cells.iter().enumerate() {
            if let Some(v) = c.value() {
                out.insert((g.no, seat), v);
            }
        }
    }
    let footer = u32::MAX - 3;
    for seat in 0..s.seats() {
        let gesamt = s.gesamt.get(seat).cloned().flatten();
        let net = gesamt.map(|g| i64::from(g.plus.unwrap_or(0)) - i64::from(g.minus.unwrap_or(0)));
        let fields = [
            net,
            s.abzug.get(seat).copied().flatten().map(i64::from),
            s.endergebnis.get(seat).copied().flatten(),
        ];
        for (k, v) in fields.into_iter().enumerate() {
            if let Some(v) = v {
                out.insert((footer + k as u32, seat), v);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sheet::notes::Void;
    use crate::sheet::{Cell, GameRow, finished_sheet};

    /// A merkur sheet of Rufspiele of `units[i]`, won by seats 1 and 2 on
    /// even rows and 3 and 4 on odd ones, its players `ids`.
    fn sheet(ids: [&str; 4], units: &[u32]) -> SheetResult {
        let rows = units
            .iter()
            .enumerate()
            .map(|(i, &u)| GameRow {
                no: i as u32 + 1,
                cells: (0..4)
                    .map(|s| match (s < 2) == (i % 2 == 0) {
                        true => Cell::plus(u),
                        false => Cell::minus(u),
                    })
                    .collect(),
                initials: false,
                class: None,
                extra: Default::default(),
            })
            .collect();
        let mut s = finished_sheet("merkur", rows, ids.map(|p| Some(p.into())).to_vec());
        s.round = Some(1);
        s.table = Some(5);
        s
    }

    const NIGHT: [u32; 12] = [1, 2, 1, 3, 2, 2, 1, 4, 1, 2, 3, 1];
    const OTHER: [u32; 12] = [2, 1, 3, 3, 1, 2, 4, 1, 1, 3, 2, 2];
    const TABLE: [&str; 4] = ["27", "2", "3", "4"];

    #[test]
    fn a_second_look_reading_every_third_row_otherwise_should_be_the_same_paper() {
        let first = sheet(TABLE, &NIGHT);
        let mut again = first.clone();
        for row in again.games.iter_mut().step_by(3) {
            row.cells[0] = Cell::plus(413);
        }
        again.players[1] = Some("7".into()); // one number read otherwise
        again.table = None; // the table blurred
        let counting = night([&first, &again]);
        assert_eq!(counting, [Counting::Counts, Counting::Twin { first: 0 }]);
    }

    #[test]
    fn another_table_with_the_same_rows_should_count() {
        let first = sheet(TABLE, &NIGHT);
        let copied = sheet(["31", "32", "33", "34"], &NIGHT);
        assert!(!same_paper(&first, &copied));
        let other = sheet(["27", "32", "33", "34"], &OTHER);
        assert_eq!(night([&first, &other]), [Counting::Counts; 2]);
    }

    #[test]
    fn a_twin_of_a_discarded_sheet_should_count_itself() {
        let mut first = sheet(TABLE, &NIGHT);
        first.notes.discarded = Some(Void {
            by: "AB".into(),
            at: "now".into(),
            reason: "doppelt".into(),
        });
        let again = sheet(TABLE, &NIGHT);
        assert_eq!(
            night([&first, &again]),
            [Counting::Discarded, Counting::Counts]
        );
    }

    #[test]
    fn what_holds_a_table_and_what_counts() {
        assert!(Counting::Twin { first: 0 }.holds_table());
        assert!(Counting::Twin { first: 0 }.asks());
        assert!(!Counting::Void.asks() && !Counting::Copy.asks());
        assert!(!Counting::Twin { first: 0 }.counts());
        assert!(Counting::Void.holds_table());
        assert!(!Counting::Discarded.holds_table());
        assert!(!Counting::Copy.holds_table());
        assert!(!Counting::Unreadable.holds_table());
    }
}
