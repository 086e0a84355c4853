//! A blank form's print: its title and labels, read where they stand (the
//! frame says where), with the size and place the print has. A print
//! reader that reads no letters reads the row numbers only.

use image::GrayImage;

use super::frame::Frame;
use super::round2;
use super::ruling::Ruling;
use crate::page::form::Text;
use crate::read::PrintReader;

/// Least dark pixels that make a cell's ink a printed label.
const MIN_INK_PX: usize = 12;
/// A cell's edges are ruled: look this far (mm) inside them.
const INSET_MM: f64 = 0.6;

/// The print found on a blank form.
pub struct Print {
    pub title: Option<Text>,
    /// The labels left of the round and table boxes (one a box).
    pub box_labels: Vec<Option<Text>>,
    pub labels: Vec<Text>,
}

/// What is printed in a label cell, and how it is to be read.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Words,
    Number,
}

pub fn read(frame: &Frame, ruling: &Ruling, printed: &mut dyn PrintReader) -> Print {
    let mut look = |bx: [f64; 4], kind: Kind| text_in(ruling, bx, kind, printed);
    let block_top = frame.block_rows[0].0;
    let label_boxes: Vec<Option<[f64; 4]>> = frame
        .boxes
        .iter()
        .map(|b| label_left_of(ruling, *b))
        .collect();
    // The title ends before the first box's label (or the box).
    let title_end = match (frame.boxes.first(), label_boxes.first()) {
        (_, Some(Some(label))) => label[0],
        (Some(b), _) => b[0],
        _ => frame.right,
    };
    let band = [
        frame.left - 1.0,
        2.0,
        title_end - frame.left,
        block_top - 3.0,
    ];
    let title = title_box(ruling, band).and_then(|bx| look(bx, Kind::Words));
    let box_labels = label_boxes
        .into_iter()
        .map(|bx| bx.and_then(|bx| look(bx, Kind::Words)))
        .collect();
    let mut labels = Vec::new();
    for bx in label_cells(frame) {
        labels.extend(look(bx, Kind::Words));
    }
    // The header's signs are told by their column, not read: a print
    // reader takes a "+" for a letter.
    let (y0, y1) = frame.header;
    for (s, &split) in frame.split_x.iter().enumerate() {
        for (x0, x1, sign) in [
            (frame.seat_x[s], split, "+"),
            (split, frame.seat_x[s + 1], "-"),
        ] {
            let read = look([x0, y0, x1 - x0, y1 - y0], Kind::Words);
            labels.extend(read.map(|t| Text {
                text: sign.into(),
                ..t
            }));
        }
    }
    for &(y0, y1) in &frame.games {
        labels.extend(look(
            [frame.left, y0, frame.label_right - frame.left, y1 - y0],
            Kind::Number,
        ));
    }
    Print {
        title,
        box_labels,
        labels,
    }
}

/// Where the title lies in `band` (mm): the first print from the left,
/// up to a gap wider than between words (the round box's label is further).
fn title_box(ruling: &Ruling, band: [f64; 4]) -> Option<[f64; 4]> {
    let px = |mm: f64| ruling.px(mm, ruling.ink.width());
    let inked = inked_columns(ruling, band[1], band[1] + band[3]);
    let gap = (TITLE_GAP_MM * ruling.px_per_mm) as u32;
    let (start, last) = inked_run(px(band[0])..px(band[0] + band[2]), inked, gap)?;
    Some(spanning(ruling, start, last + 1, band))
}

/// The label left of a box `[x, y, w, h]` (mm): the print from the box's
/// left edge leftwards (within two gaps of it), up to a gap wider than
/// between words.
fn label_left_of(ruling: &Ruling, b: [f64; 4]) -> Option<[f64; 4]> {
    let from = ruling.px(b[0] - 0.8, ruling.ink.width());
    let inked = inked_columns(ruling, b[1], b[1] + b[3]);
    let gap = (LABEL_GAP_MM * ruling.px_per_mm) as u32;
    let (last, start) = inked_run((0..from).rev(), inked, gap)?;
    (from - last <= 2 * gap).then(|| spanning(ruling, start, last + 1, b))
}

/// Walks `columns` from the first inked one on until more than `gap`
/// blank ones: the first and the last inked column met.
fn inked_run(
    mut columns: impl Iterator<Item = u32>,
    inked: impl Fn(u32) -> bool,
    gap: u32,
) -> Option<(u32, u32)> {
    let first = columns.find(|&x| inked(x))?;
    let (mut last, mut blank) = (first, 0);
    for x in columns {
        if inked(x) {
            (last, blank) = (x, 0);
        } else {
            blank += 1;
            if blank > gap {
                break;
            }
        }
    }
    Some((first, last))
}

/// Whether a column (px) holds ink between `top` and `bottom` (mm).
fn inked_columns(ruling: &Ruling, top: f64, bottom: f64) -> impl Fn(u32) -> bool + '_ {
    let h = ruling.ink.height();
    let (y0, y1) = (ruling.px(top, h), ruling.px(bottom, h));
    move |x| (y0..y1).any(|y| ruling.ink.get_pixel(x, y)[0] == 0)
}

/// The box (mm) from column `start` to `end` (px), half a mm wider on
/// either side, as high as `band`.
fn spanning(ruling: &Ruling, start: u32, end: u32, band: [f64; 4]) -> [f64; 4] {
    let mm = |p: u32| f64::from(p) / ruling.px_per_mm;
    [mm(start) - 0.5, band[1], mm(end) - mm(start) + 1.0, band[3]]
}

/// Wider than a word gap in a label's print (mm).
const LABEL_GAP_MM: f64 = 2.5;

/// Wider than a word gap in a title's print (mm).
const TITLE_GAP_MM: f64 = 5.0;

/// Every cell that holds a printed word: the player block's label column
/// and seat headers, the table's header row (but its signs), the footer's
/// labels and the signature row's.
fn label_cells(f: &Frame) -> Vec<[f64; 4]> {
    let cell = |x0: f64, x1: f64, (y0, y1): (f64, f64)| [x0, y0, x1 - x0, y1 - y0];
    let mut cells: Vec<[f64; 4]> = f
        .block_rows
        .iter()
        .map(|&row| cell(f.left, f.block_seat_x[0], row))
        .collect();
    if f.block_header {
        cells.extend(
            f.block_seat_x
                .windows(2)
                .map(|s| cell(s[0], s[1], f.block_rows[0])),
        );
    }
    cells.push(cell(f.left, f.label_right, f.header));
    cells.push(cell(f.check.0, f.check.1, f.header));
    for row in [f.gesamt, f.abzug, f.end] {
        cells.push(cell(f.left, f.label_right, row));
    }
    cells.push(cell(f.left, f.label_right, f.signature));
    cells
}

/// The text printed in `bx` (mm), read, with its place and size; `None`
/// where the cell is empty or the reader reads nothing there.
fn text_in(
    ruling: &Ruling,
    bx: [f64; 4],
    kind: Kind,
    printed: &mut dyn PrintReader,
) -> Option<Text> {
    let [x0, y0, x1, y1] = ink_box(ruling, bx)?;
    let ppm = ruling.px_per_mm;
    let margin = (ppm * 0.8) as u32;
    let crop = crop(&ruling.gray, [x0, y0, x1, y1], margin);
    let read = match kind {
        Kind::Words => printed.line(&crop)?,
        Kind::Number => printed.number(&crop),
    };
    let text = read.text.trim().to_string();
    if text.is_empty() {
        return None;
    }
    let (left, right) = (f64::from(x0) / ppm, f64::from(x1) / ppm);
    let (top, bottom) = (f64::from(y0) / ppm, f64::from(y1) / ppm);
    let descends = text.chars().any(|c| "gjpqy,".contains(c));
    let size = (bottom - top) / if descends { 1.22 } else { 1.0 };
    let middle = (left + right) / 2.0;
    let centred = ((middle - (bx[0] + bx[2] / 2.0)) / bx[2]).abs() < 0.12 && left - bx[0] > 1.5;
    Some(Text {
        text,
        x: round2(if centred { middle } else { left }),
        y: round2(top + size / 2.0),
        size: round2(size.max(0.5)),
        bold: false,
        anchor: centred.then(|| "center".to_string()),
    })
}

/// The box (px, `[x0, y0, x1, y1)`) of the ink inside `bx` (mm), away
/// from its ruled edges.
fn ink_box(ruling: &Ruling, bx: [f64; 4]) -> Option<[u32; 4]> {
    let ink = ruling.ink_in([
        bx[0] + INSET_MM,
        bx[1] + INSET_MM,
        bx[0] + bx[2] - INSET_MM,
        bx[1] + bx[3] - INSET_MM,
    ]);
    ink.bounds.filter(|_| ink.dark >= MIN_INK_PX)
}

fn crop(gray: &GrayImage, [x0, y0, x1, y1]: [u32; 4], margin: u32) -> GrayImage {
    let (w, h) = gray.dimensions();
    let (x0, y0) = (x0.saturating_sub(margin), y0.saturating_sub(margin));
    let (x1, y1) = ((x1 + margin).min(w), (y1 + margin).min(h));
    image::imageops::crop_imm(gray, x0, y0, x1 - x0, y1 - y0).to_image()
}
