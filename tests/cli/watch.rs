//! `scan --watch`: files read as the scanner drops them into a folder,
//! a file still being written waited for, Ctrl-C ending the run with every
//! result whole and the summary written.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{root, temp};

/// Waits up to a minute for `done`.
fn until(what: &str, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < Duration::from_secs(60), "never: {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn status_of(result: &Path) -> String {
    let text = std::fs::read_to_string(result).expect("result");
    let json: serde_json::Value = serde_json::from_str(&text).expect("json");
    json["status"].as_str().expect("status").to_string()
}

#[test]
fn a_watched_folder_should_be_read_as_the_scanner_fills_it_until_ctrl_c() {
    let dir = temp("watch");
    let (inbox, out, log) = (dir.join("in"), dir.join("out"), dir.join("log"));
    std::fs::create_dir_all(&inbox).expect("inbox");
    let mut child = Command::new(env!("CARGO_BIN_EXE_aufsicht"))
        .args(["--lang", "en", "scan", "--rules", "merkur", "--watch"])
        .arg(&inbox)
        .arg("--out")
        .arg(&out)
        .stderr(std::fs::File::create(&log).expect("log"))
        .stdout(Stdio::null())
        .spawn()
        .expect("start the watch");
    let said = || std::fs::read_to_string(&log).unwrap_or_default();
    until("watching", || said().contains("watching"));

    // The scanner writes a sheet in two bursts, with a pause between.
    let scans = root().join("samples/scans");
    let bytes = std::fs::read(scans.join("merkur-scanner.jpg")).expect("sample");
    let mut file = std::fs::File::create(inbox.join("blatt1.jpg")).expect("create");
    file.write_all(&bytes[..bytes.len() / 2])
        .expect("first half");
    file.flush().expect("flush");
    std::thread::sleep(Duration::from_millis(200));
    file.write_all(&bytes[bytes.len() / 2..])
        .expect("second half");
    drop(file);
    std::fs::copy(scans.join("merkur-fax.tif"), inbox.join("blatt2.tif")).expect("copy");
    until("both read", || {
        out.join("blatt1.json").exists() && out.join("blatt2.json").exists()
    });
    assert_eq!(
        status_of(&out.join("blatt1.json")),
        "flagged",
        "read whole, not half"
    );
    assert!(
        !out.join("summary.csv").exists(),
        "the summary comes at the end"
    );

    let stopped = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(stopped.success());
    let status = child.wait().expect("wait");
    assert!(
        status.success(),
        "Ctrl-C ends the run cleanly: {status:?}\n{}",
        said()
    );
    let summary = std::fs::read_to_string(out.join("summary.csv")).expect("summary");
    assert!(
        summary.contains("blatt1.jpg") && summary.contains("blatt2.tif"),
        "{summary}"
    );
    let parts: Vec<_> = std::fs::read_dir(&out)
        .expect("out")
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".part"))
        .collect();
    assert!(parts.is_empty(), "no result half-written: {parts:?}");
    // ": 1 sheet," (its plural form) and never "11 sheets": each file's own line.
    assert_eq!(said().matches(": 1 sheet,").count(), 2, "{}", said());
}

#[test]
fn watching_a_file_or_nothing_should_be_refused_in_one_line() {
    let dir = temp("watch-bad");
    let out = dir.join("out");
    let file = root().join("README.md");
    let missing = dir.join("no-such-folder");
    for (what, watched) in [("a file", &file), ("nothing", &missing)] {
        let run = crate::common::aufsicht_en(&[
            "scan",
            "--rules",
            "merkur",
            "--watch",
            watched.to_str().expect("utf8"),
            "--out",
            out.to_str().expect("utf8"),
        ]);
        let err = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{what}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{what}: {err}");
    }
    assert!(!out.exists(), "nothing written");
}
