//! `aufsicht standings` run as a binary on a typed night (32 players, two
//! rounds), checked against totals summed here from the sheets, and on a
//! night with the inconsistencies a supervisor must hear about.

use std::collections::BTreeMap;
use std::path::Path;

use crate::common::{aufsicht, aufsicht_en, temp};

use aufsicht::page::form::FormTemplate;
use aufsicht::{Lang, RuleSet, SheetResult};

/// Writes a legal, verified night: `players` at tables of four, each round seated anew.
pub(crate) fn write_night(dir: &Path, players: usize, seed: u64) -> Vec<SheetResult> {
    let rules = RuleSet::load("merkur").expect("merkur");
    let form = FormTemplate::load("punkteliste-a4-32").expect("form");
    let ids: Vec<String> = (0..players).map(|i| format!("{}", 100 + i * 7)).collect();
    let mut sheets = Vec::new();
    for round in 1..=2u32 {
        let round_dir = dir.join(format!("runde{round}"));
        std::fs::create_dir_all(&round_dir).expect("round dir");
        // Round 2 seats every fourth player together (a different mix).
        let order: Vec<&String> = if round == 1 {
            ids.iter().collect()
        } else {
            (0..4).flat_map(|k| ids.iter().skip(k).step_by(4)).collect()
        };
        for (t, table) in order.chunks(4).enumerate() {
            let mut rng = aufsicht_lab::synth::rng(seed + u64::from(round) * 100 + t as u64);
            let mut sheet = aufsicht_lab::synth::random_sheet(&rules, &form, 4, &mut rng);
            sheet.round = Some(round);
            sheet.table = Some(t as u32 + 1);
            for (slot, id) in sheet.players.iter_mut().zip(table) {
                *slot = Some((*id).clone());
            }
            let stem = format!("r{round}-t{:02}", t + 1);
            sheet.source = Some(format!("{stem}.png"));
            let sheet = aufsicht::verify(sheet, &rules, Lang::En).expect("verify");
            std::fs::write(
                round_dir.join(format!("{stem}.json")),
                sheet.to_json_pretty(),
            )
            .expect("write sheet");
            sheets.push(sheet);
        }
    }
    sheets
}

pub(crate) fn rows(csv: &str) -> Vec<BTreeMap<String, String>> {
    let mut lines = csv.lines();
    let header: Vec<String> = lines
        .next()
        .expect("header")
        .split(',')
        .map(String::from)
        .collect();
    lines
        .map(|l| {
            header
                .iter()
                .cloned()
                .zip(l.split(',').map(String::from))
                .collect()
        })
        .collect()
}

#[test]
fn a_typed_night_should_rank_every_player_by_total_then_tie_breaks() {
    let dir = temp("night");
    let sheets = write_night(&dir, 32, 11);
    let out = aufsicht(&[
        "standings",
        "--rules",
        "merkur",
        dir.join("runde1").to_str().expect("utf8"),
        dir.join("runde2").to_str().expect("utf8"),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let csv = String::from_utf8(out.stdout).expect("utf8");
    let table = rows(&csv);
    assert_eq!(table.len(), 32);

    // Totals and round results summed here, by participant number.
    let mut expected: BTreeMap<String, (i64, [i64; 2])> = BTreeMap::new();
    for s in &sheets {
        for (id, end) in s.players.iter().zip(&s.endergebnis) {
            let (Some(id), Some(end)) = (id, end) else {
                continue;
            };
            let e = expected.entry(id.clone()).or_default();
            e.0 += end;
            e.1[s.round.expect("round") as usize - 1] += end;
        }
    }
    for row in &table {
        let (total, rounds) = expected[&row["player"]];
        assert_eq!(row["total"], total.to_string(), "{row:?}");
        assert_eq!(row["round_1"], rounds[0].to_string());
        assert_eq!(row["round_2"], rounds[1].to_string());
        assert_eq!(row["review"], "", "a legal night has nothing to review");
    }

    // Rank order: total, then the tie-break columns in order; equal lines share a rank.
    let key = |r: &BTreeMap<String, String>| -> Vec<i64> {
        [
            "total",
            "tout_won",
            "tout_played",
            "solo_won",
            "solo_played",
        ]
        .iter()
        .map(|c| r[*c].parse::<i64>().expect("number"))
        .collect()
    };
    for (i, pair) in table.windows(2).enumerate() {
        let (a, b) = (key(&pair[0]), key(&pair[1]));
        assert!(a >= b, "row {i} ranked before a better one");
        let (ra, rb) = (&pair[0]["rank"], &pair[1]["rank"]);
        if a == b {
            assert_eq!(ra, rb);
        } else {
            assert_eq!(rb, &(i + 2).to_string());
        }
    }
    let checks = std::fs::read_to_string(dir.join("runde1/standings-checks.csv")).expect("checks");
    assert_eq!(checks.lines().count(), 1, "only the header: {checks}");
}

#[test]
fn night_inconsistencies_should_be_reported_and_nothing_dropped() {
    let dir = temp("night-bad");
    write_night(&dir, 8, 5);
    let r2 = dir.join("runde2");
    // A sheet scanned twice (same round and table), a participant number
    // misread, and a file that is not a sheet result.
    std::fs::copy(r2.join("r2-t01.json"), r2.join("r2-t01-again.json")).expect("copy");
    let path = r2.join("r2-t02.json");
    let mut sheet = SheetResult::from_path(&path).expect("sheet");
    sheet.players[0] = None;
    std::fs::write(&path, sheet.to_json_pretty()).expect("write");
    std::fs::write(r2.join("notes.json"), "{ not json").expect("write");

    let checks = dir.join("checks.csv");
    let out = aufsicht(&[
        "standings",
        "--rules",
        "merkur",
        "--checks",
        checks.to_str().expect("utf8"),
        dir.join("runde1").to_str().expect("utf8"),
        r2.to_str().expect("utf8"),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("notes.json"), "{stderr}");
    let checks = std::fs::read_to_string(&checks).expect("checks file");
    // The paper scanned twice counts once: its players are not twice in
    // the round, but the table and the paper are named twice.
    for kind in [
        "TABLE_TWICE",
        "SHEET_TWICE",
        "PLAYER_ID_UNREADABLE",
        "PLAYER_MISSING_ROUND",
    ] {
        assert!(checks.contains(kind), "{kind} missing in {checks}");
        assert!(stderr.contains(kind), "{kind} missing on stderr");
    }
}

#[test]
fn standings_without_results_should_say_what_to_do() {
    let dir = temp("night-empty");
    let out = aufsicht(&[
        "standings",
        "--rules",
        "merkur",
        dir.to_str().expect("utf8"),
    ]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("aufsicht scan"), "{stderr}");
}

#[test]
fn with_the_participant_list_a_lost_sheet_and_an_unregistered_number_should_be_checks() {
    let dir = temp("night-list");
    write_night(&dir, 8, 7);
    // Players are 100, 107, …, 149; 200 registered but never came, and a
    // round-2 sheet is lost.
    let list = dir.join("list.csv");
    let mut numbers: Vec<String> = (0..8).map(|i| format!("{}", 100 + i * 7)).collect();
    numbers.push("200".into());
    std::fs::write(&list, format!("nr,name\n{}\n", numbers.join(",x\n"))).expect("list");
    std::fs::remove_file(dir.join("runde2/r2-t02.json")).expect("lose a sheet");
    let checks = dir.join("checks.csv");
    let out = aufsicht_en(&[
        "standings",
        "--rules",
        "merkur",
        "--participants",
        list.to_str().expect("utf8"),
        "--checks",
        checks.to_str().expect("utf8"),
        dir.join("runde1").to_str().expect("utf8"),
        dir.join("runde2").to_str().expect("utf8"),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let checks = std::fs::read_to_string(&checks).expect("checks file");
    assert!(
        checks.contains("REGISTERED_WITHOUT_SHEET") && checks.contains("player 200 "),
        "{checks}"
    );
    assert!(!checks.contains("PLAYER_NOT_REGISTERED"), "{checks}");
    // The lost sheet's players are missing from round 2.
    assert!(checks.contains("PLAYER_MISSING_ROUND"), "{checks}");

    let bad = dir.join("empty.csv");
    std::fs::write(&bad, "nr\n").expect("write");
    let out = aufsicht(&[
        "standings",
        "--rules",
        "merkur",
        "--participants",
        bad.to_str().expect("utf8"),
        dir.join("runde1").to_str().expect("utf8"),
    ]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("Teilnehmerliste"),
        "in German by default: {stderr}"
    );
}

/// Three dated nights in one archive (the same 16 players; a 17th only
/// in the first): the season adds each player's night totals as
/// `standings` ranks each night, in date order, and the club's file
/// counts the best two and ranks only those with all three nights.
#[test]
fn a_season_should_add_each_nights_standings_in_date_order_under_the_club_rule() {
    let dir = temp("season");
    let file = dir.join("club.sqlite");
    let mut archive = aufsicht::night::club::archive::Archive::open(&file).expect("archive");
    let mut per_night: Vec<BTreeMap<String, i64>> = Vec::new();
    // Stored out of date order: the season puts them in order.
    for (n, (name, date, players)) in [
        ("Februar", "2026-02-14", 16),
        ("Januar", "2026-01-10", 20),
        ("März", "2026-03-07", 16),
    ]
    .into_iter()
    .enumerate()
    {
        let night_dir = dir.join(name);
        let sheets = write_night(&night_dir, players, 40 + n as u64);
        let t = archive.tournament(name, "merkur").expect("night");
        let date = chrono::NaiveDate::parse_from_str(date, "%Y-%m-%d").expect("date");
        archive.date(t, date).expect("dated");
        for (i, sheet) in sheets.into_iter().enumerate() {
            let sha = format!("{n}{i:063}");
            let stored = [(format!("{name}-{i}.json"), sheet)];
            archive.store_file(t, &sha, None, &stored).expect("store");
        }
        let csv = aufsicht(&[
            "standings",
            "--rules",
            "merkur",
            night_dir.to_str().expect("utf8"),
        ]);
        assert!(
            csv.status.success(),
            "{}",
            String::from_utf8_lossy(&csv.stderr)
        );
        let totals = rows(&String::from_utf8_lossy(&csv.stdout))
            .into_iter()
            .map(|r| {
                (
                    r["player"].clone(),
                    r["total"].parse::<i64>().expect("total"),
                )
            })
            .collect();
        per_night.push(totals);
    }
    drop(archive);
    let [feb, jan, mar] = [&per_night[0], &per_night[1], &per_night[2]];
    let a = file.to_str().expect("utf8");
    let out = aufsicht(&["season", "--archive", a]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let season = rows(&String::from_utf8_lossy(&out.stdout));
    let head: Vec<&String> = season[0].keys().collect();
    assert!(head.contains(&&"2026-01-10 Januar".to_string()), "{head:?}");
    assert_eq!(season.len(), 20);
    for line in &season {
        let p = &line["player"];
        let want: i64 = [jan, feb, mar].iter().filter_map(|n| n.get(p)).sum();
        assert_eq!(line["total"].parse::<i64>().expect("total"), want, "{p}");
        assert_eq!(
            line["2026-02-14 Februar"],
            feb.get(p).map(i64::to_string).unwrap_or_default()
        );
    }
    let club = dir.join("club.toml");
    std::fs::write(&club, "[season]\nbest = 2\nmin_nights = 3\n").expect("club");
    let out = aufsicht(&[
        "season",
        "--archive",
        a,
        "--club",
        club.to_str().expect("utf8"),
    ]);
    let season = rows(&String::from_utf8_lossy(&out.stdout));
    for line in &season {
        let p = &line["player"];
        let mut nights: Vec<i64> = [jan, feb, mar]
            .iter()
            .filter_map(|n| n.get(p).copied())
            .collect();
        nights.sort_unstable_by(|a, b| b.cmp(a));
        let best: i64 = nights.iter().take(2).sum();
        assert_eq!(line["total"].parse::<i64>().expect("total"), best, "{p}");
        assert_eq!(line["rank"].is_empty(), nights.len() < 3, "{p}: {line:?}");
    }
    let page = dir.join("season.html");
    let paged = aufsicht_en(&[
        "season",
        "--archive",
        a,
        "--page",
        page.to_str().expect("utf8"),
    ]);
    assert!(
        paged.status.success(),
        "{}",
        String::from_utf8_lossy(&paged.stderr)
    );
    let html = std::fs::read_to_string(&page).expect("page");
    assert!(html.contains("<h1>Season table</h1>") && html.contains("<th>2026-03-07 März</th>"));
    assert_eq!(
        html.matches("<tr>").count(),
        21,
        "the header and every player"
    );
    let only = aufsicht(&["season", "--archive", a, "--from", "2026-02-01"]);
    let head = String::from_utf8_lossy(&only.stdout)
        .lines()
        .next()
        .unwrap_or("")
        .to_string();
    assert!(
        !head.contains("Januar") && head.contains("Februar"),
        "{head}"
    );
    let bad = aufsicht_en(&["season", "--archive", a, "--to", "März"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("März is no date"));
}

/// `standings` run to its end: its CSV.
fn standings_csv(args: &[&str]) -> String {
    let out = aufsicht(args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).to_string()
}

#[test]
fn a_season_exported_and_read_back_should_rank_each_night_as_the_archive_does() {
    let dir = temp("export-season");
    let file = dir.join("club.sqlite");
    let mut archive = aufsicht::night::club::archive::Archive::open(&file).expect("archive");
    for (n, (name, date)) in [
        ("Februar / Fasching", "2026-02-14"),
        ("Januar", "2026-01-10"),
    ]
    .into_iter()
    .enumerate()
    {
        let sheets = write_night(&dir.join(format!("typed-{n}")), 16, 60 + n as u64);
        let t = archive.tournament(name, "merkur").expect("night");
        let date = chrono::NaiveDate::parse_from_str(date, "%Y-%m-%d").expect("date");
        archive.date(t, date).expect("dated");
        for (i, sheet) in sheets.into_iter().enumerate() {
            let stored = [(format!("{n}-{i}.json"), sheet)];
            archive
                .store_file(t, &format!("{n}{i:063}"), None, &stored)
                .expect("store");
        }
    }
    drop(archive);
    let a = file.to_str().expect("utf8");
    let out = dir.join("export");
    let done = aufsicht(&[
        "export",
        "--archive",
        a,
        "--season",
        "--out",
        out.to_str().expect("utf8"),
    ]);
    assert!(
        done.status.success(),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
    let nights = rows(&std::fs::read_to_string(out.join("nights.csv")).expect("nights.csv"));
    let listed: Vec<(&str, &str)> = nights
        .iter()
        .map(|n| (n["folder"].as_str(), n["date"].as_str()))
        .collect();
    assert_eq!(
        listed,
        [
            ("2026-01-10-Januar", "2026-01-10"),
            ("2026-02-14-Februar---Fasching", "2026-02-14")
        ]
    );
    for night in &nights {
        let folder = out.join(&night["folder"]);
        let read_back = standings_csv(&[
            "standings",
            "--rules",
            "merkur",
            folder.to_str().expect("utf8"),
        ]);
        let from_archive = standings_csv(&[
            "standings",
            "--rules",
            "merkur",
            "--archive",
            a,
            "--tournament",
            &night["date"],
        ]);
        assert_eq!(read_back, from_archive, "{}", night["folder"]);
        assert_eq!(rows(&read_back).len(), 16);
        assert_eq!(night["sheets"], "8");
    }
}

/// The rows of a standings CSV by player: the total and the review.
fn by_player(csv: &str) -> BTreeMap<String, (i64, String)> {
    let mut lines = csv.lines();
    let head: Vec<&str> = lines.next().expect("header").split(',').collect();
    let at = |name: &str| head.iter().position(|h| *h == name).expect(name);
    lines
        .map(|l| l.split(',').collect::<Vec<_>>())
        .map(|c| {
            let total = c[at("total")].parse().expect("total");
            (
                c[at("player")].to_string(),
                (total, c[at("review")].to_string()),
            )
        })
        .collect()
}

#[test]
fn the_merkur_scan_and_its_fax_should_count_once_as_the_same_paper() {
    let out = temp("twice");
    crate::common::scan_flagged_samples(&out);
    let checks = out.join("checks.csv");
    let run = aufsicht(&[
        "standings",
        "--rules",
        "merkur",
        "--checks",
        checks.to_str().expect("utf8"),
        out.to_str().expect("utf8"),
    ]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    let csv = String::from_utf8_lossy(&run.stdout);
    let players = by_player(&csv);
    assert_eq!(players["27"].0, 27, "{csv}");
    assert_eq!(players.len(), 4, "{csv}");
    let checks = std::fs::read_to_string(&checks).expect("checks");
    assert!(checks.contains("SHEET_TWICE"), "{checks}");
    assert!(checks.contains("TABLE_TWICE"), "{checks}");
    for never in ["ROWS_COPIED", "PLAYER_TWICE_IN_ROUND"] {
        assert!(!checks.contains(never), "{never}: {checks}");
    }
    // A person reads the sheets by round and table, not by file.
    let messages: Vec<&str> = checks
        .lines()
        .skip(1)
        .filter_map(|l| l.rsplit_once(",\""))
        .map(|(_, m)| m)
        .collect();
    assert!(
        messages
            .iter()
            .all(|m| !m.contains(".tif") && !m.contains(".jpg")),
        "{checks}"
    );
    assert!(messages.iter().any(|m| m.contains("R1 T30")), "{checks}");
}

#[test]
fn a_ranking_with_a_sheet_in_doubt_should_say_provisional_and_mark_its_players() {
    let out = temp("provisional");
    crate::common::scan_samples(&out, &["merkur-scanner.jpg"]);
    let run = aufsicht(&[
        "standings",
        "--rules",
        "merkur",
        out.to_str().expect("utf8"),
    ]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    let csv = String::from_utf8_lossy(&run.stdout);
    assert!(
        csv.lines()
            .next()
            .expect("header")
            .ends_with(",review,status"),
        "{csv}"
    );
    assert!(
        csv.lines().skip(1).all(|l| l.ends_with(",vorläufig")),
        "{csv}"
    );
    assert!(stderr.contains("SHEETS_IN_DOUBT"), "{stderr}");

    // A night with nothing open is final.
    let dir = temp("final");
    write_night(&dir, 8, 5);
    let round = dir.join("runde1");
    let csv = standings_csv(&[
        "standings",
        "--rules",
        "merkur",
        round.to_str().expect("utf8"),
    ]);
    assert!(
        csv.lines().skip(1).all(|l| l.ends_with(",Endergebnis")),
        "{csv}"
    );
}
