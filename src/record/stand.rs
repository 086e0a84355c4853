//! The one function that makes a sheet as it stands from its record, and
//! the sheet as it counts for the standings.

use serde_json::Value;

use super::{Decision, Record, answer};
use crate::check::flags::{Code, Flag};
use crate::error::SheetError;
use crate::sheet::notes::{Count, Settled};
use crate::sheet::{SheetResult, ValuePath};

/// Checks a sheet again (the night's rules and list): flags recomputed,
/// values untouched.
pub type Check<'a> = dyn Fn(SheetResult) -> Result<SheetResult, SheetError> + 'a;

/// Which records stand withdrawn: each `Withdraw` takes back the newest
/// answer about its path before it that still stands (and is itself no
/// change to the sheet).
pub(crate) fn withdrawn(records: &[Record]) -> Vec<bool> {
    let mut out = vec![false; records.len()];
    for (i, record) in records.iter().enumerate() {
        let Decision::Withdraw { path } = &record.decision else {
            continue;
        };
        out[i] = true;
        let answered =
            |r: &Record| matches!(&r.decision, Decision::Paper { path: p, .. } if p == path);
        if let Some(j) = (0..i).rev().find(|&j| !out[j] && answered(&records[j])) {
            out[j] = true;
        }
    }
    out
}

/// The sheet as it stands: the newest `reading` with every record of
/// sheet `itself` taken in order, checked again; each count that differs
/// from what is written listed, and the flags it settles marked.
///
/// A record the reading has no place for (a row another form does not
/// show) stands in the record and waits: it counts again on a reading
/// that has the place.
pub fn stand(
    reading: &SheetResult,
    records: &[Record],
    itself: i64,
    check: &Check,
) -> Result<SheetResult, SheetError> {
    let mut sheet = as_read(reading);
    let mut counts: Vec<(ValuePath, &Record, &Value, &str)> = Vec::new();
    let taken_back = withdrawn(records);
    for (i, record) in records.iter().enumerate() {
        if taken_back[i] {
            continue;
        }
        if let Decision::Counts {
            path,
            value,
            reason,
        } = &record.decision
        {
            if let Ok(path) = path.parse::<ValuePath>() {
                counts.retain(|c| c.0 != path);
                counts.push((path, record, value, reason));
            }
            continue;
        }
        let _ = super::apply(&mut sheet, &record.decision, &record.by, &record.at, itself);
    }
    let mut sheet = check(sheet)?;
    // A count of the value written takes the count back.
    sheet.notes.counts = counts
        .into_iter()
        .filter_map(|(path, record, value, reason)| {
            let written = answer::get(&sheet, path);
            (numeric(&written) != numeric(value)).then(|| Count {
                path: path.to_string(),
                written,
                value: value.clone(),
                by: record.by.clone(),
                at: record.at.clone(),
                reason: reason.to_string(),
            })
        })
        .collect();
    settle(&mut sheet);
    Ok(sheet)
}

/// A reading without any person's decision on it: what a stored sheet of
/// an older archive carried (initials, verdicts, counts) taken off, the
/// flags its initials accepted open again.
pub fn as_read(reading: &SheetResult) -> SheetResult {
    let mut sheet = reading.clone();
    let notes = &mut sheet.notes;
    notes.supervisor_initials.clear();
    notes.footer_initials.clear();
    notes.void = None;
    notes.copy_of = None;
    notes.game_confirmed = None;
    notes.counts.clear();
    let accepted: Vec<Flag> = notes.accepted.drain(..).map(|a| a.flag).collect();
    sheet.flags.extend(accepted);
    for flag in &mut sheet.flags {
        flag.detail.settled = None;
    }
    sheet
}

/// A value compared as the paper means it: `"088"` is 88.
fn numeric(value: &Value) -> Value {
    match value {
        Value::String(s) => s
            .trim_start_matches('0')
            .parse::<i64>()
            .map(Value::from)
            .unwrap_or_else(|_| value.clone()),
        v => v.clone(),
    }
}

/// Marks every rule flag a count settles: a footer value's own flag, and
/// the flags of a game row (of its seat, or of the whole row); and the
/// sheet's Endergebnisse not adding up to 0 where, as they count, they do.
fn settle(sheet: &mut SheetResult) {
    let counts = sheet.notes.counts.clone();
    let ends = counted(sheet).endergebnis;
    let zero = ends.iter().any(Option::is_some) && ends.iter().flatten().sum::<i64>() == 0;
    let last_end = counts
        .iter()
        .rev()
        .find(|c| c.path.starts_with("endergebnis/"));
    if let Some(count) = last_end.filter(|_| zero) {
        for flag in (sheet.flags.iter_mut()).filter(|f| f.code == Code::EndergebnisNotZero) {
            flag.detail.settled = Some(Settled {
                by: count.by.clone(),
                at: count.at.clone(),
            });
        }
    }
    for count in &counts {
        let Ok(path) = count.path.parse::<ValuePath>() else {
            continue;
        };
        for flag in sheet.flags.iter_mut() {
            if flag.code.is_from_reading() || flag.code == Code::InkDiffers {
                continue;
            }
            if settles(path, flag) {
                flag.detail.settled = Some(Settled {
                    by: count.by.clone(),
                    at: count.at.clone(),
                });
            }
        }
    }
}

fn settles(path: ValuePath, flag: &Flag) -> bool {
    match path {
        ValuePath::Game { no, seat, .. } => {
            flag.row == Some(no) && flag.seat.is_none_or(|s| s == seat)
        }
        _ => path.is_cell_of(flag),
    }
}

/// The sheet as it counts: every count's value in place of what is
/// written (the standings, the ranking and the season take this).
pub fn counted(sheet: &SheetResult) -> SheetResult {
    let mut out = sheet.clone();
    for count in &sheet.notes.counts {
        if let Ok(path) = count.path.parse::<ValuePath>() {
            let flags = out.flags.clone();
            if answer::set(&mut out, path, &count.value).is_ok() {
                // Counting is no reading: the doubts stay as they were.
                out.flags = flags;
            }
        }
    }
    out
}

/// A count as a person reads it: "geschrieben 54, gilt 56, AB: die
/// Zeilen geben 56".
pub fn said(count: &Count, lang: crate::check::messages::Lang) -> String {
    let text = |v: &Value| match v {
        Value::Null => "–".to_string(),
        Value::String(s) => s.clone(),
        v => v.to_string(),
    };
    let args: [(&str, &dyn std::fmt::Display); 4] = [
        ("written", &text(&count.written)),
        ("value", &text(&count.value)),
        ("by", &count.by),
        ("reason", &count.reason),
    ];
    crate::catalogue::say(lang, "count-said", &args)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::messages::Lang;
    use crate::check::rules::RuleSet;
    use crate::sheet::{Cell, GameRow, finished_sheet};

    /// A merkur sheet of one Rufspiel (seats 1 and 2 win 5), its first
    /// Endergebnis written 5 too few: they add up to -5.
    fn miswritten() -> SheetResult {
        let row = GameRow {
            no: 1,
            cells: vec![Cell::plus(5), Cell::plus(5), Cell::minus(5), Cell::minus(5)],
            initials: false,
            class: None,
            extra: Default::default(),
        };
        let ids = ["1", "2", "3", "4"].map(|p| Some(p.to_string())).to_vec();
        let mut sheet = finished_sheet("merkur", vec![row], ids);
        sheet.endergebnis[0] = Some(0);
        sheet
    }

    fn count(path: &str, value: i64) -> Record {
        Record {
            by: "AB".into(),
            at: "2026-12-07T20:00:00Z".into(),
            decision: Decision::Counts {
                path: path.into(),
                value: Value::from(value),
                reason: "die Zeilen geben es".into(),
            },
        }
    }

    fn standing(records: &[Record]) -> SheetResult {
        let rules = RuleSet::load("merkur").expect("merkur");
        let check = |s| crate::verify(s, &rules, Lang::De);
        stand(&miswritten(), records, 1, &check).expect("stands")
    }

    fn open(sheet: &SheetResult, code: Code) -> bool {
        sheet
            .flags
            .iter()
            .any(|f| f.code == code && f.detail.settled.is_none())
    }

    #[test]
    fn a_count_that_makes_the_endergebnisse_add_up_should_settle_their_sum() {
        assert!(open(&standing(&[]), Code::EndergebnisNotZero));
        let counted = standing(&[count("endergebnis/1", 5)]);
        assert!(
            !open(&counted, Code::EndergebnisNotZero),
            "{:?}",
            counted.flags
        );
        // A count that leaves them apart settles nothing of the sum.
        assert!(open(
            &standing(&[count("endergebnis/1", 3)]),
            Code::EndergebnisNotZero
        ));
    }

    #[test]
    fn a_count_of_the_value_written_should_take_the_count_back() {
        let records = [count("endergebnis/1", 5), count("endergebnis/1", 0)];
        let back = standing(&records);
        assert!(back.notes.counts.is_empty());
        assert!(open(&back, Code::EndergebnisNotZero));
    }
}
