//! The audit as one self-contained HTML page: every crop embedded, to
//! print or to mail. For each sheet: the rows the player (or every seat)
//! wrote with their crops and readings, the row and footer arithmetic, the
//! flags, and every change with who and when.

use std::fmt::Write;

use std::collections::HashMap;

use crate::catalogue::say;
use crate::cells::cut_at;
use crate::check::messages::Lang;
use crate::night::audit::{Audit, AuditedSheet};
use crate::night::evidence::Evidence;
use crate::night::review::{CROP_PX_PER_MM, data_uri_png, esc, stored_alignment, union};
use crate::page::form::FormTemplate;
use crate::sheet::{Cell, GameRow, SheetResult};

const STYLE: &str = "body{font-family:sans-serif;margin:1.5em}table{border-collapse:collapse;margin:.5em 0}\
td,th{border:1px solid #bbb;padding:2px 6px;text-align:right}th{background:#eee}\
td.me,th.me{background:#fff3c4}img{display:block;max-width:42em}.void{color:#a00;font-weight:bold}\
section{page-break-inside:avoid;border-top:2px solid #444;margin-top:1.5em}";

/// What the page needs besides the audit: the forms and each sheet's
/// scan by the sheet's id ([`crate::night::evidence::of_audit`]).
pub struct Scans<'a> {
    pub forms: &'a [FormTemplate],
    pub evidence: &'a HashMap<i64, Evidence>,
}

/// The audit's page.
pub fn page(audit: &Audit, scans: &Scans, lang: Lang) -> String {
    let title = match &audit.player {
        Some(p) => say(lang, "audit-title-player", &[("player", p)]),
        None => say(lang, "audit-title-sheet", &[]),
    };
    let mut html = format!(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>{t}</title><style>{STYLE}</style></head><body><h1>{t}</h1>",
        t = esc(&title)
    );
    if let Some(line) = &audit.standings {
        let _ = write!(
            html,
            "<h2>{}</h2><table><tr>",
            esc(&say(lang, "audit-standings", &[]))
        );
        for k in line.keys() {
            let _ = write!(html, "<th>{}</th>", esc(k));
        }
        html.push_str("</tr><tr>");
        for v in line.values() {
            let text = match v {
                serde_json::Value::Null => String::new(),
                serde_json::Value::String(s) => s.clone(),
                v => v.to_string(),
            };
            let _ = write!(html, "<td>{}</td>", esc(&text));
        }
        html.push_str("</tr></table>");
    }
    for sheet in &audit.sheets {
        section(&mut html, sheet, scans, lang);
    }
    html.push_str("</body></html>");
    html
}

fn section(html: &mut String, s: &AuditedSheet, scans: &Scans, lang: Lang) {
    let unknown = || "?".to_string();
    let args: [(&str, &dyn std::fmt::Display); 4] = [
        ("round", &s.round.map_or_else(unknown, |r| r.to_string())),
        ("table", &s.table.map_or_else(unknown, |t| t.to_string())),
        ("source", &s.source.clone().unwrap_or_else(unknown)),
        ("id", &s.id),
    ];
    let _ = write!(
        html,
        "<section><h2>{}</h2>",
        esc(&say(lang, "audit-sheet", &args))
    );
    if let Some(void) = &s.result.notes.void {
        let args: [(&str, &dyn std::fmt::Display); 3] =
            [("by", &void.by), ("at", &void.at), ("reason", &void.reason)];
        let _ = write!(
            html,
            "<p class=\"void\">{}</p>",
            esc(&say(lang, "audit-void", &args))
        );
    }
    if let Some(Evidence::Changed) = scans.evidence.get(&s.id) {
        let _ = write!(
            html,
            "<p class=\"void\">{}</p>",
            esc(&say(lang, "scan-changed", &[]))
        );
    }
    rows(html, s, scans, lang);
    footer(html, s, lang);
    flags(html, &s.result, lang);
    changes(html, s, lang);
    html.push_str("</section>");
}

/// The seats the audit is about: the player's, or every seat.
fn seats_of(s: &AuditedSheet) -> Vec<usize> {
    s.seat
        .map_or_else(|| (1..=s.result.seats()).collect(), |seat| vec![seat])
}

fn rows(html: &mut String, s: &AuditedSheet, scans: &Scans, lang: Lang) {
    let sheet = &s.result;
    let crop = row_cropper(sheet, scans.evidence.get(&s.id), scans);
    let mine = seats_of(s);
    let heads = ["audit-row", "audit-crop"].map(|id| say(lang, id, &[]));
    let _ = write!(
        html,
        "<table><tr><th>{}</th><th>{}</th>",
        esc(&heads[0]),
        esc(&heads[1])
    );
    for seat in 1..=sheet.seats() {
        let class = if s.seat == Some(seat) {
            " class=\"me\""
        } else {
            ""
        };
        let _ = write!(html, "<th{class}>{seat}</th>");
    }
    for id in ["audit-read", "audit-sum", "audit-game", "audit-initials"] {
        let _ = write!(html, "<th>{}</th>", esc(&say(lang, id, &[])));
    }
    html.push_str("</tr>");
    for row in &sheet.games {
        if !mine
            .iter()
            .any(|&seat| row.cells.get(seat - 1).is_some_and(Cell::has_writing))
        {
            continue;
        }
        let image = crop(row.no).map_or_else(String::new, |uri| format!("<img src=\"{uri}\">"));
        let _ = write!(html, "<tr><td>{}</td><td>{image}</td>", row.no);
        for (i, cell) in row.cells.iter().enumerate() {
            let class = if s.seat == Some(i + 1) {
                " class=\"me\""
            } else {
                ""
            };
            let _ = write!(html, "<td{class}>{}</td>", esc(&cell_text(cell)));
        }
        let sum: i64 = row.cells.iter().filter_map(Cell::value).sum();
        let game = row.class.as_ref().map_or("", |c| c.name.as_str());
        let _ = write!(
            html,
            "<td>{}</td><td>{sum}</td><td>{}</td><td>{}</td></tr>",
            esc(&readings(row, &mine)),
            esc(game),
            esc(&initials(sheet, row)),
        );
    }
    html.push_str("</table>");
}

/// A function that crops game row `no` from the sheet's scan, where the
/// scan, its form and its alignment are at hand.
fn row_cropper<'a>(
    sheet: &'a SheetResult,
    evidence: Option<&'a Evidence>,
    scans: &Scans,
) -> impl Fn(u32) -> Option<String> + 'a {
    let form = sheet
        .form
        .as_deref()
        .and_then(|id| scans.forms.iter().find(|f| f.id == id))
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
        Some(data_uri_png(&cut_at(
            image,
            align,
            whole,
            1.0,
            CROP_PX_PER_MM,
        )))
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

/// What the reader saw in the audited seats' cells, with its confidence.
fn readings(row: &GameRow, seats: &[usize]) -> String {
    let mut out = Vec::new();
    for &seat in seats {
        let Some(cell) = row.cells.get(seat - 1) else {
            continue;
        };
        for r in [&cell.notes.plus_reading, &cell.notes.minus_reading]
            .into_iter()
            .flatten()
        {
            out.push(format!("{} {:.0}%", r.read, r.confidence * 100.0));
        }
    }
    out.join(", ")
}

/// The row's initials: on the paper, and the supervisor's at the desk.
fn initials(sheet: &SheetResult, row: &GameRow) -> String {
    let mut out = Vec::new();
    if row.initials {
        out.push("✓".to_string());
    }
    let desk = sheet
        .notes
        .supervisor_initials
        .iter()
        .filter(|i| i.row == row.no);
    out.extend(desk.map(|i| format!("{} ({})", i.by, i.at)));
    out.join(" ")
}

/// Each audited seat's footer as written beside what its rows give.
fn footer(html: &mut String, s: &AuditedSheet, lang: Lang) {
    let sheet = &s.result;
    let heads = [
        "audit-seat",
        "audit-gesamt-plus",
        "audit-gesamt-minus",
        "audit-abzug",
        "audit-endergebnis",
    ];
    html.push_str("<table><tr>");
    for id in heads {
        let _ = write!(html, "<th>{}</th>", esc(&say(lang, id, &[])));
    }
    html.push_str("</tr>");
    for seat in seats_of(s) {
        let (plus, minus) = column_sums(sheet, seat);
        let g = sheet.gesamt.get(seat - 1).copied().flatten();
        let shown = |written: Option<String>, rows: i64| {
            format!("{} / {rows}", written.unwrap_or_else(|| "–".into()))
        };
        let end_rows = plus - minus;
        let _ = write!(
            html,
            "<tr><td>{seat}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            shown(g.and_then(|g| g.plus).map(|v| v.to_string()), plus),
            shown(g.and_then(|g| g.minus).map(|v| v.to_string()), minus),
            shown(
                sheet
                    .abzug
                    .get(seat - 1)
                    .copied()
                    .flatten()
                    .map(|v| v.to_string()),
                plus.min(minus)
            ),
            shown(
                sheet
                    .endergebnis
                    .get(seat - 1)
                    .copied()
                    .flatten()
                    .map(|v| v.to_string()),
                end_rows
            ),
        );
    }
    let _ = write!(
        html,
        "</table><p>{}</p>",
        esc(&say(lang, "audit-footer-note", &[]))
    );
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

fn flags(html: &mut String, sheet: &SheetResult, lang: Lang) {
    let _ = write!(html, "<h3>{}</h3><ul>", esc(&say(lang, "audit-flags", &[])));
    for f in &sheet.flags {
        let _ = write!(
            html,
            "<li><b>{}</b> {}</li>",
            f.code.as_str(),
            esc(&f.message)
        );
    }
    html.push_str("</ul>");
}

fn changes(html: &mut String, s: &AuditedSheet, lang: Lang) {
    let _ = write!(html, "<h3>{}</h3>", esc(&say(lang, "audit-changes", &[])));
    if s.changes.is_empty() {
        let _ = write!(html, "<p>{}</p>", esc(&say(lang, "audit-no-changes", &[])));
        return;
    }
    html.push_str("<table><tr>");
    for id in [
        "audit-kind",
        "audit-field",
        "audit-old",
        "audit-new",
        "audit-by",
        "audit-at",
    ] {
        let _ = write!(html, "<th>{}</th>", esc(&say(lang, id, &[])));
    }
    html.push_str("</tr>");
    for audited in &s.changes {
        let c = &audited.change;
        let moved = audited.moved.map_or_else(String::new, |m| format!("{m:+}"));
        let kind = serde_json::to_value(c.kind).ok();
        let kind = kind.as_ref().and_then(|k| k.as_str()).unwrap_or("");
        let blank = |v: &Option<String>| esc(v.as_deref().unwrap_or("–"));
        let _ = write!(
            html,
            "<tr><td>{kind}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{moved}</td></tr>",
            esc(&c.field),
            blank(&c.old),
            blank(&c.new),
            esc(&c.by),
            esc(&c.at),
        );
    }
    html.push_str("</table>");
}
