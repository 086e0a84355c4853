//! The club's archive as a club uses it: three dated nights, stored out of
//! date order; a player's complaint over the season, a sheet found in any
//! night, the desk switching nights, the pages in German.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use aufsicht::night::tournament::names::Names;
use aufsicht::night::tournament::roster::Roster;

use crate::common::{aufsicht, temp};
use crate::desk::{Desk, Driver, browser, until};
use crate::standings::{rows, write_night};

/// The nights: name, date, players (stored in this order).
const NIGHTS: [(&str, &str, usize); 3] = [
    ("Februar", "2026-02-14", 16),
    ("Januar", "2026-01-10", 20),
    ("März", "2026-03-07", 16),
];

/// A club's archive: each night's sheets stored under its name and date.
/// Its path, and each night's totals by player as `standings` gives them
/// over the night's result files.
fn club_archive(dir: &Path) -> (PathBuf, BTreeMap<&'static str, BTreeMap<String, i64>>) {
    let file = dir.join("club.sqlite");
    let mut archive = aufsicht::night::club::archive::Archive::open(&file).expect("archive");
    let mut totals = BTreeMap::new();
    for (n, (name, date, players)) in NIGHTS.into_iter().enumerate() {
        let night_dir = dir.join(name);
        let sheets = write_night(&night_dir, players, 70 + n as u64);
        let t = archive.tournament(name, "merkur").expect("night");
        let date = chrono::NaiveDate::parse_from_str(date, "%Y-%m-%d").expect("date");
        archive.date(t, date).expect("dated");
        // Each night's list names its players; March's sheets write the
        // numbers with a leading zero; player 233 is named by no list.
        let listed = |id: &&String| id.as_str() != "233";
        let players = sheets.iter().flat_map(|s| s.players.iter().flatten());
        let mut people: Vec<&String> = players.filter(listed).collect();
        people.sort();
        people.dedup();
        let list: String = people
            .iter()
            .map(|p| format!("{p},Spieler {p}\n"))
            .collect();
        let roster = Roster::parse(&format!("number,name\n{list}")).expect("list");
        archive
            .keep_names(t, &Names::of_roster(&roster))
            .expect("names kept");
        for (i, mut sheet) in sheets.into_iter().enumerate() {
            if *name == *"März" {
                for p in sheet.players.iter_mut().flatten() {
                    *p = format!("0{p}");
                }
            }
            let sha = format!("{n}{i:063}");
            let stored = [(format!("{name}-{i}.json"), sheet)];
            archive.store_file(t, &sha, None, &stored).expect("store");
        }
        let dir = night_dir.to_str().expect("utf8");
        let csv = aufsicht(&["standings", "--rules", "merkur", dir]);
        assert!(
            csv.status.success(),
            "{}",
            String::from_utf8_lossy(&csv.stderr)
        );
        let night: BTreeMap<String, i64> = rows(&String::from_utf8_lossy(&csv.stdout))
            .into_iter()
            .map(|r| (r["player"].clone(), r["total"].parse().expect("total")))
            .collect();
        totals.insert(name, night);
    }
    (file, totals)
}

fn audit_json(archive: &Path, args: &[&str]) -> Value {
    let out = archive.with_extension("audit.json");
    let mut all = vec!["audit", "--archive", archive.to_str().expect("utf8")];
    all.extend_from_slice(args);
    all.extend(["--format", "json", "--out", out.to_str().expect("utf8")]);
    let run = aufsicht(&all);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    serde_json::from_str(&std::fs::read_to_string(out).expect("written")).expect("json")
}

fn names(nights: &Value) -> Vec<&str> {
    let nights = nights.as_array().expect("nights");
    nights
        .iter()
        .map(|n| n["name"].as_str().expect("name"))
        .collect()
}

#[test]
fn a_players_complaint_should_cover_every_night_they_played_in_date_order() {
    let dir = temp("club-audit");
    let (archive, totals) = club_archive(&dir);
    // Player 107 played all three nights; written with a leading zero.
    let all = audit_json(&archive, &["--player", "0107"]);
    assert_eq!(names(&all["nights"]), ["Januar", "Februar", "März"]);
    let mut season = 0;
    for night in all["nights"].as_array().expect("nights") {
        let name = night["name"].as_str().expect("name");
        let total = totals[name]["107"];
        assert_eq!(night["standings"]["total"], total, "{name}");
        season += total;
    }
    assert_eq!(all["season"]["total"], season);
    assert_eq!(all["season"]["nights"], 3);
    assert!(
        all["standings"].is_null(),
        "several nights: no one night's line"
    );
    let sheets = all["sheets"].as_array().expect("sheets");
    assert_eq!(sheets.len(), 6, "two rounds a night");
    let nights: Vec<&str> = sheets
        .iter()
        .map(|s| s["tournament"].as_str().expect("night"))
        .collect();
    assert_eq!(
        nights,
        ["Januar", "Januar", "Februar", "Februar", "März", "März"]
    );
    // Player 219 played January alone: that night's line, as before.
    let one = audit_json(&archive, &["--player", "219"]);
    assert_eq!(names(&one["nights"]), ["Januar"]);
    assert_eq!(one["standings"]["total"], totals["Januar"]["219"]);
    assert_eq!(one["standings"], one["nights"][0]["standings"]);
    // With --tournament, one night.
    let feb = audit_json(&archive, &["--player", "107", "--tournament", "2026-02-14"]);
    assert_eq!(feb["standings"]["total"], totals["Februar"]["107"]);
    assert!(feb.get("nights").is_none() && feb.get("season").is_none());
    // A sheet by its id, in whichever night holds it.
    let id = sheets[2]["id"].as_i64().expect("id");
    let sheet = audit_json(&archive, &["--sheet", &id.to_string()]);
    assert_eq!(sheet["sheets"][0]["tournament"], "Februar");
    assert_eq!(sheet["sheets"][0]["id"], id);
    // Nobody: one line.
    let a = archive.to_str().expect("utf8");
    let none = aufsicht(&[
        "audit",
        "--archive",
        a,
        "--player",
        "999",
        "--out",
        "/dev/null",
    ]);
    assert!(!none.status.success());
    assert_eq!(
        String::from_utf8_lossy(&none.stderr).trim().lines().count(),
        1
    );
}

#[test]
fn the_club_pages_should_speak_german_with_dates_as_germans_write_them() {
    let dir = temp("club-pages");
    let (archive, _) = club_archive(&dir);
    let a = archive.to_str().expect("utf8");
    let page = dir.join("audit.html");
    let run = aufsicht(&[
        "audit",
        "--archive",
        a,
        "--player",
        "107",
        "--out",
        page.to_str().expect("utf8"),
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let html = std::fs::read_to_string(&page).expect("page");
    for german in [
        "Jahreswertung",
        "Abend: Januar (10.01.2026)",
        "<th>Platz</th>",
        "<th>Teilnehmer</th>",
        "<th>Runde 1</th>",
        "<th>Punkte</th>",
    ] {
        assert!(html.contains(german), "{german} missing");
    }
    for english in [
        "<th>player</th>",
        "<th>round_1</th>",
        "<th>rank</th>",
        "<th>total</th>",
    ] {
        assert!(!html.contains(english), "{english} on a German page");
    }
    assert!(
        html.contains("Prüfung: Teilnehmer 107 (Spieler 107)"),
        "the name in the title"
    );
    assert!(
        html.contains("<td>Spieler 107</td>"),
        "the name beside the number"
    );
    // The season: names from the nights' lists, and from the club's
    // members for the one no night names; every number one way.
    std::fs::write(
        dir.join("mitglieder.csv"),
        "number,name\n233,Anna Huber\n107,Nicht dieser\n",
    )
    .expect("members");
    std::fs::write(
        dir.join("CLUB.toml"),
        "[members]\nfile = \"mitglieder.csv\"\n",
    )
    .expect("club");
    let season_page = dir.join("season.html");
    let club = dir.join("CLUB.toml");
    let season = aufsicht(&[
        "season",
        "--archive",
        a,
        "--club",
        club.to_str().expect("utf8"),
        "--page",
        season_page.to_str().expect("utf8"),
    ]);
    assert!(
        season.status.success(),
        "{}",
        String::from_utf8_lossy(&season.stderr)
    );
    let csv = String::from_utf8_lossy(&season.stdout);
    assert!(
        csv.starts_with("rank,player,nights,total,"),
        "the CSV keeps its names: {csv}"
    );
    assert!(!csv.contains(",0107,"), "one way: {csv}");
    let page = std::fs::read_to_string(&season_page).expect("season page");
    for text in [
        "<th>Platz</th>",
        "<th>Name</th>",
        "<td>Spieler 107</td>",
        "<td>Anna Huber</td>",
        "<th>Abende</th>",
    ] {
        assert!(page.contains(text), "{text} missing");
    }
    assert!(!page.contains("Nicht dieser"), "a night's list comes first");
    assert!(!page.contains("<td>0107</td>"));
}

/// The dark pixels of a screenshot of the page: text and tables drawn.
async fn dark_pixels_on_screen(client: &fantoccini::Client) -> usize {
    let shot = client.screenshot().await.expect("screenshot");
    let img = image::load_from_memory(&shot).expect("a PNG").to_rgb8();
    let dark = |p: &&image::Rgb<u8>| p[0] < 90 && p[1] < 90 && p[2] < 90;
    img.pixels().filter(dark).count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_desk_should_open_on_the_newest_night_and_switch_between_them() {
    use fantoccini::Locator::Css;
    let dir = temp("club-desk");
    let (archive, totals) = club_archive(&dir);
    // The club's rule: the best night counts (the season audit's line).
    let club = dir.join("club.toml");
    std::fs::write(&club, "[season]\nbest = 1\n").expect("club file");
    let desk = Desk::start_in("de", &archive, &["--club", club.to_str().expect("utf-8")]);
    let nights = desk.json("/api/nights");
    assert_eq!(
        names(&nights),
        ["März", "Februar", "Januar"],
        "newest first"
    );
    let counts: Vec<i64> = nights
        .as_array()
        .expect("nights")
        .iter()
        .map(|n| n["sheets"].as_i64().expect("n"))
        .collect();
    assert_eq!(counts, [8, 8, 10]);
    assert_eq!(nights[0]["opened"], true);
    assert_eq!(desk.json("/api/sheets").as_array().expect("queue").len(), 8);
    assert_eq!(
        desk.json("/api/sheets?tournament=Januar")
            .as_array()
            .expect("queue")
            .len(),
        10
    );
    let standings = desk.json("/api/standings?format=json&tournament=2026-01-10");
    for line in standings.as_array().expect("lines") {
        let player = line["player"].as_str().expect("player");
        let total = line["total"].as_i64().expect("a number");
        assert_eq!(total, totals["Januar"][player], "{player}");
        assert!(line["rank"].as_i64().is_some_and(|r| r >= 1), "{line}");
    }
    let named = standings
        .as_array()
        .expect("lines")
        .iter()
        .filter(|l| {
            l["name"]
                .as_str()
                .is_some_and(|n| n.starts_with("Spieler "))
        })
        .count();
    assert_eq!(
        named, 19,
        "every January player a list names (233: none), on the board"
    );
    let first = desk.json("/api/sheets")[0]["id"].as_i64().expect("a sheet");
    let view = desk.json(&format!("/api/sheets/{first}/view"));
    for seat in view["names"].as_array().expect("names") {
        let number = seat["number"].as_str().expect("number");
        assert!(!number.starts_with('0'), "one way: {number}");
        if number != "233" {
            assert_eq!(seat["name"], format!("Spieler {number}"));
        }
    }
    let (status, _, _) = desk.call("GET", "/api/sheets?tournament=Nirgends", &[], "");
    assert_eq!(status, 404);
    let season = desk.json("/api/audit?player=107");
    assert_eq!(names(&season["nights"]), ["Januar", "Februar", "März"]);
    let best = totals.values().filter_map(|night| night.get("107")).max();
    assert_eq!(
        season["season"]["total"].as_i64(),
        best.copied(),
        "the club's rule"
    );
    // In Chromium: the night picked on the page, its queue shown.
    let driver = Driver::start();
    let client = browser(&driver, &dir.join("profile")).await;
    client.goto(&desk.url).await.expect("open the desk");
    until(&client, "return document.body.dataset.ready === '1'").await;
    until(
        &client,
        "return document.querySelectorAll('#queue li').length === 8",
    )
    .await;
    let pick = client.find(Css("#night")).await.expect("the night picker");
    pick.select_by_value("Januar").await.expect("pick January");
    until(&client, "return document.body.dataset.night === 'Januar' && document.querySelectorAll('#queue li').length === 10").await;
    let link = client.find(Css("#to-standings")).await.expect("link");
    let href = link.attr("href").await.expect("href").unwrap_or_default();
    assert!(href.contains("tournament=Januar"), "{href}");
    let ink = dark_pixels_on_screen(&client).await;
    assert!(ink > 1000, "the desk on screen: {ink} dark pixels");
    // The season audit page in German.
    client
        .goto(&format!("{}audit?player=107", desk.url))
        .await
        .expect("audit page");
    let heads = client
        .execute(
            "return [...document.querySelectorAll('h2')].map(h => h.textContent)",
            vec![],
        )
        .await
        .expect("heads");
    let heads: Vec<String> = serde_json::from_value(heads).expect("texts");
    assert_eq!(
        heads.iter().filter(|h| h.starts_with("Abend: ")).count(),
        3,
        "{heads:?}"
    );
    assert!(heads.contains(&"Jahreswertung".to_string()), "{heads:?}");
    // The season page, as printed from the archive, in Chromium.
    let page = dir.join("season.html");
    let a = archive.to_str().expect("utf8");
    let run = aufsicht(&[
        "season",
        "--archive",
        a,
        "--page",
        page.to_str().expect("utf8"),
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    client
        .goto(&format!("file://{}", page.display()))
        .await
        .expect("season page");
    let shown = client
        .execute("return document.querySelectorAll('tr').length", vec![])
        .await
        .expect("rows");
    assert_eq!(shown, serde_json::json!(21), "a head and 20 players");
    let ink = dark_pixels_on_screen(&client).await;
    assert!(ink > 1000, "the season on screen: {ink} dark pixels");
    client.close().await.expect("close");
}
