//! The archive's tables and their migrations: the schema as it stood
//! before versions, then each step since, counted by `user_version`.

use rusqlite::params;

use super::text_sha256;
use crate::error::ArchiveError;

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

/// The schema version this release writes: how many migrations it knows.
pub const SCHEMA_VERSION: usize = 10;

/// The archive's migrations, in order; the archive's `user_version` says
/// how many ran. The first is the schema as it stood before versions:
/// an archive of that time holds its tables already, so its statements
/// create only what is missing, and its hook adds the columns that were
/// added by hand before. Every migration may run twice: two processes
/// that open an older archive at once both read its version before
/// either writes, and the second runs after the first.
pub(super) fn migrations() -> rusqlite_migration::Migrations<'static> {
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
        // Each night's own forms (a club's templates, as JSON): its
        // photos, the desk and the audit read its sheets on them.
        rusqlite_migration::M::up(
            "CREATE TABLE IF NOT EXISTS forms (
                tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
                id TEXT NOT NULL,
                template TEXT NOT NULL,
                PRIMARY KEY (tournament_id, id)
            );",
        ),
        // Every form a sheet was read on, by its content: a form re-learnt
        // under the same id is another one, and old sheets keep theirs.
        rusqlite_migration::M::up_with_hook(
            "CREATE TABLE IF NOT EXISTS form_versions (
                sha256 TEXT PRIMARY KEY,
                id TEXT NOT NULL,
                template TEXT NOT NULL
            );",
            |tx: &rusqlite::Transaction| keep_form_versions(tx),
        ),
        // The night's record: every reading and every person's decision
        // kept apart, the sheet as it stands made from them; the trail
        // says which record wrote each line.
        rusqlite_migration::M::up_with_hook(
            "CREATE TABLE IF NOT EXISTS readings (
                id INTEGER PRIMARY KEY,
                sheet_id INTEGER NOT NULL REFERENCES sheets(id),
                result_json TEXT NOT NULL,
                reader TEXT NOT NULL,
                at TEXT NOT NULL
            );
            CREATE INDEX IF NOT EXISTS readings_by_sheet ON readings (sheet_id);
            CREATE TABLE IF NOT EXISTS records (
                id INTEGER PRIMARY KEY,
                sheet_id INTEGER NOT NULL REFERENCES sheets(id),
                who TEXT NOT NULL,
                at TEXT NOT NULL,
                decision TEXT NOT NULL
            );
            CREATE INDEX IF NOT EXISTS records_by_sheet ON records (sheet_id);",
            |tx: &rusqlite::Transaction| {
                add_column(tx, "corrections", "kind", "TEXT")?;
                add_column(tx, "corrections", "path", "TEXT")?;
                super::migrate_record::split(tx)
            },
        ),
        // Why the program changed or confirmed a value (a reading sure
        // after a person's answer about the hand).
        rusqlite_migration::M::up_with_hook("", |tx: &rusqlite::Transaction| {
            add_column(tx, "corrections", "why", "TEXT")
        }),
        // Each night's capture key: a phone's link outlives a restart of
        // the desk until the desk renews it.
        rusqlite_migration::M::up(
            "CREATE TABLE IF NOT EXISTS capture_keys (
                tournament_id INTEGER PRIMARY KEY REFERENCES tournaments(id),
                key TEXT NOT NULL
            );",
        ),
    ];
    debug_assert_eq!(ms.len(), SCHEMA_VERSION);
    rusqlite_migration::Migrations::new(ms)
}

/// Keeps every night's form by its content (what the nights kept before
/// the archive knew versions).
fn keep_form_versions(tx: &rusqlite::Transaction) -> rusqlite_migration::HookResult {
    let rows: Vec<(String, String)> = tx
        .prepare("SELECT id, template FROM forms")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    for (id, json) in rows {
        // A template this release cannot read is left where it is.
        let Ok(form) = crate::page::form::FormTemplate::from_json(&id, &json) else {
            continue;
        };
        super::forms::keep_version(tx, &form)?;
    }
    Ok(())
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

pub(super) fn migration_error(e: rusqlite_migration::Error) -> ArchiveError {
    match e {
        rusqlite_migration::Error::RusqliteError { err, .. } => ArchiveError::Sql(err),
        other => ArchiveError::Migration(other),
    }
}
