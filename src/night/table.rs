//! A ranking as typed rows: one table is the contract's CSV, the JSON
//! rows of the desk (numbers as numbers) and a page's cells, so that no
//! reader parses text another part wrote.

use serde_json::{Map, Value};

/// One entry of a row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    Number(i64),
    Text(String),
    /// Nothing there: a round not played, a player not ranked.
    Blank,
}

impl Entry {
    /// A count or a rank as a number.
    pub fn count(n: usize) -> Entry {
        Entry::Number(i64::try_from(n).unwrap_or(i64::MAX))
    }

    /// `Blank` for none.
    pub fn maybe(n: Option<i64>) -> Entry {
        n.map_or(Entry::Blank, Entry::Number)
    }

    /// As the CSV writes it.
    pub fn text(&self) -> String {
        match self {
            Entry::Number(n) => n.to_string(),
            Entry::Text(t) => t.clone(),
            Entry::Blank => String::new(),
        }
    }

    /// As JSON: a number, a string, or null.
    pub fn json(&self) -> Value {
        match self {
            Entry::Number(n) => Value::from(*n),
            Entry::Text(t) => Value::from(t.as_str()),
            Entry::Blank => Value::Null,
        }
    }
}

/// Column names (the contract's) and rows in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    pub header: Vec<String>,
    pub rows: Vec<Vec<Entry>>,
}

impl Table {
    pub fn write_csv<W: std::io::Write>(&self, out: W) -> Result<(), csv::Error> {
        let mut w = csv::Writer::from_writer(out);
        w.write_record(&self.header)?;
        for row in &self.rows {
            w.write_record(row.iter().map(Entry::text))?;
        }
        w.flush()?;
        Ok(())
    }

    /// Row `i` as an object by the column names.
    pub fn json_row(&self, i: usize) -> Option<Map<String, Value>> {
        let row = self.rows.get(i)?;
        Some(
            self.header
                .iter()
                .zip(row)
                .map(|(h, e)| (h.clone(), e.json()))
                .collect(),
        )
    }

    /// Every row as an object by the column names.
    pub fn json_rows(&self) -> Vec<Map<String, Value>> {
        (0..self.rows.len())
            .filter_map(|i| self.json_row(i))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Table {
        Table {
            header: vec!["rank".into(), "player".into(), "round_1".into()],
            rows: vec![vec![
                Entry::count(1),
                Entry::Text("0107, a".into()),
                Entry::Blank,
            ]],
        }
    }

    #[test]
    fn a_row_should_be_text_in_the_csv_and_numbers_in_json() {
        let mut csv = Vec::new();
        table().write_csv(&mut csv).expect("csv");
        assert_eq!(
            String::from_utf8(csv).expect("utf-8"),
            "rank,player,round_1\n1,\"0107, a\",\n"
        );
        let row = table().json_row(0).expect("row");
        assert_eq!(row["rank"], Value::from(1));
        assert_eq!(row["player"], Value::from("0107, a"));
        assert_eq!(row["round_1"], Value::Null);
        assert_eq!(table().json_rows().len(), 1);
        assert!(table().json_row(1).is_none());
    }
}
