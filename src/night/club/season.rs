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
use crate::night::tournament::ranking::{NightRules, rank};
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
    /// The K best of each night qualify (for a cup's final).
    #[serde(default)]
    pub qualify: Option<usize>,
}

/// One night's totals: its column name and each player's total.
#[derive(Debug, Clone)]
pub struct NightTotals {
    /// The night's date, then its name.
    pub column: String,
    /// (participant number, the night's total), in the night's ranking
    /// order, its tie-breaks decided: the best first.
    pub totals: Vec<(PlayerNo, i64)>,
    /// A check of the night stands, or a sheet that counts is in doubt.
    pub provisional: bool,
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
    /// The nights (their indices) where the player was among the best
    /// the club's `qualify` names.
    pub qualified: Vec<usize>,
}

/// The season table, ranked lines first.
#[derive(Debug, Clone)]
pub struct Season {
    pub columns: Vec<String>,
    pub lines: Vec<SeasonLine>,
    /// Whether the club names qualifiers (the table's `qualified` column).
    pub qualifying: bool,
    /// Per night (in the columns' order): still provisional.
    pub provisional: Vec<bool>,
}

/// The season of the archive's nights dated `from` to `to` (see
/// [`Night::within`]) under `rule`. A night's totals are its Endergebnisse
/// as they count (the Leitung's counts in place of what is written, a void
/// sheet none): the same as its ranking gives, without verifying every
/// sheet again for the tie-breaks a season does not use, unless the club
/// names qualifiers.
pub fn of_archive(
    archive: &Archive,
    (from, to): (Option<NaiveDate>, Option<NaiveDate>),
    rule: &SeasonRule,
    lang: Lang,
) -> Result<Season, ClubError> {
    let mut nights = Vec::new();
    for night in archive.nights()?.into_iter().filter(|n| n.within(from, to)) {
        let rules = RuleSet::load(&night.rules)?;
        let stored = archive
            .sheets(night.id)?
            .into_iter()
            .map(StoredSheet::into_named);
        // Qualifiers depend on the order of equal totals: the night is
        // ranked as `standings` ranks it, every sheet verified again for
        // its tie-breaks.
        let ranked = match rule.qualify {
            Some(_) => rank(stored.collect(), NightRules::of(&rules), lang).standings,
            None => {
                let sheets: Vec<(String, SheetResult)> = stored
                    .map(|(name, sheet)| (name, crate::record::stand::counted(&sheet)))
                    .collect();
                standings(&sheets, &rules, None, lang)
            }
        };
        nights.push(NightTotals {
            column: column_of(&night),
            provisional: ranked.provisional(),
            totals: ranked
                .players
                .into_iter()
                .map(|p| (p.player, p.total))
                .collect(),
        });
    }
    Ok(season(&nights, rule))
}

/// A night's column: its date, then its name (a series' night's with
/// its venue's).
pub fn column_of(night: &Night) -> String {
    match &night.date {
        Some(d) => format!("{d} {}", night.key()),
        None => night.key(),
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
                qualified: Vec::new(),
            });
            line.per_night[i] = Some(line.per_night[i].unwrap_or(0) + total);
        }
        let best = night.totals.iter().take(rule.qualify.unwrap_or(0));
        for (player, _) in best {
            if let Some(line) = players.get_mut(player)
                && !line.qualified.contains(&i)
            {
                line.qualified.push(i);
            }
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
        qualifying: rule.qualify.is_some(),
        provisional: nights.iter().map(|n| n.provisional).collect(),
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
    /// per night, where the club names qualifiers `qualified` (the
    /// nights where the player qualified, `;`-separated), and
    /// `provisional`: the player's nights still provisional.
    pub fn table(&self) -> Table {
        let mut header: Vec<String> = ["rank", "player", "nights", "total"]
            .map(String::from)
            .to_vec();
        header.extend(self.columns.iter().cloned());
        if self.qualifying {
            header.push("qualified".into());
        }
        header.push("provisional".into());
        let rows = self.lines.iter().map(|l| {
            let mut row = vec![
                l.rank.map_or(Entry::Blank, Entry::count),
                Entry::Text(l.player.to_string()),
                Entry::count(l.nights),
                Entry::Number(l.total),
            ];
            row.extend(l.per_night.iter().map(|&v| Entry::maybe(v)));
            if self.qualifying {
                let nights: Vec<&str> = l
                    .qualified
                    .iter()
                    .map(|&i| self.columns[i].as_str())
                    .collect();
                row.push(Entry::Text(nights.join(";")));
            }
            let open = (l.per_night.iter().enumerate())
                .filter(|(i, v)| v.is_some() && self.provisional[*i])
                .map(|(i, _)| self.columns[i].as_str());
            row.push(Entry::Text(open.collect::<Vec<_>>().join(";")));
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

    /// The table as a person reads it (the page, the German CSV): each
    /// player's name beside the number, the nights named as the heads
    /// name them, a provisional night's head saying so.
    pub fn for_people(&self, lang: Lang, names: &Names) -> Table {
        let mut table = self.table();
        let provisional = crate::catalogue::say(lang, "standings-provisional", &[]);
        for (i, head) in table
            .header
            .iter_mut()
            .skip(4)
            .take(self.columns.len())
            .enumerate()
        {
            if self.provisional[i] {
                *head = format!("{head} ({provisional})");
            }
        }
        let night = |i: usize| {
            let head = crate::catalogue::column_head(lang, &self.columns[i]);
            match self.provisional[i] {
                true => format!("{head} ({provisional})"),
                false => head,
            }
        };
        for (row, line) in table.rows.iter_mut().zip(&self.lines) {
            let open = (line.per_night.iter().enumerate())
                .filter(|(i, v)| v.is_some() && self.provisional[*i])
                .map(|(i, _)| crate::catalogue::column_head(lang, &self.columns[i]));
            if let Some(last) = row.last_mut() {
                *last = Entry::Text(open.collect::<Vec<_>>().join("; "));
            }
            // The nights qualified at, a provisional one marked so.
            if self.qualifying {
                let at = row.len() - 2;
                let nights = line.qualified.iter().map(|&i| night(i));
                row[at] = Entry::Text(nights.collect::<Vec<_>>().join("; "));
            }
        }
        let named = self.lines.iter().map(|l| {
            let name = names.get(l.player.as_str()).unwrap_or_default();
            Entry::Text(name.to_string())
        });
        table.insert_after("player", "name", named.collect());
        table
    }

    /// The table as a page to print: one HTML file, every text escaped;
    /// column heads in `lang`, each player's name beside the number.
    pub fn page(&self, title: &str, lang: Lang, names: &Names) -> String {
        let table = self.for_people(lang, names);
        let head: Vec<String> = (table.header.iter())
            .map(|h| crate::catalogue::column_head(lang, h))
            .collect();
        let rows = table
            .rows
            .iter()
            .map(|row| row.iter().map(Entry::text).collect());
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
            provisional: false,
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
            "rank,player,nights,total,2026-01-10 Januar,2026-02-14 Februar,2026-03-07 März,provisional\n\
             1,42,3,23,-5,25,3,\n\
             2,17,3,22,30,-20,12,\n\
             3,8,2,20,10,,10,\n"
        );
    }

    #[test]
    fn a_provisional_night_should_be_named_in_the_csv_and_marked_on_the_page() {
        let mut nights = nights();
        nights[1].provisional = true;
        let rule = SeasonRule {
            qualify: Some(1),
            ..SeasonRule::default()
        };
        let s = season(&nights, &rule);
        let csv = csv(&s);
        let lines: Vec<&str> = csv.lines().collect();
        assert!(lines[0].ends_with(",qualified,provisional"), "{csv}");
        // 42 and 17 played the provisional night; 8 did not.
        assert!(lines[1].ends_with(",2026-02-14 Februar"), "{csv}");
        assert!(lines[2].ends_with(",2026-02-14 Februar"), "{csv}");
        assert!(lines[3].ends_with(','), "{csv}");
        let page = s.page("Saison", Lang::De, &Names::default());
        assert!(page.contains("14.02.2026 Februar (vorläufig)"), "{page}");
        let mut de = Vec::new();
        let table = s.for_people(Lang::De, &Names::default());
        table.write_spreadsheet(&mut de, Lang::De).expect("csv-de");
        let de = String::from_utf8(de).expect("utf8");
        assert!(de.contains("Qualifiziert;vorläufig bei"), "{de}");
    }

    #[test]
    fn the_best_nights_and_a_least_number_of_nights_should_follow_the_club_rule() {
        let rule = SeasonRule {
            best: Some(2),
            min_nights: Some(3),
            qualify: None,
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
    fn the_best_of_each_night_should_qualify_in_the_order_the_night_ranked() {
        let rule = SeasonRule {
            qualify: Some(1),
            ..SeasonRule::default()
        };
        // The nights list their players best first.
        let nights = [
            night(
                "2026-01-10 Post/Vorrunde",
                &[("17", 30), ("8", 10), ("0042", -5)],
            ),
            night("2026-01-11 Krone/Vorrunde", &[("42", 25), ("17", -20)]),
            night("2026-01-12 Linde/Vorrunde", &[("17", 12), ("42", 3)]),
        ];
        let s = season(&nights, &rule);
        let text = csv(&s);
        assert!(text.starts_with("rank,player,nights,total,"), "{text}");
        assert!(
            text.lines()
                .next()
                .is_some_and(|h| h.ends_with(",qualified,provisional")),
            "{text}"
        );
        let qualified = |p: &str| {
            let line = s
                .lines
                .iter()
                .find(|l| l.player.as_str() == p)
                .expect("line");
            line.qualified.clone()
        };
        assert_eq!(qualified("17"), [0, 2]);
        assert_eq!(qualified("42"), [1]);
        assert!(qualified("8").is_empty());
        assert!(
            text.contains(",2026-01-10 Post/Vorrunde;2026-01-12 Linde/Vorrunde,\n"),
            "{text}"
        );
        // Without the rule, no column.
        let plain = csv(&season(&nights, &SeasonRule::default()));
        assert!(!plain.contains("qualified"), "{plain}");
    }

    #[test]
    fn the_page_should_write_the_qualifiers_nights_as_its_heads_do() {
        let rule = SeasonRule {
            qualify: Some(1),
            ..SeasonRule::default()
        };
        let nights = [
            night("2026-01-10 Post/Vorrunde", &[("17", 30)]),
            night("2026-01-11 Krone/Vorrunde", &[("17", 25)]),
        ];
        let page = season(&nights, &rule).page("Saison", Lang::De, &Names::default());
        assert!(
            page.contains("<td>10.01.2026 Post/Vorrunde; 11.01.2026 Krone/Vorrunde</td>"),
            "{page}"
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
