//! The archive keeps each sheet's record: its readings and the people's
//! decisions, each a row of its own that nothing overwrites. The sheet as
//! it stands ([`crate::record::stand::stand`]) is kept beside them, made
//! again with every new row, so that every view reads it without
//! recomputing; the trail says what each row changed.

use super::engine::{Row, Sql, Tx, args};
use super::{Archive, now, parse, readable, round_id, status_str, text_sha256, write_details};
use crate::error::{ArchiveError, CopyRefusal};
use crate::record::stand::{Check, stand};
use crate::record::trail::{
    Change, ChangeKind, Correction, lines_of, path_of_field, reading_lines,
};
use crate::record::{Decision, Record};
use crate::sheet::{SheetResult, Status, ValuePath};

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
        let mut tx = self.write()?;
        let (before, stored_version, tournament) = current(&mut tx, id)?;
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
                copy_allowed(&mut tx, tournament, id, *of)?;
            }
        }
        for decision in decisions {
            keep_decision(&mut tx, id, (by, &at), decision, None)?;
        }
        let after = made(&mut tx, id, check)?;
        let mut lines = Vec::new();
        for decision in decisions {
            let mut own = lines_of(decision, &before, &after);
            // A decision that changed nothing is still a line: looked at, kept.
            if own.is_empty() {
                own.push(crate::record::trail::kept_line(decision, &after));
            }
            lines.extend(own.into_iter().map(|line| (decision.kind(), line, None)));
        }
        finish(tx, (id, tournament), after, lines, (by, &at))
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
        self.add_reading_settled(id, reading, check, (&[], None))
    }

    /// [`Archive::add_reading`] of a reading that settles doubts: each
    /// of `settled` (a value's path and why it is now read surely) gets a
    /// trail line saying why, its value changed or not; every other value
    /// the reading changed says `otherwise`, where given.
    pub fn add_reading_settled(
        &mut self,
        id: i64,
        reading: &SheetResult,
        check: &Check,
        (settled, otherwise): (&[(ValuePath, String)], Option<&str>),
    ) -> Result<Decided, ArchiveError> {
        let mut tx = self.write()?;
        let (before, _, tournament) = current(&mut tx, id)?;
        if reading.status == Status::Unreadable && before.status != Status::Unreadable {
            return Err(ArchiveError::RereadUnreadable(id));
        }
        let mut reading = reading.clone();
        // The same paper: its name and page as stored.
        reading.source.clone_from(&before.source);
        reading.page = before.page;
        let (at, by) = (now(), reader_name());
        keep_reading(&mut tx, id, &reading.to_json_pretty(), (&by, &at), None)?;
        let after = made(&mut tx, id, check)?;
        let mut lines: Vec<_> = reading_lines(&before, &after)
            .into_iter()
            .map(|(kind, line)| {
                let why = settled
                    .iter()
                    .find(|(p, _)| p.archive_field() == line.field);
                let why = why.map(|(_, why)| why.as_str()).or(otherwise);
                (kind, line, why.map(str::to_string))
            })
            .collect();
        for (path, why) in settled {
            let field = path.archive_field();
            if !lines.iter().any(|(_, line, _)| line.field == field) {
                let value = path.number(&after).map(|v| v.to_string());
                let line = Correction {
                    field,
                    old: value.clone(),
                    new: value,
                };
                lines.push((ChangeKind::Reading, line, Some(why.clone())));
            }
        }
        finish(tx, (id, tournament), after, lines, (&by, &at))
    }

    /// The record of sheet `id`.
    pub fn record(&self, id: i64) -> Result<SheetRecord, ArchiveError> {
        record_of(&mut self.conn.db(), id)
    }

    /// Sheet `id` made from its record alone (what the archive keeps as it
    /// stands must equal it).
    pub fn stand_of(&self, id: i64, check: &Check) -> Result<SheetResult, ArchiveError> {
        made(&mut self.conn.db(), id, check)
    }

    /// The trail of a sheet, oldest first: every line of its record.
    pub fn trail(&self, id: i64) -> Result<Vec<Change>, ArchiveError> {
        let rows = self.conn.db().query(
            &format!("SELECT {TRAIL_COLUMNS} FROM corrections WHERE sheet_id = ?1 ORDER BY id"),
            args![id],
        )?;
        rows.iter().map(|r| change_of(r, 0)).collect()
    }
}

/// Keeps a reading of sheet `id` (its result's JSON), by `reader`, at
/// `at`; `origin` is its id in the venue's archive it was pushed from.
pub(super) fn keep_reading(
    tx: &mut impl Sql,
    id: i64,
    json: &str,
    (reader, at): (&str, &str),
    origin: Option<i64>,
) -> Result<(), ArchiveError> {
    tx.execute(
        "INSERT INTO readings (sheet_id, result_json, reader, at, origin) VALUES (?1, ?2, ?3, ?4, ?5)",
        args![id, json, reader, at, origin],
    )?;
    Ok(())
}

/// Keeps one decision of `by` on sheet `id` at `at`; `origin` as for
/// [`keep_reading`].
pub(super) fn keep_decision(
    tx: &mut impl Sql,
    id: i64,
    (by, at): (&str, &str),
    decision: &Decision,
    origin: Option<i64>,
) -> Result<(), ArchiveError> {
    let text = serde_json::to_string(decision)?;
    tx.execute(
        "INSERT INTO records (sheet_id, who, at, decision, origin) VALUES (?1, ?2, ?3, ?4, ?5)",
        args![id, by, at, text, origin],
    )?;
    Ok(())
}

/// Ends a change of sheet `id` of `night`: its trail lines by `by` at
/// `at`, the sheet as it now stands kept a version on, all committed.
fn finish(
    mut tx: Tx,
    (id, night): (i64, i64),
    after: SheetResult,
    lines: Vec<(ChangeKind, Correction, Option<String>)>,
    (by, at): (&str, &str),
) -> Result<Decided, ArchiveError> {
    let mut changes = Vec::new();
    for line in lines {
        changes.push(trail_line(&mut tx, id, line, by, at)?);
    }
    let version = keep_stand(&mut tx, id, night, &after)?;
    tx.commit()?;
    Ok(Decided {
        sheet: after,
        version,
        changes,
    })
}

/// The sheet as stored now, its version and its night.
fn current(tx: &mut impl Sql, id: i64) -> Result<(SheetResult, i64, i64), ArchiveError> {
    let row = tx
        .row(
            "SELECT result_json, version, tournament_id, source, page FROM sheets WHERE id = ?1",
            args![id],
        )?
        .ok_or(ArchiveError::NoSuchSheet(id))?;
    let sheet = readable(&row.get::<String>(0)?, &row.get::<String>(3)?, row.get(4)?);
    Ok((sheet, row.get(1)?, row.get(2)?))
}

fn record_of(db: &mut impl Sql, id: i64) -> Result<SheetRecord, ArchiveError> {
    let rows = db.query(
        "SELECT result_json FROM readings WHERE sheet_id = ?1 ORDER BY id",
        args![id],
    )?;
    let readings = rows
        .iter()
        .map(|r| parse(&r.get::<String>(0)?))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(SheetRecord {
        readings,
        records: decisions_of(db, id)?,
    })
}

/// The decisions on sheet `id`, in order.
fn decisions_of(db: &mut impl Sql, id: i64) -> Result<Vec<Record>, ArchiveError> {
    let rows = db.query(
        "SELECT who, at, decision FROM records WHERE sheet_id = ?1 ORDER BY id",
        args![id],
    )?;
    rows.iter()
        .map(|r| {
            Ok(Record {
                by: r.get(0)?,
                at: r.get(1)?,
                decision: serde_json::from_str(&r.get::<String>(2)?)?,
            })
        })
        .collect()
}

/// Sheet `id` made from its record: its newest reading (the older ones
/// are not read) and every decision.
pub(super) fn made(db: &mut impl Sql, id: i64, check: &Check) -> Result<SheetResult, ArchiveError> {
    let newest = db
        .row(
            "SELECT r.result_json, s.source, s.page FROM readings r JOIN sheets s ON s.id = r.sheet_id
             WHERE r.sheet_id = ?1 ORDER BY r.id DESC LIMIT 1",
            args![id],
        )?
        .ok_or(ArchiveError::NoSuchSheet(id))?;
    let reading = readable(
        &newest.get::<String>(0)?,
        &newest.get::<String>(1)?,
        newest.get(2)?,
    );
    let records = decisions_of(db, id)?;
    stand(&reading, &records, id, check).map_err(|e| ArchiveError::Check(Box::new(e)))
}

/// Keeps the sheet as it now stands, a version on; returns the version.
pub(super) fn keep_stand(
    tx: &mut impl Sql,
    id: i64,
    tournament: i64,
    sheet: &SheetResult,
) -> Result<i64, ArchiveError> {
    // A corrected round moves the sheet to that round.
    let round_id = round_id(tx, tournament, sheet.round)?;
    let json = sheet.to_json_pretty();
    let version = tx.value(
        "UPDATE sheets SET status = ?2, table_no = ?3, result_json = ?4, round_id = ?5, result_sha256 = ?6, form = ?7, version = version + 1 WHERE id = ?1 RETURNING version",
        args![
            id,
            status_str(sheet),
            sheet.table,
            json.as_str(),
            round_id,
            text_sha256(&json),
            sheet.form.as_deref(),
        ],
    )?;
    for table in ["players", "sheet_values", "flags"] {
        tx.execute(
            &format!("DELETE FROM {table} WHERE sheet_id = ?1"),
            args![id],
        )?;
    }
    write_details(tx, id, sheet)?;
    Ok(version)
}

fn trail_line(
    tx: &mut impl Sql,
    id: i64,
    (kind, line, why): (ChangeKind, Correction, Option<String>),
    by: &str,
    at: &str,
) -> Result<Change, ArchiveError> {
    let change = Change {
        path: path_of_field(&line.field),
        field: line.field,
        old: line.old,
        new: line.new,
        by: by.to_string(),
        at: at.to_string(),
        kind,
        why,
    };
    keep_change(tx, id, &change, None)?;
    Ok(change)
}

/// Keeps a trail line of sheet `id`; `origin` as for [`keep_reading`].
pub(super) fn keep_change(
    tx: &mut impl Sql,
    id: i64,
    change: &Change,
    origin: Option<i64>,
) -> Result<(), ArchiveError> {
    tx.execute(
        "INSERT INTO corrections (sheet_id, field, path, old_value, new_value, who, at, kind, why, origin)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
        args![
            id,
            &change.field,
            &change.path,
            change.old.as_deref(),
            change.new.as_deref(),
            &change.by,
            &change.at,
            change.kind.as_str(),
            change.why.as_deref(),
            origin
        ],
    )?;
    Ok(())
}

/// The trail's columns, as [`change_of`] reads them.
pub(super) const TRAIL_COLUMNS: &str = "field, path, old_value, new_value, who, at, kind, why";

/// A row of the trail's columns ([`TRAIL_COLUMNS`], from column `at`)
/// as a line: lines of older archives name no kind or path, their field
/// does.
pub(super) fn change_of(r: &Row, at: usize) -> Result<Change, ArchiveError> {
    let field: String = r.get(at)?;
    let kind: Option<String> = r.get(at + 6)?;
    Ok(Change {
        kind: kind
            .as_deref()
            .and_then(ChangeKind::parse)
            .unwrap_or_else(|| ChangeKind::of_field(&field)),
        path: r
            .get::<Option<String>>(at + 1)?
            .unwrap_or_else(|| path_of_field(&field)),
        field,
        old: r.get(at + 2)?,
        new: r.get(at + 3)?,
        by: r.get(at + 4)?,
        at: r.get(at + 5)?,
        why: r.get(at + 7)?,
    })
}

/// A copy names a readable sheet of the same night that is not void and
/// not itself a copy, and no sheet is a copy of the one that becomes one:
/// no chain or circle of copies can stand.
fn copy_allowed(tx: &mut impl Sql, tournament: i64, id: i64, of: i64) -> Result<(), ArchiveError> {
    let refused = |why| Err(ArchiveError::CopyRefused { of, why });
    if of == id {
        return refused(CopyRefusal::Itself);
    }
    let other = tx.row(
        "SELECT result_json, tournament_id FROM sheets WHERE id = ?1",
        args![of],
    )?;
    let Some(other) = other else {
        return refused(CopyRefusal::Missing);
    };
    let (json, night): (String, i64) = (other.get(0)?, other.get(1)?);
    if night != tournament {
        return refused(CopyRefusal::OtherNight);
    }
    let other = parse(&json)?;
    if other.status == Status::Unreadable {
        return refused(CopyRefusal::Unreadable);
    }
    if other.notes.void.is_some() || other.notes.discarded.is_some() {
        return refused(CopyRefusal::Void);
    }
    if other.notes.copy_of.is_some() {
        return refused(CopyRefusal::IsCopy);
    }
    let sql = format!(
        "SELECT count(*) FROM sheets WHERE tournament_id = ?1 AND id != ?2 AND {} = ?2",
        tx.engine().json_int("result_json", "copy_of.of")
    );
    let copied: i64 = tx.value(&sql, args![tournament, id])?;
    if copied > 0 {
        return refused(CopyRefusal::HasCopies);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::messages::Lang;
    use crate::check::rules::RuleSet;
    use crate::sheet::{Cell, GameRow, finished_sheet};
    use proptest::prelude::*;
    use serde_json::Value;

    fn row(no: u32, values: [i64; 4]) -> GameRow {
        let cell = |v: i64| match v {
            v if v > 0 => Cell::plus(v as u32),
            v => Cell::minus((-v) as u32),
        };
        GameRow {
            no,
            cells: values.map(cell).to_vec(),
            initials: false,
            class: None,
            extra: Default::default(),
        }
    }

    fn sheet(table: u32) -> SheetResult {
        let players = ["11", "12", "13", "14"].map(|p| Some(format!("{table}{p}")));
        let rows = vec![row(1, [1, 1, -1, -1]), row(2, [-1, 1, 1, -1])];
        let mut s = finished_sheet("merkur", rows, players.to_vec());
        s.table = Some(table);
        s.source = Some(format!("t{table}.png"));
        s
    }

    /// An archive holding `sheets`, with their ids, in a folder that goes
    /// when the test ends.
    fn archive(sheets: &[SheetResult]) -> (tempfile::TempDir, Archive, Vec<i64>) {
        let dir = tempfile::tempdir().expect("temp");
        let mut a = Archive::open(&dir.path().join("a.sqlite")).expect("open");
        let t = a.tournament("night", "merkur").expect("night");
        let mut ids = Vec::new();
        for (i, s) in sheets.iter().enumerate() {
            a.store_file(
                t,
                &format!("sha{i}"),
                None,
                &[(format!("{i}.json"), s.clone())],
            )
            .expect("store");
            ids.push(a.sheets(t).expect("sheets").last().expect("stored").id);
        }
        (dir, a, ids)
    }

    /// A sheet as its JSON says it, keys in any order.
    fn json(sheet: &SheetResult) -> Value {
        serde_json::to_value(sheet).expect("json")
    }

    fn merkur() -> RuleSet {
        RuleSet::load("merkur").expect("merkur")
    }

    fn paper(path: &str, value: i64) -> Decision {
        Decision::Paper {
            path: path.into(),
            value: value.into(),
        }
    }

    fn count(path: &str, value: i64) -> Decision {
        Decision::Counts {
            path: path.into(),
            value: value.into(),
            reason: "the rows give it".into(),
        }
    }

    fn stored(a: &Archive, id: i64) -> SheetResult {
        a.sheet_anywhere(id)
            .expect("query")
            .expect("there")
            .1
            .result
    }

    #[test]
    fn a_reread_should_keep_every_answer_count_and_initials_and_name_the_program() {
        let rules = merkur();
        let check = |s| crate::check::verify::verify(s, &rules, Lang::En);
        let (_dir, mut a, ids) = archive(&[sheet(1)]);
        let id = ids[0];
        let initials = Decision::Initials {
            row: Some(1),
            seat: None,
            field: None,
            undo: false,
        };
        let decisions = [
            paper("games/1/1/plus", 3),
            count("endergebnis/2", 7),
            initials,
        ];
        a.decide(id, "Anna", &decisions, None, &check)
            .expect("decide");
        // The scan read again: row 2 of seat 1 reads 5 now, row 1 as before.
        let mut again = sheet(1);
        again.games[1].cells[0] = Cell::plus(5);
        let reread = a.add_reading(id, &again, &check).expect("reread");
        let now = stored(&a, id);
        assert_eq!(now.games[0].cells[0].plus, Some(3), "the answer stands");
        assert_eq!(now.games[1].cells[0].plus, Some(5), "the reading changed");
        assert_eq!(now.notes.counts.len(), 1, "the count stands");
        assert_eq!(now.notes.counts[0].value, Value::from(7));
        assert_eq!(now.notes.supervisor_initials.len(), 1, "the initials stand");
        assert!(!reread.changes.is_empty());
        for line in a.trail(id).expect("trail") {
            if line.kind == ChangeKind::Reading {
                assert_eq!(line.by, reader_name(), "{line:?}");
            } else {
                assert_eq!(line.by, "Anna", "{line:?}");
            }
        }
        let reading: Vec<String> = (a.trail(id).expect("trail").into_iter())
            .filter(|l| l.kind == ChangeKind::Reading)
            .map(|l| l.path)
            .collect();
        assert!(
            reading.contains(&"games/2/1/plus".to_string()),
            "{reading:?}"
        );
        assert!(
            !reading.contains(&"games/1/1/plus".to_string()),
            "{reading:?}"
        );
        let made = a.stand_of(id, &check).expect("made");
        assert_eq!(json(&made), json(&now));
    }

    #[test]
    fn a_reading_settled_by_an_answer_should_say_why_on_its_values_changed_or_not() {
        let rules = merkur();
        let check = |s| crate::check::verify::verify(s, &rules, Lang::En);
        let (_dir, mut a, ids) = archive(&[sheet(1)]);
        let id = ids[0];
        let mut again = sheet(1);
        again.games[1].cells[0] = Cell::plus(5);
        let why = "read surely after AB's answer \"3\"".to_string();
        let changed: ValuePath = "games/2/1/plus".parse().expect("path");
        let kept: ValuePath = "games/1/1/plus".parse().expect("path");
        let settled = [(changed, why.clone()), (kept, why.clone())];
        a.add_reading_settled(id, &again, &check, (&settled, None))
            .expect("reread");
        let trail = a.trail(id).expect("trail");
        let line = |path: &str| trail.iter().find(|l| l.path == path).cloned();
        let changed = line("games/2/1/plus").expect("the changed value's line");
        assert_eq!(changed.why.as_deref(), Some(why.as_str()));
        assert_ne!(changed.old, changed.new);
        let kept = line("games/1/1/plus").expect("the settled value's line");
        assert_eq!(
            (kept.kind, kept.why.as_deref()),
            (ChangeKind::Reading, Some(why.as_str()))
        );
        assert_eq!(kept.old, kept.new, "read the same, now surely");
        assert!(
            (trail.iter())
                .filter(|l| l.path != "games/2/1/plus" && l.path != "games/1/1/plus")
                .all(|l| l.why.is_none()),
            "{trail:?}"
        );
    }

    #[test]
    fn a_reread_that_cannot_read_the_page_should_change_nothing() {
        let (_dir, mut a, ids) = archive(&[sheet(1)]);
        a.decide(ids[0], "Anna", &[paper("games/1/1/plus", 3)], None, &Ok)
            .expect("decide");
        let before = a.sheet_anywhere(ids[0]).expect("q").expect("there").1;
        let mut unreadable = sheet(1);
        unreadable.status = Status::Unreadable;
        unreadable.games.clear();
        let refused = a.add_reading(ids[0], &unreadable, &Ok).err();
        assert!(matches!(refused, Some(ArchiveError::RereadUnreadable(_))));
        let after = a.sheet_anywhere(ids[0]).expect("q").expect("there").1;
        assert_eq!(
            (after.result, after.version),
            (before.result, before.version)
        );
        assert_eq!(a.record(ids[0]).expect("record").readings.len(), 1);
    }

    #[test]
    fn a_copy_should_name_a_readable_original_and_never_make_a_chain() {
        let mut unreadable = sheet(3);
        unreadable.status = Status::Unreadable;
        let (_dir, mut a, ids) = archive(&[sheet(1), sheet(2), unreadable, sheet(4)]);
        let copy = |of: i64| [Decision::Copy { of: Some(of) }];
        let why = |r: Result<Decided, ArchiveError>| match r {
            Err(ArchiveError::CopyRefused { why, .. }) => Some(why),
            Err(e) => panic!("{e}"),
            Ok(_) => None,
        };
        assert_eq!(why(a.decide(ids[1], "AB", &copy(ids[0]), None, &Ok)), None);
        // 1 as a copy of 2, which is a copy: a circle.
        let circle = a.decide(ids[0], "AB", &copy(ids[1]), None, &Ok);
        assert_eq!(why(circle), Some(CopyRefusal::IsCopy));
        // 1, of which 2 is a copy, as a copy of 4: a chain.
        let chain = a.decide(ids[0], "AB", &copy(ids[3]), None, &Ok);
        assert_eq!(why(chain), Some(CopyRefusal::HasCopies));
        let junk = a.decide(ids[3], "AB", &copy(ids[2]), None, &Ok);
        assert_eq!(why(junk), Some(CopyRefusal::Unreadable));
        let itself = a.decide(ids[3], "AB", &copy(ids[3]), None, &Ok);
        assert_eq!(why(itself), Some(CopyRefusal::Itself));
        assert!(stored(&a, ids[0]).notes.copy_of.is_none());
    }

    /// One step of a night at the desk.
    #[derive(Debug, Clone)]
    enum Step {
        Decide(Decision),
        Reread(i64),
    }

    fn step() -> impl Strategy<Value = Step> {
        let path = prop_oneof![
            (1u32..=3, 1usize..=4, any::<bool>()).prop_map(|(no, seat, plus)| {
                format!("games/{no}/{seat}/{}", if plus { "plus" } else { "minus" })
            }),
            (1usize..=4).prop_map(|s| format!("endergebnis/{s}")),
            (1usize..=4).prop_map(|s| format!("abzug/{s}")),
        ];
        prop_oneof![
            (path.clone(), 0i64..9).prop_map(|(p, v)| Step::Decide(paper(&p, v))),
            (path, 0i64..9).prop_map(|(p, v)| Step::Decide(count(&p, v))),
            (1u32..=2, any::<bool>()).prop_map(|(row, undo)| Step::Decide(Decision::Initials {
                row: Some(row),
                seat: None,
                field: None,
                undo
            })),
            any::<bool>().prop_map(|void| Step::Decide(Decision::Void {
                void,
                reason: "forged".into()
            })),
            any::<bool>().prop_map(|ours| Step::Decide(Decision::Game { ours })),
            (0i64..9).prop_map(Step::Reread),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        /// The sheet kept as it stands is always the one its record makes
        /// from scratch, and a reread never loses a person's decision.
        #[test]
        fn the_stored_sheet_should_be_the_one_its_record_makes(steps in prop::collection::vec(step(), 1..14)) {
            let rules = merkur();
            let check = |s| crate::check::verify::verify(s, &rules, Lang::En);
            let (_dir, mut a, ids) = archive(&[sheet(1)]);
            let id = ids[0];
            let mut answers: std::collections::BTreeMap<String, Value> = Default::default();
            for step in steps {
                match step {
                    Step::Decide(d) => {
                        if a.decide(id, "Anna", std::slice::from_ref(&d), None, &check).is_ok()
                            && let Decision::Paper { path, value } = d
                        {
                            answers.insert(path, value);
                        }
                    }
                    Step::Reread(v) => {
                        let mut again = sheet(1);
                        again.games[0].cells[2] = Cell::minus(v as u32);
                        a.add_reading(id, &again, &check).expect("reread");
                    }
                }
                let now = stored(&a, id);
                // As the archive writes both: a row's kind of game is
                // written by the checks, never read back.
                let made = a.stand_of(id, &check).expect("made");
                prop_assert_eq!(json(&made), json(&now));
                for (path, value) in &answers {
                    let p: crate::sheet::ValuePath = path.parse().expect("path");
                    prop_assert_eq!(&crate::record::answer::get(&now, p), value, "{}", path);
                }
            }
        }
    }
}
