//! `GET /api/questions` and `POST /api/questions/{id}`: the night's
//! questions about reading, one a shape of one Schreiber's hand, and their
//! answers (docs/contract.md, "Questions at the desk").

use std::sync::{Arc, Mutex};

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use serde::Deserialize;
use serde_json::Value;

use aufsicht::catalogue::{Tell, say};
use aufsicht::error::QuestionError;
use aufsicht::night::club::archive::with_kept;
use aufsicht::night::desk::questions::teach::{Asking, Given, Night};
use aufsicht::night::ledger::WriterSeats;
use aufsicht::read::{DigitReader, PrintReader};
use aufsicht::sheet::ValuePath;

use super::Desk;
use super::api::{NightOf, NightQuery, Problem, Reply, blocking};

/// The desk's questions, their shapes seen so far, and the readers an
/// answer reads the hand again with (made at the first answer).
#[derive(Default)]
pub struct Asked {
    asking: Asking,
    readers: Mutex<Option<Readers>>,
}

type Readers = (Box<dyn DigitReader + Send>, Box<dyn PrintReader + Send>);

/// `GET /api/questions?tournament=…`: the questions the desk still asks
/// of the night, in the order it asks them.
pub async fn list(State(desk): State<Arc<Desk>>, Query(q): Query<NightQuery>) -> Reply {
    blocking(move || {
        let night = desk.night(q.tournament.as_deref())?;
        let questions = desk.with_night(&night, |asked, n| {
            let questions = asked.asking.questions(desk.archive.fresh(), n);
            questions.map_err(QuestionError::from)
        })?;
        Ok(Json(questions).into_response())
    })
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AnswerBody {
    by: String,
    /// Given (null too: blank on the paper) or not.
    #[serde(default, deserialize_with = "given_or_null")]
    value: Option<Value>,
    #[serde(default)]
    cells: Option<Vec<CellAnswer>>,
}

/// A field that is there, null or not (`Option` alone takes null for
/// missing).
fn given_or_null<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CellAnswer {
    sheet: i64,
    path: String,
    value: Value,
}

/// `POST /api/questions/{id}`: answers the question (every cell, or the
/// cells named); the night's questions as they then stand.
pub async fn answer(
    State(desk): State<Arc<Desk>>,
    Path(id): Path<String>,
    Query(q): Query<NightQuery>,
    body: Bytes,
) -> Reply {
    blocking(move || {
        let lang = desk.lang;
        let body: AnswerBody = super::api::body_of(&desk, &body)?;
        let by = body.by.trim().to_string();
        if by.is_empty() {
            let said = say(lang, "desk-name-first", &[]);
            return Err(Problem(StatusCode::BAD_REQUEST, said));
        }
        let given = given(body, &desk)?;
        let night = desk.night(q.tournament.as_deref())?;
        let questions = desk.with_night(&night, |asked, n| {
            // One answer reads at a time; the archive is free meanwhile.
            let mut readers = asked.readers.lock().unwrap_or_else(|p| p.into_inner());
            if readers.is_none() {
                *readers = Some(make_readers()?);
            }
            let (digits, printed) = readers.as_mut().expect("made above");
            let readers: (&mut dyn DigitReader, &mut dyn PrintReader) =
                (digits.as_mut(), printed.as_mut());
            (asked.asking).answer(desk.archive.fresh(), n, readers, (&id, &by), given)
        })?;
        Ok(Json(questions).into_response())
    })
    .await
}

#[derive(Deserialize)]
pub struct CropQuery {
    #[serde(default)]
    path: Option<String>,
}

/// `GET /api/sheets/{id}/crop?path=P`: the cell at `path` as the desk
/// shows it (PNG), for a question's crops side by side.
pub async fn crop(
    State(desk): State<Arc<Desk>>,
    Path(id): Path<i64>,
    Query(q): Query<CropQuery>,
) -> Reply {
    blocking(move || {
        let Some(path) = q.path else {
            let said = say(desk.lang, "desk-crop-no-path", &[]);
            return Err(Problem(StatusCode::BAD_REQUEST, said));
        };
        let path: ValuePath = path.parse().map_err(|e: aufsicht::error::EditError| {
            Problem(StatusCode::BAD_REQUEST, e.tell(desk.lang))
        })?;
        let stored = desk.stored(id)?;
        let png = super::view::crop(&desk, &stored, path).map_err(|e| desk.problem(e))?;
        let Some(png) = png else {
            let said = say(desk.lang, "desk-no-crop", &[]);
            return Err(Problem(StatusCode::NOT_FOUND, said));
        };
        let mime = [(axum::http::header::CONTENT_TYPE, "image/png")];
        Ok((mime, png).into_response())
    })
    .await
}

/// What the body answers: one value for every cell, or cells apart.
fn given(body: AnswerBody, desk: &Desk) -> Result<Given, Problem> {
    let bad = |text: String| Problem(StatusCode::BAD_REQUEST, text);
    match (body.value, body.cells) {
        (Some(value), None) => Ok(Given::All(value)),
        (None, Some(cells)) => {
            let mut out = Vec::new();
            for c in cells {
                let path: ValuePath = c
                    .path
                    .parse()
                    .map_err(|e: aufsicht::error::EditError| bad(e.tell(desk.lang)))?;
                out.push((c.sheet, path, c.value));
            }
            Ok(Given::Cells(out))
        }
        _ => Err(bad(QuestionError::ValueOrCells.tell(desk.lang))),
    }
}

fn make_readers() -> Result<Readers, aufsicht::read::ReaderError> {
    Ok((
        Box::new(aufsicht::read::cnn::CnnReader::new()?),
        aufsicht::read::print_reader()?,
    ))
}

impl Desk {
    /// Runs `work` with the desk's questions and what reads and checks
    /// night `night`; its refusal as the desk's answer.
    fn with_night<T>(
        &self,
        night: &NightOf,
        work: impl FnOnce(&Asked, &Night) -> Result<T, QuestionError>,
    ) -> Result<T, Problem> {
        let kept = {
            let archive = self.archive.lock().unwrap_or_else(|p| p.into_inner());
            archive.forms().map_err(|e| self.problem(e))?
        };
        let forms = with_kept(&self.forms, kept);
        let seats = WriterSeats::all_on(self.writer_seat);
        let check = |sheet| self.verified(night, sheet);
        let n = Night {
            id: night.id,
            seats: &seats,
            forms: &forms,
            rules: &night.rules,
            check: &check,
            lang: self.lang,
        };
        work(&self.asking, &n).map_err(|e| self.question_problem(e))
    }

    fn question_problem(&self, e: QuestionError) -> Problem {
        match e {
            QuestionError::Archive(e) => self.problem(e),
            e @ (QuestionError::Stale(_) | QuestionError::NotAsked { .. }) => {
                Problem(StatusCode::CONFLICT, e.tell(self.lang))
            }
            e @ QuestionError::ValueOrCells => Problem(StatusCode::BAD_REQUEST, e.tell(self.lang)),
            e @ QuestionError::Reader(_) => {
                Problem(StatusCode::INTERNAL_SERVER_ERROR, e.tell(self.lang))
            }
        }
    }
}
