//! Where a value sits on a sheet: one [`ValuePath`], and every way the
//! product writes it made here: the contract's path (`games/3/2/plus`,
//! the desk's edits), the archive's field (`game.3.seat.2.plus`, values
//! and trail), the result JSON's keys and indices (the review page's
//! edit boxes), and a reading flag's row, seat and field.

use std::fmt;
use std::str::FromStr;

use serde_json::Value;

use crate::check::flags::Flag;
use crate::error::EditError;
use crate::sheet::SheetResult;

/// Both columns, plus first.
const COLUMNS: [Column; 2] = [Column::Plus, Column::Minus];

/// A game or Gesamt column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Column {
    Plus,
    Minus,
}

impl Column {
    pub fn name(self) -> &'static str {
        match self {
            Column::Plus => "plus",
            Column::Minus => "minus",
        }
    }
}

/// Where a value sits on a sheet (seats from 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValuePath {
    Game {
        no: u32,
        seat: usize,
        column: Column,
    },
    Gesamt {
        seat: usize,
        column: Column,
    },
    Abzug(usize),
    Endergebnis(usize),
    Player(usize),
    Round,
    Table,
}

impl FromStr for ValuePath {
    type Err = EditError;

    fn from_str(text: &str) -> Result<Self, EditError> {
        let bad = || EditError::Path(text.to_string());
        let parts: Vec<&str> = text.split('/').collect();
        let number = |s: &str| s.parse::<usize>().ok().filter(|&n| (1..=999).contains(&n));
        let column = |s: &str| match s {
            "plus" => Some(Column::Plus),
            "minus" => Some(Column::Minus),
            _ => None,
        };
        let path = match parts.as_slice() {
            ["round"] => Some(ValuePath::Round),
            ["table"] => Some(ValuePath::Table),
            ["games", no, seat, col] => {
                number(no)
                    .zip(number(seat))
                    .zip(column(col))
                    .map(|((no, seat), column)| ValuePath::Game {
                        no: no as u32,
                        seat,
                        column,
                    })
            }
            ["gesamt", seat, col] => number(seat)
                .zip(column(col))
                .map(|(seat, column)| ValuePath::Gesamt { seat, column }),
            ["abzug", seat] => number(seat).map(ValuePath::Abzug),
            ["endergebnis", seat] => number(seat).map(ValuePath::Endergebnis),
            ["players", seat] => number(seat).map(ValuePath::Player),
            _ => None,
        };
        path.ok_or_else(bad)
    }
}

impl fmt::Display for ValuePath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ValuePath::Game { no, seat, column } => {
                write!(f, "games/{no}/{seat}/{}", column.name())
            }
            ValuePath::Gesamt { seat, column } => write!(f, "gesamt/{seat}/{}", column.name()),
            ValuePath::Abzug(s) => write!(f, "abzug/{s}"),
            ValuePath::Endergebnis(s) => write!(f, "endergebnis/{s}"),
            ValuePath::Player(s) => write!(f, "players/{s}"),
            ValuePath::Round => f.write_str("round"),
            ValuePath::Table => f.write_str("table"),
        }
    }
}

impl ValuePath {
    /// The seat the path names, if any.
    /// Where the value sits, as a person names it ("Platz 4, Gesamt Plus").
    pub fn label(&self, lang: crate::check::messages::Lang) -> String {
        use crate::catalogue::say;
        let column = |c: Column| match c {
            Column::Plus => "Plus",
            Column::Minus => "Minus",
        };
        match *self {
            ValuePath::Game {
                no,
                seat,
                column: c,
            } => say(
                lang,
                "place-game",
                &[("row", &no), ("seat", &seat), ("column", &column(c))],
            ),
            ValuePath::Gesamt { seat, column: c } => say(
                lang,
                "place-gesamt",
                &[("seat", &seat), ("column", &column(c))],
            ),
            ValuePath::Abzug(seat) => say(lang, "place-abzug", &[("seat", &seat)]),
            ValuePath::Endergebnis(seat) => say(lang, "place-endergebnis", &[("seat", &seat)]),
            ValuePath::Player(seat) => say(lang, "place-player", &[("seat", &seat)]),
            ValuePath::Round => say(lang, "place-round", &[]),
            ValuePath::Table => say(lang, "place-table", &[]),
        }
    }

    pub fn seat(&self) -> Option<usize> {
        match *self {
            ValuePath::Game { seat, .. } | ValuePath::Gesamt { seat, .. } => Some(seat),
            ValuePath::Abzug(s) | ValuePath::Endergebnis(s) | ValuePath::Player(s) => Some(s),
            ValuePath::Round | ValuePath::Table => None,
        }
    }

    /// The field's name in the archive's values and trail.
    pub fn archive_field(&self) -> String {
        match self {
            ValuePath::Game { no, seat, column } => {
                format!("game.{no}.seat.{seat}.{}", column.name())
            }
            ValuePath::Gesamt { seat, column } => format!("gesamt.{seat}.{}", column.name()),
            ValuePath::Abzug(s) => format!("abzug.{s}"),
            ValuePath::Endergebnis(s) => format!("endergebnis.{s}"),
            ValuePath::Player(s) => format!("player.{s}"),
            ValuePath::Round => "round".into(),
            ValuePath::Table => "table".into(),
        }
    }

    /// Whether `flag` is the reading flag of this very cell.
    pub fn is_cell_of(&self, flag: &Flag) -> bool {
        let field = flag.field.as_deref();
        match *self {
            ValuePath::Game { no, seat, column } => {
                flag.row == Some(no) && flag.seat == Some(seat) && field == Some(column.name())
            }
            ValuePath::Gesamt { seat, column } => {
                flag.row.is_none() && flag.seat == Some(seat) && field == Some(column.name())
            }
            ValuePath::Abzug(s) => {
                flag.row.is_none() && flag.seat == Some(s) && field == Some("abzug")
            }
            ValuePath::Endergebnis(s) => {
                flag.row.is_none() && flag.seat == Some(s) && field == Some("endergebnis")
            }
            ValuePath::Player(s) => {
                flag.row.is_none() && flag.seat == Some(s) && field == Some("player_id")
            }
            ValuePath::Round => flag.row.is_none() && field == Some("round"),
            ValuePath::Table => flag.row.is_none() && field == Some("table"),
        }
    }

    /// The contract path of the cell a reading flag names, if it names one.
    pub fn of_flag(flag: &Flag) -> Option<ValuePath> {
        let column = match flag.field.as_deref() {
            Some("plus") => Some(Column::Plus),
            Some("minus") => Some(Column::Minus),
            _ => None,
        };
        Some(match (flag.row, flag.seat, flag.field.as_deref()) {
            (Some(no), Some(seat), _) => ValuePath::Game {
                no,
                seat,
                column: column?,
            },
            (None, Some(seat), Some("abzug")) => ValuePath::Abzug(seat),
            (None, Some(seat), Some("endergebnis")) => ValuePath::Endergebnis(seat),
            (None, Some(seat), Some("player_id")) => ValuePath::Player(seat),
            (None, Some(seat), Some(_)) => ValuePath::Gesamt {
                seat,
                column: column?,
            },
            (None, None, Some("round")) => ValuePath::Round,
            (None, None, Some("table")) => ValuePath::Table,
            _ => return None,
        })
    }
}

impl ValuePath {
    /// Every number's place on the sheet, blanks included: round, table,
    /// each game row's cells, Gesamt, Abzug, Endergebnis (in that order).
    pub fn numbers_of(sheet: &SheetResult) -> Vec<ValuePath> {
        let mut out = vec![ValuePath::Round, ValuePath::Table];
        out.extend(Self::game_cells(sheet));
        for seat in 1..=sheet.gesamt.len() {
            out.extend(COLUMNS.map(|column| ValuePath::Gesamt { seat, column }));
        }
        out.extend((1..=sheet.abzug.len()).map(ValuePath::Abzug));
        out.extend((1..=sheet.endergebnis.len()).map(ValuePath::Endergebnis));
        out
    }

    /// Every place a person may set on the sheet: round, table, each
    /// seat's number and footer (by the sheet's seats), each game row's
    /// cells.
    pub fn places_of(sheet: &SheetResult) -> Vec<ValuePath> {
        let mut out = vec![ValuePath::Round, ValuePath::Table];
        for seat in 1..=sheet.players.len() {
            out.push(ValuePath::Player(seat));
            out.extend(COLUMNS.map(|column| ValuePath::Gesamt { seat, column }));
            out.extend([ValuePath::Abzug(seat), ValuePath::Endergebnis(seat)]);
        }
        out.extend(Self::game_cells(sheet));
        out
    }

    /// Both columns of every seat of every game row the sheet holds.
    fn game_cells(sheet: &SheetResult) -> impl Iterator<Item = ValuePath> + '_ {
        sheet.games.iter().flat_map(|g| {
            (1..=g.cells.len()).flat_map(move |seat| {
                COLUMNS.map(|column| ValuePath::Game {
                    no: g.no,
                    seat,
                    column,
                })
            })
        })
    }

    /// The number at this place, if one is written (none for a player).
    pub fn number(&self, sheet: &SheetResult) -> Option<i64> {
        let pick = |column: Column, plus: Option<u32>, minus: Option<u32>| match column {
            Column::Plus => plus,
            Column::Minus => minus,
        };
        let unsigned = match *self {
            ValuePath::Round => sheet.round,
            ValuePath::Table => sheet.table,
            ValuePath::Game { no, seat, column } => {
                let row = sheet.games.iter().find(|g| g.no == no)?;
                let cell = row.cells.get(seat.checked_sub(1)?)?;
                pick(column, cell.plus, cell.minus)
            }
            ValuePath::Gesamt { seat, column } => {
                let g = (*sheet.gesamt.get(seat.checked_sub(1)?)?)?;
                pick(column, g.plus, g.minus)
            }
            ValuePath::Abzug(seat) => *sheet.abzug.get(seat.checked_sub(1)?)?,
            ValuePath::Endergebnis(seat) => {
                return *sheet.endergebnis.get(seat.checked_sub(1)?)?;
            }
            ValuePath::Player(_) => None,
        };
        unsigned.map(i64::from)
    }

    /// The value as the trail writes it: the number, or the participant
    /// number as written.
    pub fn text(&self, sheet: &SheetResult) -> Option<String> {
        match *self {
            ValuePath::Player(seat) => sheet.players.get(seat.checked_sub(1)?).cloned().flatten(),
            _ => self.number(sheet).map(|v| v.to_string()),
        }
    }

    /// The path named by the archive's field (see [`Self::archive_field`]).
    pub fn of_archive_field(field: &str) -> Option<ValuePath> {
        let contract = match field.split('.').collect::<Vec<_>>().as_slice() {
            ["game", no, "seat", seat, col] => format!("games/{no}/{seat}/{col}"),
            ["player", seat] => format!("players/{seat}"),
            parts => parts.join("/"),
        };
        contract.parse().ok()
    }

    /// Where the value sits in the result JSON (keys and indices); none
    /// for a game row the sheet does not hold.
    pub fn json(&self, sheet: &SheetResult) -> Option<Vec<Value>> {
        let at = |key: &str, seat: usize| vec![Value::from(key), Value::from(seat - 1)];
        Some(match *self {
            ValuePath::Game { no, seat, column } => {
                let i = sheet.games.iter().position(|g| g.no == no)?;
                let cell = ["games".into(), i.into(), "cells".into(), (seat - 1).into()];
                [cell.to_vec(), vec![column.name().into()]].concat()
            }
            ValuePath::Gesamt { seat, column } => {
                [at("gesamt", seat), vec![column.name().into()]].concat()
            }
            ValuePath::Abzug(seat) => at("abzug", seat),
            ValuePath::Endergebnis(seat) => at("endergebnis", seat),
            ValuePath::Player(seat) => at("players", seat),
            ValuePath::Round => vec!["round".into()],
            ValuePath::Table => vec!["table".into()],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_place_should_be_named_as_a_person_names_it() {
        use crate::check::messages::Lang;
        let gesamt = ValuePath::Gesamt {
            seat: 4,
            column: Column::Plus,
        };
        assert_eq!(gesamt.label(Lang::De), "Platz 4, Gesamt Plus");
        let cell: ValuePath = "games/24/4/minus".parse().expect("path");
        assert_eq!(cell.label(Lang::De), "Spiel 24, Platz 4, Minus");
        assert_eq!(
            ValuePath::Endergebnis(2).label(Lang::En),
            "seat 2, Endergebnis"
        );
    }
    use crate::sheet::{Cell, GameRow, Gesamt};

    fn sheet() -> SheetResult {
        let mut s = crate::sheet::finished_sheet(
            "merkur",
            vec![GameRow {
                no: 5,
                cells: vec![Cell::plus(30), Cell::minus(10)],
                initials: false,
                class: None,
                extra: Default::default(),
            }],
            vec![Some("0107".into()), None],
        );
        s.round = Some(2);
        s.gesamt = vec![
            Some(Gesamt {
                plus: Some(30),
                minus: None,
            }),
            None,
        ];
        s.abzug = vec![Some(4), None];
        s.endergebnis = vec![Some(26), Some(-10)];
        s
    }

    #[test]
    fn every_encoding_should_name_the_same_place() {
        let s = sheet();
        let whole = serde_json::to_value(&s).expect("json");
        let mut paths = ValuePath::numbers_of(&s);
        paths.push(ValuePath::Player(1));
        assert_eq!(paths.len(), 2 + 4 + 4 + 2 + 2 + 1);
        for path in paths {
            let written = path.to_string();
            assert_eq!(written.parse::<ValuePath>().ok(), Some(path), "{written}");
            let field = path.archive_field();
            assert_eq!(ValuePath::of_archive_field(&field), Some(path), "{field}");
            // The JSON path finds the value in the result JSON itself.
            let mut at = &whole;
            for key in path.json(&s).expect("on the sheet") {
                at = match key {
                    Value::String(k) => &at[k.as_str()],
                    Value::Number(i) => &at[i.as_u64().expect("index") as usize],
                    other => panic!("{other}"),
                };
            }
            let value = match path {
                ValuePath::Player(_) => path.text(&s).map(Value::from),
                _ => path.number(&s).map(Value::from),
            };
            assert_eq!(Some(at), value.as_ref().or(Some(&Value::Null)), "{path}");
        }
    }

    #[test]
    fn a_path_should_find_its_value() {
        let s = sheet();
        let game = |seat, column| ValuePath::Game {
            no: 5,
            seat,
            column,
        };
        assert_eq!(game(1, Column::Plus).number(&s), Some(30));
        assert_eq!(game(2, Column::Minus).number(&s), Some(10));
        assert_eq!(game(2, Column::Plus).number(&s), None);
        assert_eq!(ValuePath::Endergebnis(2).number(&s), Some(-10));
        assert_eq!(ValuePath::Round.number(&s), Some(2));
        assert_eq!(ValuePath::Player(1).text(&s).as_deref(), Some("0107"));
        assert_eq!(
            ValuePath::Game {
                no: 6,
                seat: 1,
                column: Column::Plus
            }
            .json(&s),
            None
        );
    }
}
