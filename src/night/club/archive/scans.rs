//! The scans themselves, kept in the archive by their content (SHA-256):
//! an archive copied alone, without the scan folders, still shows every
//! crop, every review and every audit.

use std::io::{Read, Write};
use std::path::Path;

use rusqlite::{OptionalExtension, Transaction, params};
use sha2::{Digest, Sha256};

use super::{Archive, hex};
use crate::error::ArchiveError;

/// A scan larger than this is not kept (SQLite holds no value over 1 GB);
/// its results are stored all the same, and `archive check` says so.
pub const MAX_KEPT_SCAN: u64 = 900 << 20;

/// Keeps the bytes of the scan `path` under `sha256`, once: the same
/// image stored again is already there. The file is read in pieces and
/// hashed as it is copied; a file that changed since it was hashed is
/// refused, nothing kept.
pub(super) fn keep(tx: &Transaction, sha256: &str, path: &Path) -> Result<(), ArchiveError> {
    let kept: Option<i64> = tx
        .query_row(
            "SELECT 1 FROM scans WHERE sha256 = ?1",
            params![sha256],
            |r| r.get(0),
        )
        .optional()?;
    if kept.is_some() {
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
    tx.execute(
        "INSERT INTO scans (sha256, size, bytes) VALUES (?1, ?2, zeroblob(?2))",
        params![sha256, size as i64],
    )?;
    let row = tx.last_insert_rowid();
    let mut blob = tx.blob_open("main", "scans", "bytes", row, false)?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 1 << 16];
    loop {
        let n = file.read(&mut buffer).map_err(problem)?;
        if n == 0 {
            break;
        }
        hasher.update(&buffer[..n]);
        blob.write_all(&buffer[..n]).map_err(problem)?;
    }
    if hex(&hasher.finalize()) != sha256 {
        return Err(problem(std::io::Error::other(
            "the file changed while it was read",
        )));
    }
    Ok(())
}

impl Archive {
    /// The bytes of the scan kept under `sha256`, if it is kept.
    pub fn scan_bytes(&self, sha256: &str) -> Result<Option<Vec<u8>>, ArchiveError> {
        Ok(self
            .conn
            .query_row(
                "SELECT bytes FROM scans WHERE sha256 = ?1",
                params![sha256],
                |r| r.get(0),
            )
            .optional()?)
    }

    /// How many scans are kept and their bytes.
    pub fn kept_scans(&self) -> Result<(u64, u64), ArchiveError> {
        Ok(self.conn.query_row(
            "SELECT count(*), coalesce(sum(size), 0) FROM scans",
            [],
            |r| Ok((r.get::<_, i64>(0)? as u64, r.get::<_, i64>(1)? as u64)),
        )?)
    }
}
