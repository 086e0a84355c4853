//! The desk's powers over a sheet, one path for all: a JSON body names
//! who decides, the version decided on (or the `If-Match` header), and
//! what; [`power`] makes the decisions and keeps them in the sheet's
//! record ([`Desk::decide`]). A new power is one more body.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use aufsicht::catalogue::say;
use aufsicht::record::Decision;

use super::Desk;
use super::api::{Problem, Reply, blocking, body_of, named_version};

/// A power's request body: who, the version, and what it decides.
pub trait PowerBody: DeserializeOwned + Send + 'static {
    fn by(&self) -> &str;
    fn version(&self) -> Option<i64>;
    /// The decisions the body asks for, or why it asks for none.
    fn decisions(self, desk: &Desk) -> Result<Vec<Decision>, Problem>;
}

/// `POST /api/sheets/{id}/POWER`: the body's decisions on sheet `id`, all
/// or nothing; the sheet as it now stands goes back, its version as the ETag.
pub async fn power<B: PowerBody>(
    State(desk): State<Arc<Desk>>,
    Path(id): Path<i64>,
    headers: HeaderMap,
    body: Bytes,
) -> Reply {
    blocking(move || {
        let body: B = body_of(&desk, &body)?;
        let version = named_version(body.version(), &headers);
        let by = body.by().to_string();
        let decisions = body.decisions(&desk)?;
        desk.decide(id, &by, &decisions, version)
    })
    .await
}

/// Who and which version, as every body names them.
macro_rules! who_and_version {
    () => {
        fn by(&self) -> &str {
            &self.by
        }
        fn version(&self) -> Option<i64> {
            self.version
        }
    };
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PathValue {
    path: String,
    value: Value,
}

/// `values`: what the paper says at each path; verified again, all or nothing.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ValuesBody {
    by: String,
    values: Vec<PathValue>,
    /// The version edited (or the `If-Match` header); none takes any.
    #[serde(default)]
    version: Option<i64>,
}

impl PowerBody for ValuesBody {
    who_and_version!();
    fn decisions(self, desk: &Desk) -> Result<Vec<Decision>, Problem> {
        let paper = |pv: PathValue| Decision::Paper {
            path: pv.path,
            value: pv.value,
        };
        some(desk, self.values.into_iter().map(paper).collect())
    }
}

/// `counts`: where the writer erred, what counts instead of what is
/// written (the written value takes it back, or confirms it).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CountsBody {
    by: String,
    reason: String,
    values: Vec<PathValue>,
    #[serde(default)]
    version: Option<i64>,
}

impl PowerBody for CountsBody {
    who_and_version!();
    fn decisions(self, desk: &Desk) -> Result<Vec<Decision>, Problem> {
        let reason = self.reason.trim().to_string();
        let count = |pv: PathValue| Decision::Counts {
            path: pv.path,
            value: pv.value,
            reason: reason.clone(),
        };
        some(desk, self.values.into_iter().map(count).collect())
    }
}

/// The decisions, where there are any.
fn some(desk: &Desk, decisions: Vec<Decision>) -> Result<Vec<Decision>, Problem> {
    if decisions.is_empty() {
        let said = say(desk.lang, "edit-no-values", &[]);
        return Err(Problem(StatusCode::BAD_REQUEST, said));
    }
    Ok(decisions)
}

/// `initials`: the supervisor initials a game row or a footer value (or
/// takes it back): a correction, a tout or a later edit there is accepted.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InitialsBody {
    by: String,
    /// A game row, or a footer value by its seat and field.
    #[serde(default)]
    row: Option<u32>,
    #[serde(default)]
    seat: Option<usize>,
    #[serde(default)]
    field: Option<String>,
    /// Takes the initials back.
    #[serde(default)]
    undo: bool,
    #[serde(default)]
    version: Option<i64>,
}

impl PowerBody for InitialsBody {
    who_and_version!();
    fn decisions(self, _: &Desk) -> Result<Vec<Decision>, Problem> {
        Ok(vec![Decision::Initials {
            row: self.row,
            seat: self.seat,
            field: self.field,
            undo: self.undo,
        }])
    }
}

/// `verdict`: the supervisor declares the sheet invalid with a reason
/// (or valid again).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VerdictBody {
    by: String,
    void: bool,
    #[serde(default)]
    reason: String,
    #[serde(default)]
    version: Option<i64>,
}

impl PowerBody for VerdictBody {
    who_and_version!();
    fn decisions(self, _: &Desk) -> Result<Vec<Decision>, Problem> {
        Ok(vec![Decision::Void {
            void: self.void,
            reason: self.reason.trim().to_string(),
        }])
    }
}

/// `withdraw`: the newest answer about `path` taken back (the desk's
/// Strg-Z): the value stands as before it, its doubt asked again.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WithdrawBody {
    by: String,
    /// The value whose newest answer is taken back.
    path: String,
    #[serde(default)]
    version: Option<i64>,
}

impl PowerBody for WithdrawBody {
    who_and_version!();
    fn decisions(self, _: &Desk) -> Result<Vec<Decision>, Problem> {
        Ok(vec![Decision::Withdraw { path: self.path }])
    }
}

/// `discard`: a sheet sent by mistake (a photo of something else, a
/// retake, the same paper again) taken out of the night: kept with who
/// and why, never counted; its check settled.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiscardBody {
    by: String,
    /// Taken out of the night; false brings it back.
    #[serde(default = "yes")]
    discard: bool,
    /// Why; the desk's own words where none is given.
    #[serde(default)]
    reason: String,
    #[serde(default)]
    version: Option<i64>,
}

fn yes() -> bool {
    true
}

impl PowerBody for DiscardBody {
    who_and_version!();
    fn decisions(self, desk: &Desk) -> Result<Vec<Decision>, Problem> {
        let reason = match self.reason.trim() {
            "" => say(desk.lang, "desk-discard-reason", &[]),
            given => given.to_string(),
        };
        Ok(vec![Decision::Discard {
            discard: self.discard,
            reason,
        }])
    }
}

/// `copy`: the supervisor settles a sheet read twice: this one is a copy
/// of sheet `of` of the same night and leaves the count.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CopyBody {
    by: String,
    /// The sheet this one is a copy of; null takes the verdict back.
    /// Required: a body without it is no request to take a copy back.
    #[serde(deserialize_with = "required_nullable")]
    of: Option<i64>,
    #[serde(default)]
    version: Option<i64>,
}

impl PowerBody for CopyBody {
    who_and_version!();
    fn decisions(self, _: &Desk) -> Result<Vec<Decision>, Problem> {
        Ok(vec![Decision::Copy { of: self.of }])
    }
}

/// `game`: the supervisor settles a sheet taken for another game's
/// (`WRONG_GAME`) as the night's after all (or takes it back).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameBody {
    by: String,
    /// The sheet is the night's game after all; false takes that back.
    ours: bool,
    #[serde(default)]
    version: Option<i64>,
}

impl PowerBody for GameBody {
    who_and_version!();
    fn decisions(self, _: &Desk) -> Result<Vec<Decision>, Problem> {
        Ok(vec![Decision::Game { ours: self.ours }])
    }
}

/// A field that must be given, null or not (`Option` alone takes a
/// missing field for null).
fn required_nullable<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    Option::<i64>::deserialize(d)
}
