//! A printed sheet (`print`): its code gives the form, round, table and
//! players exactly, so their handwriting or print is not asked about.

use super::*;
use crate::page::code::TableCode;

/// How the code box is cut, in turn until the code is found: resolution
/// (px a mm) and margin (mm; the paper may lie a little off in the
/// printer). The detector's cap-stone search is sensitive to how a soft
/// scan is sampled, and each cut finds codes the others miss (tuning
/// sets: generated printed nights, seeds 501-503, 62 sheets, office and
/// phone: at 10 and 15 px a mm with 4 mm, 54 found; with all eight cuts,
/// 59). A page without a code tries them all, about 10 ms.
const CODE_CUTS: [(f64, f64); 8] = [
    (10.0, 4.0),
    (8.0, 4.0),
    (20.0, 4.0),
    (10.0, 2.0),
    (10.0, 6.0),
    (15.0, 4.0),
    (8.0, 2.0),
    (20.0, 6.0),
];

/// A code box with less of its area dark than this holds no code (a QR
/// code is about half dark modules): a sheet not from `print` is not
/// searched, which would cost it about 20 ms.
const CODE_INK_SHARE: f64 = 0.15;

/// What the located page's code box holds.
pub(super) enum CodeBox {
    /// Blank: the sheet is not from `print`.
    Blank,
    /// Ink, but no code of this form could be read (cut off, soiled).
    Unread,
    Read(TableCode),
}

/// The code printed on the located page.
pub(super) fn read_code(aligned: &AlignedSheet) -> CodeBox {
    let inside = cells::cut_at(
        aligned.page,
        &aligned.alignment,
        aligned.form.code_box(),
        -1.0,
        4.0,
    );
    let dark = inside.pixels().filter(|p| p[0] < 128).count();
    if (dark as f64) < CODE_INK_SHARE * f64::from(inside.width() * inside.height()) {
        return CodeBox::Blank;
    }
    code_in_box(aligned).map_or(CodeBox::Unread, CodeBox::Read)
}

fn code_in_box(aligned: &AlignedSheet) -> Option<TableCode> {
    let form = TableCode::form_tag(&aligned.form.id);
    CODE_CUTS.into_iter().find_map(|(px_per_mm, margin)| {
        let crop = cells::cut_at(
            aligned.page,
            &aligned.alignment,
            aligned.form.code_box(),
            margin,
            px_per_mm,
        );
        TableCode::find(&crop).filter(|c| c.form == form)
    })
}

/// Puts the code's round, table and players into the sheet as read, and
/// takes the readings of those fields out of what decoding weighs and
/// flags. A player field written over (`written_over`: a substitute, a
/// correction) keeps what was read there, asked about with the printed
/// number beside it.
pub(super) fn apply_code(
    read: &mut SheetResult,
    readings: &mut CellReadings,
    code: &TableCode,
    written_over: &[usize],
    lang: Lang,
) {
    read.round = Some(code.round);
    read.table = Some(code.table);
    let as_read = read.players.clone();
    read.flags.retain(|f| {
        !(f.code == Code::CellUncertain
            && f.row.is_none()
            && matches!(f.field.as_deref(), Some("round" | "table" | "player_id")))
    });
    for (i, seat) in read.players.iter_mut().enumerate() {
        let printed = code.players.get(i).filter(|p| !p.is_empty()).cloned();
        if !written_over.contains(&(i + 1)) {
            *seat = printed;
            continue;
        }
        let over = as_read.get(i).cloned().flatten();
        read.flags.push(written_over_flag(
            i + 1,
            printed.as_deref(),
            over.as_deref(),
            lang,
        ));
        *seat = over.or(printed);
    }
    readings
        .fields
        .retain(|fr| !matches!(fr.field, Field::Round | Field::Table));
    read.notes.printed = true;
}

/// Where a printed sheet's code could not be read, its printed round,
/// table and numbers are read by the print reader (Tesseract: 99.5-100% of
/// printed digits measured here; or the form's font matched). A field's
/// reading stands where the print reader and the digit net agree on it (the net's best or a listed alternative):
/// it is not asked about, and the result says `numbers_from_print`. A
/// field they disagree on (a number written over the print, a smudge)
/// stays as read, asked about.
pub(super) fn take_printed_numbers(
    aligned: &AlignedSheet,
    printed: &mut dyn PrintReader,
    read: &mut SheetResult,
    readings: &mut CellReadings,
) {
    let f = &aligned.form.fields;
    let mut taken = false;
    for (field, bx) in [(Field::Round, f.round), (Field::Table, f.table)] {
        let Some(text) = print_of(aligned, printed, bx) else {
            continue;
        };
        let Some(at) = readings.fields.iter().position(|fr| fr.field == field) else {
            continue;
        };
        if !readings.fields[at]
            .reading
            .listed()
            .any(|(t, _)| *t == text)
        {
            continue;
        }
        let value = text.parse().ok();
        match field {
            Field::Round => read.round = value,
            _ => read.table = value,
        }
        readings.fields.remove(at);
        taken = true;
    }
    for (s, &bx) in f.player_id.iter().enumerate() {
        let Some(text) = print_of(aligned, printed, bx) else {
            continue;
        };
        let seat = s + 1;
        let flagged = read.flags.iter().position(|fl| {
            fl.code == Code::CellUncertain && fl.points_at_field(Some(seat), "player_id")
        });
        let agrees = match flagged {
            Some(i) => {
                let d = &read.flags[i].detail;
                d.reading.as_deref() == Some(text.as_str())
                    || d.alternatives.iter().any(|(t, _)| *t == text)
            }
            None => read.players.get(s).cloned().flatten().as_deref() == Some(text.as_str()),
        };
        if !agrees {
            continue;
        }
        if let Some(i) = flagged {
            read.flags.remove(i);
        }
        if let Some(p) = read.players.get_mut(s) {
            *p = Some(text);
        }
        taken = true;
    }
    read.notes.numbers_from_print |= taken;
}

/// The digits the print reader reads in the printed box `bx`, where it
/// reads nothing but digits.
fn print_of(aligned: &AlignedSheet, printed: &mut dyn PrintReader, bx: MmBox) -> Option<String> {
    let c = cells::analyse(
        &cells::cut(aligned.page, &aligned.alignment, bx),
        false,
        false,
    );
    if c.mark != Mark::Ink {
        return None;
    }
    let r = printed.number(&c.digits);
    (!r.text.is_empty() && r.confidence >= PRINT_SURE).then_some(r.text)
}

/// The print reader's confidence (Tesseract's mean word confidence,
/// 0..1) below which its reading of a printed number is not used.
const PRINT_SURE: f32 = 0.6;

/// Ink (mm²) in a printed player field beyond its print (and 0.5 mm
/// around it) from which something was written over the print.
const WRITTEN_OVER_MM2: f64 = 1.5;

/// How far (px at 10 px a mm) ink may lie from the expected print and
/// still be print: the alignment's residual and the printer's spread.
pub(super) const PRINT_SPREAD_PX: u8 = 5;

/// The seats (from 1) whose printed number has ink written over it.
pub(super) fn written_over(aligned: &AlignedSheet, code: &TableCode) -> Vec<usize> {
    let ppm = cells::PX_PER_MM;
    // Inside the box, clear of its ruled lines.
    let margin = -0.6;
    let mut seats = Vec::new();
    for (i, (&bx, number)) in aligned
        .form
        .fields
        .player_id
        .iter()
        .zip(&code.players)
        .enumerate()
    {
        let crop = cells::cut_at(aligned.page, &aligned.alignment, bx, margin, ppm);
        let expected = crate::page::render::printed_number(bx, number, margin, ppm);
        let (beyond, _) = cells::ink_beyond(&crop, &expected, PRINT_SPREAD_PX);
        if beyond as f64 / (ppm * ppm) > WRITTEN_OVER_MM2 {
            seats.push(i + 1);
        }
    }
    seats
}

fn written_over_flag(seat: usize, printed: Option<&str>, read: Option<&str>, lang: Lang) -> Flag {
    let printed = printed.unwrap_or("-");
    let shown = read.unwrap_or("?");
    Flag {
        code: Code::CellUncertain,
        severity: Code::CellUncertain.severity(),
        row: None,
        seat: Some(seat),
        field: Some("player_id".into()),
        message: say(
            lang,
            "uncertain-written-over",
            &[("seat", &seat), ("printed", &printed), ("read", &shown)],
        ),
        detail: crate::check::flags::FlagDetail {
            alternatives: vec![(printed.to_string(), 0.0)],
            reading: Some(shown.to_string()),
            ..Default::default()
        },
        extra: Map::new(),
    }
}
