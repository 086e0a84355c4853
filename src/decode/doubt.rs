//! Surely read game cells that their row and column together say were misread.

use super::*;

/// The `CELL_UNCERTAIN` of each surely read cell its row and column doubt
/// ([`doubted_by_row_and_column`]); it replaces the cell's own flag, if any.
pub(super) fn doubt_flags(sheet: &SheetResult, ev: &Evidence, flags: &mut Vec<Flag>) {
    let doubted = doubted_by_row_and_column(sheet, &ev.by_field, &ev.legal, flags);
    for (f, v, p) in doubted {
        let Some(fr) = ev.by_field.get(&f) else {
            continue;
        };
        let (row, seat, name) = f.locator();
        let read = fr.reading.value().map_or(0, i64::from);
        let d = Decoded::from_ranked(vec![(v, p), (read, 1.0 - p)]);
        let mut flag = uncertain_flag(row, seat, name, &fr.reading, &fr.what, Some(&d), ev.lang);
        flag.detail.doubted = true;
        flag.message = doubted_message(&fr.what, &fr.reading, v, p, ev.lang);
        // One flag a cell.
        flags.retain(|x| !(x.row == row && x.seat == seat && x.field.as_deref() == Some(name)));
        flags.push(flag);
    }
}

/// The message of a cell read surely that its row and Gesamt contradict:
/// misread, or changed after the Gesamt was added up.
pub(super) fn doubted_message(what: &str, r: &Reading, v: i64, p: f64, lang: Lang) -> String {
    say(
        lang,
        "uncertain-doubted",
        &[
            ("what", &what),
            ("read", &r.text),
            ("value", &v),
            ("probability", &percent(p * 100.0)),
        ],
    )
}

/// Prior odds that a writer's row and Gesamt are both wrong, as a sure
/// misreading looks: a wrong row ([`WRITER_ERROR`]) and a Gesamt off its
/// column ([`WRITER_ERROR`]) at once.
pub(super) const ROW_AND_GESAMT_SLIP: f64 = WRITER_ERROR * WRITER_ERROR;

/// Game cells the sheet says were misread: the cell's row
/// does not add up to zero, its column (its cells as the sheet most
/// probably reads them: a flagged cell's likely suggestion counts) misses
/// the Gesamt by just that amount, the value mending both makes the row
/// legal, and the seat's footer as the sheet most probably reads it is
/// sound (every field sure or flagged with a likely suggestion, which
/// counts; the other Gesamt matching its column, the Abzug and the
/// Endergebnis worked out from the Gesamt); no other cell of the row with a sound footer
/// explains both (a Gesamt its own footer cannot vouch for may be the
/// writer's slip). A writer's wrong game value is
/// in the writer's own Gesamt, so only a second slip of just that amount
/// in the Gesamt makes it look so; the chance of that
/// ([`ROW_AND_GESAMT_SLIP`], rarer by [`ODD_SLIP`] where the amount is
/// no usual slip, [`slip`]) against the reader's own chance of being
/// wrong gives the suggestion's probability. Returns (field, the value
/// mending both, probability), only where that reaches [`PROBABLE`]: then
/// the cell goes to a person as read, the row and Gesamt flags it causes
/// kept aside by the verifier. A cell read below [`CONFIDENT`] is doubted
/// so too where its own suggestion falls short of that (decoding gives a
/// value the reader did not list next to nothing, [`UNLISTED`]), the
/// row's other flagged cells standing as read; its flag is replaced.
/// Measured in docs/reading.md.
pub(super) fn doubted_by_row_and_column(
    sheet: &SheetResult,
    by_field: &BTreeMap<Field, &FieldReading>,
    legal: &HashSet<Vec<i64>>,
    flags: &[Flag],
) -> Vec<(Field, i64, f64)> {
    // A flagged cell the row's most probable reading keeps as read.
    let kept_as_read = |f: &Flag| {
        let read = f
            .detail
            .reading
            .as_deref()
            .and_then(|r| r.parse::<i64>().ok());
        f.suggestion()
            .is_some_and(|(v, p)| Some(v) == read && p >= PROBABLE)
    };
    let in_row = |no: u32| flags.iter().filter(move |f| f.row == Some(no));
    // The sheet as it most probably reads, as the verifier judges it: a
    // field flagged (read unsure) with a likely suggestion counts at it.
    let likely_suggestion = |f: &Flag| {
        f.suggestion()
            .filter(|&(_, p)| p >= PROBABLE)
            .map(|(v, _)| v)
    };
    let flagged = |row: Option<u32>, s: usize, name: &str| {
        flags
            .iter()
            .find(|f| f.row == row && f.seat == Some(s) && f.field.as_deref() == Some(name))
    };
    let column_name = |m: bool| if m { "minus" } else { "plus" };
    let likely = |no: u32, s: usize, m: bool| {
        flagged(Some(no), s, column_name(m)).and_then(likely_suggestion)
    };
    // A footer field: flagged, at its likely suggestion (none: the footer
    // cannot vouch for it; an Endergebnis keeps its sign); else as it stands.
    let footer_value = |s: usize, name: &str, stands: Option<i64>| -> Option<i64> {
        match flagged(None, s, name) {
            Some(f) => {
                likely_suggestion(f).map(|v| if stands.is_some_and(|e| e < 0) { -v } else { v })
            }
            None => stands,
        }
    };
    let column = |s: usize, m: bool| -> i64 {
        sheet
            .games
            .iter()
            .filter_map(|g| {
                let c = g.cells.get(s - 1)?;
                likely(g.no, s, m).or((if m { c.minus } else { c.plus }).map(i64::from))
            })
            .sum()
    };
    // The seat's footer as most probably read (every field sure, or
    // unsure with a likely suggestion), but for column `m`, agrees with its
    // columns, and its Abzug and Endergebnis were not worked out from
    // column `m`'s sum instead of its Gesamt (as after a writer's slip in
    // the Gesamt; one of them slipped itself is no sign of that).
    let footer_sound = |s: usize, m: bool| -> bool {
        let Some(Some(g)) = sheet.gesamt.get(s - 1) else {
            return false;
        };
        let vouched = flags
            .iter()
            .filter(|f| f.row.is_none() && f.seat == Some(s))
            .all(|f| likely_suggestion(f).is_some());
        if !vouched {
            return false;
        }
        let plus = footer_value(s, "plus", g.plus.map(i64::from)).unwrap_or(0);
        let minus = footer_value(s, "minus", g.minus.map(i64::from)).unwrap_or(0);
        let other = if m { plus } else { minus };
        // Without them the footer says nothing either way.
        let (Some(abzug), Some(end)) = (
            footer_value(
                s,
                "abzug",
                sheet.abzug.get(s - 1).copied().flatten().map(i64::from),
            ),
            footer_value(
                s,
                "endergebnis",
                sheet.endergebnis.get(s - 1).copied().flatten(),
            ),
        ) else {
            return false;
        };
        let (sum_plus, sum_minus) = if m {
            (plus, column(s, m))
        } else {
            (column(s, m), minus)
        };
        let from_column = (abzug == sum_plus.min(sum_minus) && abzug != plus.min(minus))
            || end == sum_plus - sum_minus;
        other == column(s, !m) && !from_column
    };
    let mut out = Vec::new();
    for g in &sheet.games {
        let cells: Vec<(usize, bool, i64)> = g
            .cells
            .iter()
            .enumerate()
            .flat_map(|(i, c)| [(i + 1, false, c.plus), (i + 1, true, c.minus)])
            .filter_map(|(s, m, v)| v.map(|v| (s, m, i64::from(v))))
            .collect();
        let signed = |m: bool, v: i64| if m { -v } else { v };
        let off_row: i64 = cells.iter().map(|&(_, m, v)| signed(m, v)).sum();
        if off_row == 0 {
            continue;
        }
        // Each cell mending both, with how usual the Gesamt's slip off its
        // column would be were the cell as read.
        let mending: Vec<(usize, bool, i64, f64)> = cells
            .iter()
            .filter(|&&(s, m, v)| likely(g.no, s, m).is_none_or(|l| l == v))
            .filter_map(|&(s, m, v)| {
                let gesamt = sheet.gesamt.get(s - 1).copied().flatten()?;
                let stands = if m { gesamt.minus } else { gesamt.plus };
                let written = footer_value(s, column_name(m), stands.map(i64::from))?;
                let off = column(s, m) - written;
                (off != 0 && signed(m, off) == off_row && v - off > 0 && footer_sound(s, m))
                    .then(|| (s, m, v - off, slip(written, written + off)))
            })
            .collect();
        let [(s, m, mended, gesamt_slip)] = mending[..] else {
            continue;
        };
        let values = cells
            .iter()
            .map(|&(cs, cm, v)| signed(cm, if (cs, cm) == (s, m) { mended } else { v }));
        if !legal.contains(&key(values)) {
            continue;
        }
        let f = Field::Game(g.no, s, m);
        let Some(fr) = by_field.get(&f) else {
            continue;
        };
        // The row's other flagged cells must stand as read, and the cell's
        // own flag (a reading below `CONFIDENT`) must not already suggest
        // the mending value as likely.
        let (_, seat, name) = f.locator();
        let own = |x: &&Flag| x.seat == seat && x.field.as_deref() == Some(name);
        let others_stand = in_row(g.no).filter(|x| !own(x)).all(kept_as_read);
        let own_suggestion = in_row(g.no).find(own).and_then(Flag::suggestion);
        let wrong = (1.0 - f64::from(fr.reading.confidence)).max(0.0);
        let p = wrong / (wrong + ROW_AND_GESAMT_SLIP * gesamt_slip);
        let already = own_suggestion.is_some_and(|(v, q)| v == mended && q >= PROBABLE);
        if others_stand && !already && p >= PROBABLE {
            out.push((f, mended, p));
        }
    }
    out
}
