//! The sheet result: the contract's JSON (`aufsicht/sheet-v1`), as read or as typed.
//!
//! Fields the contract lists are typed, and so is what the pipeline adds
//! beside them for the review ([`notes`]). Anything else a tool added is
//! kept in `extra` maps so a round trip through `verify` loses nothing.

use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::check::classify::GameClass;
use crate::check::flags::Flag;
use crate::error::{ShapeProblem, SheetError};

pub mod lenient;
pub mod notes;
pub mod path;
pub mod player_no;
pub mod range;

pub use notes::{CellNotes, CellReading, Marks, Placement, SheetNotes};
pub use path::{Column, ValuePath};
pub use player_no::PlayerNo;

pub const SCHEMA: &str = "aufsicht/sheet-v1";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Ok,
    Flagged,
    Unreadable,
}

/// One seat's two columns in one game row. `None` is blank or a dash.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Cell {
    pub plus: Option<u32>,
    pub minus: Option<u32>,
    #[serde(default)]
    pub circled: bool,
    /// Extra field: the value was struck through and rewritten on the paper.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub corrected: bool,
    #[serde(flatten)]
    pub notes: CellNotes,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Cell {
    pub fn plus(value: u32) -> Self {
        Cell {
            plus: Some(value),
            ..Cell::default()
        }
    }

    pub fn minus(value: u32) -> Self {
        Cell {
            minus: Some(value),
            ..Cell::default()
        }
    }

    pub fn is_empty(&self) -> bool {
        self.plus.is_none() && self.minus.is_none()
    }

    /// The signed value, when exactly one column holds a number.
    pub fn value(&self) -> Option<i64> {
        match (self.plus, self.minus) {
            (Some(p), None) => Some(i64::from(p)),
            (None, Some(m)) => Some(-i64::from(m)),
            _ => None,
        }
    }

    /// Any writing at all in this seat's cells.
    pub fn has_writing(&self) -> bool {
        !self.is_empty() || self.circled || self.corrected
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameRow {
    pub no: u32,
    pub cells: Vec<Cell>,
    #[serde(default)]
    pub initials: bool,
    /// Extra field written by `verify`: what kind of game the row is.
    #[serde(default, skip_deserializing, skip_serializing_if = "Option::is_none")]
    pub class: Option<GameClass>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Gesamt {
    pub plus: Option<u32>,
    pub minus: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SheetResult {
    pub schema: String,
    #[serde(default)]
    pub source: Option<String>,
    #[serde(default)]
    pub page: Option<u32>,
    #[serde(default)]
    pub form: Option<String>,
    #[serde(default)]
    pub rules: Option<String>,
    #[serde(default = "default_status")]
    pub status: Status,
    #[serde(default)]
    pub round: Option<u32>,
    #[serde(default)]
    pub table: Option<u32>,
    pub players: Vec<Option<String>>,
    pub games: Vec<GameRow>,
    pub gesamt: Vec<Option<Gesamt>>,
    pub abzug: Vec<Option<u32>>,
    pub endergebnis: Vec<Option<i64>>,
    pub signatures: Vec<bool>,
    #[serde(default)]
    pub flags: Vec<Flag>,
    #[serde(flatten)]
    pub notes: SheetNotes,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

fn default_status() -> Status {
    Status::Ok
}

impl SheetResult {
    /// Number of seat columns on the sheet (4 on the Schafkopf form, 5 on Doppelkopf).
    pub fn seats(&self) -> usize {
        self.players.len()
    }

    /// The cell of game `no` at `seat` (from 0), where the sheet has that row.
    pub fn cell(&self, no: u32, seat: usize) -> Option<&Cell> {
        self.games
            .iter()
            .find(|g| g.no == no)
            .and_then(|g| g.cells.get(seat))
    }

    /// The cell of game `no` at `seat` (from 0), where the sheet has that row.
    pub fn cell_mut(&mut self, no: u32, seat: usize) -> Option<&mut Cell> {
        self.games
            .iter_mut()
            .find(|g| g.no == no)
            .and_then(|g| g.cells.get_mut(seat))
    }

    /// Parses and checks the shape of a sheet result. `name` is used in errors.
    pub fn from_json(name: &str, text: &str) -> Result<Self, SheetError> {
        let de = &mut serde_json::Deserializer::from_str(text);
        let sheet: SheetResult = serde_path_to_error::deserialize(de).map_err(|e| {
            let inner = e.inner();
            SheetError::Json {
                file: name.to_string(),
                line: inner.line(),
                field: e.path().to_string(),
                message: strip_position(&inner.to_string()),
            }
        })?;
        sheet.check_shape(name)?;
        Ok(sheet)
    }

    /// [`SheetResult::from_json`] of a result a store kept: one written
    /// before numbers out of range were asked (a table read as 0) is read
    /// with those numbers in doubt ([`range::doubt_out_of_range`]).
    pub fn from_stored(name: &str, text: &str) -> Result<Self, SheetError> {
        let shaped = Self::from_json(name, text);
        let Err(SheetError::Shape { .. }) = &shaped else {
            return shaped;
        };
        let Ok(mut sheet) = serde_json::from_str::<SheetResult>(text) else {
            return shaped;
        };
        range::doubt_out_of_range(&mut sheet, crate::catalogue::Lang::De);
        match sheet.check_shape(name) {
            Ok(()) => Ok(sheet),
            Err(_) => shaped,
        }
    }

    pub fn from_path(path: &Path) -> Result<Self, SheetError> {
        let name = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|e| SheetError::Read {
            file: name.clone(),
            problem: crate::page::unreadable::FileProblem::from(&e),
        })?;
        let text =
            String::from_utf8(bytes).map_err(|_| SheetError::NotText { file: name.clone() })?;
        Self::from_json(&name, &text)
    }

    fn check_shape(&self, name: &str) -> Result<(), SheetError> {
        let bad = |field: &str, problem: ShapeProblem| shape_error(name, field, problem);
        if self.schema != SCHEMA {
            let found = self.schema.clone();
            return Err(bad("schema", ShapeProblem::Schema { found }));
        }
        let seats = self.seats();
        if !(2..=8).contains(&seats) {
            return Err(bad("players", ShapeProblem::Seats { seats }));
        }
        let lens = [
            ("gesamt", self.gesamt.len()),
            ("abzug", self.abzug.len()),
            ("endergebnis", self.endergebnis.len()),
            ("signatures", self.signatures.len()),
        ];
        for (field, len) in lens {
            if len != seats {
                return Err(bad(field, ShapeProblem::Entries { len, seats }));
            }
        }
        for (i, id) in self.players.iter().enumerate() {
            if let Some(id) = id
                && (id.is_empty() || !id.bytes().all(|b| b.is_ascii_digit()))
            {
                let id = id.clone();
                return Err(bad(
                    &format!("players[{i}]"),
                    ShapeProblem::NotPlayerNo { id },
                ));
            }
        }
        self.check_rows(name, seats)?;
        self.check_flags(name, seats)
    }

    /// Each game row (one cell a seat, numbered once, within any form), and
    /// the round and table numbers.
    fn check_rows(&self, name: &str, seats: usize) -> Result<(), SheetError> {
        let bad = |field: &str, problem: ShapeProblem| shape_error(name, field, problem);
        let mut seen = std::collections::BTreeSet::new();
        for (i, row) in self.games.iter().enumerate() {
            let (row_no, cells) = (row.no, row.cells.len());
            if cells != seats {
                let problem = ShapeProblem::RowCells {
                    row: row_no,
                    cells,
                    seats,
                };
                return Err(bad(&format!("games[{i}].cells"), problem));
            }
            let problem = match row_no {
                0 => Some(ShapeProblem::RowZero),
                n if !seen.insert(n) => Some(ShapeProblem::RowTwice { row: n }),
                n if n > MOST => Some(ShapeProblem::RowBeyond { row: n }),
                _ => None,
            };
            if let Some(problem) = problem {
                return Err(bad(&format!("games[{i}].no"), problem));
            }
        }
        for (field, n) in [("round", self.round), ("table", self.table)] {
            if let Some(n) = n
                && !(1..=MOST).contains(&n)
            {
                return Err(bad(field, ShapeProblem::OutOfRange { n }));
            }
        }
        Ok(())
    }

    /// Every flag's row and seat (its consequences' too) on the sheet.
    fn check_flags(&self, name: &str, seats: usize) -> Result<(), SheetError> {
        let bad = |field: &str, problem: ShapeProblem| shape_error(name, field, problem);
        let flags = self
            .flags
            .iter()
            .flat_map(|f| std::iter::once(f).chain(&f.detail.consequences));
        for (i, flag) in flags.enumerate() {
            if let Some(row) = flag.row
                && !(1..=MOST).contains(&row)
            {
                return Err(bad(
                    &format!("flags[{i}].row"),
                    ShapeProblem::FlagRow { row },
                ));
            }
            if let Some(seat) = flag.seat
                && !(1..=seats).contains(&seat)
            {
                let problem = ShapeProblem::FlagSeat { seat, seats };
                return Err(bad(&format!("flags[{i}].seat"), problem));
            }
        }
        Ok(())
    }

    pub fn to_json_pretty(&self) -> String {
        // Serialising plain data with string keys cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

/// serde_json appends " at line L column C"; the error carries the line separately.
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(i) => message[..i].to_string(),
        None => message.to_string(),
    }
}

/// A sheet as a careful Schreiber finishes it: each seat with a participant
/// number gets its footer summed from the rows, and signs.
pub fn finished_sheet(
    rules: &str,
    games: Vec<GameRow>,
    players: Vec<Option<String>>,
) -> SheetResult {
    let seats = players.len();
    let mut gesamt = vec![None; seats];
    let mut abzug = vec![None; seats];
    let mut endergebnis = vec![None; seats];
    let mut signatures = vec![false; seats];
    for s in (0..seats).filter(|&s| players[s].is_some()) {
        let plus: u32 = games.iter().filter_map(|g| g.cells[s].plus).sum();
        let minus: u32 = games.iter().filter_map(|g| g.cells[s].minus).sum();
        gesamt[s] = Some(Gesamt {
            plus: Some(plus),
            minus: Some(minus),
        });
        abzug[s] = Some(plus.min(minus));
        endergebnis[s] = Some(i64::from(plus) - i64::from(minus));
        signatures[s] = true;
    }
    SheetResult {
        schema: SCHEMA.into(),
        source: None,
        page: Some(1),
        form: None,
        rules: Some(rules.to_string()),
        status: Status::Ok,
        round: Some(1),
        table: Some(1),
        players,
        games,
        gesamt,
        abzug,
        endergebnis,
        signatures,
        flags: Vec::new(),
        notes: Default::default(),
        extra: Default::default(),
    }
}

/// Round, table and row numbers as the desk takes them: a number beyond
/// would make the standings lay out a column for each.
pub const MOST: u32 = 999;

fn shape_error(file: &str, field: &str, problem: ShapeProblem) -> SheetError {
    SheetError::Shape {
        file: file.to_string(),
        field: field.to_string(),
        problem,
    }
}

#[cfg(test)]
pub(crate) mod example;
