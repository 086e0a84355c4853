//! Sheets that repeat each other: the same paper scanned twice (under
//! another name, or with another round or table; [`counts`] tells it),
//! and game rows copied from another table's sheet. Both are compared by
//! what is written, so they are found whatever the files are called;
//! identical image bytes are the archive's to catch (it reads a hash once).

use std::collections::{BTreeMap, BTreeSet};

use crate::catalogue::say;
use crate::check::messages::Lang;
use crate::night::tournament::checks::{NightCheck, NightCheckKind, sheet_label, sheet_name};
use crate::record::counts::{self, Counting};
use crate::sheet::{GameRow, SheetResult};

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

/// The night checks for sheets that repeat each other: the same paper
/// again ([`Counting::Twin`], what the two say alike) is `SHEET_TWICE`,
/// and only sheets of different papers that share a run of rows are
/// `ROWS_COPIED`.
pub fn copy_checks(sheets: &[(String, SheetResult)], lang: Lang) -> Vec<NightCheck> {
    let counting = counts::night(sheets.iter().map(|(_, s)| s));
    let name = |i: usize| {
        let (fallback, sheet) = &sheets[i];
        (
            sheet_name(sheet, fallback),
            sheet_label(sheet, fallback, lang),
        )
    };
    let mut checks = Vec::new();
    for (b, how) in counting.iter().enumerate() {
        if let Counting::Twin { first } = *how {
            checks.push(check(
                (NightCheckKind::SheetTwice, "check-sheet-twice"),
                (name(first), name(b)),
                0,
                lang,
            ));
        }
    }
    let (at, read): (Vec<usize>, Vec<(String, &SheetResult)>) = sheets
        .iter()
        .enumerate()
        .filter(|(i, (_, s))| counting[*i].counts() && s.games.len() >= ROWS_TO_COMPARE)
        .map(|(i, (fallback, s))| (i, (fallback.clone(), s)))
        .unzip();
    for (a, b, copied) in copied_pairs(&read) {
        checks.push(check(
            (NightCheckKind::RowsCopied, "check-rows-copied"),
            (name(at[a]), name(at[b])),
            copied,
            lang,
        ));
    }
    checks
}

/// One check on a pair of sheets, each its name and the name a person reads.
fn check(
    (kind, id): (NightCheckKind, &str),
    (first, second): ((String, String), (String, String)),
    rows: usize,
    lang: Lang,
) -> NightCheck {
    // One round and table twice: said once, as the paper that came twice.
    let id = match (kind, first.1 == second.1) {
        (NightCheckKind::SheetTwice, true) => "check-sheet-twice-same",
        _ => id,
    };
    let args: [(&str, &dyn std::fmt::Display); 3] =
        [("first", &first.1), ("second", &second.1), ("rows", &rows)];
    NightCheck {
        kind,
        message: say(lang, id, &args),
        sheets: vec![first.0, second.0],
    }
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
        let first = sheet(1, &NIGHT);
        let mut again = sheet(7, &NIGHT);
        again.players = first.players.clone(); // one paper names one table
        again.games[3].cells[0] = Cell::plus(8); // one cell read otherwise
        assert_eq!(kinds(&[first, again]), [NightCheckKind::SheetTwice]);
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
