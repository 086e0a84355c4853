//! A series across venues: each venue's archive pushed into one
//! PostgreSQL server (a cluster of the tests' own), and the central
//! archive at work.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use aufsicht::night::club::archive::{Archive, sha256_file};
use aufsicht::record::Decision;
use aufsicht::sheet::SheetResult;

use crate::common::{aufsicht, temp};
use crate::postgres::{Cluster, shared};
use crate::standings::{rows, write_night};

/// A venue's archive with one night of `players` players (two rounds),
/// every sheet stored with a scan of its own (`kb` kilobytes of noise).
fn venue(dir: &Path, name: &str, players: usize, seed: u64, kb: usize) -> PathBuf {
    let file = dir.join(format!("{name}.sqlite"));
    let sheets = write_night(&dir.join(format!("{name}-sheets")), players, seed);
    let mut archive = Archive::open(&file).expect("archive");
    let night = archive.tournament("Vorrunde", "merkur").expect("night");
    let date = chrono::NaiveDate::from_ymd_opt(2026, 1, 1 + seed as u32 % 28).expect("date");
    archive.date(night, date).expect("dated");
    let scans = dir.join(format!("{name}-scans"));
    aufsicht_lab::series::store_with_scans(&mut archive, night, &scans, sheets, (seed, kb))
        .expect("stored");
    file
}

fn push(venue: &Path, to: &str) -> Child {
    Command::new(env!("CARGO_BIN_EXE_aufsicht"))
        .args(["push", "--archive"])
        .arg(venue)
        .args(["--to", to])
        .env_remove("AUFSICHT_LANG")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("push")
}

fn pushed(child: Child) -> String {
    let out = child.wait_with_output().expect("push ran");
    assert!(
        out.status.success(),
        "push: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf8")
}

fn stdout_of(args: &[&str]) -> String {
    let out = aufsicht(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf8")
}

fn standings(archive: &str, night: &str) -> String {
    stdout_of(&[
        "standings",
        "--rules",
        "merkur",
        "--archive",
        archive,
        "--tournament",
        night,
        "--checks",
        "/dev/null",
    ])
}

/// How many sheets the central night `VENUE/Vorrunde` holds.
fn central_sheets(url: &str, venue: &str) -> i64 {
    let Ok(mut c) = postgres::Client::connect(url, postgres::NoTls) else {
        return 0;
    };
    let name = format!("{venue}/Vorrunde");
    c.query_one(
        "SELECT count(*) FROM sheets s JOIN tournaments t ON t.id = s.tournament_id WHERE t.name = $1",
        &[&name],
    )
    .map(|r| r.get::<_, i64>(0))
    .unwrap_or(0)
}

/// Waits (a minute at most) until the first of `venue`'s sheets is in the
/// central archive at `url`; when the wait began.
fn until_arrived(url: &str, venue: &str) -> Instant {
    let started = Instant::now();
    while central_sheets(url, venue) == 0 {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "nothing arrived"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    started
}

fn file_hash(path: &Path) -> String {
    sha256_file(path).expect("hash")
}

#[test]
fn five_venues_pushing_at_once_killed_and_again_should_give_one_season_with_nothing_lost() {
    let dir = temp("series");
    let url = shared().database("series");
    let names = ["Post", "Krone", "Linde", "Adler", "Hirsch"];
    let venues: Vec<PathBuf> = names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            // The first is the largest, its scans too: it is killed midway.
            let (players, kb) = if i == 0 { (96, 256) } else { (32, 8) };
            venue(&dir, n, players, 11 + i as u64, kb)
        })
        .collect();
    let total = |i: usize| {
        Archive::open(&venues[i])
            .expect("open")
            .sheets(1)
            .expect("sheets")
            .len() as i64
    };
    let hashes: Vec<String> = venues.iter().map(|v| file_hash(v)).collect();

    // Four at once; the first killed once its first sheets arrived.
    let mut children: Vec<Child> = venues[..4].iter().map(|v| push(v, &url)).collect();
    let started = Instant::now();
    while central_sheets(&url, names[0]) == 0 {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "nothing arrived"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    children[0].kill().expect("kill -9");
    children[0].wait().expect("reaped");
    let at_kill = central_sheets(&url, names[0]);
    assert!(
        at_kill < total(0),
        "the kill came after the push: {at_kill} of {}",
        total(0)
    );
    for child in children.drain(1..) {
        pushed(child);
    }
    pushed(push(&venues[0], &url));

    // The venue answers a value after its push, and pushes again.
    let answered = answer_after_push(&venues[1]);
    let again = pushed(push(&venues[1], &url));
    assert!(
        again.contains("neu gesendet: 0 Blätter, 0 Scans, 0 Lesungen, 1 Entscheidung, "),
        "{again}"
    );

    // Every venue once more: only the fifth sends anything.
    for (i, v) in venues.iter().enumerate() {
        let said = pushed(push(v, &url));
        if i < 4 {
            assert!(
                said.contains(
                    "neu gesendet: 0 Blätter, 0 Scans, 0 Lesungen, 0 Entscheidungen, 0 Protokollzeilen"
                ),
                "{said}"
            );
        }
    }

    let mut season_sum: BTreeMap<String, i64> = BTreeMap::new();
    let mut qualifiers: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (i, (v, name)) in venues.iter().zip(names).enumerate() {
        assert_eq!(central_sheets(&url, name), total(i), "{name}");
        let venue_file = v.to_str().expect("utf8");
        let own = standings(venue_file, "Vorrunde");
        let central = standings(&url, &format!("{name}/Vorrunde"));
        assert_eq!(central, own, "{name}'s standings");
        for (place, r) in rows(&own).into_iter().enumerate() {
            *season_sum.entry(r["player"].clone()).or_default() +=
                r["total"].parse::<i64>().expect("total");
            let date = format!("2026-01-{:02}", 1 + (11 + i) % 28);
            let line = qualifiers.entry(r["player"].clone()).or_default();
            if place < 2 {
                line.push(format!("{date} {name}/Vorrunde"));
            }
        }
        if i != 1 {
            assert_eq!(file_hash(v), hashes[i], "{name}'s archive changed");
        }
        assert_eq!(
            records(Path::new(&url), &format!("{name}/Vorrunde")),
            records(v, "Vorrunde"),
            "{name}'s records"
        );
    }
    assert_ne!(
        file_hash(&venues[1]),
        hashes[1],
        "the answer was kept at the venue"
    );
    let central = Archive::open(Path::new(&url)).expect("central");
    let night = central
        .pick_tournament(Some("Krone/Vorrunde"))
        .expect("night");
    let sheet = central
        .sheets(night)
        .expect("sheets")
        .into_iter()
        .find(|s| s.result.source == answered.0)
        .expect("the answered sheet");
    assert_eq!(value_at(&sheet.result, &answered.1), Some(answered.2));

    let club = dir.join("club.toml");
    std::fs::write(&club, "[season]\nqualify = 2\n").expect("club");
    let page = dir.join("season.html");
    let season = stdout_of(&[
        "season",
        "--archive",
        &url,
        "--club",
        club.to_str().expect("utf8"),
        "--page",
        page.to_str().expect("utf8"),
    ]);
    let lines = rows(&season);
    assert_eq!(lines.len(), season_sum.len());
    let html = std::fs::read_to_string(&page).expect("page");
    assert!(
        html.contains("Qualifiziert"),
        "the page names the qualifiers"
    );
    for line in lines {
        let mut nights: Vec<&str> = line["qualified"]
            .split(';')
            .filter(|n| !n.is_empty())
            .collect();
        nights.sort_unstable();
        let mut wanted: Vec<&str> = qualifiers[&line["player"]]
            .iter()
            .map(String::as_str)
            .collect();
        wanted.sort_unstable();
        assert_eq!(nights, wanted, "player {}", line["player"]);
        assert_eq!(
            line["total"].parse::<i64>().expect("total"),
            season_sum[&line["player"]],
            "player {}",
            line["player"]
        );
    }
}

/// Each sheet of a night (by its source) with how many readings,
/// decisions and trail lines its record holds.
fn records(archive: &Path, night: &str) -> BTreeMap<Option<String>, (usize, usize, usize)> {
    let archive = Archive::open_to_read(archive)
        .or_else(|_| Archive::open(archive))
        .expect("archive");
    let night = archive.pick_tournament(Some(night)).expect("night");
    archive
        .sheets(night)
        .expect("sheets")
        .into_iter()
        .map(|s| {
            let record = archive.record(s.id).expect("record");
            let trail = archive.trail(s.id).expect("trail").len();
            (
                s.result.source,
                (record.readings.len(), record.records.len(), trail),
            )
        })
        .collect()
}

/// The value at a contract path of a sheet (`games/NO/SEAT/plus`).
fn value_at(sheet: &SheetResult, path: &str) -> Option<i64> {
    let json: serde_json::Value = serde_json::from_str(&sheet.to_json_pretty()).expect("json");
    crate::desk::value_at(&json, path).as_i64()
}

/// Anna's decision at the venue on its sheet read from `source`.
fn decide_at(venue: &Path, source: &Option<String>, decision: Decision) {
    let mut archive = Archive::open(venue).expect("venue");
    let sheets = archive.sheets(1).expect("sheets");
    let sheet = sheets
        .iter()
        .find(|s| s.result.source == *source)
        .expect("sheet");
    let rules = aufsicht::RuleSet::load("merkur").expect("merkur");
    let check = |s| aufsicht::verify(s, &rules, aufsicht::Lang::De);
    archive
        .decide(sheet.id, "Anna", &[decision], None, &check)
        .expect("decided");
}

/// At the venue, its second sheet is found a copy of its first: the
/// two sheets' sources.
fn copy_at(venue: &Path) -> (Option<String>, Option<String>) {
    let mut archive = Archive::open(venue).expect("venue");
    let sheets = archive.sheets(1).expect("sheets");
    let (first, second) = (&sheets[0], &sheets[1]);
    let rules = aufsicht::RuleSet::load("merkur").expect("merkur");
    let check = |s| aufsicht::verify(s, &rules, aufsicht::Lang::De);
    let copy = Decision::Copy { of: Some(first.id) };
    archive
        .decide(second.id, "Anna", &[copy], None, &check)
        .expect("a copy");
    (first.result.source.clone(), second.result.source.clone())
}

/// A person at the venue answers that the paper says 5 more in a cell of
/// the first sheet; what was answered: the sheet's source, the path and
/// the value.
fn answer_after_push(venue: &Path) -> (Option<String>, String, i64) {
    let mut archive = Archive::open(venue).expect("venue");
    let sheet = archive.sheets(1).expect("sheets").remove(0);
    let path = "games/1/1/plus".to_string();
    let value = value_at(&sheet.result, &path).unwrap_or(0) + 5;
    let decision = Decision::Paper {
        path: path.clone(),
        value: value.into(),
    };
    let rules = aufsicht::RuleSet::load("merkur").expect("merkur");
    let check = |s| aufsicht::verify(s, &rules, aufsicht::Lang::De);
    archive
        .decide(sheet.id, "Anna", &[decision], None, &check)
        .expect("answered");
    (sheet.result.source, path, value)
}

#[test]
fn a_push_to_no_server_a_refused_login_or_no_postgres_address_should_be_one_german_line() {
    let dir = temp("push-refused");
    let venue = venue(&dir, "Post", 8, 3, 1);
    let before = file_hash(&venue);
    let cluster = shared();
    // Something that takes the connection and never says a word.
    let quiet = std::net::TcpListener::bind("127.0.0.1:0").expect("listen");
    let silent = format!(
        "postgres://postgres@{}",
        quiet.local_addr().expect("address")
    );
    let cases = [
        ("postgres://postgres@127.0.0.1:1/x", "antwortet nicht"),
        (
            &*format!("postgres://niemand@127.0.0.1:{}/postgres", cluster.port),
            "lehnt die Anmeldung ab",
        ),
        (
            &*dir.join("central.sqlite").display().to_string(),
            "kein zentrales Archiv",
        ),
        (&*format!("{silent}/x"), "antwortet kein PostgreSQL-Server"),
        (
            &*format!(
                "postgres://postgres@127.0.0.1:{}/postgres?sslmode=require",
                cluster.port
            ),
            "verlangt TLS",
        ),
    ];
    for (to, said) in cases {
        let out = aufsicht(&[
            "push",
            "--archive",
            venue.to_str().expect("utf8"),
            "--to",
            to,
        ]);
        assert!(!out.status.success(), "{to}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{to}: {err}");
        assert!(err.contains(said), "{to}: {err}");
    }
    assert_eq!(file_hash(&venue), before);
}

#[test]
fn a_server_stopped_in_the_middle_of_a_push_should_lose_nothing_and_the_next_push_complete() {
    let dir = temp("push-stopped");
    let cluster = Cluster::new();
    let url = cluster.database("stopped");
    let venue = venue(&dir, "Post", 96, 5, 256);
    let child = push(&venue, &url);
    until_arrived(&url, "Post");
    cluster.stop();
    let out = child.wait_with_output().expect("push ran");
    assert!(!out.status.success(), "the push went on without its server");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.contains("Verbindung zum PostgreSQL-Server ist abgebrochen"),
        "{err}"
    );
    cluster.start();
    pushed(push(&venue, &url));
    let own = standings(venue.to_str().expect("utf8"), "Vorrunde");
    assert_eq!(standings(&url, "Post/Vorrunde"), own);
    let central = Archive::open(Path::new(&url)).expect("central");
    assert!(central.check().expect("checked").damage.is_empty());
    assert_eq!(central.kept_scans().expect("scans").0, 48);
}

#[test]
fn the_central_desk_and_audit_should_hold_every_venues_night_and_its_decisions() {
    let dir = temp("series-desk");
    let url = shared().database("desk");
    let (post, krone) = (
        venue(&dir, "Post", 8, 21, 1),
        venue(&dir, "Krone", 8, 22, 1),
    );
    // At Krone the second sheet is found a copy of the first.
    let (original, copy) = copy_at(&krone);
    pushed(push(&post, &url));
    pushed(push(&krone, &url));

    let desk = crate::desk::Desk::start(Path::new(&url));
    let nights = desk.json("/api/nights");
    let mut seen: Vec<(String, String)> = nights
        .as_array()
        .expect("nights")
        .iter()
        .map(|n| {
            (
                n["venue"].as_str().expect("venue").into(),
                n["name"].as_str().expect("name").into(),
            )
        })
        .collect();
    seen.sort();
    let vorrunde = |v: &str| (v.to_string(), "Vorrunde".to_string());
    assert_eq!(seen, [vorrunde("Krone"), vorrunde("Post")]);

    // The central desk answers a cell of Post's first sheet.
    let queue = desk.json("/api/sheets?tournament=Post/Vorrunde");
    let first = &queue.as_array().expect("queue")[0];
    let (id, version) = (
        first["id"].as_i64().expect("id"),
        first["version"].to_string(),
    );
    let body =
        serde_json::json!({"by": "Zentrale", "values": [{"path": "games/2/1/plus", "value": 77}]});
    let headers = [
        ("Content-Type", "application/json"),
        ("If-Match", version.as_str()),
    ];
    let (status, _, said) = desk.call(
        "POST",
        &format!("/api/sheets/{id}/values"),
        &headers,
        &body.to_string(),
    );
    assert_eq!(status, 200, "{said}");
    // The desk killed while a third venue pushes: the push completes.
    let linde = venue(&dir, "Linde", 8, 23, 1);
    let third = push(&linde, &url);
    drop(desk);
    pushed(third);
    let again = crate::desk::Desk::start(Path::new(&url));
    assert_eq!(
        again.json("/api/nights").as_array().expect("nights").len(),
        3
    );
    drop(again);

    // Then the venue answers another cell of that sheet and pushes again:
    // both decisions stand in the central archive.
    let source = first["source"].as_str().expect("source").to_string();
    let answer = Decision::Paper {
        path: "games/3/1/plus".into(),
        value: 55.into(),
    };
    decide_at(&post, &Some(source.clone()), answer);
    pushed(push(&post, &url));
    let central = Archive::open(Path::new(&url)).expect("central");
    let night = central
        .pick_tournament(Some("Post/Vorrunde"))
        .expect("night");
    let stands = central
        .sheet(night, id)
        .expect("read")
        .expect("sheet")
        .result;
    assert_eq!(value_at(&stands, "games/2/1/plus"), Some(77));
    assert_eq!(value_at(&stands, "games/3/1/plus"), Some(55));
    let record = central.record(id).expect("record");
    let by: Vec<&str> = record.records.iter().map(|r| r.by.as_str()).collect();
    assert_eq!(by, ["Zentrale", "Anna"]);

    // Krone's copy names the central sheet it copies, in its record, its
    // trail and as it stands; the night ranks as at Krone.
    let night = central
        .pick_tournament(Some("Krone/Vorrunde"))
        .expect("night");
    let central_id = |source: &Option<String>| {
        let sheets = central.sheets(night).expect("sheets");
        sheets
            .into_iter()
            .find(|s| s.result.source == *source)
            .expect("there")
            .id
    };
    let (was, is) = (central_id(&original), central_id(&copy));
    let copied = central
        .sheet(night, is)
        .expect("read")
        .expect("sheet")
        .result;
    assert_eq!(copied.notes.copy_of.map(|c| c.of), Some(was));
    let record = central.record(is).expect("record");
    assert_eq!(
        record.records.last().map(|r| &r.decision),
        Some(&Decision::Copy { of: Some(was) })
    );
    let trail = central.trail(is).expect("trail");
    let line = trail
        .iter()
        .find(|l| l.field == "copy_of")
        .expect("the copy's line");
    assert_eq!(line.new.as_deref(), Some(&*was.to_string()));
    assert_eq!(
        standings(&url, "Krone/Vorrunde"),
        standings(krone.to_str().expect("utf8"), "Vorrunde")
    );

    // A complaint: player 100 sat in every venue.
    let out = dir.join("audit.json");
    let run = aufsicht(&[
        "audit",
        "--archive",
        &url,
        "--player",
        "100",
        "--format",
        "json",
        "--out",
        out.to_str().expect("utf8"),
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let audit: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).expect("audit")).expect("json");
    let mut names: Vec<&str> = audit["nights"]
        .as_array()
        .expect("nights")
        .iter()
        .map(|n| n["name"].as_str().expect("name"))
        .collect();
    names.sort_unstable();
    assert_eq!(names, ["Krone/Vorrunde", "Linde/Vorrunde", "Post/Vorrunde"]);
    assert_eq!(
        audit["sheets"].as_array().expect("sheets").len(),
        6,
        "two rounds in each venue"
    );
}

#[test]
fn every_command_that_takes_an_archive_file_should_take_a_server() {
    let dir = temp("series-commands");
    let url = shared().database("commands");
    let out = dir.join("out");
    let scan = crate::common::root().join("samples/scans/merkur-scanner.jpg");
    let scan = scan.to_str().expect("utf8");
    let (o, u) = (out.to_str().expect("utf8"), url.as_str());
    let tournament = ["--tournament", "Probe"];
    stdout_of(
        &[
            &["scan", "--rules", "merkur", "--archive", u, "--out", o][..],
            &tournament,
            &[scan],
        ]
        .concat(),
    );
    let export = dir.join("export");
    let e = export.to_str().expect("utf8");
    stdout_of(&[
        "export",
        "--archive",
        u,
        "--tournament",
        "Probe",
        "--out",
        e,
    ]);
    let result = std::fs::read_dir(&export)
        .expect("exported")
        .flatten()
        .map(|f| f.path())
        .find(|p| p.extension().is_some_and(|x| x == "json"))
        .expect("a sheet's JSON");
    let mut sheet: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&result).expect("read")).expect("json");
    sheet["players"][0] = serde_json::json!("4711");
    let fixed = dir.join("fixed.json");
    std::fs::write(&fixed, sheet.to_string()).expect("write");
    let f = fixed.to_str().expect("utf8");
    stdout_of(&[
        "correct",
        "--archive",
        u,
        "--tournament",
        "Probe",
        "--by",
        "AB",
        f,
    ]);
    let central = Archive::open(Path::new(&url)).expect("central");
    let night = central.pick_tournament(Some("Probe")).expect("night");
    let stored = central.sheets(night).expect("sheets").remove(0).result;
    assert_eq!(stored.players[0].as_deref(), Some("4711"));
    assert!(
        central.kept_scans().expect("scans").0 == 1,
        "the scan is kept in the server"
    );
    stdout_of(&[
        "writers",
        "--rules",
        "merkur",
        "--archive",
        u,
        "--format",
        "csv",
    ]);
    let checked = aufsicht(&["archive", "check", u]);
    let said = String::from_utf8_lossy(&checked.stderr);
    assert!(checked.status.success(), "{said}");
    assert!(said.contains("1 Scan und 1 Liste geprüft"), "{said}");
    let copy = dir.join("copy.sqlite");
    let refused = aufsicht(&["archive", "backup", u, copy.to_str().expect("utf8")]);
    assert!(!refused.status.success());
    let said = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(said.trim().lines().count(), 1, "{said}");
    assert!(said.contains("pg_dump"), "{said}");
}

#[test]
fn two_venues_pushing_under_one_name_or_one_night_under_two_should_be_refused() {
    let dir = temp("series-one-name");
    let url = shared().database("onename");
    let (a, b) = (dir.join("a"), dir.join("b"));
    std::fs::create_dir_all(&a).expect("a");
    std::fs::create_dir_all(&b).expect("b");
    // Both keep the scan's default archive name.
    let first = venue(&a, "aufsicht", 8, 31, 1);
    let second = venue(&b, "aufsicht", 8, 32, 1);
    let push_as = |venue: &Path, name: Option<&str>| {
        let mut args = vec![
            "push",
            "--archive",
            venue.to_str().expect("utf8"),
            "--to",
            &url,
        ];
        args.extend(name.map(|n| ["--venue", n]).into_iter().flatten());
        aufsicht(&args)
    };
    let one_line = |out: &std::process::Output, part: &str| {
        assert!(!out.status.success());
        let said = String::from_utf8_lossy(&out.stderr);
        assert_eq!(said.trim().lines().count(), 1, "{said}");
        assert!(said.contains(part), "{said}");
    };
    // Without --venue, the default name names no venue.
    one_line(
        &push_as(&first, None),
        "mit --venue NAME den Spielort nennen",
    );
    assert!(push_as(&first, Some("Post")).status.success());
    // The second laptop under the first one's name: refused, not merged.
    one_line(&push_as(&second, Some("Post")), "eines anderen Spielorts");
    assert_eq!(
        central_sheets(&url, "Post"),
        4,
        "nothing of the second arrived"
    );
    // The first laptop's night again under another name: it would count twice.
    one_line(
        &push_as(&first, Some("Gasthof Post")),
        "steht im zentralen Archiv schon als „Post/Vorrunde“",
    );
    assert_eq!(central_sheets(&url, "Gasthof Post"), 0);
    assert!(push_as(&second, Some("Krone")).status.success());
    assert_eq!(central_sheets(&url, "Krone"), 4);
}

#[test]
fn a_reading_made_centrally_should_stand_after_the_venues_next_push() {
    let dir = temp("series-reading");
    let url = shared().database("reading");
    let post = venue(&dir, "Post", 8, 41, 1);
    pushed(push(&post, &url));
    let rules = aufsicht::RuleSet::load("merkur").expect("merkur");
    let check = |s| aufsicht::verify(s, &rules, aufsicht::Lang::De);
    // The central desk reads the first sheet again: game 4 reads 99.
    let mut central = Archive::open(Path::new(&url)).expect("central");
    let night = central
        .pick_tournament(Some("Post/Vorrunde"))
        .expect("night");
    let first = central.sheets(night).expect("sheets").remove(0);
    let mut json: serde_json::Value =
        serde_json::from_str(&first.result.to_json_pretty()).expect("json");
    let games = json["games"].as_array_mut().expect("games");
    let game = games.iter_mut().find(|g| g["no"] == 4).expect("game 4");
    game["cells"][0]["plus"] = serde_json::json!(99);
    let reading = SheetResult::from_json("reading", &json.to_string()).expect("a result");
    central
        .add_reading(first.id, &reading, &check)
        .expect("read again");
    drop(central);
    // The venue answers game 3 and pushes: both stand.
    let answer = Decision::Paper {
        path: "games/3/1/plus".into(),
        value: 55.into(),
    };
    decide_at(&post, &first.result.source, answer);
    pushed(push(&post, &url));
    let central = Archive::open(Path::new(&url)).expect("central");
    let stands = central
        .sheet(night, first.id)
        .expect("read")
        .expect("sheet")
        .result;
    assert_eq!(value_at(&stands, "games/4/1/plus"), Some(99));
    assert_eq!(value_at(&stands, "games/3/1/plus"), Some(55));
}

#[test]
fn an_older_venue_archive_or_a_newer_central_one_should_be_one_german_line_and_change_nothing() {
    let dir = temp("push-versions");
    let old = dir.join("alt.sqlite");
    let fixture = crate::common::root().join("tests/fixtures/archive/schema-7.sqlite");
    std::fs::copy(&fixture, &old).expect("copy");
    let before = file_hash(&old);
    let url = shared().database("versions");
    let refuse = |venue: &Path, said: &str| {
        let out = aufsicht(&[
            "push",
            "--archive",
            venue.to_str().expect("utf8"),
            "--to",
            &url,
        ]);
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(err.contains(said), "{err}");
    };
    refuse(&old, "ältere Format 7");
    assert_eq!(file_hash(&old), before, "the venue's archive changed");
    // A central archive a newer release wrote.
    let new = venue(&dir, "Post", 8, 51, 1);
    pushed(push(&new, &url));
    let mut c = postgres::Client::connect(&url, postgres::NoTls).expect("connect");
    c.batch_execute("UPDATE schema_version SET version = 99")
        .expect("newer");
    refuse(&new, "neueren Version");
}

/// A push whose address holds no password: it comes from `PGPASSWORD`.
fn push_with(venue: &Path, to: &str, password: Option<&str>) -> std::process::Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_aufsicht"));
    c.args(["push", "--archive"]).arg(venue).args(["--to", to]);
    c.env_remove("AUFSICHT_LANG").env_remove("PGPASSWORD");
    c.env("PGPASSFILE", "/nonexistent");
    if let Some(p) = password {
        c.env("PGPASSWORD", p);
    }
    c.output().expect("push")
}

#[test]
fn a_password_should_come_from_pgpassword_and_never_be_printed() {
    let dir = temp("push-password");
    let cluster = Cluster::with_password("Geheim-7x");
    let url = cluster.database("cup");
    assert!(!url.contains("Geheim"), "{url}");
    let venue = venue(&dir, "Post", 8, 3, 1);
    let out = push_with(&venue, &url, Some("Geheim-7x"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for (password, said) in [
        (None, "verlangt ein Passwort"),
        (Some("falsch-42"), "lehnt die Anmeldung ab"),
    ] {
        let out = push_with(&venue, &url, password);
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(err.contains(said), "{err}");
        assert!(
            !err.contains("falsch-42") && !err.contains("Geheim"),
            "{err}"
        );
    }
}

/// Stops or lets go on process `pid` (SIGSTOP, SIGCONT).
fn signal(pid: u32, which: &str) {
    let ok = Command::new("kill")
        .args([which, &pid.to_string()])
        .status()
        .expect("kill");
    assert!(ok.success());
}

#[test]
fn a_push_stopped_in_its_transaction_should_not_stop_another_venues() {
    let dir = temp("push-stalled");
    let cluster = Cluster::new();
    let url = cluster.database("stalled");
    let (post, krone) = (
        venue(&dir, "Post", 96, 5, 256),
        venue(&dir, "Krone", 16, 6, 1),
    );
    let stalled = push(&post, &url);
    let started = until_arrived(&url, "Post");
    // A laptop's lid closed in the middle of its push: stopped where it
    // holds the write lock (inside a transaction).
    let held = |url: &str| {
        let mut c = postgres::Client::connect(url, postgres::NoTls).expect("connect");
        let row = c
            .query_one(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted",
                &[],
            )
            .expect("locks");
        row.get::<_, i64>(0) > 0
    };
    loop {
        signal(stalled.id(), "-STOP");
        if held(&url) {
            break;
        }
        signal(stalled.id(), "-CONT");
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "never caught inside"
        );
    }
    let started = Instant::now();
    let other = push(&krone, &url).wait_with_output().expect("push ran");
    let took = started.elapsed();
    signal(stalled.id(), "-CONT");
    assert!(
        other.status.success(),
        "{}",
        String::from_utf8_lossy(&other.stderr)
    );
    assert!(took < Duration::from_secs(90), "{took:?}");
    // The stalled one, woken, ends (its session was ended) or completes;
    // pushed again, its night arrives whole.
    let _ = stalled.wait_with_output();
    pushed(push(&post, &url));
    let own = standings(post.to_str().expect("utf8"), "Vorrunde");
    assert_eq!(standings(&url, "Post/Vorrunde"), own);
}

#[test]
fn a_central_desk_should_answer_again_soon_after_its_server_restarted() {
    let dir = temp("desk-restart");
    let cluster = Cluster::new();
    let url = cluster.database("restart");
    pushed(push(&venue(&dir, "Post", 8, 3, 1), &url));
    let desk = crate::desk::Desk::start_in("de", Path::new(&url), &[]);
    let sheets = |desk: &crate::desk::Desk| desk.call("GET", "/api/sheets", &[], "").0;
    assert_eq!(sheets(&desk), 200);
    cluster.stop();
    assert_ne!(sheets(&desk), 200, "no server, no sheets");
    cluster.start();
    let back = Instant::now();
    while sheets(&desk) != 200 {
        assert!(
            back.elapsed() < Duration::from_secs(15),
            "the desk never came back"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn the_same_scans_in_a_new_archive_under_another_venue_should_be_refused() {
    let dir = temp("push-same-scans");
    let cluster = shared();
    let url = cluster.database("same_scans");
    pushed(push(&venue(&dir.join("a"), "Post", 8, 3, 1), &url));
    // A new archive of the same scans (the same papers), named otherwise.
    let again = venue(&dir.join("b"), "Krone", 8, 3, 1);
    let out = push(&again, &url).wait_with_output().expect("push ran");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.contains("Post/Vorrunde") && err.contains("doppelt"),
        "{err}"
    );
    assert_eq!(central_sheets(&url, "Krone"), 0);
}
