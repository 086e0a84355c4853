//! The review page: one self-contained HTML file per night (images embedded,
//! works offline). Flagged sheets first; every flag with the crops of the
//! cells it names, the reading and its alternatives; the whole sheet with
//! those cells outlined; the named values editable, saved as a corrected
//! contract JSON (for `aufsicht correct`).
//!
//! `[SheetResult]` + the scanned images → [`page`] → HTML

use std::io::Cursor;

use base64::Engine as _;
use image::{GrayImage, Rgb, RgbImage};
use imageproc::drawing::draw_hollow_rect_mut;
use imageproc::rect::Rect;
use nalgebra::Matrix3;
use serde_json::Value;

use crate::catalogue::{Lang, say};
use crate::cells::cut_at;
use crate::check::flags::Flag;
use crate::html::{DOCTYPE, Markup, compiled_in, html, json_script};
use crate::night::tournament::names::Names;
use crate::page::align::Alignment;
use crate::page::form::{FormTemplate, MmBox};
use crate::page::geometry::Homography;
use crate::sheet::{Column, PlayerNo, SheetResult, Status, ValuePath};

/// Crops at 6 px per mm, the overview at 3.
pub const CROP_PX_PER_MM: f64 = 6.0;
const OVERVIEW_PX_PER_MM: f64 = 3.0;

/// One sheet for the page: its result, and its image and alignment when they could be found.
pub struct ReviewSheet<'a> {
    pub result: &'a SheetResult,
    /// The result file's name (what a corrected JSON is saved as).
    pub file_name: String,
    pub image: Option<std::sync::Arc<GrayImage>>,
    /// Why no image is shown where one was found but is not the scan read
    /// (said in the user's language by the caller).
    pub scan_note: Option<String>,
    pub form: Option<&'a FormTemplate>,
}

/// The alignment stored in a result by `scan` (`alignment.to_image`).
pub fn stored_alignment(result: &SheetResult) -> Option<Alignment> {
    let a = result.notes.alignment.as_ref()?;
    if a.to_image.len() != 9 {
        return None;
    }
    Some(Alignment {
        to_image: Homography(Matrix3::from_row_slice(&a.to_image)),
        fit: a.fit,
        residual_mm: a.residual_mm,
        quarter_turns: a.quarter_turns,
        thin_lines_lost: a.thin_lines_lost,
    })
}

/// A cell a flag names: where it is on the form, a label, and where its
/// value sits in the result JSON (for the edit box), if it has one.
#[derive(Debug, Clone, PartialEq)]
pub struct Named {
    pub label: String,
    pub bx: MmBox,
    /// Where the value sits, where it has a place on the sheet to edit.
    pub path: Option<ValuePath>,
    pub value: Option<String>,
}

/// The smallest box holding both.
pub(crate) fn union(a: MmBox, b: MmBox) -> MmBox {
    let x0 = a[0].min(b[0]);
    let y0 = a[1].min(b[1]);
    let x1 = (a[0] + a[2]).max(b[0] + b[2]);
    let y1 = (a[1] + a[3]).max(b[1] + b[3]);
    [x0, y0, x1 - x0, y1 - y0]
}

/// The cells a flag names on this form.
pub fn named_cells(
    flag: &Flag,
    sheet: &SheetResult,
    form: &FormTemplate,
    lang: Lang,
) -> Vec<Named> {
    let field = flag.field.as_deref();
    match (flag.row, flag.seat) {
        (Some(row), seat) => game_cells(row, seat, field, sheet, form, lang),
        (None, Some(s)) => footer_cells(s, field, sheet, form, lang),
        (None, None) => sheet_cells(flag, field, sheet, form, lang),
    }
}

fn num(v: Option<u32>) -> Option<String> {
    v.map(|v| v.to_string())
}

/// A row flag's cells: the seat's (its `field` column only, where named)
/// or the whole row's.
fn game_cells(
    row: u32,
    seat: Option<usize>,
    field: Option<&str>,
    sheet: &SheetResult,
    form: &FormTemplate,
    lang: Lang,
) -> Vec<Named> {
    let mut out = Vec::new();
    let Some(boxes) = form.fields.game.get(row as usize - 1) else {
        return out;
    };
    let gi = sheet.games.iter().position(|g| g.no == row);
    let seats: Vec<usize> = match seat {
        Some(s) => vec![s],
        None => (1..=boxes.len()).collect(),
    };
    for s in seats {
        let Some(pm) = boxes.get(s - 1) else { continue };
        let cell = gi.and_then(|i| sheet.games[i].cells.get(s - 1));
        for (column, bx, value) in [
            (Column::Plus, pm.plus, cell.and_then(|c| c.plus)),
            (Column::Minus, pm.minus, cell.and_then(|c| c.minus)),
        ] {
            let col = column.name();
            if field.is_some_and(|fl| fl != col) && seat.is_some() {
                continue;
            }
            out.push(Named {
                label: {
                    let args: [(&str, &dyn std::fmt::Display); 3] =
                        [("row", &row), ("seat", &s), ("column", &col)];
                    say(lang, "cell-in-row", &args)
                },
                bx,
                path: gi.map(|_| ValuePath::Game {
                    no: row,
                    seat: s,
                    column,
                }),
                value: num(value),
            });
        }
    }
    out
}

/// A seat flag's footer field; the seat's Endergebnis (and its Gesamt,
/// for a flag naming no field) otherwise.
fn footer_cells(
    s: usize,
    field: Option<&str>,
    sheet: &SheetResult,
    form: &FormTemplate,
    lang: Lang,
) -> Vec<Named> {
    let f = &form.fields;
    let i = s - 1;
    let gesamt = sheet.gesamt.get(i).copied().flatten();
    let in_gesamt = |column| Some(ValuePath::Gesamt { seat: s, column });
    let plus = (
        "Gesamt +",
        f.gesamt.get(i).map(|p| p.plus),
        in_gesamt(Column::Plus),
        num(gesamt.and_then(|g| g.plus)),
    );
    let minus = (
        "Gesamt −",
        f.gesamt.get(i).map(|p| p.minus),
        in_gesamt(Column::Minus),
        num(gesamt.and_then(|g| g.minus)),
    );
    let end = sheet.endergebnis.get(i).copied().flatten();
    let endergebnis = (
        "Endergebnis",
        f.endergebnis.get(i).copied(),
        Some(ValuePath::Endergebnis(s)),
        end.map(|v| v.to_string()),
    );
    let chosen = match field {
        Some("plus") => vec![plus],
        Some("minus") => vec![minus],
        Some("abzug") => vec![(
            "Abzug",
            f.abzug.get(i).copied(),
            Some(ValuePath::Abzug(s)),
            num(sheet.abzug.get(i).copied().flatten()),
        )],
        Some("player_id") => vec![(
            "Teilnehmer-Nr.",
            f.player_id.get(i).copied(),
            Some(ValuePath::Player(s)),
            sheet.players.get(i).cloned().flatten(),
        )],
        Some("signature") => vec![("cell-signature", f.signature.get(i).copied(), None, None)],
        // Footer flags without a field: the seat's footer.
        None => vec![endergebnis, plus, minus],
        // The Endergebnis.
        _ => vec![endergebnis],
    };
    chosen
        .into_iter()
        .filter_map(|(label, bx, path, value)| {
            // The footer's printed words stay; a signature is said.
            let label = match label {
                "cell-signature" => say(lang, label, &[]),
                printed => printed.to_string(),
            };
            Some(Named {
                label: say(lang, "cell-of-seat", &[("seat", &s), ("label", &label)]),
                bx: bx?,
                path,
                value,
            })
        })
        .collect()
}

/// A sheet flag's field: the round or table number; the Endergebnis line
/// for the Endergebnis values not adding up to zero.
fn sheet_cells(
    flag: &Flag,
    field: Option<&str>,
    sheet: &SheetResult,
    form: &FormTemplate,
    lang: Lang,
) -> Vec<Named> {
    let f = &form.fields;
    let named = |label: &str, bx, path, value| Named {
        label: say(lang, label, &[]),
        bx,
        path,
        value,
    };
    match field {
        Some("round") => vec![named(
            "cell-round",
            f.round,
            Some(ValuePath::Round),
            num(sheet.round),
        )],
        Some("table") => vec![named(
            "cell-table",
            f.table,
            Some(ValuePath::Table),
            num(sheet.table),
        )],
        _ => f
            .endergebnis
            .iter()
            .copied()
            .reduce(union)
            .filter(|_| matches!(flag.code, crate::check::flags::Code::EndergebnisNotZero))
            .map(|bx| named("cell-endergebnis-line", bx, None, None))
            .into_iter()
            .collect(),
    }
}

/// The image as a `data:` URI, or none where it cannot be encoded (an
/// image of no pixels): no crop is shown rather than a broken one.
pub fn data_uri_png(img: &GrayImage) -> Option<String> {
    let mut bytes = Vec::new();
    let png = image::ImageFormat::Png;
    img.write_to(&mut Cursor::new(&mut bytes), png).ok()?;
    Some(data_uri("png", &bytes))
}

pub fn data_uri_jpeg(img: &RgbImage) -> Option<String> {
    let mut bytes = Vec::new();
    let jpeg = image::ImageFormat::Jpeg;
    img.write_to(&mut Cursor::new(&mut bytes), jpeg).ok()?;
    Some(data_uri("jpeg", &bytes))
}

fn data_uri(mime: &str, bytes: &[u8]) -> String {
    let data = base64::engine::general_purpose::STANDARD.encode(bytes);
    format!("data:image/{mime};base64,{data}")
}

/// The whole form area, straightened, with the named cells outlined.
pub fn overview(
    img: &GrayImage,
    align: &Alignment,
    form: &FormTemplate,
    boxes: &[MmBox],
) -> RgbImage {
    let [w, h] = form.page_mm;
    let gray = cut_at(img, align, [0.0, 0.0, w, h], 0.0, OVERVIEW_PX_PER_MM);
    let mut rgb = RgbImage::from_fn(gray.width(), gray.height(), |x, y| {
        let v = gray.get_pixel(x, y)[0];
        Rgb([v, v, v])
    });
    for bx in boxes {
        let s = OVERVIEW_PX_PER_MM;
        for grow in 0..3 {
            let g = grow as f64;
            let rect = Rect::at((bx[0] * s - g) as i32, (bx[1] * s - g) as i32).of_size(
                (bx[2] * s + 2.0 * g).max(1.0) as u32,
                (bx[3] * s + 2.0 * g).max(1.0) as u32,
            );
            draw_hollow_rect_mut(&mut rgb, rect, Rgb([220, 0, 0]));
        }
    }
    rgb
}

fn flag_extra(flag: &Flag, lang: Lang) -> String {
    let mut parts = Vec::new();
    let d = &flag.detail;
    let percent = |p: f64| crate::catalogue::percent(p * 100.0);
    if let Some(r) = &d.reading {
        let shown = if r.is_empty() { "?" } else { r };
        let conf = percent(d.confidence.unwrap_or(0.0));
        let args: [(&str, &dyn std::fmt::Display); 2] = [("reading", &shown), ("percent", &conf)];
        parts.push(say(lang, "review-read", &args));
    }
    if !d.alternatives.is_empty() {
        let list: Vec<String> = (d.alternatives.iter())
            .map(|(t, p)| {
                let args: [(&str, &dyn std::fmt::Display); 2] =
                    [("reading", t), ("percent", &percent(*p))];
                say(lang, "review-alternative", &args)
            })
            .collect();
        parts.push(say(
            lang,
            "review-alternatives",
            &[("list", &list.join(", "))],
        ));
    }
    if let Some(s) = d.suggestion {
        let p = percent(d.suggestion_probability.unwrap_or(0.0));
        // A footer field may hold the suggestion already.
        let id = if d.taken {
            "review-taken-as"
        } else {
            "review-suggested"
        };
        let args: [(&str, &dyn std::fmt::Display); 2] = [("value", &s), ("percent", &p)];
        parts.push(say(lang, id, &args));
    }
    parts.join("; ")
}

const STYLE: &str = "body{font-family:sans-serif;margin:1em;max-width:1200px}
section{border:1px solid #999;margin:1em 0;padding:.5em 1em}
section.flagged{border-color:#c00} section.unreadable{border-color:#a0a}
.flag{margin:.6em 0;padding:.3em;border-left:4px solid #c00}
.flag.warning{border-left-color:#e90}
img.crop{border:2px solid #c00;margin:2px;vertical-align:middle}
img.overview{max-width:100%;border:1px solid #666}
input.value{width:5em} .cell{display:inline-block;margin-right:1em}
summary{cursor:pointer}";

const SCRIPT: &str = r#"
function setPath(obj, path, value) {
  let o = obj;
  for (let i = 0; i < path.length - 1; i++) {
    if (o[path[i]] === null || o[path[i]] === undefined) o[path[i]] = {};
    o = o[path[i]];
  }
  o[path[path.length - 1]] = value;
}
// The sheet's result with the page's edits, or null (and a message) for a bad entry.
function corrected(n) {
  const sheet = JSON.parse(document.getElementById('sheet-' + n).textContent);
  // A cell can be shown under several flags: only the boxes a person
  // changed count (one left as it was must not undo an edit).
  for (const input of document.querySelectorAll('#s' + n + ' input.value')) {
    if (input.value === input.defaultValue) continue;
    const path = JSON.parse(input.dataset.path);
    const text = input.value.trim();
    let value = null;
    if (text !== '') value = path[0] === 'players' ? text : Number(text);
    if (value !== null && path[0] !== 'players' && !Number.isInteger(value)) {
      alert(document.body.dataset.notwhole + ' ' + text); return null;
    }
    setPath(sheet, path, value);
  }
  // Saved from this page, every uncertain cell has been seen by a person:
  // the rule flags are checked again on the values as they now stand.
  sheet.flags = (sheet.flags || []).filter(f => f.code !== 'CELL_UNCERTAIN');
  delete sheet.flags_if_read_as_is;
  return sheet;
}
function save(n) {
  const sheet = corrected(n);
  if (sheet === null) return;
  const blob = new Blob([JSON.stringify(sheet, null, 2) + '\n'], {type: 'application/json'});
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = document.getElementById('s' + n).dataset.file;
  a.click();
}
// The same cell's other boxes follow an edit.
document.addEventListener('input', (e) => {
  const t = e.target;
  if (!t.matches || !t.matches('input.value')) return;
  const section = t.closest('section');
  for (const other of section.querySelectorAll('input.value')) {
    if (other !== t && other.dataset.path === t.dataset.path) other.value = t.value;
  }
});
window.addEventListener('load', () => {
  const crops = [...document.querySelectorAll('img.crop, img.overview')];
  const shown = crops.filter(i => i.complete && i.naturalWidth > 0).length;
  document.body.dataset.images = shown + '/' + crops.length;
  // For the tests (`?selftest`): edit the first value to 77 and show what
  // "Save corrected JSON" would save.
  const input = document.querySelector('input.value');
  if (location.search.includes('selftest') && input) {
    input.value = '77';
    const pre = document.createElement('pre');
    pre.id = 'selftest';
    pre.textContent = JSON.stringify(corrected(input.closest('section').id.slice(1)));
    document.body.appendChild(pre);
  }
});
"#;

/// The review page for a night.
pub fn page(title: &str, sheets: &[ReviewSheet], names: &Names, lang: Lang) -> String {
    let mut order: Vec<usize> = (0..sheets.len()).collect();
    let rank = |s: &SheetResult| match s.status {
        Status::Flagged => 0,
        Status::Unreadable => 1,
        Status::Ok => 2,
    };
    let errors = |s: &SheetResult| s.flags.iter().filter(|f| f.is_error()).count();
    order.sort_by_key(|&i| {
        (
            rank(sheets[i].result),
            usize::MAX - errors(sheets[i].result),
            sheets[i].file_name.clone(),
        )
    });
    let count = |st: Status| sheets.iter().filter(|s| s.result.status == st).count();
    let args: [(&str, &dyn std::fmt::Display); 4] = [
        ("sheets", &sheets.len()),
        ("flagged", &count(Status::Flagged)),
        ("unreadable", &count(Status::Unreadable)),
        ("ok", &count(Status::Ok)),
    ];
    html! {
        (DOCTYPE)
        html lang=(lang.code()) {
            head { meta charset="utf-8"; title { (title) } style { (compiled_in(STYLE)) } }
            body data-notwhole=(say(lang, "review-not-whole", &[])) {
                h1 { (title) }
                p {
                    (say(lang, "review-summary", &args)) " "
                    code { "aufsicht correct --archive … --by NAME FILE.json" }
                }
                @for (n, &i) in order.iter().enumerate() { (section(n, &sheets[i], names, lang)) }
                script { (compiled_in(SCRIPT)) }
            }
        }
    }
    .into_string()
}

fn section(n: usize, sheet: &ReviewSheet, names: &Names, lang: Lang) -> Markup {
    let r = sheet.result;
    let align = stored_alignment(r);
    let can_cut = sheet.image.as_deref().zip(align.as_ref()).zip(sheet.form);
    let mut outlined = Vec::new();
    let mut editable = 0;
    let mut flags = Vec::new();
    for flag in &r.flags {
        let cells = can_cut.map(|((img, align), form)| {
            let cells = named_cells(flag, r, form, lang);
            editable += cells.iter().filter(|c| c.path.is_some()).count();
            outlined.extend(cells.iter().map(|c| c.bx));
            flag_cells(flag, (r, &cells), img, align, lang)
        });
        let extra = flag_extra(flag, lang);
        flags.push(html! {
            div class={ "flag " (if flag.is_error() { "error" } else { "warning" }) } {
                b { (flag.code.as_str()) } " " (flag.message)
                @if !extra.is_empty() { br; small { (extra) } }
                @if let Some(cells) = cells { (cells) }
            }
        });
    }
    let whole = can_cut
        .filter(|_| r.status != Status::Ok)
        .and_then(|((img, align), form)| data_uri_jpeg(&overview(img, align, form, &outlined)));
    html! {
        section id={ "s" (n) } class=(status_name(r.status)) data-file=(sheet.file_name) {
            (section_head(sheet, names, lang))
            @for flag in &flags { (flag) }
            @if editable > 0 {
                p { button onclick={ "save(" (n) ")" } { (say(lang, "review-save", &[])) } }
            }
            @if let Some(uri) = whole {
                details open {
                    summary { (say(lang, "review-whole", &[])) }
                    img class="overview" alt="sheet" src=(uri);
                }
            }
            // The result itself, for saving a correction.
            (json_script(&format!("sheet-{n}"), &r.to_json_pretty()))
        }
    }
}

fn status_name(status: Status) -> &'static str {
    match status {
        Status::Ok => "ok",
        Status::Flagged => "flagged",
        Status::Unreadable => "unreadable",
    }
}

/// A sheet's heading, and the notes on what the reader and decoder made of it.
fn section_head(sheet: &ReviewSheet, names: &Names, lang: Lang) -> Markup {
    let r = sheet.result;
    let status = say(
        lang,
        &format!("review-status-{}", status_name(r.status)),
        &[],
    );
    let num = |v: Option<u32>| v.map_or("?".to_string(), |v| v.to_string());
    // Each number written one way, its name beside it where a list gives one.
    let players: Vec<String> = (r.players.iter())
        .map(|p| match p.as_deref() {
            Some(n) => names.label(&PlayerNo::new(n)),
            None => "?".into(),
        })
        .collect();
    let no_image = sheet.scan_note.is_none() && sheet.image.is_none() && r.status != Status::Ok;
    // Rule flags the uncertain cells alone would cause: why those cells matter.
    let as_read: Vec<&str> = r
        .notes
        .flags_if_read_as_is
        .iter()
        .map(|f| f.message.as_str())
        .collect();
    // Notes on what the reader and decoder made of the sheet, each a line.
    let notes = [
        ("review-as-read", as_read.join(" ")),
        ("review-taken", taken_as_decoded(r, lang).join("; ")),
        ("review-rings", rings_read_as_digits(r, lang).join("; ")),
    ];
    let source = r.source.as_deref().unwrap_or(&sheet.file_name);
    let heading: [(&str, &dyn std::fmt::Display); 4] = [
        ("source", &source),
        ("round", &num(r.round)),
        ("table", &num(r.table)),
        ("status", &status),
    ];
    let seated: [(&str, &dyn std::fmt::Display); 2] =
        [("players", &players.join(", ")), ("flags", &r.flags.len())];
    html! {
        h2 { (say(lang, "review-heading", &heading)) }
        p { (say(lang, "review-players", &seated)) }
        @if let Some(note) = &sheet.scan_note {
            p { b { (note) } }
        } @else if no_image {
            p { b { (say(lang, "review-no-image", &[("source", &source)])) } }
        }
        @for (lead, items) in &notes {
            @if !items.is_empty() { p class="as-read" { (say(lang, lead, &[])) " " (items) } }
        }
    }
}

/// A flag's cells: their crops (several cells, a whole row, as one crop
/// of them together, which reads best) and an edit box for each value.
fn flag_cells(
    flag: &Flag,
    (sheet, cells): (&SheetResult, &[Named]),
    img: &GrayImage,
    align: &Alignment,
    lang: Lang,
) -> Markup {
    let shown: Vec<(String, MmBox)> = match cells.iter().map(|c| c.bx).reduce(union) {
        Some(all) if cells.len() > 2 => {
            vec![(
                say(lang, "cell-row", &[("row", &flag.row.unwrap_or(0))]),
                all,
            )]
        }
        _ => cells.iter().map(|c| (c.label.clone(), c.bx)).collect(),
    };
    html! {
        br;
        @for (label, bx) in &shown {
            @if let Some(uri) = data_uri_png(&cut_at(img, align, *bx, 2.0, CROP_PX_PER_MM)) {
                img class="crop" alt=(label) title=(label) src=(uri);
                " "
            }
        }
        br;
        @for cell in cells {
            span class="cell" {
                (cell.label)
                @if let Some(path) = cell.path.and_then(|p| p.json(sheet)) {
                    " "
                    input class="value" data-path=(Value::Array(path))
                        value=(cell.value.as_deref().unwrap_or(""));
                }
            }
        }
    }
}

/// The game cells decoding gave another value than the reader's best
/// reading (see `decode::REPLACE`), as "game 3, seat 2 minus: read 8, taken as 2".
fn taken_as_decoded(r: &SheetResult, lang: Lang) -> Vec<String> {
    let mut out = Vec::new();
    for g in &r.games {
        for (s, c) in g.cells.iter().enumerate() {
            for (name, value) in [("plus", c.plus), ("minus", c.minus)] {
                let Some(reading) = c.notes.reading(name == "minus") else {
                    continue;
                };
                let read = &reading.read;
                if let Some(v) = value
                    && reading.decoded
                    && read.parse::<u32>().ok() != Some(v)
                {
                    let args: [(&str, &dyn std::fmt::Display); 5] = [
                        ("row", &g.no),
                        ("seat", &(s + 1)),
                        ("column", &name),
                        ("read", read),
                        ("value", &v),
                    ];
                    out.push(say(lang, "review-taken-line", &args));
                }
            }
        }
    }
    out
}

/// The game cells whose ring, where `CIRCLE_NOT_SOLO` stood, was read as
/// the number's own loop (`ring_was_digits`), as "game 8,
/// seat 4: 10": the circle decides a solo, so a person sees which.
fn rings_read_as_digits(r: &SheetResult, lang: Lang) -> Vec<String> {
    r.games
        .iter()
        .flat_map(|g| g.cells.iter().enumerate().map(move |(s, c)| (g.no, s, c)))
        .filter(|(_, _, c)| c.notes.ring_was_digits)
        .map(|(no, s, c)| {
            let value = c.plus.or(c.minus).map_or("?".into(), |v| v.to_string());
            let args: [(&str, &dyn std::fmt::Display); 3] =
                [("row", &no), ("seat", &(s + 1)), ("value", &value)];
            say(lang, "review-ring-line", &args)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::flags::Code;
    use crate::sheet::CellReading;

    fn flag(code: Code, row: Option<u32>, seat: Option<usize>, field: Option<&str>) -> Flag {
        Flag {
            code,
            severity: code.severity(),
            row,
            seat,
            field: field.map(String::from),
            message: "m".into(),
            detail: Default::default(),
            extra: Default::default(),
        }
    }

    fn sheet() -> SheetResult {
        crate::sheet::example::one_row_sheet(2)
    }

    #[test]
    fn a_cell_flag_names_its_cell_and_its_json_path() {
        let form = FormTemplate::load("punkteliste-a4-32").expect("form");
        let s = sheet();
        let cells = named_cells(
            &flag(Code::CellUncertain, Some(2), Some(3), Some("minus")),
            &s,
            &form,
            Lang::En,
        );
        assert_eq!(cells.len(), 1);
        assert_eq!(cells[0].bx, form.fields.game[1][2].minus);
        assert_eq!(cells[0].value.as_deref(), Some("1"));
        let path = cells[0].path.expect("a path");
        assert_eq!(path.to_string(), "games/2/3/minus");
        let json: Vec<Value> = vec![
            "games".into(),
            0.into(),
            "cells".into(),
            2.into(),
            "minus".into(),
        ];
        assert_eq!(path.json(&s), Some(json));
    }

    #[test]
    fn a_row_flag_names_every_cell_of_the_row() {
        let form = FormTemplate::load("punkteliste-a4-32").expect("form");
        let cells = named_cells(
            &flag(Code::RowNotZeroSum, Some(2), None, None),
            &sheet(),
            &form,
            Lang::En,
        );
        assert_eq!(cells.len(), 8);
    }

    #[test]
    fn a_footer_holding_its_suggestion_should_say_taken_not_suggested() {
        let mut f = flag(Code::CellUncertain, None, Some(2), Some("minus"));
        f.detail.reading = Some("35".into());
        f.detail.suggestion = Some(55);
        f.detail.suggestion_probability = Some(0.97);
        assert!(flag_extra(&f, Lang::En).contains("suggested: 55 (97%)"));
        f.detail.taken = true;
        let shown = flag_extra(&f, Lang::En);
        assert!(
            shown.contains("read “35”") && shown.contains("taken as 55 (97%)"),
            "{shown}"
        );
    }

    #[test]
    fn a_footer_flag_names_the_footer_field() {
        let form = FormTemplate::load("punkteliste-a4-32").expect("form");
        let s = sheet();
        let cells = named_cells(
            &flag(Code::AbzugMismatch, None, Some(4), Some("abzug")),
            &s,
            &form,
            Lang::En,
        );
        assert_eq!(cells.len(), 1);
        assert_eq!(cells[0].bx, form.fields.abzug[3]);
        assert_eq!(cells[0].path, Some(ValuePath::Abzug(4)));
        let json: Vec<Value> = vec!["abzug".into(), 3.into()];
        assert_eq!(cells[0].path.and_then(|p| p.json(&s)), Some(json));
    }

    #[test]
    fn the_page_puts_flagged_sheets_first_and_embeds_the_result() {
        let ok = sheet();
        let mut bad = sheet();
        bad.status = Status::Flagged;
        bad.flags
            .push(flag(Code::GesamtMismatch, None, Some(1), Some("plus")));
        let html = page(
            "night",
            &[
                ReviewSheet {
                    result: &ok,
                    file_name: "ok.json".into(),
                    image: None,
                    scan_note: None,
                    form: None,
                },
                ReviewSheet {
                    result: &bad,
                    file_name: "bad.json".into(),
                    image: None,
                    scan_note: None,
                    form: None,
                },
            ],
            &Names::default(),
            Lang::En,
        );
        let first = html.find("data-file=\"bad.json\"").expect("bad listed");
        let second = html.find("data-file=\"ok.json\"").expect("ok listed");
        assert!(first < second);
        assert!(html.contains("GESAMT_MISMATCH"));
        assert!(html.contains("id=\"sheet-0\""));
    }

    #[test]
    fn the_page_should_speak_german_with_names_beside_numbers() {
        let mut bad = sheet();
        bad.status = Status::Flagged;
        bad.players[0] = Some("011".into());
        bad.flags
            .push(flag(Code::GesamtMismatch, None, Some(1), Some("plus")));
        let roster =
            crate::night::tournament::roster::Roster::parse("number,name\n11,Anna Huber\n")
                .expect("list");
        let one = [ReviewSheet {
            result: &bad,
            file_name: "bad.json".into(),
            image: None,
            scan_note: None,
            form: None,
        }];
        let html = page("Abend", &one, &Names::of_roster(&roster), Lang::De);
        for german in [
            "html lang=\"de\"",
            "1 Blatt: 1 markiert",
            "Runde",
            "Spieler: 11 Anna Huber",
            "1 Markierung",
        ] {
            assert!(html.contains(german), "{german} missing: {html}");
        }
        assert!(
            !html.contains("Spieler: 011"),
            "written one way on the page"
        );
    }

    #[test]
    fn a_ring_read_as_digits_should_be_named_on_the_page() {
        let mut s = sheet();
        assert!(rings_read_as_digits(&s, Lang::En).is_empty());
        let no = s.games[0].no;
        let cell = &mut s.games[0].cells[1];
        cell.notes.ring_was_digits = true;
        let value = cell.plus.expect("seat 2 plays plus");
        assert_eq!(
            rings_read_as_digits(&s, Lang::En),
            vec![format!("game {no}, seat 2: {value}")]
        );
    }

    #[test]
    fn a_cell_taken_against_its_reading_should_be_named_on_the_page() {
        let mut s = sheet();
        let cell = &mut s.games[0].cells[1];
        let decoded = |read: String| CellReading {
            alternatives: Vec::new(),
            confidence: 0.5,
            decoded: true,
            read,
        };
        cell.notes.set_reading(false, decoded("8".into()));
        let value = cell.plus.expect("seat 2 plays plus");
        let same = &mut s.games[0].cells[0];
        let read = same.plus.map(|v| v.to_string()).unwrap_or_default();
        same.notes.set_reading(false, decoded(read));
        let no = s.games[0].no;
        let taken = taken_as_decoded(&s, Lang::En);
        assert_eq!(
            taken,
            vec![format!("game {no}, seat 2 plus: read 8, taken as {value}")]
        );
    }
}
