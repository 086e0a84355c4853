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

/// The `CELL_UNCERTAIN` of a cell the sheet's sums doubt (`doubted`), saying
/// `message`: the reading stands, and `value`, where there is one, is a
/// suggestion only as likely as the reading (the writer may have slipped).
pub(super) fn even_odds_flag(
    fr: &FieldReading,
    value: Option<i64>,
    message: String,
    lang: Lang,
) -> Flag {
    let (row, seat, name) = fr.field.locator();
    let read = fr.reading.value().map_or(0, i64::from);
    let d = value.map(|v| Decoded::from_ranked(vec![(v, 0.5), (read, 0.5)]));
    let mut flag = uncertain_flag(row, seat, name, &fr.reading, &fr.what, d.as_ref(), lang);
    flag.message = message;
    flag.detail.doubted = true;
    flag
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
    let probable = Probable { sheet, flags };
    let mut out = Vec::new();
    for g in &sheet.games {
        let cells: Vec<(usize, bool, i64)> = g
            .cells
            .iter()
            .enumerate()
            .flat_map(|(i, c)| [(i + 1, false, c.plus), (i + 1, true, c.minus)])
            .filter_map(|(s, m, v)| v.map(|v| (s, m, i64::from(v))))
            .collect();
        let Some((s, m, mended, gesamt_slip)) = probable.mending(g.no, &cells) else {
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
        let wrong = (1.0 - f64::from(fr.reading.confidence)).max(0.0);
        let p = wrong / (wrong + ROW_AND_GESAMT_SLIP * gesamt_slip);
        if p >= PROBABLE && probable.row_lets_doubt(g.no, f, mended) {
            out.push((f, mended, p));
        }
    }
    out
}

/// A column's value with its sign in the row.
pub(super) fn signed(minus: bool, v: i64) -> i64 {
    if minus { -v } else { v }
}

pub(super) fn column_name(minus: bool) -> &'static str {
    if minus { "minus" } else { "plus" }
}

/// The sheet as it most probably reads, as the verifier judges it: a field
/// flagged (read unsure) with a likely suggestion counts at it.
pub(super) struct Probable<'a> {
    pub(super) sheet: &'a SheetResult,
    pub(super) flags: &'a [Flag],
}

impl Probable<'_> {
    fn likely_suggestion(f: &Flag) -> Option<i64> {
        f.suggestion()
            .filter(|&(_, p)| p >= PROBABLE)
            .map(|(v, _)| v)
    }

    fn flagged(&self, row: Option<u32>, s: usize, name: &str) -> Option<&Flag> {
        self.flags
            .iter()
            .find(|f| f.row == row && f.seat == Some(s) && f.field.as_deref() == Some(name))
    }

    fn likely(&self, no: u32, s: usize, m: bool) -> Option<i64> {
        self.flagged(Some(no), s, column_name(m))
            .and_then(Self::likely_suggestion)
    }

    /// A footer field: flagged, at its likely suggestion (none: the footer
    /// cannot vouch for it; an Endergebnis keeps its sign); else as it stands.
    pub(super) fn footer_value(&self, s: usize, name: &str, stands: Option<i64>) -> Option<i64> {
        match self.flagged(None, s, name) {
            Some(f) => Self::likely_suggestion(f)
                .map(|v| if stands.is_some_and(|e| e < 0) { -v } else { v }),
            None => stands,
        }
    }

    pub(super) fn column(&self, s: usize, m: bool) -> i64 {
        self.sheet
            .games
            .iter()
            .filter_map(|g| {
                let c = g.cells.get(s - 1)?;
                self.likely(g.no, s, m)
                    .or((if m { c.minus } else { c.plus }).map(i64::from))
            })
            .sum()
    }

    /// The seat's footer as most probably read (every field sure, or
    /// unsure with a likely suggestion), but for column `m`, agrees with its
    /// columns, and its Abzug and Endergebnis were not worked out from
    /// column `m`'s sum instead of its Gesamt (as after a writer's slip in
    /// the Gesamt; one of them slipped itself is no sign of that).
    fn footer_sound(&self, s: usize, m: bool) -> bool {
        let Some(Some(g)) = self.sheet.gesamt.get(s - 1) else {
            return false;
        };
        let vouched = self
            .flags
            .iter()
            .filter(|f| f.row.is_none() && f.seat == Some(s))
            .all(|f| Self::likely_suggestion(f).is_some());
        if !vouched {
            return false;
        }
        let plus = self
            .footer_value(s, "plus", g.plus.map(i64::from))
            .unwrap_or(0);
        let minus = self
            .footer_value(s, "minus", g.minus.map(i64::from))
            .unwrap_or(0);
        let other = if m { plus } else { minus };
        let abzug = self
            .sheet
            .abzug
            .get(s - 1)
            .copied()
            .flatten()
            .map(i64::from);
        let end = self.sheet.endergebnis.get(s - 1).copied().flatten();
        // Without them the footer says nothing either way.
        let (Some(abzug), Some(end)) = (
            self.footer_value(s, "abzug", abzug),
            self.footer_value(s, "endergebnis", end),
        ) else {
            return false;
        };
        let (sum_plus, sum_minus) = if m {
            (plus, self.column(s, m))
        } else {
            (self.column(s, m), minus)
        };
        let from_column = (abzug == sum_plus.min(sum_minus) && abzug != plus.min(minus))
            || end == sum_plus - sum_minus;
        other == self.column(s, !m) && !from_column
    }

    /// The one cell of a row off zero that would mend both the row and its
    /// column's Gesamt, with its value and how usual the Gesamt's slip off
    /// its column would be were the cell as read; `None` where no cell or
    /// more than one does.
    fn mending(&self, no: u32, cells: &[(usize, bool, i64)]) -> Option<(usize, bool, i64, f64)> {
        let off_row: i64 = cells.iter().map(|&(_, m, v)| signed(m, v)).sum();
        if off_row == 0 {
            return None;
        }
        let mending: Vec<(usize, bool, i64, f64)> = cells
            .iter()
            .filter(|&&(s, m, v)| self.likely(no, s, m).is_none_or(|l| l == v))
            .filter_map(|&(s, m, v)| {
                let gesamt = self.sheet.gesamt.get(s - 1).copied().flatten()?;
                let stands = if m { gesamt.minus } else { gesamt.plus };
                let written = self.footer_value(s, column_name(m), stands.map(i64::from))?;
                let off = self.column(s, m) - written;
                (off != 0 && signed(m, off) == off_row && v - off > 0 && self.footer_sound(s, m))
                    .then(|| (s, m, v - off, slip(written, written + off)))
            })
            .collect();
        match mending[..] {
            [one] => Some(one),
            _ => None,
        }
    }

    /// The row's other flagged cells must stand as read, and the cell's
    /// own flag (a reading below `CONFIDENT`) must not already suggest the
    /// mending value as likely.
    fn row_lets_doubt(&self, no: u32, f: Field, mended: i64) -> bool {
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
        let (_, seat, name) = f.locator();
        let in_row = || self.flags.iter().filter(move |f| f.row == Some(no));
        let own = |x: &&Flag| x.seat == seat && x.field.as_deref() == Some(name);
        let others_stand = in_row().filter(|x| !own(x)).all(kept_as_read);
        let own_suggestion = in_row().find(own).and_then(Flag::suggestion);
        let already = own_suggestion.is_some_and(|(v, q)| v == mended && q >= PROBABLE);
        others_stand && !already
    }
}
