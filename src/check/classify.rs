//! Game classification: which legal tariff pattern a row of four values fits.
//!
//! A row is matched against every tariff of the rule set. Several patterns
//! can fit the same numbers (a Doppelkopf penalty and a lost solo of k = 5;
//! with Laufende a solo and a tout); the circles and the supervisor's
//! initials on the paper choose between them, never the other way round.

use serde::{Deserialize, Serialize};

use crate::check::rules::{RuleSet, Shape, Tariff};

/// What kind of game a row is: an extra field of each game row in the result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameClass {
    /// The tariff's kind: `rufspiel`, `solo`, `normal`, `penalty`, ...
    pub kind: String,
    /// The tariff line, as the rule set names it ("Solo/Wenz Schneider").
    pub name: String,
    /// The unit k of the game, Laufende included.
    pub k: u32,
    #[serde(skip_serializing_if = "is_zero", default)]
    pub laufende: u32,
    pub solo: bool,
    pub tout: bool,
    pub sie: bool,
    pub tags: Vec<String>,
    /// Seat (from 1) of the soloist, or of the violator in a penalty row.
    pub soloist: Option<usize>,
    /// Won or lost, for the soloist; null for partner games.
    pub won: Option<bool>,
    /// Seats (from 1) written in their plus column.
    pub winners: Vec<usize>,
    /// Seed 001 "ohne Laufende": the seat that alone got the Laufende points.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub caller_alone: Option<usize>,
    /// Seat sitting out (5-player Doppelkopf tables).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub sitting_out: Option<usize>,
    pub counts_as_game: bool,
}

fn is_zero(v: &u32) -> bool {
    *v == 0
}

/// One way a row fits a tariff. Seats are 0-based here.
#[derive(Debug, Clone)]
pub struct Candidate<'r> {
    pub tariff: &'r Tariff,
    pub order: usize,
    pub k: u32,
    pub laufende: u32,
    pub soloist: Option<usize>,
    pub won: Option<bool>,
    pub caller_alone: Option<usize>,
    pub sitting_out: Option<usize>,
}

impl Candidate<'_> {
    pub fn to_class(&self, values: &[(usize, i64)]) -> GameClass {
        let t = self.tariff;
        GameClass {
            kind: t.kind.clone(),
            name: t.name.clone(),
            k: self.k,
            laufende: self.laufende,
            solo: t.has_tag("solo"),
            tout: t.has_tag("tout"),
            sie: t.has_tag("sie"),
            tags: t.tags.clone(),
            soloist: self.soloist.map(|s| s + 1),
            won: self.won,
            winners: values
                .iter()
                .filter(|(_, v)| *v > 0)
                .map(|(s, _)| s + 1)
                .collect(),
            caller_alone: self.caller_alone.map(|s| s + 1),
            sitting_out: self.sitting_out.map(|s| s + 1),
            counts_as_game: t.counts_as_game,
        }
    }

    /// The seat whose value should be circled, if any.
    pub fn circled_seat(&self) -> Option<usize> {
        if self.tariff.expects_circle() {
            self.soloist
        } else {
            None
        }
    }
}

/// Every legal reading of four playing seats' values `(seat, value)`.
/// `circled` gives, per seat, whether its value is circled (it picks the
/// soloist of an all-zero solo).
pub fn candidates<'r>(
    rules: &'r RuleSet,
    values: &[(usize, i64)],
    circled: &dyn Fn(usize) -> bool,
) -> Vec<Candidate<'r>> {
    let mut out = Vec::new();
    if values.len() != 4 {
        return out;
    }
    for (order, tariff) in rules.tariffs.iter().enumerate() {
        let unit_ok = |k: i64| -> Option<(u32, u32)> {
            let k = u32::try_from(k).ok()?;
            laufende_split(rules, tariff, k)
        };
        let base = Candidate {
            tariff,
            order,
            k: 0,
            laufende: 0,
            soloist: None,
            won: None,
            caller_alone: None,
            sitting_out: None,
        };
        match tariff.shape {
            Shape::Partner => {
                if let Some(k) = partner_unit(values)
                    && let Some((k, l)) = unit_ok(k)
                {
                    out.push(Candidate {
                        k,
                        laufende: l,
                        ..base.clone()
                    });
                }
                if let Some(c) = caller_alone(rules, tariff, values) {
                    out.push(Candidate {
                        k: c.0,
                        laufende: c.1,
                        caller_alone: Some(c.2),
                        won: Some(c.3),
                        ..base.clone()
                    });
                }
            }
            Shape::Solo => {
                for (soloist, k, won) in solo_readings(values, circled) {
                    if !tariff.allows(won) {
                        continue;
                    }
                    if let Some((k, l)) = unit_ok(k) {
                        out.push(Candidate {
                            k,
                            laufende: l,
                            soloist: Some(soloist),
                            won: Some(won),
                            ..base.clone()
                        });
                    }
                }
            }
        }
    }
    out
}

/// `k` as base unit plus Laufende, when the tariff allows it (fewest Laufende first).
fn laufende_split(rules: &RuleSet, tariff: &Tariff, k: u32) -> Option<(u32, u32)> {
    match (&rules.laufende, tariff.laufende) {
        (Some(l), true) => l
            .counts()
            .filter(|&n| n <= k)
            .find(|&n| tariff.has_base_unit(k - n))
            .map(|n| (k, n)),
        _ => tariff.has_base_unit(k).then_some((k, 0)),
    }
}

/// `{+k,+k,-k,-k}` in any order: k.
fn partner_unit(values: &[(usize, i64)]) -> Option<i64> {
    let k = values.iter().map(|(_, v)| v.abs()).max()?;
    let plus = values.iter().filter(|(_, v)| *v == k).count();
    let minus = values.iter().filter(|(_, v)| *v == -k).count();
    if k == 0 || (plus == 2 && minus == 2) {
        Some(k)
    } else {
        None
    }
}

/// One seat `±3k`, the other three `∓k`: (soloist, k, won).
fn solo_readings(
    values: &[(usize, i64)],
    circled: &dyn Fn(usize) -> bool,
) -> Vec<(usize, i64, bool)> {
    if values.iter().all(|(_, v)| *v == 0) {
        // A solo of k = 0: only a circle can say who played it.
        let circled: Vec<usize> = values
            .iter()
            .map(|(s, _)| *s)
            .filter(|&s| circled(s))
            .collect();
        return match circled.as_slice() {
            [s] => vec![(*s, 0, true)],
            _ => Vec::new(),
        };
    }
    let mut out = Vec::new();
    for &(s, v) in values {
        if v == 0 || v % 3 != 0 {
            continue;
        }
        let k = v.abs() / 3;
        let others = -v.signum() * k;
        if values.iter().all(|&(o, w)| o == s || w == others) {
            out.push((s, k, v > 0));
        }
    }
    out
}

/// Seed 001: `{+(b+2L), +b, -(b+L), -(b+L)}` or its mirror; (k, L, seat, won).
fn caller_alone(
    rules: &RuleSet,
    tariff: &Tariff,
    values: &[(usize, i64)],
) -> Option<(u32, u32, usize, bool)> {
    let l = rules
        .laufende
        .as_ref()
        .filter(|l| l.caller_alone && tariff.laufende)?;
    for sign in [1i64, -1] {
        let mut own: Vec<(usize, i64)> = values
            .iter()
            .filter(|(_, v)| v.signum() == sign)
            .map(|&(s, v)| (s, v.abs()))
            .collect();
        let opp: Vec<i64> = values
            .iter()
            .filter(|(_, v)| v.signum() == -sign)
            .map(|(_, v)| v.abs())
            .collect();
        if own.len() != 2 || opp.len() != 2 || opp[0] != opp[1] {
            continue;
        }
        own.sort_by_key(|&(_, v)| std::cmp::Reverse(v));
        let (caller, high) = own[0];
        let b = own[1].1;
        let n = opp[0] - b;
        let (Ok(b32), Ok(n32)) = (u32::try_from(b), u32::try_from(n)) else {
            continue;
        };
        if n32 >= l.from && n32 <= l.to && high == b + 2 * n && tariff.has_base_unit(b32) {
            return Some((b32 + n32, n32, caller, sign > 0));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(values: [i64; 4]) -> Vec<(usize, i64)> {
        values.iter().copied().enumerate().collect()
    }

    fn names(rules: &str, values: [i64; 4], circled: Option<usize>) -> Vec<String> {
        let rules = RuleSet::load(rules).expect("builtin");
        candidates(&rules, &row(values), &|s| Some(s) == circled)
            .iter()
            .map(|c| format!("{} k{} s{:?} w{:?}", c.tariff.name, c.k, c.soloist, c.won))
            .collect()
    }

    #[test]
    fn rufspiel_and_solo_patterns() {
        assert_eq!(
            names("merkur", [1, 1, -1, -1], None),
            ["Rufspiel k1 sNone wNone"]
        );
        assert_eq!(
            names("merkur", [-2, 2, -2, 2], None),
            ["Rufspiel Schneider k2 sNone wNone"]
        );
        assert_eq!(
            names("merkur", [-8, -8, -8, 24], None),
            ["Solo-tout/Wenz-tout k8 sSome(3) wSome(true)"]
        );
        assert_eq!(
            names("merkur", [2, -6, 2, 2], None),
            ["Solo/Wenz k2 sSome(1) wSome(false)"]
        );
        assert!(names("merkur", [5, -5, 5, -5], None).is_empty());
        assert!(
            names("merkur", [3, -1, -1, -1], None).is_empty(),
            "solo k=1 is no Merkur tariff"
        );
        assert!(
            names("schwaig", [-24, 8, 8, 8], None).is_empty(),
            "a Sie is never lost"
        );
    }

    #[test]
    fn seed_001_caller_alone_example_is_legal() {
        let found = names("laufende", [7, 1, -4, -4], None);
        assert_eq!(found, ["Rufspiel k4 sNone wSome(true)"]);
        assert!(names("laufende", [-7, -1, 4, 4], None).len() == 1);
        assert!(
            names("laufende", [4, 4, -4, -4], None)
                .iter()
                .any(|n| n.starts_with("Rufspiel k4"))
        );
        assert!(
            names("laufende", [2, 2, -2, -2], None)
                .iter()
                .any(|n| n.starts_with("Rufspiel Schneider"))
        );
        assert!(names("merkur", [7, 1, -4, -4], None).is_empty());
    }

    #[test]
    fn doppelkopf_penalty_and_lost_solo_share_numbers() {
        let found = names("doppelkopf", [-15, 5, 5, 5], None);
        assert_eq!(
            found,
            [
                "Solo k5 sSome(0) wSome(false)",
                "Regelverstoß k5 sSome(0) wSome(false)"
            ]
        );
        assert_eq!(
            names("doppelkopf", [0, 0, 0, 0], None),
            ["Spiel k0 sNone wNone"]
        );
        assert_eq!(
            names("doppelkopf", [0, 0, 0, 0], Some(2)),
            ["Spiel k0 sNone wNone"],
            "a solo scores at least 1"
        );
    }
}
