//! The registered list as the organisers keep it: a CSV with a header
//! naming `number` (the Teilnehmer-Nr., digits) and `name`; any further
//! columns (club, ...) are kept as they are. The older list of one number a
//! line is still read, leniently, as numbers without names.
//!
//! A list with a header is checked: a malformed or repeated number is
//! refused with its line, because a draw or a ranking from a wrong list is
//! wrong everywhere.

use std::path::Path;

use crate::error::{ParticipantsError, RosterError};
use crate::night::tournament::spreadsheet::{delimiter_of, read_text};
use crate::sheet::PlayerNo;
use crate::sheet::player_no::MAX_DIGITS;

/// One registered player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Person {
    /// The Teilnehmer-Nr. as the list writes it (leading zeros kept).
    pub number: String,
    pub name: String,
    /// The further columns' values, in the header's order.
    pub more: Vec<String>,
}

/// The registered players, in the list's order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Roster {
    /// The further columns' names (beside `number` and `name`).
    pub columns: Vec<String>,
    pub people: Vec<Person>,
}

impl Roster {
    /// Reads the list at `path`: a CSV with a header, or the older list of
    /// one number a line.
    pub fn load(path: &Path) -> Result<Roster, ParticipantsError> {
        let shown = path.display().to_string();
        let text = read_text(path).map_err(|e| ParticipantsError::Read {
            path: shown.clone(),
            problem: crate::page::unreadable::FileProblem::from(&e),
        })?;
        let roster = if Roster::has_header(&text) {
            Roster::parse(&text).map_err(|error| ParticipantsError::List {
                path: shown.clone(),
                error,
            })?
        } else {
            Roster::numbers_only(&text)
        };
        if roster.people.is_empty() {
            return Err(ParticipantsError::Empty { path: shown });
        }
        Ok(roster)
    }

    /// Whether the list's first line is a header naming a `number` column.
    pub fn has_header(text: &str) -> bool {
        text.lines()
            .next()
            .is_some_and(|l| l.split([',', ';', '\t']).any(|c| is_column(c, "number")))
    }

    /// A list with a header: every line one player, checked.
    pub fn parse(text: &str) -> Result<Roster, RosterError> {
        let delimiter = delimiter_of(text.lines().next().unwrap_or_default());
        let mut csv = csv::ReaderBuilder::new()
            .delimiter(delimiter)
            .flexible(true)
            .trim(csv::Trim::All)
            .from_reader(text.as_bytes());
        let header: Vec<String> = csv
            .headers()
            .map_err(|e| RosterError::Csv {
                line: 1,
                message: e.to_string(),
            })?
            .iter()
            .map(str::to_string)
            .collect();
        let at = |name: &str| header.iter().position(|c| is_column(c, name));
        let number_at = at("number").ok_or(RosterError::NoColumn { column: "number" })?;
        let name_at = at("name").ok_or(RosterError::NoColumn { column: "name" })?;
        let more_at: Vec<usize> = (0..header.len())
            .filter(|&i| i != number_at && i != name_at)
            .collect();
        let mut roster = Roster {
            columns: more_at.iter().map(|&i| header[i].clone()).collect(),
            people: Vec::new(),
        };
        let mut lines: Vec<usize> = Vec::new();
        for record in csv.records() {
            let record = record.map_err(|e| RosterError::Csv {
                line: e.position().map_or(0, |p| p.line() as usize),
                message: e.to_string(),
            })?;
            let line = record.position().map_or(0, |p| p.line() as usize);
            if record.iter().all(str::is_empty) {
                continue;
            }
            let field = |i: usize| record.get(i).unwrap_or_default().to_string();
            let number = field(number_at);
            if number.is_empty()
                || number.len() > MAX_DIGITS
                || !number.bytes().all(|b| b.is_ascii_digit())
            {
                return Err(RosterError::BadNumber { line, number });
            }
            if let Some(i) = roster
                .people
                .iter()
                .position(|p| PlayerNo::new(&p.number) == *number.as_str())
            {
                return Err(RosterError::Duplicate {
                    line,
                    first: lines[i],
                    number,
                });
            }
            lines.push(line);
            roster.people.push(Person {
                number,
                name: field(name_at),
                more: more_at.iter().map(|&i| field(i)).collect(),
            });
        }
        Ok(roster)
    }

    /// The older list: the first field of each line that is a number; a
    /// number seen before is not added again.
    pub fn numbers_only(text: &str) -> Roster {
        let mut roster = Roster::default();
        for first in text
            .lines()
            .filter_map(|l| l.split([',', ';', '\t']).next())
        {
            let number = first.trim().trim_matches('"');
            let digits = !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit());
            if digits
                && !roster
                    .people
                    .iter()
                    .any(|p| PlayerNo::new(&p.number) == *number)
            {
                roster.people.push(Person {
                    number: number.to_string(),
                    name: String::new(),
                    more: Vec::new(),
                });
            }
        }
        roster
    }

    /// The player whose number is `number` (leading zeros aside).
    pub fn person(&self, number: &str) -> Option<&Person> {
        let number = PlayerNo::new(number);
        self.people
            .iter()
            .find(|p| PlayerNo::new(&p.number) == number)
    }
}

fn is_column(header: &str, name: &str) -> bool {
    header.trim().trim_matches('"').eq_ignore_ascii_case(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_should_keep_names_and_further_columns() {
        let r =
            Roster::parse("number,name,club\n0417,Anna Huber,SK Moosach\n12,Max,\n").expect("list");
        assert_eq!(r.columns, ["club"]);
        assert_eq!(r.people.len(), 2);
        assert_eq!(r.people[0].number, "0417");
        assert_eq!(r.people[0].name, "Anna Huber");
        assert_eq!(r.people[0].more, ["SK Moosach"]);
        assert_eq!(r.person("417").map(|p| p.name.as_str()), Some("Anna Huber"));
    }

    #[test]
    fn a_german_spreadsheet_list_should_be_read() {
        let r = Roster::parse("Name;Number\nHuber, Anna;7\n").expect("list");
        assert_eq!(r.people[0].number, "7");
        assert_eq!(r.people[0].name, "Huber, Anna");
    }

    #[test]
    fn a_list_saved_by_excel_on_windows_should_be_read_whole() {
        let dir = tempfile::tempdir().expect("dir");
        // Windows-1252 (ü is 0xFC), CRLF, semicolons; and UTF-8 with its mark.
        let ansi = dir.path().join("ansi.csv");
        std::fs::write(&ansi, b"number;name\r\n7;M\xFCller\r\n0012;Ober\r\n").expect("write");
        let bom = dir.path().join("bom.csv");
        std::fs::write(&bom, "\u{feff}number;name\r\n7;Müller\r\n0012;Ober\r\n").expect("write");
        for path in [ansi, bom] {
            let r = Roster::load(&path).expect("list");
            assert_eq!(r.people.len(), 2, "{}", path.display());
            assert_eq!(r.people[0].name, "Müller");
            assert_eq!(r.people[1].number, "0012");
        }
    }

    #[test]
    fn a_repeated_number_should_be_refused_with_both_lines() {
        let e = Roster::parse("number,name\n7,A\n8,B\n007,C\n").expect_err("duplicate");
        assert_eq!(
            e,
            RosterError::Duplicate {
                line: 4,
                first: 2,
                number: "007".into()
            }
        );
    }

    #[test]
    fn a_malformed_number_should_be_refused_with_its_line() {
        for bad in ["12a", "", "1234567", "-3"] {
            let e = Roster::parse(&format!("number,name\n1,A\n{bad},B\n")).expect_err(bad);
            assert_eq!(
                e,
                RosterError::BadNumber {
                    line: 3,
                    number: bad.into()
                }
            );
        }
    }

    #[test]
    fn a_list_without_a_name_column_should_be_refused() {
        let e = Roster::parse("number,club\n1,A\n").expect_err("no name");
        assert_eq!(e, RosterError::NoColumn { column: "name" });
    }

    #[test]
    fn the_older_list_should_still_be_read_as_numbers() {
        let text = "# Teilnehmer\n0417\n12\n0417\n";
        assert!(!Roster::has_header(text));
        let r = Roster::numbers_only(text);
        let numbers: Vec<&str> = r.people.iter().map(|p| p.number.as_str()).collect();
        assert_eq!(numbers, ["0417", "12"]);
    }
}
