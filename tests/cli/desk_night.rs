//! The night at the desk as a club runs it, from the HTTP side: what the
//! phone is told, what was sent by mistake taken out again, the phone's
//! key kept, and every refusal in German.

use serde_json::{Value, json};

use crate::common::temp;
use crate::desk::{Desk, as_png, call_at, capture_address, multipart, table_top};

const JSON: (&str, &str) = ("Content-Type", "application/json");

/// A desk alone on a new archive (a night of phones), and its phone's
/// address and key.
fn phone_night(dir: &std::path::Path) -> (Desk, String, String) {
    let archive = dir.join("neu.sqlite");
    let more = ["--tournament", "Heute", "--date", "3.10.2026"];
    let desk = Desk::listening("0.0.0.0:0", "de", &archive, &more);
    let (at, _, key) = capture_address(&desk.json("/api/capture"));
    (desk, at, key)
}

/// Sends `bytes` as `name` from the phone: the answer's one entry.
fn send(at: &str, key: &str, name: &str, bytes: Vec<u8>) -> Value {
    let (kind, body) = multipart(&[(name, bytes)]);
    let headers = [("Content-Type", kind.as_str()), ("x-aufsicht-token", key)];
    let (status, _, said) = call_at(at, at, "POST", "/api/scans", &headers, &body);
    assert_eq!(status, 200, "{said}");
    let sent: Value = serde_json::from_str(&said).expect("json");
    sent[0].clone()
}

/// The phone takes back sheets with a receipt (`body`): status and answer.
fn take_back(at: &str, key: &str, body: &str) -> (u16, String) {
    let phone = [JSON, ("x-aufsicht-token", key)];
    let (status, _, said) = call_at(
        at,
        at,
        "POST",
        "/api/scans/take-back",
        &phone,
        body.as_bytes(),
    );
    (status, said)
}

fn open_checks(desk: &Desk) -> Vec<String> {
    let checks = desk.json("/api/checks");
    (checks.as_array().expect("checks").iter())
        .filter(|c| c["settled"].is_null() || c["settled"] == false)
        .map(|c| c["code"].as_str().expect("code").to_string())
        .collect()
}

/// A photo of a table top (no sheet) and the same table sent twice: the
/// phone takes the second back with its receipt, the desk discards the
/// other with one request; both stay in the archive, neither counts, and
/// their checks are settled.
#[test]
fn what_was_sent_by_mistake_should_leave_the_night_and_stay_in_the_archive() {
    let dir = temp("desk-night-mistakes");
    let (desk, at, key) = phone_night(&dir);
    let png = |sample: &str| std::fs::read(as_png(sample, &dir)).expect("photo");
    let first = send(&at, &key, "IMG_0001.jpg", png("merkur-scanner.jpg"));
    let twice = send(&at, &key, "IMG_0002.jpg", png("merkur-fax.tif"));
    let table_top = send(&at, &key, "IMG_0003.jpg", table_top());
    assert_eq!(table_top["status"], "unreadable", "{table_top}");
    let checks = open_checks(&desk);
    for code in ["TABLE_TWICE", "SHEET_UNREADABLE"] {
        assert!(checks.iter().any(|c| c == code), "{code}: {checks:?}");
    }

    // Another phone's receipt, or none, takes nothing back.
    let id = twice["sheets"][0].as_i64().expect("a sheet");
    let forged = json!({"sheets": [id], "receipt": first["receipt"]}).to_string();
    let (status, said) = take_back(&at, &key, &forged);
    assert_eq!(status, 403, "{said}");
    assert_eq!(said.trim().lines().count(), 1, "{said}");
    assert!(said.contains("zurücknehmen"), "German: {said}");
    // With its own receipt the phone takes it back.
    let own = json!({"sheets": twice["sheets"], "receipt": twice["receipt"]}).to_string();
    let (status, said) = take_back(&at, &key, &own);
    assert_eq!(status, 200, "{said}");
    assert!(!open_checks(&desk).iter().any(|c| c == "TABLE_TWICE"));

    // The desk discards the table top with one request.
    let blank_id = table_top["sheets"][0].as_i64().expect("a sheet");
    let (status, _, said) = desk.call(
        "POST",
        &format!("/api/sheets/{blank_id}/discard"),
        &[JSON],
        &json!({"by": "AB"}).to_string(),
    );
    assert_eq!(status, 200, "{said}");
    // The sheets left are still in doubt: the ranking stays provisional.
    assert_eq!(open_checks(&desk), ["SHEETS_IN_DOUBT"]);
    let settled = desk.json("/api/checks");
    let discarded = (settled.as_array().expect("checks").iter())
        .filter(|c| c["code"] == "SHEET_DISCARDED")
        .count();
    assert_eq!(discarded, 2, "both listed as settled: {settled}");

    // Nothing lost: both still in the archive, with who and why.
    let sheets = desk.json("/api/sheets");
    let ids: Vec<i64> = (sheets.as_array().expect("sheets").iter())
        .map(|s| s["id"].as_i64().expect("id"))
        .collect();
    assert!(ids.contains(&id) && ids.contains(&blank_id), "{sheets}");
    let trail = desk.json(&format!("/api/sheets/{id}/trail"));
    let line = (trail.as_array().expect("trail").iter())
        .find(|l| l["kind"] == "discard")
        .unwrap_or_else(|| panic!("{trail}"));
    assert_eq!(line["by"], "Handy", "{trail}");
    // The ranking holds the first sheet's players alone.
    let first_id = first["sheets"][0].as_i64().expect("a sheet");
    let players = |v: &Value, of: fn(&Value) -> Option<&str>| {
        (v.as_array().expect("list").iter())
            .filter_map(|p| of(p).map(str::to_string))
            .collect::<std::collections::BTreeSet<String>>()
    };
    let ranked = players(&desk.json("/api/standings?format=json"), |p| {
        p["player"].as_str()
    });
    let sheet = desk.json(&format!("/api/sheets/{first_id}"));
    assert_eq!(ranked, players(&sheet["players"], Value::as_str), "{sheet}");

    // A sheet a person decided on stays: the phone cannot take it back.
    let (status, _, said) = desk.call(
        "POST",
        &format!("/api/sheets/{first_id}/game"),
        &[JSON],
        &json!({"by": "AB", "ours": true}).to_string(),
    );
    assert_eq!(status, 200, "{said}");
    let own = json!({"sheets": first["sheets"], "receipt": first["receipt"]}).to_string();
    let (status, said) = take_back(&at, &key, &own);
    assert_eq!(status, 409, "{said}");
    // And the desk brings a discarded one back.
    let (status, _, said) = desk.call(
        "POST",
        &format!("/api/sheets/{id}/discard"),
        &[JSON],
        &json!({"by": "AB", "discard": false}).to_string(),
    );
    assert_eq!(status, 200, "{said}");
    assert!(open_checks(&desk).iter().any(|c| c == "TABLE_TWICE"));
}

/// What the web framework refuses, and a body that is not the JSON
/// asked for: each one German line, whatever the client sent.
#[test]
fn every_refusal_should_be_one_german_line() {
    let dir = temp("desk-night-refusals");
    let (desk, at, key) = phone_night(&dir);
    let german = |status: u16, said: &str, wanted: u16, words: &str| {
        assert_eq!(status, wanted, "{said}");
        assert_eq!(said.trim().lines().count(), 1, "{said}");
        assert!(said.contains(words), "{words}: {said}");
        for english in [
            "Invalid",
            "boundary",
            "expected",
            "field `",
            "Not Found",
            "Method",
        ] {
            assert!(!said.contains(english), "{english}: {said}");
        }
    };
    // An upload whose multipart header has no boundary.
    let headers = [
        ("Content-Type", "multipart/form-data"),
        ("x-aufsicht-token", key.as_str()),
    ];
    let (status, _, said) = call_at(&at, &at, "POST", "/api/scans", &headers, b"--x--");
    german(status, &said, 400, "die Sendung ist nicht lesbar");
    let (status, _, said) = desk.call("GET", "/api/gibtsnicht", &[], "");
    german(status, &said, 404, "Adresse");
    let (status, _, said) = desk.call("GET", "/api/questions/abc", &[], "");
    german(status, &said, 405, "Anfrage");
    let (status, _, said) = desk.call("POST", "/api/sheets/x/values", &[JSON], "{}");
    german(status, &said, 400, "nicht lesbar");
    let unknown = json!({"by": "AB", "discard": true, "wert": 3}).to_string();
    let (status, _, said) = desk.call("POST", "/api/sheets/1/discard", &[JSON], &unknown);
    german(status, &said, 400, "„wert“");
    let (status, _, said) = desk.call("POST", "/api/sheets/1/discard", &[JSON], "{by");
    german(status, &said, 400, "kein JSON");
}

/// The ranking for the wall, printed to PDF from Chromium: the night's
/// name and date, a column a round, names left-aligned, the open checks
/// as one line, and no file name anywhere.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_ranking_printed_from_chromium_should_name_the_night_and_no_file() {
    use crate::desk::{Driver, browser, until};
    let dir = temp("desk-night-ranking");
    let (desk, at, key) = phone_night(&dir);
    let png = |sample: &str| std::fs::read(as_png(sample, &dir)).expect("photo");
    send(&at, &key, "IMG_0001.jpg", png("merkur-scanner.jpg"));
    send(&at, &key, "IMG_0002.jpg", png("merkur-fax.tif"));
    let driver = Driver::start();
    let client = browser(&driver, &dir.join("profile")).await;
    client
        .goto(&format!("{}ranking", desk.url))
        .await
        .expect("the ranking");
    until(
        &client,
        "return document.querySelectorAll('#board tr').length > 1 && !document.getElementById('provisional').hidden",
    )
    .await;
    let left = client
        .execute(
            "return getComputedStyle(document.querySelector('#board td.player')).textAlign",
            vec![],
        )
        .await
        .expect("style");
    assert_eq!(left, json!("right"), "numbers right");
    let shot = client.screenshot().await.expect("screenshot");
    std::fs::write(dir.join("ranking.png"), &shot).expect("png");
    let pdf = client
        .print(fantoccini::wd::PrintConfiguration::default())
        .await
        .expect("printed");
    std::fs::write(dir.join("ranking.pdf"), &pdf).expect("pdf");
    client.close().await.expect("close");
    let doc = lopdf::Document::load_mem(&pdf).expect("a PDF");
    let pages: Vec<u32> = doc.get_pages().keys().copied().collect();
    assert_eq!(pages.len(), 1, "one A4 page");
    let text = (doc.extract_text(&pages).expect("its text"))
        .replace('\u{FB01}', "fi")
        .replace('\u{FB00}', "ff")
        .replace('\u{FB02}', "fl");
    for wanted in [
        "Heute",
        "03.10.2026",
        "Runde 1",
        "vorläufig: ",
        " Prüfungen offen",
    ] {
        assert!(text.contains(wanted), "{wanted}: {text}");
    }
    for file in ["IMG_", ".png", ".jpg", "fotos-", "sqlite", "Tisch 30 "] {
        assert!(!text.contains(file), "{file}: {text}");
    }
    // Beside the contract's CSV, one a German spreadsheet splits.
    let (status, head, csv) = desk.call("GET", "/api/standings?format=csv-de", &[], "");
    assert_eq!(status, 200, "{csv}");
    assert!(head.to_lowercase().contains("rangliste.csv"), "{head}");
    assert!(
        csv.starts_with("\u{FEFF}Platz;Teilnehmer;Punkte;Runde 1;"),
        "{csv}"
    );
    let (_, _, contract) = desk.call("GET", "/api/standings", &[], "");
    assert!(contract.starts_with("rank,player,total"), "{contract}");
}

/// At the desk in Chromium, at a phone's width and a laptop's: sheets
/// named by round and table, the checks folded to one line, a photo of
/// nothing shown and discarded with Entf, a cell made blank with "-" and
/// the change taken back with Strg-Z, and the sheet's history in German.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_desk_should_blank_undo_discard_and_show_the_history_in_german() {
    use crate::desk::{Driver, ENTER, browser, until, value_at};
    use fantoccini::Locator::Css;
    let dir = temp("desk-night-keys");
    let (desk, at, key) = phone_night(&dir);
    let png = |sample: &str| std::fs::read(as_png(sample, &dir)).expect("photo");
    let read = send(&at, &key, "IMG_0001.jpg", png("merkur-scanner.jpg"));
    let nothing = send(&at, &key, "IMG_0002.jpg", table_top());
    let (read, nothing) = (
        read["sheets"][0].as_i64().expect("a sheet"),
        nothing["sheets"][0].as_i64().expect("a sheet"),
    );
    let driver = Driver::start();
    let client = browser(&driver, &dir.join("profile")).await;
    client
        .set_window_size(1280, 900)
        .await
        .expect("a laptop's size");
    client.goto(&desk.url).await.expect("the desk");
    until(&client, "return document.body.dataset.ready === '1'").await;
    client
        .find(Css("#by"))
        .await
        .expect("name box")
        .send_keys("AB")
        .await
        .expect("type");
    // Named by round and table, the file on hover; the checks one line.
    let named = client
        .execute(
            "return [...document.querySelectorAll('#queue li')].map(li => [li.textContent, li.title])",
            vec![],
        )
        .await
        .expect("queue");
    assert!(
        named
            .as_array()
            .expect("names")
            .iter()
            .any(|n| n[0].as_str().is_some_and(|t| t.starts_with("R1 T30"))
                && n[1] == "IMG_0001.jpg"),
        "{named}"
    );
    until(
        &client,
        "return !document.getElementById('checks').hidden && !document.getElementById('checks').open && Number(document.getElementById('checks-count').textContent) > 0",
    )
    .await;

    // The photo of nothing: its picture shown, Entf discards it.
    client
        .execute(
            &format!("document.querySelector('#queue li[data-id=\"{nothing}\"]').click()"),
            vec![],
        )
        .await
        .expect("open");
    until(&client, &format!("return document.querySelector('#queue li.current')?.dataset.id === '{nothing}' && document.getElementById('page').src.startsWith('data:image')")).await;
    client
        .execute("document.activeElement.blur()", vec![])
        .await
        .expect("blur");
    client
        .find(Css("body"))
        .await
        .expect("body")
        .send_keys("\u{E017}")
        .await
        .expect("Entf");
    until(
        &client,
        &format!(
            "return document.querySelector('#queue li[data-id=\"{nothing}\"]')?.classList.contains('out')"
        ),
    )
    .await;
    let sheet = desk.json(&format!("/api/sheets/{nothing}"));
    assert_eq!(sheet["discarded"]["by"], "AB", "{sheet}");

    // A cell blanked with "-", then Strg-Z: the old value back.
    let view = desk.json(&format!("/api/sheets/{read}/view"));
    let (i, flag) = (view["flags"].as_array().expect("flags").iter())
        .enumerate()
        .find(|(_, f)| f["path"].as_str().is_some_and(|p| p.starts_with("games/")))
        .expect("a game cell asked");
    let path = flag["path"].as_str().expect("path").to_string();
    let before = value_at(&desk.json(&format!("/api/sheets/{read}")), &path);
    assert!(!before.is_null(), "{path}: {before}");
    client
        .execute(
            &format!("document.querySelector('#queue li[data-id=\"{read}\"]').click()"),
            vec![],
        )
        .await
        .expect("open");
    let input = format!("#value-{i}");
    until(&client, &format!("return !!document.querySelector('{input}') && document.querySelector('#queue li.current')?.dataset.id === '{read}'")).await;
    let typed = client.find(Css(&input)).await.expect("the box");
    typed.click().await.expect("focus");
    typed.send_keys(&format!("-{ENTER}")).await.expect("blank");
    let blanked = || value_at(&desk.json(&format!("/api/sheets/{read}")), &path);
    for _ in 0..100 {
        if blanked().is_null() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(blanked().is_null(), "{path} blank");
    // The desk holds both changes to take back: the discard and the blank.
    until(&client, "return document.body.dataset.undoable === '2'").await;
    client
        .execute(
            "document.activeElement.dispatchEvent(new KeyboardEvent('keydown', {key: 'z', ctrlKey: true, bubbles: true}))",
            vec![],
        )
        .await
        .expect("Strg-Z");
    for _ in 0..100 {
        if blanked() == before {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(blanked(), before, "{path} back");
    // Taken back, not answered again: the doubt is asked again.
    let again = desk.json(&format!("/api/sheets/{read}/view"));
    let asked = (again["flags"].as_array().expect("flags").iter())
        .any(|f| f["path"] == path.as_str() && f["code"] == flag["code"]);
    assert!(asked, "{path} asked again: {again}");
    // The history says it in German: who, the kind in words, a German date.
    until(
        &client,
        "return document.querySelectorAll('#history tr').length >= 3",
    )
    .await;
    let history = client
        .find(Css("#history table"))
        .await
        .expect("history")
        .html(false)
        .await
        .expect("html");
    assert!(
        history.contains("Wert vom Papier")
            && history.contains("Antwort zurückgenommen")
            && history.contains("AB"),
        "{history}"
    );
    assert!(
        !history.contains("T0") && !history.contains("Z<"),
        "German times: {history}"
    );
    client
        .execute("document.getElementById('history').open = true", vec![])
        .await
        .expect("open the history");
    std::fs::write(
        dir.join("desk-1280.png"),
        client.screenshot().await.expect("shot"),
    )
    .expect("png");
    client
        .set_window_size(390, 844)
        .await
        .expect("a phone's size");
    std::fs::write(
        dir.join("desk-390.png"),
        client.screenshot().await.expect("shot"),
    )
    .expect("png");
    client.close().await.expect("close");
}
