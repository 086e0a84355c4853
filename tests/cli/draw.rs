//! `draw`: the registered list checked, every round seated, nobody met
//! twice where the numbers allow it, the same seed the same draw.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::common::{aufsicht, aufsicht_en, temp};

fn list(dir: &Path, name: &str, players: usize, sep: char) -> String {
    let mut text = format!("number{sep}name{sep}club\n");
    for i in 1..=players {
        text.push_str(&format!(
            "{:04}{sep}Spieler {i}{sep}SK {}\n",
            100 + i,
            i % 3
        ));
    }
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write list");
    path.display().to_string()
}

/// Runs the binary (English), which must succeed: its stdout.
fn run(args: &[&str]) -> String {
    let out = aufsicht_en(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?}: {err}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The seating file's rows: (round, table) → its players in seat order.
fn tables(seating: &Path) -> BTreeMap<(u32, u32), Vec<String>> {
    let text = std::fs::read_to_string(seating).expect("seating");
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("round,table,seat,player"));
    let mut out: BTreeMap<(u32, u32), Vec<String>> = BTreeMap::new();
    for line in lines {
        let f: Vec<&str> = line.split(',').collect();
        let key = (f[0].parse().expect("round"), f[1].parse().expect("table"));
        let seats = out.entry(key).or_default();
        assert_eq!(f[2].parse::<usize>().expect("seat"), seats.len() + 1);
        seats.push(f[3].to_string());
    }
    out
}

/// Checks every round seats every listed player once; the most often
/// two players meet.
fn most_meetings(tables: &BTreeMap<(u32, u32), Vec<String>>, players: usize) -> usize {
    let rounds: BTreeSet<u32> = tables.keys().map(|k| k.0).collect();
    for r in &rounds {
        let seated: BTreeSet<&String> = tables
            .iter()
            .filter(|(k, _)| k.0 == *r)
            .flat_map(|(_, t)| t)
            .collect();
        assert_eq!(seated.len(), players, "round {r} seats everyone once");
    }
    let mut met: BTreeMap<(&String, &String), usize> = BTreeMap::new();
    for t in tables.values() {
        for a in t {
            for b in t.iter().filter(|b| a < *b) {
                *met.entry((a, b)).or_default() += 1;
            }
        }
    }
    met.values().copied().max().unwrap_or(0)
}

/// A scan result as JSON.
fn result(path: &Path) -> serde_json::Value {
    let json = std::fs::read_to_string(path).expect("result");
    serde_json::from_str(&json).expect("json")
}

/// A result's participant numbers, seat by seat (every seat filled).
fn players_of(sheet: &serde_json::Value) -> Vec<String> {
    sheet["players"]
        .as_array()
        .expect("players")
        .iter()
        .map(|p| p.as_str().expect("number").to_string())
        .collect()
}

/// A result's `CELL_UNCERTAIN` flags.
fn uncertain(sheet: &serde_json::Value) -> Vec<&serde_json::Value> {
    sheet["flags"]
        .as_array()
        .expect("flags")
        .iter()
        .filter(|f| f["code"] == "CELL_UNCERTAIN")
        .collect()
}

/// The merkur sheet `print` makes for round and table (players 0417, 1203,
/// 77, 1999), marked by `mark`, saved as a PNG and scanned: its result.
fn scanned_printed_page(
    name: &str,
    (round, table): (u32, u32),
    mark: impl FnOnce(&mut image::GrayImage, &aufsicht::page::form::FormTemplate),
) -> serde_json::Value {
    use aufsicht::page::code::TableCode;
    let dir = temp(name);
    let form = aufsicht::page::form::FormTemplate::load("punkteliste-a4-32").expect("form");
    let code = TableCode::new("Nacht", &form.id, round, table, printed_players());
    let names = ["A", "B", "C", "D"].map(String::from);
    let mut page = aufsicht::page::render::render_printed(&form, &code, &names, 300.0);
    mark(&mut page, &form);
    let scan = dir.join(format!("{name}.png"));
    page.save(&scan).expect("save");
    let results = dir.join("results");
    let out = aufsicht_en(&[
        "scan",
        "--rules",
        "merkur",
        "--out",
        results.to_str().expect("path"),
        scan.to_str().expect("path"),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    result(&results.join(format!("{name}.json")))
}

fn printed_players() -> Vec<String> {
    ["0417", "1203", "77", "1999"].map(String::from).to_vec()
}

/// Millimetres on a 300-dpi page, in pixels.
fn px(mm: f64) -> f32 {
    (mm * 300.0 / 25.4) as f32
}

#[test]
fn a_merkur_night_of_32_should_meet_nobody_twice_in_its_two_rounds() {
    let dir = temp("draw-merkur");
    let list = list(&dir, "list.csv", 32, ',');
    let seating = dir.join("seating.csv");
    let hall = dir.join("hall.pdf");
    let out = aufsicht_en(&[
        "draw",
        "--rules",
        "merkur",
        "--participants",
        &list,
        "--out",
        seating.to_str().expect("path"),
        "--seed",
        "11",
        "--hall",
        hall.to_str().expect("path"),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("nobody meets an opponent twice"), "{said}");
    let t = tables(&seating);
    assert_eq!(t.len(), 16, "2 rounds of 8 tables");
    assert!(t.values().all(|seats| seats.len() == 4));
    assert!(
        t.values().flatten().all(|p| p.len() == 4),
        "numbers as listed"
    );
    assert_eq!(most_meetings(&t, 32), 1);
    // The table list on one page, 16 slips a page for 32 players.
    let pdf = std::fs::read(&hall).expect("hall papers");
    assert!(pdf.starts_with(b"%PDF"));
    assert!(String::from_utf8_lossy(&pdf).contains("/Count 3"));
}

#[test]
fn a_doppelkopf_night_should_use_five_tables_only_where_the_count_needs_them() {
    let dir = temp("draw-doko");
    for (players, fives) in [(40, 0), (42, 2)] {
        // A German spreadsheet's list: semicolons.
        let list = list(&dir, &format!("list{players}.csv"), players, ';');
        let seating = dir.join(format!("seating{players}.csv"));
        let out = aufsicht(&[
            "draw",
            "--rules",
            "doppelkopf",
            "--participants",
            &list,
            "--out",
            seating.to_str().expect("path"),
            "--seed",
            "3",
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let t = tables(&seating);
        let rounds: BTreeSet<u32> = t.keys().map(|k| k.0).collect();
        assert_eq!(rounds.len(), 3, "the rule set's rounds");
        let five = t.iter().filter(|(k, s)| k.0 == 1 && s.len() == 5).count();
        assert_eq!(five, fives, "{players} players");
        assert_eq!(most_meetings(&t, players), 1, "{players} players");
    }
}

#[test]
fn the_same_seed_should_draw_the_same_night() {
    let dir = temp("draw-seed");
    let list = list(&dir, "list.csv", 24, ',');
    let mut drawn = Vec::new();
    for (name, seed) in [("a.csv", "5"), ("b.csv", "5"), ("c.csv", "6")] {
        let seating = dir.join(name);
        let out = aufsicht(&[
            "draw",
            "--rules",
            "merkur",
            "--participants",
            &list,
            "--out",
            seating.to_str().expect("path"),
            "--seed",
            seed,
        ]);
        assert!(out.status.success());
        drawn.push(std::fs::read(&seating).expect("seating"));
    }
    assert_eq!(drawn[0], drawn[1]);
    assert_ne!(drawn[0], drawn[2]);
}

#[test]
fn a_bad_list_or_count_should_be_refused_in_one_line_naming_it() {
    let dir = temp("draw-bad");
    let good = list(&dir, "good.csv", 32, ',');
    let text = std::fs::read_to_string(&good).expect("list");
    let cases = [
        (
            "dup.csv",
            format!("{text}0105,Again,SK 1\n"),
            "line 34: number 0105 is already on line 6",
        ),
        (
            "bad.csv",
            text.replacen("0110", "01x0", 1),
            "line 11: \"01x0\" is no participant number",
        ),
        (
            "noname.csv",
            "number,club\n1,SK\n".to_string(),
            "no column \"name\"",
        ),
        (
            "odd.csv",
            text.lines().take(31).collect::<Vec<_>>().join("\n"),
            "30 participants cannot be seated at tables of four: register 2 more or 2 fewer",
        ),
    ];
    for (name, content, says) in cases {
        let path = dir.join(name);
        std::fs::write(&path, content).expect("write");
        let seating = dir.join(format!("{name}.seating"));
        let out = aufsicht_en(&[
            "draw",
            "--rules",
            "merkur",
            "--participants",
            path.to_str().expect("path"),
            "--out",
            seating.to_str().expect("path"),
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains(says), "{name}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{name}: {err}");
        assert!(!seating.exists(), "{name}: no seating written");
    }
}

#[test]
fn a_drawn_night_should_come_back_from_its_printed_sheets_exactly() {
    let dir = temp("print");
    let list = list(&dir, "list.csv", 8, ',');
    let seating = dir.join("seating.csv");
    let pdf = dir.join("sheets.pdf");
    let results = dir.join("results");
    let checks = dir.join("checks.csv");
    let s = |p: &Path| p.to_str().expect("path").to_string();
    run(&[
        "draw",
        "--rules",
        "merkur",
        "--participants",
        &list,
        "--out",
        &s(&seating),
        "--seed",
        "4",
    ]);
    run(&[
        "print",
        "--rules",
        "merkur",
        "--seating",
        &s(&seating),
        "--participants",
        &list,
        "--out",
        &s(&pdf),
        "--tournament",
        "Merkur-Turnier",
    ]);
    run(&["scan", "--rules", "merkur", "--out", &s(&results), &s(&pdf)]);
    let seated = tables(&seating);
    for (page, (round, table)) in [(1, (1, 1)), (2, (1, 2)), (3, (2, 1)), (4, (2, 2))] {
        let sheet = result(&results.join(format!("sheets-p{page}.json")));
        assert_eq!(sheet["printed"], true);
        assert_eq!(sheet["round"], round);
        assert_eq!(sheet["table"], table);
        assert_eq!(players_of(&sheet), seated[&(round, table)]);
        let asked = uncertain(&sheet);
        assert!(asked.is_empty(), "{asked:?}");
    }
    let standings = |checks_of: &str| {
        run(&[
            "standings",
            "--rules",
            "merkur",
            "--participants",
            &list,
            "--seating",
            &s(&seating),
            "--checks",
            &s(&checks),
            &s(&results),
        ]);
        let text = std::fs::read_to_string(&checks).expect("checks");
        text.lines().filter(|l| l.starts_with(checks_of)).count()
    };
    assert_eq!(standings("TABLE_WITHOUT_SHEET"), 0);
    assert_eq!(standings("SEATING_DIFFERS"), 0);
    assert_eq!(standings("PLAYER_NOT_REGISTERED"), 0);
    std::fs::remove_file(results.join("sheets-p3.json")).expect("remove");
    assert_eq!(
        standings("TABLE_WITHOUT_SHEET"),
        1,
        "round 2, table 1 has no sheet"
    );
}

#[test]
fn a_printed_sheet_whose_code_is_damaged_should_take_its_numbers_from_the_print() {
    let sheet = scanned_printed_page("damaged", (2, 14), |page, form| {
        // A coffee ring over the code's top half: ink there, no code to read.
        let [x, y, side, _] = form.code_box();
        for yy in px(y) as u32..px(y + side / 2.0) as u32 {
            for xx in px(x) as u32..px(x + side) as u32 {
                if (xx + yy) % 7 < 3 {
                    page.put_pixel(xx, yy, image::Luma([0]));
                }
            }
        }
    });
    assert_eq!(
        sheet["printed"],
        serde_json::Value::Null,
        "the code is not read"
    );
    assert_eq!(sheet["numbers_from_print"], true);
    assert_eq!(sheet["round"], 2);
    assert_eq!(sheet["table"], 14);
    assert_eq!(players_of(&sheet), printed_players());
    assert_eq!(uncertain(&sheet).len(), 0);
}

#[test]
fn a_number_written_over_a_printed_one_should_be_read_and_asked_about() {
    let sheet = scanned_printed_page("over", (1, 3), |page, form| {
        // A substitute at seat 2: the printed number struck through and a
        // "17" written beside it, in pen strokes about 0.4 mm wide.
        let [x, y, w, h] = form.fields.player_id[1];
        let strokes = [
            ((x + 4.0, y + h * 0.5), (x + w * 0.6, y + h * 0.45)),
            ((x + w * 0.7, y + 1.5), (x + w * 0.7, y + h - 1.0)),
            ((x + w * 0.78, y + 1.5), (x + w * 0.9, y + 1.5)),
            ((x + w * 0.9, y + 1.5), (x + w * 0.8, y + h - 1.0)),
        ];
        for ((x0, y0), (x1, y1)) in strokes {
            for d in 0..5 {
                let o = d as f32 - 2.0;
                imageproc::drawing::draw_line_segment_mut(
                    page,
                    (px(x0) + o, px(y0) + o),
                    (px(x1) + o, px(y1) + o),
                    image::Luma([20]),
                );
            }
        }
    });
    assert_eq!(sheet["printed"], true);
    let asked: Vec<&serde_json::Value> = uncertain(&sheet)
        .into_iter()
        .filter(|f| f["field"] == "player_id")
        .collect();
    assert_eq!(asked.len(), 1, "{asked:?}");
    assert_eq!(asked[0]["seat"], 2);
    assert!(
        asked[0]["message"]
            .as_str()
            .expect("message")
            .contains("1203 is printed"),
        "{}",
        asked[0]["message"]
    );
    let players = printed_players();
    for seat in [0, 2, 3] {
        assert_eq!(sheet["players"][seat], players[seat].as_str());
    }
}

/// standings CSV → player → (total, sheets to review).
fn standings_rows(csv: &str) -> BTreeMap<String, (String, String)> {
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().expect("header").split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).expect(name);
    let (player, total, review) = (col("player"), col("total"), col("review"));
    lines
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            let review = f.get(review).copied().unwrap_or_default();
            (
                f[player].to_string(),
                (f[total].to_string(), review.to_string()),
            )
        })
        .collect()
}

#[test]
fn a_night_should_run_from_the_list_through_the_played_sheets_to_the_standings() {
    let dir = temp("night-flow");
    let list = list(&dir, "list.csv", 8, ';');
    let s = |p: &Path| p.to_str().expect("path").to_string();
    let (seating, played, results) = (
        dir.join("seating.csv"),
        dir.join("played"),
        dir.join("results"),
    );
    run(&[
        "draw",
        "--rules",
        "merkur",
        "--participants",
        &list,
        "--out",
        &s(&seating),
        "--seed",
        "9",
    ]);
    // The players fill in the printed sheets by hand; the office scans them.
    aufsicht_lab::cli::run([
        "aufsicht-lab",
        "--lang",
        "en",
        "generate",
        "--rules",
        "merkur",
        "--form",
        "punkteliste-a4-32",
        "--seating",
        &s(&seating),
        "--printed",
        "--capture",
        "scanner",
        "--seed",
        "9",
        "--out",
        &s(&played),
    ])
    .expect("generate");
    run(&[
        "scan",
        "--rules",
        "merkur",
        "--out",
        &s(&results),
        &s(&played.join("scans")),
    ]);
    let seated = tables(&seating);
    assert_eq!(seated.len(), 4, "two tables in each of two rounds");
    for (round, table) in seated.keys() {
        let sheet = result(&results.join(format!("merkur-r{round}-t{table:02}.json")));
        assert_eq!(
            (sheet["round"].as_u64(), sheet["table"].as_u64()),
            (Some(u64::from(*round)), Some(u64::from(*table)))
        );
        assert_eq!(players_of(&sheet), seated[&(*round, *table)]);
        let on_numbers: Vec<_> = uncertain(&sheet)
            .into_iter()
            .filter(|f| f["row"].is_null())
            .filter(|f| matches!(f["field"].as_str(), Some("round" | "table" | "player_id")))
            .collect();
        assert!(on_numbers.is_empty(), "{on_numbers:?}");
    }
    let standings = |sheets: &Path, checks: &Path| {
        let csv = run(&[
            "standings",
            "--rules",
            "merkur",
            "--participants",
            &list,
            "--seating",
            &s(&seating),
            "--checks",
            &s(checks),
            &s(sheets),
        ]);
        // Sheets still in doubt leave the ranking provisional: no table
        // or player check beside that.
        let checks = std::fs::read_to_string(checks).expect("checks");
        let others = checks
            .lines()
            .filter(|l| !l.starts_with("SHEETS_IN_DOUBT,"));
        (standings_rows(&csv), others.count())
    };
    let (typed, _) = standings(&played.join("truth"), &dir.join("checks-typed.csv"));
    let (scanned, night_checks) = standings(&results, &dir.join("checks.csv"));
    assert_eq!(
        night_checks, 1,
        "only the header: no table without a sheet, no stranger"
    );
    assert_eq!(scanned.len(), 8, "every registered player, nobody else");
    for (player, (total, _)) in &typed {
        let (read, review) = &scanned[player];
        assert!(
            read == total || !review.is_empty(),
            "player {player}: {read} read, {total} written, and no sheet named for review"
        );
    }
}
