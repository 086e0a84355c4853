//! The scans themselves, kept in the archive by their content (SHA-256):
//! an archive copied alone, without the scan folders, still shows every
//! crop, every review and every audit.

use std::io::{Read, Write};
use std::path::Path;

use sha2::{Digest, Sha256};

use super::engine::{Either, Sql, Tx, args};
use super::{Archive, hex};
use crate::error::ArchiveError;

/// A scan larger than this is not kept (SQLite holds no value over 1 GB);
/// its results are stored all the same, and `archive check` says so.
pub const MAX_KEPT_SCAN: u64 = 900 << 20;

/// Keeps the bytes of the scan `path` under `sha256`, once: the same
/// image stored again is already there. The file is read in pieces and
/// hashed as it is copied; a file that changed since it was hashed is
/// refused, nothing kept.
pub(super) fn keep(tx: &mut Tx, sha256: &str, path: &Path) -> Result<(), ArchiveError> {
    if is_kept(tx, sha256)? {
        return Ok(());
    }
    let problem = |e: std::io::Error| ArchiveError::Scan {
        path: path.display().to_string(),
        source: e,
    };
    let mut file = std::fs::File::open(path).map_err(problem)?;
    let size = file.metadata().map_err(problem)?.len();
    if size > MAX_KEPT_SCAN {
        return Ok(());
    }
    let hash = match tx {
        Either::Sqlite(tx) => {
            tx.execute(
                "INSERT INTO scans (sha256, size, bytes) VALUES (?1, ?2, zeroblob(?2))",
                rusqlite::params![sha256, size as i64],
            )?;
            let row = tx.last_insert_rowid();
            let mut blob = tx.blob_open("main", "scans", "bytes", row, false)?;
            copy_hashing(&mut file, &mut blob).map_err(problem)?
        }
        Either::Postgres(_) => {
            let mut bytes = Vec::with_capacity(size as usize);
            let hash = copy_hashing(&mut file, &mut bytes).map_err(problem)?;
            put(tx, sha256, bytes)?;
            hash
        }
    };
    if hash != sha256 {
        return Err(problem(std::io::Error::other(
            "the file changed while it was read",
        )));
    }
    Ok(())
}

/// Whether the scan `sha256` is kept.
pub(super) fn is_kept(db: &mut impl Sql, sha256: &str) -> Result<bool, ArchiveError> {
    Ok(db
        .optional::<i64>("SELECT 1 FROM scans WHERE sha256 = ?1", args![sha256])?
        .is_some())
}

/// Keeps the bytes of a scan already hashed, once.
pub(super) fn put(db: &mut impl Sql, sha256: &str, bytes: Vec<u8>) -> Result<(), ArchiveError> {
    let size = bytes.len() as i64;
    db.execute(
        "INSERT INTO scans (sha256, size, bytes) VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING",
        args![sha256, size, bytes],
    )?;
    Ok(())
}

/// Copies `from` into `to` in pieces; the SHA-256 of what went (hex).
fn copy_hashing(from: &mut impl Read, to: &mut impl Write) -> std::io::Result<String> {
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 1 << 16];
    loop {
        let n = from.read(&mut buffer)?;
        if n == 0 {
            break;
        }
        hasher.update(&buffer[..n]);
        to.write_all(&buffer[..n])?;
    }
    Ok(hex(&hasher.finalize()))
}

impl Archive {
    /// The bytes of the scan kept under `sha256`, if it is kept.
    pub fn scan_bytes(&self, sha256: &str) -> Result<Option<Vec<u8>>, ArchiveError> {
        self.conn
            .db()
            .optional("SELECT bytes FROM scans WHERE sha256 = ?1", args![sha256])
    }

    /// How many scans are kept and their bytes.
    pub fn kept_scans(&self) -> Result<(u64, u64), ArchiveError> {
        let row = self.conn.db().row(
            "SELECT count(*), CAST(coalesce(sum(size), 0) AS BIGINT) FROM scans",
            args![],
        )?;
        let row = row.ok_or(ArchiveError::Column(0))?;
        Ok((row.get::<i64>(0)? as u64, row.get::<i64>(1)? as u64))
    }
}
