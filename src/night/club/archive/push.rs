//! `push`: a venue's nights into a series' central archive, each under
//! its venue (`VENUE/NAME`).
//!
//! Only what the central archive lacks is sent: a scan by its content, a
//! sheet by its scan and page, each reading, decision and trail line by
//! its id at the venue (`origin`). Each sheet arrives in transactions of
//! its own, so a push killed midway leaves whole sheets, and the next
//! push sends the rest; pushing again sends nothing. The venue's archive
//! is only read.

use std::collections::HashMap;

use super::engine::{Sql, Tx, args};
use super::forms::keep_version_json;
use super::nights::Night;
use super::record::{
    TRAIL_COLUMNS, change_of, keep_change, keep_decision, keep_reading, keep_stand, made,
};
use super::{Archive, Change, insert_sheet, parse, scans, write_details};
use crate::error::{ArchiveError, SheetError};
use crate::record::Decision;
use crate::sheet::SheetResult;

/// Checks a sheet again under the rule set named (the night's): how a
/// sheet with decisions made at the central desk is made again when the
/// venue's arrive.
pub type Remake<'a> = dyn Fn(&str, SheetResult) -> Result<SheetResult, SheetError> + 'a;

/// How far a push is: the night, and its steps done of all (each sheet
/// twice: itself with its scan, then its record).
#[derive(Debug, Clone)]
pub struct Progress<'a> {
    pub night: &'a str,
    pub done: usize,
    pub of: usize,
}

/// What a push sent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Pushed {
    pub nights: usize,
    /// The nights' sheets, sent or already there.
    pub sheets: usize,
    /// The sheets the central archive did not hold before.
    pub new_sheets: usize,
    pub new_scans: usize,
    /// Readings, decisions and trail lines the central archive lacked.
    pub new_readings: usize,
    pub new_decisions: usize,
    pub new_lines: usize,
}

/// A venue's sheet, as the push finds it in both archives.
struct Pair {
    venue: i64,
    central: i64,
}

impl Archive {
    /// Sends this (a venue's) archive's nights, or the one `night`
    /// names, into `central` under `venue`.
    pub fn push_into(
        &self,
        central: &mut Archive,
        venue: &str,
        night: Option<i64>,
        remake: &Remake,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<Pushed, ArchiveError> {
        let mut pushed = Pushed::default();
        let counts = self.sheet_counts()?;
        for n in self.nights()? {
            // A night without sheets has nothing to send yet, and no
            // scan that tells it from another archive's.
            if night.is_some_and(|id| id != n.id) || !counts.contains_key(&n.id) {
                continue;
            }
            self.push_night(central, venue, &n, remake, progress, &mut pushed)?;
            pushed.nights += 1;
        }
        Ok(pushed)
    }

    fn push_night(
        &self,
        central: &mut Archive,
        venue: &str,
        night: &Night,
        remake: &Remake,
        progress: &mut dyn FnMut(&Progress),
        pushed: &mut Pushed,
    ) -> Result<(), ArchiveError> {
        let target = self.push_night_row(central, venue, night)?;
        let sheets = self.conn.db().query(
            "SELECT id, sha256, page FROM sheets WHERE tournament_id = ?1 ORDER BY id",
            args![night.id],
        )?;
        let key = format!("{venue}/{}", night.name);
        let of = sheets.len();
        // First every sheet, so that a copy finds the sheet it copies.
        let mut pairs = Vec::with_capacity(of);
        for (done, row) in sheets.iter().enumerate() {
            let (id, sha256, page): (i64, String, i64) = (row.get(0)?, row.get(1)?, row.get(2)?);
            let (central_id, new) =
                self.push_sheet_row(central, target, id, (&sha256, page), pushed)?;
            pushed.new_sheets += usize::from(new);
            pairs.push(Pair {
                venue: id,
                central: central_id,
            });
            progress(&Progress {
                night: &key,
                done: done + 1,
                of: 2 * of,
            });
        }
        let ids: HashMap<i64, i64> = pairs.iter().map(|p| (p.venue, p.central)).collect();
        let check = |sheet| remake(&night.rules, sheet);
        for (done, pair) in pairs.iter().enumerate() {
            self.push_record(central, (target, pair), &ids, &check, pushed)?;
            progress(&Progress {
                night: &key,
                done: of + done + 1,
                of: 2 * of,
            });
        }
        pushed.sheets += of;
        Ok(())
    }

    /// The night in the central archive (made on first use) with the
    /// venue's list of names and its forms; its id there. A night of
    /// that name from another venue's archive is refused: two venues
    /// pushed under one name would become one night.
    fn push_night_row(
        &self,
        central: &mut Archive,
        venue: &str,
        night: &Night,
    ) -> Result<i64, ArchiveError> {
        let created: String = self.conn.db().value(
            "SELECT created FROM tournaments WHERE id = ?1",
            args![night.id],
        )?;
        // Its creation and id there, and its first scan: two archives'
        // nights (one copied from a template archive, say) differ in
        // their scans if in nothing else.
        let first: String = self.conn.db().value(
            "SELECT sha256 FROM sheets WHERE tournament_id = ?1 ORDER BY id LIMIT 1",
            args![night.id],
        )?;
        let origin = format!("{created}#{}#{first}", night.id);
        let names = self.conn.db().query(
            "SELECT number, name FROM names WHERE tournament_id = ?1",
            args![night.id],
        )?;
        let forms = self.conn.db().query(
            "SELECT id, template FROM forms WHERE tournament_id = ?1",
            args![night.id],
        )?;
        let versions = self.conn.db().query(
            "SELECT sha256, id, template FROM form_versions ORDER BY seq",
            args![],
        )?;
        let scans: Vec<String> = (self.conn.db().query(
            "SELECT DISTINCT sha256 FROM sheets WHERE tournament_id = ?1 ORDER BY sha256",
            args![night.id],
        )?)
        .iter()
        .map(|r| r.get(0))
        .collect::<Result<_, _>>()?;
        let mut tx = central.write()?;
        let name = format!("{venue}/{}", night.name);
        let date = night.date.map(|d| d.to_string());
        tx.execute(
            "INSERT INTO tournaments (name, rules, created, venue, date, origin)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT DO NOTHING",
            args![
                name.as_str(),
                night.rules.as_str(),
                created.as_str(),
                venue,
                date.as_deref(),
                origin.as_str()
            ],
        )?;
        let row = tx
            .row(
                "SELECT id, origin FROM tournaments WHERE name = ?1",
                args![name.as_str()],
            )?
            .ok_or(ArchiveError::Column(0))?;
        let (target, there): (i64, Option<String>) = (row.get(0)?, row.get(1)?);
        if there.as_deref().is_some_and(|o| o != origin) {
            return Err(ArchiveError::OtherVenue(name));
        }
        // This night, pushed before under another venue's name, would
        // count twice.
        let other: Option<String> = tx.optional(
            "SELECT name FROM tournaments WHERE name != ?1 AND origin = ?2",
            args![name.as_str(), origin.as_str()],
        )?;
        if let Some(other) = other {
            return Err(ArchiveError::PushedAs {
                night: name,
                as_: other,
            });
        }
        // The same papers from another archive file, under another name:
        // they would count twice in the season (nothing of this stays).
        if let Some(there) = holding_all(&mut tx, &name, &scans)? {
            return Err(ArchiveError::ScansElsewhere { night: name, there });
        }
        tx.execute(
            "UPDATE tournaments SET venue = ?2, origin = ?3, date = coalesce(date, ?4) WHERE id = ?1",
            args![target, venue, origin.as_str(), date.as_deref()],
        )?;
        let names = names
            .iter()
            .map(|r| Ok((r.get::<String>(0)?, r.get::<String>(1)?)))
            .collect::<Result<Vec<_>, ArchiveError>>()?;
        super::nights::replace_names(&mut tx, target, &names)?;
        for row in forms {
            let (id, json): (String, String) = (row.get(0)?, row.get(1)?);
            super::forms::keep_form(&mut tx, target, &id, &json)?;
        }
        for row in versions {
            let (sha256, id, json): (String, String, String) =
                (row.get(0)?, row.get(1)?, row.get(2)?);
            keep_version_json(&mut tx, &sha256, &id, &json)?;
        }
        tx.commit()?;
        Ok(target)
    }

    /// The venue's sheet `id` in the central night `target`, with its
    /// scan and its readings, stored there as the venue holds it where it
    /// is not yet, in one transaction; its central id, and whether it is
    /// new there.
    fn push_sheet_row(
        &self,
        central: &mut Archive,
        target: i64,
        id: i64,
        (sha256, page): (&str, i64),
        pushed: &mut Pushed,
    ) -> Result<(i64, bool), ArchiveError> {
        let find = "SELECT id FROM sheets WHERE tournament_id = ?1 AND sha256 = ?2 AND page = ?3";
        if let Some(there) = central
            .conn
            .db()
            .optional(find, args![target, sha256, page])?
        {
            return Ok((there, false));
        }
        let scan = if scans::is_kept(&mut central.conn.db(), sha256)? {
            None
        } else {
            self.scan_bytes(sha256)?
        };
        let row = self
            .conn
            .db()
            .row(
                "SELECT result_json, result_file, scanned FROM sheets WHERE id = ?1",
                args![id],
            )?
            .ok_or(ArchiveError::NoSuchSheet(id))?;
        let json: String = row.get(0)?;
        let (result_file, scanned): (Option<String>, String) = (row.get(1)?, row.get(2)?);
        let sheet = parse(&json)?;
        let mut tx = central.write()?;
        // Another push of this venue may have stored it meanwhile.
        if let Some(there) = tx.optional(find, args![target, sha256, page])? {
            return Ok((there, false));
        }
        if let Some(bytes) = scan {
            scans::put(&mut tx, sha256, bytes)?;
            pushed.new_scans += 1;
        }
        let file = (result_file.as_deref(), scanned);
        let central_id = insert_sheet(&mut tx, (target, sha256), &sheet, &json, file)?;
        write_details(&mut tx, central_id, &sheet)?;
        pushed.new_readings += self.push_readings(&mut tx, id, central_id)?;
        tx.commit()?;
        Ok((central_id, true))
    }

    /// The readings of the venue's sheet `venue` that the central sheet
    /// `central` lacks, kept there; how many.
    fn push_readings(&self, tx: &mut Tx, venue: i64, central: i64) -> Result<usize, ArchiveError> {
        let since = highest_origin(tx, "readings", central)?;
        let readings = self.conn.db().query(
            "SELECT id, result_json, reader, at FROM readings WHERE sheet_id = ?1 AND id > ?2 ORDER BY id",
            args![venue, since],
        )?;
        for row in &readings {
            let json: String = row.get(1)?;
            let (reader, at): (String, String) = (row.get(2)?, row.get(3)?);
            keep_reading(tx, central, &json, (&reader, &at), Some(row.get(0)?))?;
        }
        Ok(readings.len())
    }

    /// The readings, decisions and trail lines of a venue's sheet that
    /// the central archive lacks, and the sheet as it then stands: the
    /// venue's, or, where the central desk read or decided on it too,
    /// made again from the whole record.
    fn push_record(
        &self,
        central: &mut Archive,
        (target, pair): (i64, &Pair),
        ids: &HashMap<i64, i64>,
        check: &crate::record::stand::Check,
        pushed: &mut Pushed,
    ) -> Result<(), ArchiveError> {
        // Under the central archive's write lock: two pushes of one venue
        // at once send each row once.
        let mut tx = central.write()?;
        let (d, t) = (
            highest_origin(&mut tx, "records", pair.central)?,
            highest_origin(&mut tx, "corrections", pair.central)?,
        );
        let records = self.conn.db().query(
            "SELECT id, who, at, decision FROM records WHERE sheet_id = ?1 AND id > ?2 ORDER BY id",
            args![pair.venue, d],
        )?;
        let lines = self.conn.db().query(
            &format!(
                "SELECT id, {TRAIL_COLUMNS} FROM corrections WHERE sheet_id = ?1 AND id > ?2 ORDER BY id"
            ),
            args![pair.venue, t],
        )?;
        let readings = self.push_readings(&mut tx, pair.venue, pair.central)?;
        pushed.new_readings += readings;
        pushed.new_decisions += records.len();
        pushed.new_lines += lines.len();
        if readings + records.len() + lines.len() == 0 {
            return Ok(());
        }
        for row in records {
            let decision = central_decision(&row.get::<String>(3)?, ids)?;
            let (by, at): (String, String) = (row.get(1)?, row.get(2)?);
            keep_decision(
                &mut tx,
                pair.central,
                (&by, &at),
                &decision,
                Some(row.get(0)?),
            )?;
        }
        for row in lines {
            let line = central_line(change_of(&row, 1)?, ids);
            keep_change(&mut tx, pair.central, &line, Some(row.get(0)?))?;
        }
        // Readings and decisions made at the central desk have no origin.
        let own: i64 = tx.value(
            "SELECT (SELECT count(*) FROM records WHERE sheet_id = ?1 AND origin IS NULL)
                  + (SELECT count(*) FROM readings WHERE sheet_id = ?1 AND origin IS NULL)",
            args![pair.central],
        )?;
        let sheet = if own == 0 {
            let stand: String = self.conn.db().value(
                "SELECT result_json FROM sheets WHERE id = ?1",
                args![pair.venue],
            )?;
            central_stand(parse(&stand)?, ids)?
        } else {
            made(&mut tx, pair.central, check)?
        };
        keep_stand(&mut tx, pair.central, target, &sheet)?;
        tx.commit()
    }
}

/// The highest venue id among the central sheet's rows of `table`.
/// The central night other than `name` that already holds every one of
/// `scans` (a night's scan hashes), if any.
fn holding_all(tx: &mut Tx, name: &str, scans: &[String]) -> Result<Option<String>, ArchiveError> {
    let Some(first) = scans.first() else {
        return Ok(None);
    };
    let nights = tx.query(
        "SELECT DISTINCT t.id, t.name FROM sheets s JOIN tournaments t ON t.id = s.tournament_id
         WHERE s.sha256 = ?1 AND t.name != ?2",
        args![first.as_str(), name],
    )?;
    for night in nights {
        let (id, there): (i64, String) = (night.get(0)?, night.get(1)?);
        let mut holds = true;
        for scan in scans {
            let n: i64 = tx.value(
                "SELECT count(*) FROM sheets WHERE tournament_id = ?1 AND sha256 = ?2",
                args![id, scan.as_str()],
            )?;
            holds &= n > 0;
            if !holds {
                break;
            }
        }
        if holds {
            return Ok(Some(there));
        }
    }
    Ok(None)
}

fn highest_origin(tx: &mut Tx, table: &str, sheet: i64) -> Result<i64, ArchiveError> {
    tx.value(
        &format!("SELECT coalesce(max(origin), 0) FROM {table} WHERE sheet_id = ?1"),
        args![sheet],
    )
}

/// A venue's decision as the central archive keeps it: a copy names the
/// central id of the sheet it copies.
fn central_decision(text: &str, ids: &HashMap<i64, i64>) -> Result<Decision, ArchiveError> {
    let mut decision: Decision = serde_json::from_str(text)?;
    if let Decision::Copy { of: Some(of) } = &mut decision {
        *of = *ids.get(of).ok_or(ArchiveError::NoSuchSheet(*of))?;
    }
    Ok(decision)
}

/// A venue's sheet as it stands, as the central archive keeps it: a copy
/// names the central id of the sheet it copies.
fn central_stand(
    mut sheet: SheetResult,
    ids: &HashMap<i64, i64>,
) -> Result<SheetResult, ArchiveError> {
    if let Some(copy) = &mut sheet.notes.copy_of {
        copy.of = *ids
            .get(&copy.of)
            .ok_or(ArchiveError::NoSuchSheet(copy.of))?;
    }
    Ok(sheet)
}

/// One of the venue's trail lines as the central archive keeps it: a
/// copy's line names the central ids.
fn central_line(mut line: Change, ids: &HashMap<i64, i64>) -> Change {
    if line.field == "copy_of" {
        let central = |text: Option<String>| {
            text.map(|t| match t.parse::<i64>().ok().and_then(|v| ids.get(&v)) {
                Some(c) => c.to_string(),
                None => t,
            })
        };
        line.old = central(line.old.take());
        line.new = central(line.new.take());
    }
    line
}
