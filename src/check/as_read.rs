//! Rule flags that follow from an uncertain reading, not from what the
//! writer wrote: they vanish when the uncertain cell is read otherwise.
//! `verify` keeps those the most probable reading clears aside
//! (`notes.flags_if_read_as_is`); a `CELL_UNCERTAIN` names those any of its
//! alternatives would clear (`explains`).

use crate::check::flags::{Code, Flag};
use crate::decode::PROBABLE;
use crate::sheet::SheetResult;

/// Below this probability an alternative is not said to explain a rule flag.
pub const EXPLAIN_MIN: f64 = 0.05;

/// Names on each uncertain cell of `reading` the raised rule `flags` of the
/// sheet as read (whose flags are `as_read`) that one of its listed alternatives (at least [`EXPLAIN_MIN`]
/// likely) would clear (`explains`): a person looking at the cell sees
/// which flags hang on it. The flags stay raised. Kept aside instead, the
/// writer's own mistakes went with them: on the comparison sets (merkur,
/// Doppelkopf, phone; 80 sheets) writer-error recall fell from 100%, 94%
/// and 100% to 88%, 94% and 100% with alternatives from 0.3 likely, to
/// 76%, 69% and 86% with all, while the false flags of the wide hands'
/// sets fell by 6% only. `check` recomputes a sheet's flags. Returns, for
/// each flag of `reading`, the indices in `flags` of those it would clear.
pub(crate) fn explain_by_alternatives(
    sheet: &SheetResult,
    flags: &[Flag],
    as_read: &[Flag],
    reading: &mut [Flag],
    mut check: impl FnMut(&mut SheetResult) -> Vec<Flag>,
) -> Vec<Vec<usize>> {
    let flags: Vec<(usize, &Flag)> = flags
        .iter()
        .enumerate()
        .filter(|(_, f)| as_read.iter().any(|a| a.same_finding(f)))
        .collect();
    let mut clears = vec![Vec::new(); reading.len()];
    for (u, cleared) in reading.iter_mut().zip(&mut clears) {
        u.detail.explains.clear();
        // With no flag to explain, no alternative is checked.
        if u.code != Code::CellUncertain || flags.is_empty() {
            continue;
        }
        for v in alternatives(u) {
            let mut other = sheet.clone();
            if !set_field(&mut other, u, v) {
                continue;
            }
            let then = check(&mut other);
            for &(i, f) in &flags {
                if then.iter().any(|t| t.same_finding(f)) {
                    continue;
                }
                if !u.detail.explains.contains(&f.code) {
                    u.detail.explains.push(f.code);
                }
                if !cleared.contains(&i) {
                    cleared.push(i);
                }
            }
        }
    }
    clears
}

/// The values a `CELL_UNCERTAIN` lists besides the reading: its
/// alternatives and its suggestion, each at least [`EXPLAIN_MIN`] likely.
pub(crate) fn alternatives(u: &Flag) -> Vec<i64> {
    let read = u.detail.reading.as_deref().unwrap_or("");
    let mut out: Vec<i64> = u
        .detail
        .alternatives
        .iter()
        .filter(|(text, p)| *p >= EXPLAIN_MIN && text != read)
        .filter_map(|(text, _)| text.parse().ok())
        .collect();
    if let Some((v, p)) = u.suggestion()
        && p >= EXPLAIN_MIN
        && !out.contains(&v)
    {
        out.push(v);
    }
    out.retain(|&v| v >= 0);
    out
}

/// The sheet with every uncertain cell that decoding gave a likely
/// suggestion (≥ [`PROBABLE`]) set to it, or `None` when that changes nothing.
/// A suggestion counts only while the cell still holds what was read: a
/// value a person has since changed is theirs.
pub(crate) fn most_probable(sheet: &SheetResult, reading: &[Flag]) -> Option<SheetResult> {
    let mut probable = sheet.clone();
    let mut changed = false;
    for f in reading.iter().filter(|f| f.code == Code::CellUncertain) {
        let Some((v, p)) = f.suggestion() else {
            continue;
        };
        if p >= PROBABLE && v >= 0 {
            changed |= set_field(&mut probable, f, v);
        }
    }
    changed.then_some(probable)
}

/// Sets the field an uncertain flag `f` names to `v`, where it still holds
/// what was read; true when that changed it.
fn set_field(sheet: &mut SheetResult, f: &Flag, v: i64) -> bool {
    let read = f.detail.reading.as_deref().unwrap_or("");
    let Some(seat) = f.seat.and_then(|s| s.checked_sub(1)) else {
        return false;
    };
    // The digits as read ("04" holds 4; a sign is read apart).
    let as_read = |x: Option<i64>| x.map(i64::abs) == read.parse::<i64>().ok();
    let field = f.field.as_deref().unwrap_or("");
    let plus = field == "plus";
    match (f.row, field) {
        (Some(no), "plus" | "minus") => sheet.cell_mut(no, seat).is_some_and(|cell| {
            let target = if plus {
                &mut cell.plus
            } else {
                &mut cell.minus
            };
            suggest(target, v, as_read)
        }),
        (None, "plus" | "minus") => match sheet.gesamt.get_mut(seat) {
            Some(Some(g)) => {
                let target = if plus { &mut g.plus } else { &mut g.minus };
                suggest(target, v, as_read)
            }
            _ => false,
        },
        (None, "abzug") => sheet
            .abzug
            .get_mut(seat)
            .is_some_and(|target| suggest(target, v, as_read)),
        // The Endergebnis suggestion is its digits; the sign stays as read.
        (None, "endergebnis") => match sheet.endergebnis.get_mut(seat) {
            Some(target @ Some(_)) => {
                let e = target.unwrap_or(0);
                let changes = as_read(Some(e)) && e.abs() != v;
                if changes {
                    *target = Some(if e < 0 { -v } else { v });
                }
                changes
            }
            _ => false,
        },
        _ => false,
    }
}

/// Sets a number field still holding its reading to the suggestion `v`;
/// true when that changed it.
fn suggest(target: &mut Option<u32>, v: i64, as_read: impl Fn(Option<i64>) -> bool) -> bool {
    let v = u32::try_from(v).ok();
    if as_read(target.map(i64::from)) && *target != v {
        *target = v;
        return true;
    }
    false
}
