//! The batch as a hostile world meets it: files of one name in several
//! folders, links into loops, FIFOs, dead links, files that claim gigabytes,
//! a kill of the visible pid, two scans into one archive at once, results of
//! two rule sets in one ranking, absurd templates. Every input has its
//! outcome; nothing hangs, nothing is lost, nothing is read twice.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::{aufsicht, root, temp};

use aufsicht::night::club::archive::Archive;

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_aufsicht"));
    c.env_remove("AUFSICHT_LANG");
    c
}

/// Runs to the end, or fails the test after `limit` (a hang is a failure).
fn run_within(mut cmd: Command, limit: Duration) -> Output {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start");
    let start = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("still running after {limit:?}: it hangs");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().expect("output")
}

fn json(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).expect("json")
}

/// The sample scan with a different byte after its end: another file, the same sheet.
fn sample_variant(n: u8) -> Vec<u8> {
    let mut bytes = std::fs::read(root().join("samples/scans/merkur-scanner.jpg")).expect("sample");
    bytes.push(n);
    bytes
}

/// `scan --lang en --no-archive` of `night` into `out`, which must succeed.
fn scan_unarchived(night: &Path, out: &Path) {
    let mut scan = bin();
    let args = [
        "--lang",
        "en",
        "scan",
        "--rules",
        "merkur",
        "--no-archive",
        "--out",
    ];
    scan.args(args).args([out, night]);
    let run = run_within(scan, Duration::from_secs(120));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

#[test]
fn same_names_links_fifos_and_dead_links_should_each_have_their_own_outcome() {
    let dir = temp("names");
    let night = dir.join("night");
    for (i, round) in ["runde1", "runde2", "runde3"].iter().enumerate() {
        std::fs::create_dir_all(night.join(round)).expect("dir");
        std::fs::write(night.join(round).join("x.jpg"), sample_variant(i as u8)).expect("write");
    }
    std::os::unix::fs::symlink(".", night.join("loop")).expect("link");
    std::os::unix::fs::symlink("/nonexistent/scan.png", night.join("dead.png")).expect("link");
    let fifo = night.join("pipe.png");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    let out = dir.join("out");

    let mut scan = bin();
    scan.args([
        "--lang",
        "en",
        "scan",
        "--rules",
        "merkur",
        "--out",
        s(&out),
        s(&night),
    ]);
    let run = run_within(scan, Duration::from_secs(300));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(
        run.status.code(),
        Some(1),
        "a dead link is reported: {stderr}"
    );
    assert!(
        stderr.contains("dead.png: not read: file not found"),
        "{stderr}"
    );
    assert!(
        stderr.contains("pipe.png: skipped (not a regular file but a FIFO)"),
        "{stderr}"
    );
    assert!(
        stderr.contains("loop: skipped (a link to what was read already)"),
        "{stderr}"
    );

    // Three results, each naming its own scan.
    let mut sources: Vec<String> = ["x", "runde2-x", "runde3-x"]
        .iter()
        .map(|name| {
            json(&out.join(format!("{name}.json")))["source"]
                .as_str()
                .expect("source")
                .to_string()
        })
        .collect();
    sources.sort();
    let expected: Vec<String> = ["runde1", "runde2", "runde3"]
        .iter()
        .map(|r| night.join(r).join("x.jpg").display().to_string())
        .collect();
    assert_eq!(sources, expected);
    let summary = std::fs::read_to_string(out.join("summary.csv")).expect("summary");
    assert_eq!(summary.lines().count(), 1 + 3 + 3, "{summary}");
    assert_eq!(summary.matches(",not_read,").count(), 3, "{summary}");
    let db = Archive::open(&out.join("aufsicht.sqlite")).expect("archive");
    let t = db.pick_tournament(None).expect("tournament");
    let mut archived: Vec<String> = db
        .sheets(t)
        .expect("sheets")
        .into_iter()
        .filter_map(|s| s.result_file)
        .collect();
    archived.sort();
    assert_eq!(archived, ["runde2-x.json", "runde3-x.json", "x.json"]);

    // A second run with one round keeps the names and the first run's rows.
    let mut again = bin();
    again.args([
        "scan",
        "--rules",
        "merkur",
        "--out",
        s(&out),
        s(&night.join("runde2")),
    ]);
    let second = run_within(again, Duration::from_secs(120));
    assert!(
        second.status.success(),
        "{}",
        String::from_utf8_lossy(&second.stderr)
    );
    let summary = std::fs::read_to_string(out.join("summary.csv")).expect("summary");
    assert_eq!(summary.lines().count(), 1 + 3 + 3, "{summary}");
    assert!(summary.contains(",runde2-x.json,"), "{summary}");
}

#[test]
fn a_kill_of_the_visible_pid_should_leave_no_worker_behind() {
    let dir = temp("kill-pid");
    let out = dir.join("out-of-the-killed-scan");
    let mut child = bin()
        // As a user's shell starts it: the program must set this itself.
        .env_remove("OMP_THREAD_LIMIT")
        .args([
            "scan",
            "--rules",
            "merkur",
            "--out",
            s(&out),
            s(&root().join("samples/scans")),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start scan");
    let pid = child.id();
    let environ = PathBuf::from(format!("/proc/{pid}/environ"));
    let start = Instant::now();
    let has_limit = || {
        std::fs::read(&environ)
            .is_ok_and(|e| e.split(|&b| b == 0).any(|v| v == b"OMP_THREAD_LIMIT=1"))
    };
    while !has_limit() && start.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(
        has_limit(),
        "the visible pid itself runs with the limit set"
    );
    child.kill().expect("kill -9");
    let _ = child.wait();
    std::thread::sleep(Duration::from_secs(1));
    let left: Vec<String> = std::fs::read_dir("/proc")
        .expect("/proc")
        .flatten()
        .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
        .map(|c| String::from_utf8_lossy(&c).replace('\0', " "))
        .filter(|c| c.contains("out-of-the-killed-scan"))
        .collect();
    assert!(left.is_empty(), "a worker runs on: {left:?}");
}

/// A PNG whose header claims `w`×`h` pixels, with a few bytes of data.
fn png_claiming(w: u32, h: u32) -> Vec<u8> {
    let chunk = |kind: &[u8], data: &[u8]| {
        let mut body = kind.to_vec();
        body.extend(data);
        let mut crc = flate2::Crc::new();
        crc.update(&body);
        let mut c = (data.len() as u32).to_be_bytes().to_vec();
        c.extend(body);
        c.extend(crc.sum().to_be_bytes());
        c
    };
    let mut ihdr = w.to_be_bytes().to_vec();
    ihdr.extend(h.to_be_bytes());
    ihdr.extend([8, 0, 0, 0, 0]);
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    png.extend(chunk(b"IHDR", &ihdr));
    png.extend(chunk(b"IDAT", &deflate(&[0u8; 4096])));
    png.extend(chunk(b"IEND", b""));
    png
}

fn deflate(data: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    z.write_all(data).expect("deflate");
    z.finish().expect("deflate")
}

/// A one-page PDF whose image claims `w`×`h` gray pixels and holds `stream`.
fn pdf_with_image(w: u32, h: u32, stream: &[u8]) -> Vec<u8> {
    let image = format!(
        "<< /Type /XObject /Subtype /Image /Width {w} /Height {h} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode /Length {} >>\nstream\n",
        stream.len()
    );
    let mut objects: Vec<Vec<u8>> = vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /XObject << /Im1 4 0 R >> >> >>".to_vec(),
    ];
    let mut img = image.into_bytes();
    img.extend(stream);
    img.extend(b"\nendstream");
    objects.push(img);
    let mut pdf = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::new();
    for (i, o) in objects.iter().enumerate() {
        offsets.push(pdf.len());
        pdf.extend(format!("{} 0 obj\n", i + 1).bytes());
        pdf.extend(o);
        pdf.extend(b"\nendobj\n");
    }
    let xref = pdf.len();
    pdf.extend(format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).bytes());
    for o in offsets {
        pdf.extend(format!("{o:010} 00000 n \n").bytes());
    }
    pdf.extend(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .bytes(),
    );
    pdf
}

#[test]
fn files_that_claim_gigabytes_should_be_unreadable_with_a_reason_and_never_a_panic() {
    let dir = temp("bombs");
    let night = dir.join("night");
    std::fs::create_dir_all(&night).expect("dir");
    let write = |name: &str, bytes: &[u8]| std::fs::write(night.join(name), bytes).expect("write");
    write("huge.png", &png_claiming(20_000, 20_000));
    write("wide.png", &png_claiming(19_000, 19_000));
    // 64 MB of zeros, compressed to about 64 KB, for a page of one megapixel.
    write(
        "bomb.pdf",
        &pdf_with_image(1000, 1000, &deflate(&vec![0u8; 64 << 20])),
    );
    write(
        "giant.pdf",
        &pdf_with_image(20_000, 20_000, &deflate(&[0u8; 1024])),
    );
    let out = dir.join("out");
    scan_unarchived(&night, &out);
    for (name, reason) in [
        ("huge", "the image is too large (20000×20000 px)"),
        ("wide", "the image is too large (19000×19000 px)"),
        (
            "bomb-p1",
            "the image data in the PDF would unpack to more than 1 MB",
        ),
        ("giant-p1", "the image is too large (20000×20000 px)"),
    ] {
        let r = json(&out.join(format!("{name}.json")));
        assert_eq!(r["status"], "unreadable", "{name}");
        let message = r["flags"][0]["message"].as_str().unwrap_or_default();
        assert!(message.contains(reason), "{name}: {message}");
    }

    // In German, the reason is German too.
    let de = dir.join("de");
    let mut scan = bin();
    scan.args([
        "scan",
        "--rules",
        "merkur",
        "--no-archive",
        "--out",
        s(&de),
        s(&night.join("huge.png")),
    ]);
    assert!(run_within(scan, Duration::from_secs(60)).status.success());
    let message = json(&de.join("huge.json"))["flags"][0]["message"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert_eq!(
        message,
        "Blatt nicht lesbar: das Bild ist zu groß (20000×20000 px); ein Scan mit 300 dpi genügt."
    );
}

#[test]
fn two_scans_into_one_archive_at_once_should_both_archive_everything() {
    let dir = temp("two-writers");
    let archive = dir.join("night.sqlite");
    let mut scans = Vec::new();
    for half in 0..2u8 {
        let folder = dir.join(format!("in{half}"));
        std::fs::create_dir_all(&folder).expect("dir");
        for i in 0..3u8 {
            std::fs::write(
                folder.join(format!("t{i}.jpg")),
                sample_variant(10 * half + i),
            )
            .expect("write");
        }
        let mut scan = bin();
        scan.args([
            "scan",
            "--rules",
            "merkur",
            "--archive",
            s(&archive),
            "--tournament",
            "night",
            "--out",
            s(&dir.join(format!("out{half}"))),
            s(&folder),
        ]);
        scans.push(std::thread::spawn(move || {
            run_within(scan, Duration::from_secs(300))
        }));
    }
    for scan in scans {
        let run = scan.join().expect("thread");
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
    }
    let db = Archive::open(&archive).expect("archive");
    let t = db.pick_tournament(Some("night")).expect("tournament");
    assert_eq!(db.sheets(t).expect("sheets").len(), 6);
}

#[test]
fn standings_should_refuse_results_of_another_rule_set_and_name_them() {
    let dir = temp("mixed-rules");
    let truth = root().join("samples/truth");
    for name in ["merkur-scanner.json", "doppelkopf-scanner.json"] {
        std::fs::copy(truth.join(name), dir.join(name)).expect("copy");
    }
    let out = aufsicht(&["--lang", "en", "standings", "--rules", "merkur", s(&dir)]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(
        stderr.contains("1 sheet was read under another rule set than --rules merkur")
            && stderr.contains("doppelkopf-scanner.json (doppelkopf)"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty(), "no ranking of a mixed night");
}

/// The sample merkur truth with `change` made to its JSON, written as `name` in `dir`.
fn hostile_result(dir: &Path, name: &str, change: impl Fn(&mut serde_json::Value)) -> PathBuf {
    let mut v = json(&root().join("samples/truth/merkur-scanner.json"));
    change(&mut v);
    let path = dir.join(name);
    std::fs::write(&path, v.to_string()).expect("write");
    path
}

#[test]
fn results_beyond_any_sheet_should_be_refused_by_name_never_abort() {
    type Change = fn(&mut serde_json::Value);
    let cases: [(&str, &str, Change); 4] = [
        ("round.json", "round", |v| {
            v["round"] = 4_000_000_000u64.into()
        }),
        ("table.json", "table", |v| v["table"] = 0.into()),
        ("row0.json", "flags[0].row", |v| {
            v["flags"] = serde_json::json!([{"code": "ROW_ILLEGAL_VALUES", "severity": "error",
                "row": 0, "seat": 1, "message": "x"}]);
        }),
        ("seat9.json", "flags[0].seat", |v| {
            v["flags"] = serde_json::json!([{"code": "ROW_ILLEGAL_VALUES", "severity": "error",
                "row": 1, "seat": 9, "message": "x"}]);
        }),
    ];
    for (name, field, change) in cases {
        let dir = temp(&format!("hostile-{name}"));
        let file = hostile_result(&dir, name, change);
        for (command, input) in [("standings", &*dir), ("verify", file.as_path())] {
            let mut cmd = bin();
            cmd.args(["--lang", "en", command, "--rules", "merkur", s(input)]);
            let out = run_within(cmd, Duration::from_secs(30));
            let stderr = String::from_utf8_lossy(&out.stderr);
            // An exit status, not a signal: refused, never aborted.
            assert!(
                matches!(out.status.code(), Some(1 | 2)),
                "{command} {name}: {:?} {stderr}",
                out.status
            );
            let said = stderr
                .lines()
                .find(|l| l.contains(name))
                .unwrap_or_else(|| panic!("{command} {name} names the file: {stderr}"));
            assert!(said.contains(field), "{command} {name}: {stderr}");
        }
    }
}

#[test]
fn a_ranking_that_cannot_be_written_should_fail_and_a_closed_pipe_should_not() {
    let night = temp("dev-full");
    let truth = root().join("samples/truth/merkur-scanner.json");
    std::fs::copy(&truth, night.join("merkur-scanner.json")).expect("copy");
    let mut full = bin();
    full.args(["--lang", "en", "standings", "--rules", "merkur", s(&night)]);
    full.stdout(std::fs::File::create("/dev/full").expect("/dev/full"));
    full.current_dir(&night);
    let out = full.stderr(Stdio::piped()).output().expect("run");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("cannot write the output"), "{stderr}");
    // `| head` closes the pipe after a line: that is no failure.
    let mut piped = bin();
    piped.args(["--lang", "en", "standings", "--rules", "merkur", s(&night)]);
    piped.current_dir(&night);
    let mut child = piped
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start");
    drop(child.stdout.take());
    let status = child.wait().expect("wait");
    assert!(status.success(), "{status:?}");
}

#[test]
fn a_form_template_of_absurd_size_should_be_refused_in_one_line() {
    let dir = temp("absurd-form");
    let text = std::fs::read_to_string(root().join("templates/forms/punkteliste-a4-32.json"))
        .expect("form");
    let mut form: serde_json::Value = serde_json::from_str(&text).expect("json");
    form["page_mm"] = serde_json::json!([1e9, 1e9]);
    let path = dir.join("club.json");
    std::fs::write(&path, form.to_string()).expect("write");
    let scan = root().join("samples/scans/merkur-scanner.jpg");
    for args in [
        vec![
            "--lang",
            "en",
            "render-form",
            "--form",
            s(&path),
            "--out",
            "/dev/null",
        ],
        vec![
            "--lang",
            "en",
            "scan",
            "--rules",
            "merkur",
            "--form",
            s(&path),
            "--out",
            s(&dir),
            s(&scan),
        ],
    ] {
        let out = aufsicht(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("field `page_mm`"), "{stderr}");
        assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    }
}

#[test]
fn command_line_errors_should_follow_the_language_and_a_clubs_wording() {
    let dir = temp("lang");
    let missing = dir.join("keine-scans");
    let args = |lang: &'static str| {
        vec![
            "--lang",
            lang,
            "scan",
            "--rules",
            "merkur",
            "--out",
            s(&dir),
            s(&missing),
        ]
    };
    let de = String::from_utf8_lossy(&aufsicht(&args("de")).stderr).to_string();
    assert_eq!(
        de.trim(),
        format!(
            "aufsicht: {} gibt es nicht: bitte den Pfad prüfen",
            missing.display()
        )
    );
    let en = String::from_utf8_lossy(&aufsicht(&args("en")).stderr).to_string();
    assert_eq!(
        en.trim(),
        format!(
            "aufsicht: {} does not exist: check the path",
            missing.display()
        )
    );

    // A club rewords one message in its own file; the rest stays.
    let wording = dir.join("wording");
    std::fs::create_dir_all(&wording).expect("dir");
    std::fs::write(
        wording.join("de.ftl"),
        "input-missing = { $path } fehlt: Pfad prüfen, bitte\n",
    )
    .expect("write");
    let club = bin()
        .env(aufsicht::catalogue::OVERRIDE_ENV, &wording)
        .args(args("de"))
        .output()
        .expect("run");
    let said = String::from_utf8_lossy(&club.stderr).to_string();
    assert_eq!(
        said.trim(),
        format!("aufsicht: {} fehlt: Pfad prüfen, bitte", missing.display())
    );
    let archive = bin()
        .env(aufsicht::catalogue::OVERRIDE_ENV, &wording)
        .args([
            "export",
            "--archive",
            s(&dir.join("nichts.sqlite")),
            "--out",
            s(&dir),
        ])
        .output()
        .expect("run");
    let said = String::from_utf8_lossy(&archive.stderr).to_string();
    assert!(
        said.contains("das Archiv angeben, das ein Scan geschrieben hat"),
        "{said}"
    );
}

#[test]
fn every_page_of_a_multi_page_tiff_should_have_its_result() {
    let dir = temp("tiff-pages");
    let night = dir.join("night");
    std::fs::create_dir_all(&night).expect("dir");
    let file = std::fs::File::create(night.join("stapel.tif")).expect("create");
    let mut tiff = tiff::encoder::TiffEncoder::new(file).expect("encoder");
    let blank = vec![250u8; 400 * 400];
    for _ in 0..3 {
        tiff.write_image::<tiff::encoder::colortype::Gray8>(400, 400, &blank)
            .expect("page");
    }
    drop(tiff);
    let out = dir.join("out");
    scan_unarchived(&night, &out);
    for page in 1..=3 {
        let r = json(&out.join(format!("stapel-p{page}.json")));
        assert_eq!(r["status"], "unreadable", "page {page}");
        assert_eq!(r["page"], page, "page {page}");
    }
    let message = json(&out.join("stapel-p3.json"))["flags"][0]["message"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(
        message.contains("page 3 of 3 of a multi-page TIFF is not read"),
        "{message}"
    );
}
