//! A look in the writer's own hand: the reader tuned to the glyphs of
//! this sheet whose values its arithmetic confirms, asked about the cells
//! in doubt. One writer's shape of a digit (a 7 like a 1) misread all over
//! a sheet is read as that writer writes it where the writer's confirmed
//! glyphs show the shape.

use std::collections::BTreeSet;

use super::*;

/// How much the reading in the writer's own hand weighs against the
/// first: on the tuning sets (seeds 8200-8400, hands held out, drawn with
/// pressure) 7/8 read 0.03-0.06 points of cells more than an even mean,
/// with no wrong value more without a flag.
const OWN_WEIGHT: f32 = 0.875;

/// Reads every game cell in doubt (`CELL_UNCERTAIN`) again with the reader
/// tuned on the sheet's confirmed cells ([`DigitReader::adapted_opinion`]),
/// each reading then both weighed ([`OWN_WEIGHT`]). Confirmed: a value the decode
/// took without a doubt, its row without a rule flag, itself without any,
/// its column's Gesamt not disagreeing, neither ringed nor corrected; it
/// teaches the value the sheet holds. True when any reading changed.
pub(super) fn own_hand_where_uncertain(
    sheet: &SheetResult,
    aligned: &AlignedSheet,
    digits: &mut dyn DigitReader,
    read: &mut SheetResult,
    readings: &mut CellReadings,
) -> bool {
    let flags: Vec<&Flag> = sheet
        .flags
        .iter()
        .flat_map(|f| std::iter::once(f).chain(&f.detail.consequences))
        .collect();
    let doubted: Vec<Field> = flags
        .iter()
        .filter(|f| f.code == Code::CellUncertain)
        .filter_map(|f| game_field(f))
        .filter(|&field| doubt_is_a_glyph(readings, field))
        .collect();
    if doubted.is_empty() {
        return false;
    }
    // What the sheet's arithmetic does not confirm: a row a rule flags, a
    // cell a flag names, a column whose Gesamt disagrees.
    let rows: BTreeSet<u32> = flags
        .iter()
        .filter(|f| f.seat.is_none())
        .filter_map(|f| f.row)
        .collect();
    let named: BTreeSet<(u32, usize)> = flags
        .iter()
        .filter_map(|f| Some((f.row?, f.seat?)))
        .collect();
    let columns: BTreeSet<(usize, bool)> = flags
        .iter()
        .filter(|f| f.code == Code::GesamtMismatch)
        .filter_map(|f| Some((f.seat?, column_of(f)?)))
        .collect();
    let columns = &columns;
    let confirmed: Vec<(Field, u32)> = sheet
        .games
        .iter()
        .filter(|g| !rows.contains(&g.no))
        .flat_map(|g| {
            g.cells
                .iter()
                .enumerate()
                .map(move |(i, c)| (g.no, i + 1, c))
        })
        .filter(|(no, s, c)| !named.contains(&(*no, *s)) && !c.circled && !c.corrected)
        .flat_map(|(no, s, c)| {
            [(false, c.plus), (true, c.minus)]
                .into_iter()
                .filter(move |(m, v)| v.is_some() && !columns.contains(&(s, *m)))
                .filter_map(move |(m, v)| Some((Field::Game(no, s, m), v?)))
        })
        .collect();
    let mut taught = Vec::new();
    for (field, value) in confirmed {
        let Some(bx) = game_box(aligned, field) else {
            continue;
        };
        if let Some(w) = writing_at(aligned, read, field, bx, true) {
            taught.push((w, value));
        }
    }
    let mut asked = Vec::new();
    for field in doubted {
        let Some(bx) = game_box(aligned, field) else {
            continue;
        };
        if let Some(w) = writing_at(aligned, read, field, bx, true) {
            asked.push((field, w));
        }
    }
    let taught: Vec<(&GrayImage, u32)> = taught.iter().map(|(w, v)| (w, *v)).collect();
    let images: Vec<&GrayImage> = asked.iter().map(|(_, w)| w).collect();
    let Some(own) = digits.adapted_opinion(&taught, &images) else {
        return false;
    };
    let mut changed = false;
    for ((field, _), reading) in asked.iter().zip(own) {
        changed |= weigh_opinion(read, readings, *field, &reading, OWN_WEIGHT);
    }
    changed
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

/// A game cell's box on the form.
fn game_box(aligned: &AlignedSheet, field: Field) -> Option<MmBox> {
    let Field::Game(no, s, minus) = field else {
        return None;
    };
    let pm = aligned
        .form
        .fields
        .game
        .get((no as usize).checked_sub(1)?)?
        .get(s.checked_sub(1)?)?;
    Some(if minus { pm.minus } else { pm.plus })
}
