//! The phone as the scanner: `GET /capture`, the page a phone opens (it
//! takes photos with the camera and sends them to `POST /api/scans`), and
//! `GET /api/capture`, its address as a QR code for the desk to show. The
//! address carries the night's own capture token, never the desk's: it
//! opens the page and sends scans to that night, nothing else, and the
//! desk can renew it (`POST /api/capture`), which ends the old one.

use std::sync::Arc;

use axum::extract::{Query, State};
use axum::response::{Html, IntoResponse};
use axum::{Extension, Json};
use serde::Deserialize;
use serde_json::json;

use aufsicht::Lang;
use aufsicht::catalogue::say;
use aufsicht::html::html;

use super::Desk;
use super::api::{Problem, Reply, blocking};
use super::guard::Access;
use super::pages::{shell, words};

/// The capture page's words, by the key its script asks for.
const CAPTURE_WORDS: [(&str, &str); 10] = [
    ("sending", "capture-sending"),
    ("dark", "capture-dark"),
    ("blurred", "capture-blurred"),
    ("failed", "capture-failed"),
    ("ok", "capture-ok"),
    ("flagged", "capture-flagged"),
    ("unreadable", "capture-unreadable"),
    ("duplicate", "capture-duplicate"),
    ("refused", "capture-refused"),
    ("takeback", "capture-take-back"),
];

/// The phone's page for `night`; `dead` where the key it came with opens
/// nothing any more (the desk renewed it): then it says so, and takes
/// no photo.
pub fn capture_page(lang: Lang, night: &str, dead: bool) -> String {
    let t = |id: &str| say(lang, id, &[]);
    let title = format!("{}: {night}", t("capture-title"));
    let body = html! {
        h1 { (title) }
        @if dead {
            p class="dead" { (t("capture-dead-link")) }
        } @else {
            (take(lang))
        }
    };
    let head = html! { meta name="viewport" content="width=device-width, initial-scale=1"; };
    shell(
        lang,
        &title,
        Some("capture"),
        html! { (head) (words(lang, &CAPTURE_WORDS)) },
        body,
    )
    .into_string()
}

/// The page's camera: help, the button, the answers.
fn take(lang: Lang) -> aufsicht::html::Markup {
    let t = |id: &str| say(lang, id, &[]);
    html! {
        p { (t("capture-help")) }
        // The page's own button in German: the browser's file button speaks
        // the browser's language. No `capture`: a photo already taken is
        // chosen from the gallery as well.
        label class="take" {
            (t("capture-take"))
            input id="photos" class="hidden-input" type="file" accept="image/*,application/pdf" multiple;
        }
        // The newest on top, numbered as sent.
        ol id="sent" reversed {}
        script src="/assets/capture.js" {}
    }
}

#[derive(Deserialize)]
pub struct CaptureQuery {
    #[serde(default)]
    tournament: Option<String>,
    /// A phone's key in the address (the page reads it; the door too).
    #[serde(default)]
    token: Option<String>,
}

/// `GET /capture`: the page, named by the night its token belongs to (or,
/// for the desk, the night asked for); anyone else sees the desk's title.
pub async fn page(
    State(desk): State<Arc<Desk>>,
    Extension(access): Extension<Access>,
    Query(q): Query<CaptureQuery>,
) -> Reply {
    blocking(move || {
        let night = match access {
            Access::Phone(night) => Some(night),
            Access::Desk => Some(desk.night(q.tournament.as_deref())?.id),
            Access::Anyone => None,
        };
        let title = match night {
            Some(night) => desk.night_label(night)?,
            None => desk.title.clone(),
        };
        // A key that opens nothing: the link of a renewed code.
        let dead = night.is_none() && q.token.is_some();
        Ok(Html(capture_page(desk.lang, &title, dead)).into_response())
    })
    .await
}

/// `GET /api/capture?tournament=`: the address a phone opens, with the
/// night's capture token and its name, and its QR code (SVG);
/// `reachable` is false while the desk listens on loopback only, where no
/// phone reaches it.
pub async fn code(State(desk): State<Arc<Desk>>, Query(q): Query<CaptureQuery>) -> Reply {
    blocking(move || {
        let night = desk.night(q.tournament.as_deref())?.id;
        let token = desk.phone_token(night, false)?;
        desk.capture_code(night, &token)
    })
    .await
}

/// `POST /api/capture?tournament=`: a new capture token for the night;
/// the old one opens nothing more. Answers as `GET`.
pub async fn renew(State(desk): State<Arc<Desk>>, Query(q): Query<CaptureQuery>) -> Reply {
    blocking(move || {
        let night = desk.night(q.tournament.as_deref())?.id;
        let token = desk.phone_token(night, true)?;
        desk.capture_code(night, &token)
    })
    .await
}

impl Desk {
    /// Night `night`'s capture token, a new one where it has none or
    /// `renew` asks: kept in the archive first, so a phone's link outlives
    /// a restart, and the old one opens nothing more.
    fn phone_token(&self, night: i64, renew: bool) -> Result<String, Problem> {
        // Under the archive's lock: two desks' pages asking at once get one key.
        let mut archive = self.archive.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(token) = self.door.phone_token(night).filter(|_| !renew) {
            return Ok(token);
        }
        let token = super::guard::new_token();
        archive
            .keep_capture_key(night, &token)
            .map_err(|e| self.problem(e))?;
        self.door.set_phone_token(night, &token);
        Ok(token)
    }

    fn capture_code(&self, night: i64, token: &str) -> Reply {
        let (name, date) = self.night_name(night)?;
        let at = self.reached.get().copied();
        let reachable = at.is_some_and(|a| !a.ip().is_loopback());
        let query = serde_urlencoded::to_string([("token", token), ("tournament", &name)])
            .unwrap_or_default();
        let url = at.map(|a| format!("http://{a}/capture?{query}"));
        let svg = url.as_deref().and_then(qr_svg);
        let date = date.map(|d| d.to_string());
        let body = json!({"url": url, "svg": svg, "reachable": reachable,
                          "night": name, "date": date});
        Ok(Json(body).into_response())
    }

    /// Night `id`'s name and date.
    fn night_name(&self, id: i64) -> Result<(String, Option<chrono::NaiveDate>), Problem> {
        let archive = self.archive.lock().unwrap_or_else(|p| p.into_inner());
        let nights = archive.nights().map_err(|e| self.problem(e))?;
        nights
            .into_iter()
            .find(|n| n.id == id)
            .map(|n| (n.name, n.date))
            .ok_or_else(|| {
                let text = say(self.lang, "serve-no-night", &[("id", &id)]);
                Problem(axum::http::StatusCode::NOT_FOUND, text)
            })
    }

    /// How the phone's page names night `id`: its name and date, the
    /// language's way.
    pub(super) fn night_label(&self, id: i64) -> Result<String, Problem> {
        let (name, date) = self.night_name(id)?;
        Ok(match date {
            Some(d) => format!("{name}, {}", aufsicht::catalogue::date(self.lang, d)),
            None => name,
        })
    }
}

/// `text` as QR modules: the side, and each module dark or not, by row.
fn qr_modules(text: &str) -> Option<(usize, Vec<bool>)> {
    let code = qrcode::QrCode::with_error_correction_level(text, qrcode::EcLevel::M).ok()?;
    let colors = code.to_colors();
    let dark = colors.iter().map(|c| *c == qrcode::Color::Dark).collect();
    Some((code.width(), dark))
}

/// `text` as a QR code drawn in SVG, a module a unit, with its quiet zone.
fn qr_svg(text: &str) -> Option<String> {
    let (width, dark) = qr_modules(text)?;
    let mut path = String::new();
    for (i, _) in dark.iter().enumerate().filter(|(_, d)| **d) {
        let (x, y) = (i % width + 4, i / width + 4);
        path.push_str(&format!("M{x},{y}h1v1h-1z"));
    }
    let side = width + 8;
    Some(format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {side} {side}" shape-rendering="crispEdges"><rect width="{side}" height="{side}" fill="#fff"/><path d="{path}" fill="#000"/></svg>"##
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_code_should_read_back_as_the_address() {
        let url = "http://192.168.1.5:8377/capture?token=0123456789abcdef";
        let (width, dark) = qr_modules(url).expect("a code");
        // Drawn 4 pixels a module with its quiet zone, then read by rqrr.
        let side = (width + 8) * 4;
        let pixel = |x: usize, y: usize| {
            let (mx, my) = ((x / 4).wrapping_sub(4), (y / 4).wrapping_sub(4));
            let on = mx < width && my < width && dark[my * width + mx];
            if on { 0 } else { 255 }
        };
        let mut image = rqrr::PreparedImage::prepare_from_greyscale(side, side, pixel);
        let read = image.detect_grids().iter().find_map(|g| g.decode().ok());
        assert_eq!(read.map(|(_, text)| text).as_deref(), Some(url));
        let svg = qr_svg(url).expect("a code");
        assert!(
            svg.starts_with("<svg") && svg.contains("M4,4h1v1h-1z"),
            "{svg}"
        );
    }

    #[test]
    fn the_page_should_take_photos_in_german_on_a_phone() {
        let page = capture_page(Lang::De, "Herbst", false);
        for part in [
            r#"accept="image/*"#,
            "multiple",
            r#"name="viewport""#,
            "Fotos",
            r#"<ol id="sent" reversed"#,
        ] {
            assert!(page.contains(part), "{part} in {page}");
        }
        // The gallery too: `capture` would offer the camera alone.
        assert!(!page.contains("capture=\""), "{page}");
        assert!(!page.contains("capture-"), "every message id known: {page}");
        let dead = capture_page(Lang::De, "Herbst", true);
        assert!(
            dead.contains("neu scannen") && !dead.contains(r#"id="photos""#),
            "{dead}"
        );
    }
}
