//! A Gesamt that disagrees, explained by the writer's hand. Where one of
//! this writer's shapes is misread all over the sheet (every 3 read as a
//! 5), the rows stay legal and only the seats' Gesamt disagree with their
//! columns. The sheet's doubts between two digits ([`doubt_between`]) are
//! tried as explanations: which cells of the disagreeing columns, each
//! read with that one digit otherwise (as the reader lists it), bring every
//! disagreeing column to its Gesamt at once, every row they touch still
//! legal. Where one explanation does so and no other comes near it, its
//! cells go to a person with its values as suggestions; nothing is taken
//! and the Gesamt flags stay raised.

use std::collections::HashMap;

use super::doubt::{Probable, even_odds_flag, signed};
use super::legal_row::columns_off;
use super::witness::doubt_between;
use super::*;

/// A cell read otherwise: row, seat, minus column, the value.
type Change = (u32, usize, bool, i64);

/// More ways than this to one set of column deltas are not told apart.
const MOST_STATES: usize = 20_000;

/// The best explanation must weigh at least this share of all that close
/// every sum for it to be suggested ("no other comes near it").
const CLEAR: f64 = 0.9;

/// One doubt's explanation: its likeliest way's cells read otherwise,
/// that way's weight (the product of each value's probability over the
/// reading's) and the weight of every way of this doubt that closes the sums.
struct Explanation {
    changes: Vec<Change>,
    best: f64,
    all: f64,
}

/// The `CELL_UNCERTAIN` of each cell of the one explanation of the
/// disagreeing Gesamt, its value as the suggestion at even odds.
pub(super) fn explanation_flags(sheet: &SheetResult, ev: &Evidence, flags: &mut Vec<Flag>) {
    let off = columns_off(sheet, &Probable { sheet, flags });
    if off.is_empty() {
        return;
    }
    let mut found: Vec<Explanation> = doubts(ev)
        .into_iter()
        .filter_map(|pair| explain(sheet, ev, &off, pair))
        .collect();
    found.sort_by(|a, b| b.best.total_cmp(&a.best));
    let all: f64 = found.iter().map(|e| e.all).sum();
    let Some(best) = found.first().filter(|b| b.best >= CLEAR * all) else {
        return;
    };
    // One value read surely is no hand's shape: the Gesamt flag names its
    // row, and the verifier judges it; a shape read alike in several
    // cells, or read in doubt, is asked about.
    let in_doubt = |&&(no, seat, minus, _): &&Change| {
        ev.by_field
            .get(&Field::Game(no, seat, minus))
            .is_some_and(|fr| is_uncertain(fr))
    };
    if best.changes.len() < 2 && !best.changes.iter().any(|c| in_doubt(&c)) {
        return;
    }
    for &(no, seat, minus, value) in &best.changes {
        ask(ev, flags, Field::Game(no, seat, minus), value);
    }
}

/// The sheet's doubts between two digits, each once.
fn doubts(ev: &Evidence) -> Vec<(u8, u8)> {
    let mut pairs: Vec<(u8, u8)> = ev
        .readings
        .fields
        .iter()
        .filter(|f| matches!(f.field, Field::Game(..)))
        .filter_map(|f| doubt_between(&f.reading))
        .collect();
    pairs.sort_unstable();
    pairs.dedup();
    pairs
}

/// `v` with one of its digits `a` written `b` or `b` written `a`, each way.
fn swapped(v: i64, (a, b): (u8, u8)) -> Vec<i64> {
    let text = v.to_string().into_bytes();
    let mut out = Vec::new();
    for (i, &d) in text.iter().enumerate() {
        let other = if d == a {
            b
        } else if d == b {
            a
        } else {
            continue;
        };
        let mut t = text.clone();
        t[i] = other;
        if let Ok(w) = String::from_utf8_lossy(&t).parse::<i64>() {
            out.push(w);
        }
    }
    out
}

/// The likeliest way that reading cells of the disagreeing columns with
/// the one doubt `pair` otherwise closes every disagreeing column, with
/// the weight of all ways that do; `None` where none does.
fn explain(
    sheet: &SheetResult,
    ev: &Evidence,
    off: &BTreeMap<(usize, bool), i64>,
    pair: (u8, u8),
) -> Option<Explanation> {
    let columns: Vec<(usize, bool)> = off.keys().copied().collect();
    // Column deltas → (weight of all ways, best way's weight, its changes).
    type Ways = HashMap<Vec<i64>, (f64, f64, Vec<Change>)>;
    let mut ways: Ways = HashMap::from([(vec![0; columns.len()], (1.0, 1.0, Vec::new()))]);
    for g in &sheet.games {
        let options = row_options(g, ev, &columns, pair);
        if options.len() < 2 {
            continue;
        }
        let mut next: Ways = HashMap::new();
        for (deltas, (all, best, changes)) in &ways {
            for (delta, weight, change) in &options {
                let d: Vec<i64> = deltas.iter().zip(delta).map(|(a, b)| a + b).collect();
                let e = next.entry(d).or_insert((0.0, 0.0, Vec::new()));
                e.0 += all * weight;
                if best * weight > e.1 {
                    e.1 = best * weight;
                    e.2 = changes.iter().chain(change).copied().collect();
                }
            }
        }
        if next.len() > MOST_STATES {
            return None;
        }
        ways = next;
    }
    let target: Vec<i64> = columns.iter().map(|c| -off[c]).collect();
    let (all, best, changes) = ways.remove(&target)?;
    (!changes.is_empty()).then_some(Explanation { changes, best, all })
}

/// A row's ways with the doubt `pair`: as read (weight 1), or each set of
/// its cells in the disagreeing columns read otherwise as the reader lists
/// it, the row still legal: the columns' deltas, the weight, the changes.
fn row_options(
    g: &GameRow,
    ev: &Evidence,
    columns: &[(usize, bool)],
    pair: (u8, u8),
) -> Vec<(Vec<i64>, f64, Vec<Change>)> {
    let mut values: Vec<(usize, bool, i64)> = Vec::new();
    let mut open: Vec<(usize, i64, f64)> = Vec::new();
    for (i, c) in g.cells.iter().enumerate() {
        for (minus, v) in [(false, c.plus), (true, c.minus)] {
            let Some(v) = v.map(i64::from) else { continue };
            values.push((i + 1, minus, v));
            let Some(fr) = ev.by_field.get(&Field::Game(g.no, i + 1, minus)) else {
                continue;
            };
            if !columns.contains(&(i + 1, minus)) {
                continue;
            }
            let read = candidates(&fr.reading);
            let p_read = prob(&read, v);
            for w in swapped(v, pair) {
                let p = listed(&read, w);
                if p > 0.0 {
                    open.push((values.len() - 1, w, p / p_read.max(f64::MIN_POSITIVE)));
                }
            }
        }
    }
    let mut options = vec![(vec![0; columns.len()], 1.0, Vec::new())];
    if open.is_empty() || open.len() > 8 {
        return options;
    }
    for mask in 1u32..(1 << open.len()) {
        let chosen: Vec<&(usize, i64, f64)> = (0..open.len())
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| &open[i])
            .collect();
        // One value a cell.
        if chosen.windows(2).any(|w| w[0].0 == w[1].0) {
            continue;
        }
        let mut row = values.clone();
        let mut delta = vec![0; columns.len()];
        let mut weight = 1.0;
        let mut change = Vec::new();
        for &&(at, w, p) in &chosen {
            let (seat, minus, v) = row[at];
            let col = columns
                .iter()
                .position(|c| *c == (seat, minus))
                .unwrap_or(0);
            delta[col] += w - v;
            weight *= p;
            row[at].2 = w;
            change.push((g.no, seat, minus, w));
        }
        if ev
            .legal
            .contains(&key(row.iter().map(|&(_, m, v)| signed(m, v))))
        {
            options.push((delta, weight, change));
        }
    }
    options
}

/// Asks about a cell the explanation reads otherwise: a new
/// `CELL_UNCERTAIN`, or the cell's own with the explanation's suggestion.
fn ask(ev: &Evidence, flags: &mut Vec<Flag>, field: Field, value: i64) {
    let Some(fr) = ev.by_field.get(&field) else {
        return;
    };
    let args: [(&str, &dyn std::fmt::Display); 3] = [
        ("what", &fr.what),
        ("read", &fr.reading.text),
        ("value", &value),
    ];
    let message = say(ev.lang, "uncertain-explained", &args);
    // As likely as the reading: the writer's Gesamt may be the slip.
    let flag = even_odds_flag(fr, Some(value), message, ev.lang);
    flags.retain(|x| !x.same_finding(&flag));
    flags.push(flag);
}

#[cfg(test)]
mod tests {
    use super::super::witness::tests::{one_shape_misread, silent_3s};
    use super::*;
    use crate::check::verify::verify;
    use crate::read::reading;

    /// A cell asked about: row, seat, its suggestion.
    type Asked = (u32, usize, Option<(i64, f64)>);

    /// Rows 2, 9 and 16's 3s read as 5s at `confidence`, decoded and verified.
    fn checked(confidence: f32) -> SheetResult {
        let rules = RuleSet::load("doppelkopf").expect("doppelkopf");
        let read_3 = reading("5", confidence, &[("3", 1.0 - confidence)]);
        let (sheet, readings) = one_shape_misread(&|_| read_3.clone());
        let decoded = decode(sheet, &readings, &rules, Lang::En);
        verify(decoded, &rules, Lang::En).expect("verified")
    }

    #[test]
    fn one_shape_misread_all_over_should_be_asked_with_the_value_every_gesamt_wants() {
        for confidence in [0.95, 0.999] {
            let sheet = checked(confidence);
            assert!(silent_3s(&sheet).is_empty(), "{confidence}");
            let asked: Vec<Asked> = sheet
                .flags
                .iter()
                .filter(|f| f.code == Code::CellUncertain)
                .map(|f| (f.row.unwrap_or(0), f.seat.unwrap_or(0), f.suggestion()))
                .collect();
            let want: Vec<Asked> = [2, 9, 16]
                .into_iter()
                .flat_map(|no| (1..=4).map(move |s| (no, s, Some((3, 0.5)))))
                .collect();
            assert_eq!(asked, want, "{confidence}: {:#?}", sheet.flags);
        }
    }

    #[test]
    fn a_gesamt_that_disagrees_should_name_the_rows_that_explain_it() {
        let sheet = checked(0.95);
        let mismatches: Vec<&Flag> = sheet
            .flags
            .iter()
            .filter(|f| f.code == Code::GesamtMismatch)
            .collect();
        assert_eq!(mismatches.len(), 4, "{:#?}", sheet.flags);
        for f in mismatches {
            assert_eq!(f.detail.rows, [2, 9, 16], "{f:#?}");
            assert!(
                f.message.ends_with("Rows 2, 9, 16 could explain it."),
                "{}",
                f.message
            );
        }
    }

    #[test]
    fn a_digit_swapped_should_be_tried_in_every_place() {
        assert_eq!(swapped(353, (b'3', b'5')), [553, 333, 355]);
        assert_eq!(swapped(17, (b'3', b'5')), Vec::<i64>::new());
    }
}
