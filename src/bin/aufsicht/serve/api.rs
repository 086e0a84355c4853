//! The desk's JSON endpoints (docs/contract.md, "The review service").

use std::borrow::Cow;
use std::sync::Arc;

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};

use aufsicht::RuleSet;
use aufsicht::SheetResult;
use aufsicht::catalogue::{Tell, say};
use aufsicht::error::{ArchiveError, ClubError, PowerError};
use aufsicht::night::club::archive::StoredSheet;
use aufsicht::night::club::audit::Audit;
use aufsicht::night::tournament::names::Names;
use aufsicht::night::tournament::participants::Participants;
use aufsicht::night::tournament::ranking::{NightRules, rank};
use aufsicht::night::tournament::seating::Seating;
use aufsicht::record::Decision;
use aufsicht::sheet::PlayerNo;

use super::Desk;

/// A request the desk refuses or cannot answer: a status and one line.
pub struct Problem(pub(super) StatusCode, pub(super) String);

impl IntoResponse for Problem {
    fn into_response(self) -> Response {
        let mime = [(header::CONTENT_TYPE, "text/plain; charset=utf-8")];
        let mut response = (self.0, mime, self.1).into_response();
        response.extensions_mut().insert(super::refusals::OwnWords);
        response
    }
}

pub(super) type Reply = Result<Response, Problem>;

impl Desk {
    pub(super) fn problem(&self, e: ArchiveError) -> Problem {
        let status = match e {
            ArchiveError::NoSuchSheet(_) => StatusCode::NOT_FOUND,
            ArchiveError::Check(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ArchiveError::Stale { .. }
            | ArchiveError::CopyRefused { .. }
            | ArchiveError::RereadUnreadable(_) => StatusCode::CONFLICT,
            ArchiveError::Refused(ref e) => match e {
                aufsicht::error::DecisionError::Power(
                    PowerError::NoSuchRow(_) | PowerError::NoSuchField { .. },
                ) => StatusCode::NOT_FOUND,
                _ => StatusCode::BAD_REQUEST,
            },
            _ => StatusCode::INTERNAL_SERVER_ERROR,
        };
        Problem(status, e.tell(self.lang))
    }

    /// A sheet by its archive id (one id names one sheet in the whole
    /// archive), with the night that holds it.
    pub(super) fn stored_in(&self, id: i64) -> Result<(i64, StoredSheet), Problem> {
        let archive = self.archive.lock().unwrap_or_else(|p| p.into_inner());
        archive
            .sheet_anywhere(id)
            .map_err(|e| self.problem(e))?
            .ok_or_else(|| {
                Problem(
                    StatusCode::NOT_FOUND,
                    say(self.lang, "serve-no-sheet", &[("id", &id)]),
                )
            })
    }

    pub(super) fn stored(&self, id: i64) -> Result<StoredSheet, Problem> {
        Ok(self.stored_in(id)?.1)
    }

    /// The night a request names (`?tournament=NAME|DATE`), or the one
    /// the desk opened on.
    pub(super) fn night(&self, wanted: Option<&str>) -> Result<NightOf<'_>, Problem> {
        let Some(wanted) = wanted else {
            return self.night_by_id(self.opened);
        };
        let archive = self.archive.lock().unwrap_or_else(|p| p.into_inner());
        let id = archive.pick_tournament(Some(wanted)).map_err(|e| match e {
            ArchiveError::NoTournament { .. } => Problem(StatusCode::NOT_FOUND, e.tell(self.lang)),
            e => self.problem(e),
        })?;
        drop(archive);
        self.night_by_id(id)
    }

    /// Night `id` with what checks it: the command line's for the night
    /// opened on, the rule set it was scanned with for any other.
    pub(super) fn night_by_id(&self, id: i64) -> Result<NightOf<'_>, Problem> {
        if id == self.opened {
            return Ok(NightOf {
                id,
                rules: Cow::Borrowed(&self.rules),
                participants: self.participants.as_ref(),
                seating: self.seating.as_ref(),
            });
        }
        let archive = self.archive.lock().unwrap_or_else(|p| p.into_inner());
        let name = archive.rules_of(id).map_err(|e| self.problem(e))?;
        drop(archive);
        let rules = RuleSet::load(&name)
            .map_err(|e| Problem(StatusCode::INTERNAL_SERVER_ERROR, e.tell(self.lang)))?;
        Ok(NightOf {
            id,
            rules: Cow::Owned(rules),
            participants: None,
            seating: None,
        })
    }

    /// Who the numbers are, as every night's list names them.
    pub(super) fn names(&self) -> Result<Names, Problem> {
        let archive = self.archive.lock().unwrap_or_else(|p| p.into_inner());
        let mut names = archive.names().map_err(|e| self.problem(e))?;
        names.fill_from(&self.members);
        Ok(names)
    }

    fn all(&self, night: &NightOf) -> Result<Vec<StoredSheet>, Problem> {
        let archive = self.archive.lock().unwrap_or_else(|p| p.into_inner());
        archive.sheets(night.id).map_err(|e| self.problem(e))
    }

    /// The sheet verified again with the rules (and the list) of its night.
    pub(super) fn verified(
        &self,
        night: &NightOf,
        sheet: SheetResult,
    ) -> Result<SheetResult, aufsicht::SheetError> {
        let mut checked = aufsicht::verify(sheet, &night.rules, self.lang)?;
        if let Some(list) = night.participants {
            list.check(&mut checked, self.lang);
        }
        Ok(checked)
    }
}

/// A night of the archive and what checks it.
pub(super) struct NightOf<'d> {
    pub id: i64,
    pub rules: Cow<'d, RuleSet>,
    pub participants: Option<&'d Participants>,
    seating: Option<&'d Seating>,
}

impl NightOf<'_> {
    fn rules(&self) -> NightRules<'_> {
        NightRules {
            rules: &self.rules,
            participants: self.participants,
            seating: self.seating,
        }
    }
}

/// `?tournament=NAME|DATE`: the night a `GET` is about.
#[derive(Deserialize)]
pub struct NightQuery {
    #[serde(default)]
    pub(super) tournament: Option<String>,
}

/// `GET /api/nights`: the archive's nights, newest first, with how many
/// sheets each holds; the one the desk opened on marked.
pub async fn nights(State(desk): State<Arc<Desk>>) -> Reply {
    blocking(move || {
        let archive = desk.archive.lock().unwrap_or_else(|p| p.into_inner());
        let nights = archive.nights().map_err(|e| desk.problem(e))?;
        let counts = archive.sheet_counts().map_err(|e| desk.problem(e))?;
        let listed: Vec<Value> = nights
            .iter()
            .rev()
            .map(|n| {
                json!({"name": n.name, "venue": n.venue, "date": n.date.map(|d| d.to_string()),
                       "sheets": counts.get(&n.id).copied().unwrap_or(0),
                       "opened": n.id == desk.opened})
            })
            .collect();
        Ok(Json(listed).into_response())
    })
    .await
}

/// Runs the archive and image work off the async threads.
pub(super) async fn blocking<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> T {
    tokio::task::spawn_blocking(work)
        .await
        .expect("a desk task panicked")
}

/// `GET /api/sheets`: every sheet of the night, flagged first.
pub async fn sheets(State(desk): State<Arc<Desk>>, Query(q): Query<NightQuery>) -> Reply {
    blocking(move || {
        let night = desk.night(q.tournament.as_deref())?.id;
        let archive = desk.archive.lock().unwrap_or_else(|p| p.into_inner());
        let queue = archive.queue(night).map_err(|e| desk.problem(e))?;
        Ok(Json(queue).into_response())
    })
    .await
}

pub(super) fn with_version(sheet: &SheetResult, version: i64) -> Response {
    let mut response = (
        [(header::CONTENT_TYPE, "application/json")],
        sheet.to_json_pretty(),
    )
        .into_response();
    if let Ok(tag) = format!("\"{version}\"").parse() {
        response.headers_mut().insert(header::ETAG, tag);
    }
    response
}

/// `GET /api/sheets/{id}`: the sheet's result JSON, its version as ETag.
pub async fn sheet(State(desk): State<Arc<Desk>>, Path(id): Path<i64>) -> Reply {
    blocking(move || {
        let stored = desk.stored(id)?;
        Ok(with_version(&stored.result, stored.version))
    })
    .await
}

/// `GET /api/sheets/{id}/view`: what the desk shows of a sheet: its flags
/// with their cells' crops, readings and suggestions, and the whole page.
pub async fn view(State(desk): State<Arc<Desk>>, Path(id): Path<i64>) -> Reply {
    blocking(move || {
        let stored = desk.stored(id)?;
        let view = super::view::view(&desk, &stored).map_err(|e| desk.problem(e))?;
        Ok(Json(view).into_response())
    })
    .await
}

/// `GET /api/sheets/{id}/trail`: every line of the sheet's record,
/// oldest first: who changed or confirmed what, when, by which record.
pub async fn trail(State(desk): State<Arc<Desk>>, Path(id): Path<i64>) -> Reply {
    blocking(move || {
        desk.stored(id)?;
        let archive = desk.archive.lock().unwrap_or_else(|p| p.into_inner());
        let rows = archive.trail(id).map_err(|e| desk.problem(e))?;
        // A blank is an empty text: one type for every old and new.
        let blank = |v: &Option<String>| v.clone().unwrap_or_default();
        let trail: Vec<Value> = rows
            .iter()
            .map(|c| {
                let mut line = json!({"at": c.at, "by": c.by, "kind": c.kind.as_str(),
                       "path": c.path, "old": blank(&c.old), "new": blank(&c.new),
                       "field": c.field});
                if let Some(why) = &c.why {
                    line["why"] = json!(why);
                }
                // The value's place in words, where the path names one.
                if let Ok(p) = c.path.parse::<aufsicht::sheet::ValuePath>() {
                    line["label"] = json!(p.label(desk.lang));
                }
                line
            })
            .collect();
        Ok(Json(trail).into_response())
    })
    .await
}

impl Desk {
    /// A person's decisions on sheet `id`, kept in its record; the sheet
    /// as it now stands goes back, its version as the ETag.
    pub(super) fn decide(
        &self,
        id: i64,
        by: &str,
        decisions: &[Decision],
        version: Option<i64>,
    ) -> Reply {
        let by = by.trim();
        if by.is_empty() {
            let said = say(self.lang, "desk-name-first", &[]);
            return Err(Problem(StatusCode::BAD_REQUEST, said));
        }
        let (night, _) = self.stored_in(id)?;
        let night = self.night_by_id(night)?;
        let check = |sheet| self.verified(&night, sheet);
        let mut archive = self.archive.lock().unwrap_or_else(|p| p.into_inner());
        let decided = archive
            .decide(id, by, decisions, version, &check)
            .map_err(|e| self.problem(e))?;
        Ok(with_version(&decided.sheet, decided.version))
    }
}

/// The version a request names: in its body, else its `If-Match` header.
pub(super) fn named_version(body: Option<i64>, headers: &HeaderMap) -> Option<i64> {
    body.or_else(|| {
        headers
            .get(header::IF_MATCH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().trim_matches('"').parse::<i64>().ok())
    })
}

/// A request body as JSON, or the one line that says what is wrong with it.
pub(super) fn body_of<T: serde::de::DeserializeOwned>(
    desk: &Desk,
    body: &Bytes,
) -> Result<T, Problem> {
    super::refusals::json_body(desk.lang, body)
        .map_err(|said| Problem(StatusCode::BAD_REQUEST, said))
}

/// `POST /api/login`: a browser that showed the desk's key (its address's
/// fragment, which no request carries) keeps it as a cookie, so that no
/// address of the desk ever holds it.
pub async fn login(
    State(desk): State<Arc<Desk>>,
    axum::Extension(access): axum::Extension<super::guard::Access>,
) -> Reply {
    if !matches!(access, super::guard::Access::Desk) {
        return Err(Problem(
            StatusCode::UNAUTHORIZED,
            say(desk.lang, "serve-token-needed", &[]),
        ));
    }
    let cookie = format!(
        "{}={}; HttpOnly; SameSite=Strict; Path=/",
        super::guard::KEY_COOKIE,
        desk.door.token
    );
    Ok(([(header::SET_COOKIE, cookie)], StatusCode::NO_CONTENT).into_response())
}

#[derive(Deserialize)]
pub struct StandingsQuery {
    #[serde(default)]
    tournament: Option<String>,
    #[serde(default)]
    download: Option<u8>,
    /// `json`: the rows as objects by the CSV's column names.
    #[serde(default)]
    format: Option<String>,
}

/// `GET /api/standings`: the standings CSV from the archive as it stands
/// (`?format=json`: its rows as objects by the CSV's column names,
/// numbers as numbers, each with the player's name or null).
pub async fn standings(State(desk): State<Arc<Desk>>, Query(q): Query<StandingsQuery>) -> Reply {
    blocking(move || {
        let night = desk.night(q.tournament.as_deref())?;
        let sheets = desk
            .all(&night)?
            .into_iter()
            .map(StoredSheet::into_named)
            .collect();
        let standings = rank(sheets, night.rules(), desk.lang).standings;
        if q.format.as_deref() == Some("json") {
            let names = desk.names()?;
            let mut rows = standings.table().json_rows();
            for (row, line) in rows.iter_mut().zip(&standings.players) {
                let name = names.get(line.player.as_str()).map(Value::from);
                row.insert("name".into(), name.unwrap_or(Value::Null));
            }
            return Ok(Json(rows).into_response());
        }
        if q.format.as_deref() == Some("csv-de") {
            return desk.spreadsheet(&standings);
        }
        let mut csv = Vec::new();
        standings.write_csv(&mut csv).map_err(|_| {
            Problem(
                StatusCode::INTERNAL_SERVER_ERROR,
                say(desk.lang, "http-failed", &[]),
            )
        })?;
        let mut response =
            ([(header::CONTENT_TYPE, "text/csv; charset=utf-8")], csv).into_response();
        if q.download == Some(1) {
            let disposition = "attachment; filename=\"standings.csv\"";
            response.headers_mut().insert(
                header::CONTENT_DISPOSITION,
                header::HeaderValue::from_static(disposition),
            );
        }
        Ok(response)
    })
    .await
}

impl Desk {
    /// The standings as a spreadsheet of the desk's language opens them
    /// (`;`, a BOM, the heads in the language), with the list's names.
    fn spreadsheet(&self, standings: &aufsicht::night::tournament::standings::Standings) -> Reply {
        use aufsicht::night::table::Entry;
        let names = self.names()?;
        let mut table = standings.for_people(self.lang);
        let named: Vec<Entry> = (standings.players.iter())
            .map(|l| {
                names
                    .get(l.player.as_str())
                    .map_or(Entry::Blank, |n| Entry::Text(n.to_string()))
            })
            .collect();
        if named.iter().any(|e| *e != Entry::Blank) {
            table.insert_after("player", "name", named);
        }
        let mut csv = Vec::new();
        table.write_spreadsheet(&mut csv, self.lang).map_err(|_| {
            Problem(
                StatusCode::INTERNAL_SERVER_ERROR,
                say(self.lang, "http-failed", &[]),
            )
        })?;
        let file = say(self.lang, "desk-spreadsheet-file", &[]);
        let disposition = format!("attachment; filename=\"{file}.csv\"");
        Ok((
            [
                (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_string()),
                (header::CONTENT_DISPOSITION, disposition),
            ],
            csv,
        )
            .into_response())
    }
}

/// `GET /api/checks`: the night checks `standings` makes over the
/// night's sheets as they stand now, each naming its sheets by id.
pub async fn checks(State(desk): State<Arc<Desk>>, Query(q): Query<NightQuery>) -> Reply {
    use aufsicht::night::tournament::checks::sheet_name;
    blocking(move || {
        let night = desk.night(q.tournament.as_deref())?;
        let mut ids: std::collections::HashMap<String, i64> = Default::default();
        let sheets: Vec<(String, SheetResult)> = desk
            .all(&night)?
            .into_iter()
            .map(|s| {
                let id = s.id;
                let (name, result) = s.into_named();
                ids.insert(sheet_name(&result, &name), id);
                ids.insert(name.clone(), id);
                (name, result)
            })
            .collect();
        let standings = rank(sheets, night.rules(), desk.lang).standings;
        let sheets_of = |c: &aufsicht::night::tournament::checks::NightCheck| -> Vec<i64> {
            c.sheets
                .iter()
                .filter_map(|n| ids.get(n).copied())
                .collect()
        };
        let open = standings.checks.iter().map(|c| {
            let action = say(desk.lang, c.kind.action(), &[]);
            json!({"code": c.kind.as_str(), "message": c.message, "sheets": sheets_of(c),
                   "action": action})
        });
        let settled = standings.settled.iter().map(|(c, s)| {
            json!({"code": c.kind.as_str(), "message": c.message, "sheets": sheets_of(c),
                   "settled": {"by": s.by, "at": s.at}})
        });
        let listed: Vec<Value> = open.chain(settled).collect();
        Ok(Json(listed).into_response())
    })
    .await
}

/// `?tournament=`: one night; without it the whole season.
#[derive(Deserialize)]
pub struct WritersQuery {
    #[serde(default)]
    tournament: Option<String>,
}

impl Desk {
    /// The Schreiber's ledger of the night asked for, or of every night.
    pub(super) fn writers(
        &self,
        q: &WritersQuery,
    ) -> Result<Vec<aufsicht::night::ledger::Writer>, Problem> {
        let only = match q.tournament.as_deref() {
            Some(night) => Some(self.night(Some(night))?.id),
            None => None,
        };
        let archive = self.archive.lock().unwrap_or_else(|p| p.into_inner());
        let seats = aufsicht::night::ledger::WriterSeats::all_on(self.writer_seat);
        aufsicht::night::ledger::of_archive(&archive, only, &seats).map_err(|e| self.problem(e))
    }

    /// The page's title: the night asked for, the archive's one night,
    /// or the season of its nights.
    pub(super) fn writers_title(&self, q: &WritersQuery) -> String {
        let nights = {
            let archive = self.archive.lock().unwrap_or_else(|p| p.into_inner());
            archive.nights().unwrap_or_default()
        };
        let what = match (&q.tournament, nights.as_slice()) {
            (Some(night), _) => night.clone(),
            (None, [one]) => one.label(),
            (None, _) => say(self.lang, "writers-page-season", &[]),
        };
        say(self.lang, "writers-page-title", &[("what", &what)])
    }
}

/// `GET /api/writers?tournament=`: the Schreiber's ledger as JSON.
pub async fn writers(State(desk): State<Arc<Desk>>, Query(q): Query<WritersQuery>) -> Reply {
    blocking(move || {
        let writers = desk.writers(&q)?;
        Ok(Json(json!({ "writers": writers })).into_response())
    })
    .await
}

#[derive(Deserialize)]
pub struct AuditQuery {
    /// One night; without it a player's audit covers every night.
    #[serde(default)]
    tournament: Option<String>,
    #[serde(default)]
    pub(super) player: Option<String>,
    #[serde(default)]
    pub(super) sheet: Option<i64>,
}

/// The audit a query asks for: of `?player=NUMBER` or `?sheet=ID`.
pub(super) fn audit_of(desk: &Desk, q: &AuditQuery) -> Result<Audit, Problem> {
    use aufsicht::night::club::audit::{Subject, audit, season_audit};
    let subject = match (q.player.as_deref(), q.sheet) {
        (Some(p), _) => Subject::Player(PlayerNo::new(p)),
        (None, Some(id)) => Subject::Sheet(id),
        (None, None) => {
            let said = say(desk.lang, "serve-audit-whom", &[]);
            return Err(Problem(StatusCode::BAD_REQUEST, said));
        }
    };
    let lang = desk.lang;
    let refused = |e: ArchiveError| match e {
        ArchiveError::NoSuchPlayer(_) => Problem(StatusCode::NOT_FOUND, e.tell(lang)),
        e => desk.problem(e),
    };
    let Some(wanted) = q.tournament.as_deref() else {
        let archive = desk.archive.lock().unwrap_or_else(|p| p.into_inner());
        return season_audit(&archive, subject, &desk.season, lang).map_err(|e| match e {
            ClubError::Archive(e) => refused(e),
            e => Problem(StatusCode::INTERNAL_SERVER_ERROR, e.tell(lang)),
        });
    };
    let night = desk.night(Some(wanted))?;
    let archive = desk.archive.lock().unwrap_or_else(|p| p.into_inner());
    audit(&archive, night.id, subject, night.rules(), lang).map_err(refused)
}

/// `GET /api/audit?player=NUMBER` or `?sheet=ID`: the contract's audit JSON.
pub async fn audit(State(desk): State<Arc<Desk>>, Query(q): Query<AuditQuery>) -> Reply {
    blocking(move || Ok(Json(audit_of(&desk, &q)?).into_response())).await
}
