//! The review page: written by the binary from scanned samples, then opened
//! in headless Chromium: every crop must load, an edit made in the page must
//! save as a result `correct` takes into the archive, and a screenshot must
//! show the crops (their red frames) with ink in them.

use std::path::Path;
use std::process::Command;

use crate::common::{aufsicht, scan_flagged_samples, temp};

use aufsicht::SheetResult;
use aufsicht::night::desk::review::named_cells;
use aufsicht::page::form::FormTemplate;

fn chromium(args: &[&str]) -> std::process::Output {
    Command::new("chromium")
        .args(["--headless", "--no-sandbox", "--disable-gpu"])
        .args(args)
        .output()
        .expect("chromium must be installed for this test: run scripts/install-deps.sh")
}

/// Flags on flagged sheets that name a cell of the form: each gets a crop.
fn flags_with_cells(out: &Path) -> usize {
    let mut n = 0;
    for entry in std::fs::read_dir(out).expect("out").flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let sheet = SheetResult::from_path(&path).expect("result");
        let Some(form) = sheet
            .form
            .as_deref()
            .and_then(|f| FormTemplate::load(f).ok())
        else {
            continue;
        };
        n += sheet
            .flags
            .iter()
            .filter(|f| !named_cells(f, &sheet, &form, aufsicht::Lang::En).is_empty())
            .count();
    }
    n
}

#[test]
fn the_review_page_should_show_every_flags_crops_and_save_edits_in_chromium() {
    let dir = temp("review");
    let out = dir.join("out");
    scan_flagged_samples(&out);
    let html = dir.join("review.html");
    let review = aufsicht(&[
        "review",
        "--out",
        html.to_str().expect("utf8"),
        out.to_str().expect("utf8"),
    ]);
    assert!(
        review.status.success(),
        "{}",
        String::from_utf8_lossy(&review.stderr)
    );
    let text = std::fs::read_to_string(&html).expect("page");
    assert!(
        !text.contains("src=\"http"),
        "self-contained: nothing fetched"
    );
    let crops_written = text.matches("class=\"crop\"").count();
    let expected = flags_with_cells(&out);
    assert!(expected > 0, "the samples carry flags");
    assert!(
        crops_written >= expected,
        "{crops_written} crops for {expected} flags"
    );

    let url = format!("file://{}", html.display());
    let dom = chromium(&["--virtual-time-budget=10000", "--dump-dom", &url]);
    let dom = String::from_utf8_lossy(&dom.stdout);
    let shown = dom
        .split("data-images=\"")
        .nth(1)
        .and_then(|s| s.split('"').next())
        .expect("the page's load script ran");
    let (loaded, total) = shown.split_once('/').expect("n/m");
    assert_eq!(loaded, total, "every image decodes in Chromium");
    assert!(total.parse::<usize>().expect("number") >= crops_written);

    // A person's edit in the page, saved as the page would save it, goes
    // into the archive with its trail.
    let dom = chromium(&[
        "--virtual-time-budget=10000",
        "--dump-dom",
        &format!("{url}?selftest"),
    ]);
    let dom = String::from_utf8_lossy(&dom.stdout);
    let saved = dom
        .split("<pre id=\"selftest\">")
        .nth(1)
        .and_then(|s| s.split("</pre>").next())
        .expect("the page built a corrected result")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    assert!(
        dom.contains("CELL_UNCERTAIN"),
        "the page shows uncertain cells"
    );
    assert!(
        !saved.contains("CELL_UNCERTAIN"),
        "saved after review, no cell is left uncertain: {saved}"
    );
    let fixed = dir.join("fixed.json");
    std::fs::write(&fixed, saved).expect("write");
    let correct = aufsicht(&[
        "correct",
        "--archive",
        out.join("aufsicht.sqlite").to_str().expect("utf8"),
        "--rules",
        "merkur",
        "--by",
        "Test",
        fixed.to_str().expect("utf8"),
    ]);
    let stderr = String::from_utf8_lossy(&correct.stderr);
    assert!(correct.status.success(), "{stderr}");
    assert!(stderr.contains("-> 77"), "the edit is recorded: {stderr}");

    let shot = dir.join("shot.png");
    let _ = chromium(&[
        "--window-size=1000,1400",
        &format!("--screenshot={}", shot.display()),
        &url,
    ]);
    let img = image::open(&shot).expect("screenshot").to_rgb8();
    let red = img
        .pixels()
        .filter(|p| p[0] > 170 && p[1] < 70 && p[2] < 70)
        .count();
    let ink = img
        .pixels()
        .filter(|p| p[0] < 80 && p[1] < 80 && p[2] < 80)
        .count();
    assert!(red > 500, "crop frames on screen: {red} red pixels");
    assert!(ink > 2000, "ink and text on screen: {ink} dark pixels");
}
