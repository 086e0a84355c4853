//! A club's own form: learnt from its blank with `form learn`, then sheets
//! on it read with the learnt template as on a shipped one.

use std::path::Path;

use aufsicht::page::form::FormTemplate;
use aufsicht_lab::club_form::Layout;
use aufsicht_lab::evaluate::evaluate;

use crate::common::{aufsicht, root, temp};

fn s(p: &Path) -> String {
    p.display().to_string()
}

fn learn(blank: &Path, out: &Path, hints: &[&str]) -> std::process::Output {
    let mut args = vec![
        "form".to_string(),
        "learn".into(),
        s(blank),
        "--out".into(),
        s(out),
    ];
    args.extend(hints.iter().map(|h| h.to_string()));
    aufsicht(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

/// The largest distance (mm) between two templates' same boxes; panics
/// where they do not have the same fields.
fn farthest(a: &FormTemplate, b: &FormTemplate) -> f64 {
    let (a, b) = (a.named_boxes(), b.named_boxes());
    assert_eq!(
        a.iter().map(|(n, _)| n).collect::<Vec<_>>(),
        b.iter().map(|(n, _)| n).collect::<Vec<_>>()
    );
    a.iter()
        .zip(&b)
        .flat_map(|((_, x), (_, y))| x.iter().zip(y).map(|(p, q)| (p - q).abs()))
        .fold(0.0, f64::max)
}

/// A club's layout (one the learning was never tuned on: drawn for this
/// test), its blank learnt, and four sheets written on it read with the
/// learnt template: every value as the truth, as on the true template.
#[test]
fn a_club_form_learnt_from_its_blank_should_read_its_sheets_as_its_own_template() {
    let dir = temp("form-learn-club");
    let layout = Layout::drawn(41);
    let truth_form = dir.join("club.json");
    std::fs::write(&truth_form, layout.json().to_string()).expect("write");
    let blank = dir.join("blank.png");
    aufsicht::page::render::render_form(&layout.template(), 300.0)
        .save(&blank)
        .expect("blank");
    let learnt = dir.join("learnt.json");
    let said = learn(&blank, &learnt, &[]);
    assert!(
        said.status.success(),
        "{}",
        String::from_utf8_lossy(&said.stderr)
    );
    let form = FormTemplate::load(&s(&learnt)).expect("the learnt template loads");
    assert_eq!((form.seats, form.games), (layout.seats, layout.games));
    let off = farthest(&form, &layout.template());
    assert!(off < 0.3, "boxes off by up to {off:.2} mm");
    let sheets = dir.join("sheets");
    aufsicht_lab::cli::run([
        "aufsicht-lab",
        "generate",
        "--rules",
        layout.rules(),
        "--form",
        &s(&truth_form),
        "--count",
        "4",
        "--capture",
        "scanner",
        "--writer-errors",
        "0",
        "--seed",
        "41",
        "--out",
        &s(&sheets),
    ])
    .expect("generate");
    let read = dir.join("read");
    let scanned = aufsicht(&[
        "scan",
        "--rules",
        layout.rules(),
        "--form",
        &s(&learnt),
        "--no-archive",
        "--out",
        &s(&read),
        &s(&sheets.join("scans")),
    ]);
    assert!(
        scanned.status.success(),
        "{}",
        String::from_utf8_lossy(&scanned.stderr)
    );
    let report = evaluate(&sheets.join("truth"), &read).expect("evaluate");
    let text = report.lines().join("\n");
    assert_eq!(
        (report.sheets, report.missing, report.unreadable),
        (4, 0, 0),
        "{text}"
    );
    assert_eq!(report.silent, 0, "{text}");
    let (right, all) = report.cells();
    assert!(right as f64 >= 0.99 * all as f64, "{text}");
    recognised_among_the_clubs_forms(&dir, &learnt, &sheets.join("scans"));
    read_on_the_form_the_night_keeps(&dir, &learnt, &sheets.join("scans"), layout.rules());
}

/// A night scanned on the club's form keeps it in the archive: its later
/// sheets are read on it without `--form`.
fn read_on_the_form_the_night_keeps(dir: &Path, learnt: &Path, club_scans: &Path, rules: &str) {
    let mut sheets: Vec<_> = std::fs::read_dir(club_scans)
        .expect("scans")
        .map(|e| e.expect("entry").path())
        .collect();
    sheets.sort();
    let archive = dir.join("club.sqlite");
    let scan = |sheet: &Path, out: &str, form: &[&str]| {
        let (archive, out) = (s(&archive), s(&dir.join(out)));
        let mut args = vec!["scan", "--rules", rules, "--archive", &archive];
        args.extend(["--tournament", "herbst", "--out", &out]);
        args.extend(form);
        let sheet = s(sheet);
        args.push(&sheet);
        let scanned = aufsicht(&args);
        assert!(
            scanned.status.success(),
            "{}",
            String::from_utf8_lossy(&scanned.stderr)
        );
        let name = sheet_result_name(sheet.as_ref());
        let text = std::fs::read_to_string(dir.join(out).join(name)).expect("result");
        serde_json::from_str::<serde_json::Value>(&text).expect("json")
    };
    let first = scan(&sheets[0], "night-first", &["--form", &s(learnt)]);
    assert_eq!(first["form"], "learnt");
    let later = scan(&sheets[1], "night-later", &[]);
    assert_eq!(later["form"], "learnt", "{later}");
    assert_ne!(later["status"], "unreadable", "{later}");
}

/// The name of a scan's result: its stem with `.json`.
fn sheet_result_name(sheet: &Path) -> String {
    let stem = sheet.file_stem().expect("stem").to_string_lossy();
    format!("{stem}.json")
}

/// Without `--form`, given the club's folder of templates, a club sheet is
/// read on the club's form and a shipped sample on the shipped one.
fn recognised_among_the_clubs_forms(dir: &Path, learnt: &Path, club_scans: &Path) {
    let forms = dir.join("forms");
    std::fs::create_dir_all(&forms).expect("forms");
    std::fs::copy(learnt, forms.join("club.json")).expect("copy");
    let mixed = dir.join("mixed");
    std::fs::create_dir_all(&mixed).expect("mixed");
    let club_sheet = std::fs::read_dir(club_scans)
        .expect("scans")
        .map(|e| e.expect("entry").path())
        .min()
        .expect("a club sheet");
    std::fs::copy(&club_sheet, mixed.join("club.png")).expect("copy");
    let sample = root().join("samples/scans/merkur-scanner.jpg");
    std::fs::copy(sample, mixed.join("merkur.jpg")).expect("copy");
    let read = dir.join("read-mixed");
    let scanned = aufsicht(&[
        "scan",
        "--rules",
        "merkur",
        "--forms",
        &s(&forms),
        "--no-archive",
        "--out",
        &s(&read),
        &s(&mixed),
    ]);
    assert!(
        scanned.status.success(),
        "{}",
        String::from_utf8_lossy(&scanned.stderr)
    );
    let form_of = |name: &str| {
        let text = std::fs::read_to_string(read.join(name)).expect("result");
        serde_json::from_str::<serde_json::Value>(&text).expect("json")["form"].clone()
    };
    assert_eq!(form_of("club.json"), "learnt");
    assert_eq!(form_of("merkur.json"), "punkteliste-a4-32");
    the_shipped_forms_sheet_refused_by_the_look_alike(dir, learnt, &mixed);
}

/// This club's layout looks like the shipped form (4 seats, 32 rows):
/// given alone, its lines take the shipped sample in part, but the
/// sample's print is not the club's, so the sheet is unreadable with that
/// reason, not read off its cells.
fn the_shipped_forms_sheet_refused_by_the_look_alike(dir: &Path, learnt: &Path, mixed: &Path) {
    let read = dir.join("read-alone");
    let scanned = aufsicht(&[
        "scan",
        "--rules",
        "merkur",
        "--form",
        &s(learnt),
        "--no-archive",
        "--out",
        &s(&read),
        &s(&mixed.join("merkur.jpg")),
    ]);
    let text = std::fs::read_to_string(read.join("merkur.json")).expect("result");
    let result: serde_json::Value = serde_json::from_str(&text).expect("json");
    assert_eq!(result["status"], "unreadable", "{text}");
    let message = result["flags"][0]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("Titel und Zeilennummern"),
        "{message} ({})",
        String::from_utf8_lossy(&scanned.stderr)
    );
}

/// The shipped forms, learnt from their blanks: the committed templates.
#[test]
fn the_shipped_forms_learnt_from_their_blanks_should_be_the_committed_templates() {
    let dir = temp("form-learn-shipped");
    for id in ["punkteliste-a4-32", "doko-a4-24x5"] {
        let shipped = FormTemplate::load(id).expect("shipped");
        let blank = dir.join(format!("{id}.png"));
        aufsicht::page::render::render_form(&shipped, 300.0)
            .save(&blank)
            .expect("blank");
        let learnt = dir.join(format!("{id}.json"));
        let said = learn(&blank, &learnt, &["--seats", &shipped.seats.to_string()]);
        assert!(
            said.status.success(),
            "{id}: {}",
            String::from_utf8_lossy(&said.stderr)
        );
        let form = FormTemplate::load(&s(&learnt)).expect("loads");
        let off = farthest(&form, &shipped);
        assert!(off < 0.3, "{id}: boxes off by up to {off:.2} mm");
        assert_eq!(form.game, shipped.game, "{id}");
        assert_eq!(
            form.lines.len(),
            shipped.lines.len(),
            "{id}: every ruled line"
        );
    }
}

/// What is no blank form: one line naming what was not found, no file.
#[test]
fn a_page_that_is_no_blank_form_should_be_refused_in_one_line_and_nothing_written() {
    let dir = temp("form-learn-refused");
    let shipped = FormTemplate::load("punkteliste-a4-32").expect("shipped");
    let blank = aufsicht::page::render::render_form(&shipped, 150.0);
    let white = image::GrayImage::from_pixel(1240, 1754, image::Luma([255]));
    let cut =
        image::imageops::crop_imm(&blank, 0, 0, blank.width(), blank.height() * 2 / 3).to_image();
    // Turned 4° on a white lid and cut by the picture's right edge across
    // the table's lower right corner only.
    let turned = {
        use imageproc::geometric_transformations::{Border, Interpolation, rotate_about_center};
        let white = Border::Constant(image::Luma([255]));
        let page = rotate_about_center(&blank, 4f32.to_radians(), Interpolation::Bilinear, white);
        image::imageops::crop_imm(&page, 0, 0, page.width() * 92 / 100, page.height()).to_image()
    };
    let filled = root().join("samples/scans/merkur-scanner.jpg");
    let pages = [
        ("white.png", Some(white), "keine linierte Tabelle"),
        ("cut.png", Some(cut), "unteren Rand abgeschnitten"),
        ("turned-cut.png", Some(turned), "rechten Rand abgeschnitten"),
        ("filled.jpg", None, "ausgefüllte Liste"),
        ("hinted.png", Some(blank), "angegeben waren 5"),
    ];
    for (name, image, words) in pages {
        let path = match image {
            Some(image) => {
                let path = dir.join(name);
                image.save(&path).expect("save");
                path
            }
            None => filled.clone(),
        };
        let out = dir.join(format!("{name}.json"));
        let hints: &[&str] = if name == "hinted.png" {
            &["--seats", "5"]
        } else {
            &[]
        };
        let said = learn(&path, &out, hints);
        let text = String::from_utf8_lossy(&said.stderr);
        assert!(!said.status.success(), "{name}: {text}");
        assert_eq!(text.trim().lines().count(), 1, "{name}: {text}");
        assert!(text.contains(words), "{name}: {text}");
        assert!(!out.exists(), "{name}: nothing written");
    }
    let junk = learn(&root().join("README.md"), &dir.join("junk.json"), &[]);
    let text = String::from_utf8_lossy(&junk.stderr);
    assert!(
        !junk.status.success() && text.trim().lines().count() == 1,
        "{text}"
    );
}

/// The shipped form's layout with its header a row lower and no Wohnort
/// row: a club's form learnt from such a blank has the shipped game table.
pub(crate) fn header_a_row_lower() -> Layout {
    let mut layout = Layout::punkteliste();
    layout.id = "verein".into();
    layout.home_row = false;
    layout.block_top += layout.block_row_h;
    layout.box_top += layout.block_row_h;
    layout
}

/// A shipped sheet under a form whose game table fits and whose header
/// lies a row lower: `form check` says the header does not fit, `scan`
/// asks every header value it reads there, and among the club's forms the
/// one whose header is there is chosen.
#[test]
fn a_header_that_does_not_fit_should_be_said_and_its_values_asked() {
    let dir = temp("form-header-off");
    let forms = dir.join("formulare");
    std::fs::create_dir_all(&forms).expect("forms");
    let verein = forms.join("verein.json");
    std::fs::write(&verein, header_a_row_lower().json().to_string()).expect("write");
    let sample = root().join("samples/scans/merkur-scanner.jpg");
    let overlay = s(&dir.join("overlay.png"));
    let checked = aufsicht(&["form", "check", &s(&verein), &s(&sample), "--out", &overlay]);
    let said = String::from_utf8_lossy(&checked.stderr);
    assert!(!checked.status.success(), "{said}");
    assert!(
        said.contains("Der Kopf des Formulars liegt nicht"),
        "{said}"
    );
    let own = aufsicht(&[
        "form",
        "check",
        "punkteliste-a4-32",
        &s(&sample),
        "--out",
        &overlay,
    ]);
    let said = String::from_utf8_lossy(&own.stderr);
    assert!(own.status.success(), "{said}");
    assert!(said.contains("10 von 10 Beschriftungen"), "{said}");

    let read = |form: &[&str], out: &str| {
        let out = dir.join(out);
        let mut args = vec!["scan", "--rules", "merkur", "--no-archive"];
        args.extend(form);
        let (out_s, sample_s) = (s(&out), s(&sample));
        args.extend(["--out", &out_s, &sample_s]);
        let scanned = aufsicht(&args);
        assert_ne!(scanned.status.code(), Some(2), "{scanned:?}");
        let text = std::fs::read_to_string(out.join("merkur-scanner.json")).expect("result");
        serde_json::from_str::<serde_json::Value>(&text).expect("json")
    };
    let off = read(&["--form", &s(&verein)], "off");
    assert_eq!(off["alignment"]["header_off"], true, "{off}");
    let flagged = |field: &str, seat: Option<usize>| {
        off["flags"].as_array().expect("flags").iter().any(|f| {
            f["field"] == field && seat.is_none_or(|s| f["seat"] == s) && f["row"].is_null()
        })
    };
    for field in ["round", "table"] {
        assert!(
            off[field].is_null() || flagged(field, None),
            "{field}: {off}"
        );
    }
    for seat in 1..=4 {
        let id = &off["players"][seat - 1];
        assert!(
            id.is_null() || flagged("player_id", Some(seat)),
            "{seat}: {off}"
        );
    }
    let chosen = read(&["--forms", &s(&forms)], "chosen");
    assert_eq!(chosen["form"], "punkteliste-a4-32", "{chosen}");
    assert!(chosen["alignment"]["header_off"].is_null(), "{chosen}");
    assert_eq!(
        (&chosen["round"], &chosen["table"]),
        (&1.into(), &30.into())
    );
}
