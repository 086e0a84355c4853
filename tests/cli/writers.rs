//! `writers`: the Schreiber's ledger over a season of typed nights, one
//! Schreiber slipping their own way every time, honest slips elsewhere.

use serde_json::Value;

use aufsicht::sheet::{Cell, GameRow, SheetResult, finished_sheet};

use crate::common::{aufsicht, temp};

fn row(no: u32, values: [i64; 4]) -> GameRow {
    GameRow {
        no,
        cells: values
            .iter()
            .map(|&v| {
                if v >= 0 {
                    Cell::plus(v as u32)
                } else {
                    Cell::minus((-v) as u32)
                }
            })
            .collect(),
        initials: false,
        class: None,
        extra: Default::default(),
    }
}

/// Table `table` of a night, its four players from `first` on; seat
/// `slip` (if any) wrote `by` more than its rows give.
fn sheet(table: u32, players: [u32; 4], slip: Option<(usize, i64)>) -> SheetResult {
    let rows = vec![
        row(1, [1, 1, -1, -1]),
        row(2, [-2, 6, -2, -2]),
        row(3, [2, -2, 2, -2]),
    ];
    let players = players.iter().map(|p| Some(p.to_string())).collect();
    let mut s = finished_sheet("merkur", rows, players);
    s.round = Some(1);
    s.table = Some(table);
    if let Some((seat, by)) = slip
        && let Some(Some(e)) = s.endergebnis.get_mut(seat - 1)
    {
        *e += by;
    }
    s
}

/// Three nights of 16 sheets: player 7 writes (on `seat`) six of them,
/// each time giving themselves `gains`; a quarter of the others carry an
/// honest slip on a seat that turns with the sheet. Gives the folders.
fn season(dir: &std::path::Path, seat: usize, gains: [i64; 6]) -> Vec<String> {
    let mut folders = Vec::new();
    let mut biased = gains.iter();
    for night in 0..3u32 {
        let folder = dir.join(format!("abend-{}", night + 1));
        std::fs::create_dir_all(&folder).expect("folder");
        for t in 1..=16u32 {
            let base = 100 + night * 100 + t * 4;
            let mut players = [base, base + 1, base + 2, base + 3];
            let i = night * 16 + t;
            let slip = if t % 8 == 1 {
                players[seat - 1] = 7;
                biased.next().map(|&g| (seat, g))
            } else if i % 4 == 0 {
                let on = 1 + (i as usize / 4) % 4;
                Some((on, if i % 8 == 0 { 3 } else { -2 }))
            } else {
                None
            };
            let s = sheet(t, players, slip);
            let path = folder.join(format!("tisch-{t}.json"));
            std::fs::write(&path, s.to_json_pretty()).expect("sheet");
        }
        folders.push(folder.to_str().expect("utf8").to_string());
    }
    folders
}

fn writers(args: &[&str]) -> Value {
    let mut all = vec!["writers", "--rules", "merkur"];
    all.extend_from_slice(args);
    let out = aufsicht(&all);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("json")
}

#[test]
fn a_schreiber_whose_six_slips_all_favour_them_should_be_flagged_and_no_honest_one() {
    let dir = temp("writers-season");
    let folders = season(&dir, 1, [5, 5, 5, 5, 6, 6]);
    let args: Vec<&str> = folders.iter().map(String::as_str).collect();
    let ledger = writers(&args);
    let list = ledger["writers"].as_array().expect("writers");
    let first = &list[0];
    assert_eq!(first["player"], "7", "{first}");
    assert_eq!(first["flagged"], true);
    assert_eq!(first["errors"], 6);
    assert_eq!(first["favouring_self"], 6);
    assert_eq!(first["to_self"], 32);
    assert!(first["p"].as_f64().expect("p") < 0.001, "{first}");
    let evidence = first["evidence"].as_array().expect("evidence");
    assert_eq!(evidence.len(), 6);
    assert_eq!(evidence[0]["night"], "abend-1");
    assert_eq!(evidence[0]["moved"]["1"], 5, "{}", evidence[0]);
    assert!(
        list[1..].iter().all(|w| w["flagged"] == false),
        "{ledger:#}"
    );
    let honest_errors: u64 = list[1..]
        .iter()
        .map(|w| w["errors"].as_u64().unwrap_or(0))
        .sum();
    assert!(
        honest_errors >= 9,
        "the honest slips are counted: {honest_errors}"
    );
    // The words say what the numbers say.
    let out = aufsicht(
        &[
            &["writers", "--rules", "merkur", "--format", "csv"][..],
            &args[..],
        ]
        .concat(),
    );
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("auffällig: 6 von 6 Fehlern zu eigenen Gunsten, +32 Punkte (p = 0,0002)"),
        "{said}"
    );
    let csv = String::from_utf8_lossy(&out.stdout);
    assert!(csv.starts_with("player,sheets,errors,to_self"), "{csv}");
    assert!(
        csv.lines()
            .nth(1)
            .is_some_and(|l| l.starts_with("7,6,6,32,")),
        "{csv}"
    );
}

#[test]
fn a_schreiber_on_another_seat_should_be_the_one_counted() {
    let dir = temp("writers-seat");
    let folders = season(&dir, 3, [4, 4, 4, 4, 4, 4]);
    let args: Vec<&str> = folders.iter().map(String::as_str).collect();
    let on_three = writers(&[&["--writer-seat", "3"][..], &args[..]].concat());
    assert_eq!(on_three["writers"][0]["player"], "7");
    assert_eq!(on_three["writers"][0]["flagged"], true);
    // Read as if seat 1 wrote, the slips fall on another seat: nobody flagged.
    let on_one = writers(&args);
    let flagged = on_one["writers"].as_array().expect("writers");
    assert!(flagged.iter().all(|w| w["flagged"] == false), "{on_one:#}");
}

/// The season's folders stored as an archive's three nights.
fn archived(dir: &std::path::Path, folders: &[String]) -> std::path::PathBuf {
    use aufsicht::night::club::archive::Archive;
    let path = dir.join("verein.sqlite");
    let mut archive = Archive::open(&path).expect("archive");
    let rules = aufsicht::RuleSet::load("merkur").expect("merkur");
    for (n, folder) in folders.iter().enumerate() {
        let night = archive
            .tournament(&format!("Abend {}", n + 1), "merkur")
            .expect("night");
        let mut files: Vec<_> = std::fs::read_dir(folder)
            .expect("folder")
            .flatten()
            .map(|e| e.path())
            .collect();
        files.sort();
        for (i, file) in files.iter().enumerate() {
            let sheet = SheetResult::from_path(file).expect("sheet");
            let sheet = aufsicht::verify(sheet, &rules, aufsicht::Lang::De).expect("verify");
            let name = file
                .file_name()
                .expect("name")
                .to_string_lossy()
                .into_owned();
            let sha = format!("{:064x}", n * 100 + i);
            archive
                .store_file(night, &sha, None, &[(name, sheet)])
                .expect("store");
        }
    }
    path
}

#[test]
fn the_ledger_should_read_the_same_from_the_archive_the_audit_and_the_desk() {
    let dir = temp("writers-archive");
    let folders = season(&dir, 1, [5, 5, 5, 5, 6, 6]);
    let archive = archived(&dir, &folders);
    let a = archive.to_str().expect("utf8");
    let season = writers(&["--archive", a]);
    let first = &season["writers"][0];
    assert_eq!(
        (
            &first["player"],
            &first["errors"],
            &first["to_self"],
            &first["flagged"]
        ),
        (
            &Value::from("7"),
            &Value::from(6),
            &Value::from(32),
            &Value::Bool(true)
        )
    );
    let one_night = writers(&["--archive", a, "--tournament", "Abend 1"]);
    assert_eq!(one_night["writers"][0]["errors"], 2, "{one_night:#}");
    assert_eq!(
        one_night["writers"][0]["flagged"], false,
        "two errors are too few"
    );
    // The audit's page, standing alone.
    let page = dir.join("schreiber.html");
    let out = aufsicht(&[
        "audit",
        "--archive",
        a,
        "--writers",
        "--out",
        page.to_str().expect("utf8"),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let html = std::fs::read_to_string(&page).expect("page");
    assert!(
        html.contains("auffällig: 6 von 6 Fehlern zu eigenen Gunsten, +32 Punkte (p = 0,0002)"),
        "{html}"
    );
    assert!(
        !html.contains("href=\"/"),
        "no address of the desk in a page that stands alone"
    );
    // The desk: the same, each error linked to its sheet's audit.
    let desk = crate::desk::Desk::start_in("de", &archive, &[]);
    let api = desk.json("/api/writers");
    assert_eq!(api["writers"][0], season["writers"][0]);
    let (status, _, html) = desk.call("GET", "/writers", &[], "");
    assert_eq!(status, 200);
    assert!(html.contains("href=\"/audit?sheet="), "{html}");
    assert!(html.contains("auffällig: 6 von 6"), "{html}");
}

#[test]
fn the_seatings_writer_column_should_name_each_tables_schreiber() {
    let dir = temp("writers-seating");
    let folders = season(&dir, 3, [4, 4, 4, 4, 4, 4]);
    // The first night's seating: at tables 1 and 9 seat 3 writes.
    let mut csv = String::from("round,table,seat,player,writer\n");
    for t in 1..=16u32 {
        let round = 1;
        for seat in 1..=4 {
            let mark = if seat == 3 && t % 8 == 1 { "x" } else { "" };
            // A seating seats nobody twice a round: table 9's Schreiber is
            // another number here than on the typed sheet.
            let player = match (seat, t) {
                (3, 1) => 7,
                (3, 9) => 999,
                _ => 104 + t * 4 + seat - 1,
            };
            csv.push_str(&format!("{round},{t},{seat},{player},{mark}\n"));
        }
    }
    let seating = dir.join("sitzplan.csv");
    std::fs::write(&seating, csv).expect("seating");
    let night = writers(&["--seating", seating.to_str().expect("utf8"), &folders[0]]);
    let list = night["writers"].as_array().expect("writers");
    let seven = list
        .iter()
        .find(|w| w["player"] == "7")
        .expect("7 writes at two tables");
    assert_eq!(
        (&seven["sheets"], &seven["favouring_self"]),
        (&Value::from(2), &Value::from(2))
    );
    // Every other table's Schreiber is on seat 1.
    assert!(list.iter().any(|w| w["player"] == "108"), "{night:#}");
}

/// The biased Schreiber's sheets scanned, not typed: six nights drawn on
/// one seating (16 players, two rounds) where player 7 sits on seat 1 of
/// table 1 in both rounds and writes 5 points too many each time, honest
/// slips on a quarter of the other sheets; each night printed, scanned
/// into one archive, and the ledger read from it.
#[test]
fn a_biased_schreiber_should_be_found_from_scanned_nights() {
    let dir = temp("writers-scanned");
    let mut seating = String::from("round,table,seat,player\n");
    for round in 1..=2u32 {
        for table in 1..=4u32 {
            for seat in 1..=4u32 {
                let player = match (table, seat) {
                    (1, 1) => 7,
                    // The others move a table on between rounds.
                    _ => 100 + ((table - 1 + round - 1) % 4) * 4 + seat,
                };
                seating.push_str(&format!("{round},{table},{seat},{player}\n"));
            }
        }
    }
    let seating_file = dir.join("sitzplan.csv");
    std::fs::write(&seating_file, seating).expect("seating");
    let archive = dir.join("verein.sqlite");
    for night in 1..=6u32 {
        let out = dir.join(format!("abend-{night}"));
        let s = |p: &std::path::Path| p.display().to_string();
        let args: Vec<String> = [
            "aufsicht-lab",
            "generate",
            "--rules",
            "merkur",
            "--form",
            "punkteliste-a4-32",
            "--printed",
            "--capture",
            "scanner",
            "--writer-errors",
            "0.25",
            "--biased-writer",
            "7",
            "--bias",
            "5",
        ]
        .iter()
        .map(|a| a.to_string())
        .chain([
            "--seating".into(),
            s(&seating_file),
            "--seed".into(),
            (900 + night).to_string(),
        ])
        .chain(["--out".into(), s(&out)])
        .collect();
        aufsicht_lab::cli::run(args).expect("generate");
        let name = format!("Abend {night}");
        let scanned = aufsicht(&[
            "scan",
            "--rules",
            "merkur",
            "--tournament",
            &name,
            "--archive",
            archive.to_str().expect("utf8"),
            "--out",
            out.join("results").to_str().expect("utf8"),
            out.join("scans").to_str().expect("utf8"),
        ]);
        assert!(
            scanned.status.code() != Some(2),
            "{}",
            String::from_utf8_lossy(&scanned.stderr)
        );
    }
    let ledger = writers(&["--archive", archive.to_str().expect("utf8")]);
    let list = ledger["writers"].as_array().expect("writers");
    let seven = list.iter().find(|w| w["player"] == "7").expect("7 wrote");
    // Twelve sheets, less those that could not be read: no Listen.
    let sheets = seven["sheets"].as_u64().expect("sheets");
    assert!((10..=12).contains(&sheets), "{seven}");
    let errors = seven["errors"].as_u64().expect("errors");
    // A doubt in the Schreiber's column that could be read otherwise
    // leaves that error out; most are sure, and four all one way are
    // below the flag's chance.
    // A doubt removes an error only where a likely reading explains it:
    // a misreading no reading explains stays, and need not favour them.
    assert!(errors >= 4, "{seven}");
    let favouring = seven["favouring_self"].as_u64().expect("favouring");
    assert!(favouring >= 4 && favouring + 2 >= errors, "{seven}");
    assert_eq!(seven["flagged"], true, "{seven}");
    assert!(
        list.iter()
            .filter(|w| w["player"] != "7")
            .all(|w| w["flagged"] == false),
        "{ledger:#}"
    );
}

#[test]
fn a_writer_seat_no_table_has_should_be_one_line_and_exit_2() {
    let dir = temp("writers-seat");
    let folders = season(&dir, 1, [5, 5, 5, 5, 6, 6]);
    for seat in ["0", "5"] {
        let out = aufsicht(&[
            "writers",
            "--rules",
            "merkur",
            "--writer-seat",
            seat,
            &folders[0],
        ]);
        let said = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "seat {seat}: {said}");
        assert_eq!(said.trim().lines().count(), 1, "{said}");
        assert!(said.contains(&format!("Platz {seat}")), "{said}");
        assert!(out.stdout.is_empty());
    }
}
