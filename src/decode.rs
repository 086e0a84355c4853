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

use crate::check::flags::FlagDetail;
use crate::check::flags::{Code, Flag};
use crate::check::messages::Lang;
use crate::check::rules::{RuleSet, legal_rows};
use crate::read::Reading;
use crate::sheet::{CellReading, GameRow, SheetResult};

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
    /// Seats whose Endergebnis was read without a sign (not 0): its digits
    /// are among `fields`, its sign is the sheet's to give.
    pub signless: Vec<usize>,
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
    let legal: HashSet<Vec<i64>> = legal_rows(rules)
        .iter()
        .map(|r| key(r.values.iter().copied()))
        .collect();
    let by_field: BTreeMap<Field, &FieldReading> =
        readings.fields.iter().map(|f| (f.field, f)).collect();
    let uncertain =
        |f: &FieldReading| f.reading.value().is_none() || f.reading.confidence < CONFIDENT;

    let mut decided: BTreeMap<Field, Decoded> = BTreeMap::new();
    // Per uncertain game cell: how likely its row is a legal pattern.
    let mut row_legal: BTreeMap<Field, f64> = BTreeMap::new();
    let mut cols = Columns::default();
    // Game cells a first pass took: a second pass weighs the rows and
    // columns again with them as sure, so that a cell its column settled
    // lets its row settle the row's other cells (rows and columns are
    // decided one after the other, not jointly).
    let mut settled: BTreeMap<Field, i64> = BTreeMap::new();
    for _pass in 0..2 {
        let (decided_now, row_legal_now) =
            decide_rows(&sheet.games, &by_field, &legal, &uncertain, &settled);
        decide_columns(
            &mut sheet,
            &by_field,
            &decided_now,
            &row_legal_now,
            &mut cols,
        );
        let first = settled.is_empty();
        row_legal.extend(row_legal_now);
        decided.extend(decided_now);
        let taken: BTreeMap<Field, i64> = cols
            .accepted
            .iter()
            .filter(|(f, _)| matches!(f, Field::Game(..)))
            .map(|(&f, &v)| (f, v))
            .collect();
        if !first || taken.is_empty() {
            break;
        }
        settled = taken;
    }
    // A row alone may confirm a reading: where the legal rows make the
    // reader's own best reading overwhelmingly likely, it stands.
    for (f, d) in &decided {
        if cols.accepted.contains_key(f) {
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
            cols.accepted.insert(*f, v);
        }
    }
    let mut flags = Vec::new();
    for fr in &readings.fields {
        let (row, seat, name) = fr.field.locator();
        if let (None, Field::Game(no, s, minus)) = (decided.get(&fr.field), fr.field)
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
            c.notes.set_reading(minus, cell_reading(fr, &own, false));
        }
        if let (Some(d), Field::Game(no, s, minus)) = (decided.get(&fr.field), fr.field) {
            let d = cols.with_column.get(&fr.field).unwrap_or(d);
            let taken = cols.accepted.contains_key(&fr.field);
            if let Some(c) = sheet
                .games
                .iter_mut()
                .find(|g| g.no == no)
                .and_then(|g| g.cells.get_mut(s - 1))
            {
                c.notes.set_reading(minus, cell_reading(fr, d, taken));
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
    // The footer, seat by seat: its Gesamt Plus and Minus are decided
    // together with their columns, the Abzug (the smaller) and the
    // Endergebnis (the difference) as read. A reading stands where all of
    // that makes it overwhelmingly likely; else a person checks it, with
    // the sheet's most likely value as the suggestion.
    let signless = |f: Field| matches!(f, Field::Endergebnis(s) if readings.signless.contains(&s));
    let mut footer: Vec<&FieldReading> = readings
        .fields
        .iter()
        .filter(|f| !matches!(f.field, Field::Game(..)) && (uncertain(f) || signless(f.field)))
        .collect();
    footer.sort_by_key(|f| f.field);
    let mut joints: BTreeMap<usize, Option<SeatFooter>> = BTreeMap::new();
    for fr in footer {
        let field = fr.field;
        let (row, seat, name) = field.locator();
        // The column's whole distribution of sums confirmed it above.
        if let Field::Gesamt(s, m) = field
            && cols.confirms.contains_key(&(s, m))
        {
            continue;
        }
        // What the rest of the sheet makes of it: a round number is one of
        // the night's rounds, a Gesamt, Abzug or Endergebnis is weighed
        // with its seat's footer; a table number has nothing to check it.
        let d = match field {
            Field::Round => Some(round_reading(&candidates(&fr.reading), rules.rounds)),
            Field::Gesamt(s, _) | Field::Abzug(s) | Field::Endergebnis(s) => joints
                .entry(s)
                .or_insert_with(|| {
                    let sign = sheet
                        .endergebnis
                        .get(s - 1)
                        .copied()
                        .flatten()
                        .filter(|_| !signless(Field::Endergebnis(s)));
                    SeatFooter::decide(s, &by_field, &cols.sums, sign, &uncertain)
                })
                .as_ref()
                .map(|joint| joint.ranked(field)),
            _ => None,
        };
        let read = fr.reading.value().map(i64::from);
        let stands = read.is_some_and(|r| {
            d.as_ref()
                .is_some_and(|d| d.ranked.iter().any(|&(v, p)| v == r && p >= ACCEPT))
        });
        if signless(field) {
            flags.push(signless_flag(&mut sheet, fr, d.as_ref(), lang));
        } else if !stands {
            let mut flag = uncertain_flag(row, seat, name, &fr.reading, &fr.what, d.as_ref(), lang);
            // The sheet's value where it is overwhelmingly likely and not
            // what was read; the flag stays, so a person still checks it.
            let best = d
                .as_ref()
                .filter(|d| d.posterior >= TAKE_FOOTER)
                .and_then(|d| d.value)
                .filter(|v| Some(*v) != read);
            if let Some(v) = best
                && matches!(
                    field,
                    Field::Gesamt(..) | Field::Abzug(_) | Field::Endergebnis(_)
                )
                && set_footer(&mut sheet, field, v)
            {
                flag.detail.taken = true;
                flag.message = taken_message(&fr.what, &fr.reading, v, lang);
            }
            flags.push(flag);
        }
    }
    let doubted = doubted_by_row_and_column(&sheet, &by_field, &legal, &flags);
    for (f, v, p) in doubted {
        let Some(fr) = by_field.get(&f) else {
            continue;
        };
        let (row, seat, name) = f.locator();
        let read = fr.reading.value().map_or(0, i64::from);
        let d = Decoded::from_ranked(vec![(v, p), (read, 1.0 - p)]);
        let mut flag = uncertain_flag(row, seat, name, &fr.reading, &fr.what, Some(&d), lang);
        flag.detail.doubted = true;
        flag.message = doubted_message(&fr.what, &fr.reading, v, p, lang);
        // One flag a cell: the doubt replaces the cell's own, if any.
        flags.retain(|x| !(x.row == row && x.seat == seat && x.field.as_deref() == Some(name)));
        flags.push(flag);
    }
    sheet.flags.extend(flags);
    sheet
}

/// What the columns concluded, over both passes.
#[derive(Default)]
struct Columns {
    /// Game cells that stand (as read, or as the sheet demands).
    accepted: BTreeMap<Field, i64>,
    /// Of those, the ones taken as another value than read.
    replaced: BTreeMap<Field, i64>,
    /// Gesamt fields their whole column confirms as read.
    confirms: BTreeMap<(usize, bool), (i64, f64)>,
    /// Every column's distribution of sums (one sum where no cell is open).
    sums: ColumnSums,
    /// Each open cell's values weighed by its row and its column together.
    with_column: BTreeMap<Field, Decoded>,
}

/// Columns: the uncertain cells of a column and its Gesamt are decided
/// together, each cell coming with its row's values (`decided`); cells
/// taken as another value are set in `sheet`.
fn decide_columns(
    sheet: &mut SheetResult,
    by_field: &BTreeMap<Field, &FieldReading>,
    decided: &BTreeMap<Field, Decoded>,
    row_legal: &BTreeMap<Field, f64>,
    cols: &mut Columns,
) {
    let seats = sheet.gesamt.len();
    // Columns: the uncertain cells of a column and its Gesamt are decided
    // together. A decoded value is taken without asking only when the
    // column's most likely assignment adds up to a Gesamt the reading
    // supports, and is overwhelmingly the most likely.
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
            // Over the column's possible sums: the total probability, and
            // the best assignment reaching each sum (with its values).
            let mut total: BTreeMap<i64, f64> = BTreeMap::from([(fixed, 1.0)]);
            let mut best: BTreeMap<i64, (f64, Vec<i64>)> =
                BTreeMap::from([(fixed, (1.0, Vec::new()))]);
            for (_, d) in &open {
                let mut t2: BTreeMap<i64, f64> = BTreeMap::new();
                let mut b2: BTreeMap<i64, (f64, Vec<i64>)> = BTreeMap::new();
                for &(v, q) in d.ranked.iter().take(WEIGHED) {
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
            cols.sums.insert((s, m), total.clone());
            let Some(gesamt) = by_field.get(&Field::Gesamt(s, m)) else {
                continue;
            };
            if open.is_empty() {
                continue;
            }
            let g_cands = candidates(&gesamt.reading);
            let weight = |sum: i64| fits(&g_cands, sum);
            // Each open cell's values weighed by its row and its column
            // together: what a person is shown and the rule flags are judged by.
            for (i, (f, d)) in open.iter().enumerate() {
                let others: Vec<&Decoded> = open
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| *j != i)
                    .map(|(_, o)| o.1)
                    .collect();
                let ranked = d
                    .ranked
                    .iter()
                    .take(WEIGHED)
                    .map(|&(v, _)| (v, column_marginal(fixed, &others, d, v, &weight)))
                    .collect();
                cols.with_column.insert(*f, Decoded::from_ranked(ranked));
            }
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
                    cols.confirms.insert((s, m), (read, p_sum));
                }
            }
            // A cell's own probability in the column, however the column's
            // other open cells are read (weighed above).
            let in_column = |f: &Field, v: i64| {
                cols.with_column
                    .get(f)
                    .map_or(0.0, |c| listed(&c.ranked, v))
            };
            // Of the column's best assignment, the cells read so are taken.
            // A cell it reads otherwise goes to a person with the suggestion,
            // unless its row allows the value ([`row_allows`]) and the column,
            // its Gesamt supporting the sum, makes it overwhelmingly likely
            // ([`REPLACE`]): then the reader misread it, and the value the
            // sheet demands is taken.
            if posterior >= ACCEPT && pg >= GESAMT_SUPPORT {
                // Only a Gesamt whose best reading is the sum, or whose
                // Endergebnis or Abzug as read the sum explains, may overrule
                // a reading.
                let gesamt_sure = (gesamt.reading.confidence >= REPLACE_GESAMT_SUPPORT
                    && gesamt.reading.value().map(i64::from) == Some(*sum))
                    || footer_confirms(by_field, sheet, s, m, *sum);
                for ((f, d), v) in open.iter().zip(values) {
                    let top = by_field.get(f).and_then(|fr| fr.reading.value());
                    if top.map(i64::from) == Some(*v) {
                        cols.accepted.insert(*f, *v);
                    } else if (posterior >= REPLACE || in_column(f, *v) >= REPLACE)
                        && gesamt_sure
                        && row_allows(d, by_field.get(f).copied(), *v)
                    {
                        cols.accepted.insert(*f, *v);
                        cols.replaced.insert(*f, *v);
                    }
                }
            }
            // A cell read as its row has it stands also where its column
            // adds up with it as read, however the column's other open cells
            // are read (its own marginal), even if none of their
            // assignments is sure enough to stand whole.
            if g_cands.first().is_some_and(|g| g.1 >= GESAMT_SUPPORT) {
                for (i, (f, d)) in open.iter().enumerate() {
                    let read = by_field
                        .get(f)
                        .and_then(|fr| fr.reading.value())
                        .map(i64::from);
                    // The row must make the reading likely by itself, as a
                    // legal pattern (not merely the reader's best among
                    // illegal ones), and the other open cells' listed
                    // readings must cover nearly all of their probability
                    // (the sums of readings left out are not weighed).
                    let row_sure =
                        d.posterior >= ACCEPT && row_legal.get(f).is_some_and(|&p| p >= ACCEPT);
                    let Some(read) = read.filter(|r| d.value == Some(*r) && row_sure) else {
                        continue;
                    };
                    let covered =
                        |o: &Decoded| o.ranked.iter().take(WEIGHED).map(|v| v.1).sum::<f64>();
                    if open
                        .iter()
                        .enumerate()
                        .any(|(j, o)| j != i && covered(o.1) < ACCEPT)
                    {
                        continue;
                    }
                    if cols.accepted.contains_key(f) {
                        continue;
                    }
                    if in_column(f, read) >= ACCEPT {
                        cols.accepted.insert(*f, read);
                    }
                }
            }
        }
    }
    for (f, v) in &cols.replaced {
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
}

/// Rows: each uncertain game cell's values weighed by the reader and by
/// how legal its row is with them (cells in `settled` as sure). Returns
/// the cells' decoded values and, per cell, how likely its row is legal.
fn decide_rows(
    games: &[GameRow],
    by_field: &BTreeMap<Field, &FieldReading>,
    legal: &HashSet<Vec<i64>>,
    uncertain: &dyn Fn(&FieldReading) -> bool,
    settled: &BTreeMap<Field, i64>,
) -> (BTreeMap<Field, Decoded>, BTreeMap<Field, f64>) {
    let mut decided: BTreeMap<Field, Decoded> = BTreeMap::new();
    let mut row_legal: BTreeMap<Field, f64> = BTreeMap::new();
    // Rows: hypotheses are the uncertain cells' candidates (and the values the
    // row's other cells suggest), weighed by the reader and by legality.
    for g in games {
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
                if let Some(&v) = settled.get(&f) {
                    return Some((f, sign, vec![(sign * v, 1.0)], false));
                }
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
        let mut legal_mass = 0.0;
        for h in &mut hyps {
            if legal.contains(&key(h.0.iter().copied())) {
                legal_mass += h.1;
            } else {
                h.1 *= WRITER_ERROR;
            }
        }
        let total: f64 = hyps.iter().map(|h| h.1).sum();
        if total <= 0.0 {
            continue;
        }
        for c in cells.iter().filter(|c| c.3) {
            row_legal.insert(c.0, legal_mass / total);
        }
        for (i, (f, _, _, unsure)) in cells.iter().enumerate() {
            if !unsure {
                continue;
            }
            let mut marginal: BTreeMap<i64, f64> = BTreeMap::new();
            for (vs, p) in &hyps {
                *marginal.entry(vs[i]).or_default() += p / total;
            }
            let ranked: Vec<(i64, f64)> = marginal.into_iter().map(|(v, p)| (v.abs(), p)).collect();
            decided.insert(*f, Decoded::from_ranked(ranked));
        }
    }
    (decided, row_legal)
}

/// The message of a cell read surely that its row and Gesamt contradict:
/// misread, or changed after the Gesamt was added up.
fn doubted_message(what: &str, r: &Reading, v: i64, p: f64, lang: Lang) -> String {
    let pct = p * 100.0;
    match lang {
        Lang::De => format!(
            "{what}: gelesen \"{}\", aber Zeile und Gesamt ergeben beide {v} ({pct:.0}%): verlesen oder nach dem Zusammenzählen geändert, bitte prüfen.",
            r.text
        ),
        Lang::En => format!(
            "{what}: read \"{}\", but its row and its Gesamt both make it {v} ({pct:.0}%): misread, or changed after the sum was added up, please check.",
            r.text
        ),
    }
}

/// Prior odds that a writer's row and Gesamt are both wrong, as a sure
/// misreading looks: a wrong row ([`WRITER_ERROR`]) and a Gesamt off its
/// column ([`WRITER_ERROR`]) at once.
const ROW_AND_GESAMT_SLIP: f64 = WRITER_ERROR * WRITER_ERROR;

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
fn doubted_by_row_and_column(
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

/// Sets a footer field to `v` (an Endergebnis keeps its sign as read; one
/// read 0 takes its Gesamt's difference's, where that is `v`); false where
/// the field holds nothing to set.
fn set_footer(sheet: &mut SheetResult, field: Field, v: i64) -> bool {
    let Ok(digits) = u32::try_from(v) else {
        return false;
    };
    let slot = |s: usize| s.checked_sub(1);
    let target = match field {
        Field::Gesamt(s, m) => match slot(s).and_then(|i| sheet.gesamt.get_mut(i)) {
            Some(Some(g)) if m => &mut g.minus,
            Some(Some(g)) => &mut g.plus,
            _ => return false,
        },
        Field::Abzug(s) => match slot(s).and_then(|i| sheet.abzug.get_mut(i)) {
            Some(a) => a,
            None => return false,
        },
        Field::Endergebnis(s) => {
            // A 0 read kept no sign: the Gesamt's difference gives it.
            let difference = slot(s).and_then(|i| signed_by_difference(sheet, i, v));
            return match slot(s).and_then(|i| sheet.endergebnis.get_mut(i)) {
                Some(Some(e)) if *e != 0 => {
                    *e = if *e < 0 { -v } else { v };
                    true
                }
                Some(Some(e)) => match difference {
                    Some(d) => {
                        *e = d;
                        true
                    }
                    None => false,
                },
                _ => false,
            };
        }
        _ => return false,
    };
    if target.is_none() {
        return false;
    }
    *target = Some(digits);
    true
}

/// Seat index `i`'s Gesamt Plus minus Minus, where its digits are `v`:
/// the sign an Endergebnis of digits `v` read without one takes.
fn signed_by_difference(sheet: &SheetResult, i: usize, v: i64) -> Option<i64> {
    let g = sheet.gesamt.get(i).copied().flatten()?;
    let difference = i64::from(g.plus?) - i64::from(g.minus?);
    (difference.abs() == v).then_some(difference)
}

/// The flag of an Endergebnis read without a sign: always a person's to
/// check. Where its digits (as read, or as decoding takes them) are the
/// seat's Gesamt Plus minus Minus, the value takes that difference's sign
/// (a minus lost in the scan: "-4" read "4"), marked taken; else it stays
/// as read, positive.
fn signless_flag(
    sheet: &mut SheetResult,
    fr: &FieldReading,
    d: Option<&Decoded>,
    lang: Lang,
) -> Flag {
    let (_, seat, name) = fr.field.locator();
    let mut flag = uncertain_flag(None, seat, name, &fr.reading, &fr.what, d, lang);
    let Some(i) = seat.and_then(|s| s.checked_sub(1)) else {
        return flag;
    };
    let read = fr.reading.value().map(i64::from);
    let digits = d
        .filter(|d| d.posterior >= TAKE_FOOTER)
        .and_then(|d| d.value)
        .or(read.filter(|_| fr.reading.confidence >= CONFIDENT));
    let difference = digits.and_then(|v| signed_by_difference(sheet, i, v));
    if let (Some(diff), Some(e)) = (difference, sheet.endergebnis.get_mut(i))
        && *e != Some(diff)
    {
        *e = Some(diff);
        flag.detail.taken = true;
        flag.message = taken_message(&fr.what, &fr.reading, diff, lang);
    }
    flag
}

/// The message of a footer field whose value the sheet decided over what
/// was read.
fn taken_message(what: &str, r: &Reading, v: i64, lang: Lang) -> String {
    let shown = if r.text.is_empty() { "?" } else { &r.text };
    let pct = r.confidence * 100.0;
    match lang {
        Lang::De => format!(
            "{what}: gelesen \"{shown}\" ({pct:.0}%), nach Tarif und Summen als {v} übernommen, bitte prüfen."
        ),
        Lang::En => format!(
            "{what}: read \"{shown}\" ({pct:.0}%), taken as {v} by the tariff and the sums, please check."
        ),
    }
}

/// A round number's reading weighed by the rule set's rounds (1 to
/// `rounds`): a number beyond them is the writer's mistake.
fn round_reading(read: &[(i64, f64)], rounds: u32) -> Decoded {
    let mut ranked: Vec<(i64, f64)> = (1..=i64::from(rounds))
        .map(|v| (v, prob(read, v)))
        .collect();
    let listed: f64 = ranked.iter().map(|v| v.1).sum();
    let all = listed + WRITER_ERROR * (1.0 - listed).max(0.0);
    ranked.iter_mut().for_each(|v| v.1 /= all);
    Decoded::from_ranked(ranked)
}

/// How likely an open cell of a column holds `value`, given its row
/// (`own.ranked`), the column's other open cells (however they are read)
/// and its surely read cells (`fixed`), and how well each sum fits the
/// Gesamt's reading (`fit`).
fn column_marginal(
    fixed: i64,
    others: &[&Decoded],
    own: &Decoded,
    value: i64,
    fit: &dyn Fn(i64) -> f64,
) -> f64 {
    let mut sums: BTreeMap<i64, f64> = BTreeMap::from([(fixed, 1.0)]);
    for o in others {
        let mut next: BTreeMap<i64, f64> = BTreeMap::new();
        for &(v, q) in o.ranked.iter().take(WEIGHED) {
            for (sum, p) in &sums {
                *next.entry(sum + v).or_default() += p * q;
            }
        }
        sums = next;
    }
    let (mut as_value, mut all) = (0.0, 0.0);
    for &(v, q) in own.ranked.iter().take(WEIGHED) {
        let m = q * sums.iter().map(|(sum, p)| p * fit(sum + v)).sum::<f64>();
        all += m;
        if v == value {
            as_value += m;
        }
    }
    if all > 0.0 { as_value / all } else { 0.0 }
}

/// Whether the rest of a seat's footer, each field read at even odds or
/// more (as the Gesamt itself must be, [`REPLACE_GESAMT_SUPPORT`]),
/// confirms `sum` as the Gesamt the writer wrote for the column (seat `s`,
/// `minus`) where the Gesamt was read otherwise: the Endergebnis is the
/// difference of `sum` and the other Gesamt (sign included), or the Abzug
/// is `sum` and `sum` the smaller. The writer worked both out from the Gesamt written,
/// so a game value written wrong is in them too; only a misread cell
/// leaves them agreeing with another sum than the one read.
fn footer_confirms(
    by_field: &BTreeMap<Field, &FieldReading>,
    sheet: &SheetResult,
    s: usize,
    minus: bool,
    sum: i64,
) -> bool {
    let sure = |f: Field| {
        by_field
            .get(&f)
            .filter(|fr| fr.reading.confidence >= REPLACE_GESAMT_SUPPORT)
            .and_then(|fr| fr.reading.value())
            .map(i64::from)
    };
    let Some(other) = sure(Field::Gesamt(s, !minus)) else {
        return false;
    };
    let (plus, minus_total) = if minus { (other, sum) } else { (sum, other) };
    let signed = sheet.endergebnis.get(s - 1).copied().flatten();
    let by_endergebnis = sure(Field::Endergebnis(s))
        .is_some_and(|digits| signed.is_some_and(|e| e.abs() == digits && e == plus - minus_total));
    let by_abzug = sum < other && sure(Field::Abzug(s)) == Some(sum);
    by_endergebnis || by_abzug
}

/// Whether a cell's row leaves `v` a likely value: its best, or, where
/// the image shows it too (`read`), at least [`ROW_ALLOWS`].
fn row_allows(d: &Decoded, read: Option<&FieldReading>, v: i64) -> bool {
    let seen = read.is_some_and(|fr| listed(&candidates(&fr.reading), v) >= IMAGE_SHOWS);
    d.value == Some(v) || (seen && listed(&d.ranked, v) >= ROW_ALLOWS)
}

/// The probability a list of values gives `v`, 0 where it does not list it.
fn listed(values: &[(i64, f64)], v: i64) -> f64 {
    values.iter().find(|x| x.0 == v).map_or(0.0, |x| x.1)
}

/// How likely its row and the reader must make a value for the column to
/// take a cell to it ([`REPLACE`]) where the row likes another one a
/// little better: a Doppelkopf row is legal with "15" as with "16", so
/// only the reader weighs them, and the column with its Gesamt read surely
/// decides. A value the image does not show ([`IMAGE_SHOWS`]) stays a
/// suggestion. Tuning sets: 122 → 120 wrong cells (185 → 187
/// cells taken so, all right), uncertain cells 2.95 → 2.94 a sheet;
/// false flags, silent errors and recall unchanged. Without the image's
/// share 116 (191, all right), but a value no reading shows is the
/// arithmetic's, not the writer's, and stays a suggestion.
const ROW_ALLOWS: f64 = 0.2;

/// How likely the reader itself must make a value for [`row_allows`].
const IMAGE_SHOWS: f64 = 0.01;

/// Each column's (seat, minus) distribution of sums.
type ColumnSums = BTreeMap<(usize, bool), BTreeMap<i64, f64>>;

/// How well a reading fits a value the sheet's arithmetic gives: its
/// probability, or the writer's own slip to a value the reader saw.
fn fits(c: &[(i64, f64)], v: i64) -> f64 {
    fits_but(c, v, None)
}

/// How likely a writer whose Gesamt is off its column worked out the
/// Abzug or Endergebnis from the column's sum rather than from the Gesamt
/// as written: no knowledge either way. Where the reader sees that value,
/// the Gesamt's is no likely suggestion for the field (held-out hQ
/// doppelkopf-0018: Gesamt Minus written 62 over a column of 72, Abzug 66
/// read at 57%, "62" at 5%, was taken as 62).
const WORKED_FROM_COLUMNS: f64 = 0.5;

/// How much rarer than a writer's usual slip ([`slip`]) is one by any
/// other amount; also the weight of what a reading leaves unlisted.
/// Tuning sets (tA tB tP wA wB wP, 250 sheets): false flags
/// 45 → 29 at 0.2 (and at 0.1; 30 at 0.3, 39 at 0.5), wrong cells 77 → 58
/// (19 footer values taken right, none wrong), recall 353/357 kept; at 0.1
/// and below one writer's Gesamt slip is lost (351/357).
/// Weighing the unlisted rest as a usual slip instead: 39.
const ODD_SLIP: f64 = 0.2;

/// How a writer's slip between `written` and `due` (what the arithmetic
/// gives; either way round) weighs against [`WRITER_ERROR`]: people slip a
/// digit by one (±1, ±10, ±100), a tariff step (±2, ±5), or swap two
/// digits; a misreading is as likely to land anywhere a digit's shape
/// allows (a 5 read 3 makes 54 of 34), so the reader's doubt is weighed
/// against the slips a hand makes, not against every other number.
fn slip(written: i64, due: i64) -> f64 {
    let usual =
        matches!((written - due).abs(), 1 | 2 | 5 | 10 | 100) || swapped_digits(written, due);
    if usual { 1.0 } else { ODD_SLIP }
}

/// True when `a` is `b` with two neighbouring digits swapped (54 for 45).
fn swapped_digits(a: i64, b: i64) -> bool {
    // Swapped digits keep the value modulo 9: most pairs are told apart
    // without writing them out (the column's sums weigh thousands a sheet).
    if a == b || (a - b) % 9 != 0 {
        return false;
    }
    let (a, b) = (a.to_string().into_bytes(), b.to_string().into_bytes());
    let differ: Vec<usize> = (0..a.len().min(b.len()))
        .filter(|&i| a[i] != b[i])
        .collect();
    a.len() == b.len()
        && differ.len() == 2
        && differ[1] == differ[0] + 1
        && a[differ[0]] == b[differ[1]]
        && a[differ[1]] == b[differ[0]]
}

/// [`fits`], where writing `usual` instead of `v` is a usual slip too.
fn fits_but(c: &[(i64, f64)], v: i64, usual: Option<i64>) -> f64 {
    or_slip(c, v, prob(c, v), usual)
}

/// The chance of `v`, `p_v` as `values` (a distribution, maybe cut short)
/// give it, or else of the writer's slip from one of the others to it (to
/// `usual` a usual slip whatever its amount); the mass `values` do not
/// list slips by an odd amount.
fn or_slip(values: &[(i64, f64)], v: i64, p_v: f64, usual: Option<i64>) -> f64 {
    let listed: f64 = values.iter().map(|o| o.1).sum();
    let slips: f64 = values
        .iter()
        .filter(|o| o.0 != v)
        .map(|o| {
            let weight = if Some(o.0) == usual {
                1.0
            } else {
                slip(v, o.0)
            };
            o.1 * weight
        })
        .sum();
    p_v + WRITER_ERROR * (slips + (1.0 - listed).max(0.0) * ODD_SLIP)
}

/// One seat's footer decided jointly: every pair of Gesamt Plus and Minus
/// values worth weighing, with its posterior given both Gesamt readings,
/// their columns' sums, and the Abzug and Endergebnis as read.
struct SeatFooter {
    pairs: Vec<((i64, i64), f64)>,
    /// Both Gesamt fields were read (else the Abzug and Endergebnis get
    /// no suggestion).
    complete: bool,
    /// The readings of Gesamt Plus and Minus, Abzug and Endergebnis (digits).
    gesamt: [Vec<(i64, f64)>; 2],
    abzug: Vec<(i64, f64)>,
    endergebnis: Vec<(i64, f64)>,
    /// The Endergebnis's sign as read.
    sign: Option<i64>,
    /// The Abzug and Endergebnis (digits) worked out from the columns'
    /// likeliest sums: a writer who slipped in a Gesamt works them out
    /// from the sums, not from the Gesamt as written, and so they differ
    /// from the Gesamt's by no usual slip.
    from_columns: Option<(i64, i64)>,
}

impl SeatFooter {
    /// `None` where nothing can be weighed. A Gesamt not read at all
    /// (an empty field) leaves the other to its reading and column alone.
    fn decide(
        s: usize,
        by_field: &BTreeMap<Field, &FieldReading>,
        column_sums: &ColumnSums,
        endergebnis: Option<i64>,
        uncertain: &dyn Fn(&FieldReading) -> bool,
    ) -> Option<Self> {
        let read = |f: Field| by_field.get(&f).map(|fr| candidates(&fr.reading));
        let abzug = read(Field::Abzug(s)).unwrap_or_default();
        let endergebnis_digits = read(Field::Endergebnis(s)).unwrap_or_default();
        // A 0 read has no sign, whatever sign stood before it: the digits
        // it may be (a "+40" read "0", "40" next) keep either.
        let sign = endergebnis.filter(|&e| e != 0).map(i64::signum);
        let gesamt_read = [false, true].map(|m| by_field.get(&Field::Gesamt(s, m)).copied());
        let complete = gesamt_read.iter().all(Option::is_some);
        // A column's sums, likeliest first.
        let likely = |m: bool| -> Vec<i64> {
            let mut sums: Vec<(i64, f64)> = column_sums
                .get(&(s, m))
                .map(|t| t.iter().map(|(&v, &p)| (v, p)).collect())
                .unwrap_or_default();
            sums.sort_by(|a, b| b.1.total_cmp(&a.1));
            sums.into_iter().map(|v| v.0).collect()
        };
        // What a Gesamt most likely is: as read where read surely, else its
        // reading's and its column's two likeliest values.
        let base = |i: usize| -> Vec<i64> {
            match gesamt_read[i] {
                None => Vec::new(),
                Some(fr) if !uncertain(fr) => candidates(&fr.reading)
                    .iter()
                    .take(1)
                    .map(|v| v.0)
                    .collect(),
                Some(fr) => {
                    let mut b: Vec<i64> = candidates(&fr.reading)
                        .iter()
                        .take(2)
                        .map(|v| v.0)
                        .collect();
                    b.extend(likely(i == 1).into_iter().take(2));
                    b
                }
            }
        };
        // The Endergebnis links the two: plus = minus + it.
        let e_values: Vec<i64> = endergebnis_digits
            .iter()
            .take(3)
            .map(|&(e, _)| sign.unwrap_or(1) * e)
            .collect();
        // Each Gesamt's values worth weighing, with their weight: as read
        // where read surely; else what its reading, its column, the Abzug
        // and the Endergebnis (from the other Gesamt) offer, each weighed by
        // its reading and its column. A Gesamt not read at all is a
        // placeholder that the Abzug and Endergebnis are not weighed by.
        let sides: [Vec<(i64, f64)>; 2] = std::array::from_fn(|i| {
            let m = i == 1;
            let Some(fr) = gesamt_read[i] else {
                return vec![(0, 1.0)];
            };
            let c = candidates(&fr.reading);
            if !uncertain(fr) {
                return c.iter().take(1).map(|&(v, _)| (v, 1.0)).collect();
            }
            let mut values: Vec<i64> = c.iter().map(|v| v.0).collect();
            values.extend(likely(m).into_iter().take(6));
            values.extend(abzug.iter().take(3).map(|v| v.0));
            for o in base(1 - i) {
                values.extend(e_values.iter().map(|&e| if m { o - e } else { o + e }));
            }
            let sums: Vec<(i64, f64)> = column_sums
                .get(&(s, m))
                .map(|t| t.iter().map(|(&v, &p)| (v, p)).collect())
                .unwrap_or_default();
            let mut seen = HashSet::new();
            values
                .into_iter()
                .filter(|&v| v >= 0 && seen.insert(v))
                .map(|v| {
                    let in_column = listed(&sums, v);
                    (v, prob(&c, v) * or_slip(&sums, v, in_column, None))
                })
                .collect()
        });
        let from_columns = match (likely(false).first(), likely(true).first()) {
            (Some(&p), Some(&m)) => Some((p.min(m), (p - m).abs())),
            _ => None,
        };
        let mut pairs = Vec::new();
        for &(p, wp) in &sides[0] {
            for &(m, wm) in &sides[1] {
                let mut w = wp * wm;
                if !complete {
                    pairs.push(((p, m), w));
                    continue;
                }
                if !abzug.is_empty() {
                    w *= fits_but(&abzug, p.min(m), from_columns.map(|c| c.0));
                }
                if !endergebnis_digits.is_empty() {
                    let e = p - m;
                    w *= if sign.is_none_or(|g| e == 0 || g == e.signum()) {
                        fits_but(&endergebnis_digits, e.abs(), from_columns.map(|c| c.1))
                    } else {
                        WRITER_ERROR
                    };
                }
                pairs.push(((p, m), w));
            }
        }
        let total: f64 = pairs.iter().map(|p| p.1).sum();
        if total <= 0.0 {
            return None;
        }
        pairs.iter_mut().for_each(|p| p.1 /= total);
        let gesamt = gesamt_read.map(|fr| fr.map(|fr| candidates(&fr.reading)).unwrap_or_default());
        Some(SeatFooter {
            pairs,
            complete,
            gesamt,
            abzug,
            endergebnis: endergebnis_digits,
            sign,
            from_columns,
        })
    }

    /// A footer field's values, best first, each with the probability that
    /// it is what the writer wrote there.
    fn ranked(&self, field: Field) -> Decoded {
        let mut marginal: BTreeMap<i64, f64> = BTreeMap::new();
        let derived = matches!(field, Field::Abzug(_) | Field::Endergebnis(_));
        for &((p, m), w) in self.pairs.iter().filter(|_| self.complete || !derived) {
            let v = match field {
                Field::Gesamt(_, false) => p,
                Field::Gesamt(_, true) => m,
                Field::Abzug(_) => p.min(m),
                // A difference of the other sign is not the reading's value.
                Field::Endergebnis(_)
                    if self.sign.is_some_and(|g| p != m && g != (p - m).signum()) =>
                {
                    -1
                }
                Field::Endergebnis(_) => (p - m).abs(),
                _ => continue,
            };
            *marginal.entry(v).or_default() += w;
        }
        // An Abzug or Endergebnis is the pair's value only if the writer
        // wrote it right: the share of its fit that its reading gives.
        // So is a Gesamt's: a value only the rest of the footer supports
        // (its Abzug and Endergebnis may well rest on a column the writer
        // added up right, and a Gesamt written wrong) is no suggestion the
        // rule flags may be judged by.
        let (own, usual) = match field {
            Field::Gesamt(_, m) => (Some(&self.gesamt[usize::from(m)]), None),
            Field::Abzug(_) => (Some(&self.abzug), self.from_columns.map(|c| c.0)),
            Field::Endergebnis(_) => (Some(&self.endergebnis), self.from_columns.map(|c| c.1)),
            _ => (None, None),
        };
        let mut ranked: Vec<(i64, f64)> = marginal
            .into_iter()
            .map(|(v, q)| match own {
                Some(c) if !c.is_empty() => {
                    let worked = usual
                        .filter(|&u| u != v)
                        .map_or(0.0, |u| WORKED_FROM_COLUMNS * prob(c, u));
                    (v, q * prob(c, v) / (fits_but(c, v, usual) + worked))
                }
                _ => (v, q),
            })
            .collect();
        ranked.retain(|v| v.0 >= 0);
        Decoded::from_ranked(ranked)
    }
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
        detail,
        extra: Map::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sheet::{Cell, Gesamt};
    use serde_json::json;

    use crate::read::reading;

    /// Game row `no` with a value per seat (minus column or not).
    fn row(no: u32, values: &[(bool, u32)]) -> GameRow {
        GameRow {
            no,
            cells: values
                .iter()
                .map(|&(m, v)| if m { Cell::minus(v) } else { Cell::plus(v) })
                .collect(),
            initials: false,
            class: None,
            extra: Map::new(),
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
        sheet.games.push(row(1, &values));
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
        (
            sheet,
            CellReadings {
                fields,
                ..Default::default()
            },
        )
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
        let r = out.games[0].cells[3]
            .notes
            .minus_reading
            .as_ref()
            .expect("reading");
        assert!(r.decoded);
    }

    /// Decodes [`sheet_and_readings`] with the last cell read as `last` and
    /// a Gesamt of 2, and checks the cell took 2 without a flag, what was
    /// read staying on record.
    fn assert_takes_two(last: Reading) {
        let read = last.text.clone();
        let (sheet, readings) = sheet_and_readings(last, 2);
        let out = decode(sheet, &readings, &rules(), Lang::En);
        assert_eq!(out.games[0].cells[3].minus, Some(2));
        assert!(out.flags.is_empty(), "{:?}", out.flags);
        let r = out.games[0].cells[3]
            .notes
            .minus_reading
            .as_ref()
            .expect("reading");
        assert_eq!(r.read, read, "what was read stays on record");
        assert!(r.decoded);
    }

    #[test]
    fn an_uncertain_misreading_its_row_and_column_both_contradict_should_take_their_value() {
        assert_takes_two(reading("8", 0.5, &[("2", 0.4)]));
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
        assert_eq!(cell.detail.suggestion, Some(2));
    }

    #[test]
    fn without_the_column_sum_the_suggestion_is_flagged() {
        let (sheet, mut readings) = sheet_and_readings(reading("8", 0.5, &[("2", 0.4)]), 8);
        // Seat 4's Gesamt Minus not read: only the row weighs the cell.
        readings
            .fields
            .retain(|f| f.field != Field::Gesamt(4, true));
        let out = decode(sheet, &readings, &rules(), Lang::En);
        assert_eq!(out.flags.len(), 1);
        assert_eq!(out.flags[0].code, Code::CellUncertain);
        assert_eq!(out.flags[0].detail.suggestion, Some(2));
        assert!(
            out.flags[0].message.contains("more likely 2 "),
            "{}",
            out.flags[0].message
        );
    }

    /// Seat 1 read "7" or "2", its column (Gesamt 2, read surely) settles
    /// it as 2; seat 4's "3" or "2" has no Gesamt to weigh it, only its
    /// row, which with seat 1 settled makes it 2 overwhelmingly (with
    /// seat 1 open as well, at 94.8%, short of `ACCEPT`).
    #[test]
    fn a_cell_its_column_settled_should_let_its_row_settle_the_rows_other_cells() {
        let (mut sheet, mut readings) = sheet_and_readings(reading("3", 0.6, &[("2", 0.3)]), 3);
        readings
            .fields
            .retain(|f| f.field != Field::Gesamt(4, true));
        for f in &mut readings.fields {
            if f.field == Field::Game(1, 1, false) {
                f.reading = reading("7", 0.6, &[("2", 0.35)]);
            }
        }
        sheet.games[0].cells[0].plus = Some(7);
        let out = decode(sheet, &readings, &rules(), Lang::En);
        assert_eq!(out.games[0].cells[0].plus, Some(2), "its column takes it");
        let flag = out
            .flags
            .iter()
            .find(|f| f.row == Some(1) && f.seat == Some(4))
            .expect("seat 4 still goes to a person");
        assert_eq!(flag.detail.suggestion, Some(2));
        let p = flag.detail.suggestion_probability.expect("p");
        assert!(p >= ACCEPT, "{p}");
    }

    #[test]
    fn a_suggestion_where_row_and_column_disagree_should_weigh_both() {
        // The row wants 2; the Gesamt, read surely as 7, adds up with the 7
        // as read: a writer's wrong value is in the writer's own Gesamt, so
        // that is about as likely as the reader's misreading with a Gesamt
        // slipped by a tariff step (5).
        let suggestion = |read: &str| {
            let r = reading(read, 0.5, &[("2", 0.4)]);
            let (sheet, readings) = sheet_and_readings(r.clone(), r.value().unwrap_or(0));
            let out = decode(sheet, &readings, &rules(), Lang::En);
            assert_eq!(out.flags.len(), 1);
            let flag = &out.flags[0];
            assert_eq!(flag.code, Code::CellUncertain);
            let p = flag.detail.suggestion_probability.expect("p");
            (flag.detail.suggestion, p)
        };
        let (v, p) = suggestion("7");
        assert_eq!(v, Some(7));
        assert!(p > 0.5 && p < PROBABLE, "{p}");
        // A Gesamt 6 off its column is no usual slip: the 8 as read is likely.
        let (v, p) = suggestion("8");
        assert_eq!(v, Some(8));
        assert!(p >= PROBABLE, "{p}");
    }

    #[test]
    fn what_a_reading_leaves_unlisted_should_be_spread_not_lost() {
        // A reading sure of itself leaves nothing: the floor.
        assert_eq!(prob(&[(3, 0.999)], 5), UNLISTED);
        // An unsure one leaves 0.16 over values near what was written.
        let p = prob(&[(54, 0.79), (34, 0.05)], 55);
        assert!((p - 0.16 / UNLISTED_SPREAD).abs() < 1e-9, "{p}");
        assert_eq!(prob(&[(54, 0.79), (34, 0.05)], 34), 0.05);
    }

    #[test]
    fn a_value_the_reader_did_not_list_that_row_and_column_demand_should_be_taken() {
        // Read "8" at 0.6 (or "9"); the row and the Gesamt both want 2.
        assert_takes_two(reading("8", 0.6, &[("9", 0.1)]));
    }

    /// Seat 4's Gesamt Minus read as `gesamt`.
    fn read_gesamt_minus_4(readings: &mut CellReadings, gesamt: Reading) {
        for f in &mut readings.fields {
            if f.field == Field::Gesamt(4, true) {
                f.reading = gesamt.clone();
            }
        }
    }

    /// Row 2, 1/1/-1/-1, every cell read as `each` (legal as 3/3/-3/-3 too).
    fn add_row_2_read(sheet: &mut SheetResult, readings: &mut CellReadings, each: &Reading) {
        let ones = [(false, 1u32), (false, 1), (true, 1), (true, 1)];
        sheet.games.push(row(2, &ones));
        for (s, &(m, _)) in ones.iter().enumerate() {
            readings.fields.push(FieldReading {
                field: Field::Game(2, s + 1, m),
                reading: each.clone(),
                what: format!("seat {}", s + 1),
            });
        }
    }

    /// [`sheet_and_readings`] with seat 4's Gesamt Minus read as `gesamt`, decoded.
    fn decode_with_gesamt_read(last: Reading, gesamt: Reading) -> SheetResult {
        let (sheet, mut readings) = sheet_and_readings(last, gesamt.value().unwrap_or(0));
        read_gesamt_minus_4(&mut readings, gesamt);
        decode(sheet, &readings, &rules(), Lang::En)
    }

    /// Seat 4's footer beside its Gesamt Minus: Gesamt Plus read "0" and
    /// the Endergebnis read as `endergebnis`, both at 0.99; an Abzug of 0
    /// (not read).
    fn decode_with_seat_4_footer(last: Reading, gesamt: Reading, endergebnis: i64) -> SheetResult {
        let (mut sheet, mut readings) = sheet_and_readings(last, gesamt.value().unwrap_or(0));
        read_gesamt_minus_4(&mut readings, gesamt);
        if let Some(g) = sheet.gesamt[3].as_mut() {
            g.plus = Some(0);
        }
        sheet.abzug[3] = Some(0);
        sheet.endergebnis[3] = Some(endergebnis);
        for (field, text) in [
            (Field::Gesamt(4, false), "0".to_string()),
            (Field::Endergebnis(4), endergebnis.abs().to_string()),
        ] {
            readings.fields.push(FieldReading {
                field,
                reading: reading(&text, 0.99, &[]),
                what: "footer".into(),
            });
        }
        decode(sheet, &readings, &rules(), Lang::En)
    }

    #[test]
    fn a_misreading_its_row_and_the_endergebnis_contradict_should_take_their_value() {
        // The Gesamt read unsure between 8 and 2, but the Endergebnis (-2 =
        // 0 - 2) says the writer's Gesamt is 2: the column is 2, and so the cell.
        let out = decode_with_seat_4_footer(
            reading("8", 0.5, &[("2", 0.4)]),
            reading("8", 0.45, &[("2", 0.4)]),
            -2,
        );
        assert_eq!(out.games[0].cells[3].minus, Some(2));
        assert!(
            !out.flags.iter().any(|f| f.row == Some(1)),
            "{:?}",
            out.flags
        );
        let r = out.games[0].cells[3]
            .notes
            .minus_reading
            .as_ref()
            .expect("reading");
        assert_eq!(r.read, "8", "what was read stays on record");
        // The Gesamt holds what the sheet makes of it, and still goes to a person.
        assert_eq!(out.gesamt[3].and_then(|g| g.minus), Some(2));
        assert!(
            out.flags
                .iter()
                .any(|f| f.row.is_none() && f.seat == Some(4) && f.detail.taken),
            "{:?}",
            out.flags
        );
    }

    #[test]
    fn a_misreading_its_column_demands_should_be_taken_though_another_cell_stays_open() {
        // Row 2, 1/1/-1/-1, is read unsure everywhere (3/3/-3/-3 is legal
        // too) and seat 4's Gesamt Minus unsure between 3 (2 + 1) and 5
        // (2 + 3): the column as a whole is not overwhelming, but row 1's
        // cell is 2 however row 2 is read.
        let (mut sheet, mut readings) = sheet_and_readings(reading("8", 0.5, &[("2", 0.4)]), 3);
        add_row_2_read(
            &mut sheet,
            &mut readings,
            &reading("1", 0.6, &[("3", 0.35)]),
        );
        read_gesamt_minus_4(&mut readings, reading("3", 0.7, &[("5", 0.25)]));
        let out = decode(sheet, &readings, &rules(), Lang::En);
        assert_eq!(out.games[0].cells[3].minus, Some(2));
        assert!(
            !out.flags.iter().any(|f| f.row == Some(1)),
            "{:?}",
            out.flags
        );
    }

    #[test]
    fn a_misreading_its_row_allows_and_its_sure_column_demands_should_be_taken() {
        // Row 2 may be 1/1/-1/-1 or 3/3/-3/-3 (read unsure everywhere, 1
        // likelier); seat 4's Gesamt Minus, read surely, is 5 = 2 + 3.
        let (mut sheet, mut readings) = sheet_and_readings(reading("2", 0.99, &[]), 5);
        add_row_2_read(
            &mut sheet,
            &mut readings,
            &reading("1", 0.5, &[("3", 0.45)]),
        );
        let out = decode(sheet, &readings, &rules(), Lang::En);
        assert_eq!(out.games[1].cells[3].minus, Some(3));
        assert!(
            !out.flags
                .iter()
                .any(|f| f.row == Some(2) && f.seat == Some(4)),
            "{:?}",
            out.flags
        );
    }

    #[test]
    fn a_reading_the_endergebnis_agrees_with_should_not_be_replaced() {
        // The Endergebnis -8 follows from a Gesamt of 8: the writer wrote 8
        // (a mistake the row shows), the reader did not misread it.
        let out = decode_with_seat_4_footer(
            reading("8", 0.5, &[("2", 0.4)]),
            reading("8", 0.45, &[("2", 0.4)]),
            -8,
        );
        assert_eq!(out.games[0].cells[3].minus, Some(8), "as read");
        let cell = out.flags.iter().find(|f| f.row == Some(1)).expect("flag");
        assert_eq!(cell.code, Code::CellUncertain);
    }

    #[test]
    fn an_uncertain_gesamt_over_an_unsettled_column_should_get_its_suggestion() {
        let out = decode_with_gesamt_read(
            reading("7", 0.5, &[("2", 0.4)]),
            reading("7", 0.6, &[("2", 0.3)]),
        );
        let gesamt = out
            .flags
            .iter()
            .find(|f| f.row.is_none() && f.seat == Some(4))
            .expect("the Gesamt goes to a person");
        assert_eq!(gesamt.detail.suggestion, Some(2));
        let p = gesamt.detail.suggestion_probability.expect("p");
        assert!(p >= PROBABLE, "the column's suggestion makes 2 likely: {p}");
        assert_eq!(out.gesamt[3].and_then(|g| g.minus), Some(7), "as read");
    }

    #[test]
    fn an_unsure_gesamt_its_column_and_footer_overwhelmingly_contradict_should_hold_their_value_and_still_be_flagged()
     {
        // Read "8" at 60%, "2" at 35%; the column (a sure 2) and the
        // Endergebnis (-2 = 0 - 2) both say 2.
        let out = decode_with_seat_4_footer(
            reading("2", 0.995, &[]),
            reading("8", 0.6, &[("2", 0.35)]),
            -2,
        );
        assert_eq!(out.gesamt[3].and_then(|g| g.minus), Some(2));
        let flag = out
            .flags
            .iter()
            .find(|f| f.row.is_none() && f.seat == Some(4) && f.field.as_deref() == Some("minus"))
            .expect("a person still checks the Gesamt");
        assert!(flag.detail.taken);
        assert_eq!(
            flag.detail.reading.as_deref(),
            Some("8"),
            "what was read is kept"
        );
        assert!(flag.message.contains("taken as 2"), "{}", flag.message);
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
        assert_eq!(out.flags[0].detail.suggestion, Some(2));
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

    /// Seat 4's footer: Gesamt 0 and 2 read surely, Abzug 0, and an
    /// Endergebnis whose digits were read as `digits` at 0.999 without a
    /// sign (so it stands positive).
    fn decode_signless_endergebnis(digits: u32) -> SheetResult {
        let (mut sheet, mut readings) = sheet_and_readings(reading("2", 0.999, &[]), 2);
        if let Some(g) = sheet.gesamt[3].as_mut() {
            g.plus = Some(0);
        }
        sheet.abzug[3] = Some(0);
        sheet.endergebnis[3] = Some(i64::from(digits));
        readings.fields.push(FieldReading {
            field: Field::Endergebnis(4),
            reading: reading(&digits.to_string(), 0.999, &[]),
            what: "end".into(),
        });
        readings.signless.push(4);
        decode(sheet, &readings, &rules(), Lang::En)
    }

    #[test]
    fn an_endergebnis_read_without_its_minus_should_take_the_gesamt_differences_sign_flagged() {
        let out = decode_signless_endergebnis(2);
        assert_eq!(out.endergebnis[3], Some(-2), "0 - 2");
        let flag = out
            .flags
            .iter()
            .find(|f| f.field.as_deref() == Some("endergebnis"))
            .expect("a person checks the sign");
        assert!(flag.detail.taken);
        assert!(flag.message.contains("-2"), "{}", flag.message);
    }

    #[test]
    fn an_endergebnis_without_a_sign_that_is_no_gesamt_difference_should_stay_as_read_flagged() {
        let out = decode_signless_endergebnis(3);
        assert_eq!(out.endergebnis[3], Some(3));
        let flag = out
            .flags
            .iter()
            .find(|f| f.field.as_deref() == Some("endergebnis"))
            .expect("a person checks it");
        assert!(!flag.detail.taken);
    }

    #[test]
    fn a_footer_field_set_to_its_suggestion_should_keep_the_endergebnis_sign() {
        let (mut sheet, _) = sheet_and_readings(reading("2", 0.999, &[]), 2);
        sheet.endergebnis[2] = Some(-14);
        sheet.abzug[2] = Some(3);
        assert!(set_footer(&mut sheet, Field::Endergebnis(3), 15));
        assert!(set_footer(&mut sheet, Field::Abzug(3), 4));
        assert!(set_footer(&mut sheet, Field::Gesamt(4, true), 7));
        assert_eq!(sheet.endergebnis[2], Some(-15));
        assert_eq!(sheet.abzug[2], Some(4));
        assert_eq!(sheet.gesamt[3].and_then(|g| g.minus), Some(7));
        // Nothing written there, no seat 0: nothing to set.
        assert!(!set_footer(&mut sheet, Field::Endergebnis(1), 5));
        assert!(!set_footer(&mut sheet, Field::Abzug(0), 5));
        assert_eq!(sheet.endergebnis[0], None);
        // An Endergebnis read 0 takes the sign of its Gesamt's difference,
        // and only a value that difference is.
        sheet.gesamt[1] = Some(Gesamt {
            plus: Some(64),
            minus: Some(104),
        });
        sheet.endergebnis[1] = Some(0);
        assert!(!set_footer(&mut sheet, Field::Endergebnis(2), 30));
        assert_eq!(sheet.endergebnis[1], Some(0));
        assert!(set_footer(&mut sheet, Field::Endergebnis(2), 40));
        assert_eq!(sheet.endergebnis[1], Some(-40));
    }

    /// Row 1 is 2/2/-2/-2, seat 4's cell read surely as `cell`; seat 4's
    /// footer is Gesamt 0 and 2 (read at 0.999) and Endergebnis
    /// `endergebnis`.
    fn decode_sure_misreading(cell: Reading, endergebnis: i64) -> SheetResult {
        decode_with_seat_4_footer(cell, reading("2", 0.999, &[]), endergebnis)
    }

    #[test]
    fn a_sure_misreading_its_row_and_sound_footer_both_contradict_should_go_to_a_person_as_read() {
        let out = decode_sure_misreading(reading("8", 0.995, &[]), -2);
        assert_eq!(
            out.games[0].cells[3].minus,
            Some(8),
            "the value stays as read"
        );
        let flag = out
            .flags
            .iter()
            .find(|f| f.row == Some(1) && f.seat == Some(4))
            .expect("the cell goes to a person");
        assert_eq!(flag.code, Code::CellUncertain);
        assert!(flag.detail.doubted);
        assert!(flag.message.contains("both make it 2"), "{}", flag.message);
        assert_eq!(flag.detail.suggestion, Some(2));
        let p = flag.detail.suggestion_probability.expect("p");
        // 0.005 against the writer's double slip, 1e-4, by an odd amount (6).
        let double = ROW_AND_GESAMT_SLIP * ODD_SLIP;
        assert!((p - 0.005 / (0.005 + double)).abs() < 1e-3, "{p}");
        // The row and Gesamt flags the reading as is shows are kept aside.
        let checked = crate::check::verify::verify(out, &rules(), Lang::En).expect("verify");
        let raised = |c: Code| {
            checked
                .flags
                .iter()
                .any(|f| f.code == c && f.seat != Some(1))
        };
        assert!(raised(Code::CellUncertain));
        assert!(!raised(Code::RowNotZeroSum) && !raised(Code::GesamtMismatch));
        let aside = serde_json::to_string(&checked.notes.flags_if_read_as_is).expect("json");
        assert!(
            aside.contains("ROW_NOT_ZERO_SUM") && aside.contains("GESAMT_MISMATCH"),
            "{aside}"
        );
    }

    #[test]
    fn an_unsure_reading_whose_suggestion_falls_short_should_be_doubted_in_one_flag() {
        // Read "7" at 95%: the decoder, which gives a value the reader did
        // not list 1e-4, leaves 2 short of likely (a writer's Gesamt 5 off
        // its column is a usual slip); the row and Gesamt pointing at the
        // cell by one amount make it so.
        let out = decode_sure_misreading(reading("7", 0.95, &[("5", 0.049)]), -2);
        assert_eq!(
            out.games[0].cells[3].minus,
            Some(7),
            "the value stays as read"
        );
        let flags: Vec<&Flag> = out.flags.iter().filter(|f| f.row == Some(1)).collect();
        assert_eq!(flags.len(), 1, "{flags:?}");
        assert!(flags[0].detail.doubted);
        assert_eq!(flags[0].detail.suggestion, Some(2));
    }

    #[test]
    fn a_sure_reading_beside_a_footer_that_disagrees_with_itself_should_stay_the_verifiers() {
        // The Endergebnis says the Gesamt is 8 (worked out from the column):
        // the Gesamt's 2 may be the writer's slip, so the row flag and the
        // footer's flags are the writer's.
        let out = decode_sure_misreading(reading("8", 0.995, &[]), -8);
        assert!(out.flags.is_empty(), "{:?}", out.flags);
    }

    #[test]
    fn a_sure_reading_beside_an_endergebnis_slipped_on_its_own_should_still_be_doubted() {
        // -3 is neither 0 - 2 nor 0 - 8: the writer slipped in the
        // Endergebnis, which says nothing of the Gesamt.
        let out = decode_sure_misreading(reading("8", 0.995, &[]), -3);
        let flag = out
            .flags
            .iter()
            .find(|f| f.row == Some(1) && f.seat == Some(4))
            .expect("the cell goes to a person");
        assert!(flag.detail.doubted);
    }

    /// Seat 4's minus column: row 1's 8 (read at 0.995, written 2) and row
    /// 2's 3 (read unsure, flagged with the written 5 suggested at
    /// `likely`); Gesamt 7, Endergebnis -7. Seat 1's row-2 5 is in its
    /// Gesamt (7). Returns what the doubt finds.
    fn doubts_beside_a_flagged_cell(likely: f64, seat_1_gesamt: u32) -> Vec<(Field, i64, f64)> {
        let (mut sheet, readings) = sheet_and_readings(reading("8", 0.995, &[]), 7);
        sheet
            .games
            .push(row(2, &[(false, 5), (false, 0), (true, 0), (true, 3)]));
        sheet.gesamt[0] = Some(Gesamt {
            plus: Some(seat_1_gesamt),
            minus: None,
        });
        let unsure = reading("3", 0.6, &[("5", 0.3)]);
        let decoded = Decoded::from_ranked(vec![(5, likely), (3, 1.0 - likely)]);
        let flag = uncertain_flag(
            Some(2),
            Some(4),
            "minus",
            &unsure,
            "c",
            Some(&decoded),
            Lang::En,
        );
        doubts_with_seat_4_footer(sheet, &readings, -7, flag)
    }

    /// What the doubt finds on `sheet` with seat 4's Gesamt Plus 0, Abzug 0
    /// and Endergebnis `endergebnis`, decoding having raised `flag`.
    fn doubts_with_seat_4_footer(
        mut sheet: SheetResult,
        readings: &CellReadings,
        endergebnis: i64,
        flag: Flag,
    ) -> Vec<(Field, i64, f64)> {
        if let Some(g) = sheet.gesamt[3].as_mut() {
            g.plus = Some(0);
        }
        sheet.abzug[3] = Some(0);
        sheet.endergebnis[3] = Some(endergebnis);
        let by_field: BTreeMap<Field, &FieldReading> =
            readings.fields.iter().map(|f| (f.field, f)).collect();
        let legal: HashSet<Vec<i64>> = legal_rows(&rules())
            .iter()
            .map(|r| key(r.values.iter().copied()))
            .collect();
        doubted_by_row_and_column(&sheet, &by_field, &legal, &[flag])
    }

    #[test]
    fn a_sure_misreading_should_be_doubted_counting_its_columns_likely_suggestions() {
        // With the 5 the column is 13, 6 over its Gesamt as row 1 is 6 off.
        let doubts = doubts_beside_a_flagged_cell(0.99, 7);
        assert_eq!(doubts.len(), 1, "{doubts:?}");
        assert_eq!((doubts[0].0, doubts[0].1), (Field::Game(1, 4, true), 2));
        // With the 3 as read it is 11: 4 over, which row 1 does not explain.
        assert!(doubts_beside_a_flagged_cell(0.6, 7).is_empty());
    }

    #[test]
    fn a_sure_misreading_should_be_doubted_beside_a_gesamt_slip_its_footer_cannot_vouch_for() {
        // Seat 1's Gesamt 13 misses its column (7) by row 1's 6 too, but
        // seat 1 has no Abzug or Endergebnis to say the column is wrong
        // rather than its Gesamt: only seat 4's cell mends both.
        let doubts = doubts_beside_a_flagged_cell(0.99, 13);
        assert_eq!(doubts.len(), 1, "{doubts:?}");
        assert_eq!(doubts[0].0, Field::Game(1, 4, true));
    }

    /// Row 1 with seat 4's "2" read "8" at 0.995; seat 4's Gesamt Minus
    /// stands as "7", read unsure and flagged with the written 2 suggested
    /// at `likely`; Gesamt Plus 0, Abzug 0, Endergebnis -2.
    fn doubts_beside_an_unsure_gesamt(likely: f64) -> Vec<(Field, i64, f64)> {
        let (sheet, readings) = sheet_and_readings(reading("8", 0.995, &[]), 7);
        let unsure = reading("7", 0.5, &[("2", 0.4)]);
        let decoded = Decoded::from_ranked(vec![(2, likely), (7, 1.0 - likely)]);
        let flag = uncertain_flag(
            None,
            Some(4),
            "minus",
            &unsure,
            "g",
            Some(&decoded),
            Lang::En,
        );
        doubts_with_seat_4_footer(sheet, &readings, -2, flag)
    }

    #[test]
    fn a_sure_misreading_should_be_doubted_beside_a_gesamt_likely_read_as_written() {
        // The footer as most probably read (Gesamt 2) is sound, and the
        // column (8) misses it by row 1's 6.
        let doubts = doubts_beside_an_unsure_gesamt(0.9);
        assert_eq!(doubts.len(), 1, "{doubts:?}");
        assert_eq!((doubts[0].0, doubts[0].1), (Field::Game(1, 4, true), 2));
        // A Gesamt the footer leaves open vouches for nothing.
        assert!(doubts_beside_an_unsure_gesamt(0.6).is_empty());
    }

    #[test]
    fn a_reading_far_surer_than_a_writers_double_slip_is_rare_should_stay_the_verifiers() {
        let out = decode_sure_misreading(reading("8", 0.99999, &[]), -2);
        assert!(out.flags.is_empty(), "{:?}", out.flags);
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

    /// Seat 1's footer: Gesamt Plus 10 read surely, Gesamt Minus read as
    /// given over a column adding up to 2 or 8 at even odds; Abzug and
    /// Endergebnis (+) read as given.
    fn seat_footer(minus: Reading, abzug: Reading, endergebnis: Reading) -> SeatFooter {
        let fields = vec![
            (Field::Gesamt(1, false), reading("10", 0.999, &[])),
            (Field::Gesamt(1, true), minus),
            (Field::Abzug(1), abzug),
            (Field::Endergebnis(1), endergebnis),
        ];
        seat_1_footer(fields, [vec![(10, 1.0)], vec![(2, 0.5), (8, 0.5)]], Some(8))
    }

    /// Seat 1's footer decided from its fields' readings and its columns'
    /// sums (plus, minus).
    fn seat_1_footer(
        fields: Vec<(Field, Reading)>,
        sums: [Vec<(i64, f64)>; 2],
        endergebnis: Option<i64>,
    ) -> SeatFooter {
        let fields: Vec<FieldReading> = fields
            .into_iter()
            .map(|(field, reading)| FieldReading {
                field,
                reading,
                what: "f".into(),
            })
            .collect();
        let by_field: BTreeMap<Field, &FieldReading> =
            fields.iter().map(|f| (f.field, f)).collect();
        let [plus, minus] = sums;
        let sums: ColumnSums = BTreeMap::from([
            ((1, false), plus.into_iter().collect()),
            ((1, true), minus.into_iter().collect()),
        ]);
        let uncertain = |f: &FieldReading| f.reading.confidence < CONFIDENT;
        SeatFooter::decide(1, &by_field, &sums, endergebnis, &uncertain).expect("decided")
    }

    fn likely(d: &Decoded) -> (i64, f64) {
        (d.value.unwrap_or(-1), d.posterior)
    }

    #[test]
    fn an_endergebnis_read_0_should_not_bar_its_other_readings_by_their_sign() {
        // Gesamt 104 and 64 read surely, the Endergebnis "+40" read "0"
        // (32%) with "40" (24%): a 0 has no sign, so +40 stays possible.
        let fields = vec![
            (Field::Gesamt(1, false), reading("104", 0.999, &[])),
            (Field::Gesamt(1, true), reading("64", 0.999, &[])),
            (Field::Abzug(1), reading("64", 0.999, &[])),
            (
                Field::Endergebnis(1),
                reading("0", 0.323, &[("40", 0.236), ("20", 0.183)]),
            ),
        ];
        let f = seat_1_footer(fields, [vec![(104, 1.0)], vec![(64, 1.0)]], Some(0));
        let (v, p) = likely(&f.ranked(Field::Endergebnis(1)));
        assert_eq!(v, 40, "{p}");
    }

    #[test]
    fn an_unsure_gesamt_its_abzug_and_endergebnis_agree_with_should_stand_with_them() {
        let f = seat_footer(
            reading("2", 0.5, &[("8", 0.4)]),
            reading("2", 0.9, &[("8", 0.05)]),
            reading("8", 0.9, &[("2", 0.05)]),
        );
        for field in [
            Field::Gesamt(1, true),
            Field::Abzug(1),
            Field::Endergebnis(1),
        ] {
            let (v, p) = likely(&f.ranked(field));
            assert_eq!(v, if field == Field::Endergebnis(1) { 8 } else { 2 });
            assert!(p >= ACCEPT, "{field:?}: {p}");
        }
    }

    #[test]
    fn an_abzug_and_endergebnis_that_disagree_should_not_settle_the_gesamt() {
        let f = seat_footer(
            reading("2", 0.5, &[("8", 0.4)]),
            reading("8", 0.9, &[("2", 0.05)]),
            reading("8", 0.9, &[("2", 0.05)]),
        );
        let (_, p) = likely(&f.ranked(Field::Gesamt(1, true)));
        assert!(p < ACCEPT, "{p}");
    }

    /// A Gesamt written wrong over a column the writer added up right, its
    /// Abzug and Endergebnis from the column: the footer's value for it is
    /// no likely suggestion while the reader does not see it there, so the
    /// rule flags are judged by the Gesamt as read.
    #[test]
    fn a_gesamt_the_reader_does_not_see_as_the_footer_has_it_should_get_no_probable_suggestion() {
        let f = seat_footer(
            reading("5", 0.9, &[("3", 0.05)]),
            reading("2", 0.9, &[("8", 0.05)]),
            reading("8", 0.9, &[("2", 0.05)]),
        );
        let (v, p) = likely(&f.ranked(Field::Gesamt(1, true)));
        assert!(v != 2 || p < PROBABLE, "{v} at {p}");
    }

    #[test]
    fn a_slip_should_be_usual_by_a_digit_a_tariff_step_or_two_digits_swapped() {
        for (a, b) in [
            (54, 55),
            (54, 64),
            (54, 56),
            (50, 55),
            (154, 54),
            (54, 45),
            (120, 102),
        ] {
            assert_eq!(slip(a, b), 1.0, "{a} {b}");
            assert_eq!(slip(b, a), 1.0, "{b} {a}");
        }
        for (a, b) in [(34, 54), (9, 95), (74, 42), (571, 54), (45, 504)] {
            assert_eq!(slip(a, b), ODD_SLIP, "{a} {b}");
        }
    }

    /// The column says 54. Read "34" (a 5 drawn like a 3), the sheet's
    /// value is the probable one; read "55", a writer's slip by one is as
    /// likely as the reader's doubt, and the rule flags stay the writer's.
    #[test]
    fn a_reading_an_odd_amount_off_should_yield_to_the_arithmetic_but_a_usual_slip_not() {
        let share = |c: &[(i64, f64)]| prob(c, 54) / fits(c, 54);
        let odd = share(&[(34, 0.6), (38, 0.2)]);
        assert!(odd >= PROBABLE, "{odd}");
        let usual = share(&[(55, 0.6), (38, 0.2)]);
        assert!(usual < PROBABLE, "{usual}");
    }

    /// A writer's Gesamt Minus 62 over a column of 72, both sure, the
    /// Abzug worked out from the columns (66) and read so at 57%, "62" at
    /// 5%: the Gesamt's 62 is no likely suggestion for the Abzug, so its
    /// flag stays the writer's; read "68" (no usual slip from either), 62 is.
    #[test]
    fn an_abzug_worked_out_from_the_columns_should_not_be_suggested_the_gesamts() {
        let abzug_suggestion = |abzug: Reading| {
            let fields = vec![
                (Field::Gesamt(1, false), reading("66", 0.999, &[])),
                (Field::Gesamt(1, true), reading("62", 0.999, &[])),
                (Field::Abzug(1), abzug),
            ];
            let f = seat_1_footer(fields, [vec![(66, 1.0)], vec![(72, 1.0)]], None);
            likely(&f.ranked(Field::Abzug(1)))
        };
        let (v, p) = abzug_suggestion(reading("66", 0.57, &[("86", 0.22), ("62", 0.05)]));
        assert!(v != 62 || p < PROBABLE, "{v} at {p}");
        let (v, p) = abzug_suggestion(reading("68", 0.57, &[("86", 0.22), ("62", 0.05)]));
        assert_eq!(v, 62);
        assert!(p >= PROBABLE, "{p}");
    }

    fn ranked(values: &[(i64, f64)]) -> Decoded {
        Decoded::from_ranked(values.to_vec())
    }

    /// The Gesamt read as 5 or 7: the column's other open cell (3 or 5)
    /// makes either sum, so no assignment of the column is sure, but with
    /// both the cell is 2.
    #[test]
    fn a_cell_every_way_of_adding_up_its_column_agrees_on_should_stand() {
        let gesamt = [(5, 0.5), (7, 0.45)];
        let fit = |sum: i64| fits(&gesamt, sum);
        let own = ranked(&[(2, 0.99), (8, 0.01)]);
        let other = ranked(&[(3, 0.5), (5, 0.5)]);
        let p = column_marginal(0, &[&other], &own, 2, &fit);
        assert!(p >= ACCEPT, "{p}");
        // Where the column's sums are as likely with another value, it does not.
        let gesamt = [(5, 0.5), (11, 0.5)];
        let fit = |sum: i64| fits(&gesamt, sum);
        let own = ranked(&[(2, 0.6), (8, 0.4)]);
        let other = ranked(&[(3, 1.0)]);
        let p = column_marginal(0, &[&other], &own, 2, &fit);
        assert!(p < ACCEPT, "{p}");
    }

    #[test]
    fn a_round_read_unsure_among_the_nights_rounds_should_stand_only_if_the_others_are_unlikely() {
        let d = round_reading(&[(2, 0.8), (7, 0.15), (1, 0.01)], 2);
        assert_eq!(d.value, Some(2));
        assert!(d.posterior >= ACCEPT, "{}", d.posterior);
        let d = round_reading(&[(2, 0.8), (1, 0.15)], 2);
        assert!(d.posterior < ACCEPT, "{}", d.posterior);
        // A number beyond the night's rounds is not made likely.
        let d = round_reading(&[(7, 0.8), (1, 0.05)], 2);
        assert_ne!(d.value, Some(7));
        assert!(d.posterior < ACCEPT, "{}", d.posterior);
    }
}
