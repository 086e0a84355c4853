//! The archive keeps each sheet's record: its readings and the people's
//! decisions, each a row of its own that nothing overwrites. The sheet as
//! it stands ([`crate::record::stand::stand`]) is kept beside them, made
//! again with every new row, so that every view reads it without
//! recomputing; the trail says what each row changed.

use rusqlite::{OptionalExtension, Transaction, params};

use super::{Archive, now, parse, round_id, status_str, text_sha256, write_details};
use crate::error::{ArchiveError, CopyRefusal};
use crate::record::stand::{Check, stand};
use crate::record::trail::{
    Change, ChangeKind, Correction, kind_of, lines_of, path_of_field, reading_lines,
};
use crate::record::{Decision, Record};
use crate::sheet::{SheetResult, Status};

/// Who the trail names for what the reader changed: the program, never a person.
pub fn reader_name() -> String {
    format!("aufsicht {}", env!("CARGO_PKG_VERSION"))
}

/// What a decision did: the sheet as it now stands, its version, and the
/// trail lines it wrote.
pub struct Decided {
    pub sheet: SheetResult,
    pub version: i64,
    pub changes: Vec<Change>,
}

/// A sheet's record: its readings, oldest first, and its decisions in order.
pub struct SheetRecord {
    pub readings: Vec<SheetResult>,
    pub records: Vec<Record>,
}

impl Archive {
    /// Takes the decisions of `by` on sheet `id` (all or none): each is
    /// checked against the sheet as it stands, stored as a record, and the
    /// sheet made again from its record by `check`. A decision on an older
    /// version than the stored one is refused, nothing stored.
    pub fn decide(
        &mut self,
        id: i64,
        by: &str,
        decisions: &[Decision],
        version: Option<i64>,
        check: &Check,
    ) -> Result<Decided, ArchiveError> {
        let tx = self.write()?;
        let (before, stored_version, tournament) = current(&tx, id)?;
        if let Some(yours) = version.filter(|&v| v != stored_version) {
            return Err(ArchiveError::Stale {
                id,
                now: stored_version,
                yours,
            });
        }
        let at = now();
        for decision in decisions {
            decision.check(&before).map_err(ArchiveError::Refused)?;
            if let Decision::Copy { of: Some(of) } = decision {
                copy_allowed(&tx, tournament, id, *of)?;
            }
        }
        let mut record = record_of(&tx, id)?;
        for decision in decisions {
            let row = Record {
                by: by.to_string(),
                at: at.clone(),
                decision: decision.clone(),
            };
            tx.execute(
                "INSERT INTO records (sheet_id, who, at, decision) VALUES (?1, ?2, ?3, ?4)",
                params![id, by, at, serde_json::to_string(&row.decision)?],
            )?;
            record.records.push(row);
        }
        let after = made(&record, id, check)?;
        let mut changes = Vec::new();
        for decision in decisions {
            for line in lines_of(decision, &before, &after) {
                changes.push(trail_line(&tx, id, kind_of(decision), line, by, &at)?);
            }
        }
        let version = keep_stand(&tx, id, tournament, &after)?;
        tx.commit()?;
        Ok(Decided {
            sheet: after,
            version,
            changes,
        })
    }

    /// Adds a new reading of sheet `id` (its scan read again): every
    /// decision stands, the sheet is made again, and what the reading
    /// changed goes into the trail as the program's. A reading that cannot
    /// read a page the sheet stands readable on changes nothing.
    pub fn add_reading(
        &mut self,
        id: i64,
        reading: &SheetResult,
        check: &Check,
    ) -> Result<Decided, ArchiveError> {
        let tx = self.write()?;
        let (before, _, tournament) = current(&tx, id)?;
        if reading.status == Status::Unreadable && before.status != Status::Unreadable {
            return Err(ArchiveError::RereadUnreadable(id));
        }
        let mut reading = reading.clone();
        // The same paper: its name and page as stored.
        reading.source.clone_from(&before.source);
        reading.page = before.page;
        let at = now();
        keep_reading(&tx, id, &reading, &at)?;
        let mut record = record_of(&tx, id)?;
        record.readings.push(reading);
        let after = made(&record, id, check)?;
        let by = reader_name();
        let mut changes = Vec::new();
        for (kind, line) in reading_lines(&before, &after) {
            changes.push(trail_line(&tx, id, kind, line, &by, &at)?);
        }
        let version = keep_stand(&tx, id, tournament, &after)?;
        tx.commit()?;
        Ok(Decided {
            sheet: after,
            version,
            changes,
        })
    }

    /// The record of sheet `id`.
    pub fn record(&self, id: i64) -> Result<SheetRecord, ArchiveError> {
        record_of(&self.conn, id)
    }

    /// Sheet `id` made from its record alone (what the archive keeps as it
    /// stands must equal it).
    pub fn stand_of(&self, id: i64, check: &Check) -> Result<SheetResult, ArchiveError> {
        made(&record_of(&self.conn, id)?, id, check)
    }

    /// The trail of a sheet, oldest first: every line of its record.
    pub fn trail(&self, id: i64) -> Result<Vec<Change>, ArchiveError> {
        let mut stmt = self.conn.prepare(
            "SELECT field, path, old_value, new_value, who, at, kind FROM corrections WHERE sheet_id = ?1 ORDER BY id",
        )?;
        let rows = stmt.query_map(params![id], |r| {
            let field: String = r.get(0)?;
            let kind: Option<String> = r.get(6)?;
            Ok(Change {
                kind: kind
                    .as_deref()
                    .and_then(ChangeKind::parse)
                    .unwrap_or_else(|| ChangeKind::of_field(&field)),
                path: r
                    .get::<_, Option<String>>(1)?
                    .unwrap_or_else(|| path_of_field(&field)),
                field,
                old: r.get(2)?,
                new: r.get(3)?,
                by: r.get(4)?,
                at: r.get(5)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

/// The first reading of a sheet just stored.
pub(super) fn keep_reading(
    tx: &Transaction,
    id: i64,
    reading: &SheetResult,
    at: &str,
) -> Result<(), ArchiveError> {
    tx.execute(
        "INSERT INTO readings (sheet_id, result_json, reader, at) VALUES (?1, ?2, ?3, ?4)",
        params![id, reading.to_json_pretty(), reader_name(), at],
    )?;
    Ok(())
}

/// The sheet as stored now, its version and its night.
fn current(tx: &Transaction, id: i64) -> Result<(SheetResult, i64, i64), ArchiveError> {
    let (json, version, tournament): (String, i64, i64) = tx
        .query_row(
            "SELECT result_json, version, tournament_id FROM sheets WHERE id = ?1",
            params![id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .optional()?
        .ok_or(ArchiveError::NoSuchSheet(id))?;
    Ok((parse(&json)?, version, tournament))
}

fn record_of(conn: &rusqlite::Connection, id: i64) -> Result<SheetRecord, ArchiveError> {
    let mut stmt =
        conn.prepare("SELECT result_json FROM readings WHERE sheet_id = ?1 ORDER BY id")?;
    let readings = stmt
        .query_map(params![id], |r| r.get::<_, String>(0))?
        .map(|json| parse(&json?))
        .collect::<Result<Vec<_>, _>>()?;
    let mut stmt =
        conn.prepare("SELECT who, at, decision FROM records WHERE sheet_id = ?1 ORDER BY id")?;
    let rows = stmt.query_map(params![id], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, String>(2)?,
        ))
    })?;
    let mut records = Vec::new();
    for row in rows {
        let (by, at, decision) = row?;
        records.push(Record {
            by,
            at,
            decision: serde_json::from_str(&decision)?,
        });
    }
    Ok(SheetRecord { readings, records })
}

/// The sheet made from its record: its newest reading and every decision.
fn made(record: &SheetRecord, id: i64, check: &Check) -> Result<SheetResult, ArchiveError> {
    let reading = record
        .readings
        .last()
        .ok_or(ArchiveError::NoSuchSheet(id))?;
    stand(reading, &record.records, id, check).map_err(|e| ArchiveError::StoredResult(Box::new(e)))
}

/// Keeps the sheet as it now stands, a version on; returns the version.
fn keep_stand(
    tx: &Transaction,
    id: i64,
    tournament: i64,
    sheet: &SheetResult,
) -> Result<i64, ArchiveError> {
    // A corrected round moves the sheet to that round.
    let round_id = round_id(tx, tournament, sheet.round)?;
    let json = sheet.to_json_pretty();
    tx.execute(
        "UPDATE sheets SET status = ?2, table_no = ?3, result_json = ?4, round_id = ?5, result_sha256 = ?6, form = ?7, version = version + 1 WHERE id = ?1",
        params![
            id,
            status_str(sheet),
            sheet.table,
            json,
            round_id,
            text_sha256(&json),
            sheet.form,
        ],
    )?;
    for table in ["players", "sheet_values", "flags"] {
        tx.execute(
            &format!("DELETE FROM {table} WHERE sheet_id = ?1"),
            params![id],
        )?;
    }
    write_details(tx, id, sheet)?;
    Ok(tx.query_row(
        "SELECT version FROM sheets WHERE id = ?1",
        params![id],
        |r| r.get(0),
    )?)
}

fn trail_line(
    tx: &Transaction,
    id: i64,
    kind: ChangeKind,
    line: Correction,
    by: &str,
    at: &str,
) -> Result<Change, ArchiveError> {
    let path = path_of_field(&line.field);
    tx.execute(
        "INSERT INTO corrections (sheet_id, field, path, old_value, new_value, who, at, kind) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        params![id, line.field, path, line.old, line.new, by, at, kind.as_str()],
    )?;
    Ok(Change {
        field: line.field,
        path,
        old: line.old,
        new: line.new,
        by: by.to_string(),
        at: at.to_string(),
        kind,
    })
}

/// A copy names a readable sheet of the same night that is not void and
/// not itself a copy, and no sheet is a copy of the one that becomes one:
/// no chain or circle of copies can stand.
fn copy_allowed(
    tx: &Transaction,
    tournament: i64,
    id: i64,
    of: i64,
) -> Result<(), ArchiveError> {
    let refused = |why| Err(ArchiveError::CopyRefused { of, why });
    if of == id {
        return refused(CopyRefusal::Itself);
    }
    let other: Option<(String, i64)> = tx
        .query_row(
            "SELECT result_json, tournament_id FROM sheets WHERE id = ?1",
            params![of],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    let Some((json, night)) = other else {
        return refused(CopyRefusal::Missing);
    };
    if night != tournament {
        return refused(CopyRefusal::OtherNight);
    }
    let other = parse(&json)?;
    if other.status == Status::Unreadable {
        return refused(CopyRefusal::Unreadable);
    }
    if other.notes.void.is_some() {
        return refused(CopyRefusal::Void);
    }
    if other.notes.copy_of.is_some() {
        return refused(CopyRefusal::IsCopy);
    }
    let copied: i64 = tx.query_row(
        "SELECT count(*) FROM sheets WHERE tournament_id = ?1 AND id != ?2 AND json_extract(result_json, '$.copy_of.of') = ?2",
        params![tournament, id],
        |r| r.get(0),
    )?;
    if copied > 0 {
        return refused(CopyRefusal::HasCopies);
    }
    Ok(())
}
