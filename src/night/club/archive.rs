//! The archive: every sheet of every night in one SQLite file, or in a
//! series' PostgreSQL server, so that a complaint weeks later can be
//! answered from what was read, what was flagged and who corrected what.
//!
//! `SheetResult`s (with the image's SHA-256) → [`Archive`] → the contract's
//! JSON and CSV again ([`Archive::sheets`], [`Archive::write_values_csv`]).
//!
//! Each input file is stored in one transaction with all its pages: a batch
//! killed midway leaves whole files or none, and the next run skips what is
//! stored (same image bytes: same SHA-256).

use std::path::Path;

use sha2::{Digest, Sha256};

use crate::catalogue::{Lang, Tell};
use crate::error::ArchiveError;
use crate::sheet::SheetResult;

mod check;
pub(crate) mod engine;
mod forms;
pub mod libpq;
mod migrate_record;
mod nights;
pub mod push;
mod record;
mod scans;
mod schema;

pub use crate::record::trail::{Change, ChangeKind, Correction, diff, values};
pub use check::{Checked, Damage};
pub use forms::with_kept;
pub use nights::Night;
pub use record::{Decided, SheetRecord, reader_name};
pub use schema::SCHEMA_VERSION;

pub use engine::when_waiting;
use engine::{Conn, Engine, Sql, Tx, args};
pub use scans::MAX_KEPT_SCAN;

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

/// The time now as the archive writes every timestamp: RFC 3339, UTC, to
/// the second (`2026-11-28T10:33:41Z`).
pub fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// The SHA-256 of bytes in memory (hex), as [`sha256_file`] gives a file's.
pub fn hex_sha256(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// The SHA-256 of a text, as hex.
fn text_sha256(text: &str) -> String {
    hex(&Sha256::digest(text.as_bytes()))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
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
    /// Why the sheet no longer counts, where a person decided so:
    /// `discarded`, `copy` or `void`.
    pub out: Option<String>,
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

pub struct Archive {
    conn: Conn,
    /// Where it is, as a person reads it: the file, or the server's
    /// address without its password.
    place: String,
}

/// Our sessions' limits on a server: a lock waited for at most a minute;
/// a transaction left idle ended sooner, so that the one who waits for a
/// stalled laptop's lock gets it before giving up.
const SESSION_LIMITS: &str = "-c lock_timeout=60s -c idle_in_transaction_session_timeout=45s";

/// How long a server may take to let the program in.
const CONNECT_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

/// A connection to the server at `url` (shown as `place`), given up after
/// [`CONNECT_WAIT`]: something that takes the connection and never speaks
/// PostgreSQL must not keep a command waiting for ever. A connection that
/// stops answering later fails when a minute of its data went unanswered.
fn connect(url: &str, place: &str) -> Result<postgres::Client, ArchiveError> {
    let refused = |source| ArchiveError::Server {
        address: place.to_string(),
        source,
    };
    let url = libpq::with_port(url, &libpq::Process);
    let mut config: postgres::Config = url.parse().map_err(refused)?;
    libpq::complete(&mut config, &url, &libpq::Process);
    if config.get_ssl_mode() == postgres::config::SslMode::Require {
        return Err(ArchiveError::ServerTls(place.to_string()));
    }
    config.connect_timeout(CONNECT_WAIT);
    config.tcp_user_timeout(std::time::Duration::from_secs(60));
    // A laptop that stalls in a transaction, or loses its network, is
    // ended by the server after a minute, and a write waits no longer
    // than that for another's: nothing waits for ever.
    let options = match config.get_options() {
        Some(given) => format!("{given} {SESSION_LIMITS}"),
        None => SESSION_LIMITS.to_string(),
    };
    config.options(&options);
    config.keepalives(true);
    config.keepalives_idle(std::time::Duration::from_secs(15));
    let (sent, answer) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        // Where the wait was given up, no one hears the answer.
        let _ = sent.send(config.connect(postgres::NoTls));
    });
    match answer.recv_timeout(CONNECT_WAIT) {
        Ok(client) => client.map_err(refused),
        Err(_) => Err(ArchiveError::ServerSilent(place.to_string())),
    }
}

/// Whether `place` names a PostgreSQL server (`postgres://…`) rather
/// than an archive file.
pub fn is_server(place: &Path) -> bool {
    place
        .to_str()
        .is_some_and(|s| s.starts_with("postgres://") || s.starts_with("postgresql://"))
}

/// A server's address as a person may read it: without its password.
pub fn shown_address(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let (rest, query) = rest
        .split_once('?')
        .map_or((rest, None), |(r, q)| (r, Some(q)));
    let shown = match rest.split_once('@') {
        Some((user, host)) => {
            let user = user.split(':').next().unwrap_or_default();
            format!("{scheme}://{user}@{host}")
        }
        None => format!("{scheme}://{rest}"),
    };
    // A password given as a parameter is left out too.
    let kept: Vec<&str> = (query.into_iter().flat_map(|q| q.split('&')))
        .filter(|kv| !kv.starts_with("password="))
        .collect();
    match kept.is_empty() {
        true => shown,
        false => format!("{shown}?{}", kept.join("&")),
    }
}

/// Where an archive is, as a person may read it: a file's path, or a
/// server's address without its password.
pub fn shown_place(place: &Path) -> String {
    match place.to_str().filter(|_| is_server(place)) {
        Some(url) => shown_address(url),
        None => place.display().to_string(),
    }
}

impl Archive {
    /// Opens (or creates) the archive: the file at `place`, or the
    /// PostgreSQL database a `postgres://` address names.
    pub fn open(place: &Path) -> Result<Self, ArchiveError> {
        match place.to_str().filter(|_| is_server(place)) {
            Some(url) => Self::open_server(url),
            None => Self::open_file(place),
        }
    }

    fn open_file(path: &Path) -> Result<Self, ArchiveError> {
        let conn = rusqlite::Connection::open(path).map_err(|e| ArchiveError::Open {
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
        let mut archive = Archive {
            conn: Conn::Sqlite(conn),
            place: path.display().to_string(),
        };
        archive.create_schema(Some(path))?;
        Ok(archive)
    }

    /// Opens an archive file to read it only (what a push sends from):
    /// nothing in it changes, and one of another version is refused.
    pub fn open_to_read(path: &Path) -> Result<Self, ArchiveError> {
        let flags =
            rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn =
            rusqlite::Connection::open_with_flags(path, flags).map_err(|e| ArchiveError::Open {
                path: path.display().to_string(),
                source: e.into(),
            })?;
        conn.busy_timeout(BUSY_TIMEOUT)?;
        let archive = Archive {
            conn: Conn::Sqlite(conn),
            place: path.display().to_string(),
        };
        let version = schema::version(&mut archive.conn.db())?;
        if version > SCHEMA_VERSION as i64 {
            return Err(ArchiveError::Newer {
                path: archive.place,
                version,
                known: SCHEMA_VERSION as i64,
            });
        }
        if version < SCHEMA_VERSION as i64 {
            return Err(ArchiveError::OtherVersion {
                path: archive.place,
                version,
                known: SCHEMA_VERSION as i64,
            });
        }
        Ok(archive)
    }

    fn open_server(url: &str) -> Result<Self, ArchiveError> {
        let place = shown_address(url);
        let client = connect(url, &place)?;
        let mut archive = Archive {
            conn: Conn::Postgres(std::cell::RefCell::new(client)),
            place,
        };
        archive.create_schema(None)?;
        Ok(archive)
    }

    /// Whether the server's connection is gone (the server restarted, the
    /// network broke): the archive must be opened again to go on.
    pub fn is_broken(&self) -> bool {
        match &self.conn {
            Conn::Postgres(client) => client.try_borrow().is_ok_and(|c| c.is_closed()),
            Conn::Sqlite(_) => false,
        }
    }

    /// Which engine the archive runs on.
    pub fn engine(&self) -> Engine {
        self.conn.engine()
    }

    /// Brings the schema to this release's version, all migrations in one
    /// transaction, after a backup of an archive file that holds data. An
    /// archive of a newer release is refused, untouched.
    fn create_schema(&mut self, file: Option<&Path>) -> Result<(), ArchiveError> {
        let version = schema::version(&mut self.conn.db())?;
        if version > SCHEMA_VERSION as i64 {
            return Err(ArchiveError::Newer {
                path: self.place.clone(),
                version,
                known: SCHEMA_VERSION as i64,
            });
        }
        if version < SCHEMA_VERSION as i64
            && let Some(path) = file
            && schema::has_table(&mut self.conn.db(), "sheets")?
        {
            self.back_up_before_migrating(path, version)?;
        }
        schema::migrate(&mut self.conn)
    }

    /// A copy of the archive as it is, beside it (`NAME.vN.bak`, N its
    /// schema version).
    fn back_up_before_migrating(&self, path: &Path, version: i64) -> Result<(), ArchiveError> {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        self.backup_to(&path.with_file_name(format!("{name}.v{version}.bak")))
    }

    /// SQLite's online backup of the archive into `to` (replaced), made in
    /// a temporary file beside it and renamed when whole: a kill leaves
    /// `to` as it was. The temporary file is the process's own, so two
    /// processes backing up at once each write their own copy. A server's
    /// archive is backed up by the server's own tools.
    pub fn backup_to(&self, to: &Path) -> Result<(), ArchiveError> {
        let Conn::Sqlite(conn) = &self.conn else {
            return Err(ArchiveError::ServerBackup(self.place.clone()));
        };
        let failed = |e: Box<dyn std::error::Error + Send + Sync>| ArchiveError::Open {
            path: to.display().to_string(),
            source: e,
        };
        let part = crate::night::files::temp_beside(to).map_err(|e| failed(e.into()))?;
        let mut copy = rusqlite::Connection::open(part.path()).map_err(|e| failed(e.into()))?;
        let backup = rusqlite::backup::Backup::new(conn, &mut copy)?;
        backup.run_to_completion(256, std::time::Duration::from_millis(5), None)?;
        drop(backup);
        copy.pragma_update(None, "journal_mode", "DELETE")?;
        drop(copy);
        crate::night::files::persist_synced(part, to).map_err(|e| failed(e.into()))
    }

    /// A transaction that takes the write lock at once: one that read first
    /// and then wrote would fail where another process wrote in between.
    fn write(&mut self) -> Result<Tx<'_>, ArchiveError> {
        self.conn.write()
    }

    /// The stored results of an image (all its pages, in page order), if any.
    pub fn find(&self, tournament: i64, sha256: &str) -> Result<Vec<SheetResult>, ArchiveError> {
        let rows = self.conn.db().query(
            "SELECT result_json, source, page FROM sheets WHERE tournament_id = ?1 AND sha256 = ?2 ORDER BY page",
            args![tournament, sha256],
        )?;
        rows.iter()
            .map(|r| {
                Ok(readable(
                    &r.get::<String>(0)?,
                    &r.get::<String>(1)?,
                    r.get(2)?,
                ))
            })
            .collect()
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
        let mut tx = self.write()?;
        if let Some(path) = scan {
            scans::keep(&mut tx, sha256, path)?;
        }
        for (result_file, sheet) in pages {
            let old: Option<i64> = tx.optional(
                "SELECT id FROM sheets WHERE tournament_id = ?1 AND sha256 = ?2 AND page = ?3",
                args![tournament, sha256, sheet.page.unwrap_or(1)],
            )?;
            // The same image again: the archived sheet (and its corrections) stays.
            if old.is_some() {
                continue;
            }
            let json = sheet.to_json_pretty();
            let file = (Some(result_file.as_str()), now());
            let id = insert_sheet(&mut tx, (tournament, sha256), sheet, &json, file)?;
            record::keep_reading(&mut tx, id, &json, (&record::reader_name(), &now()), None)?;
            write_details(&mut tx, id, sheet)?;
        }
        tx.commit()
    }

    /// The pages of one input file read again (on another form, by a
    /// newer reader): each a new reading of the sheet the archive holds
    /// of it ([`Archive::add_reading`]), every decision standing; a page
    /// not stored before is stored as [`Archive::store_file`] does. A page
    /// the new reading cannot read leaves that sheet as it was and is
    /// named in the error, after the others are read.
    pub fn reread(
        &mut self,
        tournament: i64,
        sha256: &str,
        scan: Option<&Path>,
        pages: &[(String, SheetResult)],
        check: &crate::record::stand::Check,
    ) -> Result<(), ArchiveError> {
        let stored = self.sheets_of_scan(tournament, sha256)?;
        let mut refused = None;
        for (result_file, sheet) in pages {
            let page = sheet.page.unwrap_or(1);
            let Some(old) = stored.iter().find(|s| s.result.page.unwrap_or(1) == page) else {
                self.store_file(
                    tournament,
                    sha256,
                    scan,
                    &[(result_file.clone(), sheet.clone())],
                )?;
                continue;
            };
            match self.add_reading(old.id, sheet, check) {
                Err(e @ ArchiveError::RereadUnreadable(_)) => refused = Some(e),
                other => {
                    other?;
                }
            }
        }
        refused.map_or(Ok(()), Err)
    }

    /// Every stored sheet of the tournament, in the order they were stored.
    pub fn sheets(&self, tournament: i64) -> Result<Vec<StoredSheet>, ArchiveError> {
        self.stored(
            "tournament_id = ?1 AND CAST(?2 AS TEXT) IS NULL",
            tournament,
            None,
        )
    }

    /// The tournament's sheets read from the scan whose content hashes to
    /// `sha256` (its pages), in the order they were stored.
    pub fn sheets_of_scan(
        &self,
        tournament: i64,
        sha256: &str,
    ) -> Result<Vec<StoredSheet>, ArchiveError> {
        self.stored(
            "tournament_id = ?1 AND sha256 = ?2",
            tournament,
            Some(sha256),
        )
    }

    /// The stored sheets `condition` picks (over `?1` the tournament and
    /// `?2` a scan's hash).
    fn stored(
        &self,
        condition: &str,
        tournament: i64,
        sha256: Option<&str>,
    ) -> Result<Vec<StoredSheet>, ArchiveError> {
        let rows = self.conn.db().query(
            &format!(
                "SELECT id, sha256, result_json, result_file, version, source, page FROM sheets WHERE {condition} ORDER BY id"
            ),
            args![tournament, sha256],
        )?;
        rows.iter()
            .map(|r| {
                let (source, page) = (r.get::<String>(5)?, r.get::<i64>(6)?);
                Ok(StoredSheet {
                    id: r.get(0)?,
                    sha256: r.get(1)?,
                    result: readable(&r.get::<String>(2)?, &source, page),
                    result_file: r.get(3)?,
                    version: r.get(4)?,
                })
            })
            .collect()
    }

    /// The archive id of the sheet with this source (and page).
    pub fn sheet_id(
        &self,
        tournament: i64,
        source: &str,
        page: u32,
    ) -> Result<Option<i64>, ArchiveError> {
        self.conn.db().optional(
            "SELECT id FROM sheets WHERE tournament_id = ?1 AND source = ?2 AND page = ?3",
            args![tournament, source, page],
        )
    }

    /// The tournament's sheets as a review queue lists them, read from
    /// the archive's columns (no result is parsed): flagged first, then
    /// unreadable, then ok, each in the order stored.
    pub fn queue(&self, tournament: i64) -> Result<Vec<QueueEntry>, ArchiveError> {
        let e = self.engine();
        let sql = format!(
            "SELECT s.id, s.source, r.number, s.table_no, s.status, s.version,
                    (SELECT count(*) FROM flags f WHERE f.sheet_id = s.id),
                    CASE WHEN {} IS NOT NULL THEN 'discarded'
                         WHEN {} IS NOT NULL THEN 'copy'
                         WHEN {} IS NOT NULL THEN 'void' END AS out
             FROM sheets s LEFT JOIN rounds r ON r.id = s.round_id
             WHERE s.tournament_id = ?1
             ORDER BY CASE s.status WHEN 'flagged' THEN 0 WHEN 'unreadable' THEN 1 ELSE 2 END, s.id",
            e.json_text("s.result_json", "discarded"),
            e.json_text("s.result_json", "copy_of"),
            e.json_text("s.result_json", "void"),
        );
        let rows = self.conn.db().query(&sql, args![tournament])?;
        rows.iter()
            .map(|r| {
                Ok(QueueEntry {
                    id: r.get(0)?,
                    source: r.get(1)?,
                    round: r.get(2)?,
                    table: r.get(3)?,
                    status: r.get(4)?,
                    version: r.get(5)?,
                    flags: r.get(6)?,
                    out: r.get(7)?,
                })
            })
            .collect()
    }

    /// A stored sheet of the tournament, by its archive id.
    pub fn sheet(
        &self,
        tournament: i64,
        sheet_id: i64,
    ) -> Result<Option<StoredSheet>, ArchiveError> {
        let row = self.conn.db().row(
            "SELECT sha256, result_json, result_file, version, source, page FROM sheets WHERE id = ?1 AND tournament_id = ?2",
            args![sheet_id, tournament],
        )?;
        row.map(|r| {
            let (source, page) = (r.get::<String>(4)?, r.get::<i64>(5)?);
            Ok(StoredSheet {
                id: sheet_id,
                sha256: r.get(0)?,
                result: readable(&r.get::<String>(1)?, &source, page),
                result_file: r.get(2)?,
                version: r.get(3)?,
            })
        })
        .transpose()
    }

    /// The trail of a sheet, oldest first ([`Archive::trail`]).
    pub fn corrections(&self, sheet_id: i64) -> Result<Vec<Change>, ArchiveError> {
        self.trail(sheet_id)
    }

    /// Every value of the tournament as CSV: source, page, round, table, field, value.
    pub fn write_values_csv<W: std::io::Write>(
        &self,
        tournament: i64,
        out: W,
    ) -> Result<(), ArchiveError> {
        let mut w = csv::Writer::from_writer(out);
        w.write_record(["source", "page", "round", "table", "field", "value"])?;
        let rows = self.conn.db().query(
            "SELECT s.source, s.page, r.number, s.table_no, v.field, v.value
             FROM sheet_values v JOIN sheets s ON s.id = v.sheet_id
             LEFT JOIN rounds r ON r.id = s.round_id
             WHERE s.tournament_id = ?1 ORDER BY s.id, v.seq",
            args![tournament],
        )?;
        for r in rows {
            w.write_record([
                r.get::<String>(0)?,
                r.get::<i64>(1)?.to_string(),
                opt(r.get(2)?),
                opt(r.get(3)?),
                r.get::<String>(4)?,
                opt(r.get(5)?),
            ])?;
        }
        w.flush().map_err(csv::Error::from)?;
        Ok(())
    }
}

fn opt(v: Option<i64>) -> String {
    v.map(|v| v.to_string()).unwrap_or_default()
}

fn parse(json: &str) -> Result<SheetResult, ArchiveError> {
    SheetResult::from_stored("archive", json).map_err(|e| ArchiveError::StoredResult(Box::new(e)))
}

/// A stored sheet as the night's views take it: a result that cannot be
/// read back is set aside as an unreadable sheet that says why (its
/// readings stay in the record), so one sheet never stops the night.
fn readable(json: &str, source: &str, page: i64) -> SheetResult {
    parse(json).unwrap_or_else(|e| {
        let seats = serde_json::from_str::<serde_json::Value>(json)
            .ok()
            .and_then(|v| v.get("players")?.as_array().map(Vec::len))
            .filter(|n| (2..=8).contains(n))
            .unwrap_or(4);
        let why = crate::page::unreadable::Unreadable::SetAside(e.tell(Lang::De));
        let page = u32::try_from(page).unwrap_or(1);
        crate::scan::unreadable(source, page, seats, &why, Lang::De)
    })
}

/// Stores a new sheet of night `tournament` from the scan `sha256`,
/// `json` its result, with the name of its result file and when it was
/// scanned; its id.
fn insert_sheet(
    tx: &mut Tx,
    (tournament, sha256): (i64, &str),
    sheet: &SheetResult,
    json: &str,
    (result_file, scanned): (Option<&str>, String),
) -> Result<i64, ArchiveError> {
    let round_id = round_id(tx, tournament, sheet.round)?;
    let fit = sheet.notes.alignment.as_ref().map(|a| a.fit);
    tx.value(
        "INSERT INTO sheets (tournament_id, round_id, source, page, sha256, form, rules, status, fit, table_no, result_json, result_file, result_sha256, scanned)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14) RETURNING id",
        args![
            tournament,
            round_id,
            sheet.source.clone().unwrap_or_default(),
            sheet.page.unwrap_or(1),
            sha256,
            sheet.form.as_deref(),
            sheet.rules.as_deref(),
            status_str(sheet),
            fit,
            sheet.table,
            json,
            result_file,
            text_sha256(json),
            scanned,
        ],
    )
}

/// The id of the tournament's round `number`, made on first use.
fn round_id(
    tx: &mut impl Sql,
    tournament: i64,
    number: Option<u32>,
) -> Result<Option<i64>, ArchiveError> {
    let Some(n) = number else {
        return Ok(None);
    };
    tx.execute(
        "INSERT INTO rounds (tournament_id, number) VALUES (?1, ?2) ON CONFLICT DO NOTHING",
        args![tournament, n],
    )?;
    Ok(Some(tx.value(
        "SELECT id FROM rounds WHERE tournament_id = ?1 AND number = ?2",
        args![tournament, n],
    )?))
}

fn status_str(sheet: &SheetResult) -> String {
    serde_json::to_value(sheet.status)
        .ok()
        .and_then(|v| v.as_str().map(String::from))
        .unwrap_or_default()
}

fn write_details(tx: &mut impl Sql, id: i64, sheet: &SheetResult) -> Result<(), ArchiveError> {
    let players = sheet
        .players
        .iter()
        .enumerate()
        .map(|(seat, p)| vec![id.into(), (seat as i64 + 1).into(), p.as_deref().into()]);
    insert_rows(tx, "players (sheet_id, seat, participant)", players)?;
    let values = values(sheet)
        .into_iter()
        .enumerate()
        .map(|(seq, (field, value))| {
            vec![id.into(), field.into(), value.into(), (seq as i64).into()]
        });
    insert_rows(tx, "sheet_values (sheet_id, field, value, seq)", values)?;
    let flags = sheet.flags.iter().map(|f| {
        let severity = match f.severity {
            crate::check::flags::Severity::Error => "error",
            _ => "warning",
        };
        vec![
            id.into(),
            f.code.as_str().into(),
            severity.into(),
            f.row.into(),
            f.seat.map(|s| s as i64).into(),
            f.field.as_deref().into(),
            f.message.as_str().into(),
        ]
    });
    insert_rows(
        tx,
        "flags (sheet_id, code, severity, row_no, seat, field, message)",
        flags,
    )
}

/// Inserts `rows` into `into` (`table (columns)`), many in one statement:
/// a sheet's few hundred values are a few statements, not hundreds.
fn insert_rows(
    tx: &mut impl Sql,
    into: &str,
    rows: impl Iterator<Item = Vec<engine::Value>>,
) -> Result<(), ArchiveError> {
    // Within SQLite's oldest limit of 999 parameters a statement.
    const PARAMETERS: usize = 999;
    let rows: Vec<Vec<engine::Value>> = rows.collect();
    let Some(width) = rows.first().map(Vec::len) else {
        return Ok(());
    };
    for chunk in rows.chunks(PARAMETERS / width) {
        let tuples: Vec<String> = (0..chunk.len())
            .map(|r| {
                let marks: Vec<String> =
                    (1..=width).map(|c| format!("?{}", r * width + c)).collect();
                format!("({})", marks.join(", "))
            })
            .collect();
        let sql = format!("INSERT INTO {into} VALUES {}", tuples.join(", "));
        let args: Vec<engine::Value> = chunk.iter().flatten().cloned().collect();
        tx.execute(&sql, &args)?;
    }
    Ok(())
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
    /// Anna's answer that the paper says `value` at `path`.
    fn answer(
        a: &mut Archive,
        id: i64,
        path: &str,
        value: i64,
    ) -> Result<Vec<Change>, ArchiveError> {
        let paper = crate::record::Decision::Paper {
            path: path.into(),
            value: value.into(),
        };
        Ok(a.decide(id, "Anna", &[paper], None, &Ok)?.changes)
    }

    fn temp(name: &str) -> (tempfile::TempDir, std::path::PathBuf) {
        let dir = tempfile::Builder::new()
            .prefix("aufsicht-archive-")
            .tempdir()
            .expect("temp dir");
        let path = dir.path().join(format!("{name}.sqlite"));
        (dir, path)
    }

    fn user_version(path: &Path) -> i64 {
        let conn = rusqlite::Connection::open(path).expect("open");
        conn.query_row("PRAGMA user_version", [], |r| r.get(0))
            .expect("version")
    }

    #[test]
    fn a_night_should_be_picked_by_its_name_or_its_only_date() {
        let (_dir, path) = temp("nights");
        let a = Archive::open(&path).expect("open");
        let jan = a.tournament("Januar", "merkur").expect("night");
        let day = |d: &str| chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d").expect("date");
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
        assert_eq!(a.pick_tournament(Some("10.1.2026")).expect("German"), jan);
        assert_eq!(a.pick_tournament(Some("10.01.2026")).expect("German"), jan);
        match a.pick_tournament(Some("2026-02-14")) {
            Err(ArchiveError::SeveralTournaments(names)) => {
                assert_eq!(names, "Doppelt 1 (14.02.2026), Doppelt 2 (14.02.2026)")
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
        let conn = rusqlite::Connection::open(&path).expect("open");
        let known = SCHEMA_VERSION as i64;
        let newer_version = known + 1;
        conn.pragma_update(None, "user_version", newer_version)
            .expect("set");
        drop(conn);
        let refused = Archive::open(&path).err().expect("refused");
        let newer = matches!(refused, ArchiveError::Newer { version, known: k, .. }
            if k == known && version == newer_version);
        assert!(newer, "{refused:?}");
        let said = crate::catalogue::Tell::tell(&refused, crate::Lang::En);
        assert!(said.contains("newer aufsicht"), "{said}");
        assert_eq!(user_version(&path), newer_version);
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
                            answer(&mut a, id, "endergebnis/1", 1)?;
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
        let changes = answer(&mut a, id, "endergebnis/1", 1).expect("correct");
        assert_eq!(
            changes
                .iter()
                .map(|c| (c.field.as_str(), c.old.as_deref(), c.new.as_deref()))
                .collect::<Vec<_>>(),
            vec![("endergebnis.1", Some("5"), Some("1"))]
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
        assert_eq!((entry.by.as_str(), entry.kind), ("Anna", ChangeKind::Paper));
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
        answer(&mut a, id, "round", 2).expect("correct");
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
