//! Sheets that repeat each other: the same paper scanned twice (under
//! another name, or with another round or table), and game rows copied
//! from another table's sheet. Both are compared by what is written, so
//! they are found whatever the files are called; identical image bytes are
//! the archive's to catch (it reads a hash once).

use std::collections::{BTreeMap, BTreeSet};

use crate::catalogue::say;
use crate::check::messages::Lang;
use crate::night::tournament::checks::{NightCheck, NightCheckKind, sheet_name};
use crate::sheet::{GameRow, SheetResult, Status};

/// Share of the larger sheet's game rows, written alike at the same row
/// numbers, from which two sheets are one paper: a second scan reads a
/// cell or two otherwise, two tables never agree on most of a night.
const SAME_PAPER: f64 = 0.8;

/// Game rows at least, for a sheet to be compared at all.
const ROWS_TO_COMPARE: usize = 8;

/// Consecutive game rows written alike on two sheets that make a copy: one
/// row matches another table's often (a plain Rufspiel), six in a row by
/// chance hardly ever.
const COPIED_RUN: usize = 6;

/// A game row's values, seat by seat.
type RowKey = Vec<Option<i64>>;

fn key(row: &GameRow) -> RowKey {
    row.cells.iter().map(|c| c.value()).collect()
}

/// Whether a sheet is compared with the others: read, with rows enough,
/// and still the night's (not settled as a copy, not declared invalid).
fn compared(s: &SheetResult) -> bool {
    s.status != Status::Unreadable
        && s.games.len() >= ROWS_TO_COMPARE
        && s.notes.copy_of.is_none()
        && s.notes.discarded.is_none()
        && s.notes.void.is_none()
}

/// The night checks for sheets that repeat each other.
pub fn copy_checks(sheets: &[(String, SheetResult)], lang: Lang) -> Vec<NightCheck> {
    let read: Vec<(String, &SheetResult)> = sheets
        .iter()
        .filter(|(_, s)| compared(s))
        .map(|(fallback, s)| (sheet_name(s, fallback), s))
        .collect();
    let mut checks = Vec::new();
    for (a, b, copied) in copied_pairs(&read) {
        let (na, nb) = (&read[a].0, &read[b].0);
        let same = same_paper(read[a].1, read[b].1);
        let (kind, id) = if same {
            (NightCheckKind::SheetTwice, "check-sheet-twice")
        } else {
            (NightCheckKind::RowsCopied, "check-rows-copied")
        };
        let args: [(&str, &dyn std::fmt::Display); 3] =
            [("first", na), ("second", nb), ("rows", &copied)];
        checks.push(NightCheck {
            kind,
            sheets: vec![na.clone(), nb.clone()],
            message: say(lang, id, &args),
        });
    }
    checks
}

/// For each sheet, whether it is the same paper as a sheet stored before
/// it (`SHEET_TWICE`): until a person decides, the paper counts once,
/// the one stored first.
pub fn later_twins(sheets: &[(String, SheetResult)]) -> Vec<bool> {
    let (at, read): (Vec<usize>, Vec<(String, &SheetResult)>) = sheets
        .iter()
        .enumerate()
        .filter(|(_, (_, s))| compared(s))
        .map(|(i, (fallback, s))| (i, (fallback.clone(), s)))
        .unzip();
    let mut twins = vec![false; sheets.len()];
    for (a, b, _) in copied_pairs(&read) {
        if same_paper(read[a].1, read[b].1) && same_players(read[a].1, read[b].1) {
            twins[at[a.max(b)]] = true;
        }
    }
    twins
}

/// Pairs of sheets (indices) that share a run of [`COPIED_RUN`] game
/// rows written alike, with the longest such run's length.
fn copied_pairs(read: &[(String, &SheetResult)]) -> Vec<(usize, usize, usize)> {
    let mut runs: BTreeMap<&[RowKey], Vec<usize>> = BTreeMap::new();
    let keys: Vec<Vec<RowKey>> = read
        .iter()
        .map(|(_, s)| s.games.iter().map(key).collect())
        .collect();
    for (i, k) in keys.iter().enumerate() {
        for run in k.windows(COPIED_RUN) {
            let at = runs.entry(run).or_default();
            if at.last() != Some(&i) {
                at.push(i);
            }
        }
    }
    let mut pairs: BTreeSet<(usize, usize)> = BTreeSet::new();
    for sheets in runs.values().filter(|v| v.len() > 1) {
        for (n, &a) in sheets.iter().enumerate() {
            pairs.extend(sheets[n + 1..].iter().map(|&b| (a, b)));
        }
    }
    pairs
        .into_iter()
        .map(|(a, b)| (a, b, longest_common_run(&keys[a], &keys[b])))
        .collect()
}

/// The longest run of consecutive rows written alike on both sheets.
fn longest_common_run(a: &[RowKey], b: &[RowKey]) -> usize {
    let mut best = 0;
    let mut prev = vec![0usize; b.len() + 1];
    for x in a {
        let mut row = vec![0usize; b.len() + 1];
        for (j, y) in b.iter().enumerate() {
            if x == y {
                row[j + 1] = prev[j] + 1;
                best = best.max(row[j + 1]);
            }
        }
        prev = row;
    }
    best
}

/// Most seats' players alike (by value): one paper names one table.
fn same_players(a: &SheetResult, b: &SheetResult) -> bool {
    let number = |p: &Option<String>| p.as_deref().map(crate::sheet::PlayerNo::new);
    let alike = a
        .players
        .iter()
        .zip(&b.players)
        .filter(|(x, y)| x.is_some() && number(x) == number(y))
        .count();
    2 * alike > a.players.iter().flatten().count().max(1)
}

/// Most rows alike at the same row numbers: one paper, scanned twice.
fn same_paper(a: &SheetResult, b: &SheetResult) -> bool {
    let by_no: BTreeMap<u32, RowKey> = b.games.iter().map(|g| (g.no, key(g))).collect();
    let alike = a
        .games
        .iter()
        .filter(|g| by_no.get(&g.no) == Some(&key(g)))
        .count();
    let larger = a.games.len().max(b.games.len());
    alike as f64 >= SAME_PAPER * larger as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sheet::{Cell, finished_sheet};

    /// A merkur sheet whose rows are Rufspiele of `units[i]`, won by seats
    /// 1 and 2 on even rows and 3 and 4 on odd ones.
    fn sheet(table: u32, units: &[u32]) -> SheetResult {
        let rows = units
            .iter()
            .enumerate()
            .map(|(i, &u)| {
                let won = |s: usize| (s < 2) == (i % 2 == 0);
                GameRow {
                    no: i as u32 + 1,
                    cells: (0..4)
                        .map(|s| {
                            if won(s) {
                                Cell::plus(u)
                            } else {
                                Cell::minus(u)
                            }
                        })
                        .collect(),
                    initials: false,
                    class: None,
                    extra: Default::default(),
                }
            })
            .collect();
        let ids = (1..=4).map(|p| Some(format!("{table}{p}"))).collect();
        let mut s = finished_sheet("merkur", rows, ids);
        s.table = Some(table);
        s.round = Some(1);
        s
    }

    fn kinds(sheets: &[SheetResult]) -> Vec<NightCheckKind> {
        let named: Vec<(String, SheetResult)> = sheets
            .iter()
            .enumerate()
            .map(|(i, s)| (format!("s{i}.png"), s.clone()))
            .collect();
        copy_checks(&named, Lang::En)
            .iter()
            .map(|c| c.kind)
            .collect()
    }

    const NIGHT: [u32; 12] = [1, 2, 1, 3, 2, 2, 1, 4, 1, 2, 3, 1];

    #[test]
    fn one_paper_scanned_again_as_another_table_should_be_named() {
        let mut again = sheet(7, &NIGHT);
        again.games[3].cells[0] = Cell::plus(8); // one cell read otherwise
        assert_eq!(
            kinds(&[sheet(1, &NIGHT), again]),
            [NightCheckKind::SheetTwice]
        );
    }

    #[test]
    fn six_rows_copied_from_another_table_should_be_named_five_not() {
        let other = [2, 1, 3, 3, 1, 2, 4, 1, 1, 3, 2, 2];
        let mut copied = other;
        copied[2..8].copy_from_slice(&NIGHT[2..8]);
        assert_eq!(
            kinds(&[sheet(1, &NIGHT), sheet(2, &copied)]),
            [NightCheckKind::RowsCopied]
        );
        let mut five = other;
        five[2..7].copy_from_slice(&NIGHT[2..7]);
        assert!(kinds(&[sheet(1, &NIGHT), sheet(2, &five)]).is_empty());
    }
}
