//! `POST /api/scans`: scans sent to the desk (a phone's photos), each
//! kept in the night's photo folder beside the archive and in the archive
//! by its content, and read at once as `scan` reads it, with the night's
//! rule set and list.

use std::path::Path;
use std::sync::{Arc, Mutex};

use axum::Extension;
use axum::Json;
use axum::extract::{Multipart, Query, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use serde::{Deserialize, Serialize};

use aufsicht::catalogue::{Tell, say};
use aufsicht::night::batch::result_names::name_beside;
use aufsicht::night::batch::{Batch, ReaderKind};
use aufsicht::night::club::archive::StoredSheet;
use aufsicht::night::club::archive::{Archive, sha256_file};
use aufsicht::night::desk::sent::{Place, Told, at, sentences};
use aufsicht::record::Decision;
use aufsicht::sheet::{SheetResult, Status};

use super::Desk;
use super::api::{Problem, Reply, blocking};
use super::guard::Access;

/// The most files one request may carry.
pub const MAX_FILES: usize = 20;
/// The largest file taken (a phone's photo is 2–8 MB, a scanner's PDF of
/// a night more).
pub const MAX_FILE: usize = 40 << 20;
/// The largest request: the body limit of the route.
pub const MAX_REQUEST: usize = 200 << 20;

#[derive(Deserialize)]
pub struct ScansQuery {
    #[serde(default)]
    tournament: Option<String>,
}

/// What became of one file sent.
#[derive(Debug, Serialize)]
pub struct Sent {
    file: String,
    sheets: Vec<i64>,
    status: &'static str,
    message: String,
    /// What lets the sender alone take its sheets back
    /// (`POST /api/scans/take-back`).
    #[serde(skip_serializing_if = "Option::is_none")]
    receipt: Option<String>,
}

/// One file of the request: its name and where its bytes wait (a
/// temporary file in the night's photo folder, gone unless kept), or why
/// it is refused.
struct Upload {
    name: String,
    file: Result<tempfile::NamedTempFile, String>,
}

/// How long a phone may take back what it sent (seconds): while the
/// sheet is likely still on the table.
const TAKE_BACK_FOR: u64 = 30 * 60;

/// Seconds since 1970.
fn now() -> u64 {
    (std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH)).map_or(0, |d| d.as_secs())
}

/// The receipt of sheets sent at `issued` (seconds since 1970): the
/// time, then a hash keyed with the desk's secret `key` over it and the
/// sheets, so that a phone takes back what it sent, and only for a while.
fn receipt(key: &str, sheets: &[i64], issued: u64) -> String {
    use sha2::{Digest, Sha256};
    let mut hash = Sha256::new();
    hash.update(key.as_bytes());
    hash.update(issued.to_le_bytes());
    for id in sheets {
        hash.update(id.to_le_bytes());
    }
    let hex: String = (hash.finalize()[..16].iter())
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("{issued}.{hex}")
}

/// Whether `given` is the receipt of `sheets` under `key`, given less than
/// [`TAKE_BACK_FOR`] before `now`.
fn receipt_holds(key: &str, given: &str, sheets: &[i64], now: u64) -> bool {
    let Some(issued) = given.split('.').next().and_then(|t| t.parse::<u64>().ok()) else {
        return false;
    };
    let kept = receipt(key, sheets, issued);
    let same = bool::from(subtle::ConstantTimeEq::ct_eq(
        given.as_bytes(),
        kept.as_bytes(),
    ));
    same && now.saturating_sub(issued) <= TAKE_BACK_FOR
}

/// The most requests with scans read at once; another gets a busy answer.
pub const MAX_AT_ONCE: usize = 4;

pub async fn upload(
    State(desk): State<Arc<Desk>>,
    Extension(access): Extension<Access>,
    Query(q): Query<ScansQuery>,
    multipart: Result<Multipart, axum::extract::multipart::MultipartRejection>,
) -> Reply {
    // No form with files at all (no boundary, another content type).
    let Ok(multipart) = multipart else {
        let said = say(desk.lang, "scans-bad-request", &[]);
        return Err(Problem(StatusCode::BAD_REQUEST, said));
    };
    let Ok(_turn) = desk.uploads.try_acquire() else {
        let busy = say(desk.lang, "scans-busy", &[]);
        return Err(Problem(StatusCode::SERVICE_UNAVAILABLE, busy));
    };
    let night = {
        let desk = desk.clone();
        blocking(move || desk.night_sent_to(access, q.tournament.as_deref())).await?
    };
    let folder = desk.archive_dir.join(format!("fotos-{night}"));
    let files = collect(multipart, &desk, &folder).await?;
    let reader = desk.clone();
    blocking(move || {
        let desk = reader;
        let night = desk.night_by_id(night)?;
        let sent: Vec<Sent> = files
            .into_iter()
            .map(|f| match f.file {
                Ok(file) => desk.read_sent(&night, &f.name, file, &folder),
                Err(why) => Ok(refused(&f.name, why)),
            })
            .collect::<Result<_, Problem>>()?;
        Ok(Json(sent).into_response())
    })
    .await
}

/// The request's `file` fields, each streamed to a temporary file with
/// the limits applied as its bytes come, or refused.
async fn collect(
    mut multipart: Multipart,
    desk: &Desk,
    folder: &Path,
) -> Result<Vec<Upload>, Problem> {
    let lang = desk.lang;
    // axum's own words are English: the status says which of ours to use.
    let bad = |e: axum::extract::multipart::MultipartError| match e.status() {
        StatusCode::PAYLOAD_TOO_LARGE => {
            let args: [(&str, &dyn std::fmt::Display); 1] = [("mb", &(MAX_REQUEST >> 20))];
            Problem(e.status(), say(lang, "scans-request-too-large", &args))
        }
        _ => Problem(StatusCode::BAD_REQUEST, say(lang, "scans-bad-request", &[])),
    };
    std::fs::create_dir_all(folder).map_err(|e| desk.not_kept(&e))?;
    let mut files = Vec::new();
    while let Some(mut field) = multipart.next_field().await.map_err(bad)? {
        if field.name() != Some("file") {
            continue;
        }
        if files.len() == MAX_FILES {
            let args: [(&str, &dyn std::fmt::Display); 1] = [("count", &MAX_FILES)];
            return Err(Problem(
                StatusCode::PAYLOAD_TOO_LARGE,
                say(lang, "scans-too-many", &args),
            ));
        }
        let name = field
            .file_name()
            .map_or_else(|| format!("foto-{}", files.len() + 1), plain_name);
        let mut tmp = aufsicht::night::files::temp_in(folder).map_err(|e| desk.not_kept(&e))?;
        let (mut size, mut head) = (0usize, Vec::new());
        let mut too_large = false;
        while let Some(chunk) = field.chunk().await.map_err(bad)? {
            size += chunk.len();
            too_large |= size > MAX_FILE;
            if too_large {
                continue;
            }
            if head.len() < 8 {
                head.extend(chunk.iter().take(8 - head.len()));
            }
            std::io::Write::write_all(&mut tmp, &chunk).map_err(|e| desk.not_kept(&e))?;
        }
        let file = match kind_of(&head) {
            _ if too_large => Err(say(lang, "scans-too-large", &[("mb", &(MAX_FILE >> 20))])),
            _ if size == 0 => Err(say(lang, "scans-empty", &[])),
            None => Err(say(lang, "scans-not-a-scan", &[])),
            Some(_) => Ok(tmp),
        };
        files.push(Upload { name, file });
    }
    Ok(files)
}

/// What a file is by its first bytes: an image `scan` reads, or a PDF.
fn kind_of(bytes: &[u8]) -> Option<&'static str> {
    const KINDS: [(&[u8], &str); 5] = [
        (b"\xFF\xD8\xFF", "jpg"),
        (b"\x89PNG\r\n\x1a\n", "png"),
        (b"II*\0", "tif"),
        (b"MM\0*", "tif"),
        (b"%PDF-", "pdf"),
    ];
    KINDS
        .iter()
        .find(|(magic, _)| bytes.starts_with(magic))
        .map(|(_, kind)| *kind)
}

/// A file name a phone sent, without any folder and with nothing a file
/// system would not take.
fn plain_name(sent: &str) -> String {
    let base = sent.rsplit(['/', '\\']).next().unwrap_or_default();
    let clean: String = base
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    match clean.trim_start_matches('.') {
        "" => "foto".to_string(),
        name => shortened(name, MAX_NAME),
    }
}

/// The longest name a sent file is kept under (bytes): with the hash in
/// front it stays well below every file system's 255.
const MAX_NAME: usize = 120;

/// `name` cut to at most `max` bytes on a character's border, its
/// extension (up to 10 bytes) kept.
fn shortened(name: &str, max: usize) -> String {
    if name.len() <= max {
        return name.to_string();
    }
    let ext = match name.rfind('.') {
        Some(i) if name.len() - i <= 10 => &name[i..],
        _ => "",
    };
    let mut end = max - ext.len();
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}{ext}", &name[..end])
}

fn refused(name: &str, why: String) -> Sent {
    Sent {
        file: name.to_string(),
        sheets: Vec::new(),
        status: "refused",
        message: why,
        receipt: None,
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TakeBackBody {
    sheets: Vec<i64>,
    receipt: String,
}

/// `POST /api/scans/take-back`: the phone takes back what it just sent
/// (a photo of something else, the same table twice), with the receipt
/// its answer carried: the sheets leave the night, kept, and the desk
/// can bring them back. A sheet a person has decided on stays.
pub async fn take_back(
    State(desk): State<Arc<Desk>>,
    Extension(access): Extension<Access>,
    body: axum::body::Bytes,
) -> Reply {
    blocking(move || {
        let body: TakeBackBody = super::api::body_of(&desk, &body)?;
        let night = desk.night_sent_to(access, None)?;
        let key = desk.door.token.as_str();
        if body.sheets.is_empty() || !receipt_holds(key, &body.receipt, &body.sheets, now()) {
            let said = say(desk.lang, "scans-no-receipt", &[]);
            return Err(Problem(StatusCode::FORBIDDEN, said));
        }
        let versions: Vec<i64> = (body.sheets.iter())
            .map(|&id| desk.may_take_back(night, id))
            .collect::<Result<_, _>>()?;
        let by = say(desk.lang, "scans-phone", &[]);
        let reason = say(desk.lang, "scans-taken-back", &[]);
        for (&id, version) in body.sheets.iter().zip(versions) {
            let discard = Decision::Discard {
                discard: true,
                reason: reason.clone(),
            };
            // The version checked: a person's decision in between stands.
            desk.decide(id, &by, &[discard], Some(version))?;
        }
        let said = say(
            desk.lang,
            "scans-taken-back-said",
            &[("count", &body.sheets.len())],
        );
        Ok(Json(serde_json::json!({ "message": said })).into_response())
    })
    .await
}

impl Desk {
    /// One file of a night: a `duplicate` where the night holds its
    /// content already, else kept and read.
    fn read_sent(
        &self,
        night: &super::api::NightOf,
        name: &str,
        file: tempfile::NamedTempFile,
        folder: &Path,
    ) -> Result<Sent, Problem> {
        let sha = sha256_file(file.path()).map_err(|e| self.not_kept(&e))?;
        let held = self.held(night.id, &sha)?;
        if !held.is_empty() {
            let again = say(self.lang, "sent-duplicate", &[]);
            let said: Vec<String> = (held.iter())
                .map(|s| format!("{}: {again}", at(self.lang, &s.result)))
                .collect();
            let message = said.join("; ");
            return Ok(Sent {
                file: name.to_string(),
                sheets: held.iter().map(|s| s.id).collect(),
                status: "duplicate",
                message,
                receipt: None,
            });
        }
        // Its content's hash first, so two phones' `IMG_0001.jpg` never meet.
        let kept = folder.join(format!("{}-{name}", &sha[..12]));
        aufsicht::night::files::persist_synced(file, &kept).map_err(|e| self.not_kept(&e))?;
        self.read_kept(night, &kept, folder, &self.forms, false)?;
        let held = self.held(night.id, &sha)?;
        let places = self.tables_of(night.id)?;
        let told: Vec<(SheetResult, Told)> = held
            .iter()
            .map(|s| (s.result.clone(), Told::of(&s.result, s.id, &places)))
            .collect();
        let status = match told.iter().map(|(_, t)| t.status()).collect::<Vec<_>>() {
            s if !s.is_empty() && s.iter().all(|s| *s == "ok") => "ok",
            s if s.iter().all(|s| *s == "unreadable") => "unreadable",
            _ => "flagged",
        };
        let message = match told.is_empty() {
            true => say(self.lang, "sent-unreadable", &[]),
            false => sentences(self.lang, &told),
        };
        let sheets: Vec<i64> = held.iter().map(|s| s.id).collect();
        Ok(Sent {
            file: name.to_string(),
            receipt: (!sheets.is_empty()).then(|| receipt(&self.door.token, &sheets, now())),
            sheets,
            status,
            message,
        })
    }

    /// Whether sheet `id` of night `night` may be taken back by the phone
    /// (the night's, and no person has decided on it yet): its version.
    fn may_take_back(&self, night: i64, id: i64) -> Result<i64, Problem> {
        let (of, stored) = self.stored_in(id)?;
        let archive = self.archive.lock().unwrap_or_else(|p| p.into_inner());
        let decided = archive.record(id).map_err(|e| self.problem(e))?.records;
        if of != night || !decided.is_empty() {
            let said = say(self.lang, "scans-decided", &[]);
            return Err(Problem(StatusCode::CONFLICT, said));
        }
        Ok(stored.version)
    }

    /// Round, table and id of every sheet of the night that holds its
    /// table: not a copy a person settled, not another game's.
    fn tables_of(&self, night: i64) -> Result<Vec<Place>, Problem> {
        let archive = self.archive.lock().unwrap_or_else(|p| p.into_inner());
        let all = archive.sheets(night).map_err(|e| self.problem(e))?;
        let counting = aufsicht::record::counts::night(all.iter().map(|s| &s.result));
        Ok(all
            .into_iter()
            .zip(counting)
            .filter(|(_, how)| how.holds_table())
            .map(|(s, _)| Place {
                round: s.result.round,
                table: s.result.table,
                sheet: s.id,
            })
            .collect())
    }

    /// The night a request sends scans to: a phone's token's own night
    /// (one naming another is refused), else the one it names.
    fn night_sent_to(&self, access: Access, wanted: Option<&str>) -> Result<i64, Problem> {
        let Access::Phone(night) = access else {
            return Ok(self.night(wanted)?.id);
        };
        // A phone learns nothing of other nights: not even which there are.
        if let Some(wanted) = wanted
            && self.night(Some(wanted)).map_or(true, |n| n.id != night)
        {
            let text = say(self.lang, "scans-other-night", &[("night", &wanted)]);
            return Err(Problem(StatusCode::FORBIDDEN, text));
        }
        Ok(night)
    }

    /// A sent file that could not be written: one line, the OS's words left out.
    fn not_kept(&self, _: &std::io::Error) -> Problem {
        let folder = self.archive_dir.display();
        let args: [(&str, &dyn std::fmt::Display); 1] = [("folder", &folder)];
        Problem(
            StatusCode::INTERNAL_SERVER_ERROR,
            say(self.lang, "scans-not-kept", &args),
        )
    }

    /// The night's sheets read from content `sha`.
    fn held(&self, night: i64, sha: &str) -> Result<Vec<StoredSheet>, Problem> {
        let archive = self.archive.lock().unwrap_or_else(|p| p.into_inner());
        archive
            .sheets_of_scan(night, sha)
            .map_err(|e| self.problem(e))
    }

    /// Reads the kept file as `scan` does, into the archive: each page's status.
    /// Where the archive holds a file already, `reread` reads it again
    /// ([`Archive::reread`]).
    fn read_kept(
        &self,
        night: &super::api::NightOf,
        file: &Path,
        folder: &Path,
        forms: &[aufsicht::page::form::FormTemplate],
        reread: bool,
    ) -> Result<Vec<Status>, Problem> {
        let internal = |text: String| Problem(StatusCode::INTERNAL_SERVER_ERROR, text);
        let archive = Archive::open(&self.archive_file).map_err(|e| internal(e.tell(self.lang)))?;
        let batch = Batch {
            forms,
            rules: &night.rules,
            reader: ReaderKind::Cnn,
            lang: self.lang,
            out: folder,
            archive: Some((Mutex::new(archive), night.id)),
            participants: night.participants,
            reread,
        };
        let jobs = name_beside(&[file.to_path_buf()], folder);
        let done = batch
            .run(&jobs, &|_| {})
            .map_err(|e| internal(e.tell(self.lang)))?;
        let mut statuses = Vec::new();
        for file in done {
            let file = file.map_err(|e| match e {
                aufsicht::night::batch::BatchError::Archive(e) => self.problem(e),
                e => internal(e.tell(self.lang)),
            })?;
            statuses.extend(file.sheets.iter().map(|s| s.status));
        }
        Ok(statuses)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RereadBody {
    by: String,
    /// The form to read it on (an id the desk knows); none: recognised.
    #[serde(default)]
    form: Option<String>,
    /// The version the person saw; a newer one is refused.
    #[serde(default)]
    version: Option<i64>,
}

/// `POST /api/sheets/{id}/reread`: the sheet's scan, as the archive keeps
/// it, read again (on `form`): a new reading of its pages, every decision
/// standing, what the reader changed in the trail as the program's; a
/// form that cannot read the page changes nothing (409). Answers the
/// sheet as it now stands.
pub async fn reread(
    State(desk): State<Arc<Desk>>,
    axum::extract::Path(id): axum::extract::Path<i64>,
    body: axum::body::Bytes,
) -> Reply {
    blocking(move || {
        let body: RereadBody = super::api::body_of(&desk, &body)?;
        let by = body.by.trim();
        if by.is_empty() {
            let said = say(desk.lang, "desk-name-first", &[]);
            return Err(Problem(StatusCode::BAD_REQUEST, said));
        }
        let forms = desk.forms_to_reread(body.form.as_deref())?;
        let (night, stored) = desk.stored_in(id)?;
        if let Some(yours) = body.version.filter(|&v| v != stored.version) {
            let stale = aufsicht::ArchiveError::Stale {
                id,
                now: stored.version,
                yours,
            };
            return Err(desk.problem(stale));
        }
        let night = desk.night_by_id(night)?;
        let folder = desk.archive_dir.join(format!("fotos-{}", night.id));
        let file = desk.scan_again(&stored, &folder)?;
        desk.read_kept(&night, file.path(), &folder, &forms, true)?;
        let now = desk.stored(id)?;
        Ok(super::api::with_version(&now.result, now.version))
    })
    .await
}

impl Desk {
    /// The forms a sheet is read again on: the one named (among the
    /// desk's and the archive's kept ones), else all the desk knows.
    fn forms_to_reread(
        &self,
        named: Option<&str>,
    ) -> Result<Vec<aufsicht::page::form::FormTemplate>, Problem> {
        let kept = {
            let archive = self.archive.lock().unwrap_or_else(|p| p.into_inner());
            archive.forms().map_err(|e| self.problem(e))?
        };
        let all = aufsicht::night::club::archive::with_kept(&self.forms, kept);
        let Some(named) = named else {
            return Ok(all);
        };
        match all.into_iter().find(|f| f.id == named) {
            Some(form) => Ok(vec![form]),
            None => {
                let said = say(self.lang, "desk-no-such-form", &[("form", &named)]);
                Err(Problem(StatusCode::NOT_FOUND, said))
            }
        }
    }

    /// The sheet's scan as the archive keeps it, in a temporary file of
    /// its own name in `folder` (gone once read).
    fn scan_again(
        &self,
        stored: &StoredSheet,
        folder: &Path,
    ) -> Result<tempfile::NamedTempFile, Problem> {
        let bytes = {
            let archive = self.archive.lock().unwrap_or_else(|p| p.into_inner());
            archive
                .scan_bytes(&stored.sha256)
                .map_err(|e| self.problem(e))?
        };
        let Some(bytes) = bytes else {
            let said = say(self.lang, "desk-scan-not-kept", &[]);
            return Err(Problem(StatusCode::CONFLICT, said));
        };
        let source = stored.result.source.as_deref().unwrap_or("scan");
        let name = plain_name(source);
        std::fs::create_dir_all(folder).map_err(|e| self.not_kept(&e))?;
        let mut file = tempfile::Builder::new()
            .prefix(".reread-")
            .suffix(&format!("-{name}"))
            .tempfile_in(folder)
            .map_err(|e| self.not_kept(&e))?;
        std::io::Write::write_all(&mut file, &bytes).map_err(|e| self.not_kept(&e))?;
        Ok(file)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_receipt_should_take_back_its_own_sheets_for_half_an_hour_only() {
        let given = receipt("k3y", &[4, 5], 1_000);
        assert!(receipt_holds("k3y", &given, &[4, 5], 1_000 + 29 * 60));
        assert!(
            !receipt_holds("k3y", &given, &[4, 5], 1_000 + 31 * 60),
            "too late"
        );
        assert!(!receipt_holds("k3y", &given, &[4], 1_100), "other sheets");
        assert!(
            !receipt_holds("other", &given, &[4, 5], 1_100),
            "another desk"
        );
        let later = given.replacen("1000.", "1900.", 1);
        assert!(
            !receipt_holds("k3y", &later, &[4, 5], 2_000),
            "its time changed"
        );
    }

    #[test]
    fn a_file_should_be_known_by_its_first_bytes() {
        assert_eq!(kind_of(b"\xFF\xD8\xFF\xE0rest"), Some("jpg"));
        assert_eq!(kind_of(b"%PDF-1.7"), Some("pdf"));
        assert_eq!(kind_of(b"<html>"), None);
        assert_eq!(kind_of(b""), None);
    }

    #[test]
    fn a_sent_name_should_lose_its_folders_and_odd_characters() {
        assert_eq!(plain_name("../../etc/passwd"), "passwd");
        assert_eq!(plain_name("C:\\Fotos\\IMG 0001.JPG"), "IMG_0001.JPG");
        assert_eq!(plain_name("..."), "foto");
        assert_eq!(plain_name("Tisch 7 Rückrunde.jpg"), "Tisch_7_Rückrunde.jpg");
        let long = format!("{}.jpeg", "ä".repeat(300));
        let short = plain_name(&long);
        assert!(
            short.len() <= MAX_NAME && short.ends_with("ää.jpeg"),
            "{short}"
        );
    }
}
