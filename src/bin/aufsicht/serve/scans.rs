//! `POST /api/scans`: scans sent to the desk (a phone's photos), each
//! kept in the night's photo folder beside the archive and in the archive
//! by its content, and read at once as `scan` reads it, with the night's
//! rule set and list.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use axum::Json;
use axum::extract::{Multipart, Query, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use serde::{Deserialize, Serialize};

use aufsicht::catalogue::{Tell, say};
use aufsicht::check::flags::Code;
use aufsicht::night::batch::result_names::name_beside;
use aufsicht::night::batch::{Batch, ReaderKind};
use aufsicht::night::club::archive::StoredSheet;
use aufsicht::night::club::archive::{Archive, hex_sha256};
use aufsicht::sheet::Status;

use super::Desk;
use super::api::{Problem, Reply, blocking};

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
}

/// One file of the request: its name and bytes, or why it is refused.
struct Upload {
    name: String,
    bytes: Result<Vec<u8>, String>,
}

pub async fn upload(
    State(desk): State<Arc<Desk>>,
    Query(q): Query<ScansQuery>,
    multipart: Multipart,
) -> Reply {
    let files = collect(multipart, &desk).await?;
    blocking(move || {
        let night = desk.night(q.tournament.as_deref())?;
        let sent: Vec<Sent> = files
            .into_iter()
            .map(|f| match f.bytes {
                Ok(bytes) => desk.read_sent(&night, &f.name, &bytes),
                Err(why) => Ok(refused(&f.name, why)),
            })
            .collect::<Result<_, Problem>>()?;
        Ok(Json(sent).into_response())
    })
    .await
}

/// The request's `file` fields, each within the limits or refused.
async fn collect(mut multipart: Multipart, desk: &Desk) -> Result<Vec<Upload>, Problem> {
    let lang = desk.lang;
    let bad = |e: axum::extract::multipart::MultipartError| {
        Problem(
            StatusCode::BAD_REQUEST,
            say(lang, "scans-bad-request", &[("problem", &e.body_text())]),
        )
    };
    let mut files = Vec::new();
    while let Some(field) = multipart.next_field().await.map_err(bad)? {
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
        let bytes = field.bytes().await.map_err(bad)?;
        let bytes = match kind_of(&bytes) {
            _ if bytes.len() > MAX_FILE => {
                Err(say(lang, "scans-too-large", &[("mb", &(MAX_FILE >> 20))]))
            }
            None => Err(say(lang, "scans-not-a-scan", &[])),
            Some(_) => Ok(bytes.to_vec()),
        };
        files.push(Upload { name, bytes });
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
        name => name.to_string(),
    }
}

fn refused(name: &str, why: String) -> Sent {
    Sent {
        file: name.to_string(),
        sheets: Vec::new(),
        status: "refused",
        message: why,
    }
}

impl Desk {
    /// One file of a night: a `duplicate` where the night holds its
    /// content already, else kept and read.
    fn read_sent(
        &self,
        night: &super::api::NightOf,
        name: &str,
        bytes: &[u8],
    ) -> Result<Sent, Problem> {
        let sha = hex_sha256(bytes);
        let held = self.held(night.id, &sha)?;
        if !held.is_empty() {
            let message = say(self.lang, "scans-duplicate", &[("count", &held.len())]);
            return Ok(Sent {
                file: name.to_string(),
                sheets: held.iter().map(|s| s.id).collect(),
                status: "duplicate",
                message,
            });
        }
        let folder = self.archive_dir.join(format!("fotos-{}", night.id));
        let kept = keep(&folder, name, &sha, bytes)
            .map_err(|e| Problem(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
        let statuses = self.read_kept(night, &kept, &folder)?;
        let held = self.held(night.id, &sha)?;
        let status = match statuses.as_slice() {
            s if s.iter().all(|s| *s == Status::Ok) && !s.is_empty() => "ok",
            s if s.iter().all(|s| *s == Status::Unreadable) => "unreadable",
            _ => "flagged",
        };
        let args: [(&str, &dyn std::fmt::Display); 1] = [("count", &held.len())];
        let mut message = say(self.lang, &format!("scans-{status}"), &args);
        // Why a photo cannot be read: what to do better on the next one.
        let mut flags = held.iter().flat_map(|s| &s.result.flags);
        if let Some(f) = flags.find(|f| f.code == Code::SheetUnreadable) {
            message = format!("{message} ({})", f.message);
        }
        Ok(Sent {
            file: name.to_string(),
            sheets: held.iter().map(|s| s.id).collect(),
            status,
            message,
        })
    }

    /// The night's sheets read from content `sha`.
    fn held(&self, night: i64, sha: &str) -> Result<Vec<StoredSheet>, Problem> {
        let archive = self.archive.lock().unwrap_or_else(|p| p.into_inner());
        archive
            .sheets_of_scan(night, sha)
            .map_err(|e| self.problem(e))
    }

    /// Reads the kept file as `scan` does, into the archive: each page's status.
    fn read_kept(
        &self,
        night: &super::api::NightOf,
        file: &Path,
        folder: &Path,
    ) -> Result<Vec<Status>, Problem> {
        let internal = |text: String| Problem(StatusCode::INTERNAL_SERVER_ERROR, text);
        let archive = Archive::open(&self.archive_file).map_err(|e| internal(e.tell(self.lang)))?;
        let batch = Batch {
            forms: &self.forms,
            rules: &night.rules,
            reader: ReaderKind::Cnn,
            lang: self.lang,
            out: folder,
            archive: Some((Mutex::new(archive), night.id)),
            participants: night.participants,
        };
        let jobs = name_beside(&[file.to_path_buf()], folder);
        let done = batch
            .run(&jobs, &|_| {})
            .map_err(|e| internal(e.tell(self.lang)))?;
        let mut statuses = Vec::new();
        for file in done {
            let file = file.map_err(|e| internal(e.tell(self.lang)))?;
            statuses.extend(file.sheets.iter().map(|s| s.status));
        }
        Ok(statuses)
    }
}

/// Writes the file into the night's photo folder under a name of its own
/// (its content's hash first, so two phones' `IMG_0001.jpg` never meet).
fn keep(folder: &Path, name: &str, sha: &str, bytes: &[u8]) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(folder)?;
    let path = folder.join(format!("{}-{name}", &sha[..12]));
    aufsicht::night::files::write_whole(&path, bytes)?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

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
    }
}
