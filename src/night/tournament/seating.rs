//! The seating: every round's tables, each its players in seat order, as
//! `draw` writes it and `print` and `standings` read it (CSV
//! `round,table,seat,player`, all from 1).

use crate::error::SeatingError;
use crate::night::tournament::spreadsheet::delimiter_of;
use crate::sheet::PlayerNo;

/// One round's tables, each its players' numbers in seat order.
pub type Round = Vec<Vec<String>>;

/// Every round's tables.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seating {
    pub rounds: Vec<Round>,
}

impl Seating {
    /// Meetings beyond the first, over all pairs of players.
    pub fn repeats(&self) -> usize {
        let mut pairs: std::collections::HashMap<(&str, &str), usize> = Default::default();
        for t in self.rounds.iter().flatten() {
            for (i, a) in t.iter().enumerate() {
                for b in &t[i + 1..] {
                    let key = if a < b { (a, b) } else { (b, a) };
                    *pairs.entry((key.0.as_str(), key.1.as_str())).or_default() += 1;
                }
            }
        }
        pairs.values().map(|n| n - 1).sum()
    }

    /// The seating as CSV: `round,table,seat,player`, rounds, tables and
    /// seats from 1.
    pub fn to_csv(&self) -> String {
        let mut w = csv::Writer::from_writer(Vec::new());
        // Writing into memory cannot fail.
        let _ = w.write_record(HEADER);
        for (r, tables) in self.rounds.iter().enumerate() {
            for (t, seats) in tables.iter().enumerate() {
                for (s, player) in seats.iter().enumerate() {
                    let n = |i: usize| (i + 1).to_string();
                    let _ = w.write_record([n(r), n(t), n(s), player.clone()]);
                }
            }
        }
        String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
    }

    /// A seating CSV read back: every row a seat; rounds, tables and seats
    /// numbered from 1 without gaps, no seat taken twice, nobody seated
    /// twice in a round.
    pub fn from_csv(text: &str) -> Result<Seating, SeatingError> {
        let header = text.lines().next().unwrap_or_default();
        let mut reader = csv::ReaderBuilder::new()
            .delimiter(delimiter_of(header))
            .has_headers(false)
            .flexible(true)
            .trim(csv::Trim::All)
            .from_reader(text.as_bytes());
        let mut records = reader.records();
        match records.next() {
            Some(Ok(h)) if has_header(&h) => {}
            _ => return Err(SeatingError::Header),
        }
        let mut rounds: Vec<Vec<Vec<Option<String>>>> = Vec::new();
        for record in records {
            let line_of = |p: Option<&csv::Position>| p.map_or(0, |p| p.line() as usize);
            let record = record.map_err(|e| SeatingError::Row {
                line: line_of(e.position()),
            })?;
            let line_no = line_of(record.position());
            if record.iter().all(str::is_empty) {
                continue;
            }
            let (round, table, seat, player) =
                seat_row(&record).ok_or(SeatingError::Row { line: line_no })?;
            // Bounds far above any night, so a wrong file cannot ask for
            // gigabytes.
            if round > 50 || table > 1000 || seat > 10 {
                return Err(SeatingError::Row { line: line_no });
            }
            if rounds.len() < round {
                rounds.resize(round, Vec::new());
            }
            let tables = &mut rounds[round - 1];
            if tables.len() < table {
                tables.resize(table, Vec::new());
            }
            let seats = &mut tables[table - 1];
            if seats.len() < seat {
                seats.resize(seat, None);
            }
            let twice = tables
                .iter()
                .flatten()
                .flatten()
                .any(|p| PlayerNo::new(p) == *player.as_str());
            let seats = &mut rounds[round - 1][table - 1];
            if seats[seat - 1].is_some() || twice {
                return Err(SeatingError::Twice { line: line_no });
            }
            seats[seat - 1] = Some(player);
        }
        let rounds: Option<Vec<Round>> = rounds
            .into_iter()
            .map(|tables| {
                tables
                    .into_iter()
                    .map(|seats| {
                        seats
                            .into_iter()
                            .collect::<Option<Vec<String>>>()
                            .filter(|s| !s.is_empty())
                    })
                    .collect()
            })
            .collect();
        match rounds {
            Some(rounds) if !rounds.is_empty() && rounds.iter().all(|r| !r.is_empty()) => {
                Ok(Seating { rounds })
            }
            _ => Err(SeatingError::Gap),
        }
    }
}

/// The seating CSV's columns; a fifth, `writer`, may mark each table's
/// Schreiber ([`writer_seats`]).
const HEADER: [&str; 4] = ["round", "table", "seat", "player"];
const WRITER: &str = "writer";

fn has_header(h: &csv::StringRecord) -> bool {
    h.iter().take(4).eq(HEADER) && (h.len() == 4 || (h.len() == 5 && h.get(4) == Some(WRITER)))
}

/// The Schreiber's seat of each (round, table) the seating CSV marks in
/// its `writer` column (`x`, `1`, `ja`, `yes`); none where it has no
/// such column. A table marked twice keeps its first.
pub fn writer_seats(
    text: &str,
) -> Result<std::collections::BTreeMap<(u32, u32), usize>, SeatingError> {
    let header = text.lines().next().unwrap_or_default();
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(delimiter_of(header))
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let mut marked = std::collections::BTreeMap::new();
    for record in reader.records() {
        let record = record.map_err(|e| SeatingError::Row {
            line: e.position().map_or(0, |p| p.line() as usize),
        })?;
        let mark = record.get(4).unwrap_or_default().to_lowercase();
        if !["x", "1", "ja", "yes"].contains(&mark.as_str()) {
            continue;
        }
        let line = record.position().map_or(0, |p| p.line() as usize);
        let (round, table, seat, _) = seat_row(&record).ok_or(SeatingError::Row { line })?;
        marked.entry((round as u32, table as u32)).or_insert(seat);
    }
    Ok(marked)
}

/// A row's round, table and seat (each from 1) and player number.
fn seat_row(record: &csv::StringRecord) -> Option<(usize, usize, usize, String)> {
    let f: Vec<&str> = record.iter().collect();
    let [round, table, seat, player, ..] = f.as_slice() else {
        return None;
    };
    let n = |s: &str| s.parse::<usize>().ok().filter(|&v| v >= 1);
    let digits = !player.is_empty() && player.bytes().all(|b| b.is_ascii_digit());
    Some((
        n(round)?,
        n(table)?,
        n(seat)?,
        digits.then(|| player.to_string())?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_writer_column_should_name_each_tables_schreiber_and_leave_the_seating_as_it_is() {
        let plain = "round,table,seat,player\n1,1,1,11\n1,1,2,12\n1,1,3,13\n1,1,4,14\n";
        let marked =
            "round,table,seat,player,writer\n1,1,1,11,\n1,1,2,12,\n1,1,3,13,x\n1,1,4,14,\n";
        assert_eq!(
            Seating::from_csv(marked).expect("marked"),
            Seating::from_csv(plain).expect("plain")
        );
        let seats = writer_seats(marked).expect("writers");
        assert_eq!(seats.get(&(1, 1)), Some(&3));
        assert!(writer_seats(plain).expect("none").is_empty());
        let other = "round,table,seat,player,schreiber\n1,1,1,11,x\n";
        assert!(Seating::from_csv(other).is_err(), "an unknown fifth column");
    }

    #[test]
    fn the_seating_csv_should_list_every_seat() {
        let s = Seating {
            rounds: vec![vec![vec!["7".into(), "12".into(), "3".into(), "44".into()]]],
        };
        assert_eq!(
            s.to_csv(),
            "round,table,seat,player\n1,1,1,7\n1,1,2,12\n1,1,3,3\n1,1,4,44\n"
        );
    }

    #[test]
    fn a_written_seating_should_read_back_as_itself() {
        let s = Seating {
            rounds: vec![
                vec![vec!["7".into(), "12".into(), "3".into(), "44".into()]],
                vec![vec!["44".into(), "3".into(), "0012".into(), "7".into()]],
            ],
        };
        assert_eq!(Seating::from_csv(&s.to_csv()), Ok(s));
    }

    #[test]
    fn a_seating_saved_by_a_german_excel_should_read_as_written() {
        let s = Seating {
            rounds: vec![vec![vec!["7".into(), "12".into(), "3".into(), "44".into()]]],
        };
        let excel = s.to_csv().replace(',', ";").replace('\n', "\r\n");
        assert_eq!(Seating::from_csv(&excel), Ok(s));
    }

    #[test]
    fn a_broken_seating_should_be_refused_with_its_line() {
        let head = "round,table,seat,player\n";
        assert_eq!(Seating::from_csv("r,t,s,p\n"), Err(SeatingError::Header));
        assert_eq!(
            Seating::from_csv(&format!("{head}1,1,1,7\n1,x,2,8\n")),
            Err(SeatingError::Row { line: 3 })
        );
        assert_eq!(
            Seating::from_csv(&format!("{head}1,1,1,7\n1,1,1,8\n")),
            Err(SeatingError::Twice { line: 3 })
        );
        assert_eq!(
            Seating::from_csv(&format!("{head}1,1,1,7\n1,2,1,007\n")),
            Err(SeatingError::Twice { line: 3 })
        );
        assert_eq!(
            Seating::from_csv(&format!("{head}1,1,1,7\n1,1,3,8\n")),
            Err(SeatingError::Gap)
        );
        assert_eq!(Seating::from_csv(head), Err(SeatingError::Gap));
    }
}
