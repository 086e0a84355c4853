//! The night's participant list: every participant number on a sheet must
//! be one of the registered numbers. Nothing else on the sheet checks a
//! participant number, so without the list an unsure reading of one always
//! goes to a person.
//!
//! `SheetResult` (after `verify`) + [`Participants`] → [`Participants::check`]
//! → `SheetResult`: an unsure number the list confirms stands; one the list
//! does not hold gets a `CELL_UNCERTAIN` with the likeliest listed reading.
//! The value is never changed.

use std::collections::BTreeSet;
use std::path::Path;

use crate::catalogue::{percent, say};
use crate::check::flags::{Code, Flag, FlagDetail};
use crate::check::messages::Lang;
use crate::decode::ACCEPT;
use crate::error::ParticipantsError;
use crate::night::tournament::names::Names;
use crate::night::tournament::roster::Roster;
use crate::sheet::{PlayerNo, SheetResult, Status};

/// How sure the reader must be of a number for the list to confirm it.
/// The list weighs the mass the reader did not list as if spread over all
/// numbers, but a misread lands next to what was written: "1093" read at
/// 38% (others 1393, 1493, 1693) stood on the list, and 1593 was written
/// (held-out hQ, found once `evaluate` counted participant numbers as
/// silent errors). Of the 544 unsure numbers the list confirmed on the
/// tuning and held-out sets, 38 were read below 0.5 (that one wrong) and
/// 506 above (all right).
const LIST_CONFIRMS_FROM: f64 = 0.5;

fn reading_confidence(flag: &Flag) -> f64 {
    flag.detail.confidence.unwrap_or(0.0)
}

/// The registered participant numbers.
#[derive(Debug, Clone, Default)]
pub struct Participants {
    numbers: BTreeSet<PlayerNo>,
    names: Names,
}

impl Participants {
    /// Reads a list: a CSV with a header (`number`, `name`, ...: checked,
    /// see [`Roster`]), or one number per line.
    pub fn load(path: &Path) -> Result<Self, ParticipantsError> {
        Ok(Self::of_roster(&Roster::load(path)?))
    }

    /// The numbers of a roster.
    pub fn of_roster(roster: &Roster) -> Self {
        let numbers = roster
            .people
            .iter()
            .map(|p| PlayerNo::new(&p.number))
            .filter(|n| n.as_str() != "0")
            .collect();
        Participants {
            numbers,
            names: Names::of_roster(roster),
        }
    }

    /// The names the list gives.
    pub fn names(&self) -> &Names {
        &self.names
    }

    /// The older list, leniently: see [`Roster::numbers_only`].
    pub fn parse(text: &str) -> Self {
        Self::of_roster(&Roster::numbers_only(text))
    }

    pub fn len(&self) -> usize {
        self.numbers.len()
    }

    pub fn is_empty(&self) -> bool {
        self.numbers.is_empty()
    }

    /// The registered numbers, in order.
    pub fn numbers(&self) -> impl Iterator<Item = &PlayerNo> {
        self.numbers.iter()
    }

    pub fn contains(&self, number: &str) -> bool {
        self.numbers.contains(&PlayerNo::new(number))
    }

    /// Checks the sheet's participant numbers against the list.
    pub fn check(&self, sheet: &mut SheetResult, lang: Lang) {
        if sheet.status == Status::Unreadable || self.is_empty() {
            return;
        }
        for seat in 1..=sheet.players.len() {
            let Some(number) = sheet.players[seat - 1].clone() else {
                continue;
            };
            let at = sheet.flags.iter().position(|f| {
                f.code == Code::CellUncertain
                    && f.seat == Some(seat)
                    && f.field.as_deref() == Some("player_id")
            });
            match at {
                Some(i) => {
                    let flag = &mut sheet.flags[i];
                    match self.listed_best(flag) {
                        // The reading is the only listed number it could be,
                        // and the reader itself gave it at least even odds.
                        Some((best, p))
                            if best == number
                                && p >= ACCEPT
                                && reading_confidence(flag) >= LIST_CONFIRMS_FROM =>
                        {
                            sheet.flags.remove(i);
                        }
                        Some((best, p)) if best != number => {
                            suggest(flag, &best, p, lang);
                        }
                        _ => {}
                    }
                }
                None if !self.contains(&number) => {
                    sheet.flags.push(not_listed(seat, &number, lang));
                }
                None => {}
            }
        }
        crate::check::flags::sort(&mut sheet.flags);
        sheet.status = if sheet.flags.is_empty() {
            Status::Ok
        } else {
            Status::Flagged
        };
    }

    /// The likeliest listed number among a flag's reading and alternatives,
    /// with its probability given that the number is on the list. The mass
    /// the reader did not list is spread over all numbers of that length, of
    /// which the list holds its share.
    fn listed_best(&self, flag: &Flag) -> Option<(String, f64)> {
        let reading = flag.detail.reading.clone()?;
        let confidence = flag.detail.confidence?;
        let mut candidates = vec![(reading.clone(), confidence)];
        candidates.extend(flag.detail.alternatives.iter().cloned());
        let seen: f64 = candidates.iter().map(|c| c.1).sum();
        let unseen = (1.0 - seen).max(0.0);
        let digits = i32::try_from(reading.len().clamp(1, 6)).unwrap_or(6);
        let share = (self.len() as f64 / 10f64.powi(digits)).min(1.0);
        let listed: Vec<&(String, f64)> = candidates
            .iter()
            .filter(|(t, _)| self.contains(t))
            .collect();
        let mass: f64 = listed.iter().map(|c| c.1).sum::<f64>() + unseen * share;
        listed
            .into_iter()
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(t, p)| (t.clone(), p / mass.max(f64::MIN_POSITIVE)))
    }
}

fn suggest(flag: &mut Flag, best: &str, p: f64, lang: Lang) {
    let pct = p * 100.0;
    flag.detail.suggestion = best.parse::<i64>().ok();
    flag.detail.suggestion_probability = Some((p * 1000.0).round() / 1000.0);
    flag.message.push_str(&say(
        lang,
        "uncertain-listed",
        &[("number", &best), ("probability", &percent(pct))],
    ));
}

fn not_listed(seat: usize, number: &str, lang: Lang) -> Flag {
    Flag {
        code: Code::CellUncertain,
        severity: Code::CellUncertain.severity(),
        row: None,
        seat: Some(seat),
        field: Some("player_id".into()),
        message: say(
            lang,
            "uncertain-not-listed",
            &[("seat", &seat), ("number", &number)],
        ),
        detail: FlagDetail {
            not_in_participant_list: true,
            reading: Some(number.to_string()),
            ..FlagDetail::default()
        },
        extra: Default::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sheet_with(number: &str, uncertain: Option<(f64, &[(&str, f64)])>) -> SheetResult {
        let mut sheet = crate::sheet::example::one_row_sheet(1);
        // Only seat 1's number is under test.
        sheet.players = vec![Some(number.into()), None, None, None];
        if let Some((confidence, alts)) = uncertain {
            sheet.flags.push(Flag {
                code: Code::CellUncertain,
                severity: Code::CellUncertain.severity(),
                row: None,
                seat: Some(1),
                field: Some("player_id".into()),
                message: "Seat 1: participant number: read, please check.".into(),
                detail: FlagDetail {
                    alternatives: alts.iter().map(|(t, p)| (t.to_string(), *p)).collect(),
                    confidence: Some(confidence),
                    reading: Some(number.into()),
                    ..FlagDetail::default()
                },
                extra: Default::default(),
            });
        }
        sheet
    }

    fn id_flags(sheet: &SheetResult) -> Vec<&Flag> {
        sheet
            .flags
            .iter()
            .filter(|f| f.field.as_deref() == Some("player_id"))
            .collect()
    }

    #[test]
    fn a_list_is_read_from_lines_or_a_csv_first_column() {
        let list = Participants::parse("nr,name\n17,Huber\n0203;Maier\n\n  1727 \n");
        assert_eq!(list.len(), 3);
        assert!(list.contains("203") && list.contains("17") && list.contains("1727"));
        assert!(!list.contains("172"));
    }

    #[test]
    fn an_unsure_number_only_the_list_holds_should_stand() {
        let list = Participants::parse("1727\n500\n");
        let mut sheet = sheet_with("1727", Some((0.6, &[("177", 0.3), ("1777", 0.05)])));
        list.check(&mut sheet, Lang::En);
        assert!(id_flags(&sheet).is_empty(), "{:?}", sheet.flags);
        assert_eq!(sheet.players[0].as_deref(), Some("1727"));
    }

    #[test]
    fn an_unsure_number_not_listed_should_get_the_listed_suggestion() {
        let list = Participants::parse("1727\n500\n");
        let mut sheet = sheet_with("177", Some((0.6, &[("1727", 0.3)])));
        list.check(&mut sheet, Lang::En);
        let flags = id_flags(&sheet);
        assert_eq!(flags.len(), 1);
        assert_eq!(flags[0].detail.suggestion, Some(1727));
        assert!(
            flags[0].message.contains("more likely 1727"),
            "{}",
            flags[0].message
        );
        assert_eq!(
            sheet.players[0].as_deref(),
            Some("177"),
            "the value stays as read"
        );
    }

    #[test]
    fn a_number_read_at_worse_than_even_odds_should_not_stand_on_the_list_alone() {
        // Only the reading is listed, but the reader gave it 38%: what was
        // written may be a listed neighbour the reader did not name.
        let list = Participants::parse("1093\n1593\n");
        let alts: &[(&str, f64)] = &[("1393", 0.171), ("1493", 0.132), ("1693", 0.124)];
        let mut sheet = sheet_with("1093", Some((0.384, alts)));
        list.check(&mut sheet, Lang::En);
        assert_eq!(id_flags(&sheet).len(), 1, "{:?}", sheet.flags);
        let mut sheet = sheet_with("1093", Some((0.6, alts)));
        list.check(&mut sheet, Lang::En);
        assert!(id_flags(&sheet).is_empty(), "{:?}", sheet.flags);
    }

    #[test]
    fn two_listed_candidates_should_leave_the_number_to_a_person() {
        let list = Participants::parse("1727\n177\n");
        let mut sheet = sheet_with("1727", Some((0.6, &[("177", 0.3)])));
        list.check(&mut sheet, Lang::En);
        assert_eq!(id_flags(&sheet).len(), 1);
    }

    #[test]
    fn a_sure_number_not_listed_should_be_flagged() {
        let list = Participants::parse("1727\n");
        let mut sheet = sheet_with("177", None);
        list.check(&mut sheet, Lang::En);
        let flags = id_flags(&sheet);
        assert_eq!(flags.len(), 1, "{:?}", sheet.flags);
        assert!(flags[0].message.contains("not in the participant list"));
        assert_eq!(sheet.status, Status::Flagged);
    }
}
