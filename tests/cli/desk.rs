//! The review desk (`review --serve`): its JSON endpoints as a script uses
//! them, and the desk in headless Chromium driven through WebDriver as a
//! person uses it, keyboard only; the archive checked after each.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use serde_json::{Value, json};

use crate::common::{aufsicht, aufsicht_en, root, scan_flagged_samples, scan_samples, temp};

/// The two flagged samples scanned into an archive: its path.
fn night_archive(dir: &Path) -> PathBuf {
    let out = dir.join("out");
    scan_flagged_samples(&out);
    out.join("aufsicht.sqlite")
}

/// A running desk, stopped when dropped.
pub(crate) struct Desk {
    child: Child,
    /// `http://127.0.0.1:PORT/`, as it printed first.
    pub(crate) url: String,
    /// What it said on stderr so far, line by line.
    said: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
}

impl Desk {
    pub(crate) fn start(archive: &Path) -> Desk {
        Desk::start_in("en", archive, &[])
    }

    /// A desk speaking `lang`, with more of `review --serve`'s arguments.
    pub(crate) fn start_in(lang: &str, archive: &Path, more: &[&str]) -> Desk {
        Desk::listening("127.0.0.1:0", lang, archive, more)
    }

    /// A desk listening on `listen` (`0.0.0.0:0`: where a phone reaches it).
    pub(crate) fn listening(listen: &str, lang: &str, archive: &Path, more: &[&str]) -> Desk {
        let mut child = Command::new(env!("CARGO_BIN_EXE_aufsicht"))
            .args(["--lang", lang, "review", "--serve", "--listen", listen])
            .args(["--rules", "merkur", "--title", "Test night"])
            .args(more)
            .arg("--archive")
            .arg(archive)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start the desk");
        let mut first = String::new();
        let stdout = child.stdout.take().expect("stdout");
        BufReader::new(stdout)
            .read_line(&mut first)
            .expect("address");
        let url = first.trim().to_string();
        assert!(url.starts_with("http://127.0.0.1:"), "{url}");
        let said = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let stderr = child.stderr.take().expect("stderr");
        let kept = said.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                kept.lock().expect("lines").push(line);
            }
        });
        Desk { child, url, said }
    }

    /// The first line it said on stderr that holds `part`, waiting up to
    /// ten seconds for it.
    pub(crate) fn said_line(&self, part: &str) -> String {
        for _ in 0..100 {
            let lines = self.said.lock().expect("lines").clone();
            if let Some(line) = lines.into_iter().find(|l| l.contains(part)) {
                return line;
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        panic!("the desk never said {part:?}");
    }

    /// A request as a script sends it: (status, head in lower case, body).
    pub(crate) fn call(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &str,
    ) -> (u16, String, String) {
        let host = self.url.trim_start_matches("http://").trim_end_matches('/');
        self.call_as(host, method, path, headers, body.as_bytes())
    }

    /// A request whose `Host` header says `named` (a browser's, for the
    /// page's own address).
    pub(crate) fn call_as(
        &self,
        named: &str,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> (u16, String, String) {
        let host = self.url.trim_start_matches("http://").trim_end_matches('/');
        call_at(host, named, method, path, headers, body)
    }

    pub(crate) fn json(&self, path: &str) -> Value {
        let (status, _, body) = self.call("GET", path, &[], "");
        assert_eq!(status, 200, "{path}: {body}");
        serde_json::from_str(&body).expect("json")
    }

    fn post(&self, id: i64, version: &str, body: &Value) -> (u16, String, String) {
        let headers = [("Content-Type", "application/json"), ("If-Match", version)];
        self.call(
            "POST",
            &format!("/api/sheets/{id}/values"),
            &headers,
            &body.to_string(),
        )
    }
}

/// A request to the desk at `at` (address and port) as a script sends it,
/// its `Host` header `named`: (status, head in lower case, body).
pub(crate) fn call_at(
    at: &str,
    named: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> (u16, String, String) {
    let mut stream = TcpStream::connect(at).expect("connect");
    let mut request = format!("{method} {path} HTTP/1.1\r\nHost: {named}\r\nConnection: close\r\n");
    for (k, v) in headers {
        request.push_str(&format!("{k}: {v}\r\n"));
    }
    request.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
    let request = [request.as_bytes(), body].concat();
    // A request refused on its head (a key that no longer opens) is
    // answered and closed before its body is all sent: the answer counts.
    let cut_short = |e: &std::io::Error| {
        matches!(
            e.kind(),
            std::io::ErrorKind::BrokenPipe | std::io::ErrorKind::ConnectionReset
        )
    };
    if let Err(e) = stream.write_all(&request) {
        assert!(cut_short(&e), "send: {e}");
    }
    let mut raw = Vec::new();
    if let Err(e) = stream.read_to_end(&mut raw) {
        assert!(cut_short(&e) && !raw.is_empty(), "answer: {e}");
    }
    let text = String::from_utf8_lossy(&raw).to_string();
    let (head, body) = text.split_once("\r\n\r\n").expect("head and body");
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("status");
    (status, head.to_ascii_lowercase(), body.to_string())
}

impl Drop for Desk {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The ETag in a response's head.
fn etag(head: &str) -> &str {
    head.lines()
        .find_map(|l| l.strip_prefix("etag: "))
        .unwrap_or_default()
}

/// The first flagged sheet's id and its view.
fn flagged_view(desk: &Desk) -> (i64, Value) {
    let sheets = desk.json("/api/sheets");
    let list = sheets.as_array().expect("list");
    assert!(!list.is_empty());
    let ranks: Vec<bool> = list.iter().map(|s| s["status"] == "ok").collect();
    assert!(
        ranks.windows(2).all(|w| w[0] <= w[1]),
        "flagged first: {sheets}"
    );
    let id = list[0]["id"].as_i64().expect("id");
    (id, desk.json(&format!("/api/sheets/{id}/view")))
}

/// A flag of the view with one value to type (and a suggestion, if asked).
fn typable(view: &Value, suggested: bool) -> (usize, Value) {
    view["flags"]
        .as_array()
        .expect("flags")
        .iter()
        .enumerate()
        .find(|(_, f)| f["path"].is_string() && (!suggested || !f["suggestion"].is_null()))
        .map(|(i, f)| (i, f.clone()))
        .expect("a flag with a value to type")
}

/// Every flagged sheet's id and view, in the queue's order.
fn flagged_views(desk: &Desk) -> Vec<(i64, Value)> {
    let sheets = desk.json("/api/sheets");
    sheets
        .as_array()
        .expect("list")
        .iter()
        .filter(|s| s["status"] != "ok")
        .map(|s| {
            let id = s["id"].as_i64().expect("id");
            (id, desk.json(&format!("/api/sheets/{id}/view")))
        })
        .collect()
}

/// A flagged sheet and its flag with a number to type (not a participant
/// number, which the archive's values do not hold).
fn numeric_flag(desk: &Desk) -> (i64, Value) {
    flagged_views(desk)
        .into_iter()
        .find_map(|(id, view)| {
            let flags = view["flags"].as_array()?;
            let number = |f: &&Value| {
                f["path"]
                    .as_str()
                    .is_some_and(|p| !p.starts_with("players/"))
            };
            flags.iter().find(number).map(|f| (id, f.clone()))
        })
        .expect("a flagged sheet with a number to type")
}

/// A flagged sheet with at least `n` flags that have a value to type, one
/// of them with a suggestion: its id and view.
fn sheet_with_values(desk: &Desk, n: usize) -> (i64, Value) {
    flagged_views(desk)
        .into_iter()
        .find(|(_, view)| {
            let flags = view["flags"].as_array().map_or(&[][..], Vec::as_slice);
            let typable = flags.iter().filter(|f| f["path"].is_string());
            typable.clone().count() >= n && typable.clone().any(|f| !f["suggestion"].is_null())
        })
        .unwrap_or_else(|| panic!("no flagged sheet with {n} values to type"))
}

/// A value as text: a participant number is a string, a cell a number.
fn text_of(v: &Value) -> String {
    v.as_str().map_or_else(|| v.to_string(), str::to_string)
}

/// The value at a contract path of a sheet result.
pub(crate) fn value_at(sheet: &Value, path: &str) -> Value {
    let p: Vec<&str> = path.split('/').collect();
    let seat = |s: &str| s.parse::<usize>().expect("seat") - 1;
    match p.as_slice() {
        ["games", no, s, col] => sheet["games"]
            .as_array()
            .expect("games")
            .iter()
            .find(|g| g["no"].as_u64().map(|n| n.to_string()).as_deref() == Some(*no))
            .map_or(Value::Null, |g| g["cells"][seat(s)][col].clone()),
        ["gesamt", s, col] => sheet["gesamt"][seat(s)][col].clone(),
        ["players", s] => sheet["players"][seat(s)].clone(),
        [k, s] => sheet[k][seat(s)].clone(),
        [k] => sheet[k].clone(),
        _ => Value::Null,
    }
}

#[test]
fn the_desk_should_propose_only_the_decodes_suggestion_never_a_rejected_alternative() {
    // The faxed PDF's table is read "30" at 94%, with "20" as a far
    // alternative: Enter must not write the alternative.
    let dir = temp("desk-proposal");
    let out = dir.join("out");
    crate::common::scan_samples(&out, &["merkur-faxpdf.pdf"]);
    let desk = Desk::start(&out.join("aufsicht.sqlite"));
    for (id, view) in flagged_views(&desk) {
        let stored = desk.json(&format!("/api/sheets/{id}"));
        let flags = view["flags"].as_array().expect("flags");
        for (shown, kept) in flags.iter().zip(stored["flags"].as_array().expect("flags")) {
            let decoded = kept.get("suggestion").cloned().unwrap_or(Value::Null);
            assert_eq!(shown["suggestion"], decoded, "{shown:#}");
            if shown["field"] == "table" {
                assert!(shown["suggestion"].is_null(), "{shown:#}");
                assert!(
                    !shown["alternatives"]
                        .as_array()
                        .expect("alternatives")
                        .is_empty()
                );
            }
        }
    }
    assert!(
        flagged_views(&desk).iter().any(|(_, v)| v["flags"]
            .as_array()
            .is_some_and(|f| f.iter().any(|f| f["field"] == "table"))),
        "the sample's table is asked about"
    );
}

#[test]
fn the_desk_should_store_a_correction_and_refuse_stale_foreign_and_bad_ones() {
    let dir = temp("desk-api");
    let archive = night_archive(&dir);
    let desk = Desk::start(&archive);
    flagged_view(&desk);
    let (id, flag) = numeric_flag(&desk);
    let path = flag["path"].as_str().expect("path").to_string();
    let (status, head, _) = desk.call("GET", &format!("/api/sheets/{id}"), &[], "");
    assert_eq!((status, etag(&head)), (200, "\"0\""));

    let body = json!({"by": "AB", "values": [{"path": path, "value": 17}]});
    let (status, head, text) = desk.post(id, "\"0\"", &body);
    assert_eq!(status, 200, "{text}");
    assert_eq!(etag(&head), "\"1\"");
    let after: Value = serde_json::from_str(&text).expect("sheet");
    assert_eq!(value_at(&after, &path), json!(17));
    let stored = desk.json(&format!("/api/sheets/{id}"));
    assert_eq!(value_at(&stored, &path), json!(17), "in the archive");
    let trail = desk.json(&format!("/api/sheets/{id}/trail"));
    assert_eq!(trail[0]["by"], "AB");
    assert_eq!(trail[0]["new"], "17");

    // Another reviewer's edit of the version before: refused, nothing stored.
    let late = json!({"by": "CD", "values": [{"path": path, "value": 18}]});
    let (status, _, text) = desk.post(id, "\"0\"", &late);
    assert_eq!(status, 409, "{text}");
    assert!(text.contains("changed meanwhile"), "{text}");
    for (body, why) in [
        (
            json!({"by": "CD", "values": [{"path": "games/1/9/plus", "value": 3}]}),
            "seat",
        ),
        (
            json!({"by": "CD", "values": [{"path": "../../etc/passwd", "value": 3}]}),
            "path",
        ),
        (
            json!({"by": "CD", "values": [{"path": path, "value": "x"}]}),
            "value",
        ),
        (
            json!({"by": "", "values": [{"path": path, "value": 3}]}),
            "who",
        ),
        (json!({"values": 3}), "shape"),
    ] {
        let (status, _, text) = desk.post(id, "\"1\"", &body);
        assert_eq!(status, 400, "{why}: {text}");
        assert_eq!(text.lines().count(), 1, "{why}: one line: {text}");
    }
    let foreign = [
        ("Content-Type", "application/json"),
        ("Origin", "http://evil.example"),
    ];
    let (status, _, _) = desk.call(
        "POST",
        &format!("/api/sheets/{id}/values"),
        &foreign,
        &late.to_string(),
    );
    assert_eq!(status, 403);
    let (status, head, _) = desk.call("GET", &format!("/api/sheets/{id}"), &[], "");
    assert_eq!(
        (status, etag(&head)),
        (200, "\"1\""),
        "nothing refused was stored"
    );
    assert_eq!(desk.call("GET", "/api/sheets/99999", &[], "").0, 404);

    let (status, _, csv) = desk.call("GET", "/api/standings", &[], "");
    assert_eq!(status, 200);
    assert!(csv.starts_with("rank,player,total"), "{csv}");
    let (status, head, _) = desk.call("GET", "/api/standings?download=1", &[], "");
    assert!(
        status == 200 && head.contains("content-disposition: attachment"),
        "{head}"
    );
    let (status, _, page) = desk.call("GET", "/ranking", &[], "");
    assert!(
        status == 200 && page.contains("Final ranking: Test night"),
        "{page}"
    );
    drop(desk);
    // What the desk stored is what the archive gives back to other tools.
    let export = dir.join("export");
    let out = aufsicht(&[
        "export",
        "--archive",
        archive.to_str().expect("utf8"),
        "--out",
        export.to_str().expect("utf8"),
    ]);
    assert!(out.status.success());
    let values = std::fs::read_to_string(export.join("values.csv")).expect("values");
    let field = aufsicht::sheet::ValuePath::archive_field(&path.parse().expect("path"));
    assert!(
        values.lines().any(|l| l.ends_with(&format!(",{field},17"))),
        "{field} = 17 exported"
    );
}

/// A game row of four seats from signed values.
fn game(no: u32, values: [i64; 4], initials: bool) -> aufsicht::sheet::GameRow {
    use aufsicht::sheet::Cell;
    let cells = values
        .iter()
        .map(|&v| match u32::try_from(v) {
            Ok(p) => Cell::plus(p),
            Err(_) => Cell::minus(v.unsigned_abs() as u32),
        })
        .collect();
    aufsicht::sheet::GameRow {
        no,
        cells,
        initials,
        class: None,
        extra: Default::default(),
    }
}

/// A solo of `seat` (units as the tariff: 2 Solo, 8 tout), won or lost.
fn solo(seat: usize, units: i64, won: bool) -> [i64; 4] {
    let sign = if won { 1 } else { -1 };
    std::array::from_fn(|s| {
        if s == seat {
            3 * units * sign
        } else {
            -units * sign
        }
    })
}

/// A Rufspiel of `units` won by the two `winners`.
fn call_game(winners: [usize; 2], units: i64) -> [i64; 4] {
    std::array::from_fn(|s| if winners.contains(&s) { units } else { -units })
}

/// One merkur table of 32 games: `games` after a first Rufspiel, then
/// Rufspiele that cancel out. Seats 1 and 2 are the pair the games tie.
fn tie_sheet(table: u32, players: [&str; 4], games: &[[i64; 4]]) -> aufsicht::SheetResult {
    let mut rows = vec![game(1, call_game([2, 3], 1), false)];
    let mut values: Vec<[i64; 4]> = vec![call_game([0, 1], 1)];
    values.extend_from_slice(games);
    if values.len().is_multiple_of(2) {
        // Both of the pair lose one more: the tie stays, the pads pair up.
        values.push(call_game([2, 3], 1));
    }
    for (i, v) in values.iter().enumerate() {
        let tout = v.iter().any(|x| x.abs() == 24);
        rows.push(game(i as u32 + 2, *v, tout));
    }
    while rows.len() < 32 {
        let no = rows.len() as u32 + 1;
        let winners = if no.is_multiple_of(2) { [0, 2] } else { [1, 3] };
        rows.push(game(no, call_game(winners, 1), false));
    }
    let players = players.iter().map(|p| Some(p.to_string())).collect();
    let mut sheet = aufsicht::sheet::finished_sheet("merkur", rows, players);
    sheet.table = Some(table);
    sheet.source = Some(format!("tisch{table}.png"));
    sheet
}

/// A night whose level pairs are told apart by each tie-break in turn:
/// a won tout (11 before 12), a played tout (21 before 22), a won solo
/// (31 before 32), a played solo (41 before 42).
fn tie_night() -> Vec<aufsicht::SheetResult> {
    let both_lose = |u| call_game([2, 3], u);
    vec![
        // 11: +24 -4 -4; 12: -8 +12 +12.
        tie_sheet(
            1,
            ["11", "12", "13", "14"],
            &[solo(0, 8, true), solo(1, 4, true), solo(1, 4, true)],
        ),
        // 21: -24 +3·5 +1; 22: +8 -3·5 -1.
        tie_sheet(2, ["21", "22", "23", "24"], &{
            let mut g = vec![solo(0, 8, false)];
            g.extend(std::iter::repeat_n(call_game([0, 3], 3), 5));
            g.push(call_game([0, 3], 1));
            g
        }),
        // 31: +6 -3 -1; 32: -2 +3 +1.
        tie_sheet(
            3,
            ["31", "32", "33", "34"],
            &[solo(0, 2, true), call_game([1, 2], 3), call_game([1, 2], 1)],
        ),
        // 41: -6 +3 +1; 42: +2 -3 -1.
        tie_sheet(
            4,
            ["41", "42", "43", "44"],
            &[
                solo(0, 2, false),
                call_game([0, 3], 3),
                call_game([0, 3], 1),
                both_lose(1),
            ],
        ),
    ]
}

/// The CSV's (rank, player) pairs, in order.
fn ranks(csv: &str) -> Vec<(String, String)> {
    csv.lines()
        .skip(1)
        .map(|l| {
            let mut cells = l.split(',');
            let rank = cells.next().unwrap_or_default().to_string();
            (rank, cells.next().unwrap_or_default().to_string())
        })
        .collect()
}

#[test]
fn the_desk_should_rank_exactly_as_standings_does_tie_breaks_included() {
    let dir = temp("ties");
    let rules = aufsicht::RuleSet::load("merkur").expect("merkur");
    let (sheets, night) = (dir.join("sheets"), dir.join("night.sqlite"));
    std::fs::create_dir_all(&sheets).expect("dir");
    let mut archive = aufsicht::night::club::archive::Archive::open(&night).expect("archive");
    let tournament = archive.tournament("Ties", "merkur").expect("tournament");
    for (i, sheet) in tie_night().into_iter().enumerate() {
        let sheet = aufsicht::verify(sheet, &rules, aufsicht::Lang::En).expect("verify");
        let name = format!("tisch{}.json", i + 1);
        std::fs::write(sheets.join(&name), sheet.to_json_pretty()).expect("write");
        let sha = format!("{i:064x}");
        archive
            .store_file(tournament, &sha, None, &[(name, sheet)])
            .expect("store");
    }
    drop(archive);
    let standings = |dir: &Path| {
        let out = aufsicht(&[
            "standings",
            "--rules",
            "merkur",
            dir.to_str().expect("utf8"),
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).expect("utf8")
    };
    let cli = standings(&sheets);
    let order: Vec<&str> = ["11", "12", "21", "22", "31", "32", "41", "42"].to_vec();
    let ranked = ranks(&cli);
    for pair in order.chunks(2) {
        let at = |p: &str| ranked.iter().position(|r| r.1 == p).expect("listed");
        let (a, b) = (at(pair[0]), at(pair[1]));
        assert!(
            a < b && ranked[a].0 != ranked[b].0,
            "{pair:?} told apart: {cli}"
        );
    }
    assert!(
        cli.contains(",tout_won,tout_played,solo_won,solo_played,"),
        "{cli}"
    );

    let desk = Desk::start(&night);
    let (status, _, served) = desk.call("GET", "/api/standings", &[], "");
    assert_eq!(status, 200);
    assert_eq!(served, cli, "the desk's standings are standings' own");

    // A correction through the desk: its standings and those over the
    // archive's export stay one.
    let queue = desk.json("/api/sheets");
    let id = queue[0]["id"].as_i64().expect("id");
    let body = json!({"by": "Test", "values": [{"path": "endergebnis/2", "value": 20}]});
    let (status, _, answer) = desk.post(id, "\"0\"", &body);
    assert_eq!(status, 200, "{answer}");
    let (_, _, served) = desk.call("GET", "/api/standings?download=1", &[], "");
    drop(desk);
    let export = dir.join("export");
    let out = aufsicht(&[
        "export",
        "--archive",
        night.to_str().expect("utf8"),
        "--out",
        export.to_str().expect("utf8"),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_ne!(served, cli, "the correction moved the standings");
    assert_eq!(served, standings(&export));
}

/// The tie night in an archive, table 1's row 5 corrected on the paper
/// without initials.
fn archive_with_a_correction(dir: &Path) -> PathBuf {
    let rules = aufsicht::RuleSet::load("merkur").expect("merkur");
    let night = dir.join("night.sqlite");
    let mut archive = aufsicht::night::club::archive::Archive::open(&night).expect("archive");
    let tournament = archive.tournament("Powers", "merkur").expect("tournament");
    for (i, mut sheet) in tie_night().into_iter().enumerate() {
        if i == 0 {
            sheet.games[4].cells[0].corrected = true;
        }
        let sheet = aufsicht::verify(sheet, &rules, aufsicht::Lang::En).expect("verify");
        let name = format!("tisch{}.json", i + 1);
        archive
            .store_file(tournament, &format!("{i:064x}"), None, &[(name, sheet)])
            .expect("store");
    }
    night
}

/// The tie night in an archive, table 1's row 3, seat 2, and seat 3's
/// Endergebnis written later in another pen (as the scan flags it).
fn archive_with_a_later_edit(dir: &Path) -> PathBuf {
    let rules = aufsicht::RuleSet::load("merkur").expect("merkur");
    let night = dir.join("night.sqlite");
    let mut archive = aufsicht::night::club::archive::Archive::open(&night).expect("archive");
    let tournament = archive.tournament("Stift", "merkur").expect("tournament");
    for (i, sheet) in tie_night().into_iter().enumerate() {
        let mut sheet = aufsicht::verify(sheet, &rules, aufsicht::Lang::En).expect("verify");
        if i == 0 {
            for (row, seat, field) in [(Some(3), 2, "plus"), (None, 3, "endergebnis")] {
                sheet.flags.push(aufsicht::Flag {
                    code: aufsicht::Code::InkDiffers,
                    severity: aufsicht::Code::InkDiffers.severity(),
                    row,
                    seat: Some(seat),
                    field: Some(field.into()),
                    message: "written in another pen".into(),
                    detail: Default::default(),
                    extra: Default::default(),
                });
            }
            sheet.status = aufsicht::Status::Flagged;
        }
        let name = format!("tisch{}.json", i + 1);
        archive
            .store_file(tournament, &format!("{i:064x}"), None, &[(name, sheet)])
            .expect("store");
    }
    night
}

#[test]
fn the_aufsichts_initials_should_accept_a_later_edit_and_undo_should_open_it() {
    let dir = temp("accepted");
    let night = archive_with_a_later_edit(&dir);
    let desk = Desk::start(&night);
    let queue = desk.json("/api/sheets");
    let first = queue
        .as_array()
        .expect("queue")
        .iter()
        .find(|s| s["table"] == 1);
    let id = first.and_then(|s| s["id"].as_i64()).expect("table 1");
    let act = |body: Value| {
        let headers = [("Content-Type", "application/json")];
        let path = format!("/api/sheets/{id}/initials");
        let (status, _, answer) = desk.call("POST", &path, &headers, &body.to_string());
        assert_eq!(status, 200, "{answer}");
        serde_json::from_str::<Value>(&answer).expect("json")
    };
    let ink = |sheet: &Value| codes(sheet).iter().filter(|c| *c == "INK_DIFFERS").count();
    // The review column names table 1's sheet for its players.
    let review = |desk: &Desk| -> Vec<String> {
        let lines = desk.json("/api/standings?format=json");
        let lines = lines.as_array().expect("lines").iter();
        lines
            .filter_map(|l| {
                l["review"]
                    .as_str()
                    .filter(|r| !r.is_empty())
                    .map(String::from)
            })
            .collect()
    };
    assert!(!review(&desk).is_empty());
    assert_eq!(ink(&desk.json(&format!("/api/sheets/{id}"))), 2);
    let row = act(json!({"by": "AB", "row": 3}));
    assert_eq!(ink(&row), 1);
    assert_eq!(row["accepted"][0]["by"], "AB");
    assert_eq!(row["accepted"][0]["flag"]["row"], 3);
    let both = act(json!({"by": "CD", "seat": 3, "field": "endergebnis"}));
    assert_eq!(ink(&both), 0);
    assert!(review(&desk).is_empty(), "{:?}", review(&desk));
    // The audit shows them accepted, by whom; the trail has both initials.
    let audit = desk.json(&format!("/api/audit?sheet={id}"));
    let accepted = &audit["sheets"][0]["result"]["accepted"];
    assert_eq!(accepted.as_array().map(Vec::len), Some(2), "{audit}");
    let trail = desk.json(&format!("/api/sheets/{id}/trail"));
    let fields: Vec<String> = trail
        .as_array()
        .expect("trail")
        .iter()
        .map(|c| text_of(&c["field"]))
        .collect();
    assert!(
        fields.contains(&"endergebnis.3.supervisor_initials".to_string()),
        "{fields:?}"
    );
    // A field no footer has, and neither row nor field: refused.
    let headers = [("Content-Type", "application/json")];
    let path = format!("/api/sheets/{id}/initials");
    let wrong = json!({"by": "CD", "seat": 3, "field": "gesamt"}).to_string();
    assert_eq!(desk.call("POST", &path, &headers, &wrong).0, 404);
    let neither = json!({"by": "CD"}).to_string();
    assert_eq!(desk.call("POST", &path, &headers, &neither).0, 400);
    // Undone: open again, and in the review column.
    act(json!({"by": "AB", "row": 3, "undo": true}));
    let undone = act(json!({"by": "CD", "seat": 3, "field": "endergebnis", "undo": true}));
    assert_eq!(ink(&undone), 2);
    assert!(undone.get("accepted").is_none(), "{undone}");
    assert!(!review(&desk).is_empty());
}

fn codes(sheet: &Value) -> Vec<String> {
    sheet["flags"]
        .as_array()
        .expect("flags")
        .iter()
        .map(|f| text_of(&f["code"]))
        .collect()
}

#[test]
fn the_supervisor_should_initial_a_row_and_void_a_sheet_and_undo_both_in_the_trail() {
    let dir = temp("powers");
    let night = archive_with_a_correction(&dir);
    let desk = Desk::start(&night);
    let id = desk
        .json("/api/sheets")
        .as_array()
        .expect("queue")
        .iter()
        .find(|s| s["table"] == 1)
        .and_then(|s| s["id"].as_i64())
        .expect("table 1");
    let act = |what: &str, body: Value| {
        let headers = [("Content-Type", "application/json")];
        let path = format!("/api/sheets/{id}/{what}");
        let (status, _, answer) = desk.call("POST", &path, &headers, &body.to_string());
        (status, answer)
    };
    let sheet = desk.json(&format!("/api/sheets/{id}"));
    assert!(codes(&sheet).contains(&"CORRECTION_NOT_INITIALLED".into()));

    let (status, answer) = act("initials", json!({"by": "AB", "row": 5}));
    assert_eq!(status, 200, "{answer}");
    let sheet: Value = serde_json::from_str(&answer).expect("json");
    assert!(
        !codes(&sheet).contains(&"CORRECTION_NOT_INITIALLED".into()),
        "{answer}"
    );
    assert_eq!(sheet["supervisor_initials"][0]["by"], "AB");
    let (status, answer) = act("initials", json!({"by": "AB", "row": 5, "undo": true}));
    assert_eq!(status, 200, "{answer}");
    let sheet: Value = serde_json::from_str(&answer).expect("json");
    assert!(codes(&sheet).contains(&"CORRECTION_NOT_INITIALLED".into()));
    let (status, answer) = act("initials", json!({"by": "AB", "row": 77}));
    assert_eq!(status, 404, "{answer}");
    assert!(answer.contains("no game row 77"), "{answer}");

    let ranked = |desk: &Desk| desk.call("GET", "/api/standings", &[], "").2;
    let before = ranked(&desk);
    let (status, answer) = act("verdict", json!({"by": "AB", "void": true}));
    assert_eq!(status, 400, "a verdict needs a reason: {answer}");
    let (status, answer) = act(
        "verdict",
        json!({"by": "AB", "void": true, "reason": "forged"}),
    );
    assert_eq!(status, 200, "{answer}");
    let sheet: Value = serde_json::from_str(&answer).expect("json");
    assert_eq!(sheet["void"]["reason"], "forged");
    let voided = ranked(&desk);
    let row_of = |csv: &str, player: &str| {
        csv.lines()
            .find(|l| l.split(',').nth(1) == Some(player))
            .map(str::to_string)
            .expect("listed")
    };
    // Player 11 played only at table 1: a voided sheet brings no player.
    assert!(row_of(&before, "11").contains(",11,"), "{before}");
    assert!(
        !voided.lines().any(|l| l.split(',').nth(1) == Some("11")),
        "{voided}"
    );
    // The same ranking and the SHEET_VOID check over the archive's export.
    let export = dir.join("export");
    let out = aufsicht_en(&[
        "export",
        "--archive",
        night.to_str().expect("utf8"),
        "--out",
        export.to_str().expect("utf8"),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = aufsicht_en(&[
        "standings",
        "--rules",
        "merkur",
        export.to_str().expect("utf8"),
    ]);
    assert_eq!(String::from_utf8_lossy(&out.stdout), voided);
    let checks = String::from_utf8_lossy(&out.stderr);
    assert!(
        checks.contains("declared invalid by AB (forged)"),
        "{checks}"
    );

    let (status, answer) = act("verdict", json!({"by": "AB", "void": false}));
    assert_eq!(status, 200, "{answer}");
    assert_eq!(ranked(&desk), before, "undone, the ranking is as before");
    let kinds: Vec<String> = desk
        .json(&format!("/api/sheets/{id}/trail"))
        .as_array()
        .expect("trail")
        .iter()
        .map(|c| {
            format!(
                "{} {} {}",
                c["kind"].as_str().unwrap_or("?"),
                c["by"],
                c["new"]
            )
        })
        .collect();
    let audit = desk.json("/api/audit?player=11");
    assert_eq!(audit["sheets"][0]["id"], id);
    assert_eq!(audit["sheets"][0]["seat"], 1);
    assert_eq!(audit["sheets"][0]["changes"][0]["kind"], "initials");
    // Voiding took the seat's Endergebnis from 11's total; lifting gave it back.
    let end = audit["sheets"][0]["result"]["endergebnis"][0]
        .as_i64()
        .expect("written");
    let moved: Vec<Value> = (0..4)
        .map(|i| audit["sheets"][0]["changes"][i]["moved"].clone())
        .collect();
    assert_eq!(moved, [Value::Null, Value::Null, json!(-end), json!(end)]);
    assert_eq!(audit["standings"]["player"], "11");
    let (status, _, said) = desk.call("GET", "/api/audit?player=999", &[], "");
    assert_eq!(status, 404, "{said}");
    assert_eq!(
        kinds,
        [
            "initials \"AB\" \"AB\"",
            "initials \"AB\" \"\"",
            "void \"AB\" \"forged\"",
            "void \"AB\" \"\"",
        ],
    );
}

/// A free port on loopback.
fn free_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    l.local_addr().expect("addr").port()
}

/// ChromeDriver on its own port, stopped when dropped.
pub(crate) struct Driver(Child, u16);

impl Driver {
    pub(crate) fn start() -> Driver {
        let port = free_port();
        let mut child = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver must be installed for this test: run scripts/install-deps.sh");
        for _ in 0..100 {
            if TcpStream::connect(("127.0.0.1", port)).is_ok() {
                return Driver(child, port);
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        let _ = child.kill();
        let _ = child.wait();
        panic!("chromedriver did not listen on {port}");
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

pub(crate) const ENTER: &str = "\u{E007}";

/// Headless Chromium through WebDriver, quiet on this closed network.
pub(crate) async fn browser(driver: &Driver, profile: &Path) -> fantoccini::Client {
    let mut caps = serde_json::Map::new();
    let args = [
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--window-size=1400,1000",
    ];
    let mut args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    args.push(format!("--user-data-dir={}", profile.display()));
    caps.insert("goog:chromeOptions".into(), json!({ "args": args }));
    let plain = hyper_util::client::legacy::connect::HttpConnector::new();
    fantoccini::ClientBuilder::new(plain)
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{}", driver.1))
        .await
        .expect("a Chromium session")
}

/// Waits until `script` returns true in the page.
pub(crate) async fn until(client: &fantoccini::Client, script: &str) {
    // A minute: CI runs the other tests beside this one on two cores.
    for _ in 0..1200 {
        let done = client.execute(script, vec![]).await.expect("script");
        if done == json!(true) {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let said = client
        .execute(
            "return document.getElementById('status')?.textContent",
            vec![],
        )
        .await
        .unwrap_or_default();
    panic!("never true: {script}; the desk says {said}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reviewer_should_correct_a_night_by_keyboard_in_chromium() {
    use fantoccini::Locator::Css;
    let dir = temp("desk-browser");
    let archive = night_archive(&dir);
    let desk = Desk::start(&archive);
    flagged_view(&desk);
    let (id, view) = sheet_with_values(&desk, 2);
    let (first, flag) = typable(&view, true);
    let path = flag["path"].as_str().expect("path").to_string();
    let driver = Driver::start();
    let client = browser(&driver, &dir.join("profile")).await;
    client.goto(&desk.url).await.expect("open the desk");
    until(&client, "return document.body.dataset.ready === '1'").await;
    // The sheet with two values to type, opened from the queue.
    let entry = format!("#queue li[data-id='{id}']");
    client
        .find(Css(&entry))
        .await
        .expect("in the queue")
        .click()
        .await
        .expect("open");
    let opened =
        format!("return document.querySelector('#queue li.current')?.dataset.id === '{id}'");
    until(&client, &opened).await;
    let ready: f64 = serde_json::from_value(
        client
            .execute("return window.deskReady", vec![])
            .await
            .expect("ready"),
    )
    .expect("ms");

    // Who reviews, then the flag with a suggestion: Enter takes it.
    client
        .find(Css("#by"))
        .await
        .expect("name box")
        .send_keys("Tester")
        .await
        .expect("type");
    let input = client
        .find(Css(&format!("#value-{first}")))
        .await
        .expect("the flag's box");
    input.click().await.expect("focus");
    input.send_keys(ENTER).await.expect("Enter");
    until(&client, "return window.deskStats.cells === 1").await;
    let stored = desk.json(&format!("/api/sheets/{id}"));
    assert_eq!(
        text_of(&value_at(&stored, &path)),
        text_of(&flag["suggestion"]),
        "{path}: the suggestion stored"
    );
    let trail = desk.json(&format!("/api/sheets/{id}/trail"));
    assert!(
        trail
            .as_array()
            .expect("trail")
            .iter()
            .any(|t| t["by"] == "Tester"
                && t["field"]
                    == aufsicht::sheet::ValuePath::archive_field(&path.parse().expect("path"))),
        "{trail}"
    );

    // The next flag with a value: digits, then Enter.
    let view = desk.json(&format!("/api/sheets/{id}/view"));
    let (next, flag) = typable(&view, false);
    let path = flag["path"].as_str().expect("path").to_string();
    let typed = if path.starts_with("players/") {
        json!("4711")
    } else {
        json!(42)
    };
    let input = client
        .find(Css(&format!("#value-{next}")))
        .await
        .expect("the next box");
    input.click().await.expect("focus");
    let keys = format!(
        "{}{ENTER}",
        typed.as_str().map_or(typed.to_string(), str::to_string)
    );
    input.send_keys(&keys).await.expect("type");
    until(&client, "return window.deskStats.cells === 2").await;
    let stored = desk.json(&format!("/api/sheets/{id}"));
    assert_eq!(
        value_at(&stored, &path),
        typed,
        "{path}: the typed value stored"
    );

    // The crops render: a crop's screenshot has ink and paper (the sheet
    // drawn anew after the second value, on a busy machine later).
    until(
        &client,
        "return document.querySelector('img.crop')?.complete === true",
    )
    .await;
    let crop = client.find(Css("img.crop")).await.expect("a crop");
    let png = crop.screenshot().await.expect("screenshot");
    let shot = image::load_from_memory(&png).expect("png").to_luma8();
    let dark = shot.pixels().filter(|p| p[0] < 100).count();
    let light = shot.pixels().filter(|p| p[0] > 200).count();
    assert!(
        shot.width() > 20 && dark > 20 && light > dark,
        "{}x{}: {dark} dark, {light} light",
        shot.width(),
        shot.height()
    );

    let stats = client
        .execute("return window.deskStats", vec![])
        .await
        .expect("stats");
    let cells = stats["cells"].as_f64().expect("cells");
    let keys = stats["keys"].as_f64().expect("keys");
    let latencies: Vec<f64> =
        serde_json::from_value(stats["latencies"].clone()).expect("latencies");
    println!(
        "desk: {keys} keys for {cells} cells ({:.1} a cell); keypress to verified sheet on screen {:?} ms; queue ready in {ready:.0} ms",
        keys / cells,
        latencies.iter().map(|l| l.round()).collect::<Vec<_>>()
    );

    // The projector's standings show every player of the archive.
    client
        .goto(&format!("{}standings", desk.url))
        .await
        .expect("standings");
    until(
        &client,
        "return document.querySelectorAll('#board tr').length > 1",
    )
    .await;
    let rows = client.find_all(Css("#board tr")).await.expect("rows").len();
    let (_, _, csv) = desk.call("GET", "/api/standings", &[], "");
    assert_eq!(
        rows,
        csv.trim().lines().count(),
        "a row per player and the heading"
    );
    client.close().await.expect("close");
}

#[test]
fn a_page_of_another_site_should_reach_nothing_and_behind_a_proxy_nobody_without_the_token() {
    let dir = temp("desk-door");
    let archive = night_archive(&dir);
    let desk = Desk::start(&archive);
    // A rebinding page: its own name now points at this computer.
    let (status, _, said) = desk.call_as("evil.example:8377", "GET", "/api/sheets", &[], b"");
    assert_eq!(status, 421, "{said}");
    assert!(said.contains("evil.example"), "{said}");
    let (status, _, _) = desk.call_as("localhost", "GET", "/api/sheets", &[], b"");
    assert_eq!(status, 200);
    drop(desk);
    let proxied = Desk::start_in(
        "en",
        &archive,
        &["--behind-proxy", "--host", "desk.example"],
    );
    let (status, _, _) = proxied.call_as("desk.example", "GET", "/api/sheets", &[], b"");
    assert_eq!(status, 401, "a proxy's client is no local user");
    let (status, _, said) = proxied.call_as("desk.example", "GET", "/", &[], b"");
    assert_eq!(status, 200, "the shell is public: {said}");
}

/// The capture address the desk shows, split: (address and port, path
/// and query, the night's capture token).
pub(crate) fn capture_address(code: &Value) -> (String, String, String) {
    let url = code["url"].as_str().expect("an address");
    let rest = url.strip_prefix("http://").expect("http");
    let (at, path) = rest.split_once('/').expect("a path");
    let token = path
        .split(['?', '&'])
        .find_map(|kv| kv.strip_prefix("token="))
        .expect("a token");
    (at.to_string(), format!("/{path}"), token.to_string())
}

#[test]
fn a_phones_key_should_send_scans_to_its_night_and_open_nothing_else() {
    let dir = temp("desk-phone-key");
    let archive = night_archive(&dir);
    let desk = Desk::listening("0.0.0.0:0", "de", &archive, &[]);
    let code = desk.json("/api/capture");
    assert_eq!(code["reachable"], true, "{code}");
    let (at, path, key) = capture_address(&code);
    assert!(!at.starts_with("127."), "another computer's address: {at}");
    assert!(path.contains("tournament="), "the night named: {path}");
    let sheets_before = desk.json("/api/sheets").as_array().expect("queue").len();
    // From another computer (the machine's own network address, not
    // loopback): the page, named by its night, and a photo sent.
    let (status, head, page) = call_at(&at, &at, "GET", &path, &[], b"");
    assert_eq!(status, 200, "{page}");
    assert!(
        page.contains(code["night"].as_str().expect("a name")),
        "{page}"
    );
    assert!(head.contains("x-frame-options: deny"), "{head}");
    assert!(head.contains("frame-ancestors 'none'"), "{head}");
    let photo = as_png("merkur-scanner.jpg", &dir);
    let (kind, body) = multipart(&[("tisch30.png", std::fs::read(&photo).expect("photo"))]);
    let with_key = [
        ("Content-Type", kind.as_str()),
        ("x-aufsicht-token", key.as_str()),
    ];
    let (status, _, said) = call_at(&at, &at, "POST", "/api/scans", &with_key, &body);
    assert_eq!(status, 200, "{said}");
    assert!(said.contains("\"sheets\""), "{said}");
    assert_eq!(
        desk.json("/api/sheets").as_array().expect("queue").len(),
        sheets_before + 1
    );
    // Nothing else opens with it.
    let key_only = [("x-aufsicht-token", key.as_str())];
    for (method, route) in [
        ("GET", "/api/sheets"),
        ("GET", "/api/audit?sheet=1"),
        ("POST", "/api/sheets/1/verdict"),
        ("GET", "/api/capture"),
    ] {
        let (status, _, said) = call_at(&at, &at, method, route, &key_only, b"");
        assert!(
            status == 401 || status == 403,
            "{method} {route}: {status} {said}"
        );
    }
    // The desk renews it: the old key sends nothing more.
    let (status, _, renewed) = desk.call("POST", "/api/capture", &[], "");
    assert_eq!(status, 200, "{renewed}");
    let renewed: Value = serde_json::from_str(&renewed).expect("json");
    assert_ne!(capture_address(&renewed).2, key);
    let (status, _, _) = call_at(&at, &at, "POST", "/api/scans", &with_key, &body);
    assert_eq!(status, 401);
    // A request through a proxy on this computer is no request of its own.
    let forwarded = [("X-Forwarded-For", "203.0.113.9")];
    let (status, _, _) = desk.call("GET", "/api/sheets", &forwarded, "");
    assert_eq!(status, 401);
    // The desk restarted: the phone's link still sends, a wrong key not.
    let kept = capture_address(&renewed).2;
    drop(desk);
    let desk = Desk::listening("0.0.0.0:0", "de", &archive, &[]);
    let (at, _, key) = capture_address(&desk.json("/api/capture"));
    assert_eq!(key, kept, "the same key after a restart");
    let other = [("Content-Type", kind.as_str()), ("x-aufsicht-token", &key)];
    let (status, _, said) = call_at(&at, &at, "POST", "/api/scans", &other, &body);
    assert_eq!(status, 200, "{said}");
    assert!(said.contains("Runde 1, Tisch 30"), "{said}");
    let (status, _, _) = call_at(&at, &at, "POST", "/api/scans", &with_key, &body);
    assert_eq!(status, 401, "the old key still refused");
}

/// A club with phones only: the desk makes the archive and the night, a
/// phone sends the same sheet twice, the night's check names it until a
/// person settles the second as the first's copy, with the trail.
#[test]
fn a_night_from_the_desk_alone_should_take_phone_photos_and_settle_a_copy() {
    let dir = temp("desk-alone");
    let archive = dir.join("neu.sqlite");
    let more = ["--tournament", "Heute", "--date", "3.10.2026"];
    let desk = Desk::listening("0.0.0.0:0", "de", &archive, &more);
    assert!(archive.is_file(), "the archive made");
    let nights = desk.json("/api/nights");
    assert_eq!(nights[0]["name"], "Heute", "{nights}");
    assert_eq!(nights[0]["date"], "2026-10-03", "{nights}");
    let code = desk.json("/api/capture");
    assert_eq!(code["night"], "Heute", "{code}");
    let (at, _, key) = capture_address(&code);
    let send = |sample: &str| -> (i64, String) {
        let photo = as_png(sample, &dir);
        let (kind, body) = multipart(&[("foto.png", std::fs::read(&photo).expect("photo"))]);
        let headers = [
            ("Content-Type", kind.as_str()),
            ("x-aufsicht-token", key.as_str()),
        ];
        let (status, _, said) = call_at(&at, &at, "POST", "/api/scans", &headers, &body);
        assert_eq!(status, 200, "{said}");
        let sent: Value = serde_json::from_str(&said).expect("json");
        let message = sent[0]["message"].as_str().expect("a message").to_string();
        (sent[0]["sheets"][0].as_i64().expect("a sheet"), message)
    };
    // Each answer one sentence naming the round and table read.
    let (first, said) = send("merkur-scanner.jpg");
    assert!(said.starts_with("Runde 1, Tisch 30: gelesen"), "{said}");
    let (second, said) = send("merkur-fax.tif");
    assert!(
        said.starts_with("Runde 1, Tisch 30: ") && said.contains("zweimal fotografiert?"),
        "the table there already: {said}"
    );
    let (_, said) = send("doppelkopf-scanner.jpg");
    assert!(said.contains("eines anderen Spiels"), "{said}");
    let twice = |checks: &Value| -> Vec<Value> {
        (checks.as_array().expect("checks").iter())
            .filter(|c| c["code"] == "TABLE_TWICE" || c["code"] == "SHEET_TWICE")
            .cloned()
            .collect()
    };
    let checks = desk.json("/api/checks");
    let found = twice(&checks);
    assert!(!found.is_empty(), "{checks}");
    assert_eq!(found[0]["sheets"], json!([first, second]), "{checks}");
    let body = json!({"by": "AB", "of": first}).to_string();
    let (status, _, said) = desk.call(
        "POST",
        &format!("/api/sheets/{second}/copy"),
        &[("Content-Type", "application/json")],
        &body,
    );
    assert_eq!(status, 200, "{said}");
    assert!(twice(&desk.json("/api/checks")).is_empty());
    let trail = desk.json(&format!("/api/sheets/{second}/trail"));
    let settled = (trail.as_array().expect("trail").iter())
        .any(|t| t["field"] == "copy_of" && t["by"] == "AB");
    assert!(settled, "{trail}");
    // A sheet is no copy of itself.
    let body = json!({"by": "AB", "of": first}).to_string();
    let (status, _, said) = desk.call(
        "POST",
        &format!("/api/sheets/{first}/copy"),
        &[("Content-Type", "application/json")],
        &body,
    );
    assert_eq!(status, 409, "{said}");
}

/// A hostile file name and a file over the limit, sent over HTTP: each
/// gets its status in one German line, nothing of the refused is stored.
#[test]
fn a_hostile_name_and_a_huge_file_should_each_get_one_german_line() {
    let dir = temp("desk-hostile-upload");
    let archive = night_archive(&dir);
    let desk = Desk::start_in("de", &archive, &[]);
    let long_name = format!("Tisch:7*<>|{}.png", "Ü".repeat(300));
    let photo = as_png("merkur-scanner.jpg", &dir);
    let mut huge = b"\x89PNG\r\n\x1a\n".to_vec();
    huge.resize((40 << 20) + 10, 7);
    let (kind, body) = multipart(&[
        (long_name.as_str(), std::fs::read(&photo).expect("photo")),
        ("riesig.png", huge),
    ]);
    let headers = [("Content-Type", kind.as_str())];
    let (status, _, said) = desk.call_as(
        desk.url.trim_start_matches("http://").trim_end_matches('/'),
        "POST",
        "/api/scans",
        &headers,
        &body,
    );
    assert_eq!(status, 200, "{said}");
    let sent: Value = serde_json::from_str(&said).expect("json");
    let read = sent[0]["status"].as_str().expect("a status");
    assert!(read == "ok" || read == "flagged", "{sent}");
    assert!(
        sent[0]["file"].as_str().expect("a name").len() <= 120,
        "{sent}"
    );
    assert_eq!(sent[1]["status"], "refused");
    let message = sent[1]["message"].as_str().expect("a message");
    assert!(
        message.contains("größer als 40 MB") && !message.contains('\n'),
        "{message}"
    );
    // Kept: the read photo only; no temporary file left behind.
    let folder = std::fs::read_dir(archive.parent().expect("folder"))
        .expect("archive folder")
        .flatten()
        .find(|e| e.file_name().to_string_lossy().starts_with("fotos-"))
        .expect("the night's photo folder")
        .path();
    let kept: Vec<String> = std::fs::read_dir(&folder)
        .expect("photos")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(!kept.iter().any(|k| k.ends_with(".part")), "{kept:?}");
    assert!(!kept.iter().any(|k| k.contains("riesig")), "{kept:?}");
    let photos = kept.iter().filter(|k| k.ends_with(".png")).count();
    assert_eq!(photos, 1, "{kept:?}");
    // A request that is no form at all: one German line.
    let (status, _, said) = desk.call(
        "POST",
        "/api/scans",
        &[("Content-Type", "multipart/form-data; boundary=x")],
        "kaputt",
    );
    assert_eq!(status, 400);
    assert!(said.starts_with("die Sendung ist nicht lesbar"), "{said}");
}

/// A multipart body of `files` (name, bytes) in the field `file`.
pub(crate) fn multipart(files: &[(&str, Vec<u8>)]) -> (String, Vec<u8>) {
    let boundary = "aufsicht-test-boundary";
    let mut body = Vec::new();
    for (name, bytes) in files {
        let head = format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\nContent-Type: application/octet-stream\r\n\r\n"
        );
        body.extend_from_slice(head.as_bytes());
        body.extend_from_slice(bytes);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

#[test]
fn photos_sent_to_the_desk_should_be_read_as_scan_reads_them_and_nothing_stored_twice() {
    let dir = temp("desk-scans");
    let archive = night_archive(&dir);
    let desk = Desk::start(&archive);
    let queued = |desk: &Desk| desk.json("/api/sheets").as_array().expect("queue").len();
    let before = queued(&desk);
    let sample = |name: &str| std::fs::read(root().join("samples/scans").join(name)).expect(name);
    let mut huge = b"\xFF\xD8\xFF".to_vec();
    huge.resize((40 << 20) + 1, 0);
    let (kind, body) = multipart(&[
        ("merkur-faxpdf.pdf", sample("merkur-faxpdf.pdf")),
        ("IMG_0001.jpg", sample("merkur-scanner.jpg")),
        ("notiz.txt", b"Tisch 7 fehlt".to_vec()),
        ("riesig.jpg", huge),
        ("leer.png", table_top()),
    ]);
    let headers = [("Content-Type", kind.as_str())];
    let (status, _, answer) = desk.call_as(
        desk.url.trim_start_matches("http://").trim_end_matches('/'),
        "POST",
        "/api/scans",
        &headers,
        &body,
    );
    assert_eq!(status, 200, "{answer}");
    let sent: Value = serde_json::from_str(&answer).expect("json");
    let statuses: Vec<&str> = (sent.as_array().expect("files").iter())
        .map(|f| f["status"].as_str().expect("status"))
        .collect();
    assert_eq!(
        statuses,
        ["flagged", "duplicate", "refused", "refused", "unreadable"],
        "{sent}"
    );
    let why = sent[4]["message"].as_str().unwrap_or_default();
    assert!(
        why.contains('(') && why.len() > 40,
        "the reason said: {why}"
    );
    assert_eq!(
        sent[1]["sheets"].as_array().map(Vec::len),
        Some(1),
        "its sheet named"
    );
    assert!(
        sent[3]["message"]
            .as_str()
            .is_some_and(|m| m.contains("40 MB")),
        "{sent}"
    );
    assert_eq!(
        queued(&desk),
        before + 2,
        "the read and the unreadable, none twice"
    );
    let code = desk.json("/api/capture");
    assert_eq!(
        code["reachable"], false,
        "no phone reaches loopback: {code}"
    );
    // Read as `scan` reads the same file.
    let id = sent[0]["sheets"][0].as_i64().expect("an id");
    let stored = desk.json(&format!("/api/sheets/{id}"));
    let out = dir.join("scanned");
    scan_samples(&out, &["merkur-faxpdf.pdf"]);
    let text = std::fs::read_to_string(out.join("merkur-faxpdf-p1.json")).expect("result");
    let scanned: Value = serde_json::from_str(&text).expect("json");
    for key in [
        "games",
        "gesamt",
        "abzug",
        "endergebnis",
        "players",
        "round",
        "table",
    ] {
        assert_eq!(stored[key], scanned[key], "{key}");
    }
    let codes = |r: &Value| {
        let mut c: Vec<String> = (r["flags"].as_array().expect("flags").iter())
            .map(|f| f["code"].to_string())
            .collect();
        c.sort();
        c
    };
    assert_eq!(codes(&stored), codes(&scanned));
    // A write from another site, and a proxy's client without the token.
    let foreign = [
        ("Content-Type", kind.as_str()),
        ("Origin", "http://evil.example"),
    ];
    let (status, _, _) = desk.call("POST", "/api/scans", &foreign, "");
    assert_eq!(status, 403);
    drop(desk);
    let proxied = Desk::start_in("en", &archive, &["--behind-proxy"]);
    let (status, _, _) = proxied.call("POST", "/api/scans", &headers, "");
    assert_eq!(status, 401);
}

/// A sample scan written again as PNG: the same sheet, other bytes.
/// A photo of the table top: an image, but no sheet on it (PNG bytes).
pub(crate) fn table_top() -> Vec<u8> {
    let mut png = Vec::new();
    image::GrayImage::from_pixel(1240, 1754, image::Luma([235]))
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .expect("png");
    png
}

pub(crate) fn as_png(sample: &str, to: &Path) -> PathBuf {
    let image = image::open(root().join("samples/scans").join(sample)).expect(sample);
    let path = to.join(format!("{sample}.png"));
    image.save(&path).expect("png");
    path
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_phone_should_send_photos_from_its_page_and_the_desk_should_show_them_live() {
    use fantoccini::Locator::Css;
    let dir = temp("desk-capture");
    let archive = night_archive(&dir);
    // Listening where a phone reaches it: the phone below comes from the
    // machine's network address, not loopback, and shows its key.
    let desk = Desk::listening("0.0.0.0:0", "de", &archive, &[]);
    let driver = Driver::start();
    let client = browser(&driver, &dir.join("profile")).await;
    // The desk open on the organiser's screen: a sheet sent joins its queue.
    client.goto(&desk.url).await.expect("the desk");
    until(&client, "return document.body.dataset.ready === '1'").await;
    let queued = "return document.querySelectorAll('#queue li').length";
    let before = client.execute(queued, vec![]).await.expect("count");
    let before = before.as_u64().expect("a count");
    let photo = as_png("merkur-fax.tif", &dir);
    let (kind, body) = multipart(&[("tisch30.png", std::fs::read(&photo).expect("photo"))]);
    let host = desk.url.trim_start_matches("http://").trim_end_matches('/');
    let headers = [("Content-Type", kind.as_str())];
    let (status, _, said) = desk.call_as(host, "POST", "/api/scans", &headers, &body);
    assert_eq!(status, 200, "{said}");
    let grown = format!("{queued} === {}", before + 1);
    until(&client, &grown).await;
    // The phone: its page at a phone's size, a photo through its file input.
    client
        .set_window_size(390, 844)
        .await
        .expect("a phone's size");
    let code = desk.json("/api/capture");
    let qr = code["url"].as_str().expect("the QR's address");
    assert!(!qr.contains("127.0.0.1"), "{qr}");
    client.goto(qr).await.expect("the capture page");
    until(&client, "return document.body.dataset.ready === '1'").await;
    let second = as_png("merkur-scanner.jpg", &dir);
    let input = client.find(Css("#photos")).await.expect("the file input");
    input
        .send_keys(second.to_str().expect("utf-8"))
        .await
        .expect("a photo");
    until(&client, "const li = document.querySelector('#sent li'); return !!li && /^(ok|flagged)$/.test(li.className)").await;
    let shown = client
        .find(Css("#sent li"))
        .await
        .expect("its status")
        .text()
        .await
        .expect("text");
    // One sentence naming the table, and that it is there already.
    assert!(
        shown.starts_with("Runde 1, Tisch 30: ") && shown.contains("zweimal fotografiert?"),
        "{shown}"
    );
    let sheets = desk.json("/api/sheets");
    assert_eq!(sheets.as_array().map(Vec::len), Some(before as usize + 2));
    // Taken back from the phone: it stays in the archive, out of the night.
    client
        .find(Css("#sent li button"))
        .await
        .expect("take back")
        .click()
        .await
        .expect("click");
    until(
        &client,
        "const li = document.querySelector('#sent li'); return li.className === 'taken-back' && li.textContent.startsWith('Runde 1, Tisch 30: zurückgenommen')",
    )
    .await;
    let newest = sheets
        .as_array()
        .expect("sheets")
        .iter()
        .map(|s| s["id"].as_i64().expect("id"))
        .max();
    let sheet = desk.json(&format!("/api/sheets/{}", newest.expect("a sheet")));
    assert_eq!(sheet["discarded"]["by"], "Handy", "{sheet}");
    client.close().await.expect("close");
}

#[test]
fn a_desk_on_a_taken_port_should_say_so_in_one_line() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = taken.local_addr().expect("addr").to_string();
    let dir = temp("desk-port");
    let archive = night_archive(&dir);
    let run = crate::common::aufsicht_en(&[
        "review",
        "--serve",
        "--listen",
        &addr,
        "--archive",
        archive.to_str().expect("utf8"),
        "--rules",
        "merkur",
    ]);
    let err = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&addr) && err.trim().lines().count() == 1,
        "{err}"
    );
}

/// Clicks the element `css` once it is on the page.
async fn click(client: &fantoccini::Client, css: &str) {
    let present = format!("return !!document.querySelector({})", json!(css));
    until(client, &present).await;
    client
        .find(fantoccini::Locator::Css(css))
        .await
        .expect(css)
        .click()
        .await
        .expect("click");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_supervisor_should_initial_void_and_undo_both_in_chromium() {
    let dir = temp("powers-browser");
    let night = archive_with_a_correction(&dir);
    let desk = Desk::start(&night);
    let id = desk.json("/api/sheets")[0]["id"]
        .as_i64()
        .expect("flagged first");
    let driver = Driver::start();
    let client = browser(&driver, &dir.join("profile")).await;
    client.goto(&desk.url).await.expect("open the desk");
    until(&client, "return document.body.dataset.ready === '1'").await;
    let by = client
        .find(fantoccini::Locator::Css("#by"))
        .await
        .expect("name box");
    by.send_keys("Aufsicht").await.expect("type");

    // The correction's flag offers the row's initials; taken, and back.
    click(&client, "button[id^='initial-']").await;
    click(&client, "#uninitial-5").await;
    until(
        &client,
        "return !!document.querySelector(\"button[id^='initial-']\")",
    )
    .await;
    // Declared invalid with a reason, then valid again.
    client
        .find(fantoccini::Locator::Css("#void-reason"))
        .await
        .expect("reason box")
        .send_keys("forged")
        .await
        .expect("type");
    click(&client, "#void").await;
    click(&client, "#unvoid").await;
    until(&client, "return !!document.querySelector('#void')").await;
    // The writer's mistake: what counts at the row's first cell, with why;
    // shown beside what is written, then taken back.
    let counts =
        "const v = document.querySelector(\"input[id^='counts-']:not([id^='counts-reason'])\");
                  const r = document.querySelector(\"input[id^='counts-reason-']\");
                  v.value = '7'; r.value = 'die Zeile gibt 7';
                  document.querySelector(\"button[id^='counts-set-']\").click();";
    client.execute(counts, vec![]).await.expect("counts");
    until(
        &client,
        "return !!document.querySelector(\"button[id^='uncount-']\")",
    )
    .await;
    let shown: String = client
        .execute(
            "return document.getElementById('powers').textContent",
            vec![],
        )
        .await
        .expect("powers")
        .as_str()
        .unwrap_or("")
        .to_string();
    assert!(
        shown.contains("counts 7, Aufsicht: die Zeile gibt 7"),
        "{shown}"
    );
    click(&client, "button[id^='uncount-']").await;
    until(
        &client,
        "return !document.querySelector(\"button[id^='uncount-']\")",
    )
    .await;
    client.close().await.expect("close");

    let trail = desk.json(&format!("/api/sheets/{id}/trail"));
    let acts: Vec<String> = trail
        .as_array()
        .expect("trail")
        .iter()
        .map(|c| {
            format!(
                "{} {} {}",
                text_of(&c["kind"]),
                text_of(&c["by"]),
                text_of(&c["new"])
            )
        })
        .collect();
    assert_eq!(
        acts[..4],
        [
            "initials Aufsicht Aufsicht",
            "initials Aufsicht ",
            "void Aufsicht forged",
            "void Aufsicht ",
        ],
    );
    assert_eq!(acts[4], "counts Aufsicht 7", "{acts:?}");
    assert!(acts[5].starts_with("counts Aufsicht "), "{acts:?}");
    assert_eq!(acts.len(), 6, "{acts:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_desks_audit_page_should_render_its_crops_in_chromium() {
    let dir = temp("audit-browser");
    let archive = night_archive(&dir);
    let desk = Desk::start(&archive);
    let id = desk.json("/api/sheets")[0]["id"].as_i64().expect("a sheet");
    let driver = Driver::start();
    let client = browser(&driver, &dir.join("profile")).await;
    client
        .goto(&format!("{}audit?sheet={id}", desk.url))
        .await
        .expect("open the audit page");
    // Every crop decoded by the browser, and there is one for each row written.
    until(
        &client,
        "const imgs = [...document.images]; \
         return imgs.length >= 5 && imgs.every(i => i.complete && i.naturalWidth > 20)",
    )
    .await;
    client.close().await.expect("close");
}

/// The desk holds the archive open and takes a correction; a backup made
/// meanwhile is a whole archive with that correction, opened by itself.
#[test]
fn an_archive_should_be_backed_up_while_the_desk_uses_it() {
    let dir = temp("backup");
    let night = archive_with_a_correction(&dir);
    let desk = Desk::start(&night);
    let id = desk.json("/api/sheets")[0]["id"].as_i64().expect("a sheet");
    let body = json!({"by": "AB", "values": [{"path": "endergebnis/2", "value": 20}]});
    let (status, _, answer) = desk.post(id, "\"0\"", &body);
    assert_eq!(status, 200, "{answer}");
    let copy = dir.join("copy.sqlite");
    let s = |p: &Path| p.to_str().expect("utf8").to_string();
    let out = aufsicht_en(&["archive", "backup", &s(&night), &s(&copy)]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!dir.join("copy.sqlite.part").exists());
    drop(desk);
    let kept = aufsicht::night::club::archive::Archive::open(&copy).expect("the copy opens");
    let t = kept.pick_tournament(None).expect("one night");
    let sheets = kept.sheets(t).expect("sheets");
    assert_eq!(sheets.len(), 4);
    let corrected = sheets.iter().find(|s| s.id == id).expect("the sheet");
    assert_eq!(corrected.result.endergebnis[1], Some(20));
    assert_eq!(kept.corrections(id).expect("trail")[0].by, "AB");
}

#[test]
fn a_desk_on_an_archive_copied_alone_should_show_every_sheet_with_its_page_and_crops() {
    let dir = temp("desk-alone");
    let night = dir.join("night");
    std::fs::create_dir_all(&night).expect("dir");
    for sample in ["merkur-fax.tif", "merkur-scanner.jpg"] {
        let from = crate::common::root().join("samples/scans").join(sample);
        std::fs::copy(from, night.join(sample)).expect("copy");
    }
    let out = dir.join("out");
    let scan = aufsicht_en(&[
        "scan",
        "--rules",
        "merkur",
        "--out",
        out.to_str().expect("utf8"),
        night.to_str().expect("utf8"),
    ]);
    assert!(
        scan.status.success(),
        "{}",
        String::from_utf8_lossy(&scan.stderr)
    );
    // The archive on a stick: the scans and the results gone.
    let elsewhere = temp("desk-alone-copy");
    let copy = elsewhere.join("archive.sqlite");
    std::fs::copy(out.join("aufsicht.sqlite"), &copy).expect("copy");
    std::fs::remove_dir_all(&night).expect("scans gone");
    std::fs::remove_dir_all(&out).expect("results gone");
    let desk = Desk::start(&copy);
    let sheets = desk.json("/api/sheets");
    let ids: Vec<i64> = sheets
        .as_array()
        .expect("list")
        .iter()
        .map(|s| s["id"].as_i64().expect("id"))
        .collect();
    assert_eq!(ids.len(), 2);
    for id in ids {
        let view = desk.json(&format!("/api/sheets/{id}/view"));
        let page = view["page"].as_str().unwrap_or_default();
        assert!(page.starts_with("data:image/jpeg"), "sheet {id}: no page");
        let crops = view.to_string().matches("data:image/png").count();
        assert!(crops > 0, "sheet {id}: no crop");
    }
}

/// A sheet read off the wrong header (the club's look-alike named with
/// `--form`) is read again: by `scan --reread` on the forms it is
/// recognised among, and at the desk on a form named; each time the
/// archive's sheet is replaced and the trail says who read it on which.
#[test]
fn a_sheet_read_on_the_wrong_form_should_be_read_again_with_the_trail() {
    let dir = temp("reread");
    let verein = dir.join("verein.json");
    let layout = crate::form::header_a_row_lower();
    std::fs::write(&verein, layout.json().to_string()).expect("form");
    let archive = dir.join("verein.sqlite");
    let sample = root().join("samples/scans/merkur-scanner.jpg");
    let scan = |more: &[&str]| {
        let (archive, out, sample) = (
            archive.display().to_string(),
            dir.join("out").display().to_string(),
            sample.display().to_string(),
        );
        let mut args = vec!["scan", "--rules", "merkur", "--tournament", "Abend"];
        args.extend(["--archive", &archive, "--out", &out]);
        args.extend(more);
        args.push(&sample);
        let run = aufsicht(&args);
        assert_ne!(run.status.code(), Some(2), "{run:?}");
    };
    scan(&["--form", &verein.display().to_string()]);
    let stored = || {
        let db = aufsicht::night::club::archive::Archive::open(&archive).expect("archive");
        let night = db.pick_tournament(Some("Abend")).expect("night");
        let sheets = db.sheets(night).expect("sheets");
        assert_eq!(sheets.len(), 1, "one paper, one sheet");
        let trail = db.corrections(sheets[0].id).expect("trail");
        (sheets[0].clone(), trail)
    };
    let (first, _) = stored();
    assert_eq!(first.result.form.as_deref(), Some("verein"));
    // Scanned again as before: taken from the archive, not read.
    scan(&[]);
    assert_eq!(stored().0.result.form.as_deref(), Some("verein"));
    scan(&["--reread", "--by", "AB"]);
    let (again, trail) = stored();
    assert_eq!(again.result.form.as_deref(), Some("punkteliste-a4-32"));
    assert_eq!(
        (again.result.round, again.result.table),
        (Some(1), Some(30))
    );
    assert_eq!(again.result.source, first.result.source);
    let reread = trail
        .iter()
        .find(|c| c.field == "form")
        .expect("in the trail");
    assert_eq!(
        (
            reread.old.as_deref(),
            reread.new.as_deref(),
            reread.by.as_str()
        ),
        (
            Some("verein"),
            Some("punkteliste-a4-32"),
            aufsicht::night::club::archive::reader_name().as_str()
        ),
        "the trail names the program for what the reader changed, never a person"
    );
    assert!(
        trail
            .iter()
            .any(|c| c.field == "table" && c.by == aufsicht::night::club::archive::reader_name()),
        "{trail:?}"
    );

    let desk = Desk::start_in("de", &archive, &[]);
    let id = again.id;
    let act = |body: Value| {
        let headers = [("Content-Type", "application/json")];
        let path = format!("/api/sheets/{id}/reread");
        desk.call("POST", &path, &headers, &body.to_string())
    };
    let (status, _, answer) = act(json!({"by": "", "form": "verein"}));
    assert_eq!(status, 400, "{answer}");
    let (status, _, answer) = act(json!({"by": "CD", "form": "kein-formular"}));
    assert_eq!((status, answer.lines().count()), (404, 1), "{answer}");
    let (status, _, answer) = act(json!({"by": "CD", "form": "verein"}));
    assert_eq!(status, 200, "{answer}");
    let now: Value = serde_json::from_str(&answer).expect("json");
    assert_eq!(now["form"], "verein", "{answer}");
    assert_eq!(now["alignment"]["header_off"], true, "{answer}");
    let trail = desk.json(&format!("/api/sheets/{id}/trail"));
    let kinds: Vec<(&str, &str)> = trail
        .as_array()
        .expect("trail")
        .iter()
        .filter(|c| c["field"] == "form")
        .map(|c| {
            (
                c["by"].as_str().unwrap_or(""),
                c["kind"].as_str().unwrap_or(""),
            )
        })
        .collect();
    // Each reading on another form is the program's, never a person's.
    let program = aufsicht::night::club::archive::reader_name();
    assert_eq!(
        kinds,
        [(program.as_str(), "form"), (program.as_str(), "form")],
        "{trail}"
    );
    // A form that cannot read the page changes nothing: one line, 409.
    let before = desk.json(&format!("/api/sheets/{id}"));
    let (status, _, answer) = act(json!({"by": "CD", "form": "doko-a4-24x5"}));
    assert_eq!((status, answer.lines().count()), (409, 1), "{answer}");
    assert_eq!(desk.json(&format!("/api/sheets/{id}")), before);
}

/// A sheet taken for another game's is settled at the desk: the night's
/// after all (the night's rules check it, its players are ranked), and
/// back again; each in the trail as a verdict.
#[test]
fn a_sheet_taken_for_another_game_should_be_settled_at_the_desk() {
    let dir = temp("our-game");
    let out = dir.join("out");
    scan_samples(&out, &["merkur-scanner.jpg", "doppelkopf-scanner.jpg"]);
    let desk = Desk::start(&out.join("aufsicht.sqlite"));
    let queue = desk.json("/api/sheets");
    let id = queue
        .as_array()
        .expect("queue")
        .iter()
        .find(|s| {
            s["source"]
                .as_str()
                .is_some_and(|s| s.contains("doppelkopf"))
        })
        .and_then(|s| s["id"].as_i64())
        .expect("the Doppelkopf sheet");
    let doko = desk.json(&format!("/api/sheets/{id}"));
    let players: Vec<String> = doko["players"]
        .as_array()
        .expect("players")
        .iter()
        .filter_map(|p| p.as_str().map(str::to_string))
        .collect();
    assert!(!players.is_empty(), "{doko}");
    let ranked = |desk: &Desk| {
        let csv = desk.call("GET", "/api/standings", &[], "").2;
        players
            .iter()
            .filter(|p| csv.lines().any(|l| l.split(',').nth(1) == Some(p.as_str())))
            .count()
    };
    assert!(codes(&doko).contains(&"WRONG_GAME".into()), "{doko}");
    assert_eq!(ranked(&desk), 0);
    let settle = |ours: bool| {
        let headers = [("Content-Type", "application/json")];
        let body = json!({"by": "AB", "ours": ours}).to_string();
        let (status, _, answer) =
            desk.call("POST", &format!("/api/sheets/{id}/game"), &headers, &body);
        assert_eq!(status, 200, "{answer}");
        serde_json::from_str::<Value>(&answer).expect("json")
    };
    let ours = settle(true);
    assert!(!codes(&ours).contains(&"WRONG_GAME".into()), "{ours}");
    assert_eq!(ours["game_confirmed"]["by"], "AB", "{ours}");
    assert!(ranked(&desk) > 0, "its players are ranked");
    let back = settle(false);
    assert!(codes(&back).contains(&"WRONG_GAME".into()), "{back}");
    assert_eq!(ranked(&desk), 0);
    let trail = desk.json(&format!("/api/sheets/{id}/trail"));
    let verdicts = trail
        .as_array()
        .expect("trail")
        .iter()
        .filter(|c| c["field"] == "game_confirmed" && c["kind"] == "game")
        .count();
    assert_eq!(verdicts, 2, "{trail}");
}

/// The address printed for a second computer holds the desk's key only in
/// its fragment (no request carries it); shown once, the key is kept as a
/// cookie the browser sends and no page of another site can.
#[test]
fn the_desks_key_should_never_stand_in_an_address() {
    let dir = temp("desk-key");
    let archive = night_archive(&dir);
    let desk = Desk::listening("0.0.0.0:0", "de", &archive, &[]);
    let line = desk.said_line("/#token=");
    assert!(!line.contains("?token="), "{line}");
    let url = line.split_whitespace().last().expect("an address");
    let (at, key) = url
        .strip_prefix("http://")
        .and_then(|rest| rest.split_once("/#token="))
        .expect("address and key");
    assert!(!at.starts_with("127."), "another computer's address: {at}");
    let (status, _, _) = call_at(at, at, "GET", "/api/sheets", &[], b"");
    assert_eq!(status, 401, "no key, no sheets");
    let (status, head, said) = call_at(
        at,
        at,
        "POST",
        "/api/login",
        &[("x-aufsicht-token", key)],
        b"",
    );
    assert_eq!(status, 204, "{said}");
    let cookie = head
        .lines()
        .find_map(|l| l.strip_prefix("set-cookie: "))
        .expect("a cookie")
        .to_string();
    assert!(
        cookie.contains("httponly") && cookie.contains("samesite=strict"),
        "{cookie}"
    );
    let pair = cookie.split(';').next().expect("name=value");
    let (status, _, said) = call_at(at, at, "GET", "/api/sheets", &[("Cookie", pair)], b"");
    assert_eq!(status, 200, "{said}");
    let (status, _, _) = call_at(
        at,
        at,
        "GET",
        "/api/sheets",
        &[("Cookie", "aufsicht_key=nope")],
        b"",
    );
    assert_eq!(status, 401);
    let (status, _, _) = call_at(at, at, "POST", "/api/login", &[], b"");
    assert_eq!(status, 401, "no key, no cookie");
}

/// A writer's mistake at the desk: what counts is decided beside what is
/// written; the standings take the count, the ledger keeps the error, the
/// desk and the trail show both, and the written value takes it back.
#[test]
fn a_writers_mistake_should_count_as_decided_and_stay_written() {
    let dir = temp("counts");
    let rules = aufsicht::RuleSet::load("merkur").expect("merkur");
    let night = dir.join("night.sqlite");
    let mut archive = aufsicht::night::club::archive::Archive::open(&night).expect("archive");
    let tournament = archive.tournament("Counts", "merkur").expect("tournament");
    for (i, mut sheet) in tie_night().into_iter().enumerate() {
        if i == 0 {
            // Seat 2 wrote 2 more than its rows give.
            sheet.endergebnis[1] = sheet.endergebnis[1].map(|e| e + 2);
        }
        let sheet = aufsicht::verify(sheet, &rules, aufsicht::Lang::En).expect("verify");
        let (name, sha) = (format!("tisch{}.json", i + 1), format!("{i:064x}"));
        archive
            .store_file(tournament, &sha, None, &[(name, sheet)])
            .expect("store");
    }
    drop(archive);
    let desk = Desk::start(&night);
    let id = (desk.json("/api/sheets").as_array().expect("queue").iter())
        .find(|s| s["table"] == 1)
        .and_then(|s| s["id"].as_i64())
        .expect("table 1");
    let sheet = desk.json(&format!("/api/sheets/{id}"));
    let written = sheet["endergebnis"][1].as_i64().expect("written");
    let rows_give = written - 2;
    let player = text_of(&sheet["players"][1]);
    let total = |desk: &Desk| {
        let rows = desk.json("/api/standings?format=json");
        (rows.as_array().expect("rows").iter())
            .find(|r| text_of(&r["player"]) == player)
            .and_then(|r| r["total"].as_i64())
            .expect("ranked")
    };
    let before = total(&desk);
    let counts = |body: Value| {
        let headers = [("Content-Type", "application/json")];
        let path = format!("/api/sheets/{id}/counts");
        let (status, _, answer) = desk.call("POST", &path, &headers, &body.to_string());
        (status, answer)
    };
    let value = |v: i64| json!([{"path": "endergebnis/2", "value": v}]);
    let (status, said) = counts(json!({"by": "AB", "reason": " ", "values": value(rows_give)}));
    assert_eq!(status, 400, "a count needs its reason: {said}");
    assert!(said.contains("needs a reason"), "{said}");
    let (status, said) = counts(json!({"by": "AB", "reason": "x", "values": value(1), "why": 1}));
    assert_eq!(status, 400, "a field the contract does not list: {said}");
    let reason = format!("the rows give {rows_give}");
    let (status, answer) =
        counts(json!({"by": "AB", "reason": reason, "values": value(rows_give)}));
    assert_eq!(status, 200, "{answer}");
    let sheet: Value = serde_json::from_str(&answer).expect("json");
    assert_eq!(sheet["endergebnis"][1], written, "the paper's value stays");
    assert_eq!(sheet["counts"][0]["written"], written);
    assert_eq!(sheet["counts"][0]["value"], rows_give);
    let mismatch = (sheet["flags"].as_array().expect("flags").iter())
        .find(|f| f["code"] == "ENDERGEBNIS_MISMATCH" && f["seat"] == 2)
        .expect("the flag stays");
    assert_eq!(mismatch["settled"]["by"], "AB", "{mismatch}");
    assert_eq!(total(&desk), before - 2, "the standings take what counts");
    let view = desk.json(&format!("/api/sheets/{id}/view"));
    let shown = text_of(&view["counts"][0]["said"]);
    assert_eq!(
        shown,
        format!("written {written}, counts {rows_give}, AB: {reason}")
    );
    let trail = desk.json(&format!("/api/sheets/{id}/trail"));
    let line = (trail.as_array().expect("trail").iter())
        .find(|l| l["kind"] == "counts")
        .expect("in the trail");
    assert_eq!(
        (text_of(&line["old"]), text_of(&line["new"])),
        (written.to_string(), rows_give.to_string())
    );
    // The ledger keeps the Schreiber's error that the count confirms.
    let ledger = desk.json("/api/writers");
    let errors: u64 = (ledger["writers"].as_array().expect("writers").iter())
        .filter_map(|w| w["errors"].as_u64())
        .sum();
    assert_eq!(errors, 1, "{ledger}");
    // Each open check says which of the desk's buttons settles it.
    for check in desk.json("/api/checks").as_array().expect("checks") {
        let action = check["action"].as_str().unwrap_or("");
        assert!(
            check["settled"].is_object() || !action.is_empty(),
            "{check}"
        );
    }
    // A copy request with a field the contract does not list is refused.
    let (status, _, said) = desk.call(
        "POST",
        &format!("/api/sheets/{id}/copy"),
        &[("Content-Type", "application/json")],
        &json!({"by": "AB", "of": null, "copy": 1}).to_string(),
    );
    assert_eq!(status, 400, "{said}");
    // The written value takes the decision back.
    let (status, answer) = counts(json!({"by": "AB", "reason": "back", "values": value(written)}));
    assert_eq!(status, 200, "{answer}");
    let sheet: Value = serde_json::from_str(&answer).expect("json");
    assert!(sheet.get("counts").is_none(), "{answer}");
    assert_eq!(total(&desk), before);
    // An answer that the paper says what the rows give (a misreading)
    // removes the error from the ledger.
    let body = json!({"by": "AB", "values": value(rows_give)}).to_string();
    let path = format!("/api/sheets/{id}/values");
    let (status, _, answer) = desk.call(
        "POST",
        &path,
        &[("Content-Type", "application/json")],
        &body,
    );
    assert_eq!(status, 200, "{answer}");
    let ledger = desk.json("/api/writers");
    let errors: u64 = (ledger["writers"].as_array().expect("writers").iter())
        .filter_map(|w| w["errors"].as_u64())
        .sum();
    assert_eq!(errors, 0, "{ledger}");
}
