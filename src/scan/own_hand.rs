//! A look in the writer's own hand: the reader tuned to the glyphs of
//! this sheet whose values its arithmetic confirms, asked about the cells
//! in doubt. One writer's shape of a digit (a 7 like a 1) misread all over
//! a sheet is read as that writer writes it where the writer's confirmed
//! glyphs show the shape.

use std::collections::BTreeSet;

use super::*;

/// How much the reading in the writer's own hand weighs against the
/// first: on the tuning sets (seeds 8200-8400, hands held out, drawn with
/// pressure; 40 steps of tuning) 7/8 read 0.03-0.04 points of cells more
/// than an even mean, with no wrong value more without a flag.
const OWN_WEIGHT: f32 = 0.875;

/// Reads every game cell in doubt of a glyph (`CELL_UNCERTAIN`) again with
/// the reader tuned on the sheet's confirmed values
/// ([`DigitReader::adapted_opinion`]), each reading then both weighed
/// ([`OWN_WEIGHT`]). True when any reading changed.
pub(super) fn own_hand_where_uncertain(
    sheet: &SheetResult,
    aligned: &AlignedSheet,
    hand: Hand,
    read: &mut SheetResult,
    readings: &mut CellReadings,
) -> bool {
    let flags: Vec<&Flag> = sheet
        .flags
        .iter()
        .flat_map(|f| std::iter::once(f).chain(&f.detail.consequences))
        .collect();
    let mut doubted: Vec<Field> = flags
        .iter()
        .filter(|f| f.code == Code::CellUncertain)
        .filter_map(|f| game_field(f))
        .filter(|&field| doubt_is_a_glyph(readings, field))
        .collect();
    if !hand.answers.is_empty() {
        for field in answered_about(aligned, &flags, readings) {
            if !doubted.contains(&field) {
                doubted.push(field);
            }
        }
    }
    if doubted.is_empty() {
        return false;
    }
    let (fields, values): (Vec<Field>, Vec<u32>) = confirmed(sheet, &flags).into_iter().unzip();
    let taught: Vec<(GrayImage, u32)> = writings(aligned, read, &fields)
        .into_iter()
        .zip(values)
        .filter_map(|(w, v)| Some((w?, v)))
        .collect();
    let asked: Vec<(Field, GrayImage)> = doubted
        .iter()
        .zip(writings(aligned, read, &doubted))
        .filter_map(|(f, w)| Some((*f, w?)))
        .collect();
    let answers = hand.answers;
    let mut taught: Vec<(&GrayImage, u32)> = taught.iter().map(|(w, v)| (w, *v)).collect();
    for _ in 0..ANSWER_WEIGHT {
        taught.extend(answers.iter().map(|(w, v)| (w, *v)));
    }
    let images: Vec<&GrayImage> = asked.iter().map(|(_, w)| w).collect();
    let Some(own) = hand.digits.adapted_opinion(&taught, &images) else {
        return false;
    };
    let mut changed = false;
    let taught_digits: Vec<char> = answers
        .iter()
        .flat_map(|(_, v)| v.to_string().chars().collect::<Vec<_>>())
        .collect();
    for ((field, _), reading) in asked.iter().zip(own) {
        // A footer value, or one read surely, that the tuned reading reads
        // otherwise but not surely by itself might come to agree with the
        // sums through the decode (a writer's mistake healed): it stays as
        // first read. A game value read surely may move only to digits a
        // person's answer showed in this hand.
        let first = readings.fields.iter().find(|fr| fr.field == *field);
        let game = matches!(field, Field::Game(..));
        let guarded = !game || first.is_some_and(|fr| fr.reading.confidence >= CONFIDENT);
        let other = first.is_none_or(|fr| fr.reading.text != reading.text);
        let shown = game
            && first.is_some_and(|fr| {
                to_taught_digits(&fr.reading.text, &reading.text, &taught_digits)
            });
        if guarded && other && reading.confidence < CONFIDENT && !shown {
            continue;
        }
        changed |= weigh_opinion(read, readings, *field, &reading, OWN_WEIGHT);
        if answers.is_empty() {
            short_of_sure(readings, *field);
        }
    }
    changed
}

/// Whether `now` differs from `first` only in digits at the same places,
/// each of them one of `taught`.
fn to_taught_digits(first: &str, now: &str, taught: &[char]) -> bool {
    first.len() == now.len()
        && first
            .chars()
            .zip(now.chars())
            .all(|(a, b)| a == b || taught.contains(&b))
}

/// The hand a sheet is read in: the reader, and what a person answered
/// about this writer's writing (their cells' writings with what the paper
/// says there).
pub(super) struct Hand<'a> {
    pub digits: &'a mut dyn DigitReader,
    pub answers: &'a [(GrayImage, u32)],
}

/// How many times an answered writing is taught beside each confirmed
/// one: a question holds a few cells of the glyph a sheet's hundred
/// confirmed ones outnumber.
const ANSWER_WEIGHT: usize = 8;

/// One writer, one witness: the tuned reading is the writer's own glyphs
/// asked about themselves, so it never lifts a cell in doubt to sure by
/// itself. The cell stays below [`CONFIDENT`]; it stands only where the
/// decode takes it on evidence from outside (the tariff, a column sum
/// that agrees).
fn short_of_sure(readings: &mut CellReadings, field: Field) {
    if let Some(fr) = readings.fields.iter_mut().find(|fr| fr.field == field) {
        fr.reading.confidence = fr.reading.confidence.min(BELOW_SURE);
    }
}

/// The surest a reading in the writer's own hand leaves a doubted cell.
const BELOW_SURE: f32 = CONFIDENT - 0.01;

/// The game values the sheet's arithmetic confirms, with the value each
/// holds: taken by the decode without a doubt, in a row no rule flags
/// (`flags`), named by no flag, in a column whose Gesamt is written, read
/// sure and does not disagree, neither ringed nor corrected.
fn confirmed(sheet: &SheetResult, flags: &[&Flag]) -> Vec<(Field, u32)> {
    let rows: BTreeSet<u32> = flags
        .iter()
        .filter(|f| f.seat.is_none())
        .filter_map(|f| f.row)
        .collect();
    let named: BTreeSet<(u32, usize)> = flags
        .iter()
        .filter_map(|f| Some((f.row?, f.seat?)))
        .collect();
    // Columns no Gesamt confirms: one that disagrees, or is itself in doubt.
    let columns: BTreeSet<(usize, bool)> = flags
        .iter()
        .filter(|f| {
            f.code == Code::GesamtMismatch || (f.code == Code::CellUncertain && f.row.is_none())
        })
        .filter_map(|f| Some((f.seat?, column_of(f)?)))
        .collect();
    let unwritten = |s: usize, minus: bool| {
        let g = sheet.gesamt.get(s - 1).copied().flatten();
        g.and_then(|g| if minus { g.minus } else { g.plus })
            .is_none()
    };
    let mut values = Vec::new();
    for row in sheet.games.iter().filter(|g| !rows.contains(&g.no)) {
        for (s, c) in (1..).zip(&row.cells) {
            if named.contains(&(row.no, s)) || c.circled || c.corrected {
                continue;
            }
            for (minus, v) in [(false, c.plus), (true, c.minus)] {
                let sure_sum = !columns.contains(&(s, minus)) && !unwritten(s, minus);
                if let Some(v) = v.filter(|_| sure_sum) {
                    values.push((Field::Game(row.no, s, minus), v));
                }
            }
        }
    }
    values
}

/// Each game field's writing as the reader reads it, where it holds any.
fn writings(
    aligned: &AlignedSheet,
    read: &mut SheetResult,
    fields: &[Field],
) -> Vec<Option<GrayImage>> {
    fields
        .iter()
        .map(|&field| {
            let game = matches!(field, Field::Game(..));
            writing_at(aligned, read, field, field_box(aligned, field)?, game)
        })
        .collect()
}

/// Whether `field`'s doubt is which digit a glyph is: its likeliest
/// alternative has as many digits. A doubt of more or fewer digits (a
/// struck digit read in front of the value, a lost one) is not the hand's
/// to answer: tuned, the net reads a struck "4" before a "2" the surer.
fn doubt_is_a_glyph(readings: &CellReadings, field: Field) -> bool {
    readings
        .fields
        .iter()
        .find(|fr| fr.field == field)
        .and_then(|fr| Some((fr.reading.alternatives.first()?, &fr.reading.text)))
        .is_some_and(|((alt, _), text)| alt.len() == text.len())
}

/// The game cell a flag names (its row, seat and column).
fn game_field(f: &Flag) -> Option<Field> {
    Some(Field::Game(f.row?, f.seat?, column_of(f)?))
}

/// The column (minus or not) a flag names, where it names plus or minus.
fn column_of(f: &Flag) -> Option<bool> {
    match f.field.as_deref()? {
        "plus" => Some(false),
        "minus" => Some(true),
        _ => None,
    }
}

/// What a person's answers about the hand make worth reading again:
/// a footer value in doubt of a glyph, and every game value of a row the
/// sums flag, read surely or not. The writer's glyph an answer showed may
/// be misread there surely, all over the sheet; the reader tuned to the
/// answer reads it as the person did. A footer value the sums flag is not
/// read again: one that came to agree with the rows through the tuned
/// reading would heal a writer's mistake in the footer without a word.
fn answered_about(aligned: &AlignedSheet, flags: &[&Flag], readings: &CellReadings) -> Vec<Field> {
    let mut out: Vec<Field> = (flags.iter())
        .filter(|f| f.code == Code::CellUncertain)
        .filter_map(|f| footer_field(f))
        .filter(|&field| doubt_is_a_glyph(readings, field))
        .collect();
    for f in flags {
        let (Code::RowNotZeroSum | Code::RowIllegalValues, Some(no)) = (f.code, f.row) else {
            continue;
        };
        let row = (no as usize)
            .checked_sub(1)
            .and_then(|i| aligned.form.fields.game.get(i));
        for s in 1..=row.map_or(0, Vec::len) {
            out.extend([Field::Game(no, s, false), Field::Game(no, s, true)]);
        }
    }
    out
}

/// The footer value a flag names (Gesamt, Abzug, Endergebnis).
fn footer_field(f: &Flag) -> Option<Field> {
    if f.row.is_some() {
        return None;
    }
    let seat = f.seat?;
    match f.field.as_deref()? {
        "abzug" => Some(Field::Abzug(seat)),
        "endergebnis" => Some(Field::Endergebnis(seat)),
        _ => Some(Field::Gesamt(seat, column_of(f)?)),
    }
}

/// A game cell's or a footer value's box on the form.
fn field_box(aligned: &AlignedSheet, field: Field) -> Option<MmBox> {
    let f = &aligned.form.fields;
    let pick = |pm: &crate::page::form::PlusMinus, minus: bool| {
        if minus { pm.minus } else { pm.plus }
    };
    match field {
        Field::Game(no, s, minus) => {
            let row = f.game.get((no as usize).checked_sub(1)?)?;
            Some(pick(row.get(s.checked_sub(1)?)?, minus))
        }
        Field::Gesamt(s, minus) => Some(pick(f.gesamt.get(s.checked_sub(1)?)?, minus)),
        Field::Abzug(s) => f.abzug.get(s.checked_sub(1)?).copied(),
        Field::Endergebnis(s) => f.endergebnis.get(s.checked_sub(1)?).copied(),
        Field::Round | Field::Table => None,
    }
}
