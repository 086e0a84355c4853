//! `archive check`: every kept scan held to its hash, every stored result
//! to its hash and to the values the archive's tables hold of it. One
//! flipped byte anywhere in them is found.

use std::collections::BTreeMap;
use std::io::Read;

use rusqlite::params;
use sha2::{Digest, Sha256};

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
    Unreadable { sheet: i64, message: String },
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
        checked.without_scan = self.conn.query_row(
            "SELECT count(*) FROM sheets WHERE sha256 NOT IN (SELECT sha256 FROM scans)",
            [],
            |r| r.get::<_, i64>(0),
        )? as u64;
        Ok(checked)
    }

    /// Each kept scan's bytes hashed, read in pieces (a night's PDF is
    /// hundreds of megabytes).
    fn check_scans(&self, checked: &mut Checked) -> Result<(), ArchiveError> {
        let kept: Vec<(i64, String)> = self
            .conn
            .prepare("SELECT rowid, sha256 FROM scans ORDER BY rowid")?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<Result<_, _>>()?;
        for (row, sha256) in kept {
            checked.scans += 1;
            let mut blob = self.conn.blob_open("main", "scans", "bytes", row, true)?;
            let mut hasher = Sha256::new();
            let mut buffer = vec![0u8; 1 << 16];
            loop {
                let n = blob.read(&mut buffer).map_err(ArchiveError::ScanRead)?;
                if n == 0 {
                    break;
                }
                hasher.update(&buffer[..n]);
            }
            if hex(&hasher.finalize()) != sha256 {
                checked.damage.push(Damage::Scan { sha256 });
            }
        }
        Ok(())
    }

    /// Each stored result against its hash and the values table.
    fn check_results(&self, checked: &mut Checked) -> Result<(), ArchiveError> {
        let mut stmt = self
            .conn
            .prepare("SELECT id, result_json, result_sha256 FROM sheets ORDER BY id")?;
        let rows = stmt.query_map([], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, Option<String>>(2)?,
            ))
        })?;
        for row in rows {
            let (sheet, json, hash) = row?;
            checked.sheets += 1;
            if hash.as_deref() != Some(text_sha256(&json).as_str()) {
                checked.damage.push(Damage::Result { sheet });
            }
            match parse(&json) {
                Ok(result) => {
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
                Err(e) => checked.damage.push(Damage::Unreadable {
                    sheet,
                    message: e.to_string(),
                }),
            }
        }
        Ok(())
    }

    /// The values table's rows of a sheet.
    fn stored_values(&self, sheet: i64) -> Result<BTreeMap<String, Option<i64>>, ArchiveError> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT field, value FROM sheet_values WHERE sheet_id = ?1")?;
        let rows = stmt.query_map(params![sheet], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}
