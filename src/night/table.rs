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

    /// The table as a spreadsheet of `lang` opens it by a double click: a
    /// byte-order mark (else Excel takes UTF-8 for the old code page),
    /// fields split by `;` (a German spreadsheet takes `,` for the
    /// decimal comma), the heads in the language.
    pub fn write_spreadsheet<W: std::io::Write>(
        &self,
        mut out: W,
        lang: crate::catalogue::Lang,
    ) -> Result<(), csv::Error> {
        out.write_all("\u{FEFF}".as_bytes())?;
        let mut w = csv::WriterBuilder::new().delimiter(b';').from_writer(out);
        let heads = self
            .header
            .iter()
            .map(|h| crate::catalogue::column_head(lang, h));
        w.write_record(heads)?;
        for row in &self.rows {
            w.write_record(row.iter().map(Entry::text))?;
        }
        w.flush()?;
        Ok(())
    }

    /// Column `name` with `entries` (one a row) put after column `after`
    /// (at the end where there is none).
    pub fn insert_after(&mut self, after: &str, name: &str, entries: Vec<Entry>) {
        let at = (self.header.iter().position(|h| h == after)).map_or(self.header.len(), |i| i + 1);
        self.header.insert(at, name.to_string());
        for (row, entry) in self.rows.iter_mut().zip(entries) {
            row.insert(at.min(row.len()), entry);
        }
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

    #[test]
    fn a_spreadsheets_csv_should_split_by_semicolons_under_german_heads() {
        let mut t = table();
        t.insert_after("player", "name", vec![Entry::Text("Huber; Sepp".into())]);
        let mut csv = Vec::new();
        t.write_spreadsheet(&mut csv, crate::catalogue::Lang::De)
            .expect("csv");
        assert_eq!(
            String::from_utf8(csv).expect("utf-8"),
            "\u{FEFF}Platz;Teilnehmer;Name;Runde 1\n1;0107, a;\"Huber; Sepp\";\n"
        );
    }
}
