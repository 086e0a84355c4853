//! Typed errors of the library. The CLI adds context and prints them.

use std::path::PathBuf;

/// A rule set or form template that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum TemplateError {
    #[error("cannot read {}", file.display())]
    Read {
        file: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// Names the file, the line (when known) and the field.
    #[error("{file}:{}: {}{message}", line.map_or("?".to_string(), |l| l.to_string()), if field.is_empty() { String::new() } else { format!("field `{field}`: ") })]
    Invalid {
        file: String,
        line: Option<usize>,
        field: String,
        message: String,
    },
    #[error("unknown {what} \"{name}\": use one of {known}, or the path of a {what} file")]
    Unknown {
        what: &'static str,
        name: String,
        known: String,
    },
}

/// A file that is not a usable sheet result.
#[derive(Debug, thiserror::Error)]
pub enum SheetError {
    #[error("cannot read {file}")]
    Read {
        file: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{file}:{line}: not a sheet result ({at}{message})", at = if field.is_empty() || field == "." { String::new() } else { format!("field `{field}`: ") })]
    Json {
        file: String,
        line: usize,
        field: String,
        message: String,
    },
    #[error("{file}: not a sheet result: field `{field}` {message}")]
    Shape {
        file: String,
        field: String,
        message: String,
    },
    #[error("{file}: not a sheet result (binary data, not JSON text)")]
    NotText { file: String },
    #[error(
        "the sheet uses {used} seats but rule set `{rules}` is for tables of at most {max}: check --rules"
    )]
    SeatsForRules {
        used: usize,
        rules: String,
        max: usize,
    },
    #[error(
        "the sheet has {seats} seat columns but rule set `{rules}` needs a table of {players}: check --rules"
    )]
    TooFewSeats {
        seats: usize,
        rules: String,
        players: usize,
    },
}

/// The archive file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ArchiveError {
    #[error("cannot open the archive {path}: {message} (give another --archive file)")]
    Open { path: String, message: String },
    /// Not a `source`: its text is already in the message, once.
    #[error("archive: {}", sql_cause(.0))]
    Sql(rusqlite::Error),
    #[error("archive: a stored result cannot be read back: {0}")]
    Corrupt(String),
    #[error("archive: {0}")]
    NoTournament(String),
    #[error("archive: no sheet with id {0}")]
    NoSuchSheet(i64),
    #[error("archive: cannot write CSV: {0}")]
    Csv(#[from] csv::Error),
}

/// A participant list that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ParticipantsError {
    #[error("cannot read the participant list {path}")]
    Read {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error(
        "{path}: no participant numbers in it (one number per line, or a CSV with the numbers in its first column)"
    )]
    Empty { path: String },
}

impl From<rusqlite::Error> for ArchiveError {
    fn from(e: rusqlite::Error) -> Self {
        ArchiveError::Sql(e)
    }
}

/// What an SQLite error means for the person who runs the command.
fn sql_cause(e: &rusqlite::Error) -> String {
    use rusqlite::ErrorCode as C;
    match e.sqlite_error_code() {
        Some(C::DatabaseBusy | C::DatabaseLocked) => {
            "another program (a scan, `correct` or the review service) has kept the archive busy for two minutes: try again when it is done".into()
        }
        Some(C::NotADatabase) => {
            "the file is not an aufsicht archive (give another --archive file)".into()
        }
        Some(C::DiskFull) => "the disk is full: make room and run the same command again".into(),
        Some(C::ReadOnly | C::PermissionDenied | C::CannotOpen) => {
            "the archive or its folder cannot be written (read-only?): give another --archive file".into()
        }
        _ => e.to_string(),
    }
}
