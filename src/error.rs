//! Typed errors of the library. Each tells itself in the supervisor's
//! language ([`Tell`], worded in the catalogue); `Display` is the English.
//! The CLI adds context and prints them.

use crate::catalogue::{Tell, say};
use crate::check::messages::Lang;
use crate::page::unreadable::FileProblem;

pub use crate::page::template_error::{TemplateError, TemplateKind};

/// What is wrong with a field of a sheet result's shape.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShapeProblem {
    Schema {
        found: String,
    },
    Seats {
        seats: usize,
    },
    Entries {
        len: usize,
        seats: usize,
    },
    NotPlayerNo {
        id: String,
    },
    RowCells {
        row: u32,
        cells: usize,
        seats: usize,
    },
    RowZero,
    RowTwice {
        row: u32,
    },
    RowBeyond {
        row: u32,
    },
    /// A round or table number beyond what a sheet can hold.
    OutOfRange {
        n: u32,
    },
    FlagRow {
        row: u32,
    },
    FlagSeat {
        seat: usize,
        seats: usize,
    },
}

impl Tell for ShapeProblem {
    fn tell(&self, lang: Lang) -> String {
        let most = crate::sheet::MOST;
        match self {
            ShapeProblem::Schema { found } => say(
                lang,
                "shape-schema",
                &[("found", found), ("schema", &crate::sheet::SCHEMA)],
            ),
            ShapeProblem::Seats { seats } => say(lang, "shape-seats", &[("seats", seats)]),
            ShapeProblem::Entries { len, seats } => {
                say(lang, "shape-entries", &[("len", len), ("seats", seats)])
            }
            ShapeProblem::NotPlayerNo { id } => say(lang, "shape-not-player-no", &[("id", id)]),
            ShapeProblem::RowCells { row, cells, seats } => say(
                lang,
                "shape-row-cells",
                &[("row", row), ("cells", cells), ("seats", seats)],
            ),
            ShapeProblem::RowZero => say(lang, "shape-row-zero", &[]),
            ShapeProblem::RowTwice { row } => say(lang, "shape-row-twice", &[("row", row)]),
            ShapeProblem::RowBeyond { row } => {
                say(lang, "shape-row-beyond", &[("row", row), ("most", &most)])
            }
            ShapeProblem::OutOfRange { n } => {
                say(lang, "shape-out-of-range", &[("n", n), ("most", &most)])
            }
            ShapeProblem::FlagRow { row } => {
                say(lang, "shape-flag-row", &[("row", row), ("most", &most)])
            }
            ShapeProblem::FlagSeat { seat, seats } => {
                say(lang, "shape-flag-seat", &[("seat", seat), ("seats", seats)])
            }
        }
    }
}

/// A file that is not a usable sheet result.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.tell(Lang::En))]
pub enum SheetError {
    Read {
        file: String,
        problem: FileProblem,
    },
    Json {
        file: String,
        line: usize,
        field: String,
        message: String,
    },
    Shape {
        file: String,
        field: String,
        problem: ShapeProblem,
    },
    NotText {
        file: String,
    },
    SeatsForRules {
        used: usize,
        rules: String,
        max: usize,
    },
    TooFewSeats {
        seats: usize,
        rules: String,
        players: usize,
    },
}

impl Tell for SheetError {
    fn tell(&self, lang: Lang) -> String {
        match self {
            SheetError::Read { file, problem } => say(
                lang,
                "sheet-read",
                &[("file", file), ("problem", &problem.text(lang))],
            ),
            SheetError::Json {
                file,
                line,
                field,
                message,
            } => {
                let at = if field.is_empty() || field == "." {
                    String::new()
                } else {
                    say(lang, "template-field", &[("field", field)])
                };
                say(
                    lang,
                    "sheet-json",
                    &[
                        ("file", file),
                        ("line", line),
                        ("field", &at),
                        ("message", message),
                    ],
                )
            }
            SheetError::Shape {
                file,
                field,
                problem,
            } => say(
                lang,
                "sheet-shape",
                &[
                    ("file", file),
                    ("field", field),
                    ("message", &problem.tell(lang)),
                ],
            ),
            SheetError::NotText { file } => say(lang, "sheet-binary", &[("file", file)]),
            SheetError::SeatsForRules { used, rules, max } => say(
                lang,
                "sheet-seats-for-rules",
                &[("used", used), ("rules", rules), ("max", max)],
            ),
            SheetError::TooFewSeats {
                seats,
                rules,
                players,
            } => say(
                lang,
                "sheet-too-few-seats",
                &[("seats", seats), ("rules", rules), ("players", players)],
            ),
        }
    }
}

/// The archive file cannot be used.
#[derive(Debug, thiserror::Error)]
#[error("{}", self.tell(Lang::En))]
pub enum ArchiveError {
    Open {
        path: String,
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// Not a `source`: its text is already in the message, once.
    Sql(rusqlite::Error),
    /// A stored result that is no result.
    StoredResult(#[source] Box<SheetError>),
    /// What a PostgreSQL server answered to a statement.
    Postgres(postgres::Error),
    /// A PostgreSQL server that cannot be reached or refuses the login.
    Server {
        address: String,
        #[source]
        source: postgres::Error,
    },
    /// An archive to be read only, of another version than this release's.
    OtherVersion {
        path: String,
        version: i64,
        known: i64,
    },
    /// A night a push would send under a name the central archive holds
    /// for another venue's archive.
    OtherVenue(String),
    /// A venue's night pushed before under another name.
    PushedAs {
        night: String,
        as_: String,
    },
    /// A night whose every scan another night of the central archive
    /// already holds (the same papers from another archive file).
    ScansElsewhere {
        night: String,
        there: String,
    },
    /// An address that takes a connection and never answers as a
    /// PostgreSQL server does.
    ServerSilent(String),
    /// A server address that asks for TLS, which the program does not speak.
    ServerTls(String),
    /// A server's archive, which the program does not copy.
    ServerBackup(String),
    /// A column that does not hold what the archive wrote there.
    Column(usize),
    /// A night's stored date that is no date.
    BadDate(String),
    /// A night's kept form that is no form template.
    StoredForm {
        id: String,
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// A kept scan whose bytes cannot be read back.
    ScanRead(#[source] std::io::Error),
    NoTournament {
        name: String,
        names: String,
    },
    Empty,
    SeveralTournaments(String),
    NoSuchSheet(i64),
    /// A participant number on no sheet of the night.
    NoSuchPlayer(String),
    /// A night dated `had` given another date.
    DateDiffers {
        name: String,
        had: String,
        given: String,
    },
    /// An archive a newer release wrote: schema `version`, this one knows `known`.
    Newer {
        path: String,
        version: i64,
        known: i64,
    },
    Csv(#[source] csv::Error),
    /// A scan that could not be kept in the archive.
    Scan {
        path: String,
        #[source]
        source: std::io::Error,
    },
    /// An edit of version `yours` of a sheet that is at version `now`.
    Stale {
        id: i64,
        now: i64,
        yours: i64,
    },
    /// A decision the sheet as it stands cannot take: nothing stored.
    Refused(DecisionError),
    /// A reading that cannot read sheet `.0`, which stands readable.
    RereadUnreadable(i64),
    /// A copy of sheet `of` that cannot stand.
    CopyRefused {
        of: i64,
        why: CopyRefusal,
    },
    /// A stored record that is no record.
    Record(#[source] serde_json::Error),
    /// The sheet as a decision or reading would make it cannot be checked
    /// under the night's rules: nothing stored.
    Check(Box<SheetError>),
}

impl From<serde_json::Error> for ArchiveError {
    fn from(e: serde_json::Error) -> Self {
        ArchiveError::Record(e)
    }
}

/// Why a sheet cannot be a copy of another.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CopyRefusal {
    Itself,
    Missing,
    OtherNight,
    Unreadable,
    Void,
    /// The other sheet is itself a copy.
    IsCopy,
    /// Another sheet is a copy of this one.
    HasCopies,
}

/// Why a person's decision cannot be taken on a sheet.
#[derive(Debug, thiserror::Error)]
#[error("{}", self.tell(Lang::En))]
pub enum DecisionError {
    Edit(EditError),
    Power(PowerError),
}

impl From<EditError> for DecisionError {
    fn from(e: EditError) -> Self {
        DecisionError::Edit(e)
    }
}

impl From<PowerError> for DecisionError {
    fn from(e: PowerError) -> Self {
        DecisionError::Power(e)
    }
}

impl Tell for DecisionError {
    fn tell(&self, lang: Lang) -> String {
        match self {
            DecisionError::Edit(e) => e.tell(lang),
            DecisionError::Power(e) => e.tell(lang),
        }
    }
}

impl From<rusqlite::Error> for ArchiveError {
    fn from(e: rusqlite::Error) -> Self {
        ArchiveError::Sql(e)
    }
}

impl From<postgres::Error> for ArchiveError {
    fn from(e: postgres::Error) -> Self {
        ArchiveError::Postgres(e)
    }
}

impl From<csv::Error> for ArchiveError {
    fn from(e: csv::Error) -> Self {
        ArchiveError::Csv(e)
    }
}

impl Tell for ArchiveError {
    fn tell(&self, lang: Lang) -> String {
        match self {
            ArchiveError::Open { path, source } => {
                say(lang, "archive-open", &[("path", path), ("message", source)])
            }
            ArchiveError::Sql(e) => sql_cause(e, lang),
            ArchiveError::StoredResult(e) => {
                say(lang, "archive-corrupt", &[("message", &e.tell(lang))])
            }
            ArchiveError::Postgres(e) => server_cause(e, lang),
            ArchiveError::Server { address, source } => server_refused(address, source, lang),
            ArchiveError::OtherVersion {
                path,
                version,
                known,
            } => say(
                lang,
                "archive-other-version",
                &[("path", path), ("version", version), ("known", known)],
            ),
            ArchiveError::OtherVenue(night) => {
                say(lang, "archive-other-venue", &[("night", night)])
            }
            ArchiveError::PushedAs { night, as_ } => {
                say(lang, "archive-pushed-as", &[("night", night), ("as", as_)])
            }
            ArchiveError::ScansElsewhere { night, there } => say(
                lang,
                "archive-scans-elsewhere",
                &[("night", night), ("there", there)],
            ),
            ArchiveError::ServerSilent(address) => {
                say(lang, "archive-server-silent", &[("address", address)])
            }
            ArchiveError::ServerTls(address) => {
                say(lang, "archive-server-tls", &[("address", address)])
            }
            ArchiveError::ServerBackup(address) => {
                say(lang, "archive-server-backup", &[("address", address)])
            }
            ArchiveError::Column(i) => say(lang, "archive-column", &[("column", &(i + 1))]),
            ArchiveError::BadDate(text) => say(lang, "archive-bad-date", &[("date", text)]),
            ArchiveError::StoredForm { id, source } => say(
                lang,
                "archive-stored-form",
                &[("form", id), ("message", source)],
            ),
            ArchiveError::ScanRead(e) => say(lang, "archive-scan-read", &[("message", e)]),
            ArchiveError::NoTournament { name, names } => say(
                lang,
                "archive-no-such-tournament",
                &[("name", name), ("names", names)],
            ),
            ArchiveError::Empty => say(lang, "archive-empty", &[]),
            ArchiveError::SeveralTournaments(names) => {
                say(lang, "archive-several", &[("names", names)])
            }
            ArchiveError::NoSuchSheet(id) => say(lang, "archive-no-such-sheet", &[("id", id)]),
            ArchiveError::NoSuchPlayer(p) => say(lang, "archive-no-such-player", &[("player", p)]),
            ArchiveError::DateDiffers { name, had, given } => say(
                lang,
                "archive-date-differs",
                &[("name", name), ("had", had), ("given", given)],
            ),
            ArchiveError::Newer {
                path,
                version,
                known,
            } => say(
                lang,
                "archive-newer",
                &[("path", path), ("version", version), ("known", known)],
            ),
            ArchiveError::Stale { id, now, yours } => say(
                lang,
                "edit-stale",
                &[("id", id), ("now", now), ("yours", yours)],
            ),
            ArchiveError::Refused(e) => e.tell(lang),
            ArchiveError::RereadUnreadable(id) => say(lang, "reread-unreadable", &[("id", id)]),
            ArchiveError::CopyRefused { of, why } => {
                let key = match why {
                    CopyRefusal::Itself => "power-copy-of-itself",
                    CopyRefusal::Missing => "copy-missing",
                    CopyRefusal::OtherNight => "power-copy-other-night",
                    CopyRefusal::Unreadable => "copy-unreadable",
                    CopyRefusal::Void => "copy-void",
                    CopyRefusal::IsCopy => "copy-is-copy",
                    CopyRefusal::HasCopies => "copy-has-copies",
                };
                say(lang, key, &[("of", of)])
            }
            ArchiveError::Record(e) => say(lang, "archive-corrupt", &[("message", e)]),
            ArchiveError::Check(e) => e.tell(lang),
            ArchiveError::Csv(e) => say(lang, "archive-csv", &[("message", e)]),
            ArchiveError::Scan { path, source } => {
                say(lang, "archive-scan", &[("path", path), ("message", source)])
            }
        }
    }
}

/// What stops a work over the club's nights: the archive, or a night's
/// rule set.
#[derive(Debug, thiserror::Error)]
#[error("{}", self.tell(Lang::En))]
pub enum ClubError {
    Archive(#[from] ArchiveError),
    Rules(#[from] TemplateError),
}

impl Tell for ClubError {
    fn tell(&self, lang: Lang) -> String {
        match self {
            ClubError::Archive(e) => e.tell(lang),
            ClubError::Rules(e) => e.tell(lang),
        }
    }
}

/// What an SQLite error means for the person who runs the command.
fn sql_cause(e: &rusqlite::Error, lang: Lang) -> String {
    use rusqlite::ErrorCode as C;
    let id = match e.sqlite_error_code() {
        Some(C::DatabaseBusy | C::DatabaseLocked) => "archive-busy",
        Some(C::NotADatabase) => "archive-not-archive",
        Some(C::DiskFull) => "archive-disk-full",
        Some(C::ReadOnly | C::PermissionDenied | C::CannotOpen) => "archive-read-only",
        _ => return say(lang, "archive-sql", &[("message", e)]),
    };
    say(lang, id, &[])
}

/// What a PostgreSQL server's refusal of a statement means.
fn server_cause(e: &postgres::Error, lang: Lang) -> String {
    use postgres::error::SqlState;
    let gone = [
        SqlState::ADMIN_SHUTDOWN,
        SqlState::CRASH_SHUTDOWN,
        SqlState::CANNOT_CONNECT_NOW,
    ];
    let io = std::error::Error::source(e).is_some_and(|s| s.is::<std::io::Error>());
    if e.is_closed() || io || e.code().is_some_and(|c| gone.contains(c)) {
        return say(lang, "archive-server-gone", &[]);
    }
    if e.code() == Some(&SqlState::UNIQUE_VIOLATION) {
        return say(lang, "archive-server-conflict", &[]);
    }
    if e.code() == Some(&SqlState::LOCK_NOT_AVAILABLE) {
        return say(lang, "archive-server-waited", &[]);
    }
    let message = match e.as_db_error() {
        Some(d) => format!("{} ({})", d.message(), d.code().code()),
        None => e.to_string(),
    };
    say(lang, "archive-sql", &[("message", &message)])
}

/// Why a PostgreSQL server could not be used at all.
fn server_refused(address: &str, e: &postgres::Error, lang: Lang) -> String {
    use postgres::error::SqlState;
    let id = match e.code() {
        Some(c)
            if *c == SqlState::INVALID_PASSWORD
                || *c == SqlState::INVALID_AUTHORIZATION_SPECIFICATION =>
        {
            "archive-server-login"
        }
        Some(c) if *c == SqlState::INVALID_CATALOG_NAME => "archive-server-no-database",
        Some(_) => {
            let message = e
                .as_db_error()
                .map(|d| d.message().to_string())
                .unwrap_or_default();
            return say(
                lang,
                "archive-server-refused",
                &[("address", &address), ("message", &message)],
            );
        }
        // The client's own words: the server asked for a password that
        // neither the address, PGPASSWORD nor the password file gives.
        None if std::error::Error::source(e)
            .is_some_and(|s| s.to_string() == "password missing") =>
        {
            "archive-server-no-password"
        }
        None => "archive-server-unreachable",
    };
    say(lang, id, &[("address", &address)])
}

/// A participant list that cannot be used.
#[derive(Debug, thiserror::Error)]
#[error("{}", self.tell(Lang::En))]
pub enum ParticipantsError {
    Read {
        path: String,
        problem: FileProblem,
    },
    Empty {
        path: String,
    },
    /// A list with a header that does not pass its checks.
    List {
        path: String,
        #[source]
        error: RosterError,
    },
}

/// What is wrong with a participant list (a CSV with a header); lines
/// are counted from 1, the header's included.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.tell(Lang::En))]
pub enum RosterError {
    /// The header has no column of this name.
    NoColumn { column: &'static str },
    /// A number that is not 1 to 6 digits.
    BadNumber { line: usize, number: String },
    /// A number the list already holds (leading zeros aside) at `first`.
    Duplicate {
        line: usize,
        first: usize,
        number: String,
    },
    /// A line the CSV reader cannot take apart.
    Csv { line: usize, message: String },
}

impl Tell for RosterError {
    fn tell(&self, lang: Lang) -> String {
        match self {
            RosterError::NoColumn { column } => {
                say(lang, "roster-no-column", &[("column", column)])
            }
            RosterError::BadNumber { line, number } => say(
                lang,
                "roster-bad-number",
                &[("line", line), ("number", number)],
            ),
            RosterError::Duplicate {
                line,
                first,
                number,
            } => say(
                lang,
                "roster-duplicate",
                &[("line", line), ("first", first), ("number", number)],
            ),
            RosterError::Csv { line, message } => {
                say(lang, "roster-csv", &[("line", line), ("message", message)])
            }
        }
    }
}

impl Tell for ParticipantsError {
    fn tell(&self, lang: Lang) -> String {
        match self {
            ParticipantsError::Read { path, problem } => say(
                lang,
                "participants-read",
                &[("path", path), ("problem", &problem.text(lang))],
            ),
            ParticipantsError::Empty { path } => say(lang, "participants-empty", &[("path", path)]),
            ParticipantsError::List { path, error } => say(
                lang,
                "participants-list",
                &[("path", path), ("problem", &error.tell(lang))],
            ),
        }
    }
}

/// A draw the participant count does not allow.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.tell(Lang::En))]
pub enum DrawError {
    /// Fewer players than the smallest table seats.
    TooFew { players: usize, least: usize },
    /// A count the rule set's tables cannot seat: `add` more players or
    /// `remove` fewer would do.
    Uneven {
        players: usize,
        add: usize,
        remove: usize,
    },
}

impl Tell for DrawError {
    fn tell(&self, lang: Lang) -> String {
        match self {
            DrawError::TooFew { players, least } => say(
                lang,
                "draw-too-few",
                &[("players", players), ("least", least)],
            ),
            DrawError::Uneven {
                players,
                add,
                remove,
            } => say(
                lang,
                "draw-uneven",
                &[("players", players), ("add", add), ("remove", remove)],
            ),
        }
    }
}

/// A seating file that cannot be used (lines from 1, the header's included).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.tell(Lang::En))]
pub enum SeatingError {
    /// The first line is not `round,table,seat,player`.
    Header,
    /// A line that is not four numbers from 1 (the player's digits).
    Row { line: usize },
    /// A seat taken twice, or a player seated twice in one round.
    Twice { line: usize },
    /// A round, table or seat left out between others.
    Gap,
}

impl Tell for SeatingError {
    fn tell(&self, lang: Lang) -> String {
        match self {
            SeatingError::Header => say(lang, "seating-header", &[]),
            SeatingError::Row { line } => say(lang, "seating-row", &[("line", line)]),
            SeatingError::Twice { line } => say(lang, "seating-twice", &[("line", line)]),
            SeatingError::Gap => say(lang, "seating-gap", &[]),
        }
    }
}

/// An edit the review desk refuses: nothing is stored.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.tell(Lang::En))]
pub enum EditError {
    /// Not a path the contract names.
    Path(String),
    /// A seat the sheet does not have.
    Seat { path: String, seats: usize },
    /// A value that cannot stand there: `wanted` says what can.
    Value {
        path: String,
        value: String,
        wanted: ValueKind,
    },
}

/// What a value path takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueKind {
    /// A number from 0 (game and footer cells; round and table from 1).
    Unsigned,
    /// A number with its sign (the Endergebnis).
    Signed,
    /// A participant number: 1 to 6 digits.
    Digits,
}

impl Tell for EditError {
    fn tell(&self, lang: Lang) -> String {
        match self {
            EditError::Path(path) => say(lang, "edit-bad-path", &[("path", path)]),
            EditError::Seat { path, seats } => {
                say(lang, "edit-bad-seat", &[("path", path), ("seats", seats)])
            }
            EditError::Value {
                path,
                value,
                wanted,
            } => {
                let id = match wanted {
                    ValueKind::Signed => "edit-bad-signed",
                    ValueKind::Digits => "edit-bad-digits",
                    ValueKind::Unsigned => "edit-bad-unsigned",
                };
                say(lang, id, &[("path", path), ("value", value)])
            }
        }
    }
}

/// A supervisor's act the desk refuses: nothing is stored.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.tell(Lang::En))]
pub enum PowerError {
    /// The sheet has no game row of that number.
    NoSuchRow(u32),
    /// A sheet is declared invalid only with a reason.
    NoReason,
    /// No footer value of the sheet at that seat and field.
    NoSuchField { seat: usize, field: String },
    /// Initials name a game row, or a seat and a footer field: not both, not neither.
    RowOrField,
    /// A sheet is no copy of itself.
    CopyOfItself,
    /// What counts instead of what is written is said only with a reason.
    NoCountReason,
}

impl Tell for PowerError {
    fn tell(&self, lang: Lang) -> String {
        match self {
            PowerError::NoSuchRow(row) => say(lang, "power-no-row", &[("row", row)]),
            PowerError::NoReason => say(lang, "power-no-reason", &[]),
            PowerError::NoSuchField { seat, field } => {
                say(lang, "power-no-field", &[("seat", seat), ("field", field)])
            }
            PowerError::RowOrField => say(lang, "power-row-or-field", &[]),
            PowerError::CopyOfItself => say(lang, "power-copy-of-itself", &[]),
            PowerError::NoCountReason => say(lang, "counts-no-reason", &[]),
        }
    }
}

/// An answer to a question the desk refuses: nothing is stored.
#[derive(Debug, thiserror::Error)]
#[error("{}", self.tell(Lang::En))]
pub enum QuestionError {
    /// No question of the night has this id now: answered, or its cells
    /// changed since it was asked.
    Stale(String),
    /// A cell answered alone is not one of the question's.
    NotAsked {
        sheet: i64,
        path: String,
    },
    /// An answer names a value, or its cells, not both, not neither.
    ValueOrCells,
    Archive(#[from] ArchiveError),
    /// The reader that reads the hand again could not be made.
    Reader(#[from] crate::read::ReaderError),
}

impl Tell for QuestionError {
    fn tell(&self, lang: Lang) -> String {
        match self {
            QuestionError::Stale(id) => say(lang, "question-stale", &[("id", id)]),
            QuestionError::NotAsked { sheet, path } => say(
                lang,
                "question-not-asked",
                &[("sheet", sheet), ("path", path)],
            ),
            QuestionError::ValueOrCells => say(lang, "question-value-or-cells", &[]),
            QuestionError::Archive(e) => e.tell(lang),
            QuestionError::Reader(e) => e.tell(lang),
        }
    }
}
