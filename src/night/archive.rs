//! The archive: every sheet of every night in one SQLite file, so that a
//! complaint weeks later can be answered from what was read, what was
//! flagged and who corrected what.
//!
//! `SheetResult`s (with the image's SHA-256) → [`Archive`] → the contract's
//! JSON and CSV again ([`Archive::sheets`], [`Archive::write_values_csv`]).
//!
//! Each input file is stored in one transaction with all its pages: a batch
//! killed midway leaves whole files or none, and the next run skips what is
//! stored (same image bytes: same SHA-256).

use std::path::Path;

use chrono::NaiveDate;
use rusqlite::{Connection, OptionalExtension, params};
use sha2::{Digest, Sha256};

use crate::error::ArchiveError;
use crate::night::names::Names;
use crate::sheet::SheetResult;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS tournaments (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    rules TEXT NOT NULL,
    created TEXT NOT NULL DEFAULT (datetime('now'))
);
CREATE TABLE IF NOT EXISTS rounds (
    id INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    number INTEGER NOT NULL,
    UNIQUE (tournament_id, number)
);
CREATE TABLE IF NOT EXISTS sheets (
    id INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    round_id INTEGER REFERENCES rounds(id),
    source TEXT NOT NULL,
    page INTEGER NOT NULL,
    sha256 TEXT NOT NULL,
    form TEXT,
    rules TEXT,
    status TEXT NOT NULL,
    fit REAL,
    table_no INTEGER,
    result_json TEXT NOT NULL,
    result_file TEXT,
    scanned TEXT NOT NULL DEFAULT (datetime('now')),
    UNIQUE (tournament_id, sha256, page)
);
CREATE TABLE IF NOT EXISTS players (
    sheet_id INTEGER NOT NULL REFERENCES sheets(id),
    seat INTEGER NOT NULL,
    participant TEXT,
    PRIMARY KEY (sheet_id, seat)
);
CREATE TABLE IF NOT EXISTS sheet_values (
    sheet_id INTEGER NOT NULL REFERENCES sheets(id),
    field TEXT NOT NULL,
    value INTEGER,
    PRIMARY KEY (sheet_id, field)
);
CREATE TABLE IF NOT EXISTS flags (
    sheet_id INTEGER NOT NULL REFERENCES sheets(id),
    code TEXT NOT NULL,
    severity TEXT NOT NULL,
    row_no INTEGER,
    seat INTEGER,
    field TEXT,
    message TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS corrections (
    id INTEGER PRIMARY KEY,
    sheet_id INTEGER NOT NULL REFERENCES sheets(id),
    field TEXT NOT NULL,
    old_value TEXT,
    new_value TEXT,
    who TEXT NOT NULL,
    at TEXT NOT NULL DEFAULT (datetime('now'))
);
";

mod check;
mod scans;

pub use check::{Checked, Damage};
pub use scans::MAX_KEPT_SCAN;

/// The schema version this release writes: how many migrations it knows.
pub const SCHEMA_VERSION: usize = 5;

/// The archive's migrations, in order; the archive's `user_version` says
/// how many ran. The first is the schema as it stood before versions:
/// an archive of that time holds its tables already, so its statements
/// create only what is missing, and its hook adds the columns that were
/// added by hand before. Every migration may run twice: two processes
/// that open an older archive at once both read its version before
/// either writes, and the second runs after the first.
fn migrations() -> rusqlite_migration::Migrations<'static> {
    let ms = vec![
        rusqlite_migration::M::up_with_hook(SCHEMA, |tx: &rusqlite::Transaction| {
            add_column(tx, "sheets", "result_file", "TEXT")?;
            // Counts the corrections stored: an edit made on an older version is refused.
            add_column(tx, "sheets", "version", "INTEGER NOT NULL DEFAULT 0")
        }),
        // A night's date (YYYY-MM-DD), for the season.
        rusqlite_migration::M::up_with_hook("", |tx: &rusqlite::Transaction| {
            add_column(tx, "tournaments", "date", "TEXT")
        }),
        // The scans themselves, by content, and each stored result's hash
        // (what `archive check` holds them to).
        rusqlite_migration::M::up_with_hook(
            "CREATE TABLE IF NOT EXISTS scans (
                sha256 TEXT PRIMARY KEY,
                size INTEGER NOT NULL,
                bytes BLOB NOT NULL
            );",
            |tx: &rusqlite::Transaction| {
                add_column(tx, "sheets", "result_sha256", "TEXT")?;
                hash_results(tx)
            },
        ),
        // Every queue count and re-verification reads a sheet's flags and
        // corrections; the season's archive only grows.
        // And every timestamp in one format, RFC 3339 (SQLite's defaults
        // wrote `YYYY-MM-DD HH:MM:SS`, in UTC too).
        rusqlite_migration::M::up(
            "CREATE INDEX IF NOT EXISTS flags_by_sheet ON flags (sheet_id);
             CREATE INDEX IF NOT EXISTS corrections_by_sheet ON corrections (sheet_id);
             UPDATE corrections SET at = replace(at, ' ', 'T') || 'Z' WHERE at LIKE '____-__-__ __:__:__';
             UPDATE sheets SET scanned = replace(scanned, ' ', 'T') || 'Z' WHERE scanned LIKE '____-__-__ __:__:__';
             UPDATE tournaments SET created = replace(created, ' ', 'T') || 'Z' WHERE created LIKE '____-__-__ __:__:__';",
        ),
        // Each night's participants list (number by value, name): every
        // page shows the name beside the number.
        rusqlite_migration::M::up(
            "CREATE TABLE IF NOT EXISTS names (
                tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
                number TEXT NOT NULL,
                name TEXT NOT NULL,
                PRIMARY KEY (tournament_id, number)
            );",
        ),
    ];
    debug_assert_eq!(ms.len(), SCHEMA_VERSION);
    rusqlite_migration::Migrations::new(ms)
}

/// Sets the hash of every stored result that has none.
fn hash_results(tx: &rusqlite::Transaction) -> rusqlite_migration::HookResult {
    let rows: Vec<(i64, String)> = tx
        .prepare("SELECT id, result_json FROM sheets WHERE result_sha256 IS NULL")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    for (id, json) in rows {
        tx.execute(
            "UPDATE sheets SET result_sha256 = ?2 WHERE id = ?1",
            params![id, text_sha256(&json)],
        )?;
    }
    Ok(())
}

/// The SHA-256 of a text, as hex.
fn text_sha256(text: &str) -> String {
    hex(&Sha256::digest(text.as_bytes()))
}

/// Adds a column to a table that lacks it.
fn add_column(
    tx: &rusqlite::Transaction,
    table: &str,
    column: &str,
    declared: &str,
) -> rusqlite_migration::HookResult {
    let has: i64 = tx.query_row(
        "SELECT count(*) FROM pragma_table_info(?1) WHERE name = ?2",
        params![table, column],
        |r| r.get(0),
    )?;
    if has == 0 {
        tx.execute_batch(&format!(
            "ALTER TABLE {table} ADD COLUMN {column} {declared}"
        ))?;
    }
    Ok(())
}

fn migration_error(e: rusqlite_migration::Error) -> ArchiveError {
    match e {
        rusqlite_migration::Error::RusqliteError { err, .. } => ArchiveError::Sql(err),
        other => ArchiveError::Migration(other),
    }
}

/// How long a write waits for another process's write to finish.
const BUSY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(120);

/// Runs `f` again while SQLite says the database is busy where it does not
/// wait itself (a change of journal mode while another process opens it).
fn while_busy<T>(mut f: impl FnMut() -> Result<T, rusqlite::Error>) -> Result<T, rusqlite::Error> {
    let start = std::time::Instant::now();
    loop {
        match f() {
            Err(e)
                if e.sqlite_error_code() == Some(rusqlite::ErrorCode::DatabaseBusy)
                    && start.elapsed() < BUSY_TIMEOUT =>
            {
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            other => return other,
        }
    }
}

/// The SHA-256 of a file's bytes, as hex.
pub fn sha256_file(path: &Path) -> Result<String, std::io::Error> {
    use std::io::Read;
    // In pieces: a file of gigabytes must not be held whole to be hashed.
    let mut file = std::fs::File::open(path)?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        match file.read(&mut buf)? {
            0 => break,
            n => hasher.update(&buf[..n]),
        }
    }
    Ok(hex(&hasher.finalize()))
}

/// A date as the archive stores it (`YYYY-MM-DD`), read back.
fn stored_date(text: &str) -> Result<NaiveDate, ArchiveError> {
    NaiveDate::parse_from_str(text, "%Y-%m-%d").map_err(|_| ArchiveError::BadDate(text.to_string()))
}

/// The time now as the archive writes every timestamp: RFC 3339, UTC, to
/// the second (`2026-11-28T10:33:41Z`).
pub fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// The SHA-256 of bytes in memory (hex), as [`sha256_file`] gives a file's.
pub fn hex_sha256(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// One value that changed in a correction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Correction {
    pub field: String,
    pub old: Option<String>,
    pub new: Option<String>,
}

/// A sheet as the review queue lists it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct QueueEntry {
    pub id: i64,
    pub source: String,
    pub round: Option<u32>,
    pub table: Option<u32>,
    /// `ok`, `flagged` or `unreadable`, as the result says.
    pub status: String,
    pub flags: i64,
    pub version: i64,
}

/// A person's edit of one stored sheet.
pub struct Edit<'a> {
    /// The sheet as corrected and verified again.
    pub corrected: &'a SheetResult,
    pub who: &'a str,
    /// The archive fields looked at and kept as written.
    pub looked_at: &'a [String],
    /// The version the person edited; `None` takes any.
    pub version: Option<i64>,
}

/// A stored sheet: its archive id, image hash and result.
#[derive(Debug, Clone)]
pub struct StoredSheet {
    pub id: i64,
    pub sha256: String,
    pub result: SheetResult,
    /// The name of the result file the scan wrote (archives of older
    /// versions do not know it).
    pub result_file: Option<String>,
    /// How many corrections it has had: an edit names the version it changed.
    pub version: i64,
}

impl StoredSheet {
    /// The sheet as a ranking takes it: the name it goes by (its source,
    /// else its archive id) and its result.
    pub fn into_named(self) -> (String, SheetResult) {
        let name = self
            .result
            .source
            .clone()
            .unwrap_or_else(|| format!("sheet-{}", self.id));
        (name, self.result)
    }
}

/// A night (tournament) of the archive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Night {
    pub id: i64,
    pub name: String,
    /// Its date, where the scan gave one (stored as `YYYY-MM-DD`).
    pub date: Option<NaiveDate>,
    /// The rule set it was scanned with.
    pub rules: String,
}

impl Night {
    /// Whether it lies in the dates `from` to `to` (both included, either
    /// open). Without bounds every night does; with one, an undated night
    /// does not.
    pub fn within(&self, from: Option<NaiveDate>, to: Option<NaiveDate>) -> bool {
        match (from, to, self.date) {
            (None, None, _) => true,
            (_, _, None) => false,
            (from, to, Some(d)) => from.is_none_or(|f| d >= f) && to.is_none_or(|t| d <= t),
        }
    }

    /// Its name, with its date where it has one: how a person picks it.
    pub fn label(&self) -> String {
        match &self.date {
            Some(date) => format!("{} ({date})", self.name),
            None => self.name.clone(),
        }
    }
}

/// One entry of a sheet's trail.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Change {
    pub field: String,
    pub old: Option<String>,
    pub new: Option<String>,
    pub by: String,
    pub at: String,
    pub kind: ChangeKind,
}

/// What a trail entry records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ChangeKind {
    /// A value changed.
    Correction,
    /// A value looked at and left as written.
    Kept,
    /// The supervisor initialled a game row, or took it back.
    Initials,
    /// The supervisor declared the sheet invalid, or valid again.
    Verdict,
}

impl ChangeKind {
    fn of(field: &str, old: &Option<String>, new: &Option<String>) -> Self {
        if field.ends_with(".supervisor_initials") {
            ChangeKind::Initials
        } else if field == "void" {
            ChangeKind::Verdict
        } else if old == new {
            ChangeKind::Kept
        } else {
            ChangeKind::Correction
        }
    }
}

pub struct Archive {
    conn: Connection,
}

impl Archive {
    /// Opens (or creates) the archive file.
    pub fn open(path: &Path) -> Result<Self, ArchiveError> {
        let conn = Connection::open(path).map_err(|e| ArchiveError::Open {
            path: path.display().to_string(),
            source: e.into(),
        })?;
        // Several processes write at once (scans, `correct`, the review
        // service): each waits its turn rather than failing.
        conn.busy_timeout(BUSY_TIMEOUT)?;
        // WAL: a killed writer leaves the last committed state readable,
        // and readers never wait for a writer. Switching to it does not
        // wait for the busy timeout: it is retried.
        while_busy(|| conn.pragma_update(None, "journal_mode", "WAL"))?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        let mut archive = Archive { conn };
        archive.create_schema(path)?;
        Ok(archive)
    }

    /// Brings the schema to this release's version (SQLite's
    /// `user_version`, kept by `rusqlite_migration`), all migrations in
    /// one transaction, after a backup of an archive that holds data. An
    /// archive of a newer release is refused, untouched.
    fn create_schema(&mut self, path: &Path) -> Result<(), ArchiveError> {
        let migrations = migrations();
        let pending = migrations
            .pending_migrations(&self.conn)
            .map_err(migration_error)?;
        if pending < 0 {
            return Err(ArchiveError::Newer {
                path: path.display().to_string(),
                version: SCHEMA_VERSION as i64 - i64::from(pending),
                known: SCHEMA_VERSION as i64,
            });
        }
        if pending > 0 && self.holds_data()? {
            self.back_up_before_migrating(path)?;
        }
        // Takes the write lock at once: two processes opening an older
        // archive migrate one after the other.
        self.conn
            .set_transaction_behavior(rusqlite::TransactionBehavior::Immediate);
        migrations
            .to_latest(&mut self.conn)
            .map_err(migration_error)?;
        self.conn
            .set_transaction_behavior(rusqlite::TransactionBehavior::Deferred);
        Ok(())
    }

    /// Whether the file already holds an archive's tables.
    fn holds_data(&self) -> Result<bool, ArchiveError> {
        Ok(self.conn.query_row(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'sheets'",
            [],
            |r| r.get::<_, i64>(0).map(|n| n > 0),
        )?)
    }

    /// A copy of the archive as it is, beside it (`NAME.vN.bak`, N its
    /// schema version).
    fn back_up_before_migrating(&self, path: &Path) -> Result<(), ArchiveError> {
        let version: i64 = self
            .conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))?;
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        self.backup_to(&path.with_file_name(format!("{name}.v{version}.bak")))
    }

    /// SQLite's online backup of the archive into `to` (replaced), made in
    /// a temporary file beside it and renamed when whole: a kill leaves
    /// `to` as it was. The temporary file is the process's own, so two
    /// processes backing up at once each write their own copy.
    pub fn backup_to(&self, to: &Path) -> Result<(), ArchiveError> {
        let failed = |e: Box<dyn std::error::Error + Send + Sync>| ArchiveError::Open {
            path: to.display().to_string(),
            source: e,
        };
        let part = crate::night::files::temp_beside(to).map_err(|e| failed(e.into()))?;
        let mut copy = Connection::open(part.path()).map_err(|e| failed(e.into()))?;
        let backup = rusqlite::backup::Backup::new(&self.conn, &mut copy)?;
        backup.run_to_completion(256, std::time::Duration::from_millis(5), None)?;
        drop(backup);
        copy.pragma_update(None, "journal_mode", "DELETE")?;
        drop(copy);
        crate::night::files::persist_synced(part, to).map_err(|e| failed(e.into()))
    }

    /// A transaction that takes the write lock at once: one that read first
    /// and then wrote would fail where another process wrote in between.
    fn write(&mut self) -> Result<rusqlite::Transaction<'_>, ArchiveError> {
        Ok(self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?)
    }

    /// The tournament's id, created on first use.
    pub fn tournament(&self, name: &str, rules: &str) -> Result<i64, ArchiveError> {
        self.conn.execute(
            "INSERT OR IGNORE INTO tournaments (name, rules, created) VALUES (?1, ?2, ?3)",
            params![name, rules, now()],
        )?;
        Ok(self.conn.query_row(
            "SELECT id FROM tournaments WHERE name = ?1",
            params![name],
            |r| r.get(0),
        )?)
    }

    /// The tournament's date, where one was given.
    pub fn date_of(&self, tournament: i64) -> Result<Option<NaiveDate>, ArchiveError> {
        let text: Option<String> = self.conn.query_row(
            "SELECT date FROM tournaments WHERE id = ?1",
            params![tournament],
            |r| r.get(0),
        )?;
        text.as_deref().map(stored_date).transpose()
    }

    /// Dates the tournament. A night keeps its date: another one is
    /// refused, nothing changed.
    pub fn date(&self, tournament: i64, date: NaiveDate) -> Result<(), ArchiveError> {
        match self.date_of(tournament)? {
            Some(had) if had != date => {
                let name: String = self.conn.query_row(
                    "SELECT name FROM tournaments WHERE id = ?1",
                    params![tournament],
                    |r| r.get(0),
                )?;
                Err(ArchiveError::DateDiffers {
                    name,
                    had: had.to_string(),
                    given: date.to_string(),
                })
            }
            Some(_) => Ok(()),
            None => {
                self.conn.execute(
                    "UPDATE tournaments SET date = ?2 WHERE id = ?1",
                    params![tournament, date.to_string()],
                )?;
                Ok(())
            }
        }
    }

    /// The archive's nights, dated ones in date order, then undated ones,
    /// each by name.
    pub fn nights(&self) -> Result<Vec<Night>, ArchiveError> {
        let mut stmt = self.conn.prepare(
            "SELECT id, name, date, rules FROM tournaments ORDER BY date IS NULL, date, name",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get::<_, Option<String>>(2)?,
                r.get(3)?,
            ))
        })?;
        let mut nights = Vec::new();
        for row in rows {
            let (id, name, date, rules) = row?;
            let date = date.as_deref().map(stored_date).transpose()?;
            nights.push(Night {
                id,
                name,
                date,
                rules,
            });
        }
        Ok(nights)
    }

    /// The night a desk opens on without being told: the latest dated
    /// one, else the one stored last.
    pub fn newest_night(&self) -> Result<i64, ArchiveError> {
        let nights = self.nights()?;
        let dated = nights
            .iter()
            .filter(|n| n.date.is_some())
            .max_by_key(|n| (n.date, n.id));
        let newest = dated.or_else(|| nights.iter().max_by_key(|n| n.id));
        newest.map(|n| n.id).ok_or(ArchiveError::Empty)
    }

    /// How many sheets each night holds, by the night's id.
    pub fn sheet_counts(&self) -> Result<std::collections::HashMap<i64, usize>, ArchiveError> {
        let mut stmt = self
            .conn
            .prepare("SELECT tournament_id, COUNT(*) FROM sheets GROUP BY tournament_id")?;
        let rows = stmt.query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?)))?;
        let mut counts = std::collections::HashMap::new();
        for row in rows {
            let (night, n) = row?;
            counts.insert(night, usize::try_from(n).unwrap_or(0));
        }
        Ok(counts)
    }

    /// A stored sheet by its archive id, in whichever night holds it.
    pub fn sheet_anywhere(
        &self,
        sheet_id: i64,
    ) -> Result<Option<(i64, StoredSheet)>, ArchiveError> {
        let Some(night) = self.night_of_sheet(sheet_id)? else {
            return Ok(None);
        };
        Ok(self.sheet(night, sheet_id)?.map(|s| (night, s)))
    }

    /// Keeps `names` as the night's participants list, in place of the
    /// one it had.
    pub fn keep_names(&mut self, tournament: i64, names: &Names) -> Result<(), ArchiveError> {
        let tx = self.conn.transaction()?;
        tx.execute(
            "DELETE FROM names WHERE tournament_id = ?1",
            params![tournament],
        )?;
        for (number, name) in names.iter() {
            tx.execute(
                "INSERT INTO names (tournament_id, number, name) VALUES (?1, ?2, ?3)",
                params![tournament, number, name],
            )?;
        }
        Ok(tx.commit()?)
    }

    /// The names every night's list gives, the newest night's first.
    pub fn names(&self) -> Result<Names, ArchiveError> {
        let mut stmt = self.conn.prepare(
            "SELECT n.number, n.name FROM names n JOIN tournaments t ON t.id = n.tournament_id
             ORDER BY t.date IS NULL, t.date DESC, t.id DESC",
        )?;
        let rows = stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))?;
        let mut names = Names::default();
        for row in rows {
            let (number, name) = row?;
            names.name_if_unnamed(&number, &name);
        }
        Ok(names)
    }

    /// The tournament's name.
    pub fn name_of(&self, tournament: i64) -> Result<String, ArchiveError> {
        Ok(self.conn.query_row(
            "SELECT name FROM tournaments WHERE id = ?1",
            params![tournament],
            |r| r.get(0),
        )?)
    }

    /// The night that holds the sheet of this archive id, if any.
    pub fn night_of_sheet(&self, sheet_id: i64) -> Result<Option<i64>, ArchiveError> {
        let night = self.conn.query_row(
            "SELECT tournament_id FROM sheets WHERE id = ?1",
            params![sheet_id],
            |r| r.get(0),
        );
        Ok(night.optional()?)
    }

    /// The rule set the tournament was scanned with.
    pub fn rules_of(&self, tournament: i64) -> Result<String, ArchiveError> {
        Ok(self.conn.query_row(
            "SELECT rules FROM tournaments WHERE id = ?1",
            params![tournament],
            |r| r.get(0),
        )?)
    }

    /// The night named by its name or its date (YYYY-MM-DD, where one
    /// night has it), or the only one when none is named.
    pub fn pick_tournament(&self, night: Option<&str>) -> Result<i64, ArchiveError> {
        let all = self.nights()?;
        let labels = |nights: &[&Night]| {
            nights
                .iter()
                .map(|n| n.label())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let every: Vec<&Night> = all.iter().collect();
        let Some(wanted) = night else {
            return match every.as_slice() {
                [one] => Ok(one.id),
                [] => Err(ArchiveError::Empty),
                _ => Err(ArchiveError::SeveralTournaments(labels(&every))),
            };
        };
        if let Some(n) = all.iter().find(|n| n.name == wanted) {
            return Ok(n.id);
        }
        let wanted_date = NaiveDate::parse_from_str(wanted, "%Y-%m-%d").ok();
        let dated: Vec<&Night> = all
            .iter()
            .filter(|n| wanted_date.is_some() && n.date == wanted_date)
            .collect();
        match dated.as_slice() {
            [one] => Ok(one.id),
            [] => Err(ArchiveError::NoTournament {
                name: wanted.to_string(),
                names: labels(&every),
            }),
            _ => Err(ArchiveError::SeveralTournaments(labels(&dated))),
        }
    }

    /// The stored results of an image (all its pages, in page order), if any.
    pub fn find(&self, tournament: i64, sha256: &str) -> Result<Vec<SheetResult>, ArchiveError> {
        let mut stmt = self.conn.prepare(
            "SELECT result_json FROM sheets WHERE tournament_id = ?1 AND sha256 = ?2 ORDER BY page",
        )?;
        let rows = stmt.query_map(params![tournament, sha256], |r| r.get::<_, String>(0))?;
        let mut out = Vec::new();
        for json in rows {
            out.push(parse(&json?)?);
        }
        Ok(out)
    }

    /// Stores all pages of one input file at once (one transaction), each
    /// with the name of its result file, and the file itself (`scan`, its
    /// bytes under `sha256`). Pages already stored are left as they are
    /// (with any corrections).
    pub fn store_file(
        &mut self,
        tournament: i64,
        sha256: &str,
        scan: Option<&Path>,
        pages: &[(String, SheetResult)],
    ) -> Result<(), ArchiveError> {
        let tx = self.write()?;
        if let Some(path) = scan {
            scans::keep(&tx, sha256, path)?;
        }
        for (result_file, sheet) in pages {
            let round_id = round_id(&tx, tournament, sheet.round)?;
            let fit = sheet.notes.alignment.as_ref().map(|a| a.fit);
            let old: Option<i64> = tx
                .query_row(
                    "SELECT id FROM sheets WHERE tournament_id = ?1 AND sha256 = ?2 AND page = ?3",
                    params![tournament, sha256, sheet.page.unwrap_or(1)],
                    |r| r.get(0),
                )
                .optional()?;
            // The same image again: the archived sheet (and its corrections) stays.
            if old.is_some() {
                continue;
            }
            let json = sheet.to_json_pretty();
            tx.execute(
                "INSERT INTO sheets (tournament_id, round_id, source, page, sha256, form, rules, status, fit, table_no, result_json, result_file, result_sha256, scanned)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
                params![
                    tournament,
                    round_id,
                    sheet.source.clone().unwrap_or_default(),
                    sheet.page.unwrap_or(1),
                    sha256,
                    sheet.form,
                    sheet.rules,
                    status_str(sheet),
                    fit,
                    sheet.table,
                    json,
                    result_file,
                    text_sha256(&json),
                    now(),
                ],
            )?;
            let id = tx.last_insert_rowid();
            write_details(&tx, id, sheet)?;
        }
        tx.commit()?;
        Ok(())
    }

    /// Every stored sheet of the tournament, in the order they were stored.
    pub fn sheets(&self, tournament: i64) -> Result<Vec<StoredSheet>, ArchiveError> {
        let mut stmt = self.conn.prepare(
            "SELECT id, sha256, result_json, result_file, version FROM sheets WHERE tournament_id = ?1 ORDER BY id",
        )?;
        let rows = stmt.query_map(params![tournament], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, Option<String>>(3)?,
                r.get::<_, i64>(4)?,
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (id, sha256, json, result_file, version) = row?;
            out.push(StoredSheet {
                id,
                sha256,
                result: parse(&json)?,
                result_file,
                version,
            });
        }
        Ok(out)
    }

    /// The archive id of the sheet with this source (and page).
    pub fn sheet_id(
        &self,
        tournament: i64,
        source: &str,
        page: u32,
    ) -> Result<Option<i64>, ArchiveError> {
        Ok(self
            .conn
            .query_row(
                "SELECT id FROM sheets WHERE tournament_id = ?1 AND source = ?2 AND page = ?3",
                params![tournament, source, page],
                |r| r.get(0),
            )
            .optional()?)
    }

    /// Replaces a stored sheet by its corrected (and re-verified) result,
    /// recording every value that changed, by whom. Returns the changes.
    pub fn correct(
        &mut self,
        sheet_id: i64,
        corrected: &SheetResult,
        who: &str,
    ) -> Result<Vec<Correction>, ArchiveError> {
        let edit = Edit {
            corrected,
            who,
            looked_at: &[],
            version: None,
        };
        Ok(self.review(sheet_id, &edit)?.0)
    }

    /// The tournament's sheets as a review queue lists them, read from
    /// the archive's columns (no result is parsed): flagged first, then
    /// unreadable, then ok, each in the order stored.
    pub fn queue(&self, tournament: i64) -> Result<Vec<QueueEntry>, ArchiveError> {
        let mut stmt = self.conn.prepare(
            "SELECT s.id, s.source, r.number, s.table_no, s.status, s.version,
                    (SELECT count(*) FROM flags f WHERE f.sheet_id = s.id)
             FROM sheets s LEFT JOIN rounds r ON r.id = s.round_id
             WHERE s.tournament_id = ?1
             ORDER BY CASE s.status WHEN 'flagged' THEN 0 WHEN 'unreadable' THEN 1 ELSE 2 END, s.id",
        )?;
        let rows = stmt.query_map(params![tournament], |r| {
            Ok(QueueEntry {
                id: r.get(0)?,
                source: r.get(1)?,
                round: r.get(2)?,
                table: r.get(3)?,
                status: r.get(4)?,
                version: r.get(5)?,
                flags: r.get(6)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// A stored sheet of the tournament, by its archive id.
    pub fn sheet(
        &self,
        tournament: i64,
        sheet_id: i64,
    ) -> Result<Option<StoredSheet>, ArchiveError> {
        let row = self
            .conn
            .query_row(
                "SELECT sha256, result_json, result_file, version FROM sheets WHERE id = ?1 AND tournament_id = ?2",
                params![sheet_id, tournament],
                |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, String>(1)?,
                        r.get::<_, Option<String>>(2)?,
                        r.get::<_, i64>(3)?,
                    ))
                },
            )
            .optional()?;
        row.map(|(sha256, json, result_file, version)| {
            Ok(StoredSheet {
                id: sheet_id,
                sha256,
                result: parse(&json)?,
                result_file,
                version,
            })
        })
        .transpose()
    }

    /// Stores a person's edit of a sheet in one transaction: every value
    /// that changed, and every value looked at and kept (old = new), with
    /// who; the sheet's new version. An edit of an older version than the
    /// stored one is refused, nothing stored.
    pub fn review(
        &mut self,
        sheet_id: i64,
        edit: &Edit,
    ) -> Result<(Vec<Correction>, i64), ArchiveError> {
        let tx = self.write()?;
        let (old, version, tournament): (String, i64, i64) = tx
            .query_row(
                "SELECT result_json, version, tournament_id FROM sheets WHERE id = ?1",
                params![sheet_id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .optional()?
            .ok_or(ArchiveError::NoSuchSheet(sheet_id))?;
        if let Some(yours) = edit.version.filter(|&v| v != version) {
            return Err(ArchiveError::Stale {
                id: sheet_id,
                now: version,
                yours,
            });
        }
        let old = parse(&old)?;
        let mut changes = diff(&old, edit.corrected);
        for field in edit.looked_at {
            if !changes.iter().any(|c| &c.field == field) {
                let kept = values_by_field(edit.corrected, field);
                changes.push(Correction {
                    field: field.clone(),
                    old: kept.clone(),
                    new: kept,
                });
            }
        }
        for c in &changes {
            tx.execute(
                "INSERT INTO corrections (sheet_id, field, old_value, new_value, who, at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![sheet_id, c.field, c.old, c.new, edit.who, now()],
            )?;
        }
        let corrected = edit.corrected;
        // A corrected round moves the sheet to that round.
        let round_id = round_id(&tx, tournament, corrected.round)?;
        let json = corrected.to_json_pretty();
        tx.execute(
            "UPDATE sheets SET status = ?2, table_no = ?3, result_json = ?4, round_id = ?5, result_sha256 = ?6, version = version + 1 WHERE id = ?1",
            params![
                sheet_id,
                status_str(corrected),
                corrected.table,
                json,
                round_id,
                text_sha256(&json)
            ],
        )?;
        for table in ["players", "sheet_values", "flags"] {
            tx.execute(
                &format!("DELETE FROM {table} WHERE sheet_id = ?1"),
                params![sheet_id],
            )?;
        }
        write_details(&tx, sheet_id, corrected)?;
        tx.commit()?;
        Ok((changes, version + 1))
    }

    /// The trail of a sheet, oldest first: every value changed or kept,
    /// every initials and verdict, with who and when.
    pub fn corrections(&self, sheet_id: i64) -> Result<Vec<Change>, ArchiveError> {
        let mut stmt = self.conn.prepare(
            "SELECT field, old_value, new_value, who, at FROM corrections WHERE sheet_id = ?1 ORDER BY id",
        )?;
        let rows = stmt.query_map(params![sheet_id], |r| {
            let (field, old, new): (String, Option<String>, Option<String>) =
                (r.get(0)?, r.get(1)?, r.get(2)?);
            Ok(Change {
                kind: ChangeKind::of(&field, &old, &new),
                field,
                old,
                new,
                by: r.get(3)?,
                at: r.get(4)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Every value of the tournament as CSV: source, page, round, table, field, value.
    pub fn write_values_csv<W: std::io::Write>(
        &self,
        tournament: i64,
        out: W,
    ) -> Result<(), ArchiveError> {
        let mut w = csv::Writer::from_writer(out);
        w.write_record(["source", "page", "round", "table", "field", "value"])?;
        let mut stmt = self.conn.prepare(
            "SELECT s.source, s.page, r.number, s.table_no, v.field, v.value
             FROM sheet_values v JOIN sheets s ON s.id = v.sheet_id
             LEFT JOIN rounds r ON r.id = s.round_id
             WHERE s.tournament_id = ?1 ORDER BY s.id, v.rowid",
        )?;
        let rows = stmt.query_map(params![tournament], |r| {
            Ok([
                r.get::<_, String>(0)?,
                r.get::<_, i64>(1)?.to_string(),
                opt(r.get::<_, Option<i64>>(2)?),
                opt(r.get::<_, Option<i64>>(3)?),
                r.get::<_, String>(4)?,
                opt(r.get::<_, Option<i64>>(5)?),
            ])
        })?;
        for row in rows {
            w.write_record(row?)?;
        }
        w.flush().map_err(csv::Error::from)?;
        Ok(())
    }
}

fn opt(v: Option<i64>) -> String {
    v.map(|v| v.to_string()).unwrap_or_default()
}

fn parse(json: &str) -> Result<SheetResult, ArchiveError> {
    SheetResult::from_json("archive", json).map_err(|e| ArchiveError::StoredResult(Box::new(e)))
}

/// The id of the tournament's round `number`, made on first use.
fn round_id(
    tx: &rusqlite::Transaction,
    tournament: i64,
    number: Option<u32>,
) -> Result<Option<i64>, ArchiveError> {
    let Some(n) = number else {
        return Ok(None);
    };
    tx.execute(
        "INSERT OR IGNORE INTO rounds (tournament_id, number) VALUES (?1, ?2)",
        params![tournament, n],
    )?;
    Ok(Some(tx.query_row(
        "SELECT id FROM rounds WHERE tournament_id = ?1 AND number = ?2",
        params![tournament, n],
        |r| r.get::<_, i64>(0),
    )?))
}

fn status_str(sheet: &SheetResult) -> String {
    serde_json::to_value(sheet.status)
        .ok()
        .and_then(|v| v.as_str().map(String::from))
        .unwrap_or_default()
}

fn write_details(
    tx: &rusqlite::Transaction,
    id: i64,
    sheet: &SheetResult,
) -> Result<(), ArchiveError> {
    for (seat, p) in sheet.players.iter().enumerate() {
        tx.execute(
            "INSERT INTO players (sheet_id, seat, participant) VALUES (?1, ?2, ?3)",
            params![id, seat as i64 + 1, p],
        )?;
    }
    for (field, value) in values(sheet) {
        tx.execute(
            "INSERT INTO sheet_values (sheet_id, field, value) VALUES (?1, ?2, ?3)",
            params![id, field, value],
        )?;
    }
    for f in &sheet.flags {
        tx.execute(
            "INSERT INTO flags (sheet_id, code, severity, row_no, seat, field, message) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![
                id,
                f.code.as_str(),
                if f.severity == crate::check::flags::Severity::Error { "error" } else { "warning" },
                f.row,
                f.seat.map(|s| s as i64),
                f.field,
                f.message
            ],
        )?;
    }
    Ok(())
}

/// Every number on the sheet by a field path (`game.3.seat.2.plus`,
/// `gesamt.1.minus`, `abzug.1`, `endergebnis.1`, `round`, `table`), blanks included.
pub fn values(sheet: &SheetResult) -> Vec<(String, Option<i64>)> {
    let mut out = vec![
        ("round".to_string(), sheet.round.map(i64::from)),
        ("table".to_string(), sheet.table.map(i64::from)),
    ];
    for g in &sheet.games {
        for (s, c) in g.cells.iter().enumerate() {
            out.push((
                format!("game.{}.seat.{}.plus", g.no, s + 1),
                c.plus.map(i64::from),
            ));
            out.push((
                format!("game.{}.seat.{}.minus", g.no, s + 1),
                c.minus.map(i64::from),
            ));
        }
    }
    for (s, g) in sheet.gesamt.iter().enumerate() {
        out.push((
            format!("gesamt.{}.plus", s + 1),
            g.and_then(|g| g.plus).map(i64::from),
        ));
        out.push((
            format!("gesamt.{}.minus", s + 1),
            g.and_then(|g| g.minus).map(i64::from),
        ));
    }
    for (s, a) in sheet.abzug.iter().enumerate() {
        out.push((format!("abzug.{}", s + 1), a.map(i64::from)));
    }
    for (s, e) in sheet.endergebnis.iter().enumerate() {
        out.push((format!("endergebnis.{}", s + 1), *e));
    }
    out
}

/// One field's value (as the trail writes it) by its archive name.
fn values_by_field(sheet: &SheetResult, field: &str) -> Option<String> {
    if let Some(seat) = field.strip_prefix("player.") {
        let i = seat.parse::<usize>().ok()?.checked_sub(1)?;
        return sheet.players.get(i).cloned().flatten();
    }
    values(sheet)
        .into_iter()
        .find(|(f, _)| f == field)
        .and_then(|(_, v)| v.map(|v| v.to_string()))
}

/// What changed between two versions of a sheet: numbers, participant
/// numbers, circles, initials and signatures.
pub fn diff(old: &SheetResult, new: &SheetResult) -> Vec<Correction> {
    let mut before: std::collections::BTreeMap<String, Option<String>> = values(old)
        .into_iter()
        .map(|(f, v)| (f, v.map(|v| v.to_string())))
        .collect();
    let mut after: std::collections::BTreeMap<String, Option<String>> = values(new)
        .into_iter()
        .map(|(f, v)| (f, v.map(|v| v.to_string())))
        .collect();
    for (sheet, map) in [(old, &mut before), (new, &mut after)] {
        for (s, p) in sheet.players.iter().enumerate() {
            map.insert(format!("player.{}", s + 1), p.clone());
        }
        for (s, sig) in sheet.signatures.iter().enumerate() {
            map.insert(format!("signature.{}", s + 1), Some(sig.to_string()));
        }
        // The supervisor's acts: who initialled a row, why a sheet is void.
        for i in &sheet.notes.supervisor_initials {
            map.insert(
                format!("game.{}.supervisor_initials", i.row),
                Some(i.by.clone()),
            );
        }
        for i in &sheet.notes.footer_initials {
            map.insert(
                match i.field.as_str() {
                    "plus" | "minus" => {
                        format!("gesamt.{}.{}.supervisor_initials", i.seat, i.field)
                    }
                    other => format!("{other}.{}.supervisor_initials", i.seat),
                },
                Some(i.by.clone()),
            );
        }
        if let Some(void) = &sheet.notes.void {
            map.insert("void".into(), Some(void.reason.clone()));
        }
        for g in &sheet.games {
            map.insert(
                format!("game.{}.initials", g.no),
                Some(g.initials.to_string()),
            );
            for (s, c) in g.cells.iter().enumerate() {
                map.insert(
                    format!("game.{}.seat.{}.circled", g.no, s + 1),
                    Some(c.circled.to_string()),
                );
            }
        }
    }
    let fields: std::collections::BTreeSet<&String> = before.keys().chain(after.keys()).collect();
    fields
        .into_iter()
        .filter_map(|f| {
            let o = before.get(f).cloned().flatten();
            let n = after.get(f).cloned().flatten();
            // A row that appears only now reads "false"/blank before: same thing.
            let blankish = |v: &Option<String>| v.as_deref().is_none_or(|v| v == "false");
            (o != n && !(blankish(&o) && blankish(&n))).then(|| Correction {
                field: f.clone(),
                old: o,
                new: n,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sheet(end: i64) -> SheetResult {
        let mut s = crate::sheet::example::one_row_sheet(1);
        s.source = Some("a.png".into());
        s.endergebnis[0] = Some(end);
        s
    }

    /// A path for a new archive in a folder removed when the test ends.
    fn temp(name: &str) -> (tempfile::TempDir, std::path::PathBuf) {
        let dir = tempfile::Builder::new()
            .prefix("aufsicht-archive-")
            .tempdir()
            .expect("temp dir");
        let path = dir.path().join(format!("{name}.sqlite"));
        (dir, path)
    }

    fn user_version(path: &Path) -> i64 {
        let conn = Connection::open(path).expect("open");
        conn.query_row("PRAGMA user_version", [], |r| r.get(0))
            .expect("version")
    }

    #[test]
    fn a_night_should_be_picked_by_its_name_or_its_only_date() {
        let (_dir, path) = temp("nights");
        let a = Archive::open(&path).expect("open");
        let jan = a.tournament("Januar", "merkur").expect("night");
        let day = |d: &str| NaiveDate::parse_from_str(d, "%Y-%m-%d").expect("date");
        a.date(jan, day("2026-01-10")).expect("dated");
        let (one, two) = (
            a.tournament("Doppelt 1", "merkur").expect("night"),
            a.tournament("Doppelt 2", "merkur").expect("night"),
        );
        for t in [one, two] {
            a.date(t, day("2026-02-14")).expect("dated");
        }
        assert_eq!(a.pick_tournament(Some("Januar")).expect("by name"), jan);
        assert_eq!(a.pick_tournament(Some("2026-01-10")).expect("by date"), jan);
        match a.pick_tournament(Some("2026-02-14")) {
            Err(ArchiveError::SeveralTournaments(names)) => {
                assert_eq!(names, "Doppelt 1 (2026-02-14), Doppelt 2 (2026-02-14)")
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            a.pick_tournament(Some("2026-03-07")),
            Err(ArchiveError::NoTournament { .. })
        ));
        assert!(matches!(
            a.pick_tournament(None),
            Err(ArchiveError::SeveralTournaments(_))
        ));
    }

    /// An archive the release before schema versions wrote (one scanned
    /// sheet, one correction by Anna; vacuumed to keep it small).
    #[test]
    fn an_archive_from_before_versions_should_be_migrated_after_a_backup_with_nothing_lost() {
        let (dir, path) = temp("old");
        let fixture = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/archive/before-versions.sqlite");
        std::fs::copy(&fixture, &path).expect("copy");
        assert_eq!(user_version(&path), 0);
        let a = Archive::open(&path).expect("migrated");
        let t = a.pick_tournament(Some("Fixture night")).expect("its night");
        let sheets = a.sheets(t).expect("sheets");
        assert_eq!(sheets.len(), 1);
        assert_eq!(sheets[0].version, 1, "one correction stored");
        let trail = a.corrections(sheets[0].id).expect("trail");
        let entry = (
            trail[0].field.as_str(),
            trail[0].new.as_deref(),
            trail[0].by.as_str(),
        );
        assert_eq!(entry, ("endergebnis.1", Some("29"), "Anna"));
        assert_eq!(sheets[0].result.endergebnis[0], Some(29));
        // Its result hashed by the migration, its scan never kept.
        let checked = a.check().expect("check");
        assert_eq!(
            (checked.sheets, checked.without_scan, checked.damage),
            (1, 1, vec![])
        );
        drop(a);
        assert_eq!(user_version(&path), SCHEMA_VERSION as i64);
        let backup = dir.path().join("old.sqlite.v0.bak");
        assert_eq!(
            user_version(&backup),
            0,
            "the backup is the archive as it was"
        );
        let kept = Archive::open(&backup).expect("the backup opens");
        assert_eq!(
            kept.sheets(t).expect("sheets")[0].result.endergebnis[0],
            Some(29)
        );
        // Opened again: nothing left to migrate, no second backup.
        drop(kept);
        std::fs::remove_file(&backup).expect("remove");
        Archive::open(&path).expect("open");
        assert!(!backup.exists());
    }

    #[test]
    fn an_archive_of_a_newer_release_should_be_refused_untouched() {
        let (_dir, path) = temp("newer");
        drop(Archive::open(&path).expect("fresh"));
        let conn = Connection::open(&path).expect("open");
        conn.pragma_update(None, "user_version", 7).expect("set");
        drop(conn);
        let refused = Archive::open(&path).err().expect("refused");
        let known = SCHEMA_VERSION as i64;
        let newer =
            matches!(refused, ArchiveError::Newer { version: 7, known: k, .. } if k == known);
        assert!(newer, "{refused:?}");
        let said = crate::catalogue::Tell::tell(&refused, crate::Lang::En);
        assert!(said.contains("newer aufsicht"), "{said}");
        assert_eq!(user_version(&path), 7);
    }

    #[test]
    fn a_new_archive_should_start_at_this_version_without_a_backup() {
        let (dir, path) = temp("fresh");
        drop(Archive::open(&path).expect("fresh"));
        assert_eq!(user_version(&path), SCHEMA_VERSION as i64);
        let files = std::fs::read_dir(dir.path()).expect("dir").count();
        assert!(files <= 3, "the archive and its WAL files only: {files}");
        assert!(!dir.path().join("fresh.sqlite.v0.bak").exists());
    }

    #[test]
    fn a_file_hashed_in_pieces_should_have_the_sha256_of_its_bytes() {
        let (dir, _) = temp("hash");
        let path = dir.path().join("scan.bin");
        // Longer than one piece, so the pieces must join.
        let bytes: Vec<u8> = (0..200_000u32).map(|i| (i % 251) as u8).collect();
        std::fs::write(&path, &bytes).expect("write");
        assert_eq!(
            sha256_file(&path).expect("hash"),
            hex(&Sha256::digest(&bytes))
        );
    }

    #[test]
    fn a_stored_sheet_comes_back_as_stored_and_is_not_duplicated() {
        let (_dir, path) = temp("roundtrip");
        let mut a = Archive::open(&path).expect("open");
        let t = a.tournament("night", "merkur").expect("tournament");
        a.store_file(t, "abc", None, &[("x.json".into(), sheet(1))])
            .expect("store");
        a.store_file(t, "abc", None, &[("x.json".into(), sheet(1))])
            .expect("store again");
        let all = a.sheets(t).expect("sheets");
        assert_eq!(all.len(), 1);
        assert_eq!(all[0].result, sheet(1));
        assert_eq!(all[0].result_file.as_deref(), Some("x.json"));
        assert_eq!(a.find(t, "abc").expect("find").len(), 1);
        assert!(a.find(t, "other").expect("find").is_empty());
    }

    #[test]
    fn writers_in_several_processes_should_each_wait_their_turn_and_lose_nothing() {
        let (_dir, path) = temp("concurrent");
        // One connection per thread is what separate processes have; all
        // start together on an archive that does not exist yet.
        let writers: Vec<_> = (0..3)
            .map(|w| {
                let path = path.clone();
                std::thread::spawn(move || -> Result<(), ArchiveError> {
                    let mut a = Archive::open(&path)?;
                    let t = a.tournament("night", "merkur")?;
                    for i in 0..60 {
                        let mut s = sheet(i % 7);
                        s.source = Some(format!("w{w}/{i}.png"));
                        a.store_file(
                            t,
                            &format!("{w}-{i}"),
                            None,
                            &[(format!("{w}-{i}.json"), s)],
                        )?;
                        if let Some(id) = a.sheet_id(t, &format!("w{w}/{i}.png"), 1)? {
                            a.correct(id, &sheet(1), "Anna")?;
                        }
                    }
                    Ok(())
                })
            })
            .collect();
        for w in writers {
            w.join()
                .expect("thread")
                .expect("every write waits, none fails");
        }
        let a = Archive::open(&path).expect("open");
        let t = a.pick_tournament(None).expect("one tournament");
        assert_eq!(a.sheets(t).expect("sheets").len(), 180);
    }

    #[test]
    fn a_file_that_is_no_database_should_say_so_not_blame_a_lock() {
        let (dir, _) = temp("notes");
        let path = dir.path().join("notes.sqlite");
        std::fs::write(
            &path,
            "these are notes, not a database; long enough to be read",
        )
        .expect("write");
        let err = Archive::open(&path).err().expect("refused").to_string();
        assert!(err.contains("not an aufsicht archive"), "{err}");
    }

    #[test]
    fn a_correction_keeps_the_old_and_new_value_and_who() {
        let (_dir, path) = temp("correct");
        let mut a = Archive::open(&path).expect("open");
        let t = a.tournament("night", "merkur").expect("tournament");
        a.store_file(t, "abc", None, &[("x.json".into(), sheet(5))])
            .expect("store");
        let id = a.sheet_id(t, "a.png", 1).expect("query").expect("stored");
        let changes = a.correct(id, &sheet(1), "Anna").expect("correct");
        assert_eq!(
            changes,
            vec![Correction {
                field: "endergebnis.1".into(),
                old: Some("5".into()),
                new: Some("1".into())
            }]
        );
        let trail = a.corrections(id).expect("trail");
        assert_eq!(trail.len(), 1);
        let entry = &trail[0];
        assert_eq!(
            (
                entry.field.as_str(),
                entry.old.as_deref(),
                entry.new.as_deref()
            ),
            ("endergebnis.1", Some("5"), Some("1"))
        );
        assert_eq!(
            (entry.by.as_str(), entry.kind),
            ("Anna", ChangeKind::Correction)
        );
        assert_eq!(
            a.sheets(t).expect("sheets")[0].result.endergebnis[0],
            Some(1)
        );
        let mut csv = Vec::new();
        a.write_values_csv(t, &mut csv).expect("csv");
        let csv = String::from_utf8(csv).expect("utf8");
        assert!(csv.contains("a.png,1,1,1,endergebnis.1,1"), "{csv}");
    }

    #[test]
    fn a_corrected_round_should_move_the_sheet_and_the_queue_list_it_flagged_first() {
        let (_dir, path) = temp("queue");
        let mut a = Archive::open(&path).expect("open");
        let t = a.tournament("night", "merkur").expect("tournament");
        let mut flagged = sheet(5);
        flagged.source = Some("b.png".into());
        flagged.status = crate::sheet::Status::Flagged;
        a.store_file(t, "abc", None, &[("a.json".into(), sheet(5))])
            .expect("store");
        a.store_file(t, "def", None, &[("b.json".into(), flagged)])
            .expect("store");
        let queue = a.queue(t).expect("queue");
        let order: Vec<(&str, &str)> = queue
            .iter()
            .map(|e| (e.source.as_str(), e.status.as_str()))
            .collect();
        assert_eq!(order, [("b.png", "flagged"), ("a.png", "ok")]);
        let id = queue[1].id;
        let mut moved = sheet(5);
        moved.round = Some(2);
        a.correct(id, &moved, "Anna").expect("correct");
        let entry = a.queue(t).expect("queue").into_iter().find(|e| e.id == id);
        assert_eq!(entry.map(|e| (e.round, e.version)), Some((Some(2), 1)));
        let mut csv = Vec::new();
        a.write_values_csv(t, &mut csv).expect("csv");
        let csv = String::from_utf8(csv).expect("utf8");
        assert!(
            csv.contains("a.png,1,2,"),
            "the values name the new round: {csv}"
        );
    }

    #[test]
    fn a_file_that_is_not_an_archive_is_a_clear_error() {
        let (_dir, path) = temp("notdb");
        std::fs::write(
            &path,
            "this is not sqlite, it is text long enough to be read",
        )
        .expect("write");
        let err = Archive::open(&path).err().expect("an error");
        let not_a_database =
            |e: &rusqlite::Error| e.sqlite_error_code() == Some(rusqlite::ErrorCode::NotADatabase);
        assert!(
            matches!(&err, ArchiveError::Sql(e) if not_a_database(e)),
            "{err:?}"
        );
    }
}
