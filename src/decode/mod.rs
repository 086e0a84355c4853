//! Row decoding: the stage between reading and verifying. A confidently read
//! value stays as read, legal or not (finding the writer's mistakes is the
//! verifier's job). Only where a reading is uncertain are its alternatives
//! ranked with the rule set's legal rows and the footer's column sums. When
//! that evidence overwhelmingly confirms the reading (see [`ACCEPT`] and
//! docs/reading.md) it stands without a flag; otherwise the cell gets
//! `CELL_UNCERTAIN` with the alternatives and the suggestion. Only a game
//! cell whose column demands another value overwhelmingly, its row
//! allowing it and its Gesamt (or the seat's footer) supporting the sum
//! ([`REPLACE`]), takes it without a flag. The footer is decided seat by
//! seat: both Gesamt values with their columns, the Abzug and the
//! Endergebnis together ([`SeatFooter`]); a footer field read unsure whose
//! seat makes another value overwhelmingly likely ([`TAKE_FOOTER`]) holds
//! that value but keeps its `CELL_UNCERTAIN`.
//!
//! `SheetResult` (values as read) + [`CellReadings`] → [`decode`] → `SheetResult`

use std::collections::{BTreeMap, HashSet};

use serde_json::Map;

use crate::catalogue::{percent, say};
use crate::check::flags::FlagDetail;
use crate::check::flags::{Code, Flag};
use crate::check::messages::Lang;
use crate::check::rules::{RuleSet, legal_rows};
use crate::read::Reading;
use crate::sheet::{CellReading, GameRow, SheetResult};

mod doubt;
mod evidence;
mod footer;
mod games;

use doubt::doubt_flags;
mod explain;
mod legal_row;
mod witness;
use evidence::*;
use footer::*;
use games::*;

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
/// sheets) and 106 on the held-out sets, all right. Tuning
/// sets tA tB tP wA wB wP (300 sheets): 210 taken at 0.99, 214 at 0.97,
/// 215 at 0.95 (where [`ACCEPT`] bounds it), all right, silent errors and
/// recall unchanged; 0.97 keeps a margin. The Gesamt may also
/// be confirmed by the seat's Endergebnis or Abzug ([`footer_confirms`]),
/// and a cell may be taken on its own probability in the column where the
/// column's best assignment as a whole falls short (its other open cells
/// unsettled): tuning sets 129 → 122 wrong cells, uncertain cells 2.97
/// → 2.95 a sheet; false flags, silent errors and recall unchanged.
pub const REPLACE: f64 = 0.97;

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

/// A suggestion at least this likely is the sheet's most probable reading,
/// which the verifier judges the rule flags by: a flag only the reading as
/// is shows is kept aside, one only the most probable shows is raised.
/// Below it, the reading as is stands for the rules. A writer's mistake
/// read with doubt gets a suggestion of what the sheet's arithmetic wants
/// ("7" read at 95% where a legal row wants 9: 9 at 84%), so too low a bar
/// hides it behind its CELL_UNCERTAIN. Tuning sets with a mistake on every
/// sheet (seed 701; 60/60/40 sheets, docs/reading.md): writer-error recall
/// 107/109, 117/118, 78/80 at 0.5, 108/109, 118/118, 79/80 at 0.8 and 0.9,
/// at 0.05-0.1 more false flags a sheet (0.9: 0.15-0.25; 0.95: one more
/// found, 0.3 more).
pub const PROBABLE: f64 = 0.8;

/// Posterior from which a footer field (Gesamt, Abzug, Endergebnis) the
/// reader is unsure of holds the sheet's value rather than its reading.
/// Unlike a game cell taken so, it keeps its `CELL_UNCERTAIN` (marked
/// `taken`): a Gesamt written wrong looks to the footer just like one
/// misread, so a person still looks. The rule flags were already judged by
/// this value ([`PROBABLE`]); only the number held changes.
pub const TAKE_FOOTER: f64 = ACCEPT;

/// How many of an uncertain cell's decoded values its column weighs.
const WEIGHED: usize = 6;

/// Prior odds that a writer's row is not a legal pattern (a writer's mistake).
const WRITER_ERROR: f64 = 0.01;

/// Probability given to a value the reader did not list, at least.
const UNLISTED: f64 = 1e-4;

/// Over how many values the probability a reading does not list is
/// spread: a misreading lands on a few numbers near what was written (a
/// digit off). A flat 1e-4 made a value the reader missed, which row,
/// column and footer all wanted, no suggestion at all (a "5" drawn like a
/// "√", read "4" with "0" next). Tuning sets (docs/reading.md): false
/// flags a sheet tA tB tP wA wB wP 0.20 0.57 0.60 0.60 0.53
/// 0.43 → 0.13 0.20 0.47 0.50 0.27 0.38 at 20, recall and silent errors
/// equal; at 10, recall wB 117 → 115/118; at 50, false flags tP 0.53.
const UNLISTED_SPREAD: f64 = 20.0;

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
    /// Where the field is, as a flag names it: row, seat, field.
    pub fn locator(self) -> (Option<u32>, Option<usize>, &'static str) {
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
    /// Seats whose Endergebnis was read without a sign (not 0): its digits
    /// are among `fields`, its sign is the sheet's to give.
    pub signless: Vec<usize>,
    /// Game fields whose number runs over the line into the next column:
    /// which column it is in is a person's to say.
    pub across_side: Vec<Field>,
}

/// A reading as a distribution over values, best first.
fn candidates(r: &Reading) -> Vec<(i64, f64)> {
    let mut out: Vec<(i64, f64)> = Vec::new();
    for (t, p) in r.listed() {
        if let Ok(v) = t.parse::<i64>()
            && t.len() <= 4
            && !out.iter().any(|o| o.0 == v)
        {
            out.push((v, f64::from(p)));
        }
    }
    out
}

/// How likely a reading makes `v`: its listed probability, or, unlisted,
/// a share of what the listed values leave over (at least [`UNLISTED`]).
fn prob(c: &[(i64, f64)], v: i64) -> f64 {
    let rest = (1.0 - c.iter().map(|o| o.1).sum::<f64>()).max(0.0);
    let unlisted = (rest / UNLISTED_SPREAD).max(UNLISTED);
    c.iter()
        .find(|o| o.0 == v)
        .map_or(unlisted, |o| o.1.max(UNLISTED))
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

impl Decoded {
    /// The best of `ranked` (sorted here, best first) as the decoded value.
    fn from_ranked(mut ranked: Vec<(i64, f64)>) -> Self {
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
        Decoded {
            value: ranked.first().map(|b| b.0),
            posterior: ranked.first().map_or(0.0, |b| b.1),
            ranked,
        }
    }
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
    let ev = Evidence::new(readings, rules, lang);
    let (decided, cols) = decide_games(&mut sheet, &ev);
    let mut flags = game_flags(&mut sheet, &ev, &decided, &cols);
    flags.extend(footer_flags(&mut sheet, &ev, &cols, &decided));
    doubt_flags(&sheet, &ev, &mut flags);
    legal_row::legal_row_flags(&sheet, &ev, &mut flags);
    explain::explanation_flags(&sheet, &ev, &mut flags);
    across_side_flags(&ev, &mut flags);
    sheet.flags.extend(flags);
    sheet
}

/// A number written across the line between two columns is asked about,
/// however surely it reads and fits its row: a "+4" that ran mostly into
/// the minus column reads as a "-4" (a legal row when another seat's
/// value ran the other way).
fn across_side_flags(ev: &Evidence, flags: &mut Vec<Flag>) {
    for &field in &ev.readings.across_side {
        let Field::Game(row, seat, minus) = field else {
            continue;
        };
        let column = if minus { "minus" } else { "plus" };
        let asked = flags.iter().any(|f| {
            f.code == Code::CellUncertain
                && f.row == Some(row)
                && f.seat == Some(seat)
                && f.field.as_deref() == Some(column)
        });
        let Some(read) = ev.by_field.get(&field) else {
            continue;
        };
        if !asked {
            let mut flag = uncertain_flag(
                Some(row),
                Some(seat),
                column,
                &read.reading,
                &read.what,
                None,
                ev.lang,
            );
            flag.message = say(ev.lang, "uncertain-across-side", &[("what", &read.what)]);
            flags.push(flag);
        }
    }
}

/// What a sheet's numbers are weighed against: the readings and the rule
/// set's legal rows.
struct Evidence<'a> {
    readings: &'a CellReadings,
    by_field: BTreeMap<Field, &'a FieldReading>,
    legal: HashSet<Vec<i64>>,
    rules: &'a RuleSet,
    lang: Lang,
}

impl<'a> Evidence<'a> {
    fn new(readings: &'a CellReadings, rules: &'a RuleSet, lang: Lang) -> Self {
        Evidence {
            readings,
            by_field: readings.fields.iter().map(|f| (f.field, f)).collect(),
            legal: legal_rows(rules)
                .iter()
                .map(|r| key(r.values.iter().copied()))
                .collect(),
            rules,
            lang,
        }
    }

    /// An Endergebnis read without its sign.
    fn signless(&self, f: Field) -> bool {
        matches!(f, Field::Endergebnis(s) if self.readings.signless.contains(&s))
    }
}

/// A reading decoding weighs: no value, or one read below [`CONFIDENT`].
fn is_uncertain(f: &FieldReading) -> bool {
    f.reading.value().is_none() || f.reading.confidence < CONFIDENT
}

/// What the reader saw in a cell and how decoding ranked it.
fn cell_reading(fr: &FieldReading, d: &Decoded, accepted: bool) -> CellReading {
    CellReading {
        alternatives: d
            .ranked
            .iter()
            .take(4)
            .map(|(v, p)| (*v, round3(*p)))
            .collect(),
        confidence: round3(f64::from(fr.reading.confidence)),
        decoded: accepted,
        read: fr.reading.text.clone(),
    }
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
    let suggestion = decoded.and_then(|d| d.value.map(|v| (v, d.posterior)));
    let detail = FlagDetail {
        alternatives: r
            .alternatives
            .iter()
            .map(|(t, p)| (t.clone(), round3(f64::from(*p))))
            .collect(),
        confidence: Some(round3(f64::from(r.confidence))),
        reading: Some(r.text.clone()),
        suggestion: suggestion.map(|(v, _)| v),
        suggestion_probability: suggestion.map(|(_, p)| round3(p)),
        ..FlagDetail::default()
    };
    let pct = percent(r.confidence * 100.0);
    let message = match suggestion {
        Some((v, p)) if v.to_string() != r.text => say(
            lang,
            "uncertain-suggested",
            &[
                ("what", &what),
                ("read", &shown),
                ("percent", &pct),
                ("value", &v),
                ("probability", &percent(p * 100.0)),
            ],
        ),
        _ => say(
            lang,
            "uncertain",
            &[("what", &what), ("read", &shown), ("percent", &pct)],
        ),
    };
    Flag {
        code: Code::CellUncertain,
        severity: Code::CellUncertain.severity(),
        row,
        seat,
        field: Some(field.to_string()),
        message,
        detail,
        extra: Map::new(),
    }
}

#[cfg(test)]
mod tests;
