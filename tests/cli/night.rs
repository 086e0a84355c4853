//! A night's batch run as the binary: summary, archive, a kill -9 midway and
//! the resume, export back to the contract's JSON, a correction's trail.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{aufsicht, aufsicht_en, root, temp};

use aufsicht::SheetResult;
use aufsicht::night::club::archive::Archive;

fn results_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().to_string())
                .filter(|n| n.ends_with(".json"))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

fn scan_args<'a>(out: &'a str, night: &'a str) -> Vec<&'a str> {
    vec![
        "scan",
        "--rules",
        "merkur",
        "--tournament",
        "test-night",
        "--out",
        out,
        night,
    ]
}

/// The sample scans copied into `dir/night`: its path.
fn samples_copied(dir: &Path) -> std::path::PathBuf {
    let night = dir.join("night");
    std::fs::create_dir_all(&night).expect("dir");
    for entry in std::fs::read_dir(root().join("samples/scans"))
        .expect("samples")
        .flatten()
    {
        std::fs::copy(entry.path(), night.join(entry.file_name())).expect("copy");
    }
    night
}

#[test]
fn a_batch_killed_midway_should_resume_without_losing_or_duplicating_sheets() {
    let dir = temp("kill");
    let night = samples_copied(&dir);
    let out = dir.join("out");
    let (o, n) = (out.to_str().expect("utf8"), night.to_str().expect("utf8"));

    let mut child = Command::new(env!("CARGO_BIN_EXE_aufsicht"))
        .args(scan_args(o, n))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start scan");
    let start = Instant::now();
    while results_in(&out).is_empty() && start.elapsed() < Duration::from_secs(120) {
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().expect("kill -9"); // SIGKILL on Unix
    let _ = child.wait();
    let after_kill = results_in(&out).len();

    let second = aufsicht(&scan_args(o, n));
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert!(second.status.success(), "{stderr}");
    let results = results_in(&out);
    assert!(
        after_kill < results.len(),
        "the kill landed mid-way: {after_kill} of {} results before it",
        results.len()
    );

    let db = Archive::open(&out.join("aufsicht.sqlite")).expect("archive");
    let t = db.pick_tournament(Some("test-night")).expect("tournament");
    let stored = db.sheets(t).expect("sheets");
    assert_eq!(
        stored.len(),
        results.len(),
        "one archived sheet per result file"
    );
    let mut keys: Vec<(String, Option<u32>)> = stored
        .iter()
        .map(|s| (s.result.source.clone().unwrap_or_default(), s.result.page))
        .collect();
    keys.sort();
    keys.dedup();
    assert_eq!(keys.len(), stored.len(), "no sheet twice");
    let summary = std::fs::read_to_string(out.join("summary.csv")).expect("summary");
    assert_eq!(summary.lines().count(), 1 + results.len());

    // A third run reads nothing again.
    let third = aufsicht_en(&scan_args(o, n));
    let stderr = String::from_utf8_lossy(&third.stderr);
    assert!(
        stderr.contains("6 files were in the archive already"),
        "{stderr}"
    );
    assert_eq!(db.sheets(t).expect("sheets").len(), stored.len());
}

#[test]
fn an_archive_should_export_what_was_scanned_and_keep_the_correction_trail() {
    let dir = temp("export");
    let out = dir.join("out");
    let scan = root().join("samples/scans/merkur-scanner.jpg");
    let o = out.to_str().expect("utf8");
    let first = aufsicht(&[
        "scan",
        "--rules",
        "merkur",
        "--out",
        o,
        scan.to_str().expect("utf8"),
    ]);
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let archive = out.join("aufsicht.sqlite");
    let a = archive.to_str().expect("utf8");

    let exported = dir.join("exported");
    let e = aufsicht(&[
        "export",
        "--archive",
        a,
        "--out",
        exported.to_str().expect("utf8"),
    ]);
    assert!(e.status.success(), "{}", String::from_utf8_lossy(&e.stderr));
    let scanned = SheetResult::from_path(&out.join("merkur-scanner.json")).expect("scanned");
    let back = SheetResult::from_path(&exported.join("merkur-scanner.json")).expect("exported");
    assert_eq!(scanned, back);
    let values = std::fs::read_to_string(exported.join("values.csv")).expect("values.csv");
    assert!(
        values.lines().count() > 100,
        "every value: {}",
        values.lines().count()
    );

    // A person corrects seat 1's Endergebnis; the archive keeps old, new, who.
    let mut fixed = scanned.clone();
    let old = fixed.endergebnis[0];
    fixed.endergebnis[0] = Some(old.unwrap_or(0) + 1);
    let fixed_path = dir.join("fixed.json");
    std::fs::write(&fixed_path, fixed.to_json_pretty()).expect("write");
    let c = aufsicht(&[
        "correct",
        "--archive",
        a,
        "--rules",
        "merkur",
        "--by",
        "Anna",
        fixed_path.to_str().expect("utf8"),
    ]);
    assert!(c.status.success(), "{}", String::from_utf8_lossy(&c.stderr));
    let printed: SheetResult =
        SheetResult::from_json("stdout", &String::from_utf8_lossy(&c.stdout)).expect("json");
    assert_eq!(printed.endergebnis[0], fixed.endergebnis[0]);

    let db = Archive::open(&archive).expect("archive");
    let t = db.pick_tournament(None).expect("one tournament");
    let id = db.sheets(t).expect("sheets")[0].id;
    let trail = db.corrections(id).expect("trail");
    assert_eq!(trail.len(), 1, "{trail:?}");
    assert_eq!(trail[0].field, "endergebnis.1");
    assert_eq!(trail[0].by, "Anna");
    assert_eq!(
        db.sheets(t).expect("sheets")[0].result.endergebnis[0],
        fixed.endergebnis[0]
    );
}

/// `correct` as the review page tells it: no `--rules` (the archive's),
/// and the value a person changed loses its doubt, as at the desk.
#[test]
fn a_correction_should_take_the_archives_rules_and_clear_the_changed_values_doubt() {
    let dir = temp("correct-doubt");
    let out = dir.join("out");
    crate::common::scan_flagged_samples(&out);
    let scanned = SheetResult::from_path(&out.join("merkur-scanner.json")).expect("scanned");
    let asked = |s: &SheetResult| -> Vec<(u32, usize)> {
        s.flags
            .iter()
            .filter(|f| f.code == aufsicht::Code::CellUncertain)
            .filter_map(|f| Some((f.row?, f.seat?)))
            .collect()
    };
    let &(row, seat) = asked(&scanned).first().expect("a game cell asked about");
    let mut fixed = scanned.clone();
    let cell = fixed
        .games
        .iter_mut()
        .find(|g| g.no == row)
        .map(|g| &mut g.cells[seat - 1])
        .expect("the cell");
    let slot = if cell.plus.is_some() {
        &mut cell.plus
    } else {
        &mut cell.minus
    };
    *slot = slot.map(|v| v / 10);
    let file = dir.join("fixed.json");
    std::fs::write(&file, fixed.to_json_pretty()).expect("write");
    let c = aufsicht(&[
        "correct",
        "--archive",
        out.join("aufsicht.sqlite").to_str().expect("utf8"),
        "--by",
        "Anna",
        file.to_str().expect("utf8"),
    ]);
    assert!(c.status.success(), "{}", String::from_utf8_lossy(&c.stderr));
    let printed =
        SheetResult::from_json("stdout", &String::from_utf8_lossy(&c.stdout)).expect("json");
    assert!(
        !asked(&printed).contains(&(row, seat)),
        "{:#?}",
        printed.flags
    );
    assert_eq!(
        asked(&printed).len(),
        asked(&scanned).len() - 1,
        "the other doubts stay"
    );
    assert_eq!(printed.rules.as_deref(), Some("merkur"));
}

/// A doubt goes only by a changed value: one deleted from the file by
/// hand, its value unchanged, stays on the archive's sheet.
#[test]
fn a_doubt_deleted_by_hand_from_the_file_should_stay() {
    let dir = temp("correct-deleted-doubt");
    let out = dir.join("out");
    crate::common::scan_flagged_samples(&out);
    let scanned = SheetResult::from_path(&out.join("merkur-scanner.json")).expect("scanned");
    let doubts = |s: &SheetResult| {
        s.flags
            .iter()
            .filter(|f| f.code == aufsicht::Code::CellUncertain)
            .count()
    };
    assert!(doubts(&scanned) > 0, "the sample has a doubt to delete");
    let mut edited = scanned.clone();
    let first = edited
        .flags
        .iter()
        .position(|f| f.code == aufsicht::Code::CellUncertain)
        .expect("a doubt");
    edited.flags.remove(first);
    let file = dir.join("edited.json");
    std::fs::write(&file, edited.to_json_pretty()).expect("write");
    let archive = out.join("aufsicht.sqlite");
    let c = aufsicht(&[
        "correct",
        "--archive",
        archive.to_str().expect("utf8"),
        "--by",
        "Anna",
        file.to_str().expect("utf8"),
    ]);
    assert!(c.status.success(), "{}", String::from_utf8_lossy(&c.stderr));
    let printed =
        SheetResult::from_json("stdout", &String::from_utf8_lossy(&c.stdout)).expect("json");
    assert_eq!(doubts(&printed), doubts(&scanned), "{:#?}", printed.flags);
    let db = Archive::open(&archive).expect("archive");
    let t = db.pick_tournament(None).expect("one tournament");
    let stored = db
        .sheets(t)
        .expect("sheets")
        .into_iter()
        .find(|s| s.result.source == scanned.source)
        .expect("the sheet");
    assert_eq!(doubts(&stored.result), doubts(&scanned));
    assert!(db.corrections(stored.id).expect("trail").is_empty());
}

#[test]
fn a_file_that_is_not_an_archive_should_get_a_clear_error() {
    let dir = temp("not-archive");
    let bogus = dir.join("night.sqlite");
    std::fs::write(
        &bogus,
        "these are notes, not a database; long enough to be read",
    )
    .expect("write");
    let out = aufsicht(&[
        "export",
        "--archive",
        bogus.to_str().expect("utf8"),
        "--out",
        dir.join("x").to_str().expect("utf8"),
    ]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--archive"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

/// A complaint about player 357: every sheet they sat at, with the seat,
/// the result, each change with who and when, and their standings line;
/// the page embeds the row crops and names no outside address.
#[test]
fn an_audit_should_show_a_players_sheets_changes_and_standings_from_the_archive() {
    let dir = temp("audit");
    let out = dir.join("out");
    // The scanner's sheet alone: scanned with its fax, the fax (stored
    // first) would count and the scanner's the same paper again.
    crate::common::scan_samples(&out, &["merkur-scanner.jpg"]);
    let archive = out.join("aufsicht.sqlite");
    let db = Archive::open(&archive).expect("archive");
    let t = db.pick_tournament(None).expect("one tournament");
    let scanned = db
        .sheets(t)
        .expect("sheets")
        .into_iter()
        .find(|s| s.result.players.contains(&Some("357".into())))
        .expect("357 sat at the scanner's sheet");
    drop(db);
    let mut fixed = scanned.result.clone();
    fixed.endergebnis[1] = Some(fixed.endergebnis[1].unwrap_or(0) + 1);
    let file = dir.join("fixed.json");
    std::fs::write(&file, fixed.to_json_pretty()).expect("write");
    let a = archive.to_str().expect("utf8");
    let c = aufsicht_en(&[
        "correct",
        "--archive",
        a,
        "--rules",
        "merkur",
        "--by",
        "Anna",
        file.to_str().expect("utf8"),
    ]);
    assert!(c.status.success(), "{}", String::from_utf8_lossy(&c.stderr));

    let json_out = dir.join("audit.json");
    let run = aufsicht_en(&[
        "audit",
        "--archive",
        a,
        "--player",
        "0357",
        "--format",
        "json",
        "--out",
        json_out.to_str().expect("utf8"),
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let audit: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json_out).expect("json")).expect("json");
    assert_eq!(audit["player"], "357", "one way, as every page writes it");
    let sheets = audit["sheets"].as_array().expect("sheets");
    assert_eq!(sheets.len(), 1, "{audit}");
    assert_eq!(sheets[0]["seat"], 2);
    assert_eq!(sheets[0]["id"], scanned.id);
    assert_eq!(
        sheets[0]["result"]["endergebnis"][1],
        fixed.endergebnis[1].expect("set")
    );
    let change = &sheets[0]["changes"][0];
    assert_eq!(
        (&change["field"], &change["by"], &change["kind"]),
        (
            &"endergebnis.2".into(),
            &"Anna".into(),
            &"correction".into()
        )
    );
    assert_eq!(change["moved"], 1, "the correction added 1 to 357's total");
    assert_eq!(audit["standings"]["player"], "357");
    assert_eq!(
        audit["standings"]["total"],
        fixed.endergebnis[1].expect("set")
    );

    let page = dir.join("audit.html");
    let run = aufsicht_en(&[
        "audit",
        "--archive",
        a,
        "--player",
        "357",
        "--out",
        page.to_str().expect("utf8"),
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let html = std::fs::read_to_string(&page).expect("page");
    assert!(
        html.matches("<img src=\"data:image/png;base64,").count() >= 10,
        "row crops embedded"
    );
    assert!(
        !html.contains("http://") && !html.contains("https://"),
        "self-contained"
    );
    assert!(
        html.contains("Anna") && html.contains("endergebnis.2"),
        "the change is shown"
    );

    let none = aufsicht_en(&[
        "audit",
        "--archive",
        a,
        "--player",
        "4444",
        "--out",
        page.to_str().expect("utf8"),
    ]);
    assert!(!none.status.success());
    let err = String::from_utf8_lossy(&none.stderr);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("participant 4444 is on no sheet"), "{err}");
}

/// A night is dated when it is scanned; it keeps its date, and a date
/// that is none is refused in one line before anything is read.
#[test]
fn a_scanned_night_should_keep_its_date() {
    let dir = temp("dated");
    let out = dir.join("out");
    let sample = root().join("samples/scans/merkur-scanner.jpg");
    let scan = |date: &str| {
        aufsicht_en(&[
            "scan",
            "--rules",
            "merkur",
            "--tournament",
            "Herbst",
            "--date",
            date,
            "--out",
            out.to_str().expect("utf8"),
            sample.to_str().expect("utf8"),
        ])
    };
    let first = scan("2026-10-03");
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let db = Archive::open(&out.join("aufsicht.sqlite")).expect("archive");
    let t = db.pick_tournament(Some("Herbst")).expect("the night");
    let date = db.date_of(t).expect("date").map(|d| d.to_string());
    assert_eq!(date.as_deref(), Some("2026-10-03"));
    drop(db);
    let other = scan("2026-10-04");
    assert!(!other.status.success());
    let err = String::from_utf8_lossy(&other.stderr);
    assert!(err.contains("is dated 2026-10-03, not 2026-10-04"), "{err}");
    // As Germans write it: the same night's date, taken.
    let german = scan("3.10.2026");
    assert!(
        german.status.success(),
        "{}",
        String::from_utf8_lossy(&german.stderr)
    );
    let bad = scan("3.13.2026");
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(!bad.status.success());
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.contains("--date 3.13.2026 is no date (D.M.YYYY or YYYY-MM-DD)"),
        "{err}"
    );
}

/// The sample scans read into an archive in `dir/out`, from a copy of
/// them in `dir/night`: the archive's path.
fn sample_archive(dir: &Path) -> std::path::PathBuf {
    let night = samples_copied(dir);
    let out = dir.join("out");
    let (o, n) = (out.to_str().expect("utf8"), night.to_str().expect("utf8"));
    let done = aufsicht_en(&scan_args(o, n));
    assert!(
        done.status.success(),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
    out.join("aufsicht.sqlite")
}

/// The audit page `audit --archive ARCHIVE ARGS --out PAGE` writes.
fn audit_page(archive: &Path, args: &[&str], page: &Path) -> String {
    let (a, p) = (
        archive.to_str().expect("utf8"),
        page.to_str().expect("utf8"),
    );
    let mut all = vec!["audit", "--archive", a];
    all.extend_from_slice(args);
    all.extend(["--out", p]);
    let done = aufsicht_en(&all);
    assert!(
        done.status.success(),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
    std::fs::read_to_string(page).expect("page")
}

/// The embedded images of a sheet's audit page, written from `archive`.
fn audit_images(archive: &Path, sheet: &str, page: &Path) -> usize {
    let args = ["--rules", "merkur", "--sheet", sheet];
    audit_page(archive, &args, page)
        .matches("data:image")
        .count()
}

#[test]
fn an_archive_copied_alone_should_render_every_audit_page_with_its_images() {
    let dir = temp("alone");
    let archive = sample_archive(&dir);
    let sheets = Archive::open(&archive)
        .expect("open")
        .check()
        .expect("check")
        .sheets;
    let before: Vec<usize> = (1..=sheets)
        .map(|id| audit_images(&archive, &id.to_string(), &dir.join("before.html")))
        .collect();
    assert!(before.iter().all(|&n| n > 0), "{before:?}");
    // The archive on a stick: its scan folder and its results gone.
    let elsewhere = temp("elsewhere");
    let copy = elsewhere.join("archive.sqlite");
    std::fs::copy(&archive, &copy).expect("copy");
    std::fs::remove_dir_all(dir.join("night")).expect("scans gone");
    std::fs::remove_dir_all(dir.join("out")).expect("results gone");
    let after: Vec<usize> = (1..=sheets)
        .map(|id| audit_images(&copy, &id.to_string(), &elsewhere.join("after.html")))
        .collect();
    assert_eq!(after, before);
}

/// `archive check` on `archive`: whether it passed, and what it said.
fn archive_check(archive: &Path) -> (bool, String) {
    let done = aufsicht_en(&["archive", "check", archive.to_str().expect("utf8")]);
    (
        done.status.success(),
        String::from_utf8_lossy(&done.stderr).to_string(),
    )
}

#[test]
fn archive_check_should_find_one_flipped_byte_in_a_kept_scan_or_a_stored_result() {
    let dir = temp("check");
    let archive = sample_archive(&dir);
    let (passed, said) = archive_check(&archive);
    assert!(passed, "{said}");
    assert!(said.contains("0 sheets without their scan kept"), "{said}");
    let flip = |name: &str, alter: &dyn Fn(&rusqlite::Connection)| {
        let copy = dir.join(format!("{name}.sqlite"));
        std::fs::copy(&archive, &copy).expect("copy");
        let db = rusqlite::Connection::open(&copy).expect("open");
        alter(&db);
        drop(db);
        archive_check(&copy)
    };
    // One bit of one byte in the middle of the third scan.
    let (passed, said) = flip("scan", &|db| {
        let mut bytes: Vec<u8> = db
            .query_row("SELECT bytes FROM scans WHERE rowid = 3", [], |r| r.get(0))
            .expect("scan");
        let middle = bytes.len() / 2;
        bytes[middle] ^= 1;
        db.execute("UPDATE scans SET bytes = ?1 WHERE rowid = 3", [bytes])
            .expect("flip");
    });
    assert!(!passed && said.contains("the kept scan"), "{said}");
    // One digit of a stored result's confidence: no value changes.
    let (passed, said) = flip("result", &|db| {
        let json: String = db
            .query_row("SELECT result_json FROM sheets WHERE id = 2", [], |r| {
                r.get(0)
            })
            .expect("result");
        let at = json.find("\"confidence\": 0.").expect("a confidence") + 16;
        let mut bytes = json.into_bytes();
        bytes[at] = if bytes[at] == b'9' {
            b'8'
        } else {
            bytes[at] + 1
        };
        let json = String::from_utf8(bytes).expect("utf8");
        db.execute("UPDATE sheets SET result_json = ?1 WHERE id = 2", [json])
            .expect("flip");
    });
    assert!(!passed && said.contains("sheet 2"), "{said}");
}

/// An archive of `sheets` stored sheets as the release before kept scans
/// left it (schema 2: no scans table, no results' hashes).
fn archive_of_schema_2(path: &Path, sheets: usize) {
    let sheet = SheetResult::from_path(
        &root().join("samples/sheets/muster_merkur_should_flag_only_game_count.json"),
    )
    .expect("sample sheet");
    let mut a = Archive::open(path).expect("archive");
    let t = a.tournament("Nacht", "merkur").expect("night");
    let stored: Vec<(String, SheetResult)> = (0..sheets)
        .map(|i| {
            let mut s = sheet.clone();
            s.source = Some(format!("scan-{i}.png"));
            (format!("scan-{i}.json"), s)
        })
        .collect();
    for (i, one) in stored.chunks(1).enumerate() {
        a.store_file(t, &format!("{i:064x}"), None, one)
            .expect("store");
    }
    drop(a);
    let db = rusqlite::Connection::open(path).expect("open");
    db.execute_batch(
        "DROP TABLE scans; ALTER TABLE sheets DROP COLUMN result_sha256; PRAGMA user_version = 2;",
    )
    .expect("back to schema 2");
}

/// When a kill lands: after a time, or as soon as a file appears.
enum Kill<'a> {
    After(Duration),
    OnceThere(&'a Path),
    /// As soon as the migration's backup appears (the archive's own).
    OnBackup,
}

/// Runs the binary with `args`, killed with SIGKILL when `kill` says.
/// Gives the time it ran.
fn killed(args: &[&str], kill: Kill) -> Duration {
    let started = std::time::Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_aufsicht"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start");
    match kill {
        Kill::After(after) => std::thread::sleep(after),
        Kill::OnceThere(file) => {
            while !file.exists()
                && started.elapsed() < Duration::from_secs(20)
                && matches!(child.try_wait(), Ok(None))
            {
                // Polls as fast as it can, and leaves the core to the child.
                std::thread::yield_now();
            }
        }
        Kill::OnBackup => unreachable!("named by migration_killed"),
    }
    let ran = started.elapsed();
    let _ = child.kill();
    let _ = child.wait();
    ran
}

/// `archive check` on a copy of `old` killed when `kill` says, then opened
/// again: every sheet whole. Gives the version the kill left and whether
/// the backup before the migration was taken.
fn migration_killed(dir: &Path, old: &Path, name: &str, kill: Kill) -> (i64, bool) {
    let work = dir.join(format!("work-{name}.sqlite"));
    std::fs::copy(old, &work).expect("copy");
    let w = work.to_str().expect("utf8");
    let backup = dir.join(format!("work-{name}.sqlite.v2.bak"));
    let kill = match kill {
        Kill::OnBackup => Kill::OnceThere(&backup),
        other => other,
    };
    let ran = killed(&["archive", "check", w], kill);
    let version: i64 = rusqlite::Connection::open(&work)
        .and_then(|c| c.query_row("PRAGMA user_version", [], |r| r.get(0)))
        .expect("version");
    let backup_taken = backup.exists();
    // Killed before, during or after the migration: opened again, it
    // holds every sheet, each result whole.
    let (passed, said) = archive_check(&work);
    assert!(
        passed && said.contains("300 sheets checked"),
        "{name}: {said}"
    );
    if backup_taken {
        let kept = Archive::open(&backup).expect("the backup opens");
        assert_eq!(kept.check().expect("check").sheets, 300, "{name}");
    }
    // A backup of it killed at the same time: the copy whole or absent,
    // the archive untouched.
    let copy = dir.join(format!("copy-{name}.sqlite"));
    let c = copy.to_str().expect("utf8");
    killed(&["archive", "backup", w, c], Kill::After(ran));
    if copy.exists() {
        let (passed, said) = archive_check(&copy);
        assert!(
            passed && said.contains("300 sheets checked"),
            "{name}: {said}"
        );
    }
    let (passed, said) = archive_check(&work);
    assert!(
        passed && said.contains("300 sheets checked"),
        "{name}: {said}"
    );
    (version, backup_taken)
}

#[test]
fn a_migration_or_a_backup_killed_at_any_point_should_lose_nothing() {
    let dir = temp("kill-archive");
    let old = dir.join("old.sqlite");
    archive_of_schema_2(&old, 300);
    // Migrating and checking this archive takes about 150 ms, a backup
    // 60 ms: kills every 8 ms fall before, during and after each.
    let inside = |&(_, v, backup): &(u64, i64, bool)| v == 2 && backup;
    let mut landed = Vec::new();
    for ms in (0..=160).step_by(8) {
        let after = Kill::After(Duration::from_millis(ms));
        let (v, backup) = migration_killed(&dir, &old, &ms.to_string(), after);
        landed.push((ms * 1000, v, backup));
    }
    // The migration's own window (the backup taken, the migration not yet
    // committed) is well under a millisecond on a fast machine, less than
    // a process's start varies: kills the moment the backup appears.
    for round in 0..10 {
        if landed.iter().any(inside) {
            break;
        }
        let name = format!("on-backup-{round}");
        let (v, backup) = migration_killed(&dir, &old, &name, Kill::OnBackup);
        landed.push((0, v, backup));
    }
    assert!(
        landed.iter().any(inside),
        "no kill landed inside the migration: (µs, version, backup) {landed:?}"
    );
}

/// The embedded images of sheet `sheet` of night `night`'s audit page.
fn audit_crops(archive: &Path, night: &str, sheet: &str, page: &Path) -> Vec<String> {
    let html = audit_page(archive, &["--tournament", night, "--sheet", sheet], page);
    html.split("src=\"data:image")
        .skip(1)
        .map(|s| s.split('"').next().unwrap_or_default().to_string())
        .collect()
}

/// `scan` of the scanner folder `scanner` as night `night` into `out`.
fn scan_night(scanner: &Path, out: &Path, night: &str) {
    let (o, s) = (out.to_str().expect("utf8"), scanner.to_str().expect("utf8"));
    let done = aufsicht_en(&[
        "scan",
        "--rules",
        "merkur",
        "--tournament",
        night,
        "--out",
        o,
        s,
    ]);
    assert!(
        done.status.success(),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
}

#[test]
fn two_nights_of_one_scanner_folder_should_each_show_their_own_scan() {
    let dir = temp("one-scanner-two-nights");
    let scanner = dir.join("scanner");
    std::fs::create_dir_all(&scanner).expect("dir");
    let file = scanner.join("scan0001.jpg");
    let scans = root().join("samples/scans");
    let (both, second_alone) = (dir.join("both"), dir.join("second-alone"));
    std::fs::copy(scans.join("merkur-scanner.jpg"), &file).expect("copy");
    scan_night(&scanner, &both, "first");
    // The next night the scanner writes the same name again.
    std::fs::copy(scans.join("schwaig-phone.jpg"), &file).expect("copy");
    scan_night(&scanner, &both, "second");
    scan_night(&scanner, &second_alone, "second");
    let page = dir.join("audit.html");
    let archive = both.join("aufsicht.sqlite");
    let first = audit_crops(&archive, "first", "1", &page);
    let second = audit_crops(&archive, "second", "2", &page);
    let alone = audit_crops(&second_alone.join("aufsicht.sqlite"), "second", "1", &page);
    assert!(!second.is_empty() && !first.is_empty());
    assert_eq!(second, alone, "the second night's own scan");
    assert!(
        first.iter().all(|c| !second.contains(c)),
        "no crop of one night on the other's page"
    );
    // The file replaced since the second night read it, and its scan
    // not in the archive: the offline page says so and shows no crop.
    std::fs::copy(scans.join("merkur-scanner.jpg"), &file).expect("copy");
    let out = dir.join("review.html");
    let done = aufsicht_en(&[
        "review",
        "--out",
        out.to_str().expect("utf8"),
        second_alone.to_str().expect("utf8"),
    ]);
    assert!(
        done.status.success(),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
    let html = std::fs::read_to_string(&out).expect("page");
    assert!(
        html.contains("has changed since"),
        "the page says the scan changed"
    );
}

/// A Doppelkopf sheet scanned on a Schafkopf night: one flag naming both
/// games instead of a tariff flag a row, and its players not ranked.
#[test]
fn another_games_sheet_should_be_named_once_and_left_out_of_the_ranking() {
    let dir = temp("wrong-game");
    let out = dir.join("out");
    let sample = |name: &str| root().join("samples/scans").join(name);
    let scanned = aufsicht_en(&[
        "scan",
        "--rules",
        "merkur",
        "--out",
        out.to_str().expect("utf8"),
        sample("merkur-scanner.jpg").to_str().expect("utf8"),
        sample("doppelkopf-scanner.jpg").to_str().expect("utf8"),
    ]);
    assert_ne!(
        scanned.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&scanned.stderr)
    );
    let doko = SheetResult::from_path(&out.join("doppelkopf-scanner.json")).expect("result");
    let codes: Vec<&str> = doko.flags.iter().map(|f| f.code.as_str()).collect();
    assert_eq!(codes.first(), Some(&"WRONG_GAME"), "{codes:?}");
    assert!(!codes.contains(&"ROW_ILLEGAL_VALUES"), "{codes:?}");
    assert!(
        doko.flags[0].message.contains("Doppelkopf") && doko.flags[0].message.contains("Schafkopf")
    );
    let archive = out.join("aufsicht.sqlite");
    let standings = aufsicht_en(&[
        "standings",
        "--rules",
        "merkur",
        "--archive",
        archive.to_str().expect("utf8"),
    ]);
    assert!(
        standings.status.success(),
        "{}",
        String::from_utf8_lossy(&standings.stderr)
    );
    let said = String::from_utf8_lossy(&standings.stderr);
    assert!(said.contains("WRONG_GAME"), "{said}");
    let ranked = String::from_utf8_lossy(&standings.stdout);
    for player in doko.players.iter().flatten() {
        let listed = ranked
            .lines()
            .skip(1)
            .any(|l| l.split(',').nth(1) == Some(player.as_str()));
        assert!(!listed, "{player} ranked: {ranked}");
    }
}
