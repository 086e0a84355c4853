//! The season table (Jahreswertung): each player's nights of a club's
//! archive and the season ranking under the club's rule: the sum of all
//! nights, or the best N, and a least number of nights to be ranked.
//! Players are matched across nights by their registered number.

use std::collections::BTreeMap;

use serde::Deserialize;

use chrono::NaiveDate;

use crate::catalogue::Lang;
use crate::check::rules::RuleSet;
use crate::error::ClubError;
use crate::html::{DOCTYPE, compiled_in, html};
use crate::night::club::archive::{Archive, Night, StoredSheet};
use crate::night::table::{Entry, Table};
use crate::night::tournament::names::Names;
use crate::night::tournament::standings::standings;
use crate::sheet::{PlayerNo, SheetResult};

/// The club's season rule (`[season]` in its CLUB.toml).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeasonRule {
    /// Only the N best nights count (all where absent).
    #[serde(default)]
    pub best: Option<usize>,
    /// Fewer nights: listed, not ranked.
    #[serde(default)]
    pub min_nights: Option<usize>,
}

/// One night's totals: its column name and each player's total.
#[derive(Debug, Clone)]
pub struct NightTotals {
    /// The night's date, then its name.
    pub column: String,
    /// (participant number, the night's total).
    pub totals: Vec<(PlayerNo, i64)>,
}

/// One player's line of the season.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeasonLine {
    /// None: too few nights to be ranked.
    pub rank: Option<usize>,
    pub player: PlayerNo,
    pub nights: usize,
    pub total: i64,
    /// Per night (in the season's order): the night's total, if played.
    pub per_night: Vec<Option<i64>>,
}

/// The season table, ranked lines first.
#[derive(Debug, Clone)]
pub struct Season {
    pub columns: Vec<String>,
    pub lines: Vec<SeasonLine>,
}

/// The season of the archive's nights dated `from` to `to` (see
/// [`Night::within`]) under `rule`. A night's totals are its Endergebnisse
/// as they count (the Leitung's counts in place of what is written, a void
/// sheet none): the same as its ranking gives, without verifying every
/// sheet again for the tie-breaks a season does not use.
pub fn of_archive(
    archive: &Archive,
    (from, to): (Option<NaiveDate>, Option<NaiveDate>),
    rule: &SeasonRule,
    lang: Lang,
) -> Result<Season, ClubError> {
    let mut nights = Vec::new();
    for night in archive.nights()?.into_iter().filter(|n| n.within(from, to)) {
        let rules = RuleSet::load(&night.rules)?;
        let sheets: Vec<(String, SheetResult)> = archive
            .sheets(night.id)?
            .into_iter()
            .map(StoredSheet::into_named)
            .map(|(name, sheet)| (name, crate::record::stand::counted(&sheet)))
            .collect();
        let ranked = standings(&sheets, &rules, None, lang);
        nights.push(NightTotals {
            column: column_of(&night),
            totals: ranked
                .players
                .into_iter()
                .map(|p| (p.player, p.total))
                .collect(),
        });
    }
    Ok(season(&nights, rule))
}

/// A night's column: its date, then its name.
pub fn column_of(night: &Night) -> String {
    match &night.date {
        Some(d) => format!("{d} {}", night.name),
        None => night.name.clone(),
    }
}

/// The season of `nights` (in date order) under `rule`.
pub fn season(nights: &[NightTotals], rule: &SeasonRule) -> Season {
    let mut players: BTreeMap<PlayerNo, SeasonLine> = BTreeMap::new();
    for (i, night) in nights.iter().enumerate() {
        for (player, total) in &night.totals {
            let line = players.entry(player.clone()).or_insert_with(|| SeasonLine {
                rank: None,
                player: player.clone(),
                nights: 0,
                total: 0,
                per_night: vec![None; nights.len()],
            });
            line.per_night[i] = Some(line.per_night[i].unwrap_or(0) + total);
        }
    }
    let mut lines: Vec<SeasonLine> = players.into_values().map(|l| counted(l, rule)).collect();
    let ranked = |l: &SeasonLine| l.nights >= rule.min_nights.unwrap_or(0);
    lines.sort_by(|a, b| (ranked(b), b.total, &a.player).cmp(&(ranked(a), a.total, &b.player)));
    let mut previous: Option<(i64, usize)> = None;
    for (i, line) in lines.iter_mut().enumerate().filter(|(_, l)| ranked(l)) {
        // Competition ranking: equal totals share a rank (1, 1, 3).
        let rank = match previous {
            Some((total, rank)) if total == line.total => rank,
            _ => i + 1,
        };
        line.rank = Some(rank);
        previous = Some((line.total, rank));
    }
    Season {
        columns: nights.iter().map(|n| n.column.clone()).collect(),
        lines,
    }
}

/// A line's nights and its season total: every night, or the best N.
fn counted(mut line: SeasonLine, rule: &SeasonRule) -> SeasonLine {
    let mut played: Vec<i64> = line.per_night.iter().flatten().copied().collect();
    line.nights = played.len();
    played.sort_unstable_by(|a, b| b.cmp(a));
    line.total = played.iter().take(rule.best.unwrap_or(usize::MAX)).sum();
    line
}

impl Season {
    /// The table: `rank`, `player`, `nights`, `total`, then one column
    /// per night.
    pub fn table(&self) -> Table {
        let mut header: Vec<String> = ["rank", "player", "nights", "total"]
            .map(String::from)
            .to_vec();
        header.extend(self.columns.iter().cloned());
        let rows = self.lines.iter().map(|l| {
            let mut row = vec![
                l.rank.map_or(Entry::Blank, Entry::count),
                Entry::Text(l.player.to_string()),
                Entry::count(l.nights),
                Entry::Number(l.total),
            ];
            row.extend(l.per_night.iter().map(|&v| Entry::maybe(v)));
            row
        });
        Table {
            header,
            rows: rows.collect(),
        }
    }

    /// `player`'s line by the CSV's column names (numbers as numbers, a
    /// night not played null).
    pub fn line_of(&self, player: &PlayerNo) -> Option<serde_json::Map<String, serde_json::Value>> {
        let at = self.lines.iter().position(|l| l.player == *player)?;
        self.table().json_row(at)
    }

    /// The table as CSV.
    pub fn write_csv<W: std::io::Write>(&self, out: W) -> Result<(), csv::Error> {
        self.table().write_csv(out)
    }

    /// The table as a page to print: one HTML file, every text escaped;
    /// column heads in `lang`, each player's name beside the number.
    pub fn page(&self, title: &str, lang: Lang, names: &Names) -> String {
        let table = self.table();
        let mut head = table.header.clone();
        head.insert(2, "name".into());
        let head: Vec<String> = head
            .iter()
            .map(|h| crate::catalogue::column_head(lang, h))
            .collect();
        let rows = table.rows.iter().zip(&self.lines).map(|(row, line)| {
            let mut cells: Vec<String> = row.iter().map(Entry::text).collect();
            cells.insert(
                2,
                names.get(line.player.as_str()).unwrap_or_default().into(),
            );
            cells
        });
        let records: Vec<Vec<String>> = std::iter::once(head).chain(rows).collect();
        html! {
            (DOCTYPE)
            html {
                head { meta charset="utf-8"; title { (title) } style { (compiled_in(STYLE)) } }
                body {
                    h1 { (title) }
                    table {
                        tr { @for field in records.first().into_iter().flatten() { th { (field) } } }
                        @for record in records.iter().skip(1) {
                            tr { @for field in record { td { (field) } } }
                        }
                    }
                }
            }
        }
        .into_string()
    }
}

const STYLE: &str = "body{font-family:sans-serif}table{border-collapse:collapse}\
td,th{border:1px solid #999;padding:2px 6px;text-align:right}\
@media print{th{background:none}}";

#[cfg(test)]
mod tests {
    use super::*;

    fn night(column: &str, totals: &[(&str, i64)]) -> NightTotals {
        NightTotals {
            column: column.into(),
            totals: totals.iter().map(|(p, t)| (PlayerNo::new(p), *t)).collect(),
        }
    }

    fn nights() -> Vec<NightTotals> {
        vec![
            night("2026-01-10 Januar", &[("17", 30), ("0042", -5), ("8", 10)]),
            night("2026-02-14 Februar", &[("17", -20), ("42", 25)]),
            night("2026-03-07 März", &[("17", 12), ("42", 3), ("8", 10)]),
        ]
    }

    fn csv(s: &Season) -> String {
        let mut out = Vec::new();
        s.write_csv(&mut out).expect("csv");
        String::from_utf8(out).expect("utf8")
    }

    #[test]
    fn every_night_should_count_and_numbers_match_across_nights_written_one_way() {
        let s = season(&nights(), &SeasonRule::default());
        assert_eq!(
            csv(&s),
            "rank,player,nights,total,2026-01-10 Januar,2026-02-14 Februar,2026-03-07 März\n\
             1,42,3,23,-5,25,3\n\
             2,17,3,22,30,-20,12\n\
             3,8,2,20,10,,10\n"
        );
    }

    #[test]
    fn the_best_nights_and_a_least_number_of_nights_should_follow_the_club_rule() {
        let rule = SeasonRule {
            best: Some(2),
            min_nights: Some(3),
        };
        let s = season(&nights(), &rule);
        let lines: Vec<(Option<usize>, &str, i64)> = s
            .lines
            .iter()
            .map(|l| (l.rank, l.player.as_str(), l.total))
            .collect();
        // 17: 30 + 12; 42: 25 + 3; 8 played two nights: listed, not ranked.
        assert_eq!(
            lines,
            [(Some(1), "17", 42), (Some(2), "42", 28), (None, "8", 20)]
        );
    }

    #[test]
    fn equal_totals_should_share_a_rank() {
        let s = season(
            &[night("a", &[("1", 5), ("2", 5), ("3", 1)])],
            &SeasonRule::default(),
        );
        let ranks: Vec<Option<usize>> = s.lines.iter().map(|l| l.rank).collect();
        assert_eq!(ranks, [Some(1), Some(1), Some(3)]);
    }
}
