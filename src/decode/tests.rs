use super::doubt::{ROW_AND_GESAMT_SLIP, doubted_by_row_and_column};
use super::*;
use crate::sheet::{Cell, Gesamt};
use serde_json::json;

use crate::read::reading;

/// Game row `no` with a value per seat (minus column or not).
fn row(no: u32, values: &[(bool, u32)]) -> GameRow {
    GameRow {
        no,
        cells: values
            .iter()
            .map(|&(m, v)| if m { Cell::minus(v) } else { Cell::plus(v) })
            .collect(),
        initials: false,
        class: None,
        extra: Map::new(),
    }
}

/// One Rufspiel Schneider 2/2/-2/-2 with the last cell read uncertainly.
fn sheet_and_readings(last: Reading, gesamt_minus_4: u32) -> (SheetResult, CellReadings) {
    let mut sheet: SheetResult = serde_json::from_value(json!({
        "schema": crate::sheet::SCHEMA, "status": "ok",
        "players": [null, null, null, null], "games": [],
        "gesamt": [null, null, null, null], "abzug": [null, null, null, null],
        "endergebnis": [null, null, null, null], "signatures": [false, false, false, false],
        "flags": []
    }))
    .expect("sheet");
    let read = last.value().unwrap_or(0);
    let values = [(false, 2u32), (false, 2), (true, 2), (true, read)];
    sheet.games.push(row(1, &values));
    let mut fields = Vec::new();
    for (s, &(m, v)) in values.iter().enumerate() {
        let r = if s == 3 {
            last.clone()
        } else {
            reading(&v.to_string(), 0.99, &[])
        };
        fields.push(FieldReading {
            field: Field::Game(1, s + 1, m),
            reading: r,
            what: format!("seat {}", s + 1),
        });
        let g = if s == 3 { gesamt_minus_4 } else { 2 };
        sheet.gesamt[s] = Some(if m {
            Gesamt {
                plus: None,
                minus: Some(g),
            }
        } else {
            Gesamt {
                plus: Some(g),
                minus: None,
            }
        });
        fields.push(FieldReading {
            field: Field::Gesamt(s + 1, m),
            reading: reading(&g.to_string(), 0.99, &[]),
            what: "g".into(),
        });
    }
    (
        sheet,
        CellReadings {
            fields,
            ..Default::default()
        },
    )
}

fn rules() -> RuleSet {
    RuleSet::load("merkur").expect("merkur")
}

#[test]
fn an_uncertain_reading_row_and_column_confirm_is_taken() {
    let (sheet, readings) = sheet_and_readings(reading("2", 0.6, &[("8", 0.3)]), 2);
    let out = decode(sheet, &readings, &rules(), Lang::En);
    assert_eq!(out.games[0].cells[3].minus, Some(2));
    assert!(out.flags.is_empty(), "{:?}", out.flags);
    let r = out.games[0].cells[3]
        .notes
        .minus_reading
        .as_ref()
        .expect("reading");
    assert!(r.decoded);
}

/// Decodes [`sheet_and_readings`] with the last cell read as `last` and
/// a Gesamt of 2, and checks the cell took 2 without a flag, what was
/// read staying on record.
fn assert_takes_two(last: Reading) {
    let read = last.text.clone();
    let (sheet, readings) = sheet_and_readings(last, 2);
    let out = decode(sheet, &readings, &rules(), Lang::En);
    assert_eq!(out.games[0].cells[3].minus, Some(2));
    assert!(out.flags.is_empty(), "{:?}", out.flags);
    let r = out.games[0].cells[3]
        .notes
        .minus_reading
        .as_ref()
        .expect("reading");
    assert_eq!(r.read, read, "what was read stays on record");
    assert!(r.decoded);
}

#[test]
fn an_uncertain_misreading_its_row_and_column_both_contradict_should_take_their_value() {
    assert_takes_two(reading("8", 0.5, &[("2", 0.4)]));
}

#[test]
fn a_misreading_only_its_row_contradicts_should_go_to_a_person() {
    // The Gesamt read unsure between 2 and 8: the column cannot decide.
    let out = decode_with_gesamt_read(
        reading("8", 0.5, &[("2", 0.4)]),
        reading("2", 0.45, &[("8", 0.4)]),
    );
    assert_eq!(out.games[0].cells[3].minus, Some(8), "as read");
    let cell = out.flags.iter().find(|f| f.row == Some(1)).expect("flag");
    assert_eq!(cell.code, Code::CellUncertain);
    assert_eq!(cell.detail.suggestion, Some(2));
}

#[test]
fn without_the_column_sum_the_suggestion_is_flagged() {
    let (sheet, mut readings) = sheet_and_readings(reading("8", 0.5, &[("2", 0.4)]), 8);
    // Seat 4's Gesamt Minus not read: only the row weighs the cell.
    readings
        .fields
        .retain(|f| f.field != Field::Gesamt(4, true));
    let out = decode(sheet, &readings, &rules(), Lang::En);
    assert_eq!(out.flags.len(), 1);
    assert_eq!(out.flags[0].code, Code::CellUncertain);
    assert_eq!(out.flags[0].detail.suggestion, Some(2));
    assert!(
        out.flags[0].message.contains("more likely 2 "),
        "{}",
        out.flags[0].message
    );
}

/// Seat 1 read "7" or "2", its column (Gesamt 2, read surely) settles
/// it as 2; seat 4's "3" or "2" has no Gesamt to weigh it, only its
/// row, which with seat 1 settled makes it 2 overwhelmingly (with
/// seat 1 open as well, at 94.8%, short of `ACCEPT`).
#[test]
fn a_cell_its_column_settled_should_let_its_row_settle_the_rows_other_cells() {
    let (mut sheet, mut readings) = sheet_and_readings(reading("3", 0.6, &[("2", 0.3)]), 3);
    readings
        .fields
        .retain(|f| f.field != Field::Gesamt(4, true));
    for f in &mut readings.fields {
        if f.field == Field::Game(1, 1, false) {
            f.reading = reading("7", 0.6, &[("2", 0.35)]);
        }
    }
    sheet.games[0].cells[0].plus = Some(7);
    let out = decode(sheet, &readings, &rules(), Lang::En);
    assert_eq!(out.games[0].cells[0].plus, Some(2), "its column takes it");
    let flag = out
        .flags
        .iter()
        .find(|f| f.row == Some(1) && f.seat == Some(4))
        .expect("seat 4 still goes to a person");
    assert_eq!(flag.detail.suggestion, Some(2));
    let p = flag.detail.suggestion_probability.expect("p");
    assert!(p >= ACCEPT, "{p}");
}

#[test]
fn a_suggestion_where_row_and_column_disagree_should_weigh_both() {
    // The row wants 2; the Gesamt, read surely as 7, adds up with the 7
    // as read: a writer's wrong value is in the writer's own Gesamt, so
    // that is about as likely as the reader's misreading with a Gesamt
    // slipped by a tariff step (5).
    let suggestion = |read: &str| {
        let r = reading(read, 0.5, &[("2", 0.4)]);
        let (sheet, readings) = sheet_and_readings(r.clone(), r.value().unwrap_or(0));
        let out = decode(sheet, &readings, &rules(), Lang::En);
        assert_eq!(out.flags.len(), 1);
        let flag = &out.flags[0];
        assert_eq!(flag.code, Code::CellUncertain);
        let p = flag.detail.suggestion_probability.expect("p");
        (flag.detail.suggestion, p)
    };
    let (v, p) = suggestion("7");
    assert_eq!(v, Some(7));
    assert!(p > 0.5 && p < PROBABLE, "{p}");
    // A Gesamt 6 off its column is no usual slip: the 8 as read is likely.
    let (v, p) = suggestion("8");
    assert_eq!(v, Some(8));
    assert!(p >= PROBABLE, "{p}");
}

#[test]
fn what_a_reading_leaves_unlisted_should_be_spread_not_lost() {
    // A reading sure of itself leaves nothing: the floor.
    assert_eq!(prob(&[(3, 0.999)], 5), UNLISTED);
    // An unsure one leaves 0.16 over values near what was written.
    let p = prob(&[(54, 0.79), (34, 0.05)], 55);
    assert!((p - 0.16 / UNLISTED_SPREAD).abs() < 1e-9, "{p}");
    assert_eq!(prob(&[(54, 0.79), (34, 0.05)], 34), 0.05);
}

#[test]
fn a_value_the_reader_did_not_list_that_row_and_column_demand_should_be_taken() {
    // Read "8" at 0.6 (or "9"); the row and the Gesamt both want 2.
    assert_takes_two(reading("8", 0.6, &[("9", 0.1)]));
}

/// A digit written later in front of a value ("1" before "2", read
/// "12"): the row and the Gesamt, written before the edit, want 2 just as
/// overwhelmingly as for a misread "8", but a value with fewer digits than
/// the ink shows is never taken silently: it stays a person's suggestion,
/// with what was read.
#[test]
fn a_value_with_fewer_digits_than_the_ink_should_not_be_taken_silently() {
    let (sheet, readings) = sheet_and_readings(reading("12", 0.5, &[("2", 0.4)]), 2);
    let out = decode(sheet, &readings, &rules(), Lang::En);
    assert_eq!(out.games[0].cells[3].minus, Some(12), "as read");
    let cell = out
        .flags
        .iter()
        .find(|f| f.row == Some(1) && f.seat == Some(4))
        .expect("the cell keeps a flag");
    assert_eq!(cell.code, Code::CellUncertain);
    assert_eq!(cell.detail.reading.as_deref(), Some("12"));
    assert_eq!(cell.detail.suggestion, Some(2));
    // The same evidence against a one-digit misreading takes the value.
    assert_takes_two(reading("8", 0.5, &[("2", 0.4)]));
}

/// Seat 4's Gesamt Minus read as `gesamt`.
fn read_gesamt_minus_4(readings: &mut CellReadings, gesamt: Reading) {
    for f in &mut readings.fields {
        if f.field == Field::Gesamt(4, true) {
            f.reading = gesamt.clone();
        }
    }
}

/// Row 2, 1/1/-1/-1, every cell read as `each` (legal as 3/3/-3/-3 too);
/// seats 1 to 3's Gesamt, read surely, count it (seat 4's is the test's).
fn add_row_2_read(sheet: &mut SheetResult, readings: &mut CellReadings, each: &Reading) {
    let ones = [(false, 1u32), (false, 1), (true, 1), (true, 1)];
    sheet.games.push(row(2, &ones));
    for (s, &(m, _)) in ones.iter().enumerate() {
        readings.fields.push(FieldReading {
            field: Field::Game(2, s + 1, m),
            reading: each.clone(),
            what: format!("seat {}", s + 1),
        });
    }
    for f in &mut readings.fields {
        if let Field::Gesamt(s @ 1..=3, m) = f.field {
            f.reading = reading("3", 0.99, &[]);
            let g = sheet.gesamt[s - 1].get_or_insert_default();
            *(if m { &mut g.minus } else { &mut g.plus }) = Some(3);
        }
    }
}

/// [`sheet_and_readings`] with seat 4's Gesamt Minus read as `gesamt`, decoded.
fn decode_with_gesamt_read(last: Reading, gesamt: Reading) -> SheetResult {
    let (sheet, mut readings) = sheet_and_readings(last, gesamt.value().unwrap_or(0));
    read_gesamt_minus_4(&mut readings, gesamt);
    decode(sheet, &readings, &rules(), Lang::En)
}

/// Seat 4's footer beside its Gesamt Minus: Gesamt Plus read "0" and
/// the Endergebnis read as `endergebnis`, both at 0.99; an Abzug of 0
/// (not read).
fn decode_with_seat_4_footer(last: Reading, gesamt: Reading, endergebnis: i64) -> SheetResult {
    let (mut sheet, mut readings) = sheet_and_readings(last, gesamt.value().unwrap_or(0));
    read_gesamt_minus_4(&mut readings, gesamt);
    if let Some(g) = sheet.gesamt[3].as_mut() {
        g.plus = Some(0);
    }
    sheet.abzug[3] = Some(0);
    sheet.endergebnis[3] = Some(endergebnis);
    for (field, text) in [
        (Field::Gesamt(4, false), "0".to_string()),
        (Field::Endergebnis(4), endergebnis.abs().to_string()),
    ] {
        readings.fields.push(FieldReading {
            field,
            reading: reading(&text, 0.99, &[]),
            what: "footer".into(),
        });
    }
    decode(sheet, &readings, &rules(), Lang::En)
}

#[test]
fn a_misreading_its_row_and_the_endergebnis_contradict_should_take_their_value() {
    // The Gesamt read unsure between 8 and 2, but the Endergebnis (-2 =
    // 0 - 2) says the writer's Gesamt is 2: the column is 2, and so the cell.
    let out = decode_with_seat_4_footer(
        reading("8", 0.5, &[("2", 0.4)]),
        reading("8", 0.45, &[("2", 0.4)]),
        -2,
    );
    assert_eq!(out.games[0].cells[3].minus, Some(2));
    assert!(
        !out.flags.iter().any(|f| f.row == Some(1)),
        "{:?}",
        out.flags
    );
    let r = out.games[0].cells[3]
        .notes
        .minus_reading
        .as_ref()
        .expect("reading");
    assert_eq!(r.read, "8", "what was read stays on record");
    // The Gesamt holds what the sheet makes of it, and still goes to a person.
    assert_eq!(out.gesamt[3].and_then(|g| g.minus), Some(2));
    assert!(
        out.flags
            .iter()
            .any(|f| f.row.is_none() && f.seat == Some(4) && f.detail.taken),
        "{:?}",
        out.flags
    );
}

#[test]
fn a_misreading_its_column_demands_should_be_taken_though_another_cell_stays_open() {
    // Row 2, 1/1/-1/-1, is read unsure everywhere (3/3/-3/-3 is legal
    // too) and seat 4's Gesamt Minus unsure between 3 (2 + 1) and 5
    // (2 + 3): the column as a whole is not overwhelming, but row 1's
    // cell is 2 however row 2 is read.
    let (mut sheet, mut readings) = sheet_and_readings(reading("8", 0.5, &[("2", 0.4)]), 3);
    add_row_2_read(
        &mut sheet,
        &mut readings,
        &reading("1", 0.6, &[("3", 0.35)]),
    );
    read_gesamt_minus_4(&mut readings, reading("3", 0.7, &[("5", 0.25)]));
    let out = decode(sheet, &readings, &rules(), Lang::En);
    assert_eq!(out.games[0].cells[3].minus, Some(2));
    assert!(
        !out.flags.iter().any(|f| f.row == Some(1)),
        "{:?}",
        out.flags
    );
}

#[test]
fn a_misreading_its_row_allows_and_its_sure_column_demands_should_be_taken() {
    // Row 2 may be 1/1/-1/-1 or 3/3/-3/-3 (read unsure everywhere, 1
    // likelier); seat 4's Gesamt Minus, read surely, is 5 = 2 + 3.
    let (mut sheet, mut readings) = sheet_and_readings(reading("2", 0.99, &[]), 5);
    add_row_2_read(
        &mut sheet,
        &mut readings,
        &reading("1", 0.5, &[("3", 0.45)]),
    );
    let out = decode(sheet, &readings, &rules(), Lang::En);
    assert_eq!(out.games[1].cells[3].minus, Some(3));
    assert!(
        !out.flags
            .iter()
            .any(|f| f.row == Some(2) && f.seat == Some(4)),
        "{:?}",
        out.flags
    );
}

#[test]
fn a_reading_the_endergebnis_agrees_with_should_not_be_replaced() {
    // The Endergebnis -8 follows from a Gesamt of 8: the writer wrote 8
    // (a mistake the row shows), the reader did not misread it.
    let out = decode_with_seat_4_footer(
        reading("8", 0.5, &[("2", 0.4)]),
        reading("8", 0.45, &[("2", 0.4)]),
        -8,
    );
    assert_eq!(out.games[0].cells[3].minus, Some(8), "as read");
    let cell = out.flags.iter().find(|f| f.row == Some(1)).expect("flag");
    assert_eq!(cell.code, Code::CellUncertain);
}

#[test]
fn an_uncertain_gesamt_over_an_unsettled_column_should_get_its_suggestion() {
    let out = decode_with_gesamt_read(
        reading("7", 0.5, &[("2", 0.4)]),
        reading("7", 0.6, &[("2", 0.3)]),
    );
    let gesamt = out
        .flags
        .iter()
        .find(|f| f.row.is_none() && f.seat == Some(4))
        .expect("the Gesamt goes to a person");
    assert_eq!(gesamt.detail.suggestion, Some(2));
    let p = gesamt.detail.suggestion_probability.expect("p");
    assert!(p >= PROBABLE, "the column's suggestion makes 2 likely: {p}");
    assert_eq!(out.gesamt[3].and_then(|g| g.minus), Some(7), "as read");
}

#[test]
fn an_unsure_gesamt_its_column_and_footer_overwhelmingly_contradict_should_hold_their_value_and_still_be_flagged()
 {
    // Read "8" at 60%, "2" at 35%; the column (a sure 2) and the
    // Endergebnis (-2 = 0 - 2) both say 2.
    let out = decode_with_seat_4_footer(
        reading("2", 0.995, &[]),
        reading("8", 0.6, &[("2", 0.35)]),
        -2,
    );
    assert_eq!(out.gesamt[3].and_then(|g| g.minus), Some(2));
    let flag = out
        .flags
        .iter()
        .find(|f| f.row.is_none() && f.seat == Some(4) && f.field.as_deref() == Some("minus"))
        .expect("a person still checks the Gesamt");
    assert!(flag.detail.taken);
    assert_eq!(
        flag.detail.reading.as_deref(),
        Some("8"),
        "what was read is kept"
    );
    assert!(flag.message.contains("taken as 2"), "{}", flag.message);
}

#[test]
fn a_gesamt_read_at_even_odds_that_adds_up_should_let_the_cell_be_taken() {
    let out = decode_with_gesamt_read(
        reading("8", 0.5, &[("2", 0.4)]),
        reading("2", 0.6, &[("8", 0.3)]),
    );
    assert!(out.flags.is_empty(), "{:?}", out.flags);
    assert_eq!(out.games[0].cells[3].minus, Some(2));
    assert_eq!(out.gesamt[3].and_then(|g| g.minus), Some(2));
}

#[test]
fn an_uncertain_gesamt_the_likely_column_confirms_should_stand() {
    let out = decode_with_gesamt_read(
        reading("8", 0.5, &[("2", 0.4)]),
        reading("2", 0.45, &[("8", 0.3)]),
    );
    assert_eq!(out.flags.len(), 1, "{:?}", out.flags);
    assert_eq!(
        out.flags[0].row,
        Some(1),
        "only the game cell goes to a person"
    );
}

/// The game cell's suggestion alone is not sure enough to confirm the
/// Gesamt (0.91), but every way the column may add up, weighed with the
/// Gesamt's own reading, is (0.987): the Gesamt stands; the cell, its
/// Gesamt read below even odds, does not.
#[test]
fn an_uncertain_gesamt_its_whole_column_confirms_should_stand() {
    let out = decode_with_gesamt_read(
        reading("8", 0.9, &[("2", 0.09)]),
        reading("2", 0.45, &[("8", 0.05)]),
    );
    assert_eq!(out.flags.len(), 1, "{:?}", out.flags);
    assert_eq!(
        out.flags[0].row,
        Some(1),
        "only the game cell goes to a person"
    );
    assert_eq!(out.flags[0].detail.suggestion, Some(2));
    assert_eq!(out.games[0].cells[3].minus, Some(8), "as read");
}

#[test]
fn a_confident_illegal_reading_stays_as_written() {
    let (sheet, readings) = sheet_and_readings(reading("8", 0.999, &[("2", 0.001)]), 2);
    let out = decode(sheet, &readings, &rules(), Lang::En);
    assert_eq!(out.games[0].cells[3].minus, Some(8));
    assert!(
        out.flags.is_empty(),
        "the verifier flags the row, not the decoder"
    );
}

/// Seat 4's footer: Gesamt 0 and 2 read surely, Abzug 0, and an
/// Endergebnis whose digits were read as `digits` at 0.999 without a
/// sign (so it stands positive).
fn decode_signless_endergebnis(digits: u32) -> SheetResult {
    let (mut sheet, mut readings) = sheet_and_readings(reading("2", 0.999, &[]), 2);
    if let Some(g) = sheet.gesamt[3].as_mut() {
        g.plus = Some(0);
    }
    sheet.abzug[3] = Some(0);
    sheet.endergebnis[3] = Some(i64::from(digits));
    readings.fields.push(FieldReading {
        field: Field::Endergebnis(4),
        reading: reading(&digits.to_string(), 0.999, &[]),
        what: "end".into(),
    });
    readings.signless.push(4);
    decode(sheet, &readings, &rules(), Lang::En)
}

#[test]
fn an_endergebnis_read_without_its_minus_should_take_the_gesamt_differences_sign_flagged() {
    let out = decode_signless_endergebnis(2);
    assert_eq!(out.endergebnis[3], Some(-2), "0 - 2");
    let flag = out
        .flags
        .iter()
        .find(|f| f.field.as_deref() == Some("endergebnis"))
        .expect("a person checks the sign");
    assert!(flag.detail.taken);
    assert!(flag.message.contains("-2"), "{}", flag.message);
}

#[test]
fn an_endergebnis_without_a_sign_that_is_no_gesamt_difference_should_stay_as_read_flagged() {
    let out = decode_signless_endergebnis(3);
    assert_eq!(out.endergebnis[3], Some(3));
    let flag = out
        .flags
        .iter()
        .find(|f| f.field.as_deref() == Some("endergebnis"))
        .expect("a person checks it");
    assert!(!flag.detail.taken);
}

#[test]
fn a_footer_field_set_to_its_suggestion_should_keep_the_endergebnis_sign() {
    let (mut sheet, _) = sheet_and_readings(reading("2", 0.999, &[]), 2);
    sheet.endergebnis[2] = Some(-14);
    sheet.abzug[2] = Some(3);
    assert!(set_footer(&mut sheet, Field::Endergebnis(3), 15));
    assert!(set_footer(&mut sheet, Field::Abzug(3), 4));
    assert!(set_footer(&mut sheet, Field::Gesamt(4, true), 7));
    assert_eq!(sheet.endergebnis[2], Some(-15));
    assert_eq!(sheet.abzug[2], Some(4));
    assert_eq!(sheet.gesamt[3].and_then(|g| g.minus), Some(7));
    // Nothing written there, no seat 0: nothing to set.
    assert!(!set_footer(&mut sheet, Field::Endergebnis(1), 5));
    assert!(!set_footer(&mut sheet, Field::Abzug(0), 5));
    assert_eq!(sheet.endergebnis[0], None);
    // An Endergebnis read 0 takes the sign of its Gesamt's difference,
    // and only a value that difference is.
    sheet.gesamt[1] = Some(Gesamt {
        plus: Some(64),
        minus: Some(104),
    });
    sheet.endergebnis[1] = Some(0);
    assert!(!set_footer(&mut sheet, Field::Endergebnis(2), 30));
    assert_eq!(sheet.endergebnis[1], Some(0));
    assert!(set_footer(&mut sheet, Field::Endergebnis(2), 40));
    assert_eq!(sheet.endergebnis[1], Some(-40));
}

/// Row 1 is 2/2/-2/-2, seat 4's cell read surely as `cell`; seat 4's
/// footer is Gesamt 0 and 2 (read at 0.999) and Endergebnis
/// `endergebnis`.
fn decode_sure_misreading(cell: Reading, endergebnis: i64) -> SheetResult {
    decode_with_seat_4_footer(cell, reading("2", 0.999, &[]), endergebnis)
}

#[test]
fn a_sure_misreading_its_row_and_sound_footer_both_contradict_should_go_to_a_person_as_read() {
    let out = decode_sure_misreading(reading("8", 0.995, &[]), -2);
    assert_eq!(
        out.games[0].cells[3].minus,
        Some(8),
        "the value stays as read"
    );
    let flag = out
        .flags
        .iter()
        .find(|f| f.row == Some(1) && f.seat == Some(4))
        .expect("the cell goes to a person");
    assert_eq!(flag.code, Code::CellUncertain);
    assert!(flag.detail.doubted);
    assert!(flag.message.contains("both make it 2"), "{}", flag.message);
    assert_eq!(flag.detail.suggestion, Some(2));
    let p = flag.detail.suggestion_probability.expect("p");
    // 0.005 against the writer's double slip, 1e-4, by an odd amount (6).
    let double = ROW_AND_GESAMT_SLIP * ODD_SLIP;
    assert!((p - 0.005 / (0.005 + double)).abs() < 1e-3, "{p}");
    // The row and Gesamt flags the reading as is shows are kept aside.
    let checked = crate::check::verify::verify(out, &rules(), Lang::En).expect("verify");
    let raised = |c: Code| {
        checked
            .flags
            .iter()
            .any(|f| f.code == c && f.seat != Some(1))
    };
    assert!(raised(Code::CellUncertain));
    assert!(!raised(Code::RowNotZeroSum) && !raised(Code::GesamtMismatch));
    let aside = serde_json::to_string(&checked.notes.flags_if_read_as_is).expect("json");
    assert!(
        aside.contains("ROW_NOT_ZERO_SUM") && aside.contains("GESAMT_MISMATCH"),
        "{aside}"
    );
}

#[test]
fn an_unsure_reading_whose_suggestion_falls_short_should_be_doubted_in_one_flag() {
    // Read "7" at 95%: the decoder, which gives a value the reader did
    // not list 1e-4, leaves 2 short of likely (a writer's Gesamt 5 off
    // its column is a usual slip); the row and Gesamt pointing at the
    // cell by one amount make it so.
    let out = decode_sure_misreading(reading("7", 0.95, &[("5", 0.049)]), -2);
    assert_eq!(
        out.games[0].cells[3].minus,
        Some(7),
        "the value stays as read"
    );
    let flags: Vec<&Flag> = out.flags.iter().filter(|f| f.row == Some(1)).collect();
    assert_eq!(flags.len(), 1, "{flags:?}");
    assert!(flags[0].detail.doubted);
    assert_eq!(flags[0].detail.suggestion, Some(2));
}

#[test]
fn a_sure_reading_beside_a_footer_that_disagrees_with_itself_should_stay_the_verifiers() {
    // The Endergebnis says the Gesamt is 8 (worked out from the column):
    // the Gesamt's 2 may be the writer's slip, so the row flag and the
    // footer's flags are the writer's.
    let out = decode_sure_misreading(reading("8", 0.995, &[]), -8);
    assert!(out.flags.is_empty(), "{:?}", out.flags);
}

#[test]
fn a_sure_reading_beside_an_endergebnis_slipped_on_its_own_should_still_be_doubted() {
    // -3 is neither 0 - 2 nor 0 - 8: the writer slipped in the
    // Endergebnis, which says nothing of the Gesamt.
    let out = decode_sure_misreading(reading("8", 0.995, &[]), -3);
    let flag = out
        .flags
        .iter()
        .find(|f| f.row == Some(1) && f.seat == Some(4))
        .expect("the cell goes to a person");
    assert!(flag.detail.doubted);
}

/// Seat 4's minus column: row 1's 8 (read at 0.995, written 2) and row
/// 2's 3 (read unsure, flagged with the written 5 suggested at
/// `likely`); Gesamt 7, Endergebnis -7. Seat 1's row-2 5 is in its
/// Gesamt (7). Returns what the doubt finds.
fn doubts_beside_a_flagged_cell(likely: f64, seat_1_gesamt: u32) -> Vec<(Field, i64, f64)> {
    let (mut sheet, readings) = sheet_and_readings(reading("8", 0.995, &[]), 7);
    sheet
        .games
        .push(row(2, &[(false, 5), (false, 0), (true, 0), (true, 3)]));
    sheet.gesamt[0] = Some(Gesamt {
        plus: Some(seat_1_gesamt),
        minus: None,
    });
    let unsure = reading("3", 0.6, &[("5", 0.3)]);
    let decoded = Decoded::from_ranked(vec![(5, likely), (3, 1.0 - likely)]);
    let flag = uncertain_flag(
        Some(2),
        Some(4),
        "minus",
        &unsure,
        "c",
        Some(&decoded),
        Lang::En,
    );
    doubts_with_seat_4_footer(sheet, &readings, -7, flag)
}

/// What the doubt finds on `sheet` with seat 4's Gesamt Plus 0, Abzug 0
/// and Endergebnis `endergebnis`, decoding having raised `flag`.
fn doubts_with_seat_4_footer(
    mut sheet: SheetResult,
    readings: &CellReadings,
    endergebnis: i64,
    flag: Flag,
) -> Vec<(Field, i64, f64)> {
    if let Some(g) = sheet.gesamt[3].as_mut() {
        g.plus = Some(0);
    }
    sheet.abzug[3] = Some(0);
    sheet.endergebnis[3] = Some(endergebnis);
    let by_field: BTreeMap<Field, &FieldReading> =
        readings.fields.iter().map(|f| (f.field, f)).collect();
    let legal: HashSet<Vec<i64>> = legal_rows(&rules())
        .iter()
        .map(|r| key(r.values.iter().copied()))
        .collect();
    doubted_by_row_and_column(&sheet, &by_field, &legal, &[flag])
}

#[test]
fn a_sure_misreading_should_be_doubted_counting_its_columns_likely_suggestions() {
    // With the 5 the column is 13, 6 over its Gesamt as row 1 is 6 off.
    let doubts = doubts_beside_a_flagged_cell(0.99, 7);
    assert_eq!(doubts.len(), 1, "{doubts:?}");
    assert_eq!((doubts[0].0, doubts[0].1), (Field::Game(1, 4, true), 2));
    // With the 3 as read it is 11: 4 over, which row 1 does not explain.
    assert!(doubts_beside_a_flagged_cell(0.6, 7).is_empty());
}

#[test]
fn a_sure_misreading_should_be_doubted_beside_a_gesamt_slip_its_footer_cannot_vouch_for() {
    // Seat 1's Gesamt 13 misses its column (7) by row 1's 6 too, but
    // seat 1 has no Abzug or Endergebnis to say the column is wrong
    // rather than its Gesamt: only seat 4's cell mends both.
    let doubts = doubts_beside_a_flagged_cell(0.99, 13);
    assert_eq!(doubts.len(), 1, "{doubts:?}");
    assert_eq!(doubts[0].0, Field::Game(1, 4, true));
}

/// Row 1 with seat 4's "2" read "8" at 0.995; seat 4's Gesamt Minus
/// stands as "7", read unsure and flagged with the written 2 suggested
/// at `likely`; Gesamt Plus 0, Abzug 0, Endergebnis -2.
fn doubts_beside_an_unsure_gesamt(likely: f64) -> Vec<(Field, i64, f64)> {
    let (sheet, readings) = sheet_and_readings(reading("8", 0.995, &[]), 7);
    let unsure = reading("7", 0.5, &[("2", 0.4)]);
    let decoded = Decoded::from_ranked(vec![(2, likely), (7, 1.0 - likely)]);
    let flag = uncertain_flag(
        None,
        Some(4),
        "minus",
        &unsure,
        "g",
        Some(&decoded),
        Lang::En,
    );
    doubts_with_seat_4_footer(sheet, &readings, -2, flag)
}

#[test]
fn a_sure_misreading_should_be_doubted_beside_a_gesamt_likely_read_as_written() {
    // The footer as most probably read (Gesamt 2) is sound, and the
    // column (8) misses it by row 1's 6.
    let doubts = doubts_beside_an_unsure_gesamt(0.9);
    assert_eq!(doubts.len(), 1, "{doubts:?}");
    assert_eq!((doubts[0].0, doubts[0].1), (Field::Game(1, 4, true), 2));
    // A Gesamt the footer leaves open vouches for nothing.
    assert!(doubts_beside_an_unsure_gesamt(0.6).is_empty());
}

#[test]
fn a_reading_far_surer_than_a_writers_double_slip_is_rare_should_stay_the_verifiers() {
    let out = decode_sure_misreading(reading("8", 0.99999, &[]), -2);
    assert!(out.flags.is_empty(), "{:?}", out.flags);
}

#[test]
fn an_image_that_does_not_support_the_legal_value_is_not_changed() {
    let (sheet, readings) = sheet_and_readings(reading("8", 0.6, &[("5", 0.3)]), 2);
    let out = decode(sheet, &readings, &rules(), Lang::En);
    assert_eq!(out.flags.len(), 1, "uncertain, so a person looks");
    assert_eq!(
        out.games[0].cells[3].minus,
        Some(8),
        "no support for 2 in the image"
    );
}

/// Seat 1's footer: Gesamt Plus 10 read surely, Gesamt Minus read as
/// given over a column adding up to 2 or 8 at even odds; Abzug and
/// Endergebnis (+) read as given.
fn seat_footer(minus: Reading, abzug: Reading, endergebnis: Reading) -> SeatFooter {
    let fields = vec![
        (Field::Gesamt(1, false), reading("10", 0.999, &[])),
        (Field::Gesamt(1, true), minus),
        (Field::Abzug(1), abzug),
        (Field::Endergebnis(1), endergebnis),
    ];
    seat_1_footer(fields, [vec![(10, 1.0)], vec![(2, 0.5), (8, 0.5)]], Some(8))
}

/// Seat 1's footer decided from its fields' readings and its columns'
/// sums (plus, minus).
fn seat_1_footer(
    fields: Vec<(Field, Reading)>,
    sums: [Vec<(i64, f64)>; 2],
    endergebnis: Option<i64>,
) -> SeatFooter {
    let fields: Vec<FieldReading> = fields
        .into_iter()
        .map(|(field, reading)| FieldReading {
            field,
            reading,
            what: "f".into(),
        })
        .collect();
    let by_field: BTreeMap<Field, &FieldReading> = fields.iter().map(|f| (f.field, f)).collect();
    let [plus, minus] = sums;
    let sums: ColumnSums = BTreeMap::from([
        ((1, false), plus.into_iter().collect()),
        ((1, true), minus.into_iter().collect()),
    ]);
    let uncertain = |f: &FieldReading| f.reading.confidence < CONFIDENT;
    SeatFooter::decide(1, &by_field, &sums, endergebnis, &uncertain).expect("decided")
}

fn likely(d: &Decoded) -> (i64, f64) {
    (d.value.unwrap_or(-1), d.posterior)
}

#[test]
fn an_endergebnis_read_0_should_not_bar_its_other_readings_by_their_sign() {
    // Gesamt 104 and 64 read surely, the Endergebnis "+40" read "0"
    // (32%) with "40" (24%): a 0 has no sign, so +40 stays possible.
    let fields = vec![
        (Field::Gesamt(1, false), reading("104", 0.999, &[])),
        (Field::Gesamt(1, true), reading("64", 0.999, &[])),
        (Field::Abzug(1), reading("64", 0.999, &[])),
        (
            Field::Endergebnis(1),
            reading("0", 0.323, &[("40", 0.236), ("20", 0.183)]),
        ),
    ];
    let f = seat_1_footer(fields, [vec![(104, 1.0)], vec![(64, 1.0)]], Some(0));
    let (v, p) = likely(&f.ranked(Field::Endergebnis(1)));
    assert_eq!(v, 40, "{p}");
}

#[test]
fn an_unsure_gesamt_its_abzug_and_endergebnis_agree_with_should_stand_with_them() {
    let f = seat_footer(
        reading("2", 0.5, &[("8", 0.4)]),
        reading("2", 0.9, &[("8", 0.05)]),
        reading("8", 0.9, &[("2", 0.05)]),
    );
    for field in [
        Field::Gesamt(1, true),
        Field::Abzug(1),
        Field::Endergebnis(1),
    ] {
        let (v, p) = likely(&f.ranked(field));
        assert_eq!(v, if field == Field::Endergebnis(1) { 8 } else { 2 });
        assert!(p >= ACCEPT, "{field:?}: {p}");
    }
}

#[test]
fn an_abzug_and_endergebnis_that_disagree_should_not_settle_the_gesamt() {
    let f = seat_footer(
        reading("2", 0.5, &[("8", 0.4)]),
        reading("8", 0.9, &[("2", 0.05)]),
        reading("8", 0.9, &[("2", 0.05)]),
    );
    let (_, p) = likely(&f.ranked(Field::Gesamt(1, true)));
    assert!(p < ACCEPT, "{p}");
}

/// A Gesamt written wrong over a column the writer added up right, its
/// Abzug and Endergebnis from the column: the footer's value for it is
/// no likely suggestion while the reader does not see it there, so the
/// rule flags are judged by the Gesamt as read.
#[test]
fn a_gesamt_the_reader_does_not_see_as_the_footer_has_it_should_get_no_probable_suggestion() {
    let f = seat_footer(
        reading("5", 0.9, &[("3", 0.05)]),
        reading("2", 0.9, &[("8", 0.05)]),
        reading("8", 0.9, &[("2", 0.05)]),
    );
    let (v, p) = likely(&f.ranked(Field::Gesamt(1, true)));
    assert!(v != 2 || p < PROBABLE, "{v} at {p}");
}

#[test]
fn a_slip_should_be_usual_by_a_digit_a_tariff_step_or_two_digits_swapped() {
    for (a, b) in [
        (54, 55),
        (54, 64),
        (54, 56),
        (50, 55),
        (154, 54),
        (54, 45),
        (120, 102),
    ] {
        assert_eq!(slip(a, b), 1.0, "{a} {b}");
        assert_eq!(slip(b, a), 1.0, "{b} {a}");
    }
    for (a, b) in [(34, 54), (9, 95), (74, 42), (571, 54), (45, 504)] {
        assert_eq!(slip(a, b), ODD_SLIP, "{a} {b}");
    }
}

/// The column says 54. Read "34" (a 5 drawn like a 3), the sheet's
/// value is the probable one; read "55", a writer's slip by one is as
/// likely as the reader's doubt, and the rule flags stay the writer's.
#[test]
fn a_reading_an_odd_amount_off_should_yield_to_the_arithmetic_but_a_usual_slip_not() {
    let share = |c: &[(i64, f64)]| prob(c, 54) / fits(c, 54);
    let odd = share(&[(34, 0.6), (38, 0.2)]);
    assert!(odd >= PROBABLE, "{odd}");
    let usual = share(&[(55, 0.6), (38, 0.2)]);
    assert!(usual < PROBABLE, "{usual}");
}

/// A writer's Gesamt Minus 62 over a column of 72, both sure, the
/// Abzug worked out from the columns (66) and read so at 57%, "62" at
/// 5%: the Gesamt's 62 is no likely suggestion for the Abzug, so its
/// flag stays the writer's; read "68" (no usual slip from either), 62 is.
#[test]
fn an_abzug_worked_out_from_the_columns_should_not_be_suggested_the_gesamts() {
    let abzug_suggestion = |abzug: Reading| {
        let fields = vec![
            (Field::Gesamt(1, false), reading("66", 0.999, &[])),
            (Field::Gesamt(1, true), reading("62", 0.999, &[])),
            (Field::Abzug(1), abzug),
        ];
        let f = seat_1_footer(fields, [vec![(66, 1.0)], vec![(72, 1.0)]], None);
        likely(&f.ranked(Field::Abzug(1)))
    };
    let (v, p) = abzug_suggestion(reading("66", 0.57, &[("86", 0.22), ("62", 0.05)]));
    assert!(v != 62 || p < PROBABLE, "{v} at {p}");
    let (v, p) = abzug_suggestion(reading("68", 0.57, &[("86", 0.22), ("62", 0.05)]));
    assert_eq!(v, 62);
    assert!(p >= PROBABLE, "{p}");
}

fn ranked(values: &[(i64, f64)]) -> Decoded {
    Decoded::from_ranked(values.to_vec())
}

/// The Gesamt read as 5 or 7: the column's other open cell (3 or 5)
/// makes either sum, so no assignment of the column is sure, but with
/// both the cell is 2.
#[test]
fn a_cell_every_way_of_adding_up_its_column_agrees_on_should_stand() {
    let gesamt = [(5, 0.5), (7, 0.45)];
    let fit = |sum: i64| fits(&gesamt, sum);
    let own = ranked(&[(2, 0.99), (8, 0.01)]);
    let other = ranked(&[(3, 0.5), (5, 0.5)]);
    let p = column_marginal(0, &[&other], &own, 2, &fit);
    assert!(p >= ACCEPT, "{p}");
    // Where the column's sums are as likely with another value, it does not.
    let gesamt = [(5, 0.5), (11, 0.5)];
    let fit = |sum: i64| fits(&gesamt, sum);
    let own = ranked(&[(2, 0.6), (8, 0.4)]);
    let other = ranked(&[(3, 1.0)]);
    let p = column_marginal(0, &[&other], &own, 2, &fit);
    assert!(p < ACCEPT, "{p}");
}

#[test]
fn a_round_read_unsure_among_the_nights_rounds_should_stand_only_if_the_others_are_unlikely() {
    let d = round_reading(&[(2, 0.8), (7, 0.15), (1, 0.01)], 2);
    assert_eq!(d.value, Some(2));
    assert!(d.posterior >= ACCEPT, "{}", d.posterior);
    let d = round_reading(&[(2, 0.8), (1, 0.15)], 2);
    assert!(d.posterior < ACCEPT, "{}", d.posterior);
    // A number beyond the night's rounds is not made likely.
    let d = round_reading(&[(7, 0.8), (1, 0.05)], 2);
    assert_ne!(d.value, Some(7));
    assert!(d.posterior < ACCEPT, "{}", d.posterior);
}

#[test]
fn a_number_across_the_column_line_should_be_asked_about_however_sure() {
    let (sheet, readings) = sheet_and_readings(reading("2", 0.999, &[]), 2);
    let out = decode(sheet.clone(), &readings, &rules(), Lang::En);
    assert!(
        out.flags.is_empty(),
        "read surely, it stands: {:?}",
        out.flags
    );
    let mut readings = readings;
    readings.across_side.push(Field::Game(1, 4, true));
    let out = decode(sheet, &readings, &rules(), Lang::En);
    let asked: Vec<_> = out
        .flags
        .iter()
        .map(|f| (f.code, f.row, f.seat, f.field.as_deref()))
        .collect();
    assert_eq!(
        asked,
        vec![(Code::CellUncertain, Some(1), Some(4), Some("minus"))]
    );
    assert!(
        out.flags[0].message.contains("next column"),
        "{}",
        out.flags[0].message
    );
    assert_eq!(
        out.games[0].cells[3].minus,
        Some(2),
        "the value stays as read"
    );
}

#[test]
fn a_struck_value_read_as_a_digit_should_mark_the_cell_corrected() {
    use super::games::struck_digit_read;
    let decoded = |best: i64, p: f64| Decoded {
        value: None,
        posterior: p,
        ranked: vec![(best, p), (64, 1.0 - p)],
    };
    assert!(struck_digit_read("64", &decoded(4, 0.997)));
    assert!(struck_digit_read("120", &decoded(20, 0.995)));
    assert!(
        !struck_digit_read("64", &decoded(4, 0.9)),
        "not sure enough"
    );
    assert!(
        !struck_digit_read("64", &decoded(6, 0.999)),
        "the last digit dropped"
    );
    assert!(!struck_digit_read("4", &decoded(4, 0.999)), "as read");
    assert!(!struck_digit_read("", &decoded(4, 0.999)));
}
