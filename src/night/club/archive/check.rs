//! `archive check`: every kept scan held to its hash, every stored result
//! to its hash and to the values the archive's tables hold of it. One
//! flipped byte anywhere in them is found.

use std::collections::BTreeMap;
use std::io::Read;

use sha2::{Digest, Sha256};

use super::engine::{Conn, Sql, args};
use super::{Archive, hex, parse, text_sha256, values};
use crate::error::ArchiveError;

/// Something found wrong in an archive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Damage {
    /// A kept scan whose bytes no longer hash to its name.
    Scan { sha256: String },
    /// A stored result whose text no longer hashes to its hash.
    Result { sheet: i64 },
    /// A stored result that is no result.
    Unreadable {
        sheet: i64,
        why: Box<crate::error::SheetError>,
    },
    /// Values the archive's table holds otherwise than its result (their
    /// fields, in the result's order).
    Values { sheet: i64, fields: Vec<String> },
}

/// What `archive check` looked at and found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Checked {
    pub scans: u64,
    pub sheets: u64,
    /// Sheets stored without their scan: stored before scans were kept,
    /// or from a scan too large to keep.
    pub without_scan: u64,
    pub damage: Vec<Damage>,
}

impl Archive {
    /// Checks every kept scan and every stored result.
    pub fn check(&self) -> Result<Checked, ArchiveError> {
        let mut checked = Checked::default();
        self.check_scans(&mut checked)?;
        self.check_results(&mut checked)?;
        checked.without_scan = self.conn.db().value::<i64>(
            "SELECT count(*) FROM sheets WHERE sha256 NOT IN (SELECT sha256 FROM scans)",
            args![],
        )? as u64;
        Ok(checked)
    }

    /// Each kept scan's bytes hashed.
    fn check_scans(&self, checked: &mut Checked) -> Result<(), ArchiveError> {
        let kept = self
            .conn
            .db()
            .query("SELECT sha256 FROM scans ORDER BY sha256", args![])?;
        for row in kept {
            let sha256: String = row.get(0)?;
            checked.scans += 1;
            if self.hash_of_kept(&sha256)? != sha256 {
                checked.damage.push(Damage::Scan { sha256 });
            }
        }
        Ok(())
    }

    /// The SHA-256 of a kept scan's bytes; SQLite's read in pieces (a
    /// night's PDF is hundreds of megabytes).
    fn hash_of_kept(&self, sha256: &str) -> Result<String, ArchiveError> {
        let mut hasher = Sha256::new();
        match &self.conn {
            Conn::Sqlite(conn) => {
                let row: i64 =
                    conn.query_row("SELECT rowid FROM scans WHERE sha256 = ?1", [sha256], |r| {
                        r.get(0)
                    })?;
                let mut blob = conn.blob_open("main", "scans", "bytes", row, true)?;
                let mut buffer = vec![0u8; 1 << 16];
                loop {
                    let n = blob.read(&mut buffer).map_err(ArchiveError::ScanRead)?;
                    if n == 0 {
                        break;
                    }
                    hasher.update(&buffer[..n]);
                }
            }
            Conn::Postgres(_) => {
                let bytes: Vec<u8> = self
                    .conn
                    .db()
                    .value("SELECT bytes FROM scans WHERE sha256 = ?1", args![sha256])?;
                hasher.update(&bytes);
            }
        }
        Ok(hex(&hasher.finalize()))
    }

    /// Each stored result against its hash and the values table.
    fn check_results(&self, checked: &mut Checked) -> Result<(), ArchiveError> {
        let rows = self.conn.db().query(
            "SELECT id, result_json, result_sha256 FROM sheets ORDER BY id",
            args![],
        )?;
        for row in rows {
            let (sheet, json, hash): (i64, String, Option<String>) =
                (row.get(0)?, row.get(1)?, row.get(2)?);
            checked.sheets += 1;
            if hash.as_deref() != Some(text_sha256(&json).as_str()) {
                checked.damage.push(Damage::Result { sheet });
            }
            match parse(&json) {
                Ok(read) => {
                    // Compared as written: a number out of range read back
                    // in doubt is no damage of the values table.
                    let result = serde_json::from_str(&json).unwrap_or(read);
                    let table = self.stored_values(sheet)?;
                    let fields: Vec<String> = values(&result)
                        .into_iter()
                        .filter(|(field, value)| table.get(field) != Some(value))
                        .map(|(field, _)| field)
                        .collect();
                    if !fields.is_empty() {
                        checked.damage.push(Damage::Values { sheet, fields });
                    }
                }
                Err(ArchiveError::StoredResult(why)) => {
                    checked.damage.push(Damage::Unreadable { sheet, why })
                }
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// The values table's rows of a sheet.
    fn stored_values(&self, sheet: i64) -> Result<BTreeMap<String, Option<i64>>, ArchiveError> {
        let rows = self.conn.db().query(
            "SELECT field, value FROM sheet_values WHERE sheet_id = ?1",
            args![sheet],
        )?;
        rows.iter().map(|r| Ok((r.get(0)?, r.get(1)?))).collect()
    }
}
