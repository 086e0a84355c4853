//! Questions at the desk (`GET /api/questions`, `POST /api/questions/{id}`)
//! as a script uses them, on the two flagged samples: the same paper,
//! written by one Schreiber, scanned twice.

use std::collections::BTreeSet;

use serde_json::{Value, json};

use crate::common::{scan_flagged_samples, temp};
use crate::desk::Desk;

/// Every cell in doubt of the night as the sheets give it: (sheet, path).
fn doubts(desk: &Desk) -> BTreeSet<(i64, String)> {
    let mut out = BTreeSet::new();
    for s in desk.json("/api/sheets").as_array().expect("sheets") {
        let id = s["id"].as_i64().expect("id");
        let sheet = desk.json(&format!("/api/sheets/{id}"));
        let flags = sheet["flags"].as_array().expect("flags").iter();
        let folded = flags.flat_map(|f| {
            let inner = f["consequences"].as_array().cloned().unwrap_or_default();
            std::iter::once(f.clone()).chain(inner)
        });
        for f in folded.filter(|f| f["code"] == "CELL_UNCERTAIN") {
            out.insert((id, path_of(&f)));
        }
    }
    out
}

/// The contract's path of the value a reading flag names.
fn path_of(f: &Value) -> String {
    let field = f["field"].as_str().unwrap_or_default();
    let seat = || f["seat"].as_i64().expect("seat");
    match (f["row"].as_i64(), field) {
        (Some(row), col) => format!("games/{row}/{}/{col}", seat()),
        (None, "round" | "table") => field.to_string(),
        (None, "player_id") => format!("players/{}", seat()),
        (None, "abzug" | "endergebnis") => format!("{field}/{}", seat()),
        (None, col) => format!("gesamt/{}/{col}", seat()),
    }
}

fn cells_of(questions: &Value) -> Vec<(i64, String)> {
    let all = questions.as_array().expect("questions").iter();
    all.flat_map(|q| q["cells"].as_array().expect("cells").clone())
        .map(|c| {
            (
                c["sheet"].as_i64().expect("sheet"),
                c["path"].as_str().expect("path").to_string(),
            )
        })
        .collect()
}

/// The id of the question that asks `cell` (sheet, path).
fn question_of(questions: &Value, cell: (i64, &str)) -> String {
    let all = questions.as_array().expect("questions").iter();
    let asks = |q: &&Value| {
        (q["cells"].as_array().expect("cells").iter())
            .any(|c| c["sheet"] == cell.0 && c["path"] == cell.1)
    };
    let found = all.clone().find(asks);
    let q = found.unwrap_or_else(|| panic!("{cell:?} not asked: {questions}"));
    q["id"].as_str().expect("id").to_string()
}

fn answer(desk: &Desk, id: &str, body: &Value) -> (u16, String) {
    let headers = [("Content-Type", "application/json")];
    let (status, _, text) = desk.call(
        "POST",
        &format!("/api/questions/{id}"),
        &headers,
        &body.to_string(),
    );
    (status, text)
}

#[test]
fn one_question_should_ask_one_hands_shape_and_one_answer_settle_all_its_cells() {
    let dir = temp("desk-questions");
    let out = dir.join("out");
    scan_flagged_samples(&out);
    let desk = Desk::start(&out.join("aufsicht.sqlite"));
    let questions = desk.json("/api/questions");
    let asked = cells_of(&questions);
    let unique: BTreeSet<(i64, String)> = asked.iter().cloned().collect();
    assert_eq!(
        unique.len(),
        asked.len(),
        "each cell in one question: {questions}"
    );
    assert_eq!(unique, doubts(&desk), "every doubt asked");
    // The second scan's Schreiber number is in doubt, so its doubts are
    // its own hand until a person confirms it.
    assert!(
        !questions
            .as_array()
            .expect("questions")
            .iter()
            .any(|q| q["cells"].as_array().expect("cells").len() > 1),
        "{questions}"
    );
    let writer = question_of(&questions, (2, "players/1"));
    let (status, text) = answer(&desk, &writer, &json!({"by": "AB", "value": 27}));
    assert_eq!(status, 200, "{text}");
    // Now one Schreiber's: the table number, read alike on both scans of
    // the sheet, is one question, and the largest is asked first.
    let questions = desk.json("/api/questions");
    let first = &questions[0];
    assert!(
        first["cells"].as_array().expect("cells").len() >= 2,
        "{questions}"
    );
    let sizes: Vec<usize> = (questions.as_array().expect("questions").iter())
        .map(|q| q["cells"].as_array().expect("cells").len())
        .collect();
    assert!(sizes.windows(2).all(|w| w[0] >= w[1]), "{sizes:?}");
    assert_eq!(desk.json("/api/questions"), questions, "the same ids again");

    let id = first["id"].as_str().expect("id").to_string();
    let value = first["cells"][0]["reading"]
        .as_str()
        .expect("reading")
        .parse::<i64>()
        .expect("number");
    let (status, text) = answer(&desk, &id, &json!({"by": "AB", "value": value}));
    assert_eq!(status, 200, "{text}");
    let after: Value = serde_json::from_str(&text).expect("questions");
    let left = cells_of(&after);
    for cell in first["cells"].as_array().expect("cells") {
        let (sheet, path) = (
            cell["sheet"].as_i64().expect("sheet"),
            cell["path"].as_str().expect("path"),
        );
        assert!(
            !left.contains(&(sheet, path.to_string())),
            "{path} still asked: {after}"
        );
        let trail = desk.json(&format!("/api/sheets/{sheet}/trail"));
        let line = (trail.as_array().expect("trail").iter())
            .find(|l| l["path"] == path && l["kind"] == "paper")
            .unwrap_or_else(|| panic!("no answer in the trail: {trail}"));
        assert_eq!(
            (line["by"].as_str(), line["new"].as_str()),
            (Some("AB"), Some(value.to_string().as_str()))
        );
    }
    assert_eq!(
        after,
        desk.json("/api/questions"),
        "the answer gives the questions as they stand"
    );

    // Answered: the id is gone, and asking it again is one line, 409.
    let (status, text) = answer(&desk, &id, &json!({"by": "AB", "value": value}));
    assert_eq!(status, 409, "{text}");
    assert_eq!(text.trim().lines().count(), 1, "{text}");
    let other = after[0]["id"]
        .as_str()
        .expect("another question")
        .to_string();
    let foreign = json!({"by": "AB", "cells": [{"sheet": 999, "path": "table", "value": 3}]});
    for (body, status_wanted, why) in [
        (foreign, 409, "a cell not of the question"),
        (
            json!({"by": "AB", "value": 3, "cells": []}),
            400,
            "value and cells",
        ),
        (json!({"by": "AB"}), 400, "neither"),
        (json!({"by": " ", "value": 3}), 400, "nobody"),
        (
            json!({"by": "AB", "value": 3, "note": "x"}),
            400,
            "a field the contract lacks",
        ),
    ] {
        let (status, text) = answer(&desk, &other, &body);
        assert_eq!(status, status_wanted, "{why}: {text}");
        assert_eq!(text.trim().lines().count(), 1, "{why}: {text}");
    }
    assert_eq!(
        desk.json("/api/questions"),
        after,
        "a refused answer changes nothing"
    );

    // One cell answered alone: the rest of its question stays asked.
    let alone = after[0]["cells"][0].clone();
    let body = json!({"by": "AB", "cells": [{"sheet": alone["sheet"], "path": alone["path"], "value": 4}]});
    let (status, text) = answer(&desk, &other, &body);
    assert_eq!(status, 200, "{text}");
    let now: Value = serde_json::from_str(&text).expect("questions");
    let cell = (
        alone["sheet"].as_i64().expect("sheet"),
        alone["path"].as_str().expect("path").to_string(),
    );
    assert!(!cells_of(&now).contains(&cell));
    assert_eq!(cells_of(&now).len(), left.len() - 1, "{now}");
}

/// Two printed sheets drawn in hands with one failure kind each (the
/// second's 1 has a long up-stroke the reader takes for a 7), scanned into
/// an archive: its path and the truth by sheet id.
fn failure_kind_night(dir: &std::path::Path) -> (std::path::PathBuf, Vec<(i64, Value)>) {
    let s = |p: &std::path::Path| p.display().to_string();
    let hands = crate::common::root().join("tests/fixtures/hands");
    let args = [
        "aufsicht-lab",
        "--lang",
        "en",
        "generate",
        "--rules",
        "merkur",
        "--form",
        "punkteliste-a4-32",
        "--count",
        "2",
        "--seed",
        "5",
        "--printed",
        "--capture",
        "scanner",
        "--writer-errors",
        "0",
        "--hands",
        "many",
        "--hand-sources",
        "kinds",
        "--families",
        "training",
        "--hands-dir",
        &s(&hands),
        "--out",
        &s(dir),
    ];
    aufsicht_lab::cli::run(args).expect("generate");
    let out = dir.join("out");
    let scan = crate::common::aufsicht_en(&[
        "scan",
        "--rules",
        "merkur",
        "--out",
        &s(&out),
        &s(&dir.join("scans")),
    ]);
    assert!(
        scan.status.success(),
        "{}",
        String::from_utf8_lossy(&scan.stderr)
    );
    let archive = out.join("aufsicht.sqlite");
    let db = rusqlite::Connection::open(&archive).expect("archive");
    let mut rows = db.prepare("SELECT id, source FROM sheets").expect("query");
    let ids: Vec<(i64, String)> = rows
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .expect("rows")
        .collect::<Result<_, _>>()
        .expect("ids");
    let truth = ids
        .into_iter()
        .map(|(id, source)| {
            let stem = std::path::Path::new(&source)
                .file_stem()
                .expect("stem")
                .to_string_lossy()
                .to_string();
            let text = std::fs::read_to_string(dir.join("truth").join(format!("{stem}.json")))
                .expect("truth");
            (id, serde_json::from_str(&text).expect("json"))
        })
        .collect();
    (archive, truth)
}

/// The paper's value at a contract path.
fn on_paper(truth: &Value, path: &str) -> Value {
    let parts: Vec<&str> = path.split('/').collect();
    let n = |i: usize| parts[i].parse::<usize>().expect("number");
    match parts.as_slice() {
        ["games", _, _, col] => truth["games"]
            .as_array()
            .expect("games")
            .iter()
            .find(|g| g["no"] == n(1))
            .map_or(Value::Null, |g| g["cells"][n(2) - 1][*col].clone()),
        ["gesamt", _, col] => truth["gesamt"][n(1) - 1][*col].clone(),
        [field, _] => truth[*field][n(1) - 1].clone(),
        [field] => truth[*field].clone(),
        _ => Value::Null,
    }
}

#[test]
fn an_answer_should_teach_the_reader_its_writers_glyph_and_settle_the_hands_other_doubts() {
    let dir = temp("desk-teach");
    let (archive, truth) = failure_kind_night(&dir);
    let (sheet, paper) = truth
        .iter()
        .find(|(_, t)| t["writer"]["hand"]["family"] == "futural-long-one")
        .cloned()
        .expect("a sheet in the long-one hand");
    let desk = Desk::start(&archive);
    let questions = desk.json("/api/questions");
    let on_sheet = |qs: &Value| cells_of(qs).into_iter().filter(|c| c.0 == sheet).count();
    let before = on_sheet(&questions);
    let question = (questions.as_array().expect("questions").iter())
        .find(|q| q["cells"][0]["sheet"] == sheet)
        .expect("a question about the sheet")
        .clone();
    let asked = question["cells"].as_array().expect("cells").len();
    let value = on_paper(&paper, question["cells"][0]["path"].as_str().expect("path"));
    let (status, text) = answer(
        &desk,
        question["id"].as_str().expect("id"),
        &json!({"by": "AB", "value": value}),
    );
    assert_eq!(status, 200, "{text}");
    let after = on_sheet(&serde_json::from_str(&text).expect("questions"));
    assert!(
        after < before - asked,
        "asked {before}, answered {asked}, still asked {after}"
    );
    // The trail says why the program now reads them surely.
    let trail = desk.json(&format!("/api/sheets/{sheet}/trail"));
    let taught: Vec<&Value> = (trail.as_array().expect("trail").iter())
        .filter(|l| l["why"].as_str().is_some_and(|w| w.contains("AB")))
        .collect();
    assert!(!taught.is_empty(), "{trail}");
    assert!(
        taught.iter().all(|l| l["kind"] == "reading"
            && l["by"].as_str().is_some_and(|b| b.starts_with("aufsicht")))
    );
    // What the program now reads surely is what the paper says.
    let now = desk.json(&format!("/api/sheets/{sheet}"));
    for line in taught {
        let path = line["path"].as_str().expect("path");
        assert_eq!(on_paper(&now, path), on_paper(&paper, path), "{path}");
    }
    // And no game value differs from the paper without a flag on its row.
    let flagged: BTreeSet<i64> = (now["flags"].as_array().expect("flags").iter())
        .flat_map(|f| {
            let inner = f["consequences"].as_array().cloned().unwrap_or_default();
            std::iter::once(f.clone()).chain(inner)
        })
        .filter_map(|f| f["row"].as_i64())
        .collect();
    for game in now["games"].as_array().expect("games") {
        let no = game["no"].as_i64().expect("no");
        for (seat, cell) in game["cells"].as_array().expect("cells").iter().enumerate() {
            for col in ["plus", "minus"] {
                let path = format!("games/{no}/{}/{col}", seat + 1);
                let (read, written) = (&cell[col], on_paper(&paper, &path));
                assert!(
                    *read == written || flagged.contains(&no),
                    "{path}: read {read}, paper {written}, no flag"
                );
            }
        }
    }
}

/// At the desk in Chromium: the largest question's crops side by side; one
/// crop taken out with Alt and its number, Enter answers the others, and
/// the one taken out is asked again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_supervisor_should_answer_a_shape_by_keyboard_and_take_one_crop_out_in_chromium() {
    use crate::desk::{Driver, ENTER, browser, until};
    use fantoccini::Locator::Css;
    let dir = temp("desk-questions-browser");
    let out = dir.join("out");
    scan_flagged_samples(&out);
    let desk = Desk::start(&out.join("aufsicht.sqlite"));
    // The second scan's Schreiber number confirmed: both scans one hand.
    let writer = question_of(&desk.json("/api/questions"), (2, "players/1"));
    let (status, text) = answer(&desk, &writer, &json!({"by": "AB", "value": 27}));
    assert_eq!(status, 200, "{text}");
    let questions = desk.json("/api/questions");
    let first = questions[0].clone();
    let cells = first["cells"].as_array().expect("cells").clone();
    assert!(cells.len() >= 2, "{questions}");
    let driver = Driver::start();
    let client = browser(&driver, &dir.join("profile")).await;
    client.goto(&desk.url).await.expect("open the desk");
    until(&client, "return document.body.dataset.ready === '1'").await;
    // On loopback no phone reaches the desk: it says how one would.
    until(
        &client,
        "return (document.getElementById('capture')?.textContent || '').includes('--listen 0.0.0.0:8377')",
    )
    .await;
    let shown = format!(
        "return document.querySelectorAll('#question figure img').length === {}",
        cells.len()
    );
    until(&client, &shown).await;
    until(&client, "return [...document.querySelectorAll('#question img')].every(i => i.complete && i.naturalWidth > 0)").await;
    client
        .find(Css("#by"))
        .await
        .expect("name box")
        .send_keys("Tester")
        .await
        .expect("type");
    let input = client.find(Css("#answer")).await.expect("the answer box");
    input.click().await.expect("focus");
    // Alt+2 takes the second crop out; then the value and Enter.
    let alt = "\u{E00A}";
    input
        .send_keys(&format!("{alt}2{alt}"))
        .await
        .expect("Alt+2");
    until(
        &client,
        "return document.querySelectorAll('#question figure.apart').length === 1",
    )
    .await;
    input
        .send_keys(&format!("30{ENTER}"))
        .await
        .expect("answer");
    let fewer = format!(
        "return document.getElementById('questions').dataset.open !== '{}' || document.querySelector('#question')?.dataset.id !== '{}'",
        questions.as_array().expect("list").len(),
        first["id"].as_str().expect("id")
    );
    until(&client, &fewer).await;
    until(
        &client,
        "return document.getElementById('question-status').textContent.length > 0",
    )
    .await;
    let now = desk.json("/api/questions");
    let left = cells_of(&now);
    let (kept, apart) = (&cells[0], &cells[1]);
    let cell = |c: &Value| {
        (
            c["sheet"].as_i64().expect("sheet"),
            c["path"].as_str().expect("path").to_string(),
        )
    };
    assert!(!left.contains(&cell(kept)), "answered: {now}");
    assert!(left.contains(&cell(apart)), "taken out, still asked: {now}");
    let trail = desk.json(&format!("/api/sheets/{}/trail", kept["sheet"]));
    assert!(
        (trail.as_array().expect("trail").iter())
            .any(|l| l["path"] == kept["path"] && l["by"] == "Tester" && l["new"] == "30"),
        "{trail}"
    );
    client.close().await.expect("close");
}

/// At the desk in Chromium: a question of several cells answered with
/// Enter, then Strg-Z in the answer box takes the whole answer back (each
/// cell's answer withdrawn) and leaves the reviewer's name as it was.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn strg_z_should_take_a_group_answer_back_as_a_whole_in_chromium() {
    use crate::desk::{Driver, ENTER, browser, until};
    use fantoccini::Locator::Css;
    let dir = temp("desk-group-undo");
    let (archive, _) = failure_kind_night(&dir);
    let desk = Desk::start(&archive);
    let questions = desk.json("/api/questions");
    let at = (questions.as_array().expect("list").iter())
        .position(|q| q["cells"].as_array().is_some_and(|c| c.len() >= 2))
        .expect("a question of several cells");
    let asked = cells_of(&json!([questions[at].clone()]));
    let driver = Driver::start();
    let client = browser(&driver, &dir.join("profile")).await;
    client.goto(&desk.url).await.expect("open the desk");
    until(&client, "return document.body.dataset.ready === '1'").await;
    let by = client.find(Css("#by")).await.expect("name box");
    by.send_keys("Tester").await.expect("type");
    // The question of several cells shown: Escape moves on to it.
    let input = client.find(Css("#answer")).await.expect("the answer box");
    input.click().await.expect("focus");
    for _ in 0..at {
        let box_ = client.find(Css("#answer")).await.expect("answer box");
        box_.send_keys("\u{E00C}").await.expect("Escape");
    }
    let id = questions[at]["id"].as_str().expect("id").to_string();
    until(
        &client,
        &format!("return document.querySelector('#question')?.dataset.id === '{id}'"),
    )
    .await;
    let input = client.find(Css("#answer")).await.expect("the answer box");
    input.send_keys(&format!("1{ENTER}")).await.expect("answer");
    until(&client, "return (document.getElementById('question-status').textContent || '').match(/\\d/) !== null && document.body.dataset.undoable === '1' && document.getElementById('answer') !== null").await;
    let now = cells_of(&desk.json("/api/questions"));
    assert!(
        asked.iter().all(|c| !now.contains(c)),
        "answered: {asked:?}"
    );
    // Strg-Z where the keyboard is: the answer box.
    let input = client.find(Css("#answer")).await.expect("the answer box");
    input.send_keys("\u{E009}z\u{E009}").await.expect("Strg-Z");
    until(&client, "return document.body.dataset.undoable === '0' && document.getElementById('status').textContent.length > 0").await;
    // Every cell's answer withdrawn, each one record in its sheet's trail.
    for (sheet, path) in &asked {
        let trail = desk.json(&format!("/api/sheets/{sheet}/trail"));
        let withdrawn = (trail.as_array().expect("trail").iter())
            .filter(|l| {
                l["path"] == path.as_str() && l["kind"] == "withdraw" && l["by"] == "Tester"
            })
            .count();
        assert_eq!(withdrawn, 1, "{path}: {trail}");
    }
    let name = client
        .execute("return document.getElementById('by').value", vec![])
        .await
        .expect("name");
    assert_eq!(name, json!("Tester"));
    client.close().await.expect("close");
}

/// At the desk in Chromium: a footer's question offers what the ink reads
/// (Enter would store it), with the value the sums want shown beside it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_footer_question_should_offer_what_the_ink_reads_in_chromium() {
    use crate::desk::{Driver, browser, until};
    use fantoccini::Locator::Css;
    let dir = temp("desk-footer-offer");
    let (archive, _) = failure_kind_night(&dir);
    let desk = Desk::start(&archive);
    let questions = desk.json("/api/questions");
    let footer = |q: &Value| {
        let cell = &q["cells"][0];
        let path = cell["path"].as_str().unwrap_or_default();
        let footer = ["gesamt/", "abzug/", "endergebnis/"]
            .iter()
            .any(|f| path.starts_with(f));
        let read = cell["reading"].as_str().and_then(|r| r.parse::<i64>().ok());
        footer && read.is_some() && q["value"].as_i64().is_some() && read != q["value"].as_i64()
    };
    let all = questions.as_array().expect("list");
    let at = all
        .iter()
        .position(footer)
        .expect("a footer read otherwise than its sums");
    let (read, sums) = (
        all[at]["cells"][0]["reading"]
            .as_str()
            .expect("reading")
            .to_string(),
        all[at]["value"].as_i64().expect("value"),
    );
    let driver = Driver::start();
    let client = browser(&driver, &dir.join("profile")).await;
    client.goto(&desk.url).await.expect("open the desk");
    until(&client, "return document.body.dataset.ready === '1'").await;
    let input = client.find(Css("#answer")).await.expect("the answer box");
    input.click().await.expect("focus");
    for _ in 0..at {
        let box_ = client.find(Css("#answer")).await.expect("answer box");
        box_.send_keys("\u{E00C}").await.expect("Escape");
    }
    let id = all[at]["id"].as_str().expect("id").to_string();
    until(
        &client,
        &format!("return document.querySelector('#question')?.dataset.id === '{id}'"),
    )
    .await;
    let offered = client
        .execute(
            "return document.getElementById('answer').placeholder",
            vec![],
        )
        .await
        .expect("placeholder");
    assert_eq!(
        offered,
        json!(read),
        "Enter offers the ink, not the sums' {sums}"
    );
    let shown = client
        .execute(
            "return document.getElementById('question').textContent",
            vec![],
        )
        .await
        .expect("text");
    assert!(
        shown
            .as_str()
            .unwrap_or_default()
            .contains(&sums.to_string()),
        "{shown}"
    );
    client.close().await.expect("close");
}
