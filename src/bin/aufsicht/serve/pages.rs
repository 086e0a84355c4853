//! The desk's pages, compiled in: every text on them from the catalogue.

use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};

use aufsicht::Lang;
use aufsicht::catalogue::say;
use aufsicht::html::{DOCTYPE, Markup, html};

use super::Desk;
use super::guard::Access;
use axum::Extension;

/// The script and styles, by the name the pages ask for.
const ASSETS: [(&str, &str, &str); 5] = [
    (
        "desk.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/desk.js"),
    ),
    (
        "questions.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/questions.js"),
    ),
    (
        "board.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/board.js"),
    ),
    (
        "capture.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/capture.js"),
    ),
    (
        "desk.css",
        "text/css; charset=utf-8",
        include_str!("assets/desk.css"),
    ),
];

/// A page of the desk: its head, and `body` under its heading.
pub(super) fn shell(
    lang: Lang,
    title: &str,
    body_class: Option<&str>,
    data: Markup,
    body: Markup,
) -> Markup {
    html! {
        (DOCTYPE)
        html lang=(lang.code()) {
            head {
                meta charset="utf-8";
                title { (title) }
                link rel="stylesheet" href="/assets/desk.css";
            }
            body class=[body_class] { (data) (body) }
        }
    }
}

/// The words the desk's script shows, by the key it asks for.
const DESK_WORDS: [(&str, &str); 51] = [
    ("players", "desk-players"),
    ("reading", "desk-reading"),
    ("suggestion", "desk-suggestion"),
    ("alternatives", "desk-alternatives"),
    ("saved", "desk-saved"),
    ("kept", "desk-kept"),
    ("noflags", "desk-no-flags"),
    ("alldone", "desk-all-done"),
    ("namefirst", "desk-name-first"),
    ("flags", "desk-flags"),
    ("initial", "desk-initial"),
    ("initialled", "desk-initialled"),
    ("takeback", "desk-take-back"),
    ("void", "desk-void"),
    ("voidreason", "desk-void-reason"),
    ("voided", "desk-voided"),
    ("unvoid", "desk-unvoid"),
    ("scanchanged", "scan-changed"),
    ("capture", "desk-capture"),
    ("captureloopback", "desk-capture-loopback"),
    ("discard", "desk-discard"),
    ("discarded", "desk-discarded"),
    ("undiscard", "desk-undiscard"),
    ("undone", "desk-undone"),
    ("nothingtoundo", "desk-nothing-to-undo"),
    ("historyheads", "desk-history-heads"),
    ("kinds", "desk-history-kinds"),
    ("blank", "desk-blank"),
    ("copyof", "desk-copy-of"),
    ("uncopy", "desk-uncopy"),
    ("reread", "desk-reread"),
    ("form", "desk-form"),
    ("headeroff", "desk-header-off"),
    ("ourgame", "desk-our-game"),
    ("gameconfirmed", "desk-game-confirmed"),
    ("notourgame", "desk-not-our-game"),
    ("askpaper", "desk-ask-paper"),
    ("sums", "desk-question-sums"),
    ("discardask", "desk-discard-ask"),
    ("sending", "desk-question-sending"),
    ("askcounts", "desk-ask-counts"),
    ("countsreason", "desk-counts-reason"),
    ("countsset", "desk-counts-set"),
    ("counted", "desk-counted"),
    ("settled", "desk-settled"),
    ("noquestions", "desk-no-questions"),
    ("read", "desk-question-read"),
    ("answered", "desk-question-answered"),
    ("cells", "desk-question-cells"),
    ("cell", "desk-question-cell"),
    ("questionof", "desk-question-of"),
];

/// The board's words (standings and ranking).
const BOARD_WORDS: [(&str, &str); 7] = [
    ("rank", "desk-rank"),
    ("player", "desk-player"),
    ("name", "column-name"),
    ("total", "desk-total"),
    ("provisional", "desk-provisional"),
    ("checks", "desk-checks"),
    ("round", "desk-round-column"),
];

/// The words a page's script shows, as a JSON object in the page
/// (`#words`), in the page's language.
pub(super) fn words(lang: Lang, words: &[(&str, &str)]) -> Markup {
    words_and(lang, words, Vec::new())
}

/// [`words`] and `more`, words made with arguments.
fn words_and(lang: Lang, words: &[(&str, &str)], more: Vec<(&str, String)>) -> Markup {
    let mut map: serde_json::Map<String, serde_json::Value> = words
        .iter()
        .map(|(key, id)| (key.to_string(), say(lang, id, &[]).into()))
        .collect();
    map.extend(more.into_iter().map(|(k, v)| (k.to_string(), v.into())));
    aufsicht::html::json_script("words", &serde_json::Value::Object(map).to_string())
}

pub fn desk_page(lang: Lang, night: &str) -> String {
    let t = |id: &str| say(lang, id, &[]);
    let title = format!("{}: {night}", t("desk-title"));
    let body = html! {
        header {
            h1 { (title) }
            label { (t("desk-reviewer")) " " input id="by" autocomplete="name" size="12"; }
            label hidden { (t("desk-night")) " " select id="night" {} }
            nav {
                a id="to-standings" href="/standings" target="_blank" { (t("desk-standings")) }
                " "
                a id="to-ranking" href="/ranking" target="_blank" { (t("desk-ranking")) }
                " "
                a id="to-writers" href="/writers" target="_blank" { (t("desk-writers")) }
            }
            p class="help" { (t("desk-help")) }
            div id="capture" hidden {}
        }
        // Folded to one line with its count: the queue stays in sight.
        details id="checks" hidden { summary { (t("desk-checks")) " (" span id="checks-count" { "0" } ")" } ul {} }
        section id="questions" {
            h2 { (t("desk-questions")) " (" span id="questions-count" { "0" } ")" }
            p class="help" { (t("desk-question-help")) }
            div id="question" {}
            p id="question-status" role="status" {}
        }
        div id="desk" {
            aside { h2 { (t("desk-queue")) } ol id="queue" {} }
            main {
                p id="status" role="status" {}
                div id="powers" {}
                div id="flags" {}
                div id="whole" { img id="page" alt=""; }
                details id="history" { summary { (t("desk-history")) } table {} }
            }
        }
        script src="/assets/desk.js" {}
        script src="/assets/questions.js" {}
    };
    shell(lang, &title, None, words(lang, &DESK_WORDS), body).into_string()
}

/// The standings on the projector (`refresh` every 2 s) or the ranking to
/// print (`refresh` 0), named by the night and its date. While checks
/// are open one line says how many; their details are for the screen.
fn board_page(lang: Lang, night: &str, heading: &str, class: &str, refresh: u32) -> String {
    let t = |id: &str| say(lang, id, &[]);
    let title = format!("{}: {night}", t(heading));
    let print = refresh == 0;
    // While anything is open the heading says so (the script knows).
    let provisional = format!("{} {}: {night}", t(heading), t("desk-provisional"));
    let body = html! {
        h1 data-provisional=(provisional) { (provisional) }
        p id="provisional" {}
        @if print {
            p class="noprint" {
                a id="csv" href="/api/standings?download=1" { (t("desk-export-csv")) }
                " "
                a id="csv-de" href="/api/standings?download=1&format=csv-de" { (t("desk-export-csv-de")) }
                " "
                button onclick="window.print()" { (t("desk-print")) }
            }
        }
        section id="checks" class="noprint" hidden { h2 { (t("desk-checks")) } ul {} }
        table id="board" {}
        script src="/assets/board.js" {}
        script { "board(" (refresh) ");" }
    };
    // The open checks' line, one and many (`#` the count the script puts in).
    let open = |count: &dyn std::fmt::Display| say(lang, "desk-checks-open", &[("count", count)]);
    let more = vec![
        ("open_one", open(&1)),
        ("open_many", open(&"#")),
        ("final_title", title.clone()),
        ("in_doubt", t("desk-in-doubt")),
    ];
    let data = words_and(lang, &BOARD_WORDS, more);
    shell(lang, &provisional, Some(class), data, body).into_string()
}

pub async fn desk(State(desk): State<Arc<Desk>>) -> Html<String> {
    Html(desk_page(desk.lang, &desk.title))
}

pub async fn standings(
    State(desk): State<Arc<Desk>>,
    Extension(access): Extension<Access>,
    Query(q): Query<super::api::NightQuery>,
) -> Result<Html<String>, super::api::Problem> {
    board(desk, access, q, ("desk-standings", "board", 2000)).await
}

pub async fn ranking(
    State(desk): State<Arc<Desk>>,
    Extension(access): Extension<Access>,
    Query(q): Query<super::api::NightQuery>,
) -> Result<Html<String>, super::api::Problem> {
    board(desk, access, q, ("desk-ranking", "ranking", 0)).await
}

/// A board of the night asked for (else the desk's), named by the
/// night and its date.
async fn board(
    desk: Arc<Desk>,
    access: Access,
    q: super::api::NightQuery,
    (heading, class, refresh): (&'static str, &'static str, u32),
) -> Result<Html<String>, super::api::Problem> {
    let work = move || {
        // The page is public, the archive's nights are not: without the
        // desk's key it names none (nor says whether one exists).
        if !matches!(access, Access::Desk) {
            let title = desk.title.clone();
            return Ok(Html(board_page(desk.lang, &title, heading, class, refresh)));
        }
        let night = desk.night(q.tournament.as_deref())?.id;
        // A title the club gave (`--title`) stands before the night's name.
        let label = match desk.title.as_str() {
            t if t == say(desk.lang, "review-default-title", &[]) => desk.night_label(night)?,
            t => format!("{t} – {}", desk.night_label(night)?),
        };
        Ok(Html(board_page(desk.lang, &label, heading, class, refresh)))
    };
    tokio::task::spawn_blocking(work)
        .await
        .expect("a desk task panicked")
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
    use aufsicht::night::club::audit_page::{Scans, page};
    let work = move || {
        let found = super::api::audit_of(&desk, &q)?;
        let kept = |sha: &str| desk.kept_scan(sha);
        let evidence = aufsicht::night::club::evidence::of_audit(&found, &kept, &desk.archive_dir)
            .map_err(|e| desk.problem(e))?;
        let forms = desk.forms_with_versions()?;
        let scans = Scans {
            forms: &forms,
            evidence: &evidence,
        };
        Ok(Html(page(&found, &scans, desk.lang)).into_response())
    };
    tokio::task::spawn_blocking(work)
        .await
        .expect("a desk task panicked")
}

/// `/writers?tournament=`: the Schreiber's ledger as its page, each
/// error linked to its sheet's audit (crops and trail).
pub async fn writers(
    State(desk): State<Arc<Desk>>,
    axum::extract::Query(q): axum::extract::Query<super::api::WritersQuery>,
) -> Result<Response, super::api::Problem> {
    let work = move || {
        let writers = desk.writers(&q)?;
        let link =
            |e: &aufsicht::night::ledger::Evidence| Some(format!("/audit?sheet={}", e.sheet));
        let title = desk.writers_title(&q);
        let names = desk.names()?;
        let ledger = aufsicht::night::club::writers_page::Ledger {
            title: &title,
            names: &names,
            writer_seat: desk.writer_seat,
        };
        let page = aufsicht::night::club::writers_page::page(&writers, &ledger, &link, desk.lang);
        Ok(Html(page).into_response())
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
        let page = desk_page(Lang::En, "A & <B>");
        let heading = format!(
            "<h1>{}: A &amp; &lt;B&gt;</h1>",
            say(Lang::En, "desk-title", &[])
        );
        assert!(page.contains(&heading), "{page}");
        assert!(!page.contains("<B>"), "{page}");
        for page in [
            desk_page(Lang::De, "x"),
            board_page(Lang::De, "x", "desk-standings", "board", 2000),
            board_page(Lang::De, "x", "desk-ranking", "ranking", 0),
        ] {
            assert!(!page.contains("desk-"), "every message id known: {page}");
        }
    }

    #[test]
    fn the_scripts_words_should_be_json_with_every_key() {
        let page = words(Lang::De, &DESK_WORDS).into_string();
        let json = page
            .trim_start_matches(r#"<script type="application/json" id="words">"#)
            .trim_end_matches("</script>");
        let words: serde_json::Value = serde_json::from_str(json).expect("JSON");
        for (key, _) in DESK_WORDS {
            assert!(words[key].as_str().is_some_and(|w| !w.is_empty()), "{key}");
        }
    }
}
