//! The night's sheets against its draw: every drawn table must come back
//! as a sheet, and each sheet must seat the players the draw seated there,
//! in the drawn seats ("Tisch- oder Platztausch ist nicht gestattet").

use crate::catalogue::say;
use crate::check::messages::Lang;
use crate::night::tournament::checks::{NightCheck, NightCheckKind, sheet_name};
use crate::night::tournament::seating::Seating;
use crate::sheet::PlayerNo;
use crate::sheet::{SheetResult, Status};

/// The checks of `sheets` (with their fallback names) against `seating`.
pub fn seating_checks(
    seating: &Seating,
    sheets: &[(String, SheetResult)],
    lang: Lang,
) -> Vec<NightCheck> {
    let mut checks = Vec::new();
    let read: Vec<&(String, SheetResult)> = sheets
        .iter()
        .filter(|(_, s)| s.status != Status::Unreadable)
        .collect();
    for (r, tables) in seating.rounds.iter().enumerate() {
        for (t, seated) in tables.iter().enumerate() {
            let (round, table) = (r as u32 + 1, t as u32 + 1);
            let here: Vec<&&(String, SheetResult)> = read
                .iter()
                .filter(|(_, s)| s.round == Some(round) && s.table == Some(table))
                .collect();
            if here.is_empty() {
                checks.push(NightCheck {
                    kind: NightCheckKind::TableWithoutSheet,
                    sheets: Vec::new(),
                    message: say(
                        lang,
                        "check-table-without-sheet",
                        &[
                            ("round", &round),
                            ("table", &table),
                            ("players", &seated.join(", ")),
                        ],
                    ),
                });
            }
            for (fallback, sheet) in here {
                if !seats_match(seated, &sheet.players) {
                    checks.push(differs(sheet, fallback, seated, lang));
                }
            }
        }
    }
    for (fallback, sheet) in &read {
        let drawn = match (sheet.round, sheet.table) {
            (Some(r), Some(t)) => (r as usize)
                .checked_sub(1)
                .and_then(|r| seating.rounds.get(r))
                .zip((t as usize).checked_sub(1))
                .and_then(|(tables, t)| tables.get(t))
                .is_some(),
            _ => true,
        };
        if !drawn {
            checks.push(differs(sheet, fallback, &[], lang));
        }
    }
    checks
}

/// Whether each seat holds the drawn player (leading zeros aside); a seat
/// the draw left empty must be empty on the sheet.
fn seats_match(seated: &[String], on_sheet: &[Option<String>]) -> bool {
    let len = seated.len().max(on_sheet.len());
    (0..len).all(
        |i| match (seated.get(i), on_sheet.get(i).cloned().flatten()) {
            (Some(a), Some(b)) => PlayerNo::new(a) == *b.as_str(),
            (None, None) => true,
            _ => false,
        },
    )
}

fn differs(sheet: &SheetResult, fallback: &str, seated: &[String], lang: Lang) -> NightCheck {
    let name = sheet_name(sheet, fallback);
    let on_sheet: Vec<String> = sheet
        .players
        .iter()
        .map(|p| p.clone().unwrap_or_else(|| "?".into()))
        .collect();
    let drawn = if seated.is_empty() {
        say(lang, "check-not-drawn", &[])
    } else {
        seated.join(", ")
    };
    NightCheck {
        kind: NightCheckKind::SeatingDiffers,
        message: say(
            lang,
            "check-seating-differs",
            &[
                ("sheet", &name),
                ("round", &sheet.round.map_or("?".into(), |r| r.to_string())),
                ("table", &sheet.table.map_or("?".into(), |t| t.to_string())),
                ("read", &on_sheet.join(", ")),
                ("drawn", &drawn),
            ],
        ),
        sheets: vec![name],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sheet::example::one_row_sheet;

    fn sheet(round: u32, table: u32, players: &[&str]) -> (String, SheetResult) {
        let mut s = one_row_sheet(1);
        s.round = Some(round);
        s.table = Some(table);
        s.players = players.iter().map(|p| Some(p.to_string())).collect();
        (format!("r{round}t{table}.json"), s)
    }

    fn seating() -> Seating {
        let t = |p: [&str; 4]| p.map(String::from).to_vec();
        Seating {
            rounds: vec![
                vec![t(["1", "2", "3", "4"]), t(["5", "6", "7", "8"])],
                vec![t(["1", "5", "2", "6"]), t(["3", "7", "4", "8"])],
            ],
        }
    }

    #[test]
    fn sheets_as_drawn_should_raise_nothing() {
        let sheets = [
            sheet(1, 1, &["1", "2", "3", "04"]),
            sheet(1, 2, &["5", "6", "7", "8"]),
            sheet(2, 1, &["1", "5", "2", "6"]),
            sheet(2, 2, &["3", "7", "4", "8"]),
        ];
        assert!(seating_checks(&seating(), &sheets, Lang::En).is_empty());
    }

    #[test]
    fn a_missing_table_a_seat_swap_and_an_undrawn_table_should_be_named() {
        let sheets = [
            sheet(1, 1, &["1", "2", "4", "3"]),
            sheet(1, 2, &["5", "6", "7", "8"]),
            sheet(2, 1, &["1", "5", "2", "6"]),
            sheet(2, 3, &["3", "7", "4", "8"]),
            sheet(0, 0, &["1", "2", "3", "4"]),
        ];
        let checks = seating_checks(&seating(), &sheets, Lang::En);
        let kinds: Vec<NightCheckKind> = checks.iter().map(|c| c.kind).collect();
        assert_eq!(
            kinds,
            [
                NightCheckKind::SeatingDiffers,
                NightCheckKind::TableWithoutSheet,
                NightCheckKind::SeatingDiffers,
                NightCheckKind::SeatingDiffers
            ]
        );
        assert_eq!(checks[0].sheets, ["r1t1.json"]);
        assert!(
            checks[1].message.contains("3, 7, 4, 8"),
            "{}",
            checks[1].message
        );
        assert_eq!(checks[2].sheets, ["r2t3.json"]);
    }
}
