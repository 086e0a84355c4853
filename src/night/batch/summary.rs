//! `summary.csv`: one row per sheet, and one per input that was passed
//! over, across every run into the same folder.
//!
//! A run replaces the rows of the inputs it read and keeps the others, so
//! two runs into one folder list both. The file is written whole
//! (temporary file, then rename): a full disk or a kill leaves the old one.

use std::collections::BTreeSet;
use std::path::Path;

use crate::sheet::{SheetResult, Status};

const HEADER: [&str; 10] = [
    "source", "page", "result", "round", "table", "players", "status", "errors", "warnings", "note",
];

/// One line of the summary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// The input file (or folder) as given.
    pub source: String,
    pub page: Option<u32>,
    /// The result file's name; empty for what was passed over.
    pub result: String,
    pub round: Option<u32>,
    pub table: Option<u32>,
    pub players: String,
    /// `ok`, `flagged`, `unreadable`, or `not_read` for what was passed over.
    pub status: String,
    pub errors: usize,
    pub warnings: usize,
    /// Why an input was passed over or taken from elsewhere; mostly empty.
    pub note: String,
}

impl Row {
    pub fn sheet(source: &Path, result: &str, sheet: &SheetResult) -> Self {
        let (errors, warnings) = flag_counts(sheet);
        Row {
            source: source.display().to_string(),
            page: sheet.page,
            result: result.to_string(),
            round: sheet.round,
            table: sheet.table,
            players: sheet
                .players
                .iter()
                .map(|p| p.clone().unwrap_or_default())
                .collect::<Vec<_>>()
                .join(";"),
            status: match sheet.status {
                Status::Ok => "ok",
                Status::Flagged => "flagged",
                Status::Unreadable => "unreadable",
            }
            .into(),
            errors,
            warnings,
            note: String::new(),
        }
    }

    /// An input that has no result, and why.
    pub fn passed_over(source: &Path, note: String) -> Self {
        Row {
            source: source.display().to_string(),
            page: None,
            result: String::new(),
            round: None,
            table: None,
            players: String::new(),
            status: "not_read".into(),
            errors: 0,
            warnings: 0,
            note,
        }
    }

    fn record(&self) -> [String; 10] {
        let num = |v: Option<u32>| v.map(|v| v.to_string()).unwrap_or_default();
        [
            self.source.clone(),
            num(self.page),
            self.result.clone(),
            num(self.round),
            num(self.table),
            self.players.clone(),
            self.status.clone(),
            self.errors.to_string(),
            self.warnings.to_string(),
            self.note.clone(),
        ]
    }

    fn from_record(r: &csv::StringRecord) -> Option<Self> {
        let get = |i: usize| r.get(i).unwrap_or_default().to_string();
        let num = |i: usize| get(i).parse().ok();
        Some(Row {
            source: r.get(0)?.to_string(),
            page: num(1),
            result: get(2),
            round: num(3),
            table: num(4),
            players: get(5),
            status: get(6),
            errors: num(7).unwrap_or(0) as usize,
            warnings: num(8).unwrap_or(0) as usize,
            note: get(9),
        })
    }
}

/// Counts of errors and warnings on a sheet.
pub fn flag_counts(sheet: &SheetResult) -> (usize, usize) {
    let errors = sheet.flags.iter().filter(|f| f.is_error()).count();
    (errors, sheet.flags.len() - errors)
}

/// The rows of an earlier summary (none when there is none or it is not one).
pub fn read(path: &Path) -> Vec<Row> {
    let Ok(mut reader) = csv::ReaderBuilder::new().flexible(true).from_path(path) else {
        return Vec::new();
    };
    reader
        .records()
        .filter_map(|r| r.ok().as_ref().and_then(Row::from_record))
        .collect()
}

/// Writes the summary: the earlier rows of sources this run did not read,
/// then this run's rows.
pub fn write(path: &Path, rows: &[Row]) -> std::io::Result<()> {
    let fresh: BTreeSet<&str> = rows.iter().map(|r| r.source.as_str()).collect();
    let kept: Vec<Row> = read(path)
        .into_iter()
        .filter(|r| !fresh.contains(r.source.as_str()))
        .collect();
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(HEADER)?;
    for row in kept.iter().chain(rows) {
        w.write_record(row.record())?;
    }
    let bytes = w.into_inner().map_err(|e| e.into_error())?;
    crate::night::files::write_whole(path, &bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(source: &str, status: &str) -> Row {
        let mut r = Row::passed_over(Path::new(source), String::new());
        r.status = status.into();
        r.result = format!("{source}.json");
        r
    }

    #[test]
    fn a_second_run_into_the_folder_should_keep_the_first_runs_rows() {
        let dir = tempfile::tempdir().expect("temp");
        let path = dir.path().join("summary.csv");
        write(&path, &[row("a.png", "ok"), row("b.png", "flagged")]).expect("first");
        write(&path, &[row("b.png", "ok"), row("c.png", "ok")]).expect("second");
        let rows = read(&path);
        let got: Vec<(&str, &str)> = rows
            .iter()
            .map(|r| (r.source.as_str(), r.status.as_str()))
            .collect();
        assert_eq!(got, [("a.png", "ok"), ("b.png", "ok"), ("c.png", "ok")]);
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .expect("dir")
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert_eq!(names, ["summary.csv"], "no temporary file left");
    }

    #[test]
    fn a_summary_of_an_older_version_should_be_read_without_its_note_column() {
        let dir = tempfile::tempdir().expect("temp");
        let path = dir.path().join("summary.csv");
        std::fs::write(
            &path,
            "source,page,result,round,table,players,status,errors,warnings\nx.png,1,x.json,1,7,1;2;3;4,ok,0,0\n",
        )
        .expect("write");
        let rows = read(&path);
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].table, Some(7));
        assert_eq!(rows[0].note, "");
    }
}
