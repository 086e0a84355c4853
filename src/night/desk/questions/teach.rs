//! A question answered: each cell gets what the paper says (a person's
//! answer, kept in the record), and the answer teaches the reader the hand
//! it is about. The hand's sheets with cells in doubt, or rows the sums
//! flag, are read again by the reader tuned to every answer about that
//! hand; a doubt the new reading settles is not asked again, and its trail
//! line says why.
//!
//! The archive is held only to read and to store: the scans are decoded
//! and read with it free, and a reading is stored only where its sheet
//! has not changed meanwhile.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Mutex, MutexGuard};

use image::GrayImage;
use serde_json::Value;

use super::{Doubt, HandOf, Question, Shape, ask, doubts_of};
use crate::catalogue::say;
use crate::check::messages::Lang;
use crate::check::rules::RuleSet;
use crate::error::{ArchiveError, QuestionError};
use crate::night::club::archive::{Archive, StoredSheet};
use crate::night::desk::review::stored_alignment;
use crate::night::ledger::WriterSeats;
use crate::page::form::FormTemplate;
use crate::page::input::{Page, page_of_bytes};
use crate::read::{DigitReader, PrintReader};
use crate::record::Decision;
use crate::record::stand::Check;
use crate::sheet::{Column, SheetResult, ValuePath};

/// The night questions are asked about, and what reads and checks it.
pub struct Night<'a> {
    pub id: i64,
    pub seats: &'a WriterSeats,
    /// Every form the night's sheets may be read on.
    pub forms: &'a [FormTemplate],
    pub rules: &'a RuleSet,
    pub check: &'a Check<'a>,
    pub lang: Lang,
}

/// What a person answers to a question.
#[derive(Debug, Clone)]
pub enum Given {
    /// Every cell of the question says this (null: blank on the paper).
    All(Value),
    /// These cells (sheet, path) say these values; the rest stay asked.
    Cells(Vec<(i64, ValuePath, Value)>),
}

/// The desk's questions of a night, with the shapes of the cells seen so
/// far kept (a scan is decoded once for them, not on every request).
#[derive(Default)]
pub struct Asking {
    shapes: Mutex<HashMap<ShapeKey, Option<Shape>>>,
}

/// A cell's shape is its scan's ink at its place, as the sheet is aligned
/// on the form it was read on.
type ShapeKey = (String, u32, String, String, String);

/// One sheet of a hand as an answer found it, to read again with the
/// archive free.
struct Snapshot {
    stored: StoredSheet,
    page: Option<Page>,
    /// The people's decisions on it, in order.
    records: Vec<crate::record::Record>,
    /// A person's newest answer at each value.
    answers: Vec<(ValuePath, Value)>,
}

fn hold(archive: &Mutex<Archive>) -> MutexGuard<'_, Archive> {
    archive.lock().unwrap_or_else(|p| p.into_inner())
}

impl Asking {
    /// The night's questions as they stand, in the order they are asked.
    pub fn questions(
        &self,
        archive: &Mutex<Archive>,
        night: &Night,
    ) -> Result<Vec<Question>, ArchiveError> {
        let (mut doubts, unseen) = {
            let a = hold(archive);
            self.doubts(&a, night)?
        };
        // The scans not seen yet are decoded with the archive free.
        for (stored, bytes) in unseen {
            let page = bytes.and_then(|b| page_of_bytes(&b, stored.result.page.unwrap_or(1)));
            self.add_shapes(&stored, page.and_then(|p| p.image.ok()).as_ref(), night);
        }
        let shapes = self.shapes.lock().unwrap_or_else(|p| p.into_inner());
        for d in &mut doubts {
            d.doubt.shape = shapes.get(&d.shape_key).cloned().flatten();
        }
        Ok(ask(doubts.into_iter().map(|d| d.doubt).collect()))
    }

    /// Every doubt of the night with its shape's key, and the sheets (with
    /// their scans' bytes) whose shapes are not known yet.
    #[allow(clippy::type_complexity)]
    fn doubts(
        &self,
        archive: &Archive,
        night: &Night,
    ) -> Result<(Vec<Keyed>, Vec<(StoredSheet, Option<Vec<u8>>)>), ArchiveError> {
        let shapes = self.shapes.lock().unwrap_or_else(|p| p.into_inner());
        let (mut doubts, mut unseen) = (Vec::new(), Vec::new());
        let all = archive.sheets(night.id)?;
        let counting = crate::record::counts::night(all.iter().map(|s| &s.result));
        for (stored, how) in all.into_iter().zip(counting) {
            if !how.asks() {
                continue;
            }
            let hand = HandOf::of(stored.id, &stored.result, night.seats);
            let sheet = &stored.result;
            let at = say(
                night.lang,
                "question-cell-at",
                &[
                    ("round", &sheet.round.map_or("?".into(), |r| r.to_string())),
                    ("table", &sheet.table.map_or("?".into(), |t| t.to_string())),
                ],
            );
            let own: Vec<Keyed> = doubts_of(stored.id, sheet, &hand)
                .into_iter()
                .map(|mut doubt| {
                    doubt.label = format!("{at}, {}", doubt.path.label(night.lang));
                    Keyed {
                        shape_key: shape_key(&stored, doubt.path),
                        doubt,
                    }
                })
                .collect();
            if own.iter().any(|d| !shapes.contains_key(&d.shape_key)) {
                let bytes = archive.scan_bytes(&stored.sha256)?;
                unseen.push((stored, bytes));
            }
            doubts.extend(own);
        }
        Ok((doubts, unseen))
    }

    /// The shapes of every cell in doubt of `stored`, kept.
    fn add_shapes(&self, stored: &StoredSheet, page: Option<&GrayImage>, night: &Night) {
        let sheet = &stored.result;
        let found = form_of(night.forms, sheet).zip(stored_alignment(sheet));
        let hand = HandOf::Sheet(stored.id);
        let mut shapes = self.shapes.lock().unwrap_or_else(|p| p.into_inner());
        for d in doubts_of(stored.id, sheet, &hand) {
            let shape = page
                .zip(found.as_ref())
                .and_then(|(img, (form, a))| Shape::at(img, a, form, d.path));
            shapes.insert(shape_key(stored, d.path), shape);
        }
    }

    /// Answers question `id` as `by` with `given`: a person's answer for
    /// each cell (all or none), then the hand read again with every
    /// answer about it. The night's questions as they then stand.
    pub fn answer(
        &self,
        archive: &Mutex<Archive>,
        night: &Night,
        readers: (&mut dyn DigitReader, &mut dyn PrintReader),
        (id, by): (&str, &str),
        given: Given,
    ) -> Result<Vec<Question>, QuestionError> {
        let question = (self.questions(archive, night)?.into_iter())
            .find(|q| q.id == id)
            .ok_or_else(|| QuestionError::Stale(id.to_string()))?;
        let answers = answered_cells(&question, given)?;
        let hand = {
            let mut a = hold(archive);
            decide_all(&mut a, night, by, &answers)?;
            snapshot(&a, night, &question.hand)?
        };
        let said = answers
            .first()
            .map(|(_, _, v)| shown(v, night.lang))
            .unwrap_or_default();
        let why = say(
            night.lang,
            "question-settled",
            &[("by", &by), ("value", &said)],
        );
        let reread = say(
            night.lang,
            "question-reread",
            &[("by", &by), ("value", &said)],
        );
        let read = teach(&hand, night, readers, &question.hand, &why);
        {
            let mut a = hold(archive);
            for r in read {
                store_if_unchanged(&mut a, night, r.snap, &r.reading, (&r.settled, &reread))?;
            }
        }
        Ok(self.questions(archive, night)?)
    }
}

/// A doubt with the key of its shape.
struct Keyed {
    doubt: Doubt,
    shape_key: ShapeKey,
}

fn shape_key(stored: &StoredSheet, path: ValuePath) -> ShapeKey {
    let sheet = &stored.result;
    let aligned = sheet
        .notes
        .alignment
        .as_ref()
        .map(|a| format!("{:?}", a.to_image));
    (
        stored.sha256.clone(),
        sheet.page.unwrap_or(1),
        sheet.form.clone().unwrap_or_default(),
        aligned.unwrap_or_default(),
        path.to_string(),
    )
}

/// The cells an answer gives values to, each of them the question's, once.
fn answered_cells(
    question: &Question,
    given: Given,
) -> Result<Vec<(i64, ValuePath, Value)>, QuestionError> {
    match given {
        Given::All(value) => Ok((question.cells.iter())
            .map(|c| (c.sheet, c.path, value.clone()))
            .collect()),
        Given::Cells(cells) if cells.is_empty() => Err(QuestionError::ValueOrCells),
        Given::Cells(cells) => {
            for (i, (sheet, path, _)) in cells.iter().enumerate() {
                let asked = question
                    .cells
                    .iter()
                    .any(|c| c.sheet == *sheet && c.path == *path);
                let twice = cells[..i].iter().any(|(s, p, _)| s == sheet && p == path);
                if !asked || twice {
                    return Err(QuestionError::NotAsked {
                        sheet: *sheet,
                        path: path.to_string(),
                    });
                }
            }
            Ok(cells)
        }
    }
}

/// Every answer kept, or none: each is checked against its sheet as it
/// stands before any is stored.
fn decide_all(
    archive: &mut Archive,
    night: &Night,
    by: &str,
    answers: &[(i64, ValuePath, Value)],
) -> Result<(), QuestionError> {
    let mut by_sheet: BTreeMap<i64, Vec<Decision>> = BTreeMap::new();
    for (sheet, path, value) in answers {
        by_sheet.entry(*sheet).or_default().push(Decision::Paper {
            path: path.to_string(),
            value: value.clone(),
        });
    }
    for (sheet, decisions) in &by_sheet {
        let stored = (archive.sheet_anywhere(*sheet)?.map(|(_, s)| s))
            .ok_or(ArchiveError::NoSuchSheet(*sheet))?;
        for d in decisions {
            d.check(&stored.result).map_err(ArchiveError::Refused)?;
        }
    }
    for (sheet, decisions) in &by_sheet {
        archive.decide(*sheet, by, decisions, None, night.check)?;
    }
    Ok(())
}

/// A value as the trail's reason quotes it (a blank as the catalogue says).
fn shown(v: &Value, lang: Lang) -> String {
    match v {
        Value::Null => say(lang, "question-blank", &[]),
        Value::String(s) => s.clone(),
        v => v.to_string(),
    }
}

/// The sheets of `hand` with their scans, newest readings and answers.
fn snapshot(
    archive: &Archive,
    night: &Night,
    hand: &HandOf,
) -> Result<Vec<Snapshot>, ArchiveError> {
    let mut out = Vec::new();
    for stored in archive.sheets(night.id)? {
        if HandOf::of(stored.id, &stored.result, night.seats) != *hand {
            continue;
        }
        let record = archive.record(stored.id)?;
        let mut answers: Vec<(ValuePath, Value)> = Vec::new();
        let taken_back = crate::record::stand::withdrawn(&record.records);
        for (r, _) in (record.records.iter().zip(taken_back)).filter(|(_, gone)| !gone) {
            if let Decision::Paper { path, value } = &r.decision
                && let Ok(path) = path.parse::<ValuePath>()
            {
                answers.retain(|(p, _)| *p != path);
                answers.push((path, value.clone()));
            }
        }
        let page = archive
            .scan_bytes(&stored.sha256)?
            .and_then(|b| page_of_bytes(&b, stored.result.page.unwrap_or(1)));
        out.push(Snapshot {
            records: record.records,
            stored,
            page,
            answers,
        });
    }
    Ok(out)
}

/// A sheet of the hand read again: the new reading and the values it
/// settles, each with why.
struct Reread<'s> {
    snap: &'s Snapshot,
    reading: SheetResult,
    settled: Vec<(ValuePath, String)>,
}

/// Each sheet of the hand with cells in doubt or rows the sums flag, read
/// again by the reader tuned to every answer about the hand: the new
/// reading and the values it settles, each with `why`. A sheet the new
/// reading cannot read is left as it stands.
fn teach<'s>(
    hand: &'s [Snapshot],
    night: &Night,
    (digits, printed): (&mut dyn DigitReader, &mut dyn PrintReader),
    of: &HandOf,
    why: &str,
) -> Vec<Reread<'s>> {
    let answers: Vec<(GrayImage, u32)> = hand
        .iter()
        .flat_map(|s| answered_writings(s, night))
        .collect();
    if answers.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for snap in hand {
        let sheet = &snap.stored.result;
        let doubted: Vec<ValuePath> = (doubts_of(snap.stored.id, sheet, of).into_iter())
            .map(|d| d.path)
            .filter(|p| {
                !matches!(
                    p,
                    ValuePath::Player(_) | ValuePath::Round | ValuePath::Table
                )
            })
            .collect();
        let flagged = flagged_by_sums(sheet);
        let (Some(page), Some(form)) = (&snap.page, form_of(night.forms, sheet)) else {
            continue;
        };
        if doubted.is_empty() && flagged.is_empty() {
            continue;
        }
        let mut reading = crate::scan::scan_page_answered(
            page,
            std::slice::from_ref(form),
            night.rules,
            (&mut *digits, &mut *printed),
            night.lang,
            &answers,
        );
        if reading.status == crate::sheet::Status::Unreadable {
            continue;
        }
        reading.notes.source_sha256 = Some(snap.stored.sha256.clone());
        let made =
            crate::record::stand::stand(&reading, &snap.records, snap.stored.id, night.check);
        let Ok(made) = made else {
            continue;
        };
        let settled = settled_by(snap, &made, (&doubted, &flagged), of, why);
        if !settled.is_empty() {
            out.push(Reread {
                snap,
                reading,
                settled,
            });
        }
    }
    out
}

/// The values a new reading settles, the sheet `made` from it with every
/// decision: a doubt it no longer has, or a value of a flagged row it now
/// holds otherwise and does not doubt.
fn settled_by(
    snap: &Snapshot,
    made: &SheetResult,
    (doubted, flagged): (&[ValuePath], &[ValuePath]),
    of: &HandOf,
    why: &str,
) -> Vec<(ValuePath, String)> {
    let now: Vec<ValuePath> = (doubts_of(snap.stored.id, made, of).into_iter())
        .map(|d| d.path)
        .collect();
    let before = &snap.stored.result;
    let changed = |p: &ValuePath| p.number(before) != p.number(made);
    (doubted.iter())
        .filter(|p| !now.contains(p))
        .chain(flagged.iter().filter(|p| changed(p) && !now.contains(p)))
        .map(|p| (*p, why.to_string()))
        .collect()
}

/// Stores a new reading of a sheet that has not changed since it was read
/// for it; a sheet another person changed meanwhile keeps its record.
fn store_if_unchanged(
    archive: &mut Archive,
    night: &Night,
    snap: &Snapshot,
    reading: &SheetResult,
    (settled, reread): (&[(ValuePath, String)], &str),
) -> Result<(), ArchiveError> {
    let id = snap.stored.id;
    let now = archive.sheet_anywhere(id)?.map(|(_, s)| s.version);
    if now != Some(snap.stored.version) {
        return Ok(());
    }
    match archive.add_reading_settled(id, reading, night.check, (settled, Some(reread))) {
        Ok(_) | Err(ArchiveError::RereadUnreadable(_)) => Ok(()),
        Err(e) => Err(e),
    }
}

/// The game values of the rows the sheet's sums flag: what the reader
/// tuned to a person's answer reads again besides the doubts.
fn flagged_by_sums(sheet: &SheetResult) -> Vec<ValuePath> {
    use crate::check::flags::Code;
    let rows = (sheet.flags.iter())
        .filter(|f| matches!(f.code, Code::RowNotZeroSum | Code::RowIllegalValues))
        .filter_map(|f| f.row);
    let mut out = Vec::new();
    for no in rows {
        let seats = sheet
            .games
            .iter()
            .find(|g| g.no == no)
            .map_or(0, |g| g.cells.len());
        for seat in 1..=seats {
            for column in [Column::Plus, Column::Minus] {
                out.push(ValuePath::Game { no, seat, column });
            }
        }
    }
    out
}

/// The writings of the game and footer values a person answered on a
/// sheet (the newest answer at each), with the number the paper says.
fn answered_writings(snap: &Snapshot, night: &Night) -> Vec<(GrayImage, u32)> {
    let sheet = &snap.stored.result;
    let found = (
        form_of(night.forms, sheet),
        stored_alignment(sheet),
        snap.page.as_ref(),
    );
    let (Some(form), Some(alignment), Some(Ok(img))) =
        (found.0, found.1, found.2.map(|p| p.image.as_ref()))
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (path, value) in &snap.answers {
        // Header values may be print or another's hand: not this writer's.
        if matches!(
            path,
            ValuePath::Player(_) | ValuePath::Round | ValuePath::Table
        ) {
            continue;
        }
        let (Some(bx), Some(n)) = (super::shape::box_of(form, *path), value.as_i64()) else {
            continue;
        };
        // An Endergebnis's sign is read apart: its digits are the writing.
        let Ok(v) = u32::try_from(n.unsigned_abs()) else {
            continue;
        };
        let corrected = match *path {
            ValuePath::Game { no, seat, .. } => {
                sheet.cell(no, seat - 1).is_some_and(|c| c.corrected)
            }
            _ => false,
        };
        let kind = (
            matches!(path, ValuePath::Game { .. }),
            matches!(path, ValuePath::Endergebnis(_)),
        );
        if let Some(w) = crate::scan::value_writing(img, &alignment, bx, kind, corrected) {
            out.push((w, v));
        }
    }
    out
}

/// The form a sheet was read on, among `forms`.
fn form_of<'f>(forms: &'f [FormTemplate], sheet: &SheetResult) -> Option<&'f FormTemplate> {
    let id = sheet.form.as_deref()?;
    forms.iter().find(|f| f.id == id)
}
