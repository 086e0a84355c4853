//! The phone as the scanner: `GET /capture`, the page a phone opens (it
//! takes photos with the camera and sends them to `POST /api/scans`), and
//! `GET /api/capture`, its address with the token as a QR code for the
//! desk to show. The page holds no data and no token; the code does, so
//! it stays behind the token like every other `/api/` path.

use std::sync::Arc;

use axum::Json;
use axum::extract::State;
use axum::response::Html;
use serde_json::{Value, json};

use aufsicht::Lang;
use aufsicht::catalogue::say;
use aufsicht::html::html;

use super::Desk;
use super::pages::{shell, words};

/// The capture page's words, by the key its script asks for.
const CAPTURE_WORDS: [(&str, &str); 8] = [
    ("sending", "capture-sending"),
    ("dark", "capture-dark"),
    ("blurred", "capture-blurred"),
    ("failed", "capture-failed"),
    ("ok", "capture-ok"),
    ("flagged", "capture-flagged"),
    ("unreadable", "capture-unreadable"),
    ("duplicate", "capture-duplicate"),
];

pub fn capture_page(lang: Lang, night: &str) -> String {
    let t = |id: &str| say(lang, id, &[]);
    let title = format!("{}: {night}", t("capture-title"));
    let body = html! {
        h1 { (title) }
        p { (t("capture-help")) }
        label class="take" {
            (t("capture-take"))
            input id="photos" type="file" accept="image/*" capture="environment" multiple;
        }
        ol id="sent" {}
        script src="/assets/capture.js" {}
    };
    let head = html! { meta name="viewport" content="width=device-width, initial-scale=1"; };
    shell(
        &title,
        Some("capture"),
        html! { (head) (words(lang, &CAPTURE_WORDS)) },
        body,
    )
    .into_string()
}

pub async fn page(State(desk): State<Arc<Desk>>) -> Html<String> {
    Html(capture_page(desk.lang, &desk.title))
}

/// `GET /api/capture`: the address a phone opens, with the token, and
/// its QR code (SVG); `reachable` is false while the desk listens on
/// loopback only, where no phone reaches it.
pub async fn code(State(desk): State<Arc<Desk>>) -> Json<Value> {
    let at = desk.reached.get().copied();
    let reachable = at.is_some_and(|a| !a.ip().is_loopback());
    let url = at.map(|a| format!("http://{a}/capture?token={}", desk.door.token));
    let svg = url.as_deref().and_then(qr_svg);
    Json(json!({"url": url, "svg": svg, "reachable": reachable}))
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
        let page = capture_page(Lang::De, "Herbst");
        for part in [
            r#"accept="image/*""#,
            r#"capture="environment""#,
            "multiple",
            r#"name="viewport""#,
            "Fotos",
        ] {
            assert!(page.contains(part), "{part} in {page}");
        }
        assert!(!page.contains("capture-"), "every message id known: {page}");
    }
}
