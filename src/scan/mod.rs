//! The scan pipeline for one page: locate the form, read every field, and
//! hand the values to the verifier.
//!
//! `GrayImage` → [`locate`] → [`AlignedSheet`] → [`read_sheet`] → `SheetResult` + `CellReadings` → `decode` → `verify`

use image::GrayImage;
use serde_json::Map;

use crate::catalogue::{Tell, say};
use crate::cells::{self, CellImage, Mark};
use crate::check::flags::{Code, Flag};
use crate::check::messages::Lang;
use crate::decode::{self, CONFIDENT, CellReadings, Field, FieldReading};
use crate::page::align::{self, Alignment, MIN_FIT};
use crate::page::form::{Fields, FormTemplate, MmBox};
use crate::page::unreadable::Unreadable;
use crate::read::{DigitReader, PrintReader, Reading};
use crate::sheet::{
    Cell, CellNotes, GameRow, Gesamt, Marks, Placement, SCHEMA, SheetNotes, SheetResult, Status,
};

mod fields;
mod game;
mod locate;
mod other_pen;
mod own_hand;
mod printed;
mod second_look;
mod stages;
mod struck;

pub use fields::*;
pub use locate::*;
pub use other_pen::{Apart, ValueInk, ink_differs, value_inks};
use own_hand::*;
use printed::*;
pub use second_look::value_writing;
use second_look::*;
pub use stages::StageTimes;

/// One page through the whole pipeline: locate the form, confirm it with the
/// printed text, read every field, verify. Never fails: a page that cannot
/// be read is an `unreadable` result that says why.
pub fn scan_page(
    page: &crate::page::input::Page,
    forms: &[FormTemplate],
    rules: &crate::check::rules::RuleSet,
    digits: &mut dyn DigitReader,
    printed: &mut dyn PrintReader,
    lang: Lang,
) -> SheetResult {
    let mut times = StageTimes::default();
    scan_page_timed(page, forms, rules, digits, printed, lang, &mut times)
}

/// [`scan_page`], adding each stage's time to `times`.
#[allow(clippy::too_many_arguments)]
pub fn scan_page_timed(
    page: &crate::page::input::Page,
    forms: &[FormTemplate],
    rules: &crate::check::rules::RuleSet,
    digits: &mut dyn DigitReader,
    printed: &mut dyn PrintReader,
    lang: Lang,
    times: &mut StageTimes,
) -> SheetResult {
    scan_in_hand(page, forms, rules, (digits, printed), lang, times, &[])
}

/// [`scan_page`] of a sheet in a hand a person has answered about:
/// `answers` are that writer's writings with what the paper says there,
/// evidence from outside the sheet, so the reader tuned to them may read
/// a cell in doubt surely (the decode and the checks still judge it).
pub fn scan_page_answered(
    page: &crate::page::input::Page,
    forms: &[FormTemplate],
    rules: &crate::check::rules::RuleSet,
    (digits, printed): (&mut dyn DigitReader, &mut dyn PrintReader),
    lang: Lang,
    answers: &[(GrayImage, u32)],
) -> SheetResult {
    let mut times = StageTimes::default();
    let readers = (digits, printed);
    scan_in_hand(page, forms, rules, readers, lang, &mut times, answers)
}

/// The pipeline itself: [`scan_page_timed`] with the hand's `answers`.
fn scan_in_hand(
    page: &crate::page::input::Page,
    forms: &[FormTemplate],
    rules: &crate::check::rules::RuleSet,
    (digits, printed): (&mut dyn DigitReader, &mut dyn PrintReader),
    lang: Lang,
    times: &mut StageTimes,
    answers: &[(GrayImage, u32)],
) -> SheetResult {
    let source = page.source.display().to_string();
    let seats = forms.first().map_or(4, |f| f.seats);
    let img = match &page.image {
        Ok(img) => img,
        Err(why) => return unreadable(&source, page.number, seats, why, lang),
    };
    let clock = std::time::Instant::now();
    let located = locate_ranked(img, forms);
    times.locate += clock.elapsed();
    let candidates = match located {
        Ok(c) => c,
        Err(why) => return unreadable(&source, page.number, seats, &why, lang),
    };
    let clock = std::time::Instant::now();
    let confirmed = first_not_denied(candidates, printed);
    times.confirm += clock.elapsed();
    let (mut aligned, confirmed) = match confirmed {
        Ok(c) => c,
        Err(why) => return unreadable(&source, page.number, seats, &why, lang),
    };
    aligned.header_off = !confirmed.header.fits();
    let clock = std::time::Instant::now();
    let mut timed = stages::Timed::new(digits);
    let (mut read, mut readings) = read_sheet(&aligned, &mut timed, &source, page.number, lang);
    times.read += timed.spent;
    times.cut += clock.elapsed().saturating_sub(timed.spent);
    let clock = std::time::Instant::now();
    match read_code(&aligned) {
        CodeBox::Read(code) => {
            let over = written_over(&aligned, &code);
            apply_code(&mut read, &mut readings, &code, &over, lang);
        }
        // Print read off boxes the header does not put there is no number.
        CodeBox::Unread if !aligned.header_off => {
            take_printed_numbers(&aligned, printed, &mut read, &mut readings)
        }
        CodeBox::Unread => {}
        CodeBox::Blank => {}
    }
    times.code += clock.elapsed();
    if let Some(a) = &mut read.notes.alignment {
        a.title_read = confirmed.title_read;
        a.title_matches = Some(confirmed.title_matches);
        a.row_numbers_read = Some(confirmed.row_numbers_read);
        a.header_off = aligned.header_off;
    }
    let clock = std::time::Instant::now();
    let decoded = decode::decode(read.clone(), &readings, rules, lang);
    times.decode += clock.elapsed();
    let clock = std::time::Instant::now();
    let (mut read, mut readings) = (read, readings);
    let verified = crate::check::verify::verify(decoded, rules, lang).and_then(|sheet| {
        let asked =
            second_opinion_where_flagged(&sheet, &aligned, digits, &mut read, &mut readings);
        let unringed = rings_that_were_digits(&sheet, &aligned, digits, &mut read, &mut readings);
        let hand = Hand { digits, answers };
        let own = own_hand_where_uncertain(&sheet, &aligned, hand, &mut read, &mut readings);
        let mut sheet = if asked || unringed || own {
            crate::check::verify::verify(decode::decode(read, &readings, rules, lang), rules, lang)?
        } else {
            sheet
        };
        if rings_on_second_look(&mut sheet, &aligned) {
            crate::check::verify::verify(sheet, rules, lang)
        } else {
            Ok(sheet)
        }
    });
    times.check += clock.elapsed();
    let clock = std::time::Instant::now();
    let verified = verified.map(|sheet| {
        let sheet = with_other_pens(sheet, &aligned, page, lang);
        let mut sheet = game::with_game_checked(sheet, aligned.form, rules, lang);
        // Made here once: what the archive stores, it reads back.
        crate::sheet::range::doubt_out_of_range(&mut sheet, lang);
        sheet
    });
    times.pens += clock.elapsed();
    verified.unwrap_or_else(|e| {
        unreadable(
            &source,
            page.number,
            aligned.form.seats,
            &Unreadable::Internal(e.tell(lang)),
            lang,
        )
    })
}

/// The first of the forms found on a page (best fit first) whose print
/// does not deny it and whose header lies where it puts it, with its
/// confirmation; else the first not denied (its header values are then
/// asked); where every one is denied, why the best is not the page's form.
fn first_not_denied<'a>(
    candidates: Vec<AlignedSheet<'a>>,
    printed: &mut dyn PrintReader,
) -> Result<(AlignedSheet<'a>, Confirmation), Unreadable> {
    let mut first_why = None;
    let mut header_off = None;
    for aligned in candidates {
        let confirmed = confirm(&aligned, printed);
        match print_denies(&aligned, &confirmed) {
            None if confirmed.header.fits() => return Ok((aligned, confirmed)),
            None => {
                header_off.get_or_insert((aligned, confirmed));
            }
            Some(why) => {
                first_why.get_or_insert(why);
            }
        }
    }
    header_off.ok_or(first_why.unwrap_or(Unreadable::NoTable))
}

/// Why a page located short of a sure fit is another form's, where its
/// print denies the form and no code of the form vouches for it.
fn print_denies(aligned: &AlignedSheet, confirmed: &Confirmation) -> Option<Unreadable> {
    let fit = aligned.alignment.fit;
    let sure = fit >= SURE_FIT && !aligned.alignment.thin_lines_lost;
    if sure || !confirmed.denies(aligned.form) {
        return None;
    }
    if matches!(read_code(aligned), CodeBox::Read(_)) {
        return None;
    }
    Some(Unreadable::OtherPrint {
        form: aligned.form.id.clone(),
        percent: (fit * 100.0).round() as u32,
    })
}

/// `sheet` with an `INK_DIFFERS` on each value written in another pen
/// than the rest.
fn with_other_pens(
    mut sheet: SheetResult,
    aligned: &AlignedSheet,
    page: &crate::page::input::Page,
    lang: Lang,
) -> SheetResult {
    if sheet.status == Status::Unreadable {
        return sheet;
    }
    let flags = ink_differs(&value_inks(&sheet, aligned, page.chroma.as_ref()), lang);
    if flags.is_empty() {
        return sheet;
    }
    sheet.flags.extend(flags);
    crate::check::flags::sort(&mut sheet.flags);
    sheet.status = Status::Flagged;
    sheet
}

/// The result for a page that could not be read: nothing guessed.
pub fn unreadable(
    source: &str,
    page: u32,
    seats: usize,
    why: &Unreadable,
    lang: Lang,
) -> SheetResult {
    SheetResult {
        schema: SCHEMA.into(),
        source: Some(source.to_string()),
        page: Some(page),
        form: None,
        rules: None,
        status: Status::Unreadable,
        round: None,
        table: None,
        players: vec![None; seats],
        games: Vec::new(),
        gesamt: vec![None; seats],
        abzug: vec![None; seats],
        endergebnis: vec![None; seats],
        signatures: vec![false; seats],
        flags: vec![Flag {
            code: Code::SheetUnreadable,
            severity: Code::SheetUnreadable.severity(),
            row: None,
            seat: None,
            field: None,
            message: say(lang, "flag-sheet-unreadable", &[("why", &why.text(lang))]),
            detail: Default::default(),
            extra: Map::new(),
        }],
        notes: SheetNotes::default(),
        extra: Map::new(),
    }
}

#[cfg(test)]
mod tests;
