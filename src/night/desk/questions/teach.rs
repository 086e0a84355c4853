//! A question answered: each cell gets what the paper says (a person's
//! answer, kept in the record), and the answer teaches the reader the hand
//! it is about. The hand's other sheets with cells in doubt are read again
//! by the reader tuned to every answer about that hand; a doubt the new
//! reading settles is not asked again, and its trail line says why.

use std::collections::{BTreeMap, HashMap};

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
    /// Every cell of the question says this.
    All(Value),
    /// These cells (sheet, path) say these values; the rest stay asked.
    Cells(Vec<(i64, ValuePath, Value)>),
}

/// The desk's questions of a night, with the shapes of the cells seen so
/// far kept (a scan is decoded once for them, not on every answer).
#[derive(Default)]
pub struct Asking {
    shapes: HashMap<ShapeKey, Option<Shape>>,
}

/// A cell's shape is its scan's ink at its place on the form it was read on.
type ShapeKey = (String, u32, String, String);

impl Asking {
    /// The night's questions as they stand, in the order they are asked.
    pub fn questions(
        &mut self,
        archive: &Archive,
        night: &Night,
    ) -> Result<Vec<Question>, ArchiveError> {
        let mut doubts = Vec::new();
        for stored in archive.sheets(night.id)? {
            let hand = HandOf::of(stored.id, &stored.result, night.seats);
            let mut own = doubts_of(stored.id, &stored.result, &hand);
            if !own.is_empty() {
                self.add_shapes(archive, night, &stored, &mut own)?;
            }
            doubts.extend(own);
        }
        Ok(ask(doubts))
    }

    fn add_shapes(
        &mut self,
        archive: &Archive,
        night: &Night,
        stored: &StoredSheet,
        doubts: &mut [Doubt],
    ) -> Result<(), ArchiveError> {
        let sheet = &stored.result;
        let key = |path: &ValuePath| -> ShapeKey {
            let form = sheet.form.clone().unwrap_or_default();
            let at = (stored.sha256.clone(), sheet.page.unwrap_or(1));
            (at.0, at.1, form, path.to_string())
        };
        if doubts
            .iter()
            .any(|d| !self.shapes.contains_key(&key(&d.path)))
        {
            let page = page_image(archive, stored)?;
            let found = form_of(night.forms, sheet).zip(stored_alignment(sheet));
            for d in doubts.iter() {
                let shape = page
                    .as_ref()
                    .zip(found.as_ref())
                    .and_then(|(img, (form, a))| Shape::at(img, a, form, d.path));
                self.shapes.insert(key(&d.path), shape);
            }
        }
        for d in doubts.iter_mut() {
            d.shape = self.shapes.get(&key(&d.path)).cloned().flatten();
        }
        Ok(())
    }

    /// Answers question `id` as `by` with `given`: a person's answer for
    /// each cell, then the hand read again with every answer about it.
    /// The night's questions as they then stand.
    pub fn answer(
        &mut self,
        archive: &mut Archive,
        night: &Night,
        readers: (&mut dyn DigitReader, &mut dyn PrintReader),
        (id, by): (&str, &str),
        given: Given,
    ) -> Result<Vec<Question>, QuestionError> {
        let asked = self.questions(archive, night)?;
        let question = (asked.into_iter())
            .find(|q| q.id == id)
            .ok_or_else(|| QuestionError::Stale(id.to_string()))?;
        let answers = answered_cells(&question, given)?;
        let mut by_sheet: BTreeMap<i64, Vec<Decision>> = BTreeMap::new();
        for (sheet, path, value) in &answers {
            by_sheet.entry(*sheet).or_default().push(Decision::Paper {
                path: path.to_string(),
                value: value.clone(),
            });
        }
        for (sheet, decisions) in &by_sheet {
            archive.decide(*sheet, by, decisions, None, night.check)?;
        }
        let said = answers
            .first()
            .map(|(_, _, v)| shown(v))
            .unwrap_or_default();
        let why = say(
            night.lang,
            "question-settled",
            &[("by", &by), ("value", &said)],
        );
        teach(archive, night, readers.0, readers.1, &question.hand, &why)?;
        Ok(self.questions(archive, night)?)
    }
}

/// The cells an answer gives values to, each of them the question's.
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
            for (sheet, path, _) in &cells {
                if !question
                    .cells
                    .iter()
                    .any(|c| c.sheet == *sheet && c.path == *path)
                {
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

fn shown(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        v => v.to_string(),
    }
}

/// Reads again every sheet of `hand` that has game cells in doubt, the
/// reader tuned to every answer about the hand's game cells; each doubt
/// the new reading settles gets `why` in the trail.
fn teach(
    archive: &mut Archive,
    night: &Night,
    digits: &mut dyn DigitReader,
    printed: &mut dyn PrintReader,
    hand: &HandOf,
    why: &str,
) -> Result<(), ArchiveError> {
    let sheets: Vec<StoredSheet> = (archive.sheets(night.id)?.into_iter())
        .filter(|s| HandOf::of(s.id, &s.result, night.seats) == *hand)
        .collect();
    let mut pages = HashMap::new();
    let mut answers: Vec<(GrayImage, u32)> = Vec::new();
    for stored in &sheets {
        let Some(page) = page_of(archive, stored)? else {
            continue;
        };
        answers.extend(answered_writings(archive, night, stored, &page)?);
        pages.insert(stored.id, page);
    }
    if answers.is_empty() {
        return Ok(());
    }
    for stored in &sheets {
        let doubted: Vec<ValuePath> = doubts_of(stored.id, &stored.result, hand)
            .into_iter()
            .map(|d| d.path)
            .filter(|p| {
                !matches!(
                    p,
                    ValuePath::Player(_) | ValuePath::Round | ValuePath::Table
                )
            })
            .collect();
        let flagged = flagged_by_sums(&stored.result);
        let (Some(page), Some(form)) =
            (pages.get(&stored.id), form_of(night.forms, &stored.result))
        else {
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
        reading.notes.source_sha256 = Some(stored.sha256.clone());
        let before = archive.record(stored.id)?.readings.pop();
        let now_doubted: Vec<ValuePath> = (doubts_of(stored.id, &reading, hand).into_iter())
            .map(|d| d.path)
            .collect();
        let changed = |p: &ValuePath| {
            before
                .as_ref()
                .is_some_and(|b| p.number(b) != p.number(&reading))
        };
        let settled: Vec<(ValuePath, String)> = (doubted.iter())
            .filter(|p| !now_doubted.contains(p))
            .chain(flagged.iter().filter(|p| changed(p)))
            .map(|p| (*p, why.to_string()))
            .collect();
        if settled.is_empty() {
            continue;
        }
        archive.add_reading_settled(stored.id, &reading, night.check, &settled)?;
    }
    Ok(())
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

/// The writings of the values a person answered on `stored`, with
/// the value the paper says there.
fn answered_writings(
    archive: &Archive,
    night: &Night,
    stored: &StoredSheet,
    page: &Page,
) -> Result<Vec<(GrayImage, u32)>, ArchiveError> {
    let sheet = &stored.result;
    let (Some(form), Some(alignment), Ok(img)) = (
        form_of(night.forms, sheet),
        stored_alignment(sheet),
        page.image.as_ref(),
    ) else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for record in archive.record(stored.id)?.records {
        let Decision::Paper { path, value } = &record.decision else {
            continue;
        };
        let Ok(path) = path.parse::<ValuePath>() else {
            continue;
        };
        let Some(bx) = super::shape::box_of(form, path) else {
            continue;
        };
        // The digits as written: an Endergebnis's sign is read apart; a
        // participant number with leading zeros teaches nothing (the
        // tuning takes a value's digits from the number).
        let digits = match value {
            Value::Number(n) => n.as_i64().map(|v| v.unsigned_abs().to_string()),
            Value::String(s) if s.bytes().all(|b| b.is_ascii_digit()) => Some(s.clone()),
            _ => None,
        };
        let digits = digits.filter(|d| d.len() == 1 || !d.starts_with('0'));
        let Some(v) = digits.and_then(|d| d.parse::<u32>().ok()) else {
            continue;
        };
        let corrected = match path {
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
    Ok(out)
}

/// The form a sheet was read on, among `forms`.
fn form_of<'f>(forms: &'f [FormTemplate], sheet: &SheetResult) -> Option<&'f FormTemplate> {
    let id = sheet.form.as_deref()?;
    forms.iter().find(|f| f.id == id)
}

/// The page of its scan a sheet was read from, as the archive keeps it.
fn page_of(archive: &Archive, stored: &StoredSheet) -> Result<Option<Page>, ArchiveError> {
    let Some(bytes) = archive.scan_bytes(&stored.sha256)? else {
        return Ok(None);
    };
    Ok(page_of_bytes(&bytes, stored.result.page.unwrap_or(1)))
}

/// [`page_of`]'s grey image alone.
fn page_image(archive: &Archive, stored: &StoredSheet) -> Result<Option<GrayImage>, ArchiveError> {
    Ok(page_of(archive, stored)?.and_then(|p| p.image.ok()))
}
