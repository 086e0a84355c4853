//! An archive of schema 7 kept one result per sheet, edited in place, and
//! a trail of every value changed. Its record is made from them: each
//! trail line becomes the decision it was (an answer to what the paper
//! says, since the trail cannot tell a count from one; initials; a
//! verdict), except the values a reread read (written with its `form`
//! line: they are the reading, the program's) and a person's value a
//! later reread read over (it decides nothing: the stored result holds
//! the reading's). The reading is the stored result with every decided
//! value undone (the trail keeps each old value). The stored result stays
//! as it was: the sheet made from the record holds the same values.

use serde_json::Value;

use super::engine::{Sql, Tx, args};
use super::parse;
use crate::error::ArchiveError;
use crate::record::stand::as_read;
use crate::record::trail::ChangeKind;
use crate::record::{Decision, answer};
use crate::sheet::{SheetResult, ValuePath};

/// One line of an older trail.
struct Line {
    id: i64,
    field: String,
    old: Option<String>,
    new: Option<String>,
    by: String,
    at: String,
}

/// What an older trail line was, read in the light of the lines after it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    /// A person's decision: it becomes a record.
    Decision,
    /// A value a reread read (written with the reread's `form` line, by
    /// whoever asked): part of the reading, no one's decision.
    Reading,
    /// A person's value a later reread read over: the stored result holds
    /// the reading's, so it stays in the trail and decides nothing.
    ReadOver,
}

/// Each line's role: a value line that shares its time and author with
/// a `form` line was written by a reread; a person's value line that a
/// later reread changed again was read over.
fn roles(lines: &[Line]) -> Vec<Role> {
    let reread = |l: &Line| {
        l.field == "form"
            || lines
                .iter()
                .any(|f| f.field == "form" && f.at == l.at && f.by == l.by)
    };
    let read: Vec<bool> = lines.iter().map(reread).collect();
    (0..lines.len())
        .map(|i| {
            if read[i] {
                Role::Reading
            } else if (i + 1..lines.len()).any(|j| read[j] && lines[j].field == lines[i].field) {
                Role::ReadOver
            } else {
                Role::Decision
            }
        })
        .collect()
}

/// Makes every sheet's record and names each trail line's kind and path.
pub(super) fn split(tx: &mut Tx) -> Result<(), ArchiveError> {
    let sheets = tx.query(
        "SELECT id, result_json, scanned FROM sheets
         WHERE id NOT IN (SELECT sheet_id FROM readings) ORDER BY id",
        args![],
    )?;
    for row in sheets {
        let (id, json, scanned): (i64, String, String) = (row.get(0)?, row.get(1)?, row.get(2)?);
        let lines = trail_of(tx, id)?;
        let roles = roles(&lines);
        // A result this release cannot read keeps its trail as it is.
        let Ok(stored) = parse(&json) else {
            continue;
        };
        let reader = stored
            .notes
            .reader
            .clone()
            .unwrap_or_else(|| "aufsicht".to_string());
        let reading = reading_of(&stored, &lines, &roles).to_json_pretty();
        // The tables as this step made them: no origins yet.
        tx.execute(
            "INSERT INTO readings (sheet_id, result_json, reader, at) VALUES (?1, ?2, ?3, ?4)",
            args![id, reading, reader, scanned],
        )?;
        for (line, role) in lines.iter().zip(&roles) {
            // What a reread read is the program's, whoever asked for it.
            if *role == Role::Reading && line.field != "form" {
                tx.execute(
                    "UPDATE corrections SET kind = 'reading', path = ?2, who = ?3 WHERE id = ?1",
                    args![
                        line.id,
                        crate::record::trail::path_of_field(&line.field),
                        super::reader_name()
                    ],
                )?;
            }
            if *role != Role::Decision {
                continue;
            }
            if let Some(decision) = decision_of(line) {
                tx.execute(
                    "INSERT INTO records (sheet_id, who, at, decision) VALUES (?1, ?2, ?3, ?4)",
                    args![id, &line.by, &line.at, serde_json::to_string(&decision)?],
                )?;
            }
        }
    }
    name_trail_lines(tx)
}

fn trail_of(tx: &mut Tx, id: i64) -> Result<Vec<Line>, ArchiveError> {
    let rows = tx.query(
        "SELECT id, field, old_value, new_value, who, at FROM corrections WHERE sheet_id = ?1 ORDER BY id",
        args![id],
    )?;
    rows.iter()
        .map(|r| {
            Ok(Line {
                id: r.get(0)?,
                field: r.get(1)?,
                old: r.get(2)?,
                new: r.get(3)?,
                by: r.get(4)?,
                at: r.get(5)?,
            })
        })
        .collect()
}

fn reading_of(stored: &SheetResult, lines: &[Line], roles: &[Role]) -> SheetResult {
    let mut reading = as_read(stored);
    let decided = lines
        .iter()
        .zip(roles)
        .filter(|(_, r)| **r == Role::Decision);
    for (line, _) in decided.rev() {
        if let Some(path) = ValuePath::of_archive_field(&line.field) {
            let _ = answer::set(&mut reading, path, &value_of(path, line.old.as_deref()));
        }
    }
    reading
}

/// A trail value as the desk would have sent it.
fn value_of(path: ValuePath, text: Option<&str>) -> Value {
    match (path, text) {
        (_, None) => Value::Null,
        (ValuePath::Player(_), Some(t)) => Value::from(t),
        (_, Some(t)) => t.parse::<i64>().map(Value::from).unwrap_or(Value::Null),
    }
}

/// The decision an older trail line records, where it records one.
fn decision_of(line: &Line) -> Option<Decision> {
    let kind = ChangeKind::of_field(&line.field);
    Some(match kind {
        ChangeKind::Paper => {
            let path = ValuePath::of_archive_field(&line.field)?;
            Decision::Paper {
                path: path.to_string(),
                value: value_of(path, line.new.as_deref()),
            }
        }
        ChangeKind::Initials => initials_of(line)?,
        ChangeKind::Void => Decision::Void {
            void: line.new.is_some(),
            reason: line.new.clone().unwrap_or_default(),
        },
        ChangeKind::Copy => Decision::Copy {
            of: line.new.as_deref().and_then(|t| t.parse().ok()),
        },
        ChangeKind::Game => Decision::Game {
            ours: line.new.is_some(),
        },
        _ => return None,
    })
}

/// `game.3.supervisor_initials`, `gesamt.1.plus.supervisor_initials`,
/// `abzug.2.supervisor_initials`: the initials given or taken back.
fn initials_of(line: &Line) -> Option<Decision> {
    let parts: Vec<&str> = line.field.split('.').collect();
    let undo = line.new.is_none();
    let number = |s: &str| s.parse::<usize>().ok();
    Some(match parts.as_slice() {
        ["game", row, _] => Decision::Initials {
            row: Some(number(row)? as u32),
            seat: None,
            field: None,
            undo,
        },
        ["gesamt", seat, column, _] => Decision::Initials {
            row: None,
            seat: Some(number(seat)?),
            field: Some(column.to_string()),
            undo,
        },
        [field, seat, _] => Decision::Initials {
            row: None,
            seat: Some(number(seat)?),
            field: Some(field.to_string()),
            undo,
        },
        _ => return None,
    })
}

/// Each older trail line's kind and path, by its field.
fn name_trail_lines(tx: &mut Tx) -> Result<(), ArchiveError> {
    let lines = tx.query(
        "SELECT id, field FROM corrections WHERE kind IS NULL",
        args![],
    )?;
    for row in lines {
        let (id, field): (i64, String) = (row.get(0)?, row.get(1)?);
        tx.execute(
            "UPDATE corrections SET kind = ?2, path = ?3 WHERE id = ?1",
            args![
                id,
                ChangeKind::of_field(&field).as_str(),
                crate::record::trail::path_of_field(&field)
            ],
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::messages::Lang;
    use crate::check::rules::RuleSet;
    use crate::night::club::archive::{Archive, ChangeKind};

    /// An archive the release before the record wrote (schema 7): three
    /// merkur sheets scanned, then at its desk answers, initials given and
    /// taken back, a copy and a void.
    const SCHEMA_7: &str = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/archive/schema-7.sqlite"
    );

    fn line(id: i64, field: &str, by: &str, at: &str) -> Line {
        Line {
            id,
            field: field.into(),
            old: Some("3".into()),
            new: Some("5".into()),
            by: by.into(),
            at: at.into(),
        }
    }

    #[test]
    fn a_rereads_values_should_be_the_reading_and_a_value_it_read_over_no_decision() {
        let lines = [
            line(1, "game.1.seat.1.plus", "Anna", "t1"),
            line(2, "game.2.seat.1.plus", "Anna", "t1"),
            line(3, "form", "AB", "t2"),
            line(4, "game.1.seat.1.plus", "AB", "t2"),
            line(5, "endergebnis.1", "Anna", "t3"),
        ];
        let roles = roles(&lines);
        assert!(
            roles
                == [
                    Role::ReadOver,
                    Role::Decision,
                    Role::Reading,
                    Role::Reading,
                    Role::Decision
                ]
        );
    }

    #[test]
    fn an_archive_of_schema_7_should_keep_every_value_correction_and_verdict() {
        let dir = tempfile::tempdir().expect("temp");
        let path = dir.path().join("verein.sqlite");
        std::fs::copy(SCHEMA_7, &path).expect("copy");
        let raw = rusqlite::Connection::open(&path).expect("raw");
        let before: Vec<(i64, String)> = (raw.prepare("SELECT id, result_json FROM sheets"))
            .expect("query")
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .expect("rows")
            .collect::<Result<_, _>>()
            .expect("rows");
        let lines: i64 =
            (raw.query_row("SELECT count(*) FROM corrections", [], |r| r.get(0))).expect("trail");
        drop(raw);
        let archive = Archive::open(&path).expect("migrated");
        let rules = RuleSet::load("merkur").expect("merkur");
        let check = |s| crate::check::verify::verify(s, &rules, Lang::De);
        for (id, json) in &before {
            let old = parse(json).expect("old result");
            let made = archive.stand_of(*id, &check).expect("made from the record");
            for path in ValuePath::places_of(&old) {
                let (was, is) = (answer::get(&old, path), answer::get(&made, path));
                assert_eq!(was, is, "sheet {id}: {path}");
            }
            assert_eq!(made.notes.void, old.notes.void, "sheet {id}");
            assert_eq!(made.notes.copy_of, old.notes.copy_of, "sheet {id}");
            assert_eq!(
                made.notes.supervisor_initials,
                old.notes.supervisor_initials
            );
            assert_eq!(made.notes.footer_initials, old.notes.footer_initials);
        }
        let trail: Vec<_> = (1..=3)
            .flat_map(|id| archive.trail(id).expect("trail"))
            .collect();
        assert_eq!(trail.len() as i64, lines, "no line of the trail lost");
        let kinds: std::collections::BTreeSet<ChangeKind> = trail.iter().map(|c| c.kind).collect();
        for kind in [
            ChangeKind::Paper,
            ChangeKind::Initials,
            ChangeKind::Copy,
            ChangeKind::Void,
            ChangeKind::Reading,
            ChangeKind::Form,
        ] {
            assert!(kinds.contains(&kind), "{kind:?} in {trail:?}");
        }
        // Sheet 1 was read again on the Doppelkopf form at Carl's asking:
        // what that reading blanked is the program's, no one's decision.
        let reread = archive.trail(1).expect("trail");
        let read: Vec<_> = reread
            .iter()
            .filter(|c| c.kind == ChangeKind::Reading)
            .collect();
        assert!(read.len() > 100, "{}", read.len());
        assert!(read.iter().all(|c| c.by == super::super::reader_name()));
        let decided = archive.record(1).expect("record").records;
        assert!(decided.iter().all(|r| r.by == "Anna"), "{decided:?}");
        // What the machine read is the reading; what Anna answered, hers.
        let record = archive.record(2).expect("record");
        assert_eq!(record.readings[0].endergebnis[0], Some(27));
        assert_eq!(
            archive.stand_of(2, &check).expect("made").endergebnis[0],
            Some(28)
        );
        assert!(record.records.iter().any(|r| r.by == "Anna"));
    }
}
