//! Row decoding: the stage between reading and verifying. A confidently read
//! value stays as read, legal or not (finding the writer's mistakes is the
//! verifier's job). Only where a reading is uncertain are its alternatives
//! ranked with the rule set's legal rows and the footer's column sums. When
//! that evidence overwhelmingly confirms the reading (see [`ACCEPT`] and
//! docs/reading.md) it stands without a flag; otherwise the cell gets
//! `CELL_UNCERTAIN` with the alternatives and the suggestion. Decoding never
//! replaces a reading by itself: values stay as read.
//!
//! `SheetResult` (values as read) + [`CellReadings`] → [`decode`] → `SheetResult`

use std::collections::{BTreeMap, HashSet};

use serde_json::{Map, json};

use crate::flags::{Code, Flag};
use crate::messages::Lang;
use crate::read::Reading;
use crate::rules::{RuleSet, legal_rows};
use crate::sheet::SheetResult;

/// Below this probability a reading is shown to a person (`CELL_UNCERTAIN`),
/// unless decoding accepts it.
pub const CONFIDENT: f32 = 0.99;

/// Posterior probability from which an uncertain reading, confirmed by its
/// column (adding up to the Gesamt read) and equal to the reader's best,
/// stands without asking a person.
pub const ACCEPT: f64 = 0.95;

/// Column posterior from which an uncertain game cell takes the value its
/// row and its column both make most likely, where the reader's best
/// reading was another, and the column adds up to the Gesamt's best
/// reading, read with at least [`REPLACE_GESAMT_SUPPORT`]: overwhelming
/// evidence that the reader, not the writer, got it wrong (a writer's wrong
/// value is in the writer's own Gesamt; to hide it, the Gesamt would have
/// to be misread by just what a legal row needs). Measured
/// (docs/reading.md): 93 cells taken so on the tuning sets (seed 601, 90
/// sheets) and 106 on the held-out sets, all right.
pub const REPLACE: f64 = 0.99;

/// How sure the reader must be of a Gesamt for it to overrule a game
/// cell's reading (see [`REPLACE`]): at least even odds. Only a Gesamt read
/// with 0.99 took 64 cells on the tuning sets, any Gesamt supporting the
/// sum (0.2) 103, all right; even odds took 93.
const REPLACE_GESAMT_SUPPORT: f32 = 0.5;

/// Posterior from which a row alone confirms the reader's own best reading.
pub const ACCEPT_ROW: f64 = 0.999;

/// How much of its reading a Gesamt must give a column's sum for the two to
/// confirm each other.
const GESAMT_SUPPORT: f64 = 0.2;

/// A suggestion at least this likely is the sheet's most probable reading:
/// the footer is checked against it, and so is the verifier's view of which
/// rule flags the uncertain readings alone cause.
pub const PROBABLE: f64 = 0.5;

/// Prior odds that a writer's row is not a legal pattern (a writer's mistake).
const WRITER_ERROR: f64 = 0.01;

/// Probability given to a value the reader did not list.
const UNLISTED: f64 = 1e-4;

/// Where a number was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Field {
    Round,
    Table,
    /// A game cell: row number, seat (1-based), minus column.
    Game(u32, usize, bool),
    /// A Gesamt field: seat, minus column.
    Gesamt(usize, bool),
    Abzug(usize),
    /// The Endergebnis's digits (its sign is read apart): seat.
    Endergebnis(usize),
}

impl Field {
    fn locator(self) -> (Option<u32>, Option<usize>, &'static str) {
        match self {
            Field::Round => (None, None, "round"),
            Field::Table => (None, None, "table"),
            Field::Game(r, s, m) => (Some(r), Some(s), if m { "minus" } else { "plus" }),
            Field::Gesamt(s, m) => (None, Some(s), if m { "minus" } else { "plus" }),
            Field::Abzug(s) => (None, Some(s), "abzug"),
            Field::Endergebnis(s) => (None, Some(s), "endergebnis"),
        }
    }
}

/// One number as the reader saw it, with the field's name for people.
#[derive(Debug, Clone)]
pub struct FieldReading {
    pub field: Field,
    pub reading: Reading,
    pub what: String,
}

/// Every number field read on a sheet.
#[derive(Debug, Clone, Default)]
pub struct CellReadings {
    pub fields: Vec<FieldReading>,
}

/// A reading as a distribution over values, best first.
fn candidates(r: &Reading) -> Vec<(i64, f64)> {
    let mut out: Vec<(i64, f64)> = Vec::new();
    for (t, p) in
        std::iter::once((&r.text, r.confidence)).chain(r.alternatives.iter().map(|(t, p)| (t, *p)))
    {
        if let Ok(v) = t.parse::<i64>()
            && t.len() <= 4
            && !out.iter().any(|o| o.0 == v)
        {
            out.push((v, f64::from(p)));
        }
    }
    out
}

fn prob(c: &[(i64, f64)], v: i64) -> f64 {
    c.iter()
        .find(|o| o.0 == v)
        .map_or(UNLISTED, |o| o.1.max(UNLISTED))
}

/// A game cell in row decoding: field, sign, the reader's signed
/// candidates, whether the reading is uncertain.
type RowCell = (Field, i64, Vec<(i64, f64)>, bool);

/// What decoding concluded for one uncertain field.
pub struct Decoded {
    pub value: Option<i64>,
    pub posterior: f64,
    /// Alternatives with their posterior probability, best first.
    pub ranked: Vec<(i64, f64)>,
}

/// Decodes the uncertain numbers of a read sheet and flags what a person
/// must check. Values read with confidence are never changed; an uncertain
/// game cell takes another value only where its row and column both demand
/// it overwhelmingly ([`REPLACE`]), and its `*_reading` keeps what was read.
pub fn decode(
    mut sheet: SheetResult,
    readings: &CellReadings,
    rules: &RuleSet,
    lang: Lang,
) -> SheetResult {
    let legal: HashSet<Vec<i64>> = legal_rows(rules)
        .iter()
        .map(|r| key(r.values.iter().copied()))
        .collect();
    let by_field: BTreeMap<Field, &FieldReading> =
        readings.fields.iter().map(|f| (f.field, f)).collect();
    let uncertain =
        |f: &FieldReading| f.reading.value().is_none() || f.reading.confidence < CONFIDENT;

    let mut decided: BTreeMap<Field, Decoded> = BTreeMap::new();
    // Rows: hypotheses are the uncertain cells' candidates (and the values the
    // row's other cells suggest), weighed by the reader and by legality.
    for g in &sheet.games {
        let cells: Vec<RowCell> = g
            .cells
            .iter()
            .enumerate()
            .flat_map(|(s, c)| {
                [(false, c.plus), (true, c.minus)]
                    .into_iter()
                    .filter_map(move |(m, v)| v.map(|_| (Field::Game(g.no, s + 1, m), m)))
            })
            .filter_map(|(f, m)| {
                let fr = by_field.get(&f)?;
                let sign = if m { -1 } else { 1 };
                let c: Vec<(i64, f64)> = candidates(&fr.reading)
                    .into_iter()
                    .map(|(v, p)| (sign * v, p))
                    .collect();
                Some((f, sign, c, uncertain(fr)))
            })
            .collect();
        if !cells.iter().any(|c| c.3) {
            continue;
        }
        // Values the row's confident cells suggest for the others.
        let sure: Vec<i64> = cells
            .iter()
            .filter(|c| !c.3)
            .filter_map(|c| c.2.first().map(|v| v.0.abs()))
            .collect();
        let options: Vec<Vec<(i64, f64)>> = cells
            .iter()
            .map(|(_, sign, c, unsure)| {
                if !unsure {
                    return c.iter().take(1).map(|&(v, _)| (v, 1.0)).collect();
                }
                let mut o: Vec<(i64, f64)> = c.iter().take(4).copied().collect();
                for &v in &sure {
                    for w in [v, 3 * v, v / 3, 2 * v] {
                        let w = sign * w;
                        if w != 0 && !o.iter().any(|x| x.0 == w) {
                            o.push((w, prob(c, w)));
                        }
                    }
                }
                o
            })
            .collect();
        let mut hyps: Vec<(Vec<i64>, f64)> = vec![(Vec::new(), 1.0)];
        for o in &options {
            hyps = hyps
                .into_iter()
                .flat_map(|(vs, p)| {
                    o.iter().map(move |&(v, q)| {
                        let mut vs = vs.clone();
                        vs.push(v);
                        (vs, p * q)
                    })
                })
                .collect();
            hyps.sort_by(|a, b| b.1.total_cmp(&a.1));
            hyps.truncate(400);
        }
        for h in &mut hyps {
            if !legal.contains(&key(h.0.iter().copied())) {
                h.1 *= WRITER_ERROR;
            }
        }
        let total: f64 = hyps.iter().map(|h| h.1).sum();
        if total <= 0.0 {
            continue;
        }
        for (i, (f, _, _, unsure)) in cells.iter().enumerate() {
            if !unsure {
                continue;
            }
            let mut marginal: BTreeMap<i64, f64> = BTreeMap::new();
            for (vs, p) in &hyps {
                *marginal.entry(vs[i]).or_default() += p / total;
            }
            let mut ranked: Vec<(i64, f64)> =
                marginal.into_iter().map(|(v, p)| (v.abs(), p)).collect();
            ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
            let (value, posterior) = ranked
                .first()
                .copied()
                .map_or((None, 0.0), |b| (Some(b.0), b.1));
            decided.insert(
                *f,
                Decoded {
                    value,
                    posterior,
                    ranked,
                },
            );
        }
    }
    // Columns: the uncertain cells of a column and its Gesamt are decided
    // together. A decoded value is taken without asking only when the
    // column's most likely assignment adds up to a Gesamt the reading
    // supports, and is overwhelmingly the most likely.
    let seats = sheet.gesamt.len();
    let mut accepted: BTreeMap<Field, i64> = BTreeMap::new();
    let mut replaced: BTreeMap<Field, i64> = BTreeMap::new();
    let mut column_confirms: BTreeMap<(usize, bool), (i64, f64)> = BTreeMap::new();
    for s in 1..=seats {
        for m in [false, true] {
            let mut fixed = 0i64;
            let mut open: Vec<(Field, &Decoded)> = Vec::new();
            for g in &sheet.games {
                let Some(c) = g.cells.get(s - 1) else {
                    continue;
                };
                let Some(v) = (if m { c.minus } else { c.plus }) else {
                    continue;
                };
                let f = Field::Game(g.no, s, m);
                match decided.get(&f) {
                    Some(d) => open.push((f, d)),
                    None => fixed += i64::from(v),
                }
            }
            let Some(gesamt) = by_field.get(&Field::Gesamt(s, m)) else {
                continue;
            };
            if open.is_empty() {
                continue;
            }
            let g_cands = candidates(&gesamt.reading);
            // Over the column's possible sums: the total probability, and
            // the best assignment reaching each sum (with its values).
            let mut total: BTreeMap<i64, f64> = BTreeMap::from([(fixed, 1.0)]);
            let mut best: BTreeMap<i64, (f64, Vec<i64>)> =
                BTreeMap::from([(fixed, (1.0, Vec::new()))]);
            for (_, d) in &open {
                let mut t2: BTreeMap<i64, f64> = BTreeMap::new();
                let mut b2: BTreeMap<i64, (f64, Vec<i64>)> = BTreeMap::new();
                for &(v, q) in d.ranked.iter().take(4) {
                    for (sum, p) in &total {
                        *t2.entry(sum + v).or_default() += p * q;
                    }
                    for (sum, (p, vs)) in &best {
                        let e = b2.entry(sum + v).or_insert((0.0, Vec::new()));
                        if p * q > e.0 {
                            let mut vs = vs.clone();
                            vs.push(v);
                            *e = (p * q, vs);
                        }
                    }
                }
                total = t2;
                best = b2;
            }
            let weight = |sum: i64| {
                let pg = prob(&g_cands, sum);
                pg + WRITER_ERROR * (1.0 - pg)
            };
            let all: f64 = total.iter().map(|(sum, p)| p * weight(*sum)).sum();
            let Some((sum, (p, values))) = best
                .iter()
                .max_by(|a, b| (a.1.0 * weight(*a.0)).total_cmp(&(b.1.0 * weight(*b.0))))
            else {
                continue;
            };
            let posterior = p * weight(*sum) / all.max(f64::MIN_POSITIVE);
            let pg = prob(&g_cands, *sum);
            // The Gesamt as read, confirmed by every way its column may add
            // up (a cell read otherwise still goes to a person, and the
            // Gesamt is checked again against what the person confirms).
            if let Some(&(read, p_read)) = g_cands.first()
                && p_read >= GESAMT_SUPPORT
            {
                let sums_to_read = total.get(&read).copied().unwrap_or(0.0) * weight(read);
                let p_sum = sums_to_read / all.max(f64::MIN_POSITIVE);
                if p_sum >= ACCEPT {
                    column_confirms.insert((s, m), (read, p_sum));
                }
            }
            // Of the column's best assignment, the cells read so are taken.
            // A cell it reads otherwise goes to a person with the suggestion,
            // unless its row's best reading is the same value and the column
            // makes it overwhelmingly likely ([`REPLACE`]): then the reader
            // misread it, and the value the sheet demands twice is taken.
            if posterior >= ACCEPT && pg >= GESAMT_SUPPORT {
                // Only a Gesamt whose best reading is the sum may overrule a reading.
                let gesamt_sure = gesamt.reading.confidence >= REPLACE_GESAMT_SUPPORT
                    && gesamt.reading.value().map(i64::from) == Some(*sum);
                for ((f, d), v) in open.iter().zip(values) {
                    let top = by_field.get(f).and_then(|fr| fr.reading.value());
                    if top.map(i64::from) == Some(*v) {
                        accepted.insert(*f, *v);
                    } else if posterior >= REPLACE && gesamt_sure && d.value == Some(*v) {
                        accepted.insert(*f, *v);
                        replaced.insert(*f, *v);
                    }
                }
            }
        }
    }
    for (f, v) in &replaced {
        if let Field::Game(no, s, m) = *f
            && let Some(c) = sheet
                .games
                .iter_mut()
                .find(|g| g.no == no)
                .and_then(|g| g.cells.get_mut(s - 1))
        {
            let target = if m { &mut c.minus } else { &mut c.plus };
            *target = u32::try_from(*v).ok();
        }
    }
    // A row alone may confirm a reading: where the legal rows make the
    // reader's own best reading overwhelmingly likely, it stands.
    for (f, d) in &decided {
        if accepted.contains_key(f) {
            continue;
        }
        let own = by_field
            .get(f)
            .and_then(|fr| fr.reading.value())
            .map(i64::from);
        if d.posterior >= ACCEPT_ROW
            && let Some(v) = d.value
            && Some(v) == own
        {
            accepted.insert(*f, v);
        }
    }
    let mut flags = Vec::new();
    for fr in &readings.fields {
        let (row, seat, name) = fr.field.locator();
        if let (None, Field::Game(no, s, _)) = (decided.get(&fr.field), fr.field)
            && let Some(c) = sheet
                .games
                .iter_mut()
                .find(|g| g.no == no)
                .and_then(|g| g.cells.get_mut(s - 1))
        {
            let own = Decoded {
                value: None,
                posterior: 0.0,
                ranked: candidates(&fr.reading),
            };
            c.extra
                .insert(format!("{name}_reading"), reading_json(fr, &own, false));
        }
        if let (Some(d), Field::Game(no, s, _)) = (decided.get(&fr.field), fr.field) {
            let taken = accepted.contains_key(&fr.field);
            if let Some(c) = sheet
                .games
                .iter_mut()
                .find(|g| g.no == no)
                .and_then(|g| g.cells.get_mut(s - 1))
            {
                c.extra
                    .insert(format!("{name}_reading"), reading_json(fr, d, taken));
            }
            if !taken {
                flags.push(uncertain_flag(
                    row,
                    seat,
                    name,
                    &fr.reading,
                    &fr.what,
                    Some(d),
                    lang,
                ));
            }
        }
    }
    // The footer: an uncertain Gesamt is checked against its column, an
    // uncertain Abzug against the smaller Gesamt, an Endergebnis against
    // their difference. Only a settled column (and Gesamt) can confirm a
    // reading; an unsettled one, at its cells' suggestions, still gives a
    // suggestion, as likely as the suggestions it rests on.
    let column = |s: usize, m: bool| -> Option<(i64, f64)> {
        let (mut sum, mut q) = (0i64, 1.0f64);
        for g in &sheet.games {
            let Some(v) = g
                .cells
                .get(s - 1)
                .and_then(|c| if m { c.minus } else { c.plus })
            else {
                continue;
            };
            let f = Field::Game(g.no, s, m);
            match (accepted.contains_key(&f), decided.get(&f)) {
                (false, Some(d)) => {
                    sum += d.value?;
                    q *= d.posterior;
                }
                _ => sum += i64::from(v),
            }
        }
        Some((sum, q))
    };
    // Each Gesamt as read where sure, else as suggested, with how likely.
    let mut gesamt_known: BTreeMap<(usize, bool), (i64, f64)> = BTreeMap::new();
    for fr in &readings.fields {
        if let Field::Gesamt(s, m) = fr.field
            && !uncertain(fr)
            && let Some(v) = fr.reading.value()
        {
            gesamt_known.insert((s, m), (i64::from(v), 1.0));
        }
    }
    // In the order of `Field`: every Gesamt before the Abzüge and Endergebnisse.
    let mut footer: Vec<&FieldReading> = readings
        .fields
        .iter()
        .filter(|f| !matches!(f.field, Field::Game(..)) && uncertain(f))
        .collect();
    footer.sort_by_key(|f| f.field);
    for fr in footer {
        let field = fr.field;
        let (row, seat, name) = field.locator();
        // The column's whole distribution of sums confirmed it above.
        if let Field::Gesamt(s, m) = field
            && let Some(&(t, p)) = column_confirms.get(&(s, m))
        {
            gesamt_known.insert((s, m), (t, p));
            continue;
        }
        let gesamt = |s: usize| {
            let (p, qp) = *gesamt_known.get(&(s, false))?;
            let (m, qm) = *gesamt_known.get(&(s, true))?;
            Some((p, m, qp * qm))
        };
        let expected = match field {
            Field::Gesamt(s, m) => column(s, m),
            Field::Abzug(s) => gesamt(s).map(|(p, m, q)| (p.min(m), q)),
            // Only where the sign as read agrees: the digits are checked, not the sign.
            Field::Endergebnis(s) => gesamt(s)
                .map(|(p, m, q)| (p - m, q))
                .filter(|(e, _)| {
                    sheet
                        .endergebnis
                        .get(s - 1)
                        .copied()
                        .flatten()
                        .is_some_and(|v| v.signum() == e.signum())
                })
                .map(|(e, q)| (e.abs(), q)),
            _ => None,
        };
        let Some((t, q)) = expected else {
            flags.push(uncertain_flag(
                row,
                seat,
                name,
                &fr.reading,
                &fr.what,
                None,
                lang,
            ));
            continue;
        };
        let p = prob(&candidates(&fr.reading), t);
        let posterior = q * p / (p + WRITER_ERROR * (1.0 - p));
        let d = Decoded {
            value: Some(t),
            posterior,
            ranked: vec![(t, posterior)],
        };
        // Confirmed as read (the reading and what the rest of the sheet gives
        // agree, overwhelmingly likely together): it stands, and a confirmed
        // Gesamt is known, as surely as the column it rests on.
        if posterior >= ACCEPT && fr.reading.value().map(i64::from) == Some(t) {
            if let Field::Gesamt(s, m) = field {
                gesamt_known.insert((s, m), (t, q.min(1.0)));
            }
        } else {
            if let Field::Gesamt(s, m) = field
                && posterior >= PROBABLE
            {
                gesamt_known.insert((s, m), (t, posterior));
            }
            flags.push(uncertain_flag(
                row,
                seat,
                name,
                &fr.reading,
                &fr.what,
                Some(&d),
                lang,
            ));
        }
    }
    sheet.flags.extend(flags);
    sheet
}

/// What the reader saw in a cell and how decoding ranked it (extra field).
fn reading_json(fr: &FieldReading, d: &Decoded, accepted: bool) -> serde_json::Value {
    json!({
        "read": fr.reading.text,
        "confidence": round3(f64::from(fr.reading.confidence)),
        "alternatives": d.ranked.iter().take(4).map(|(v, p)| json!([v, round3(*p)])).collect::<Vec<_>>(),
        "decoded": accepted,
    })
}

fn round3(v: f64) -> f64 {
    (v * 1000.0).round() / 1000.0
}

/// A row's playing values as a set key: sorted, sitters' zeros left out.
fn key(values: impl Iterator<Item = i64>) -> Vec<i64> {
    let mut k: Vec<i64> = values.filter(|v| *v != 0).collect();
    k.sort_unstable();
    k
}

/// The flag for a number a person must check, with the reader's
/// alternatives and, where decoding ranked them, the suggestion.
pub fn uncertain_flag(
    row: Option<u32>,
    seat: Option<usize>,
    field: &str,
    r: &Reading,
    what: &str,
    decoded: Option<&Decoded>,
    lang: Lang,
) -> Flag {
    let shown = if r.text.is_empty() {
        "?".to_string()
    } else {
        r.text.clone()
    };
    let mut extra = Map::new();
    extra.insert("reading".into(), json!(r.text));
    extra.insert("confidence".into(), json!(round3(f64::from(r.confidence))));
    if !r.alternatives.is_empty() {
        extra.insert(
            "alternatives".into(),
            json!(
                r.alternatives
                    .iter()
                    .map(|(t, p)| json!([t, round3(f64::from(*p))]))
                    .collect::<Vec<_>>()
            ),
        );
    }
    let suggestion = decoded.and_then(|d| d.value.map(|v| (v, d.posterior)));
    if let Some((v, p)) = suggestion {
        extra.insert("suggestion".into(), json!(v));
        extra.insert("suggestion_probability".into(), json!(round3(p)));
    }
    let pct = r.confidence * 100.0;
    let message = match (lang, suggestion) {
        (Lang::De, Some((v, p))) if v.to_string() != r.text => format!(
            "{what}: gelesen \"{shown}\" ({pct:.0}%), nach Tarif und Spaltensumme eher {v} ({:.0}%), bitte prüfen.",
            p * 100.0
        ),
        (Lang::En, Some((v, p))) if v.to_string() != r.text => format!(
            "{what}: read \"{shown}\" ({pct:.0}%), by the tariff and column sum more likely {v} ({:.0}%), please check.",
            p * 100.0
        ),
        (Lang::De, _) => format!("{what}: gelesen \"{shown}\" ({pct:.0}%), bitte prüfen."),
        (Lang::En, _) => format!("{what}: read \"{shown}\" ({pct:.0}%), please check."),
    };
    Flag {
        code: Code::CellUncertain,
        severity: Code::CellUncertain.severity(),
        row,
        seat,
        field: Some(field.to_string()),
        message,
        extra,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sheet::{Cell, GameRow, Gesamt};

    fn reading(text: &str, p: f32, alts: &[(&str, f32)]) -> Reading {
        Reading {
            text: text.into(),
            confidence: p,
            alternatives: alts.iter().map(|(t, p)| (t.to_string(), *p)).collect(),
        }
    }

    /// One Rufspiel Schneider 2/2/-2/-2 with the last cell read uncertainly.
    fn sheet_and_readings(last: Reading, gesamt_minus_4: u32) -> (SheetResult, CellReadings) {
        let mut sheet: SheetResult = serde_json::from_value(json!({
            "schema": crate::sheet::SCHEMA, "status": "ok",
            "players": [null, null, null, null], "games": [],
            "gesamt": [null, null, null, null], "abzug": [null, null, null, null],
            "endergebnis": [null, null, null, null], "signatures": [false, false, false, false],
            "flags": []
        }))
        .expect("sheet");
        let read = last.value().unwrap_or(0);
        let values = [(false, 2u32), (false, 2), (true, 2), (true, read)];
        sheet.games.push(GameRow {
            no: 1,
            cells: values
                .iter()
                .map(|&(m, v)| if m { Cell::minus(v) } else { Cell::plus(v) })
                .collect(),
            initials: false,
            class: None,
            extra: Map::new(),
        });
        let mut fields = Vec::new();
        for (s, &(m, v)) in values.iter().enumerate() {
            let r = if s == 3 {
                last.clone()
            } else {
                reading(&v.to_string(), 0.99, &[])
            };
            fields.push(FieldReading {
                field: Field::Game(1, s + 1, m),
                reading: r,
                what: format!("seat {}", s + 1),
            });
            let g = if s == 3 { gesamt_minus_4 } else { 2 };
            sheet.gesamt[s] = Some(if m {
                Gesamt {
                    plus: None,
                    minus: Some(g),
                }
            } else {
                Gesamt {
                    plus: Some(g),
                    minus: None,
                }
            });
            fields.push(FieldReading {
                field: Field::Gesamt(s + 1, m),
                reading: reading(&g.to_string(), 0.99, &[]),
                what: "g".into(),
            });
        }
        (sheet, CellReadings { fields })
    }

    fn rules() -> RuleSet {
        RuleSet::load("merkur").expect("merkur")
    }

    #[test]
    fn an_uncertain_reading_row_and_column_confirm_is_taken() {
        let (sheet, readings) = sheet_and_readings(reading("2", 0.6, &[("8", 0.3)]), 2);
        let out = decode(sheet, &readings, &rules(), Lang::En);
        assert_eq!(out.games[0].cells[3].minus, Some(2));
        assert!(out.flags.is_empty(), "{:?}", out.flags);
        let r = &out.games[0].cells[3].extra["minus_reading"];
        assert_eq!(r["decoded"], json!(true));
    }

    #[test]
    fn an_uncertain_misreading_its_row_and_column_both_contradict_should_take_their_value() {
        let (sheet, readings) = sheet_and_readings(reading("8", 0.5, &[("2", 0.4)]), 2);
        let out = decode(sheet, &readings, &rules(), Lang::En);
        assert_eq!(out.games[0].cells[3].minus, Some(2));
        assert!(out.flags.is_empty(), "{:?}", out.flags);
        let r = &out.games[0].cells[3].extra["minus_reading"];
        assert_eq!(r["read"], json!("8"), "what was read stays on record");
        assert_eq!(r["decoded"], json!(true));
    }

    #[test]
    fn a_misreading_only_its_row_contradicts_should_go_to_a_person() {
        // The Gesamt read unsure between 2 and 8: the column cannot decide.
        let out = decode_with_gesamt_read(
            reading("8", 0.5, &[("2", 0.4)]),
            reading("2", 0.45, &[("8", 0.4)]),
        );
        assert_eq!(out.games[0].cells[3].minus, Some(8), "as read");
        let cell = out.flags.iter().find(|f| f.row == Some(1)).expect("flag");
        assert_eq!(cell.code, Code::CellUncertain);
        assert_eq!(cell.extra.get("suggestion"), Some(&json!(2)));
    }

    #[test]
    fn without_the_column_sum_the_suggestion_is_flagged() {
        let (sheet, readings) = sheet_and_readings(reading("8", 0.5, &[("2", 0.4)]), 8);
        let out = decode(sheet, &readings, &rules(), Lang::En);
        assert_eq!(out.flags.len(), 1);
        assert_eq!(out.flags[0].code, Code::CellUncertain);
        assert_eq!(out.flags[0].extra.get("suggestion"), Some(&json!(2)));
        assert!(
            out.flags[0].message.contains("more likely 2 "),
            "{}",
            out.flags[0].message
        );
    }

    /// [`sheet_and_readings`] with seat 4's Gesamt Minus read as `gesamt`, decoded.
    fn decode_with_gesamt_read(last: Reading, gesamt: Reading) -> SheetResult {
        let (sheet, mut readings) = sheet_and_readings(last, gesamt.value().unwrap_or(0));
        for f in &mut readings.fields {
            if f.field == Field::Gesamt(4, true) {
                f.reading = gesamt.clone();
            }
        }
        decode(sheet, &readings, &rules(), Lang::En)
    }

    #[test]
    fn an_uncertain_gesamt_over_an_unsettled_column_should_get_its_suggestion() {
        let out = decode_with_gesamt_read(
            reading("8", 0.5, &[("2", 0.4)]),
            reading("8", 0.6, &[("2", 0.3)]),
        );
        let gesamt = out
            .flags
            .iter()
            .find(|f| f.row.is_none() && f.seat == Some(4))
            .expect("the Gesamt goes to a person");
        assert_eq!(gesamt.extra.get("suggestion"), Some(&json!(2)));
        let p = gesamt.extra["suggestion_probability"].as_f64().expect("p");
        assert!(p >= PROBABLE, "the column's suggestion makes 2 likely: {p}");
        assert_eq!(out.gesamt[3].and_then(|g| g.minus), Some(8), "as read");
    }

    #[test]
    fn a_gesamt_read_at_even_odds_that_adds_up_should_let_the_cell_be_taken() {
        let out = decode_with_gesamt_read(
            reading("8", 0.5, &[("2", 0.4)]),
            reading("2", 0.6, &[("8", 0.3)]),
        );
        assert!(out.flags.is_empty(), "{:?}", out.flags);
        assert_eq!(out.games[0].cells[3].minus, Some(2));
        assert_eq!(out.gesamt[3].and_then(|g| g.minus), Some(2));
    }

    #[test]
    fn an_uncertain_gesamt_the_likely_column_confirms_should_stand() {
        let out = decode_with_gesamt_read(
            reading("8", 0.5, &[("2", 0.4)]),
            reading("2", 0.45, &[("8", 0.3)]),
        );
        assert_eq!(out.flags.len(), 1, "{:?}", out.flags);
        assert_eq!(
            out.flags[0].row,
            Some(1),
            "only the game cell goes to a person"
        );
    }

    /// The game cell's suggestion alone is not sure enough to confirm the
    /// Gesamt (0.91), but every way the column may add up, weighed with the
    /// Gesamt's own reading, is (0.987): the Gesamt stands; the cell, its
    /// Gesamt read below even odds, does not.
    #[test]
    fn an_uncertain_gesamt_its_whole_column_confirms_should_stand() {
        let out = decode_with_gesamt_read(
            reading("8", 0.9, &[("2", 0.09)]),
            reading("2", 0.45, &[("8", 0.05)]),
        );
        assert_eq!(out.flags.len(), 1, "{:?}", out.flags);
        assert_eq!(
            out.flags[0].row,
            Some(1),
            "only the game cell goes to a person"
        );
        assert_eq!(out.flags[0].extra.get("suggestion"), Some(&json!(2)));
        assert_eq!(out.games[0].cells[3].minus, Some(8), "as read");
    }

    #[test]
    fn a_confident_illegal_reading_stays_as_written() {
        let (sheet, readings) = sheet_and_readings(reading("8", 0.999, &[("2", 0.001)]), 2);
        let out = decode(sheet, &readings, &rules(), Lang::En);
        assert_eq!(out.games[0].cells[3].minus, Some(8));
        assert!(
            out.flags.is_empty(),
            "the verifier flags the row, not the decoder"
        );
    }

    #[test]
    fn an_image_that_does_not_support_the_legal_value_is_not_changed() {
        let (sheet, readings) = sheet_and_readings(reading("8", 0.6, &[("5", 0.3)]), 2);
        let out = decode(sheet, &readings, &rules(), Lang::En);
        assert_eq!(out.flags.len(), 1, "uncertain, so a person looks");
        assert_eq!(
            out.games[0].cells[3].minus,
            Some(8),
            "no support for 2 in the image"
        );
    }
}
