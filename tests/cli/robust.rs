//! Nothing breaks the night: a result an older release stored with a
//! table read as 0, or a stored result damaged, never stops a command or
//! a page of the desk; every other sheet goes on, and any sheet can be
//! discarded.

use std::path::{Path, PathBuf};

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::common::{aufsicht, scan_flagged_samples, temp};
use crate::desk::Desk;

/// The two flagged samples in an archive: (archive, its folder).
fn night(dir: &Path) -> PathBuf {
    let out = dir.join("out");
    scan_flagged_samples(&out);
    out.join("aufsicht.sqlite")
}

/// Stores `json` as sheet `id`'s result and its every reading, as an
/// older release or a damaged disk left it (its hash made to fit, so
/// only what it says is wrong).
fn store_as(archive: &Path, id: i64, json: &str) {
    let db = rusqlite::Connection::open(archive).expect("archive");
    let hash: String = Sha256::digest(json.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let changed = db
        .execute(
            "UPDATE sheets SET result_json = ?1, result_sha256 = ?2 WHERE id = ?3",
            rusqlite::params![json, hash, id],
        )
        .expect("update");
    assert_eq!(changed, 1);
    db.execute(
        "UPDATE readings SET result_json = ?1 WHERE sheet_id = ?2",
        rusqlite::params![json, id],
    )
    .expect("readings");
}

/// Sheet `id`'s stored result as JSON.
fn stored(archive: &Path, id: i64) -> Value {
    let db = rusqlite::Connection::open(archive).expect("archive");
    let json: String = db
        .query_row("SELECT result_json FROM sheets WHERE id = ?1", [id], |r| {
            r.get(0)
        })
        .expect("sheet");
    serde_json::from_str(&json).expect("json")
}

/// Every view of the night, as the desk serves it, answers 200.
fn every_view_answers(desk: &Desk, sheet: i64) {
    for path in [
        "/",
        "/standings",
        "/ranking",
        "/writers",
        "/api/sheets",
        "/api/checks",
        "/api/questions",
        "/api/standings",
        "/api/standings?format=csv-de",
        "/api/writers",
        &format!("/api/sheets/{sheet}"),
        &format!("/api/sheets/{sheet}/view"),
    ] {
        let (status, _, body) = desk.call("GET", path, &[], "");
        assert_eq!(status, 200, "{path}: {body}");
    }
}

fn discard(desk: &Desk, id: i64) -> (u16, String) {
    let body = r#"{"by": "AB", "reason": "Doppel"}"#;
    let headers = [("Content-Type", "application/json")];
    let path = format!("/api/sheets/{id}/discard");
    let (status, _, body) = desk.call("POST", &path, &headers, body);
    (status, body)
}

#[test]
fn a_table_stored_as_0_should_be_asked_and_the_night_go_on() {
    let dir = temp("table-0");
    let archive = night(&dir);
    let mut old = stored(&archive, 1);
    old["table"] = Value::from(0);
    store_as(&archive, 1, &old.to_string());
    let db = rusqlite::Connection::open(&archive).expect("archive");
    db.execute_batch(
        "UPDATE sheets SET table_no = 0 WHERE id = 1;
         UPDATE sheet_values SET value = 0 WHERE sheet_id = 1 AND field = 'table';",
    )
    .expect("as the older release stored it");

    let at = archive.to_str().expect("utf8");
    let run = aufsicht(&["standings", "--rules", "merkur", "--archive", at]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    assert!(String::from_utf8_lossy(&run.stdout).lines().count() > 1);
    assert!(stderr.contains("ROUND_OR_TABLE_MISSING"), "{stderr}");
    let check = aufsicht(&["archive", "check", at]);
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );

    let desk = Desk::start_in("de", &archive, &[]);
    every_view_answers(&desk, 1);
    // The table in doubt is asked, with what was read.
    let questions = desk.json("/api/questions").to_string();
    assert!(questions.contains("\"table\""), "{questions}");
    // A readable sheet can be discarded too, not only an unreadable one.
    let (status, body) = discard(&desk, 2);
    assert_eq!(status, 200, "{body}");
    every_view_answers(&desk, 2);
}

#[test]
fn a_damaged_result_should_be_set_aside_with_one_german_line_and_be_discarded() {
    let dir = temp("damaged");
    let archive = night(&dir);
    store_as(&archive, 1, "{\"schema\": \"aufsicht/sheet-v1\", kaputt");
    let at = archive.to_str().expect("utf8");

    let run = aufsicht(&["standings", "--rules", "merkur", "--archive", at]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    let unreadable: Vec<&str> = (stderr.lines())
        .filter(|l| l.contains("SHEET_UNREADABLE"))
        .collect();
    assert_eq!(unreadable.len(), 1, "{stderr}");
    // The other sheet still ranks its players.
    assert!(String::from_utf8_lossy(&run.stdout).lines().count() > 1);

    let check = aufsicht(&["archive", "check", at]);
    let said = String::from_utf8_lossy(&check.stderr).to_string()
        + &String::from_utf8_lossy(&check.stdout);
    assert!(!check.status.success(), "{said}");
    assert!(
        said.contains("Liste 1") && said.contains("lässt sich nicht lesen"),
        "{said}"
    );
    assert!(!said.contains("cannot"), "{said}");

    let desk = Desk::start_in("de", &archive, &[]);
    every_view_answers(&desk, 1);
    let sheet = desk.json("/api/sheets/1").to_string();
    assert!(sheet.contains("zurücklesen"), "{sheet}");
    let (status, body) = discard(&desk, 1);
    assert_eq!(status, 200, "{body}");
    let checks = desk.json("/api/checks").to_string();
    assert!(checks.contains("SHEET_DISCARDED"), "{checks}");
}

/// The key the desk gives other computers.
fn lan_key(desk: &Desk) -> String {
    let line = desk.said_line("/#token=");
    line.rsplit_once("/#token=")
        .expect("key")
        .1
        .trim()
        .to_string()
}

#[test]
fn a_restarted_desk_should_keep_the_key_it_gave_other_computers() {
    let dir = temp("lan-key");
    let archive = night(&dir);
    let first = Desk::listening("0.0.0.0:0", "de", &archive, &[]);
    let key = lan_key(&first);
    drop(first);
    let again = Desk::listening("0.0.0.0:0", "de", &archive, &[]);
    assert_eq!(lan_key(&again), key);
}

/// The ranking printed from Chromium while sheets are in doubt: its heading
/// says vorläufig, and each player with a sheet in doubt is marked.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_ranking_printed_while_sheets_are_in_doubt_should_say_vorlaeufig_in_chromium() {
    use crate::desk::{Driver, browser, until};
    let dir = temp("ranking-provisional");
    let archive = night(&dir);
    let desk = Desk::start_in("de", &archive, &[]);
    let driver = Driver::start();
    let client = browser(&driver, &dir.join("profile")).await;
    client
        .goto(&format!("{}ranking", desk.url))
        .await
        .expect("open the ranking");
    until(&client, "return document.body.dataset.checks !== undefined").await;
    let heading = client
        .execute("return document.querySelector('h1').textContent", vec![])
        .await
        .expect("heading");
    let heading = heading.as_str().expect("text").to_string();
    assert!(heading.contains("vorläufig"), "{heading}");
    let marked = client
        .execute(
            "return document.querySelectorAll('#board tr.in-doubt').length",
            vec![],
        )
        .await
        .expect("rows");
    assert!(marked.as_u64().unwrap_or(0) > 0, "{marked}");
    // Nothing open (both papers taken out): the heading says Endergebnis.
    for id in [1, 2] {
        let (status, body) = discard(&desk, id);
        assert_eq!(status, 200, "{body}");
    }
    client.refresh().await.expect("reload");
    until(&client, "return document.body.dataset.checks === '0'").await;
    let heading = client
        .execute("return document.querySelector('h1').textContent", vec![])
        .await
        .expect("heading");
    let heading = heading.as_str().expect("text").to_string();
    assert!(
        heading.starts_with("Endergebnis") && !heading.contains("vorläufig"),
        "{heading}"
    );
    client.close().await.expect("close");
}

#[test]
fn a_board_page_without_the_key_should_name_no_night_nor_say_whether_one_exists() {
    let dir = temp("board-no-key");
    let archive = night(&dir);
    let desk = Desk::start_in("de", &archive, &["--tournament", "Herbstabend"]);
    let from_afar = [("X-Forwarded-For", "192.168.1.20")];
    for path in [
        "/ranking",
        "/ranking?tournament=Herbstabend",
        "/standings?tournament=Gestern",
    ] {
        let (status, _, body) = desk.call("GET", path, &from_afar, "");
        assert_eq!(status, 200, "{path}: {body}");
        assert!(!body.contains("Herbstabend"), "{path}: {body}");
    }
    // The desk itself names its night.
    let (_, _, body) = desk.call("GET", "/ranking", &[], "");
    assert!(body.contains("Herbstabend"), "{body}");
}
