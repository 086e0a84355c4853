//! The `aufsicht-lab` binary as a developer runs it.

#[cfg(feature = "train")]
mod train;

use std::process::{Command, Output};

/// Runs the lab's binary in the repository, messages in English.
pub fn lab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_aufsicht-lab"))
        .current_dir(aufsicht_lab::repository())
        .arg("--lang")
        .arg("en")
        .args(args)
        .output()
        .expect("run aufsicht-lab")
}

#[test]
fn bench_stages_should_time_every_stage_of_a_sample() {
    let sample = aufsicht_lab::repository().join("samples/scans/merkur-scanner.jpg");
    let out = lab(&[
        "bench-stages",
        "--rules",
        "merkur",
        "--passes",
        "1",
        sample.to_str().expect("utf8"),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let table = String::from_utf8_lossy(&out.stdout);
    let rows: Vec<&str> = table
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| stage"))
        .collect();
    assert_eq!(rows.len(), 10, "{table}");
    let median_ms = |stage: &str| -> f64 {
        let row = rows
            .iter()
            .find(|r| r.split('|').nth(1).map(str::trim) == Some(stage));
        row.and_then(|r| r.split('|').nth(2))
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or_else(|| panic!("no {stage} in {table}"))
    };
    for stage in [
        "locate", "confirm", "cut", "read", "code", "decode", "check", "pens",
    ] {
        median_ms(stage);
    }
    // A scanned page's ruled lines, its fields' ink and its digits all take time.
    for stage in ["locate", "cut", "read"] {
        assert!(median_ms(stage) > 0.0, "{stage} takes time: {table}");
    }
    assert!(table.contains("1 pages on one core"), "{table}");
}

#[test]
fn bench_stages_should_leave_out_a_page_it_cannot_read_and_say_so() {
    let dir = tempfile::tempdir().expect("temp dir");
    let junk = dir.path().join("kein-bild.png");
    std::fs::write(&junk, "no image").expect("write");
    let out = lab(&[
        "bench-stages",
        "--rules",
        "merkur",
        "--passes",
        "1",
        junk.to_str().expect("utf8"),
    ]);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{said}");
    assert!(said.contains("unreadable, left out of the times"), "{said}");
    assert!(
        said.contains("no page among the inputs could be read"),
        "{said}"
    );
    assert!(out.stdout.is_empty(), "no table of nothing");
}

/// Two sheets drawn, then scanned and rated in one command: the rates
/// cover both, and nothing is missing.
#[test]
fn generated_sheets_should_be_scanned_and_rated_against_their_truth() {
    let dir = tempfile::tempdir().expect("temp dir");
    let set = dir.path().join("set");
    let s = |p: &std::path::Path| p.to_str().expect("utf8").to_string();
    let made = lab(&[
        "generate",
        "--rules",
        "merkur",
        "--form",
        "punkteliste-a4-32",
        "--count",
        "2",
        "--capture",
        "scanner",
        "--out",
        &s(&set),
    ]);
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    let rated = lab(&[
        "evaluate",
        "--truth",
        &s(&set.join("truth")),
        "--scans",
        &s(&set.join("scans")),
        "--rules",
        "merkur",
        "--results",
        &s(&set.join("out")),
    ]);
    let text = String::from_utf8_lossy(&rated.stdout);
    assert!(
        rated.status.success(),
        "{}",
        String::from_utf8_lossy(&rated.stderr)
    );
    assert!(
        text.contains("sheets 2  missing results 0  unreadable 0"),
        "{text}"
    );
    // One result a sheet, beside the run's summary.csv (as `aufsicht scan` writes).
    let results = std::fs::read_dir(set.join("out"))
        .expect("results")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|name| name.ends_with(".json"))
        .count();
    assert_eq!(results, 2, "{text}");
    assert!(set.join("out/summary.csv").exists(), "{text}");
}
