//! `aufsicht verify` run as a binary on typed sheets with known flags, the
//! seed 000 "Muster" golden output, and malformed inputs.

use std::path::PathBuf;
use std::process::Output;

use crate::common::{aufsicht, aufsicht_en, root, temp};

use serde_json::Value;

fn json(output: &Output) -> Value {
    assert!(
        output.status.success(),
        "aufsicht failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("verify prints JSON")
}

fn flag_lines(result: &Value) -> Vec<String> {
    let field = |v: &Value| match v {
        Value::Null => "-".to_string(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let mut lines: Vec<String> = result["flags"]
        .as_array()
        .expect("flags")
        .iter()
        .map(|f| {
            format!(
                "{} {} {} {}",
                field(&f["code"]),
                field(&f["row"]),
                field(&f["seat"]),
                field(&f["field"])
            )
        })
        .collect();
    lines.sort();
    lines
}

/// Everything written on the paper, to compare input and output.
fn values(sheet: &Value) -> Value {
    let games: Vec<Value> = sheet["games"]
        .as_array()
        .expect("games")
        .iter()
        .map(|g| {
            let cells: Vec<Value> = g["cells"]
                .as_array()
                .expect("cells")
                .iter()
                .map(|c| serde_json::json!([c["plus"], c["minus"], c["circled"]]))
                .collect();
            serde_json::json!([g["no"], cells, g["initials"]])
        })
        .collect();
    serde_json::json!([
        sheet["players"],
        games,
        sheet["gesamt"],
        sheet["abzug"],
        sheet["endergebnis"],
        sheet["signatures"],
        sheet["round"],
        sheet["table"]
    ])
}

#[test]
fn typed_sheets_should_get_exactly_the_expected_flags() {
    let dir = root().join("tests/fixtures/verify");
    let mut checked = 0;
    let mut entries: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("fixture dir")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    entries.sort();
    for sheet in entries {
        let name = sheet.file_stem().and_then(|s| s.to_str()).expect("name");
        let rules = name.split('_').next().expect("rules prefix");
        let expected: Vec<String> = {
            let mut lines: Vec<String> = std::fs::read_to_string(sheet.with_extension("expect"))
                .expect("expect file")
                .lines()
                .map(str::to_string)
                .collect();
            lines.sort();
            lines
        };
        let out = json(&aufsicht(&[
            "verify",
            "--rules",
            rules,
            sheet.to_str().expect("path"),
        ]));
        assert_eq!(flag_lines(&out), expected, "{name}");
        let status = if expected.is_empty() { "ok" } else { "flagged" };
        assert_eq!(out["status"], status, "{name}");
        if name.contains("_should_pass") {
            assert!(
                expected.is_empty(),
                "{name}: a _should_pass fixture expects no flags"
            );
        }
        let input: Value = serde_json::from_str(&std::fs::read_to_string(&sheet).expect("read"))
            .expect("fixture JSON");
        assert_eq!(
            values(&out),
            values(&input),
            "{name}: verify changed a value"
        );
        checked += 1;
    }
    assert!(checked >= 30, "only {checked} fixtures found");
}

#[test]
fn muster_sheet_should_match_its_golden_output() {
    let sample = root().join("samples/sheets/muster_merkur_should_flag_only_game_count.json");
    let out = aufsicht(&[
        "verify",
        "--rules",
        "merkur",
        sample.to_str().expect("path"),
    ]);
    let got = json(&out);
    let golden_path = root().join("tests/golden/muster_merkur.json");
    let pretty = serde_json::to_string_pretty(&got).expect("json") + "\n";
    if std::env::var_os("REPLACE").is_some() {
        std::fs::write(&golden_path, &pretty).expect("write golden");
    }
    let golden: Value = serde_json::from_str(
        &std::fs::read_to_string(&golden_path)
            .expect("golden file (REPLACE=1 cargo test writes it)"),
    )
    .expect("golden JSON");
    assert_eq!(got, golden, "output differs from {}", golden_path.display());
    // What the golden file must say, independent of how it was written.
    assert_eq!(flag_lines(&got), ["GAME_COUNT - - -"]);
    let kinds: Vec<(String, Value, Value)> = got["games"]
        .as_array()
        .expect("games")
        .iter()
        .map(|g| {
            let c = &g["class"];
            (
                c["kind"].as_str().expect("kind").to_string(),
                c["soloist"].clone(),
                c["won"].clone(),
            )
        })
        .collect();
    use serde_json::json;
    let want = [
        ("rufspiel", json!(null), json!(null)),
        ("rufspiel", json!(null), json!(null)),
        ("solo", json!(1), json!(true)),
        ("rufspiel", json!(null), json!(null)),
        ("rufspiel", json!(null), json!(null)),
        ("solo", json!(1), json!(false)),
        ("solo", json!(4), json!(true)),
        ("rufspiel", json!(null), json!(null)),
        ("solo", json!(3), json!(true)),
        ("rufspiel", json!(null), json!(null)),
        ("solo", json!(2), json!(false)),
        ("rufspiel", json!(null), json!(null)),
    ];
    let want: Vec<(String, Value, Value)> = want
        .into_iter()
        .map(|(k, s, w)| (k.to_string(), s, w))
        .collect();
    assert_eq!(kinds, want);
    assert_eq!(got["games"][6]["class"]["tout"], true);
    assert_eq!(got["games"][6]["class"]["k"], 8);
    assert_eq!(
        got["flags"][0]["message"],
        "12 Spiele eingetragen, an einem 4er-Tisch sind es 32."
    );
}

#[test]
fn messages_should_be_german_by_default_and_english_on_request() {
    let sheet =
        root().join("tests/fixtures/verify/merkur_tout_should_flag_tout_not_initialled.json");
    let path = sheet.to_str().expect("path");
    let de = json(&aufsicht(&["verify", "--rules", "merkur", path]));
    let en = json(&aufsicht(&[
        "--lang", "en", "verify", "--rules", "merkur", path,
    ]));
    assert_eq!(de["flags"][0]["code"], en["flags"][0]["code"]);
    assert_eq!(
        de["flags"][0]["message"],
        "Spiel 19: Solo-tout/Wenz-tout ohne Abzeichnung der Aufsicht."
    );
    assert_eq!(
        en["flags"][0]["message"],
        "Game 19: Solo-tout/Wenz-tout without the supervisor's initials."
    );
}

fn refused(output: &Output) -> String {
    let stderr = String::from_utf8_lossy(&output.stderr).to_string();
    assert!(!output.status.success(), "should fail: {stderr}");
    assert!(output.stdout.is_empty(), "nothing on stdout when refused");
    assert!(!stderr.contains("panicked"), "panic: {stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "one line: {stderr}");
    assert!(stderr.starts_with("aufsicht: "), "{stderr}");
    stderr
}

fn verify_text(name: &str, text: &[u8]) -> String {
    let dir = temp("verify");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write");
    refused(&aufsicht_en(&[
        "verify",
        "--rules",
        "merkur",
        path.to_str().expect("path"),
    ]))
}

fn muster() -> Value {
    let text = std::fs::read_to_string(
        root().join("samples/sheets/muster_merkur_should_flag_only_game_count.json"),
    )
    .expect("muster");
    serde_json::from_str(&text).expect("muster JSON")
}

#[test]
fn malformed_sheets_should_be_refused_with_one_clear_line() {
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("empty.json", Vec::new(), "not a sheet result"),
        (
            "garbage.json",
            vec![0xff, 0x00, 0x13, 0x37, 0x89],
            "not a sheet result",
        ),
        (
            "text.json",
            b"Runde 1 Tisch 7".to_vec(),
            "not a sheet result",
        ),
        ("array.json", b"[1, 2, 3]".to_vec(), "not a sheet result"),
        (
            "truncated.json",
            b"{\"schema\": \"aufsicht/sheet-v1\", \"games\": [".to_vec(),
            ":1:",
        ),
    ];
    for (name, text, needle) in cases {
        let err = verify_text(name, &text);
        assert!(err.contains(needle), "{name}: {err}");
        assert!(err.contains(name), "{name}: names the file: {err}");
    }

    type Edit = Box<dyn Fn(&mut Value)>;
    let mut edits: Vec<(&str, Edit, &str)> = vec![
        (
            "schema",
            Box::new(|v| v["schema"] = "something-else".into()),
            "field `schema`",
        ),
        (
            "no_schema",
            Box::new(|v| drop(v.as_object_mut().map(|o| o.remove("schema")))),
            "missing field `schema`",
        ),
        (
            "no_games",
            Box::new(|v| drop(v.as_object_mut().map(|o| o.remove("games")))),
            "missing field `games`",
        ),
        (
            "negative",
            Box::new(|v| v["games"][0]["cells"][0]["plus"] = (-1).into()),
            "games[0].cells[0].plus",
        ),
        (
            "string_value",
            Box::new(|v| v["games"][1]["cells"][2]["minus"] = "2".into()),
            "games[1].cells[2].minus",
        ),
        (
            "short_abzug",
            Box::new(|v| drop(v["abzug"].as_array_mut().map(|a| a.pop()))),
            "field `abzug`",
        ),
        (
            "three_cells",
            Box::new(|v| drop(v["games"][3]["cells"].as_array_mut().map(|a| a.pop()))),
            "games[3].cells",
        ),
        (
            "twice",
            Box::new(|v| v["games"][4]["no"] = 4.into()),
            "appears twice",
        ),
        (
            "player_letters",
            Box::new(|v| v["players"][1] = "Sepp".into()),
            "players[1]",
        ),
        (
            "bad_flag",
            Box::new(|v| v["flags"] = serde_json::json!([{"code": "NOPE"}])),
            "flags[0].code",
        ),
    ];
    for (name, edit, needle) in edits.iter_mut() {
        let mut sheet = muster();
        edit(&mut sheet);
        let err = verify_text(&format!("{name}.json"), sheet.to_string().as_bytes());
        assert!(err.contains(*needle), "{name}: {err}");
    }
}

#[test]
fn missing_file_and_folder_should_be_refused() {
    let err = refused(&aufsicht_en(&[
        "verify",
        "--rules",
        "merkur",
        "/nonexistent/sheet.json",
    ]));
    assert!(err.contains("/nonexistent/sheet.json"), "{err}");
    let dir = root().join("tests");
    refused(&aufsicht_en(&[
        "verify",
        "--rules",
        "merkur",
        dir.to_str().expect("path"),
    ]));
}

#[test]
fn bad_rules_should_be_refused_naming_file_line_and_field() {
    let sheet = root().join("samples/sheets/muster_merkur_should_flag_only_game_count.json");
    let sheet = sheet.to_str().expect("path");
    let err = refused(&aufsicht_en(&["verify", "--rules", "merkurr", sheet]));
    assert!(err.contains("unknown rule set \"merkurr\""), "{err}");

    let dir = temp("rules");
    let merkur =
        std::fs::read_to_string(root().join("templates/rules/merkur.toml")).expect("merkur");
    let club = dir.join("club.toml");
    let broken = merkur.replacen("units = [3]", "units = [\"drei\"]", 1);
    let line = broken
        .lines()
        .position(|l| l.contains("\"drei\""))
        .expect("edited")
        + 1;
    std::fs::write(&club, broken).expect("write");
    let err = refused(&aufsicht_en(&[
        "verify",
        "--rules",
        club.to_str().expect("path"),
        sheet,
    ]));
    assert!(
        err.contains(&format!("club.toml:{line}: field `tariff[2].units[0]`")),
        "{err}"
    );

    // A club's own valid rule file works like a built-in one.
    let own = dir.join("own.toml");
    std::fs::write(&own, merkur.replace("games = 32", "games = 12")).expect("write");
    let out = json(&aufsicht(&[
        "verify",
        "--rules",
        own.to_str().expect("path"),
        sheet,
    ]));
    assert_eq!(out["status"], "ok");
}

#[test]
fn a_doppelkopf_sheet_under_schafkopf_rules_should_be_refused() {
    let sheet = root().join("tests/fixtures/verify/doppelkopf_5_clean_should_pass.json");
    let err = refused(&aufsicht_en(&[
        "verify",
        "--rules",
        "merkur",
        sheet.to_str().expect("path"),
    ]));
    assert!(err.contains("check --rules"), "{err}");
}

#[test]
fn reading_flags_should_survive_verify() {
    let mut sheet = muster();
    sheet["flags"] = serde_json::json!([
        {"code": "CELL_UNCERTAIN", "severity": "warning", "row": 3, "seat": 1, "field": "plus",
         "message": "6 or 8?", "alternatives": [[6, 0.7], [8, 0.3]]},
        {"code": "GESAMT_MISMATCH", "severity": "error", "row": null, "seat": 1, "field": "plus", "message": "stale"}
    ]);
    sheet["scanner"] = "office".into();
    let dir = temp("reading");
    let path = dir.join("uncertain.json");
    std::fs::write(&path, sheet.to_string()).expect("write");
    let out = json(&aufsicht(&[
        "verify",
        "--rules",
        "merkur",
        path.to_str().expect("path"),
    ]));
    assert_eq!(
        flag_lines(&out),
        ["CELL_UNCERTAIN 3 1 plus", "GAME_COUNT - - -"]
    );
    let uncertain = &out["flags"][0];
    assert_eq!(
        uncertain["alternatives"],
        serde_json::json!([[6, 0.7], [8, 0.3]])
    );
    assert_eq!(out["scanner"], "office", "extra fields are kept");

    sheet["status"] = "unreadable".into();
    sheet["flags"] = serde_json::json!([{"code": "SHEET_UNREADABLE", "severity": "error", "row": null,
        "seat": null, "field": null, "message": "blank page"}]);
    std::fs::write(&path, sheet.to_string()).expect("write");
    let out = json(&aufsicht(&[
        "verify",
        "--rules",
        "merkur",
        path.to_str().expect("path"),
    ]));
    assert_eq!(out["status"], "unreadable");
    assert_eq!(flag_lines(&out), ["SHEET_UNREADABLE - - -"]);
}
