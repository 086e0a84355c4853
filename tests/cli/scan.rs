//! `aufsicht scan` run as a binary on sample scans with known truth, and on
//! every kind of bad input a night's folder can hold.

use std::path::Path;
use std::process::Output;

use crate::common::{aufsicht, aufsicht_en, root, temp};

use aufsicht_lab::evaluate::evaluate;

fn ok(out: &Output) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success(), "aufsicht failed: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    stderr
}

fn result(path: &Path) -> serde_json::Value {
    serde_json::from_str(
        &std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())),
    )
    .expect("result JSON")
}

#[test]
fn sample_scans_should_be_laid_out_as_their_truth() {
    let out = temp("samples");
    let scans = root().join("samples/scans");
    let mut rules: Vec<String> = std::fs::read_dir(&scans)
        .expect("samples")
        .filter_map(|e| {
            e.ok()?
                .file_name()
                .to_str()?
                .split('-')
                .next()
                .map(str::to_string)
        })
        .collect();
    rules.sort();
    rules.dedup();
    for r in &rules {
        let files: Vec<String> = std::fs::read_dir(&scans)
            .expect("samples")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with(&format!("{r}-")))
            })
            .map(|p| p.display().to_string())
            .collect();
        let mut args = vec![
            "scan",
            "--rules",
            r.as_str(),
            "--out",
            out.to_str().expect("path"),
        ];
        args.extend(files.iter().map(String::as_str));
        ok(&aufsicht(&args));
    }
    let report = evaluate(&root().join("samples/truth"), &out).expect("evaluate");
    let text = report.lines().join("\n");
    assert_eq!(report.sheets, 6, "{text}");
    assert_eq!(report.missing + report.unreadable, 0, "{text}");
    let at_least = |what: &str, min: f64| {
        let rate = report.rate(what).unwrap_or(0.0);
        assert!(rate >= min, "{what} {rate} < {min}\n{text}");
    };
    at_least("value field ink", 0.99);
    at_least("footer field ink", 0.99);
    at_least("circle", 0.95);
    at_least("initials", 0.97);
    at_least("signature", 0.9);
    // The trained digit reader (default) on the samples' digits (MNIST training
    // digits it was trained on: this checks the plumbing, docs/measurements.md
    // has the numbers on held-back digits).
    at_least("value digits", 0.8);
    // Every scanned sheet names its form and how well the grid fitted.
    let merkur = result(&out.join("merkur-scanner.json"));
    assert_eq!(merkur["form"], "punkteliste-a4-32");
    assert!(merkur["alignment"]["fit"].as_f64().unwrap_or(0.0) > 0.9);
    // The title's ink is the form's font's, and Tesseract reads the row
    // numbers: the form is confirmed, the title not read as text.
    assert_eq!(merkur["alignment"]["title_matches"], true);
    assert!(merkur["alignment"].get("title_read").is_none());
    assert_eq!(merkur["alignment"]["row_numbers_read"], 3);
    assert_eq!(merkur["reader"], "cnn-mnist");
    let doko = result(&out.join("doppelkopf-scanner.json"));
    assert_eq!(doko["form"], "doko-a4-24x5");
    assert!(
        out.join("turnier30-clean-p1.json").exists(),
        "PDF pages are named -p<N>"
    );
}

/// The values and rings of every game, as scanned.
fn game_values(r: &serde_json::Value) -> Vec<(serde_json::Value, serde_json::Value, bool)> {
    r["games"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|g| g["cells"].as_array().cloned().unwrap_or_default())
        .map(|c| (c["plus"].clone(), c["minus"].clone(), c["circled"] == true))
        .collect()
}

#[test]
fn a_page_turned_any_way_should_be_read_as_the_upright_one() {
    let dir = temp("turned");
    let img = image::open(root().join("samples/scans/merkur-scanner.jpg"))
        .expect("sample")
        .to_luma8();
    let pages = dir.join("pages");
    std::fs::create_dir_all(&pages).expect("dir");
    for (name, page) in [
        ("upright", img.clone()),
        ("clockwise", image::imageops::rotate90(&img)),
        ("upside-down", image::imageops::rotate180(&img)),
        ("counter-clockwise", image::imageops::rotate270(&img)),
    ] {
        page.save(pages.join(format!("{name}.png"))).expect("save");
    }
    let out = dir.join("out");
    ok(&aufsicht(&[
        "scan",
        "--rules",
        "merkur",
        "--out",
        out.to_str().expect("p"),
        pages.to_str().expect("p"),
    ]));
    let upright = result(&out.join("upright.json"));
    assert_eq!(upright["games"].as_array().map(Vec::len), Some(32));
    for (name, turns) in [
        ("clockwise", 1),
        ("upside-down", 2),
        ("counter-clockwise", 3),
    ] {
        let r = result(&out.join(format!("{name}.json")));
        assert_eq!(r["status"], upright["status"], "{name}");
        assert_eq!(r["alignment"]["quarter_turns"], turns, "{name}");
        assert_eq!(r["alignment"]["upside_down"], turns == 2, "{name}");
        // Every cell read surely both ways reads the same; a cell read
        // unsure in one of them (a ring's arc taken for a trailing digit
        // in one orientation) goes to a person there, never silently.
        let (turned, upright_values) = (game_values(&r), game_values(&upright));
        let mut differing = 0;
        for (i, (a, b)) in turned.iter().zip(&upright_values).enumerate() {
            if a == b {
                continue;
            }
            differing += 1;
            let (row, seat) = (i / 4 + 1, i % 4 + 1);
            let asked =
                |v: &serde_json::Value| {
                    v["flags"].as_array().into_iter().flatten().any(|f| {
                        f["code"] == "CELL_UNCERTAIN" && f["row"] == row && f["seat"] == seat
                    })
                };
            assert!(
                asked(&r) || asked(&upright),
                "{name}: row {row} seat {seat}"
            );
        }
        assert_eq!(turned.len(), upright_values.len(), "{name}");
        assert!(differing <= 1, "{name}: {differing} cells read otherwise");
    }
}

/// A PNG header that claims 60000×60000 pixels.
fn huge_png() -> Vec<u8> {
    let mut ihdr = b"IHDR".to_vec();
    ihdr.extend(60000u32.to_be_bytes());
    ihdr.extend(60000u32.to_be_bytes());
    ihdr.extend([8, 0, 0, 0, 0]);
    let mut crc = flate2::Crc::new();
    crc.update(&ihdr);
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    png.extend(13u32.to_be_bytes());
    png.extend(&ihdr);
    png.extend(crc.sum().to_be_bytes());
    png.extend(0u32.to_be_bytes());
    png.extend(b"IEND\xaeB`\x82");
    png
}

#[test]
fn bad_inputs_should_each_get_an_unreadable_result_and_the_batch_goes_on() {
    let dir = temp("bad");
    let night = dir.join("night");
    std::fs::create_dir_all(&night).expect("dir");
    let good = std::fs::read(root().join("samples/scans/merkur-scanner.jpg")).expect("sample");
    let write = |name: &str, bytes: &[u8]| std::fs::write(night.join(name), bytes).expect("write");
    write("a-good.jpg", &good);
    write("a-good.png", b"not really a png");
    write("empty.png", b"");
    write("truncated.jpg", &good[..good.len() / 3]);
    let noise: Vec<u8> = (0..5000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    write("noise.jpg", &noise);
    write("huge.png", &huge_png());
    write(
        "broken.pdf",
        b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF",
    );
    write("notes.txt", b"Tisch 7 hat zu spaet abgegeben");
    image::GrayImage::from_pixel(1240, 1754, image::Luma([245]))
        .save(night.join("blank.png"))
        .expect("blank");
    // A page of something else: a ruled letter-like page with other lines.
    let mut other = image::GrayImage::from_pixel(1240, 1754, image::Luma([250]));
    for y in (100..1700).step_by(37) {
        for x in 80..1160 {
            other.put_pixel(x, y, image::Luma([30]));
        }
    }
    other.save(night.join("other.png")).expect("other");
    let out = dir.join("out");
    let stderr = ok(&aufsicht(&[
        "scan",
        "--rules",
        "merkur",
        "--out",
        out.to_str().expect("p"),
        night.to_str().expect("p"),
    ]));
    assert!(
        stderr.contains("notes.txt: übersprungen (kein Bild und kein PDF)"),
        "{stderr}"
    );
    for name in [
        "empty",
        "truncated",
        "noise",
        "huge",
        "broken-p1",
        "blank",
        "other",
    ] {
        let r = result(&out.join(format!("{name}.json")));
        assert_eq!(r["status"], "unreadable", "{name}");
        assert_eq!(r["flags"][0]["code"], "SHEET_UNREADABLE", "{name}");
        assert!(
            r["flags"][0]["message"]
                .as_str()
                .is_some_and(|m| m.len() > 20),
            "{name}: a reason"
        );
    }
    assert_eq!(
        result(&out.join("a-good.json"))["status"],
        "flagged",
        "the good sheet is still read"
    );
    assert_eq!(
        result(&out.join("a-good.png.json"))["status"],
        "unreadable",
        "same stem: the extension keeps the results apart"
    );
    let written: Vec<_> = std::fs::read_dir(&out)
        .expect("out")
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
        .collect();
    assert_eq!(
        written.len(),
        9,
        "one result per image or PDF, nothing else"
    );
    let summary = std::fs::read_to_string(out.join("summary.csv")).expect("summary.csv");
    assert_eq!(
        summary.lines().count(),
        1 + 9 + 1,
        "and notes.txt: {summary}"
    );
    assert_eq!(summary.matches(",unreadable,").count(), 8, "{summary}");
    let mut listing: Vec<String> = std::fs::read_dir(&dir)
        .expect("dir")
        .filter_map(|e| Some(e.ok()?.file_name().to_str()?.to_string()))
        .collect();
    listing.sort();
    assert_eq!(listing, ["night", "out"], "nothing written outside --out");
}

#[test]
fn a_sheet_of_the_other_form_should_be_unreadable_when_the_form_is_given() {
    let dir = temp("foreign");
    let out = dir.join("out");
    let doko = root().join("samples/scans/doppelkopf-scanner.jpg");
    ok(&aufsicht(&[
        "scan",
        "--rules",
        "merkur",
        "--form",
        "punkteliste-a4-32",
        "--out",
        out.to_str().expect("p"),
        doko.to_str().expect("p"),
    ]));
    let r = result(&out.join("doppelkopf-scanner.json"));
    assert_eq!(r["status"], "unreadable");
}

#[test]
fn a_multi_page_pdf_should_give_one_result_per_page() {
    let dir = temp("pdf");
    let page = image::open(root().join("samples/scans/merkur-scanner.jpg"))
        .expect("sample")
        .to_luma8();
    let blank = image::GrayImage::from_pixel(page.width(), page.height(), image::Luma([250]));
    // Pages are read on all cores: the sheet (slow) first, the blank
    // page (fast) second; results and summary still follow the pages.
    let pdf = aufsicht::page::render::pdf_of_pages(&[page, blank.clone(), blank], 150.0);
    std::fs::write(dir.join("night.pdf"), pdf).expect("pdf");
    let out = dir.join("out");
    ok(&aufsicht(&[
        "scan",
        "--rules",
        "merkur",
        "--out",
        out.to_str().expect("p"),
        dir.join("night.pdf").to_str().expect("p"),
    ]));
    assert_eq!(result(&out.join("night-p1.json"))["status"], "flagged");
    assert_eq!(result(&out.join("night-p1.json"))["page"], 1);
    for p in [2, 3] {
        let r = result(&out.join(format!("night-p{p}.json")));
        assert_eq!(
            (r["status"].as_str(), r["page"].as_u64()),
            (Some("unreadable"), Some(p))
        );
    }
    let summary = std::fs::read_to_string(out.join("summary.csv")).expect("summary");
    let pages: Vec<&str> = summary
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(2).unwrap_or(""))
        .collect();
    assert_eq!(pages, ["night-p1.json", "night-p2.json", "night-p3.json"]);
}

#[test]
fn render_form_should_write_png_and_pdf_that_scan_as_the_form() {
    let dir = temp("render");
    for ext in ["png", "pdf"] {
        let file = dir.join(format!("blank.{ext}"));
        ok(&aufsicht(&[
            "render-form",
            "--form",
            "doko-a4-24x5",
            "--dpi",
            "150",
            "--out",
            file.to_str().expect("p"),
        ]));
        assert!(file.metadata().map(|m| m.len() > 1000).unwrap_or(false));
    }
    let out = dir.join("out");
    ok(&aufsicht(&[
        "scan",
        "--rules",
        "doppelkopf",
        "--out",
        out.to_str().expect("p"),
        dir.join("blank.png").to_str().expect("p"),
    ]));
    let r = result(&out.join("blank.json"));
    assert_eq!(r["form"], "doko-a4-24x5", "a blank form is recognised");
    assert_eq!(r["games"].as_array().map(Vec::len), Some(0));
    let err = aufsicht(&[
        "render-form",
        "--form",
        "doko-a4-24x5",
        "--out",
        dir.join("x.bmp").to_str().expect("p"),
    ]);
    assert!(!err.status.success());
}

#[test]
fn participant_numbers_not_on_the_list_should_each_be_flagged() {
    let out = temp("participants");
    let list = out.join("list.csv");
    std::fs::write(&list, "nr,name\n99999,Niemand\n").expect("write");
    let scan = root().join("samples/scans/merkur-scanner.jpg");
    ok(&aufsicht(&[
        "scan",
        "--rules",
        "merkur",
        "--no-archive",
        "--participants",
        list.to_str().expect("path"),
        "--out",
        out.to_str().expect("path"),
        scan.to_str().expect("path"),
    ]));
    let sheet = result(&out.join("merkur-scanner.json"));
    let players = sheet["players"].as_array().expect("players");
    for (i, p) in players.iter().enumerate() {
        if p.is_null() {
            continue;
        }
        let flagged = sheet["flags"].as_array().expect("flags").iter().any(|f| {
            f["code"] == "CELL_UNCERTAIN" && f["field"] == "player_id" && f["seat"] == i + 1
        });
        assert!(flagged, "seat {}'s number {p} is not on the list", i + 1);
    }
    assert!(players.iter().any(|p| !p.is_null()), "numbers were read");

    let empty = out.join("empty.txt");
    std::fs::write(&empty, "no numbers here\n").expect("write");
    let err = aufsicht_en(&[
        "scan",
        "--rules",
        "merkur",
        "--no-archive",
        "--participants",
        empty.to_str().expect("path"),
        "--out",
        out.to_str().expect("path"),
        scan.to_str().expect("path"),
    ]);
    assert!(!err.status.success());
    let stderr = String::from_utf8_lossy(&err.stderr);
    assert!(stderr.contains("no participant numbers"), "{stderr}");
}

/// Generates `count` printed merkur sheets, each with a digit put in front
/// of one value in another pen, captured as `capture` (in colour where
/// `colour`), and scans them: (truth, result) per sheet.
fn later_edits_scanned(
    name: &str,
    capture: &str,
    colour: bool,
) -> Vec<(serde_json::Value, serde_json::Value)> {
    let dir = temp(name);
    let s = |p: &Path| p.display().to_string();
    let mut args = vec![
        "aufsicht-lab".to_string(),
        "--lang".into(),
        "en".into(),
        "generate".into(),
        "--rules".into(),
        "merkur".into(),
        "--form".into(),
        "punkteliste-a4-32".into(),
        "--count".into(),
        "4".into(),
        "--printed".into(),
        "--writer-errors".into(),
        "0".into(),
        "--later-edits".into(),
        "1".into(),
        "--capture".into(),
        capture.into(),
        "--seed".into(),
        "77".into(),
        "--out".into(),
        s(&dir),
    ];
    if colour {
        args.push("--colour".into());
    }
    aufsicht_lab::cli::run(args).expect("generate");
    let results = dir.join("results");
    ok(&aufsicht_en(&[
        "scan",
        "--rules",
        "merkur",
        "--no-archive",
        "--out",
        &s(&results),
        &s(&dir.join("scans")),
    ]));
    let mut truths: Vec<_> = std::fs::read_dir(dir.join("truth"))
        .expect("truth")
        .map(|e| e.expect("entry").path())
        .collect();
    truths.sort();
    truths
        .iter()
        .map(|t| {
            let name = t.file_name().expect("name");
            (result(t), result(&results.join(name)))
        })
        .collect()
}

/// The `INK_DIFFERS` flags of a result: (row, seat, field).
fn ink_flags(
    r: &serde_json::Value,
) -> Vec<(serde_json::Value, serde_json::Value, serde_json::Value)> {
    r["flags"]
        .as_array()
        .expect("flags")
        .iter()
        .filter(|f| f["code"] == "INK_DIFFERS")
        .map(|f| (f["row"].clone(), f["seat"].clone(), f["field"].clone()))
        .collect()
}

#[test]
fn a_digit_put_in_front_in_another_pen_should_be_flagged_on_a_colour_scan_and_nothing_else() {
    for (truth, result) in later_edits_scanned("later-edits-colour", "scanner", true) {
        let edit = &truth["later_edit"];
        assert!(edit.is_object(), "every sheet edited: {truth}");
        let flags = ink_flags(&result);
        assert_eq!(
            flags,
            [(
                edit["row"].clone(),
                edit["seat"].clone(),
                edit["field"].clone()
            )],
            "{}: {edit}",
            result["source"]
        );
        let message = result["flags"]
            .as_array()
            .and_then(|f| f.iter().find(|f| f["code"] == "INK_DIFFERS"))
            .map(|f| f["message"].as_str().unwrap_or_default().to_string())
            .unwrap_or_default();
        assert!(message.contains("another pen"), "{message}");
    }
}

#[test]
fn a_bilevel_scan_should_raise_no_ink_flag() {
    for (_, result) in later_edits_scanned("later-edits-bilevel", "bilevel", true) {
        assert_eq!(ink_flags(&result), [], "{}", result["source"]);
    }
}

#[test]
fn on_a_grey_scan_no_value_but_the_edited_one_should_be_flagged() {
    for (truth, result) in later_edits_scanned("later-edits-grey", "scanner", false) {
        let edit = &truth["later_edit"];
        let at_edit = (
            edit["row"].clone(),
            edit["seat"].clone(),
            edit["field"].clone(),
        );
        for flag in ink_flags(&result) {
            assert_eq!(flag, at_edit, "{}", result["source"]);
        }
    }
}

/// An empty folder, or one of notes only, is no night: the scan fails in
/// one line and leaves no results folder and no night in the archive.
#[test]
fn a_scan_that_finds_no_sheet_should_fail_in_one_line_and_make_no_night() {
    let dir = temp("nothing");
    let empty = dir.join("empty");
    let notes = dir.join("notes");
    std::fs::create_dir_all(&empty).expect("mkdir");
    std::fs::create_dir_all(&notes).expect("mkdir");
    std::fs::write(notes.join("list.txt"), "not a scan\n").expect("write");
    let archive = dir.join("club.sqlite");
    for input in [&empty, &notes] {
        let out = dir.join("leer");
        let run = aufsicht(&[
            "scan",
            "--rules",
            "merkur",
            "--archive",
            archive.to_str().expect("path"),
            "--out",
            out.to_str().expect("path"),
            input.to_str().expect("path"),
        ]);
        assert!(!run.status.success(), "{}", input.display());
        let stderr = String::from_utf8_lossy(&run.stderr);
        let last = stderr.lines().last().unwrap_or_default();
        assert!(last.contains("Kein Bild und kein PDF"), "{stderr}");
        assert!(!out.exists(), "no results folder of nothing");
    }
    assert!(
        !archive.exists()
            || aufsicht::night::club::archive::Archive::open(&archive)
                .expect("archive")
                .pick_tournament(None)
                .is_err(),
        "no night of nothing"
    );
}

/// The command line's own mistakes are told in the run's language in one
/// line, with the help to ask for: a missing option, an unknown one, a
/// value not allowed, an unknown command.
#[test]
fn a_wrong_command_line_should_be_told_in_one_line_of_the_users_language() {
    let cases: [(&[&str], &str); 6] = [
        (&["scan", "--out", "x", "y"], "Es fehlt: --rules"),
        // The archive stands for missing folders, not for a missing option.
        (
            &["writers", "--archive", "verein.sqlite"],
            "Es fehlt: --rules <REGELWERK>.",
        ),
        (
            &["standings", "--rules", "merkur"],
            "oder --archive ARCHIV.",
        ),
        (
            &["scan", "--rules", "merkur", "--bogus", "y"],
            "Unbekannte Angabe: --bogus",
        ),
        (&["scna"], "Unbekannter Befehl: scna"),
        (
            &["--lang", "en", "verify", "--rules"],
            "Help: aufsicht verify --help",
        ),
    ];
    for (args, says) in cases {
        let run = aufsicht(args);
        assert_eq!(run.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(
            stderr.starts_with("aufsicht: ") && stderr.contains(says),
            "{args:?}: {stderr}"
        );
    }
    let help = aufsicht(&["scan", "--help"]);
    assert!(help.status.success(), "help is no error");
}

/// A folder scanned into itself: the scan's own results, summary and
/// archive are not reported as files passed over, the next time either.
#[test]
fn a_folder_scanned_into_itself_should_not_list_its_own_results() {
    let dir = temp("into-itself");
    std::fs::copy(
        root().join("samples/scans/merkur-scanner.jpg"),
        dir.join("merkur-scanner.jpg"),
    )
    .expect("copy");
    let d = dir.to_str().expect("utf8");
    for _ in 0..2 {
        let run = aufsicht(&["scan", "--rules", "merkur", "--out", d, d]);
        let stderr = ok(&run);
        assert!(!stderr.contains("übersprungen"), "{stderr}");
    }
}

/// The man page is whole: every command has its section with its
/// options, and no page is named that is not installed.
#[test]
fn the_man_page_should_hold_every_command_and_name_no_other_page() {
    let man = aufsicht(&["generate", "man"]);
    ok(&man);
    let text = String::from_utf8_lossy(&man.stdout).to_string();
    for command in [
        "SCAN",
        "CORRECT",
        "ARCHIVE BACKUP",
        "ARCHIVE CHECK",
        "RENDER-FORM",
    ] {
        assert!(
            text.contains(&format!(".SH \"AUFSICHT {command}\"")),
            "{command}"
        );
    }
    assert!(
        text.contains("\\-\\-participants"),
        "scan's options are listed"
    );
    assert!(
        !text.contains("aufsicht\\-scan(1)"),
        "no page of its own is named"
    );
}

/// Every command's help shows an example and describes every option, in
/// either language.
#[test]
fn every_command_should_have_an_example_and_every_option_a_description() {
    let commands = [
        "scan",
        "verify",
        "draw",
        "print",
        "standings",
        "season",
        "export",
        "correct",
        "archive",
        "audit",
        "review",
        "render-form",
        "form",
        "generate",
    ];
    let languages = [("de", "Beispiel:", "Aufruf:"), ("en", "Example:", "Usage:")];
    for (command, (lang, example, usage)) in
        commands.into_iter().flat_map(|c| languages.map(|l| (c, l)))
    {
        let help = aufsicht(&["--lang", lang, command, "--help"]);
        let text = String::from_utf8_lossy(&help.stdout).to_string();
        assert!(
            text.contains(&format!("{example}\n  aufsicht ")),
            "{command}: {text}"
        );
        assert!(
            text.starts_with(|c: char| c.is_uppercase()),
            "{command}: {text}"
        );
        assert!(text.contains(usage), "{command}: {text}");
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let option = line.trim_start();
            let indent = line.len() - option.len();
            let named = option.starts_with('-') || option.starts_with('[');
            // Options stand two or six places in; what is further in describes one.
            if !(1..=6).contains(&indent) || !named {
                continue;
            }
            let said_beside = option.trim_end().contains("  ");
            let said_below = lines.get(i + 1).is_some_and(|next| {
                next.len() - next.trim_start().len() > indent && !next.trim().is_empty()
            });
            assert!(said_beside || said_below, "{command}: {line}");
        }
    }
}

/// A template held against a scan: every box drawn over it, and a form
/// that does not fit or a file that is no scan said in one line.
#[test]
fn form_check_should_draw_the_boxes_and_say_when_a_form_does_not_fit() {
    let dir = temp("form-check");
    let scan = root().join("samples/scans/merkur-scanner.jpg");
    let run = |form: &str, scan: &Path, out: &Path| {
        aufsicht(&[
            "form",
            "check",
            form,
            scan.to_str().expect("utf-8"),
            "--out",
            out.to_str().expect("utf-8"),
        ])
    };
    let fits = dir.join("fits.png");
    let ok = run("punkteliste-a4-32", &scan, &fits);
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    let drawn = image::open(&fits).expect("a PNG").to_rgb8();
    let red = drawn.pixels().filter(|p| p[0] > 200 && p[1] < 40).count();
    assert!(red > 10_000, "the boxes drawn: {red} red pixels");
    let wrong = run("doko-a4-24x5", &scan, &dir.join("wrong.png"));
    let said = String::from_utf8_lossy(&wrong.stderr);
    assert!(
        !wrong.status.success() && said.contains("passt nicht"),
        "{said}"
    );
    let none = dir.join("none.png");
    let junk = run("punkteliste-a4-32", &root().join("README.md"), &none);
    let said = String::from_utf8_lossy(&junk.stderr);
    assert!(
        !junk.status.success() && said.trim().lines().count() == 1,
        "{said}"
    );
    assert!(!none.exists(), "nothing written");
}
