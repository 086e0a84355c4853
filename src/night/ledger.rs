//! The Schreiber's ledger: for each sheet, whose points its footer errors
//! moved, and per Schreiber over a night or a season whether their errors
//! fall their own way more often than chance would have them.
//!
//! The ledger reads each sheet as it stands in the night's record: what
//! the paper says (the reading, or a person's answer where it was
//! misread), never what the Leitung counts instead. An error is one seat
//! whose written Endergebnis differs from the one its rows give (the
//! rows' `+` sum less their `-` sum); it moved the difference to that
//! seat. A count confirms such an error and leaves it; an answer that the
//! paper says otherwise removes it. A sheet that could not be read, was
//! declared invalid, is a copy or another game's is no Liste, and a
//! reading in doubt removes an error only where one of its likely
//! alternatives would explain it.
//!
//! Under chance an error's gain falls on any seat of its sheet alike; the
//! count of errors that gain the Schreiber's own seat is held against
//! that (one-sided: a tail of the Poisson binomial, the plain binomial
//! where every table has as many seats).

use std::collections::BTreeMap;

use crate::check::as_read;
use crate::check::flags::{Code, Flag};
use crate::error::ArchiveError;
use crate::night::club::archive::Archive;
use crate::record::counts::Counting;
use crate::sheet::{PlayerNo, SheetResult};

/// A Schreiber is flagged at a chance below this, with at least
/// [`FLAG_ERRORS`] errors.
pub const FLAG_P: f64 = 0.01;
pub const FLAG_ERRORS: usize = 3;

/// One sheet of a night as the ledger takes it.
pub struct LedgerSheet<'a> {
    /// The night's name.
    pub night: &'a str,
    /// The sheet's name: its archive id where it has one, else its file.
    pub sheet: String,
    pub result: &'a SheetResult,
    /// The Schreiber's seat (from 1).
    pub writer_seat: usize,
}

/// One error with its evidence.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Evidence {
    pub night: String,
    pub sheet: String,
    pub round: Option<u32>,
    pub table: Option<u32>,
    pub code: &'static str,
    pub seat: usize,
    pub field: &'static str,
    pub written: i64,
    pub computed: i64,
    /// Points moved, by seat (from 1, as text: JSON's object keys).
    pub moved: BTreeMap<String, i64>,
}

/// One Schreiber's account.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Writer {
    pub player: String,
    pub sheets: usize,
    pub errors: usize,
    pub to_self: i64,
    pub to_partners: i64,
    pub against_others: i64,
    pub favouring_self: usize,
    pub p: f64,
    pub flagged: bool,
    pub evidence: Vec<Evidence>,
}

/// Every Schreiber's account over `sheets`, flagged ones first, then by
/// the chance (smallest first) and the player.
pub fn ledger(sheets: &[LedgerSheet]) -> Vec<Writer> {
    // A number is one Schreiber however it is written: by its value.
    let mut by_player: BTreeMap<PlayerNo, (Writer, Vec<f64>)> = BTreeMap::new();
    for s in sheets.iter().filter(|s| Counting::of(s.result).counts()) {
        let Some(player) = s
            .result
            .players
            .get(s.writer_seat.wrapping_sub(1))
            .cloned()
            .flatten()
            .map(|p| PlayerNo::new(&p))
        else {
            continue;
        };
        let (writer, chances) = by_player
            .entry(player.clone())
            .or_insert_with(|| (empty(player.as_str()), Vec::new()));
        writer.sheets += 1;
        let seats = crate::check::verify::used_seats(s.result).max(1);
        for e in errors_of(s) {
            let mine = e
                .moved
                .get(&s.writer_seat.to_string())
                .copied()
                .unwrap_or(0);
            writer.to_self += mine;
            for (seat, &points) in &e.moved {
                if *seat != s.writer_seat.to_string() {
                    writer.to_partners += points.max(0);
                    writer.against_others += points.min(0);
                }
            }
            writer.favouring_self += usize::from(mine > 0);
            writer.errors += 1;
            chances.push(1.0 / seats as f64);
            writer.evidence.push(e);
        }
    }
    let mut writers: Vec<Writer> = by_player
        .into_values()
        .map(|(mut w, chances)| {
            w.p = at_least(w.favouring_self, &chances);
            w.flagged = w.p < FLAG_P && w.errors >= FLAG_ERRORS;
            w
        })
        .collect();
    writers.sort_by(|a, b| {
        (b.flagged.cmp(&a.flagged))
            .then(a.p.total_cmp(&b.p))
            .then_with(|| a.player.cmp(&b.player))
    });
    writers
}

/// Where each sheet's Schreiber sits: the seat the seating marks for its
/// round and table, else the club's seat (default the first).
#[derive(Debug, Clone, Default)]
pub struct WriterSeats {
    pub by_table: BTreeMap<(u32, u32), usize>,
    pub otherwise: Option<usize>,
}

impl WriterSeats {
    /// Everyone on the same seat.
    pub fn all_on(seat: usize) -> WriterSeats {
        WriterSeats {
            by_table: BTreeMap::new(),
            otherwise: Some(seat),
        }
    }

    /// A seat named that no table of `seats` seats has, if any.
    pub fn outside(&self, seats: usize) -> Option<usize> {
        self.otherwise
            .into_iter()
            .chain(self.by_table.values().copied())
            .find(|s| !(1..=seats).contains(s))
    }

    pub fn of(&self, sheet: &SheetResult) -> usize {
        let marked = sheet
            .round
            .zip(sheet.table)
            .and_then(|key| self.by_table.get(&key));
        marked.copied().or(self.otherwise).unwrap_or(1)
    }
}

/// Nights as the ledger takes them: each night's name, and its sheets
/// each by its name.
pub type Nights = [(String, Vec<(String, SheetResult)>)];

/// Every Schreiber's account over `nights`, each sheet's Schreiber where
/// `seats` puts them.
pub fn of_nights(nights: &Nights, seats: &WriterSeats) -> Vec<Writer> {
    let sheets: Vec<LedgerSheet> = nights
        .iter()
        .flat_map(|(night, sheets)| {
            // Only a Liste that counts: the same paper twice is one,
            // the one stored first.
            let counting = crate::record::counts::night(sheets.iter().map(|(_, s)| s));
            sheets
                .iter()
                .zip(counting)
                .filter(|(_, how)| how.counts())
                .map(move |((name, result), _)| LedgerSheet {
                    night,
                    sheet: name.clone(),
                    result,
                    writer_seat: seats.of(result),
                })
        })
        .collect();
    ledger(&sheets)
}

/// Every Schreiber's account over the archive's nights, or night `only`,
/// each sheet as it stands there (corrections and verdicts included) and
/// named by its archive id.
pub fn of_archive(
    db: &Archive,
    only: Option<i64>,
    seats: &WriterSeats,
) -> Result<Vec<Writer>, ArchiveError> {
    let mut nights = Vec::new();
    for night in db.nights()? {
        if only.is_some_and(|o| o != night.id) {
            continue;
        }
        let sheets = db.sheets(night.id)?;
        let named = sheets.into_iter().map(|s| (s.id.to_string(), s.result));
        nights.push((night.label(), named.collect()));
    }
    Ok(of_nights(&nights, seats))
}

fn empty(player: &str) -> Writer {
    Writer {
        player: player.to_string(),
        sheets: 0,
        errors: 0,
        to_self: 0,
        to_partners: 0,
        against_others: 0,
        favouring_self: 0,
        p: 1.0,
        flagged: false,
        evidence: Vec::new(),
    }
}

/// Whether a reading in doubt explains seat `seat`'s error (`written`
/// where its rows give `computed`): a likely alternative of its
/// Endergebnis that is what the rows give, or of one of its game cells
/// that makes the rows give what is written. A doubt that cannot move the
/// sum to agree leaves the error as it is.
fn explained(sheet: &SheetResult, seat: usize, written: i64, computed: i64) -> bool {
    sheet
        .flags
        .iter()
        .filter(|f| f.code == Code::CellUncertain && f.seat == Some(seat))
        .any(|f| match (f.row, f.field.as_deref()) {
            (None, Some("endergebnis")) => likely(f).contains(&computed),
            (Some(row), Some(column @ ("plus" | "minus"))) => {
                let cell = sheet
                    .games
                    .iter()
                    .find(|g| g.no == row)
                    .and_then(|g| g.cells.get(seat - 1));
                let as_read = cell.map_or(0, |c| {
                    let v = if column == "plus" { c.plus } else { c.minus };
                    i64::from(v.unwrap_or(0))
                });
                let sign = if column == "plus" { 1 } else { -1 };
                likely(f)
                    .iter()
                    .any(|&alt| computed + sign * (alt - as_read) == written)
            }
            _ => false,
        })
}

/// The likely other readings of a doubt (as likely as
/// [`as_read::EXPLAIN_MIN`]), signed as written.
fn likely(f: &Flag) -> Vec<i64> {
    let read = f.detail.reading.as_deref().unwrap_or("");
    let mut out: Vec<i64> = f
        .detail
        .alternatives
        .iter()
        .filter(|(text, p)| *p >= as_read::EXPLAIN_MIN && text != read)
        .filter_map(|(text, _)| text.parse().ok())
        .collect();
    out.extend(as_read::alternatives(f));
    out
}

/// The sure errors of one sheet: its rows' that do not add up, then its
/// footers'.
fn errors_of(s: &LedgerSheet) -> Vec<Evidence> {
    if !Counting::of(s.result).counts() {
        return Vec::new();
    }
    let mut errors = row_errors(s);
    errors.extend(footer_errors(s));
    errors
}

/// Each game row that does not add up to zero where the game's shape
/// says which entry makes the excess: the one seat whose value, set to
/// what the others ask, makes the row a partner game (two `+k`, two
/// `-k`) or a solo (`+3k` against three `-k`, or the mirror) of the same
/// sign. A row in doubt, or one that more than one entry could mend,
/// gives nothing: the tariff does not say whose it was.
fn row_errors(s: &LedgerSheet) -> Vec<Evidence> {
    let sheet = s.result;
    sheet
        .games
        .iter()
        .filter(|g| {
            !sheet
                .flags
                .iter()
                .any(|f| f.code == Code::CellUncertain && f.row == Some(g.no))
        })
        .filter_map(|g| {
            let values: Vec<Option<i64>> = g.cells.iter().map(|c| c.value()).collect();
            let sum: i64 = values.iter().flatten().sum();
            if sum == 0 {
                return None;
            }
            let mendable: Vec<(usize, i64)> = (0..values.len())
                .filter_map(|i| {
                    let v = values[i]?;
                    let mended = v - sum;
                    let mut row = values.clone();
                    row[i] = Some(mended);
                    (mended.signum() == v.signum() && a_game(&row)).then_some((i + 1, v))
                })
                .collect();
            let [(seat, written)] = mendable[..] else {
                return None;
            };
            Some(Evidence {
                night: s.night.to_string(),
                sheet: s.sheet.clone(),
                round: sheet.round,
                table: sheet.table,
                code: Code::RowNotZeroSum.as_str(),
                seat,
                field: "game",
                written,
                computed: written - sum,
                moved: BTreeMap::from([(seat.to_string(), sum)]),
            })
        })
        .collect()
}

/// Whether the written values of a row are a partner game or a solo.
fn a_game(row: &[Option<i64>]) -> bool {
    let written: Vec<i64> = row.iter().flatten().copied().collect();
    let plus: Vec<i64> = written.iter().copied().filter(|&v| v > 0).collect();
    let minus: Vec<i64> = written
        .iter()
        .copied()
        .filter(|&v| v < 0)
        .map(|v| -v)
        .collect();
    let same = |xs: &[i64]| xs.windows(2).all(|w| w[0] == w[1]);
    match (plus.as_slice(), minus.as_slice()) {
        ([a, b], [c, d]) => a == b && c == d && a == c,
        ([w], losers) if losers.len() == 3 => same(losers) && *w == 3 * losers[0],
        (winners, [l]) if winners.len() == 3 => same(winners) && *l == 3 * winners[0],
        _ => false,
    }
}

/// The sure footer errors of one sheet.
fn footer_errors(s: &LedgerSheet) -> Vec<Evidence> {
    let sheet = s.result;
    (1..=sheet.seats())
        .filter_map(|seat| {
            let written = sheet.endergebnis.get(seat - 1).copied().flatten()?;
            let computed = rows_give(sheet, seat);
            (written != computed && !explained(sheet, seat, written, computed)).then(|| Evidence {
                night: s.night.to_string(),
                sheet: s.sheet.clone(),
                round: sheet.round,
                table: sheet.table,
                code: Code::EndergebnisMismatch.as_str(),
                seat,
                field: "endergebnis",
                written,
                computed,
                moved: BTreeMap::from([(seat.to_string(), written - computed)]),
            })
        })
        .collect()
}

/// The Endergebnis seat `seat`'s rows give: its `+` sum less its `-` sum.
fn rows_give(sheet: &SheetResult, seat: usize) -> i64 {
    sheet
        .games
        .iter()
        .filter_map(|g| g.cells.get(seat - 1))
        .map(|c| i64::from(c.plus.unwrap_or(0)) - i64::from(c.minus.unwrap_or(0)))
        .sum()
}

/// The chance of at least `k` successes in independent trials of the
/// given chances (a Poisson binomial; by dynamic programming, exact).
pub fn at_least(k: usize, chances: &[f64]) -> f64 {
    if k == 0 {
        return 1.0;
    }
    // dist[j]: the chance of exactly j successes so far.
    let mut dist = vec![0.0f64; chances.len() + 1];
    dist[0] = 1.0;
    for (n, &p) in chances.iter().enumerate() {
        for j in (0..=n + 1).rev() {
            let stay = dist[j] * (1.0 - p);
            let up = if j > 0 { dist[j - 1] * p } else { 0.0 };
            dist[j] = stay + up;
        }
    }
    dist[k.min(dist.len())..].iter().sum::<f64>().min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sheet::{Cell, GameRow};

    fn row(no: u32, values: [i64; 4]) -> GameRow {
        GameRow {
            no,
            cells: values
                .iter()
                .map(|&v| {
                    if v >= 0 {
                        Cell::plus(v as u32)
                    } else {
                        Cell::minus((-v) as u32)
                    }
                })
                .collect(),
            initials: false,
            class: None,
            extra: Default::default(),
        }
    }

    /// A sheet at `table` whose seat `seat` wrote `extra` more than its rows give.
    fn sheet(table: u32, players: [&str; 4], seat: usize, extra: i64) -> SheetResult {
        let rows = vec![row(1, [2, 2, -2, -2]), row(2, [-1, 3, -1, -1])];
        let players = players.iter().map(|p| Some(p.to_string())).collect();
        let mut s = crate::sheet::finished_sheet("merkur", rows, players);
        s.table = Some(table);
        s.round = Some(1);
        if let Some(Some(e)) = s.endergebnis.get_mut(seat - 1) {
            *e += extra;
        }
        s
    }

    #[test]
    fn the_chance_should_be_the_binomials_where_every_table_has_four() {
        // Six of six errors at 1/4 each: 0.25^6.
        let p = at_least(6, &[0.25; 6]);
        assert!((p - 0.25f64.powi(6)).abs() < 1e-12, "{p}");
        assert!((at_least(1, &[0.5, 0.5]) - 0.75).abs() < 1e-12);
        assert_eq!(at_least(0, &[0.3]), 1.0);
        assert_eq!(at_least(2, &[0.3]), 0.0);
    }

    #[test]
    fn a_schreiber_whose_slips_all_favour_them_should_be_flagged_and_no_other() {
        let biased: Vec<SheetResult> = (1..=6)
            .map(|t| sheet(t, ["7", "11", "12", "13"], 1, 5))
            .collect();
        // Honest slips: each against or for another seat.
        let honest = [
            sheet(20, ["21", "22", "23", "24"], 3, 4),
            sheet(21, ["31", "32", "33", "34"], 1, -3),
            sheet(22, ["41", "42", "43", "44"], 2, 2),
            sheet(23, ["51", "52", "53", "54"], 4, 0),
        ];
        let all: Vec<LedgerSheet> = biased
            .iter()
            .chain(&honest)
            .enumerate()
            .map(|(i, r)| LedgerSheet {
                night: "Herbst",
                sheet: format!("s{i}"),
                result: r,
                writer_seat: 1,
            })
            .collect();
        let writers = ledger(&all);
        let first = &writers[0];
        assert_eq!(first.player, "7");
        assert!(first.flagged);
        assert_eq!(
            (first.errors, first.favouring_self, first.to_self),
            (6, 6, 30)
        );
        assert!(first.p < 0.001, "{}", first.p);
        assert_eq!(first.evidence.len(), 6);
        assert_eq!(first.evidence[0].written - first.evidence[0].computed, 5);
        assert!(writers[1..].iter().all(|w| !w.flagged), "{writers:#?}");
        let w31 = writers.iter().find(|w| w.player == "31").expect("31 wrote");
        assert_eq!((w31.errors, w31.favouring_self, w31.to_self), (1, 0, -3));
        let w21 = writers.iter().find(|w| w.player == "21").expect("21 wrote");
        assert_eq!((w21.to_partners, w21.against_others), (4, 0));
    }

    #[test]
    fn a_row_that_does_not_add_up_should_move_its_points_to_the_seat_the_shape_names() {
        // Seat 1 wrote +3 where the partner game gave +2, and a footer
        // that follows its rows: the row is the error, not the footer.
        let mut rows = vec![row(1, [2, 2, -2, -2]), row(2, [3, 2, -2, -2])];
        rows.push(row(3, [9, -3, -3, -2]));
        let players = ["7", "11", "12", "13"]
            .iter()
            .map(|p| Some(p.to_string()))
            .collect();
        let s = crate::sheet::finished_sheet("merkur", rows, players);
        let sheet = LedgerSheet {
            night: "Herbst",
            sheet: "s".into(),
            result: &s,
            writer_seat: 1,
        };
        let errors = errors_of(&sheet);
        let moved: Vec<(usize, i64)> = errors
            .iter()
            .map(|e| (e.seat, e.written - e.computed))
            .collect();
        assert_eq!(moved, [(1, 1), (4, 1)], "{errors:#?}");
        assert_eq!(errors[0].code, "ROW_NOT_ZERO_SUM");
        // A row two entries could mend says nothing of whose it was.
        assert!(!a_game(&[Some(3), Some(2), Some(-2), Some(-3)]));
        let odd = [Some(3), Some(1), Some(-2), Some(-2)];
        assert!(!a_game(&odd));
    }

    #[test]
    fn an_error_resting_on_a_doubt_or_a_void_sheet_should_not_count() {
        let mut doubted = sheet(1, ["7", "11", "12", "13"], 1, 5);
        doubted.flags.push(crate::check::flags::Flag {
            code: Code::CellUncertain,
            severity: Code::CellUncertain.severity(),
            row: Some(2),
            seat: Some(1),
            field: Some("minus".into()),
            message: String::new(),
            detail: Default::default(),
            extra: Default::default(),
        });
        let mut void = sheet(2, ["7", "11", "12", "13"], 1, 5);
        void.notes.void = Some(crate::sheet::notes::Void {
            by: "AB".into(),
            at: "now".into(),
            reason: "unleserlich".into(),
        });
        let on_seat_two = sheet(3, ["7", "11", "12", "13"], 2, 5);
        // A doubt no likely alternative of which moves the sum.
        let mut unlikely = sheet(4, ["7", "11", "12", "13"], 2, 5);
        let mut doubt = doubted.flags[0].clone();
        doubt.seat = Some(2);
        doubt.row = Some(1);
        doubt.field = Some("plus".into());
        doubt.detail.reading = Some("2".into());
        doubt.detail.alternatives = vec![("7".into(), 0.01)];
        unlikely.flags.push(doubt.clone());
        // The same doubt with a likely alternative.
        let mut likely = sheet(5, ["7", "11", "12", "13"], 2, 5);
        doubt.detail.alternatives = vec![("7".into(), 0.3)];
        likely.flags.push(doubt);
        let sheets = [doubted, void, on_seat_two, unlikely, likely];
        let all: Vec<LedgerSheet> = sheets
            .iter()
            .map(|r| LedgerSheet {
                night: "Herbst",
                sheet: "s".into(),
                result: r,
                writer_seat: 2,
            })
            .collect();
        let writers = ledger(&all);
        assert_eq!(writers.len(), 1);
        // Seat 2 writes: the void sheet is no Liste, and the slip a likely
        // other reading explains gives nothing; the first sheet's slip
        // stands (its doubt lists nothing that would explain it), the
        // third and fourth favour the writer on seat 2.
        assert_eq!(writers[0].player, "11");
        assert_eq!(
            (
                writers[0].sheets,
                writers[0].errors,
                writers[0].favouring_self
            ),
            (4, 3, 2)
        );
    }

    /// A doubt on seat `seat`'s Endergebnis whose likely readings are
    /// `alternatives`.
    fn doubt_on_end(s: &mut SheetResult, seat: usize, alternatives: &[i64]) {
        let mut detail = crate::check::flags::FlagDetail::default();
        let written = s.endergebnis[seat - 1].expect("written");
        detail.reading = Some(written.to_string());
        detail.alternatives = alternatives.iter().map(|a| (a.to_string(), 0.3)).collect();
        s.flags.push(crate::check::flags::Flag {
            code: Code::CellUncertain,
            severity: Code::CellUncertain.severity(),
            row: None,
            seat: Some(seat),
            field: Some("endergebnis".into()),
            message: String::new(),
            detail,
            extra: Default::default(),
        });
    }

    fn all_on_seat_one(sheets: &[SheetResult]) -> Vec<Writer> {
        let named: Vec<LedgerSheet> = sheets
            .iter()
            .enumerate()
            .map(|(i, r)| LedgerSheet {
                night: "Herbst",
                sheet: format!("s{i}"),
                result: r,
                writer_seat: 1,
            })
            .collect();
        ledger(&named)
    }

    #[test]
    fn honest_schreiber_of_many_sheets_should_pass_and_one_who_overwrites_their_own_should_not() {
        let mut sheets = Vec::new();
        // Ten honest Schreiber, eight sheets each: a slip now and then, on
        // any seat, either way.
        for w in 0..10u32 {
            for k in 0..8u32 {
                let players = [100 + w, 200 + k, 300 + w, 400 + k].map(|p| p.to_string());
                let players = players.each_ref().map(String::as_str);
                let slip = if (w + k) % 3 == 0 {
                    [4, -3][(k % 2) as usize]
                } else {
                    0
                };
                sheets.push(sheet(w * 10 + k, players, (w + k) as usize % 4 + 1, slip));
            }
        }
        // One who overwrites their own Endergebnis, a doubt on each that
        // no likely reading of which is what the rows give.
        for k in 0..6 {
            let mut s = sheet(900 + k, ["0117", "901", "902", "903"], 1, 5);
            let end = s.endergebnis[0].expect("written");
            doubt_on_end(&mut s, 1, &[end + 1, end - 10]);
            sheets.push(s);
        }
        // The same Schreiber, written without the leading zero.
        sheets.push(sheet(999, ["117", "901", "902", "903"], 1, 5));
        let writers = all_on_seat_one(&sheets);
        let flagged: Vec<&str> = (writers.iter())
            .filter(|w| w.flagged)
            .map(|w| w.player.as_str())
            .collect();
        assert_eq!(flagged, ["117"], "{writers:#?}");
        assert_eq!((writers[0].sheets, writers[0].errors), (7, 7));
        assert_eq!(writers.len(), 11);
        // A doubt one of whose readings is what the rows give explains it.
        let mut explained = sheet(1, ["5", "6", "7", "8"], 1, 5);
        let computed = explained.endergebnis[0].expect("written") - 5;
        doubt_on_end(&mut explained, 1, &[computed]);
        assert_eq!(all_on_seat_one(&[explained])[0].errors, 0);
    }
}
