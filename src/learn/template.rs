//! A learned frame and print made a form template: every field's box in
//! mm, the ruled lines with their widths, the title and the labels.

use super::frame::{Frame, Span};
use super::labels::Print;
use super::round2;
use super::ruling::Ruling;
use crate::page::form::{Fields, FormTemplate, MmBox, PlusMinus, Text};

pub fn template(id: &str, f: &Frame, ruling: &Ruling, print: Print) -> FormTemplate {
    let seats = f.seats();
    let row = |(y0, y1): Span| -> Vec<PlusMinus> {
        (0..seats)
            .map(|s| PlusMinus {
                plus: rounded([f.seat_x[s], y0, f.split_x[s] - f.seat_x[s], y1 - y0]),
                minus: rounded([f.split_x[s], y0, f.seat_x[s + 1] - f.split_x[s], y1 - y0]),
            })
            .collect()
    };
    let whole = |seat_x: &[f64], (y0, y1): Span| -> Vec<MmBox> {
        seat_x
            .windows(2)
            .map(|s| rounded([s[0], y0, s[1] - s[0], y1 - y0]))
            .collect()
    };
    let id_row = usize::from(f.block_header);
    let name_row = f.block_rows.get(id_row + 1).copied();
    let (round, table) = round_and_table(f, &print);
    let fields = Fields {
        round,
        table,
        player_id: whole(&f.block_seat_x, f.block_rows[id_row]),
        player_name: name_row
            .map(|r| whole(&f.block_seat_x, r))
            .unwrap_or_default(),
        game: f.games.iter().map(|&r| row(r)).collect(),
        initials: f
            .games
            .iter()
            .map(|&(y0, y1)| rounded([f.check.0, y0, f.check.1 - f.check.0, y1 - y0]))
            .collect(),
        gesamt: row(f.gesamt),
        abzug: whole(&f.seat_x, f.abzug),
        endergebnis: whole(&f.seat_x, f.end),
        signature: whole(&f.seat_x, f.signature),
    };
    let title = print.title.as_ref().map(|t| t.text.clone());
    let game = match &title {
        Some(t)
            if ["doppelkopf", "doko"]
                .iter()
                .any(|w| t.to_lowercase().contains(w)) =>
        {
            "doppelkopf"
        }
        _ if seats == 5 => "doppelkopf",
        _ => "schafkopf",
    };
    let mut texts: Vec<Text> = print.title.into_iter().collect();
    texts.extend(print.box_labels.into_iter().flatten());
    texts.extend(print.labels);
    FormTemplate {
        id: id.to_string(),
        game: game.to_string(),
        page_mm: ruling.page_mm.map(|v| (v * 10.0).floor() / 10.0),
        seats,
        games: f.games.len(),
        fields,
        title,
        grid: Some(rounded([
            f.left,
            f.header.0,
            f.right - f.left,
            f.end.1 - f.header.0,
        ])),
        lines: f.lines.iter().map(|l| line(*l)).collect(),
        texts,
        code: None,
    }
}

/// The round and table boxes: by their labels where read ("Tisch" names
/// the table), else the last two boxes, round first.
fn round_and_table(f: &Frame, print: &Print) -> (MmBox, MmBox) {
    let n = f.boxes.len();
    let said = |i: usize, word: &str| {
        print.box_labels[i]
            .as_ref()
            .is_some_and(|t| t.text.to_lowercase().contains(word))
    };
    let table = (0..n).find(|&i| said(i, "tisch")).unwrap_or(n - 1);
    let round = (0..n)
        .filter(|&i| i != table)
        .find(|&i| said(i, "runde") || said(i, "durchgang"))
        .unwrap_or(if table > 0 { table - 1 } else { 1 });
    (rounded(f.boxes[round]), rounded(f.boxes[table]))
}

/// A ruled line as the template holds it: its width to a tenth of a mm,
/// rounded down from a scan's (whose blur adds up to a pixel).
fn line([x1, y1, x2, y2, width]: [f64; 5]) -> [f64; 5] {
    let printed = (width * 10.0 + 0.3).floor() / 10.0;
    [
        round2(x1),
        round2(y1),
        round2(x2),
        round2(y2),
        printed.max(0.1),
    ]
}

fn rounded(b: MmBox) -> MmBox {
    b.map(round2)
}
