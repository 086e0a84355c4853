//! Questions at the desk: the cells in doubt of one Schreiber's hand that
//! read the same and look alike are one question, answered with one key
//! (../shared/CONTRACT.md, "Questions at the desk"). The largest question
//! comes first: one writer's one glyph misread all over the night is one
//! look, not twenty.
//!
//! The night's sheets as they stand → [`doubts_of`] → [`ask`] → [`Question`]s;
//! an answer is a [`crate::record::Decision::Paper`] for each cell, and
//! [`teach`] reads the hand again with it.

pub mod shape;
pub mod teach;

use std::collections::BTreeMap;

use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::check::flags::{Code, Flag};
use crate::night::ledger::WriterSeats;
use crate::sheet::{SheetResult, ValuePath};
pub use shape::{SAME_SHAPE, Shape};

/// Whose writing a cell is: the Schreiber the sheet names at the writer's
/// seat, else the sheet alone (a hand no other sheet is known to share).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum HandOf {
    Writer(String),
    Sheet(i64),
}

impl HandOf {
    /// The hand sheet `id` is written in, with `seats` saying where the
    /// Schreiber sits. A writer's number in doubt names no one: a misread
    /// one would join two writers' hands.
    pub fn of(id: i64, sheet: &SheetResult, seats: &WriterSeats) -> HandOf {
        let seat = seats.of(sheet);
        let path = ValuePath::Player(seat);
        let doubted =
            (sheet.flags.iter()).any(|f| f.code == Code::CellUncertain && path.is_cell_of(f));
        let writer = (seat.checked_sub(1).and_then(|i| sheet.players.get(i)))
            .cloned()
            .flatten();
        match writer.filter(|_| !doubted) {
            Some(no) => HandOf::Writer(crate::sheet::PlayerNo::new(&no).as_str().to_string()),
            None => HandOf::Sheet(id),
        }
    }
}

/// One cell in doubt: where, what was read and how surely, whose hand,
/// and what its ink looks like where the scan shows it.
#[derive(Debug, Clone)]
pub struct Doubt {
    pub sheet: i64,
    pub path: ValuePath,
    /// The text as read ("" where nothing could be read).
    pub reading: String,
    pub confidence: f64,
    pub suggestion: Option<i64>,
    pub hand: HandOf,
    pub shape: Option<Shape>,
    /// Where the cell is, as a person names it (its sheet's round and
    /// table, its row and seat); empty where not said.
    pub label: String,
}

/// One question: cells of one hand that read the same and look alike.
#[derive(Debug, Clone)]
pub struct Question {
    /// Stays the same while its cells and their readings do.
    pub id: String,
    /// What the desk suggests the paper says.
    pub value: Option<i64>,
    pub hand: HandOf,
    pub cells: Vec<Doubt>,
}

/// A question as the contract gives it.
#[derive(Serialize)]
struct QuestionJson<'a> {
    id: &'a str,
    value: Option<i64>,
    cells: Vec<CellJson<'a>>,
}

#[derive(Serialize)]
struct CellJson<'a> {
    sheet: i64,
    path: String,
    reading: &'a str,
    confidence: f64,
    #[serde(skip_serializing_if = "str::is_empty")]
    label: &'a str,
}

impl Serialize for Question {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        QuestionJson {
            id: &self.id,
            value: self.value,
            cells: (self.cells.iter())
                .map(|c| CellJson {
                    sheet: c.sheet,
                    path: c.path.to_string(),
                    reading: &c.reading,
                    confidence: c.confidence,
                    label: &c.label,
                })
                .collect(),
        }
        .serialize(s)
    }
}

/// The cells in doubt of sheet `id` (a `CELL_UNCERTAIN` flag naming a
/// value of it, folded into another flag's look or not, each cell once),
/// written in `hand`; their shapes are left for the caller to add. Only
/// a sheet that counts, or the same paper again, asks
/// ([`crate::record::counts::Counting::asks`]): a void one counts
/// nowhere, a copy's paper is asked on the sheet it copies.
pub fn doubts_of(id: i64, sheet: &SheetResult, hand: &HandOf) -> Vec<Doubt> {
    if !crate::record::counts::Counting::of(sheet).asks() {
        return Vec::new();
    }
    let flags = sheet
        .flags
        .iter()
        .flat_map(|f| std::iter::once(f).chain(&f.detail.consequences));
    let mut out: Vec<Doubt> = Vec::new();
    for flag in flags.filter(|f| f.code == Code::CellUncertain) {
        let Some(path) = ValuePath::of_flag(flag) else {
            continue;
        };
        if out.iter().any(|d| d.path == path) {
            continue;
        }
        out.push(doubt(id, flag, path, hand, sheet));
    }
    out
}

fn doubt(id: i64, flag: &Flag, path: ValuePath, hand: &HandOf, sheet: &SheetResult) -> Doubt {
    let mut reading = flag.detail.reading.clone().unwrap_or_default();
    let mut suggestion = flag.detail.suggestion;
    // An Endergebnis's digits are read apart from its sign, which the
    // sheet holds: the question asks the signed number.
    if let ValuePath::Endergebnis(_) = path
        && path.number(sheet).is_some_and(|v| v < 0)
    {
        if !reading.is_empty() && !reading.starts_with('-') {
            reading.insert(0, '-');
        }
        suggestion = suggestion.map(|v| -v.abs());
    }
    Doubt {
        sheet: id,
        path,
        reading,
        confidence: flag.detail.confidence.unwrap_or(0.0),
        suggestion,
        hand: hand.clone(),
        shape: None,
        label: String::new(),
    }
}

/// The night's questions, in the order the desk asks them: the cells of
/// one hand that read the same text are split by shape (each joins the
/// first question whose first cell it looks like, [`SAME_SHAPE`]); the
/// question with the most cells first. A cell where nothing was read is
/// asked alone. Every doubt is in exactly one question.
pub fn ask(mut doubts: Vec<Doubt>) -> Vec<Question> {
    doubts.sort_by_key(|a| (a.sheet, path_order(&a.path)));
    // One value answers a question: only values of one kind (game cells,
    // a Gesamt, ...) read alike are asked together.
    let mut groups: BTreeMap<(HandOf, u8, String), Vec<Vec<Doubt>>> = BTreeMap::new();
    let mut alone = Vec::new();
    for d in doubts {
        if d.reading.is_empty() {
            alone.push(vec![d]);
            continue;
        }
        let kind = path_order(&d.path).0;
        let groups = groups
            .entry((d.hand.clone(), kind, d.reading.clone()))
            .or_default();
        match groups.iter_mut().find(|g| alike(&g[0], &d)) {
            Some(g) => g.push(d),
            None => groups.push(vec![d]),
        }
    }
    let mut questions: Vec<Question> = groups
        .into_values()
        .flatten()
        .chain(alone)
        .map(question)
        .collect();
    // Stable: equal sizes keep the order of their first cells' sheets.
    questions.sort_by_key(|q| {
        let first = &q.cells[0];
        (
            std::cmp::Reverse(q.cells.len()),
            first.sheet,
            path_order(&first.path),
        )
    });
    questions
}

/// Whether `d` looks like `seed`, a group's first cell (a group is what
/// looks like its first, in the sheets' order): both show their ink and
/// it agrees, or neither shows it (nothing to tell them apart by).
fn alike(seed: &Doubt, d: &Doubt) -> bool {
    match (&seed.shape, &d.shape) {
        (Some(a), Some(b)) => a.agreement(b) >= SAME_SHAPE,
        (None, None) => true,
        _ => false,
    }
}

/// A group of doubts as one question: its id from its cells, its value
/// the suggestion most of them share, else what they read.
fn question(cells: Vec<Doubt>) -> Question {
    let mut hash = Sha256::new();
    for c in &cells {
        hash.update(format!("{}|{}|{};", c.sheet, c.path, c.reading));
    }
    let id: String = hash.finalize()[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    Question {
        id,
        value: suggested(&cells),
        hand: cells[0].hand.clone(),
        cells,
    }
}

fn suggested(cells: &[Doubt]) -> Option<i64> {
    let mut votes: BTreeMap<i64, usize> = BTreeMap::new();
    for s in cells.iter().filter_map(|c| c.suggestion) {
        *votes.entry(s).or_default() += 1;
    }
    let most = votes
        .into_iter()
        .max_by_key(|&(v, n)| (n, std::cmp::Reverse(v)));
    most.map(|(v, _)| v)
        .or_else(|| cells[0].reading.trim_start_matches('+').parse().ok())
}

/// Where a value stands on the sheet, top to bottom: header, rows, footer.
fn path_order(path: &ValuePath) -> (u8, u32, usize, bool) {
    use crate::sheet::Column;
    match *path {
        ValuePath::Round => (0, 0, 0, false),
        ValuePath::Table => (0, 1, 0, false),
        ValuePath::Player(s) => (1, 0, s, false),
        ValuePath::Game { no, seat, column } => (2, no, seat, column == Column::Minus),
        ValuePath::Gesamt { seat, column } => (3, 0, seat, column == Column::Minus),
        ValuePath::Abzug(s) => (4, 0, s, false),
        ValuePath::Endergebnis(s) => (5, 0, s, false),
    }
}

#[cfg(test)]
mod tests;
