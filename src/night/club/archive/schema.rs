//! The archive's tables and their migrations, one list for both
//! engines: the schema as it stood before versions, then each step since.
//! SQLite counts them in its `user_version`, PostgreSQL in a table.

use super::engine::{Conn, Engine, Sql, Tx, args};
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
pub const SCHEMA_VERSION: usize = 12;

/// One migration: its statements, then what code must do.
struct Step {
    sql: &'static str,
    hook: fn(&mut Tx) -> Result<(), ArchiveError>,
}

fn nothing(_: &mut Tx) -> Result<(), ArchiveError> {
    Ok(())
}

/// The archive's migrations, in order; the archive's version says how
/// many ran. The first is the schema as it stood before versions: an
/// archive of that time holds its tables already, so its statements
/// create only what is missing, and its hook adds the columns that were
/// added by hand before.
fn steps() -> Vec<Step> {
    let ms = vec![
        Step {
            sql: SCHEMA,
            hook: |tx| {
                add_column(tx, "sheets", "result_file", "TEXT")?;
                // Counts the corrections stored: an edit made on an older version is refused.
                add_column(tx, "sheets", "version", "INTEGER NOT NULL DEFAULT 0")
            },
        },
        // A night's date (YYYY-MM-DD), for the season.
        Step {
            sql: "",
            hook: |tx| add_column(tx, "tournaments", "date", "TEXT"),
        },
        // The scans themselves, by content, and each stored result's hash
        // (what `archive check` holds them to).
        Step {
            sql: "CREATE TABLE IF NOT EXISTS scans (
                sha256 TEXT PRIMARY KEY,
                size INTEGER NOT NULL,
                bytes BLOB NOT NULL
            );",
            hook: |tx| {
                add_column(tx, "sheets", "result_sha256", "TEXT")?;
                hash_results(tx)
            },
        },
        // Every queue count and re-verification reads a sheet's flags and
        // corrections; the season's archive only grows.
        // And every timestamp in one format, RFC 3339 (SQLite's defaults
        // wrote `YYYY-MM-DD HH:MM:SS`, in UTC too).
        Step {
            sql: "CREATE INDEX IF NOT EXISTS flags_by_sheet ON flags (sheet_id);
             CREATE INDEX IF NOT EXISTS corrections_by_sheet ON corrections (sheet_id);
             UPDATE corrections SET at = replace(at, ' ', 'T') || 'Z' WHERE at LIKE '____-__-__ __:__:__';
             UPDATE sheets SET scanned = replace(scanned, ' ', 'T') || 'Z' WHERE scanned LIKE '____-__-__ __:__:__';
             UPDATE tournaments SET created = replace(created, ' ', 'T') || 'Z' WHERE created LIKE '____-__-__ __:__:__';",
            hook: nothing,
        },
        // Each night's participants list (number by value, name): every
        // page shows the name beside the number.
        Step {
            sql: "CREATE TABLE IF NOT EXISTS names (
                tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
                number TEXT NOT NULL,
                name TEXT NOT NULL,
                PRIMARY KEY (tournament_id, number)
            );",
            hook: nothing,
        },
        // Each night's own forms (a club's templates, as JSON): its
        // photos, the desk and the audit read its sheets on them.
        Step {
            sql: "CREATE TABLE IF NOT EXISTS forms (
                tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
                id TEXT NOT NULL,
                template TEXT NOT NULL,
                PRIMARY KEY (tournament_id, id)
            );",
            hook: nothing,
        },
        // Every form a sheet was read on, by its content: a form re-learnt
        // under the same id is another one, and old sheets keep theirs.
        Step {
            sql: "CREATE TABLE IF NOT EXISTS form_versions (
                sha256 TEXT PRIMARY KEY,
                id TEXT NOT NULL,
                template TEXT NOT NULL
            );",
            hook: keep_form_versions,
        },
        // The night's record: every reading and every person's decision
        // kept apart, the sheet as it stands made from them; the trail
        // says which record wrote each line.
        Step {
            sql: "CREATE TABLE IF NOT EXISTS readings (
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
            hook: |tx| {
                add_column(tx, "corrections", "kind", "TEXT")?;
                add_column(tx, "corrections", "path", "TEXT")?;
                super::migrate_record::split(tx)
            },
        },
        // Why the program changed or confirmed a value (a reading sure
        // after a person's answer about the hand).
        Step {
            sql: "",
            hook: |tx| add_column(tx, "corrections", "why", "TEXT"),
        },
        // Each night's capture key: a phone's link outlives a restart of
        // the desk until the desk renews it.
        Step {
            sql: "CREATE TABLE IF NOT EXISTS capture_keys (
                tournament_id INTEGER PRIMARY KEY REFERENCES tournaments(id),
                key TEXT NOT NULL
            );",
            hook: nothing,
        },
        // A series: a venue's nights pushed into a central archive keep
        // their venue and where they came from, and each reading, decision
        // and trail line the id it has at the venue (`origin`), so that a
        // push sends only what is not there yet. Each sheet's values keep
        // their order.
        Step {
            sql: "",
            hook: |tx| {
                add_column(tx, "tournaments", "venue", "TEXT")?;
                // Which venue's night it is: its creation time and id there.
                add_column(tx, "tournaments", "origin", "TEXT")?;
                for table in ["readings", "records", "corrections"] {
                    add_column(tx, table, "origin", "INTEGER")?;
                    tx.batch(&format!(
                        "CREATE UNIQUE INDEX IF NOT EXISTS {table}_by_origin ON {table} (sheet_id, origin)"
                    ))?;
                }
                for table in ["sheet_values", "form_versions"] {
                    add_column(tx, table, "seq", "INTEGER")?;
                    if tx.engine() == Engine::Sqlite {
                        tx.batch(&format!("UPDATE {table} SET seq = rowid WHERE seq IS NULL"))?;
                    }
                }
                Ok(())
            },
        },
        // The desk's key for other computers: a second reviewer's laptop
        // stays let in across a restart of the desk, as a phone's link does.
        // And a damaged stored result read as no JSON on PostgreSQL (NULL),
        // as SQLite's json_valid does, so one sheet never stops a query.
        Step {
            sql: "CREATE TABLE IF NOT EXISTS desk_keys (
                name TEXT PRIMARY KEY,
                key TEXT NOT NULL
            );",
            hook: |tx| {
                if tx.engine() == Engine::Postgres {
                    tx.batch(
                        // Lower case: the engine's words for a table's columns stay out.
                        "create or replace function aufsicht_jsonb(t text) returns jsonb as $$
                         begin return t::jsonb; exception when others then return null; end
                         $$ language plpgsql immutable",
                    )?;
                }
                Ok(())
            },
        },
    ];
    debug_assert_eq!(ms.len(), SCHEMA_VERSION);
    ms
}

/// The archive's schema version: how many migrations ran.
pub(super) fn version(db: &mut impl Sql) -> Result<i64, ArchiveError> {
    match db.engine() {
        Engine::Sqlite => db.value("PRAGMA user_version", args![]),
        Engine::Postgres => {
            if !has_table(db, "schema_version")? {
                return Ok(0);
            }
            Ok(db
                .optional("SELECT version FROM schema_version", args![])?
                .unwrap_or(0))
        }
    }
}

fn set_version(tx: &mut Tx, version: i64) -> Result<(), ArchiveError> {
    match tx.engine() {
        Engine::Sqlite => tx.batch(&format!("PRAGMA user_version = {version}")),
        Engine::Postgres => {
            tx.batch(
                "CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL);
                 DELETE FROM schema_version;",
            )?;
            tx.execute(
                "INSERT INTO schema_version (version) VALUES (?1)",
                args![version],
            )?;
            Ok(())
        }
    }
}

/// Whether the archive holds the table `name`.
pub(super) fn has_table(db: &mut impl Sql, name: &str) -> Result<bool, ArchiveError> {
    let sql = match db.engine() {
        Engine::Sqlite => "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?1",
        Engine::Postgres => {
            "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema() AND tablename = ?1"
        }
    };
    Ok(db.value::<i64>(sql, args![name])? > 0)
}

/// Runs the migrations the archive lacks, all in one transaction that
/// holds the write lock: two processes opening an older archive at once
/// migrate one after the other, the second finding nothing to do.
pub(super) fn migrate(conn: &mut Conn) -> Result<(), ArchiveError> {
    let known = SCHEMA_VERSION as i64;
    if version(&mut conn.db())? >= known {
        return Ok(());
    }
    let mut tx = conn.write()?;
    let from = version(&mut tx)?;
    if from >= known {
        return Ok(());
    }
    for step in steps().into_iter().skip(from as usize) {
        if !step.sql.is_empty() {
            tx.batch(step.sql)?;
        }
        (step.hook)(&mut tx)?;
    }
    set_version(&mut tx, known)?;
    tx.commit()
}

/// Keeps every night's form by its content (what the nights kept before
/// the archive knew versions).
fn keep_form_versions(tx: &mut Tx) -> Result<(), ArchiveError> {
    let rows = tx.query("SELECT id, template FROM forms", args![])?;
    for row in rows {
        let (id, json): (String, String) = (row.get(0)?, row.get(1)?);
        // A template this release cannot read is left where it is.
        let Ok(form) = crate::page::form::FormTemplate::from_json(&id, &json) else {
            continue;
        };
        // As the archive kept them then: in the order they came.
        let json = serde_json::to_string(&form).unwrap_or_default();
        tx.execute(
            "INSERT INTO form_versions (sha256, id, template) VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING",
            args![form.content_sha256(), &form.id, json],
        )?;
    }
    Ok(())
}

/// Sets the hash of every stored result that has none.
fn hash_results(tx: &mut Tx) -> Result<(), ArchiveError> {
    let rows = tx.query(
        "SELECT id, result_json FROM sheets WHERE result_sha256 IS NULL",
        args![],
    )?;
    for row in rows {
        let (id, json): (i64, String) = (row.get(0)?, row.get(1)?);
        tx.execute(
            "UPDATE sheets SET result_sha256 = ?2 WHERE id = ?1",
            args![id, text_sha256(&json)],
        )?;
    }
    Ok(())
}

/// Adds a column to a table that lacks it.
fn add_column(tx: &mut Tx, table: &str, column: &str, declared: &str) -> Result<(), ArchiveError> {
    match tx.engine() {
        Engine::Sqlite => {
            let has: i64 = tx.value(
                "SELECT count(*) FROM pragma_table_info(?1) WHERE name = ?2",
                args![table, column],
            )?;
            if has == 0 {
                tx.batch(&format!(
                    "ALTER TABLE {table} ADD COLUMN {column} {declared}"
                ))?;
            }
            Ok(())
        }
        Engine::Postgres => tx.batch(&format!(
            "ALTER TABLE {table} ADD COLUMN IF NOT EXISTS {column} {declared}"
        )),
    }
}
