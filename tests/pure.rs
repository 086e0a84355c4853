//! The build without Tesseract, run as a binary: `cargo test
//! --no-default-features --test pure` (scripts/test.sh runs it). In the
//! default build this file holds no tests; `tests/cli` covers that build.
#![cfg(not(feature = "tesseract"))]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use aufsicht::page::code::TableCode;
use aufsicht::page::form::FormTemplate;
use aufsicht_lab::evaluate::evaluate;

fn aufsicht(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_aufsicht"))
        .args(["--lang", "en"])
        .args(args)
        .output()
        .expect("run aufsicht")
}

fn scan(rules: &str, out: &Path, files: &[PathBuf]) {
    let mut args = vec![
        "scan",
        "--rules",
        rules,
        "--out",
        out.to_str().expect("path"),
    ];
    args.extend(files.iter().map(|f| f.to_str().expect("path")));
    let run = aufsicht(&args);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

fn result(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).expect("result JSON")
}

fn temp(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("aufsicht-pure-{name}-"))
        .tempdir()
        .expect("temp dir")
}

#[test]
fn the_samples_should_be_read_and_their_forms_confirmed_without_tesseract() {
    let out = temp("samples");
    let scans = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/scans");
    let files: Vec<PathBuf> = std::fs::read_dir(&scans)
        .expect("samples")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    // A sample's name starts with its rule set's.
    for rules in ["merkur", "doppelkopf", "schwaig", "turnier30"] {
        let of_rules: Vec<PathBuf> = files
            .iter()
            .filter(|p| {
                let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
                name.starts_with(&format!("{rules}-"))
            })
            .cloned()
            .collect();
        scan(rules, out.path(), &of_rules);
    }
    let truth = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/truth");
    let report = evaluate(&truth, out.path()).expect("evaluate");
    let text = report.lines().join("\n");
    assert_eq!(report.sheets, 6, "{text}");
    assert_eq!(report.missing + report.unreadable, 0, "{text}");
    // The thresholds of the default build's test of the same scans.
    for (what, min) in [
        ("value field ink", 0.99),
        ("footer field ink", 0.99),
        ("circle", 0.95),
        ("initials", 0.97),
        ("signature", 0.9),
        ("value digits", 0.8),
    ] {
        let rate = report.rate(what).unwrap_or(0.0);
        assert!(rate >= min, "{what} {rate} < {min}\n{text}");
    }
    for entry in std::fs::read_dir(out.path()).expect("results") {
        let path = entry.expect("entry").path();
        if path.extension().and_then(|e| e.to_str()) != Some("json") {
            continue;
        }
        let alignment = &result(&path)["alignment"];
        assert_eq!(alignment["title_matches"], true, "{}", path.display());
        assert_eq!(alignment["row_numbers_read"], 3, "{}", path.display());
        assert!(alignment.get("title_read").is_none(), "no letters are read");
    }
}

#[test]
fn a_printed_sheet_whose_code_is_blotted_should_take_its_numbers_from_the_print() {
    let dir = temp("blotted");
    let form = FormTemplate::load("punkteliste-a4-32").expect("form");
    let players = ["0417", "1203", "77", "1999"].map(String::from).to_vec();
    let code = TableCode::new("Nacht", &form.id, 2, 14, players);
    let mut page = aufsicht::page::render::render_printed(&form, &code, &[], 300.0);
    aufsicht_lab::synth::blot_code(&mut page, &form, 300.0);
    let file = dir.path().join("blotted.png");
    page.save(&file).expect("save");
    let results = dir.path().join("results");
    scan("merkur", &results, &[file]);
    let sheet = result(&results.join("blotted.json"));
    assert_eq!(
        sheet["printed"],
        serde_json::Value::Null,
        "the code is not read"
    );
    assert_eq!(sheet["numbers_from_print"], true);
    assert_eq!(
        (sheet["round"].clone(), sheet["table"].clone()),
        (2.into(), 14.into())
    );
    let read: Vec<&str> = sheet["players"]
        .as_array()
        .expect("players")
        .iter()
        .map(|p| p.as_str().unwrap_or("?"))
        .collect();
    assert_eq!(read, ["0417", "1203", "77", "1999"]);
}

#[test]
fn the_tesseract_reader_should_be_refused_in_one_line() {
    let dir = temp("refused");
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/scans/merkur-scanner.jpg");
    let out = dir.path().to_str().expect("path");
    let sample = sample.to_str().expect("path");
    let run = aufsicht(&[
        "scan",
        "--reader",
        "tesseract",
        "--rules",
        "merkur",
        "--out",
        out,
        sample,
    ]);
    assert!(!run.status.success());
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(stderr.contains("no Tesseract"), "{stderr}");
}
