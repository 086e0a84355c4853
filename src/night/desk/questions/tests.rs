use image::{GrayImage, Luma};

use super::*;
use crate::sheet::Column;

/// A cell's ink: a bar from `x0` to `x1` across a 20 × 10 box.
fn ink(x0: u32, x1: u32) -> Shape {
    let img = GrayImage::from_fn(20, 10, |x, _| {
        Luma([if (x0..x1).contains(&x) { 0 } else { 255 }])
    });
    Shape::of_ink(&img).expect("ink")
}

fn doubt(sheet: i64, no: u32, reading: &str, hand: &str, shape: Option<Shape>) -> Doubt {
    Doubt {
        sheet,
        path: ValuePath::Game {
            no,
            seat: 1,
            column: Column::Plus,
        },
        reading: reading.into(),
        confidence: 0.5,
        suggestion: None,
        hand: HandOf::Writer(hand.into()),
        shape,
        label: String::new(),
    }
}

#[test]
fn one_hands_cells_read_alike_and_shaped_alike_should_be_one_question_the_largest_first() {
    let left = || Some(ink(0, 6));
    let doubts = vec![
        doubt(1, 3, "5", "27", left()),
        doubt(1, 9, "20", "27", left()),
        doubt(2, 4, "5", "27", left()),
        doubt(2, 7, "5", "27", left()),
    ];
    let asked = ask(doubts);
    assert_eq!(asked.len(), 2);
    assert_eq!(asked[0].cells.len(), 3, "the three fives first");
    assert_eq!(asked[0].value, Some(5));
    assert_eq!(asked[1].cells.len(), 1);
}

#[test]
fn cells_of_other_hands_or_other_shapes_should_be_asked_apart() {
    let doubts = vec![
        doubt(1, 3, "5", "27", Some(ink(0, 6))),
        doubt(2, 3, "5", "99", Some(ink(0, 6))),
        doubt(1, 5, "5", "27", Some(ink(14, 20))),
    ];
    let asked = ask(doubts);
    assert_eq!(asked.len(), 3, "{asked:?}");
    assert!(asked.iter().all(|q| q.cells.len() == 1));
}

#[test]
fn every_doubt_should_be_in_exactly_one_question_and_nothing_read_alone() {
    let doubts = vec![
        doubt(1, 1, "", "27", None),
        doubt(1, 2, "", "27", None),
        doubt(1, 3, "7", "27", None),
        doubt(2, 3, "7", "27", None),
    ];
    let asked = ask(doubts);
    let mut cells: Vec<(i64, ValuePath)> = asked
        .iter()
        .flat_map(|q| q.cells.iter().map(|c| (c.sheet, c.path)))
        .collect();
    assert_eq!(cells.len(), 4);
    cells.dedup();
    assert_eq!(cells.len(), 4);
    assert_eq!(asked.len(), 3, "the blanks alone, the sevens together");
}

#[test]
fn a_questions_id_should_stay_while_its_cells_do_and_change_with_them() {
    let one = || vec![doubt(1, 3, "5", "27", None), doubt(2, 3, "5", "27", None)];
    assert_eq!(ask(one())[0].id, ask(one())[0].id);
    let mut other = one();
    other[1].reading = "6".into();
    let ids: Vec<String> = ask(other).into_iter().map(|q| q.id).collect();
    assert!(!ids.contains(&ask(one())[0].id));
}

#[test]
fn the_suggestion_most_cells_share_should_be_the_questions_value() {
    let mut doubts = vec![
        doubt(1, 1, "5", "27", None),
        doubt(1, 2, "5", "27", None),
        doubt(1, 3, "5", "27", None),
    ];
    doubts[0].suggestion = Some(3);
    doubts[1].suggestion = Some(3);
    doubts[2].suggestion = Some(8);
    assert_eq!(ask(doubts)[0].value, Some(3));
}

#[test]
fn a_void_sheet_should_ask_nothing_and_a_folded_doubt_once() {
    use crate::check::flags::{FlagDetail, Severity};
    let uncertain = Flag {
        code: Code::CellUncertain,
        severity: Severity::Warning,
        row: Some(2),
        seat: Some(1),
        field: Some("plus".into()),
        message: String::new(),
        detail: FlagDetail {
            reading: Some("5".into()),
            ..FlagDetail::default()
        },
        extra: serde_json::Map::new(),
    };
    let mut outer = uncertain.clone();
    outer.code = Code::RowNotZeroSum;
    outer.detail.consequences = vec![uncertain.clone()];
    let mut sheet = crate::sheet::example::one_row_sheet(1);
    sheet.flags = vec![uncertain, outer];
    let hand = HandOf::Sheet(1);
    assert_eq!(doubts_of(1, &sheet, &hand).len(), 1);
    sheet.notes.void = Some(crate::sheet::notes::Void {
        by: "AB".into(),
        at: "now".into(),
        reason: "x".into(),
    });
    assert!(doubts_of(1, &sheet, &hand).is_empty());
}

fn uncertain_at(seat: usize, field: &str, row: Option<u32>, reading: &str) -> Flag {
    use crate::check::flags::{FlagDetail, Severity};
    Flag {
        code: Code::CellUncertain,
        severity: Severity::Warning,
        row,
        seat: Some(seat),
        field: Some(field.into()),
        message: String::new(),
        detail: FlagDetail {
            reading: Some(reading.into()),
            suggestion: reading.parse().ok(),
            ..FlagDetail::default()
        },
        extra: serde_json::Map::new(),
    }
}

#[test]
fn an_endergebnis_should_be_asked_with_the_sign_the_sheet_holds() {
    let mut sheet = crate::sheet::example::one_row_sheet(1);
    sheet.endergebnis = vec![Some(-16), Some(16), None, None];
    sheet.flags = vec![
        uncertain_at(1, "endergebnis", None, "16"),
        uncertain_at(2, "endergebnis", None, "16"),
    ];
    let doubts = doubts_of(1, &sheet, &HandOf::Sheet(1));
    let asked: Vec<(&str, Option<i64>)> = doubts
        .iter()
        .map(|d| (d.reading.as_str(), d.suggestion))
        .collect();
    assert_eq!(asked, vec![("-16", Some(-16)), ("16", Some(16))]);
    assert_eq!(ask(doubts).len(), 2, "-16 and 16 are two answers");
}

#[test]
fn values_of_different_kinds_read_alike_should_be_asked_apart() {
    let mut sheet = crate::sheet::example::one_row_sheet(1);
    sheet.endergebnis = vec![Some(13), None, None, None];
    sheet.abzug = vec![Some(13), None, None, None];
    sheet.flags = vec![
        uncertain_at(1, "plus", Some(1), "13"),
        uncertain_at(1, "abzug", None, "13"),
        uncertain_at(1, "endergebnis", None, "13"),
    ];
    let asked = ask(doubts_of(1, &sheet, &HandOf::Sheet(1)));
    assert_eq!(asked.len(), 3, "{asked:?}");
}
