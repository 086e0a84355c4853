//! Property tests: random legal sheets of every rule set give no flags, and
//! every single change of one value is flagged where it was made.

use crate::common::{all_tables, legal_sheet};
use aufsicht::sheet::{Cell, SheetResult};
use aufsicht::{Code, Lang, RuleSet, verify};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

fn check(rules: &RuleSet, sheet: SheetResult) -> SheetResult {
    verify(sheet, rules, Lang::En).expect("a well-formed sheet")
}

fn codes(sheet: &SheetResult) -> Vec<String> {
    sheet
        .flags
        .iter()
        .map(|f| {
            format!(
                "{} row {:?} seat {:?}: {}",
                f.code.as_str(),
                f.row,
                f.seat,
                f.message
            )
        })
        .collect()
}

fn runner(cases: u32) -> TestRunner {
    TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    })
}

#[test]
fn legal_sheets_of_every_rule_set_should_have_no_flags() {
    for (rules, table, seats) in all_tables() {
        let label = format!("{} at {} players", rules.id, table.players);
        runner(200)
            .run(&legal_sheet(rules, table, seats), |(rules, sheet)| {
                let checked = check(&rules, sheet);
                prop_assert!(checked.flags.is_empty(), "{label}: {:#?}", codes(&checked));
                prop_assert_eq!(checked.status, aufsicht::Status::Ok);
                Ok(())
            })
            .unwrap_or_else(|e| panic!("{e}"));
    }
}

/// One change to one value on the paper.
#[derive(Debug, Clone)]
enum Change {
    /// A game cell's number replaced by another number.
    Digit { row: usize, seat: usize, to: u32 },
    /// A game cell's number written in the other column.
    Side { row: usize, seat: usize },
    /// A number added to the column that should stay blank.
    Both { row: usize, seat: usize, to: u32 },
    /// A game cell left blank.
    Blank { row: usize, seat: usize },
    /// A footer value off by `by` (Gesamt plus/minus, Abzug, Endergebnis).
    Footer { seat: usize, which: usize, by: i64 },
}

fn change() -> impl Strategy<Value = Change> {
    prop_oneof![
        (0usize..40, 0usize..5, 0u32..40).prop_map(|(row, seat, to)| Change::Digit {
            row,
            seat,
            to
        }),
        (0usize..40, 0usize..5).prop_map(|(row, seat)| Change::Side { row, seat }),
        (0usize..40, 0usize..5, 0u32..40).prop_map(|(row, seat, to)| Change::Both {
            row,
            seat,
            to
        }),
        (0usize..40, 0usize..5).prop_map(|(row, seat)| Change::Blank { row, seat }),
        (
            0usize..5,
            0usize..4,
            prop_oneof![Just(1i64), Just(-1), -30i64..30]
        )
            .prop_map(|(seat, which, by)| Change::Footer { seat, which, by }),
    ]
}

/// Applies a change that alters what the paper says. Returns where it must be
/// pointed at (`Some(row)` for a game cell, `None` for a footer of `seat`) and
/// the flag it must raise; `Err(())` when the change is not a real change (skipped).
fn apply(
    sheet: &mut SheetResult,
    players: usize,
    change: &Change,
) -> Result<(Option<u32>, usize, Code), ()> {
    match *change {
        Change::Digit { row, seat, to } | Change::Both { row, seat, to } => {
            let seat = seat % players;
            let n = sheet.games.len();
            let g = &mut sheet.games[row % n];
            let cell: &mut Cell = &mut g.cells[seat];
            if matches!(change, Change::Both { .. }) {
                match (cell.plus, cell.minus) {
                    (Some(_), None) => cell.minus = Some(to),
                    (None, Some(_)) => cell.plus = Some(to),
                    _ => return Err(()),
                }
            } else {
                let slot = if cell.plus.is_some() {
                    &mut cell.plus
                } else {
                    &mut cell.minus
                };
                // Writing 0 into the empty cell of the seat sitting out changes nothing.
                if *slot == Some(to) || (slot.is_none() && to == 0) {
                    return Err(());
                }
                *slot = Some(to);
            }
            let code = if matches!(change, Change::Both { .. }) {
                Code::RowSeatBoth
            } else {
                Code::RowNotZeroSum
            };
            Ok((Some(g.no), seat, code))
        }
        Change::Side { row, seat } => {
            let seat = seat % players;
            let n = sheet.games.len();
            let g = &mut sheet.games[row % n];
            let cell = &mut g.cells[seat];
            match (cell.plus, cell.minus) {
                (Some(v), None) if v > 0 => (cell.plus, cell.minus) = (None, Some(v)),
                (None, Some(v)) if v > 0 => (cell.plus, cell.minus) = (Some(v), None),
                _ => return Err(()),
            }
            Ok((Some(g.no), seat, Code::RowNotZeroSum))
        }
        Change::Blank { row, seat } => {
            let seat = seat % players;
            let n = sheet.games.len();
            let g = &mut sheet.games[row % n];
            let cell = &mut g.cells[seat];
            if cell.value().is_none_or(|v| v == 0) {
                return Err(());
            }
            (cell.plus, cell.minus) = (None, None);
            Ok((Some(g.no), seat, Code::RowSeatEmpty))
        }
        Change::Footer { seat, which, by } => {
            let seat = seat % players;
            if by == 0 {
                return Err(());
            }
            let shift = |v: &mut Option<u32>| -> Result<(), ()> {
                let new = i64::from(v.unwrap_or(0)) + by;
                *v = Some(u32::try_from(new).map_err(|_| ())?);
                Ok(())
            };
            let g = sheet.gesamt[seat].as_mut().ok_or(())?;
            let code = match which {
                0 => {
                    shift(&mut g.plus)?;
                    Code::GesamtMismatch
                }
                1 => {
                    shift(&mut g.minus)?;
                    Code::GesamtMismatch
                }
                2 => {
                    shift(&mut sheet.abzug[seat])?;
                    Code::AbzugMismatch
                }
                _ => {
                    sheet.endergebnis[seat] = sheet.endergebnis[seat].map(|v| v + by);
                    Code::EndergebnisMismatch
                }
            };
            Ok((None, seat, code))
        }
    }
}

#[test]
fn every_single_change_should_be_flagged_at_its_row_or_seat() {
    for (rules, table, seats) in all_tables() {
        let players = table.players;
        let label = format!("{} at {} players", rules.id, players);
        let strategy = (legal_sheet(rules, table, seats), change());
        let applied = std::cell::Cell::new(0);
        runner(400)
            .run(&strategy, |((rules, mut sheet), change)| {
                let applied_here = apply(&mut sheet, players, &change);
                prop_assume!(applied_here.is_ok(), "not a change of what is written");
                let Ok((row, seat, code)) = applied_here else {
                    unreachable!("assumed")
                };
                applied.set(applied.get() + 1);
                let checked = check(&rules, sheet);
                let pointed = checked.flags.iter().any(|f| {
                    f.code == code
                        && match row {
                            Some(r) => f.points_at_row(r),
                            None => f.points_at_footer(seat + 1),
                        }
                });
                prop_assert!(
                    pointed,
                    "{label}: {change:?} (row {row:?}, seat {}) not flagged {code:?}; flags: {:#?}",
                    seat + 1,
                    codes(&checked)
                );
                Ok(())
            })
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(
            applied.get() >= 400,
            "{label}: {} changes applied",
            applied.get()
        );
    }
}

/// Marks on the paper other than numbers: circles, initials, signatures, ids, rows.
#[test]
fn missing_marks_should_get_their_flag() {
    for (rules, table, seats) in all_tables() {
        let players = table.players;
        let label = format!("{} at {} players", rules.id, players);
        let strategy = (
            legal_sheet(rules, table, seats),
            0usize..40,
            0usize..5,
            0usize..5,
        );
        runner(150)
            .run(&strategy, |((rules, sheet), row, seat, kind)| {
                let mut sheet = sheet;
                let seat = seat % players;
                let r = row % sheet.games.len();
                let no = sheet.games[r].no;
                let penalty_loss =
                    rules.id == "doppelkopf" && sheet.games[r].cells[seat].minus == Some(15);
                let expect: (Code, Option<u32>, Option<usize>) = match kind {
                    0 => {
                        sheet.signatures[seat] = false;
                        (Code::SignatureMissing, None, Some(seat + 1))
                    }
                    1 => {
                        sheet.players[seat] = None;
                        (Code::PlayerIdMissing, None, Some(seat + 1))
                    }
                    2 => {
                        sheet.games[r].initials = false;
                        sheet.games[r].cells[seat].corrected = true;
                        (Code::CorrectionNotInitialled, Some(no), Some(seat + 1))
                    }
                    3 => {
                        // A circle added where none belongs.
                        let cell = &mut sheet.games[r].cells[seat];
                        prop_assume!(!cell.circled && !cell.is_empty(), "a circle to add");
                        cell.circled = true;
                        (Code::CircleNotSolo, Some(no), Some(seat + 1))
                    }
                    _ => {
                        let counted = check(&rules, sheet.clone()).games[r]
                            .class
                            .as_ref()
                            .is_none_or(|c| c.counts_as_game);
                        let row = sheet.games.remove(r);
                        if counted {
                            (Code::GameCount, None, None)
                        } else {
                            // A penalty row is not a game: its loss shows in the Gesamt.
                            let violator = row.cells.iter().position(|c| c.minus == Some(15));
                            (Code::GesamtMismatch, None, violator.map(|s| s + 1))
                        }
                    }
                };
                let checked = check(&rules, sheet);
                let found = checked
                    .flags
                    .iter()
                    .any(|f| (f.code, f.row, f.seat) == expect);
                // A circle on the -15 of a Doppelkopf penalty row makes it a lost solo (k = 5):
                // then the change shows as a circle mismatch elsewhere or a game count.
                let reread = kind == 3 && penalty_loss && !checked.flags.is_empty();
                prop_assert!(
                    found || reread,
                    "{label}: expected {expect:?}, got {:#?}",
                    codes(&checked)
                );
                Ok(())
            })
            .unwrap_or_else(|e| panic!("{e}"));
    }
}

/// Solo circles and tout initials removed.
#[test]
fn solo_marks_removed_should_be_flagged() {
    for (rules, table, seats) in all_tables() {
        let label = format!("{} at {} players", rules.id, table.players);
        runner(100)
            .run(&legal_sheet(rules, table, seats), |(rules, sheet)| {
                let base = check(&rules, sheet.clone());
                for (i, g) in base.games.iter().enumerate() {
                    let Some(class) = &g.class else { continue };
                    if let (true, Some(s)) = (class.solo, class.soloist) {
                        let mut changed = sheet.clone();
                        changed.games[i].cells[s - 1].circled = false;
                        let out = check(&rules, changed);
                        let at_row = out.flags.iter().any(|f| {
                            f.code == Code::SoloNotCircled
                                && f.row == Some(g.no)
                                && f.seat == Some(s)
                        });
                        // Doppelkopf: an uncircled lost solo of k = 5 reads as a penalty row,
                        // which does not count as a game.
                        let as_penalty =
                            class.k == 5 && class.won == Some(false) && !out.flags.is_empty();
                        prop_assert!(
                            at_row || as_penalty,
                            "{label}: row {} circle removed: {:#?}",
                            g.no,
                            codes(&out)
                        );
                    }
                    // With Laufende a tout's numbers are also a solo with Laufende, which needs no initials.
                    if class.tout && rules.laufende.is_none() {
                        let mut changed = sheet.clone();
                        changed.games[i].initials = false;
                        let out = check(&rules, changed);
                        prop_assert!(
                            out.flags
                                .iter()
                                .any(|f| f.code == Code::ToutNotInitialled && f.row == Some(g.no)),
                            "{label}: row {} initials removed: {:#?}",
                            g.no,
                            codes(&out)
                        );
                    }
                }
                Ok(())
            })
            .unwrap_or_else(|e| panic!("{e}"));
    }
}

fn any_cell() -> impl Strategy<Value = Cell> {
    (
        prop::option::of(prop_oneof![0u32..40, Just(u32::MAX), any::<u32>()]),
        prop::option::of(prop_oneof![0u32..40, Just(u32::MAX)]),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(plus, minus, circled, corrected)| Cell {
            plus,
            minus,
            circled,
            corrected,
            ..Cell::default()
        })
}

/// Any sheet of any shape the JSON schema admits, with any rule set: `verify`
/// returns a result or a typed error, never panics.
#[test]
fn arbitrary_sheets_should_never_panic() {
    use aufsicht::sheet::{GameRow, Gesamt, SCHEMA, Status};
    let ids: Vec<&str> = aufsicht::check::rules::builtin_ids().collect();
    let strategy = (2usize..7, 0usize..ids.len()).prop_flat_map(|(seats, rules)| {
        (
            Just(rules),
            prop::collection::vec(
                (
                    1u32..40,
                    prop::collection::vec(any_cell(), seats),
                    any::<bool>(),
                ),
                0..40,
            ),
            prop::collection::vec(
                prop::option::of((prop::option::of(any::<u32>()), prop::option::of(0u32..500))),
                seats,
            ),
            prop::collection::vec(prop::option::of(any::<u32>()), seats),
            prop::collection::vec(prop::option::of(any::<i64>()), seats),
            prop::collection::vec(any::<bool>(), seats),
            prop::collection::vec(prop::option::of("[0-9]{1,4}"), seats),
        )
    });
    runner(500)
        .run(
            &strategy,
            |(rules, rows, gesamt, abzug, endergebnis, signatures, players)| {
                let rules = RuleSet::load(ids[rules]).expect("builtin");
                let mut seen = std::collections::BTreeSet::new();
                let games = rows
                    .into_iter()
                    .filter(|(no, _, _)| seen.insert(*no))
                    .map(|(no, cells, initials)| GameRow {
                        no,
                        cells,
                        initials,
                        class: None,
                        extra: Default::default(),
                    })
                    .collect();
                let sheet = SheetResult {
                    schema: SCHEMA.into(),
                    source: None,
                    page: None,
                    form: None,
                    rules: None,
                    status: Status::Ok,
                    round: None,
                    table: None,
                    players,
                    games,
                    gesamt: gesamt
                        .into_iter()
                        .map(|g| g.map(|(plus, minus)| Gesamt { plus, minus }))
                        .collect(),
                    abzug,
                    endergebnis,
                    signatures,
                    flags: Vec::new(),
                    notes: Default::default(),
                    extra: Default::default(),
                };
                let _ = verify(sheet, &rules, Lang::De);
                Ok(())
            },
        )
        .unwrap_or_else(|e| panic!("{e}"));
}
