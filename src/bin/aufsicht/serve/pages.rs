//! The desk's pages, compiled in: every text on them from the catalogue.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};

use aufsicht::Lang;
use aufsicht::catalogue::say;

use super::Desk;

const DESK: &str = include_str!("assets/desk.html");
const STANDINGS: &str = include_str!("assets/standings.html");
const RANKING: &str = include_str!("assets/ranking.html");

/// The script and styles, by the name the pages ask for.
const ASSETS: [(&str, &str, &str); 3] = [
    (
        "desk.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/desk.js"),
    ),
    (
        "board.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/board.js"),
    ),
    (
        "desk.css",
        "text/css; charset=utf-8",
        include_str!("assets/desk.css"),
    ),
];

/// `template` with every `{{message-id}}` replaced by its text, and
/// `{{title}}` by the night's title; the texts HTML-escaped.
pub fn fill(template: &str, lang: Lang, title: &str) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let Some(len) = rest[start..].find("}}") else {
            break;
        };
        let key = &rest[start + 2..start + len];
        let text = if key == "title" {
            title.to_string()
        } else {
            say(lang, key, &[])
        };
        out.push_str(&escape(&text));
        rest = &rest[start + len + 2..];
    }
    out.push_str(rest);
    out
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

pub async fn desk(State(desk): State<Arc<Desk>>) -> Html<String> {
    Html(fill(DESK, desk.lang, &desk.title))
}

pub async fn standings(State(desk): State<Arc<Desk>>) -> Html<String> {
    Html(fill(STANDINGS, desk.lang, &desk.title))
}

pub async fn ranking(State(desk): State<Arc<Desk>>) -> Html<String> {
    Html(fill(RANKING, desk.lang, &desk.title))
}

pub async fn asset(Path(name): Path<String>) -> Response {
    match ASSETS.iter().find(|(n, _, _)| *n == name) {
        Some((_, mime, body)) => ([(header::CONTENT_TYPE, *mime)], *body).into_response(),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

/// `/audit?player=NUMBER` or `?sheet=ID`: the audit as its self-contained
/// page, crops embedded (to print or to mail).
pub async fn audit(
    State(desk): State<Arc<Desk>>,
    axum::extract::Query(q): axum::extract::Query<super::api::AuditQuery>,
) -> Result<Response, super::api::Problem> {
    use aufsicht::night::audit_page::{Scans, page};
    let work = move || {
        let found = super::api::audit_of(&desk, &q)?;
        let kept = |sha: &str| desk.kept_scan(sha);
        let evidence = aufsicht::night::evidence::of_audit(&found, &kept, &desk.archive_dir)
            .map_err(|e| desk.problem(e))?;
        let scans = Scans {
            forms: &desk.forms,
            evidence: &evidence,
        };
        Ok(Html(page(&found, &scans, desk.lang)).into_response())
    };
    tokio::task::spawn_blocking(work)
        .await
        .expect("a desk task panicked")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_should_get_its_texts_from_the_catalogue_escaped() {
        let filled = fill("<h1>{{desk-queue}}</h1><p>{{title}}</p>", Lang::En, "A & B");
        assert_eq!(filled, "<h1>Sheets to review</h1><p>A &amp; B</p>");
        for page in [DESK, STANDINGS, RANKING] {
            let filled = fill(page, Lang::De, "x");
            assert!(!filled.contains("{{"), "every placeholder filled");
            assert!(
                !filled.contains("desk-"),
                "every message id known: {filled}"
            );
        }
    }
}
