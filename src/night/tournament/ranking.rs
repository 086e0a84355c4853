//! The night's one ranking: what `standings` prints and what the desk shows
//! on its standings pages and in their CSV. Every sheet is verified again
//! with the night's rules before it is ranked: a stored or corrected result
//! does not carry each row's kind of game, and the tie-breaks count solos
//! and touts from it.

use crate::check::messages::Lang;
use crate::check::rules::RuleSet;
use crate::check::verify::verify;
use crate::error::SheetError;
use crate::night::tournament::checks::sheet_name;
use crate::night::tournament::participants::Participants;
use crate::night::tournament::seated::seating_checks;
use crate::night::tournament::seating::Seating;
use crate::night::tournament::standings::{Standings, standings};
use crate::record::stand::counted;
use crate::sheet::SheetResult;

/// What a night is ranked under.
#[derive(Clone, Copy)]
pub struct NightRules<'a> {
    pub rules: &'a RuleSet,
    /// The registered list: unregistered numbers and absent players become checks.
    pub participants: Option<&'a Participants>,
    /// The draw: tables without a sheet and sheets not seated as drawn become checks.
    pub seating: Option<&'a Seating>,
}

impl<'a> NightRules<'a> {
    /// A night known by its rule set alone (no list, no draw).
    pub fn of(rules: &'a RuleSet) -> Self {
        NightRules {
            rules,
            participants: None,
            seating: None,
        }
    }
}

/// A ranked night.
pub struct Ranking {
    pub standings: Standings,
    /// The sheets as ranked (verified again), with their fallback names.
    pub sheets: Vec<(String, SheetResult)>,
    /// Sheets the rules cannot verify (ranked as they were), with why.
    pub unverified: Vec<(String, SheetError)>,
}

/// Ranks `sheets` (fallback name, sheet as it stands) under `night`, each
/// as it counts: where the Leitung decided what counts, that value.
pub fn rank(sheets: Vec<(String, SheetResult)>, night: NightRules, lang: Lang) -> Ranking {
    let mut unverified = Vec::new();
    let sheets: Vec<(String, SheetResult)> = sheets
        .into_iter()
        .map(|(name, sheet)| (name, counted(&sheet)))
        .map(
            |(name, sheet)| match verify(sheet.clone(), night.rules, lang) {
                Ok(checked) => (name, checked),
                Err(e) => {
                    unverified.push((name.clone(), e));
                    (name, sheet)
                }
            },
        )
        .collect();
    let mut table = standings(&sheets, night.rules, night.participants, lang);
    if let Some(seating) = night.seating {
        // A sheet declared invalid is its table's, but no check speaks of it.
        let void: Vec<String> = sheets
            .iter()
            .filter(|(_, s)| s.notes.void.is_some())
            .map(|(name, s)| sheet_name(s, name))
            .collect();
        // A sheet taken out of the night (sent by mistake, a copy, another
        // game's) holds no table: the draw's table still waits for its sheet.
        let counting = crate::record::counts::night(sheets.iter().map(|(_, s)| s));
        let counted: Vec<(String, SheetResult)> = (sheets.iter().zip(counting))
            .filter(|(_, how)| how.holds_table())
            .map(|(s, _)| s.clone())
            .collect();
        let checks = seating_checks(seating, &counted, lang);
        table.checks.extend(
            checks
                .into_iter()
                .filter(|c| !c.sheets.iter().any(|n| void.contains(n))),
        );
        table.checks.sort();
    }
    Ranking {
        standings: table,
        sheets,
        unverified,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sheet::{Cell, GameRow, finished_sheet};

    fn solo_row(no: u32, soloist: usize, units: u32, won: bool) -> GameRow {
        let cells = (0..4)
            .map(|s| match (s == soloist, won) {
                (true, true) => Cell::plus(3 * units),
                (true, false) => Cell::minus(3 * units),
                (false, true) => Cell::minus(units),
                (false, false) => Cell::plus(units),
            })
            .collect();
        GameRow {
            no,
            cells,
            initials: units == 8,
            class: None,
            extra: Default::default(),
        }
    }

    #[test]
    fn a_result_as_stored_should_rank_by_its_tie_breaks() {
        let rules = RuleSet::load("merkur").expect("merkur");
        let players = ["1", "2", "3", "4"].map(|p| Some(p.to_string())).to_vec();
        // Seats 1 and 2 end level (+16): seat 1 won a tout, seat 2 two solos.
        let games = vec![
            solo_row(2, 0, 8, true),
            solo_row(3, 1, 4, true),
            solo_row(4, 1, 4, true),
        ];
        let mut sheet = finished_sheet("merkur", games, players);
        sheet.source = Some("t1.png".into());
        // As the archive gives it back: parsed from its JSON, without each row's kind.
        let stored = SheetResult::from_json("stored", &sheet.to_json_pretty()).expect("parse");
        let night = NightRules {
            rules: &rules,
            participants: None,
            seating: None,
        };
        let ranked = rank(vec![("t1.json".into(), stored)], night, Lang::En);
        let line = |p: &str| {
            ranked
                .standings
                .players
                .iter()
                .find(|l| l.player == p)
                .expect("listed")
        };
        assert_eq!(line("1").total, line("2").total);
        assert_eq!(line("1").tie_breaks, vec![1, 1, 1, 1]);
        assert_eq!((line("1").rank, line("2").rank), (1, 2));
        assert!(ranked.unverified.is_empty());
    }

    #[test]
    fn a_discarded_sheet_should_hold_no_table_of_the_draw() {
        use crate::night::tournament::checks::NightCheckKind;
        use crate::night::tournament::seating::Seating;
        let rules = RuleSet::load("merkur").expect("merkur");
        let players = ["1", "2", "3", "4"].map(|p| Some(p.to_string())).to_vec();
        let mut sheet = finished_sheet("merkur", vec![solo_row(1, 0, 4, true)], players);
        (sheet.round, sheet.table) = (Some(1), Some(1));
        let seating = Seating {
            rounds: vec![vec![["1", "2", "3", "4"].map(String::from).to_vec()]],
        };
        let kinds = |sheet: &SheetResult| -> Vec<NightCheckKind> {
            let night = NightRules {
                rules: &rules,
                participants: None,
                seating: Some(&seating),
            };
            let ranked = rank(vec![("t1.json".into(), sheet.clone())], night, Lang::En);
            ranked.standings.checks.iter().map(|c| c.kind).collect()
        };
        assert!(!kinds(&sheet).contains(&NightCheckKind::TableWithoutSheet));
        sheet.notes.discarded = Some(crate::sheet::notes::Void {
            by: "AB".into(),
            at: "now".into(),
            reason: "sent by mistake".into(),
        });
        assert!(kinds(&sheet).contains(&NightCheckKind::TableWithoutSheet));
    }
}
