//! The audit as one self-contained HTML page: every crop embedded, to
//! print or to mail. For each sheet: the rows the player (or every seat)
//! wrote with their crops and readings, the row and footer arithmetic, the
//! flags, and every change with who and when.

use std::collections::HashMap;

use crate::catalogue;
use crate::catalogue::say;
use crate::cells::cut_at;
use crate::check::messages::Lang;
use crate::html::{DOCTYPE, Markup, compiled_in, html};
use crate::night::club::audit::{Audit, AuditedNight, AuditedSheet, Line};
use crate::night::club::evidence::Evidence;
use crate::night::desk::review::{CROP_PX_PER_MM, data_uri_png, stored_alignment, union};
use crate::night::tournament::checks::round_and_table;
use crate::night::tournament::names::Names;
use crate::sheet::{Cell, GameRow, PlayerNo, SheetResult};

const STYLE: &str = "body{font-family:sans-serif;margin:1.5em}table{border-collapse:collapse;margin:.5em 0}\
td,th{border:1px solid #bbb;padding:2px 6px;text-align:right}th{background:#eee}\
td.me,th.me{background:#fff3c4}img{display:block;max-width:42em}.void{color:#a00;font-weight:bold}\
section{page-break-inside:avoid;border-top:2px solid #444;margin-top:1.5em}\
@page{size:A4 portrait;margin:12mm}\
@media print{body{margin:0;font-size:8.5pt}table{width:100%}td,th{padding:1px 3px}img{max-width:60mm}}";

/// What the page needs besides the audit: the forms and each sheet's
/// scan by the sheet's id ([`crate::night::club::evidence::of_audit`]).
pub struct Scans<'a> {
    pub forms: &'a [crate::page::form::KnownForm],
    pub evidence: &'a HashMap<i64, Evidence>,
}

/// The audit's page: a night's (its standings line, then its sheets), or
/// a season's (the season's line, then each night's line and sheets).
pub fn page(audit: &Audit, scans: &Scans, lang: Lang) -> String {
    let player = audit.player.as_ref();
    let title = match (&player, &audit.name) {
        (Some(p), Some(name)) => format!(
            "{} ({name})",
            say(lang, "audit-title-player", &[("player", p)])
        ),
        (Some(p), None) => say(lang, "audit-title-player", &[("player", p)]),
        (None, _) => say(lang, "audit-title-sheet", &[]),
    };
    html! {
        (DOCTYPE)
        html lang=(lang.code()) {
            head { meta charset="utf-8"; title { (title) } style { (compiled_in(STYLE)) } }
            body {
                h1 { (title) }
                @if let Some(line) = &audit.season {
                    h2 { (say(lang, "audit-season", &[])) }
                    (line_table(line, audit, lang))
                }
                @if audit.nights.is_empty() {
                    @if let Some(line) = &audit.standings {
                        h2 { (say(lang, "audit-standings", &[])) }
                        (line_table(line, audit, lang))
                    }
                    @for sheet in &audit.sheets { (section(sheet, scans, &audit.names, lang)) }
                }
                @for night in &audit.nights {
                    h2 class="night" { (say(lang, "audit-night", &[("night", &night_label(night, lang))])) }
                    @if let Some(line) = &night.standings { (line_table(line, audit, lang)) }
                    @for sheet in audit.sheets.iter().filter(|s| s.tournament == night.name) {
                        (section(sheet, scans, &audit.names, lang))
                    }
                }
            }
        }
    }
    .into_string()
}

/// A night's name, and its date the language's way.
fn night_label(night: &AuditedNight, lang: Lang) -> String {
    let date = night
        .date
        .as_deref()
        .and_then(|d| d.parse::<chrono::NaiveDate>().ok());
    match date {
        Some(d) => format!("{} ({})", night.name, catalogue::date(lang, d)),
        None => night.name.clone(),
    }
}

/// A standings or season line as a table: column heads in the language,
/// the sheets to review by round and table.
fn line_table(line: &Line, audit: &Audit, lang: Lang) -> Markup {
    let text = |name: &str, v: &serde_json::Value| match v {
        serde_json::Value::Null => String::new(),
        serde_json::Value::String(s) if name == "review" => by_round_and_table(s, audit, lang),
        serde_json::Value::String(s) => s.clone(),
        v => v.to_string(),
    };
    // The name beside the number, where a list gives one.
    let name = line
        .get("player")
        .and_then(|p| p.as_str())
        .and_then(|p| audit.names.get(p));
    // As a person reads a line: place, who, points, then the rest.
    const FIRST: [&str; 3] = ["rank", "player", "total"];
    let keys: Vec<&String> = FIRST
        .iter()
        .filter_map(|f| line.keys().find(|k| k.as_str() == *f))
        .chain(line.keys().filter(|k| !FIRST.contains(&k.as_str())))
        .collect();
    html! {
        table {
            tr {
                @for k in &keys {
                    th { (catalogue::column_head(lang, k)) }
                    @if k.as_str() == "player" && name.is_some() { th { (catalogue::column_head(lang, "name")) } }
                }
            }
            tr {
                @for k in &keys {
                    td { (text(k, &line[k.as_str()])) }
                    @if k.as_str() == "player" { @if let Some(name) = name { td { (name) } } }
                }
            }
        }
    }
}

/// The standings' `review` column (sheets by their names, `;` between)
/// as "Runde 1, Tisch 3": the audit's sheets of those names.
fn by_round_and_table(names: &str, audit: &Audit, lang: Lang) -> String {
    let named = |name: &str| {
        let s = (audit.sheets.iter()).find(|s| s.source.as_deref() == Some(name))?;
        round_and_table(s.round, s.table, lang)
    };
    let names = names.split(';').filter(|n| !n.is_empty());
    let shown: Vec<String> = names
        .map(|n| named(n).unwrap_or_else(|| file_name(n)))
        .collect();
    shown.join("; ")
}

/// A path's last part: where a scan lies is the archive's business.
fn file_name(path: &str) -> String {
    let name = std::path::Path::new(path).file_name();
    name.map_or_else(|| path.to_string(), |n| n.to_string_lossy().into_owned())
}

fn section(s: &AuditedSheet, scans: &Scans, names: &Names, lang: Lang) -> Markup {
    let unknown = || "?".to_string();
    let args: [(&str, &dyn std::fmt::Display); 4] = [
        ("round", &s.round.map_or_else(unknown, |r| r.to_string())),
        ("table", &s.table.map_or_else(unknown, |t| t.to_string())),
        (
            "source",
            &s.source.as_deref().map_or_else(unknown, file_name),
        ),
        ("id", &s.id),
    ];
    // Declared invalid, or taken out of the night: said above the sheet.
    let notes = &s.result.notes;
    let said = |(id, void): (&str, &crate::sheet::notes::Void)| {
        let at = catalogue::time(lang, &void.at);
        let args: [(&str, &dyn std::fmt::Display); 3] =
            [("by", &void.by), ("at", &at), ("reason", &void.reason)];
        say(lang, id, &args)
    };
    let void = (notes.void.as_ref().map(|v| ("audit-void", v)))
        .or(notes.discarded.as_ref().map(|v| ("audit-discarded", v)))
        .map(said);
    let changed = matches!(scans.evidence.get(&s.id), Some(Evidence::Changed));
    let counts: Vec<String> = (s.result.notes.counts.iter())
        .map(|c| {
            let place = c.path.parse::<crate::sheet::ValuePath>();
            let place = place.map_or_else(|_| c.path.clone(), |p| p.label(lang));
            format!("{place}: {}", crate::record::stand::said(c, lang))
        })
        .collect();
    html! {
        section {
            h2 { (say(lang, "audit-sheet", &args)) }
            @if let Some(void) = void { p class="void" { (void) } }
            @for count in &counts { p class="counted" { (count) } }
            @if changed { p class="void" { (say(lang, "scan-changed", &[])) } }
            (rows(s, scans, names, lang))
            (footer(s, lang))
            (flags(&s.result, lang))
            (changes(s, lang))
        }
    }
}

/// Who sat at `seat`: the number, and the name where a list gives one.
fn who_sat(sheet: &SheetResult, seat: usize, names: &Names) -> Option<String> {
    let number = sheet.players.get(seat - 1)?.as_deref()?;
    Some(names.label(&PlayerNo::new(number)))
}

/// The seats the audit is about: the player's, or every seat.
fn seats_of(s: &AuditedSheet) -> Vec<usize> {
    s.seat
        .map_or_else(|| (1..=s.result.seats()).collect(), |seat| vec![seat])
}

fn rows(s: &AuditedSheet, scans: &Scans, names: &Names, lang: Lang) -> Markup {
    let sheet = &s.result;
    let crop = row_cropper(sheet, scans.evidence.get(&s.id), scans);
    let mine = seats_of(s);
    let written = |row: &&GameRow| {
        mine.iter()
            .any(|&seat| row.cells.get(seat - 1).is_some_and(Cell::has_writing))
    };
    let me = |seat: usize| (s.seat == Some(seat)).then_some("me");
    html! {
        table {
            tr {
                th { (say(lang, "audit-row", &[])) }
                th { (say(lang, "audit-crop", &[])) }
                @for seat in 1..=sheet.seats() {
                    th class=[me(seat)] {
                        (seat)
                        @if let Some(who) = who_sat(sheet, seat, names) { br; small { (who) } }
                    }
                }
                @for id in ["audit-read", "audit-sure", "audit-sum", "audit-game", "audit-initials"] {
                    th { (say(lang, id, &[])) }
                }
            }
            @for row in sheet.games.iter().filter(written) {
                tr {
                    td { (row.no) }
                    td { @if let Some(uri) = crop(row.no) { img src=(uri); } }
                    @for (i, cell) in row.cells.iter().enumerate() {
                        td class=[me(i + 1)] { (cell_text(cell)) }
                    }
                    td { (readings(row, &mine, Part::Read)) }
                    td { (readings(row, &mine, Part::Sure)) }
                    td { (row.cells.iter().filter_map(Cell::value).sum::<i64>()) }
                    td { (row.class.as_ref().map_or("–", |c| c.name.as_str())) }
                    td { (initials(sheet, row, lang)) }
                }
            }
        }
    }
}

/// A function that crops game row `no` from the sheet's scan, where the
/// scan, its form and its alignment are at hand.
fn row_cropper<'a>(
    sheet: &'a SheetResult,
    evidence: Option<&'a Evidence>,
    scans: &Scans,
) -> impl Fn(u32) -> Option<String> + 'a {
    let form = crate::page::form::find_for(
        scans.forms,
        sheet.form.as_deref(),
        sheet.notes.form_sha256.as_deref(),
    )
    .cloned();
    let image = evidence.and_then(Evidence::image);
    let align = stored_alignment(sheet);
    move |no: u32| {
        let (form, image, align) = (form.as_ref()?, image?, align.as_ref()?);
        let boxes = form
            .fields
            .game
            .get(usize::try_from(no).ok()?.checked_sub(1)?)?;
        let whole = boxes
            .iter()
            .flat_map(|pm| [pm.plus, pm.minus])
            .reduce(union)?;
        data_uri_png(&cut_at(image, align, whole, 1.0, CROP_PX_PER_MM))
    }
}

/// A cell as written: "+3", "−5", circled in brackets, a struck value after.
fn cell_text(cell: &Cell) -> String {
    let mut text = match (cell.plus, cell.minus) {
        (Some(p), None) => format!("+{p}"),
        (None, Some(m)) => format!("−{m}"),
        (Some(p), Some(m)) => format!("+{p} −{m}"),
        (None, None) => String::new(),
    };
    if cell.circled {
        text = format!("({text})");
    }
    if let Some(struck) = cell.notes.struck {
        let was = struck
            .value
            .map_or_else(|| "?".to_string(), |v| v.to_string());
        text.push_str(&format!(" [~{was}~]"));
    } else if cell.corrected {
        text.push_str(" [~]");
    }
    text
}

/// Which part of a reading a column shows.
#[derive(Clone, Copy)]
enum Part {
    Read,
    Sure,
}

/// What the reader saw in the audited seats' cells, or how sure it was,
/// in columns of their own.
fn readings(row: &GameRow, seats: &[usize], part: Part) -> String {
    let mut out = Vec::new();
    for &seat in seats {
        let Some(cell) = row.cells.get(seat - 1) else {
            continue;
        };
        for r in [&cell.notes.plus_reading, &cell.notes.minus_reading]
            .into_iter()
            .flatten()
        {
            out.push(match part {
                Part::Read => r.read.to_string(),
                Part::Sure => format!("{:.0} %", r.confidence * 100.0),
            });
        }
    }
    out.join(", ")
}

/// The row's initials: on the paper, and the supervisor's at the desk.
fn initials(sheet: &SheetResult, row: &GameRow, lang: Lang) -> String {
    let mut out = Vec::new();
    if row.initials {
        out.push("✓".to_string());
    }
    let desk = sheet
        .notes
        .supervisor_initials
        .iter()
        .filter(|i| i.row == row.no);
    out.extend(desk.map(|i| format!("{} ({})", i.by, catalogue::time(lang, &i.at))));
    out.join(" ")
}

/// Each audited seat's footer as written beside what its rows give.
fn footer(s: &AuditedSheet, lang: Lang) -> Markup {
    let sheet = &s.result;
    let heads = [
        "audit-seat",
        "audit-gesamt-plus",
        "audit-gesamt-minus",
        "audit-abzug",
        "audit-endergebnis",
    ];
    let shown = |written: Option<i64>, rows: i64| {
        let written = written.map_or_else(|| "–".into(), |v| v.to_string());
        format!("{written} / {rows}")
    };
    let at = |values: &[Option<u32>], seat: usize| {
        values.get(seat - 1).copied().flatten().map(i64::from)
    };
    html! {
        table {
            tr { @for id in heads { th { (say(lang, id, &[])) } } }
            @for seat in seats_of(s) {
                @let (plus, minus) = column_sums(sheet, seat);
                @let g = sheet.gesamt.get(seat - 1).copied().flatten();
                @let end = sheet.endergebnis.get(seat - 1).copied().flatten();
                tr {
                    td { (seat) }
                    td { (shown(g.and_then(|g| g.plus).map(i64::from), plus)) }
                    td { (shown(g.and_then(|g| g.minus).map(i64::from), minus)) }
                    td { (shown(at(&sheet.abzug, seat), plus.min(minus))) }
                    td { (shown(end, plus - minus)) }
                }
            }
        }
        p { (say(lang, "audit-footer-note", &[])) }
    }
}

/// A seat's Plus and Minus column sums over the game rows.
fn column_sums(sheet: &SheetResult, seat: usize) -> (i64, i64) {
    let cells = sheet.games.iter().filter_map(|g| g.cells.get(seat - 1));
    cells.fold((0, 0), |(p, m), c| {
        (
            p + i64::from(c.plus.unwrap_or(0)),
            m + i64::from(c.minus.unwrap_or(0)),
        )
    })
}

fn flags(sheet: &SheetResult, lang: Lang) -> Markup {
    let accepted = |by: &String, at: &String| {
        let at = catalogue::time(lang, at);
        let args: [(&str, &dyn std::fmt::Display); 2] = [("by", by), ("at", &at)];
        say(lang, "audit-accepted", &args)
    };
    html! {
        h3 { (say(lang, "audit-flags", &[])) }
        ul {
            @for f in &sheet.flags { li { b { (f.code.as_str()) } " " (f.message) } }
            @for a in &sheet.notes.accepted {
                li class="accepted" {
                    b { (a.flag.code.as_str()) } " " (a.flag.message) " — " (accepted(&a.by, &a.at))
                }
            }
        }
    }
}

fn changes(s: &AuditedSheet, lang: Lang) -> Markup {
    let heads = [
        "audit-kind",
        "audit-field",
        "audit-old",
        "audit-new",
        "audit-by",
        "audit-at",
    ];
    let blank = |v: &Option<String>| v.clone().unwrap_or_else(|| "–".into());
    let kind = |c: &crate::night::club::archive::Change| {
        say(lang, &format!("change-kind-{}", c.kind.as_str()), &[])
    };
    html! {
        h3 { (say(lang, "audit-changes", &[])) }
        @if s.changes.is_empty() {
            p { (say(lang, "audit-no-changes", &[])) }
        } @else {
            table {
                tr { @for id in heads { th { (say(lang, id, &[])) } } th; }
                @for audited in &s.changes {
                    @let c = &audited.change;
                    tr {
                        td { (kind(c)) }
                        td { (c.field) }
                        td { (blank(&c.old)) }
                        td { (blank(&c.new)) }
                        td { (c.by) }
                        td { (catalogue::time(lang, &c.at)) }
                        td { @if let Some(m) = audited.moved { (format!("{m:+}")) } }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_season_line_should_read_place_player_and_points_first_and_print_on_a4() {
        let line: Line = serde_json::from_str(
            r#"{"nights": 3, "round_1": 20, "player": "417", "total": 52, "rank": 2}"#,
        )
        .expect("line");
        let audit = Audit {
            player: None,
            name: None,
            names: Names::default(),
            sheets: Vec::new(),
            standings: Some(line.clone()),
            nights: Vec::new(),
            season: None,
        };
        let table = line_table(&line, &audit, Lang::De).into_string();
        let at = |head: &str| table.find(&format!("<th>{head}")).expect(head);
        assert!(at("Platz") < at("Teilnehmer") && at("Teilnehmer") < at("Punkte"));
        assert!(at("Punkte") < at("Abende"), "{table}");
        let page = page(
            &audit,
            &Scans {
                forms: &[],
                evidence: &HashMap::new(),
            },
            Lang::De,
        );
        assert!(page.contains("@page{size:A4 portrait"), "{page}");
    }
}
