//! Rule sets as data: tariffs, table sizes, first-game restrictions and
//! tie-breaks, read from TOML files under `templates/rules/`.

use std::collections::BTreeSet;
use std::path::Path;

use serde::Deserialize;

use crate::error::TemplateError;

/// Games a round at most: a printed sheet holds a few dozen rows.
const MAX_GAMES: u32 = 200;

/// The rule sets shipped with the program (the files under `templates/rules/`).
const BUILTIN: &[(&str, &str)] = &[
    ("merkur", include_str!("../../templates/rules/merkur.toml")),
    (
        "schwaig",
        include_str!("../../templates/rules/schwaig.toml"),
    ),
    (
        "turnier30",
        include_str!("../../templates/rules/turnier30.toml"),
    ),
    (
        "laufende",
        include_str!("../../templates/rules/laufende.toml"),
    ),
    (
        "doppelkopf",
        include_str!("../../templates/rules/doppelkopf.toml"),
    ),
];

pub fn builtin_ids() -> impl Iterator<Item = &'static str> {
    BUILTIN.iter().map(|(id, _)| *id)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Family {
    Schafkopf,
    Doppelkopf,
}

impl Family {
    /// The game as a form names it (`FormTemplate::game`).
    pub fn id(self) -> &'static str {
        match self {
            Family::Schafkopf => "schafkopf",
            Family::Doppelkopf => "doppelkopf",
        }
    }
}

/// How the values of one game sit in a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Shape {
    /// Two seats `+k`, two seats `-k` (Rufspiel, Doppelkopf normal game).
    Partner,
    /// One seat `+3k`, three `-k` (won), or the mirror (lost).
    Solo,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcomes {
    #[default]
    Both,
    Won,
    Lost,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableSize {
    /// Players at the table.
    pub players: usize,
    /// Games per round at such a table (rows that count as games).
    pub games: u32,
    /// Players sitting out each game (the dealer at a 5-player Doppelkopf table).
    #[serde(default)]
    pub sits_out: usize,
}

/// One tariff line: a kind of game and its units.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tariff {
    pub name: String,
    /// Classification shown in results: `rufspiel`, `solo`, `normal`, `penalty`, ...
    pub kind: String,
    pub shape: Shape,
    /// Allowed units k, or `units_from` (and optionally `units_to`) for a range.
    #[serde(default)]
    pub units: Option<Vec<u32>>,
    #[serde(default)]
    pub units_from: Option<u32>,
    #[serde(default)]
    pub units_to: Option<u32>,
    #[serde(default)]
    pub outcomes: Outcomes,
    /// Tags for tie-breaks and the Pflichtsolo check: `solo`, `tout`, `sie`, ...
    #[serde(default)]
    pub tags: Vec<String>,
    /// May this game be played in the first game of a round?
    #[serde(default = "yes")]
    pub first_game: bool,
    /// Must the supervisor initial the row (`Aufs.` column)?
    #[serde(default)]
    pub initials: bool,
    /// Is the soloist's value circled? Defaults to true for solos.
    #[serde(default)]
    pub circled: Option<bool>,
    /// Does the row count toward the games of a round? (Penalty rows do not.)
    #[serde(default = "yes")]
    pub counts_as_game: bool,
    /// Are Laufende added to the unit (rule set `[laufende]`)?
    #[serde(default)]
    pub laufende: bool,
}

fn yes() -> bool {
    true
}

impl Tariff {
    pub fn has_tag(&self, tag: &str) -> bool {
        self.tags.iter().any(|t| t == tag)
    }

    pub fn expects_circle(&self) -> bool {
        self.circled.unwrap_or(self.shape == Shape::Solo)
    }

    /// Is `k` one of the base units (before Laufende)?
    pub fn has_base_unit(&self, k: u32) -> bool {
        match (&self.units, self.units_from) {
            (Some(list), _) => list.contains(&k),
            (None, Some(from)) => k >= from && self.units_to.is_none_or(|to| k <= to),
            (None, None) => false,
        }
    }

    pub fn allows(&self, won: bool) -> bool {
        match self.outcomes {
            Outcomes::Both => true,
            Outcomes::Won => won,
            Outcomes::Lost => !won,
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Laufende {
    /// Laufende count from this many on (3 in seed 001).
    pub from: u32,
    /// The most Laufende a game can have.
    pub to: u32,
    /// Seed 001: in a Rufspiel "ohne Laufende" the player alone gets the
    /// Laufende points, not the partner: `{+(b+2L), +b, -(b+L), -(b+L)}`.
    #[serde(default)]
    pub caller_alone: bool,
}

impl Laufende {
    /// The Laufende counts a game can carry: none, or `from..=to`.
    pub fn counts(&self) -> impl Iterator<Item = u32> + '_ {
        std::iter::once(0).chain(self.from..=self.to)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TieBreakBy {
    /// Games with the tag the player won as soloist (more is better).
    Won,
    /// Games with the tag the player played as soloist (more is better).
    Played,
    /// The difference between the player's best and worst round (smaller is better).
    RoundDifference,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TieBreak {
    /// Column name in the standings.
    pub column: String,
    pub by: TieBreakBy,
    #[serde(default)]
    pub tag: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleSet {
    pub id: String,
    pub name: String,
    pub family: Family,
    pub rounds: u32,
    #[serde(rename = "table")]
    pub tables: Vec<TableSize>,
    /// Tag of the games that fulfil the Pflichtsolo (Doppelkopf), if required.
    #[serde(default)]
    pub pflichtsolo: Option<String>,
    #[serde(default)]
    pub laufende: Option<Laufende>,
    #[serde(rename = "tariff")]
    pub tariffs: Vec<Tariff>,
    #[serde(default, rename = "tie_break")]
    pub tie_breaks: Vec<TieBreak>,
}

impl RuleSet {
    /// A built-in id (`merkur`, ...) or the path of a club's own rule file.
    pub fn load(name_or_path: &str) -> Result<Self, TemplateError> {
        if let Some((id, text)) = BUILTIN.iter().find(|(id, _)| *id == name_or_path) {
            return Self::from_toml(&format!("templates/rules/{id}.toml"), text);
        }
        let path = Path::new(name_or_path);
        if path.exists() {
            return Self::from_path(path);
        }
        Err(TemplateError::Unknown {
            what: crate::error::TemplateKind::Rules,
            name: name_or_path.to_string(),
            known: builtin_ids().collect::<Vec<_>>().join(", "),
        })
    }

    pub fn from_path(path: &Path) -> Result<Self, TemplateError> {
        let text = std::fs::read_to_string(path).map_err(|e| TemplateError::Read {
            file: path.to_path_buf(),
            problem: crate::page::unreadable::FileProblem::from(&e),
        })?;
        Self::from_toml(&path.display().to_string(), &text)
    }

    /// Parses and validates a rule file; `file` names it in errors.
    pub fn from_toml(file: &str, text: &str) -> Result<Self, TemplateError> {
        let de = toml::Deserializer::parse(text).map_err(|e| toml_error(file, text, "", &e))?;
        let rules: RuleSet = serde_path_to_error::deserialize(de)
            .map_err(|e| toml_error(file, text, &e.path().to_string(), e.inner()))?;
        rules.validate(file, text)?;
        Ok(rules)
    }

    fn validate(&self, file: &str, text: &str) -> Result<(), TemplateError> {
        let at = RuleFile { file, text };
        self.validate_tables(&at)?;
        let tags = self.validate_tariffs(&at)?;
        self.validate_sections(&at, &tags)
    }

    fn validate_tables(&self, at: &RuleFile) -> Result<(), TemplateError> {
        if self.tables.is_empty() {
            return Err(at.invalid(
                "table".into(),
                None,
                "give at least one [[table]] with players and games".into(),
            ));
        }
        for (i, t) in self.tables.iter().enumerate() {
            if !(2..=8).contains(&t.players) || t.sits_out >= t.players {
                return Err(at.invalid(
                    format!("table[{i}].players"),
                    Some(("table", i)),
                    format!(
                        "{} players with {} sitting out is not a card table",
                        t.players, t.sits_out
                    ),
                ));
            }
            if !(1..=MAX_GAMES).contains(&t.games) {
                return Err(at.invalid(
                    format!("table[{i}].games"),
                    Some(("table", i)),
                    format!(
                        "{} games a round is not a round: give 1 to {MAX_GAMES}",
                        t.games
                    ),
                ));
            }
            if t.players - t.sits_out != 4 {
                return Err(at.invalid(
                    format!("table[{i}].sits_out"),
                    Some(("table", i)),
                    "every game is played by four players: players minus sits_out must be 4".into(),
                ));
            }
        }
        Ok(())
    }

    /// Checks the tariffs; gives their tags.
    fn validate_tariffs(&self, at: &RuleFile) -> Result<BTreeSet<String>, TemplateError> {
        if self.tariffs.is_empty() {
            return Err(at.invalid("tariff".into(), None, "give at least one [[tariff]]".into()));
        }
        let mut tags = BTreeSet::new();
        for (i, t) in self.tariffs.iter().enumerate() {
            let here = Some(("tariff", i));
            match (&t.units, t.units_from, t.units_to) {
                (Some(list), None, None) if !list.is_empty() => {}
                (None, Some(from), to) if to.is_none_or(|to| to >= from) => {}
                (Some(_), Some(_), _) | (Some(_), _, Some(_)) => {
                    return Err(at.invalid(
                        format!("tariff[{i}].units"),
                        here,
                        "give either `units` or `units_from`/`units_to`, not both".into(),
                    ));
                }
                _ => {
                    return Err(at.invalid(
                        format!("tariff[{i}].units"),
                        here,
                        "give a non-empty list `units = [..]` or a range `units_from = ..`".into(),
                    ));
                }
            }
            let only_zero = match (&t.units, t.units_from) {
                (Some(list), _) => list.iter().all(|&k| k == 0),
                (None, from) => from == Some(0) && t.units_to == Some(0),
            };
            if only_zero {
                return Err(at.invalid(
                    format!("tariff[{i}].units"),
                    here,
                    "a tariff worth 0 units only is no game: give units of 1 or more".into(),
                ));
            }
            if t.laufende && self.laufende.is_none() {
                return Err(at.invalid(
                    format!("tariff[{i}].laufende"),
                    here,
                    "the tariff adds Laufende but the rule set has no [laufende] section".into(),
                ));
            }
            tags.extend(t.tags.iter().cloned());
        }
        Ok(tags)
    }

    /// Checks the Laufende, the Pflichtsolo and the tie-breaks against the tariffs' `tags`.
    fn validate_sections(
        &self,
        at: &RuleFile,
        tags: &BTreeSet<String>,
    ) -> Result<(), TemplateError> {
        if let Some(l) = &self.laufende
            && (l.from == 0 || l.to < l.from || l.to > 32)
        {
            return Err(at.invalid(
                "laufende.from".into(),
                Some(("laufende", 0)),
                format!(
                    "Laufende from {} to {} is not a range within 1 to 32",
                    l.from, l.to
                ),
            ));
        }
        if let Some(tag) = &self.pflichtsolo
            && !tags.contains(tag)
        {
            return Err(at.invalid(
                "pflichtsolo".into(),
                None,
                format!("no tariff has the tag \"{tag}\""),
            ));
        }
        for (i, tb) in self.tie_breaks.iter().enumerate() {
            let here = Some(("tie_break", i));
            match (tb.by, &tb.tag) {
                (TieBreakBy::RoundDifference, _) => {}
                (_, None) => {
                    return Err(at.invalid(
                        format!("tie_break[{i}].tag"),
                        here,
                        "`won` and `played` need the tag of the games to count".into(),
                    ));
                }
                (_, Some(tag)) if !tags.contains(tag) => {
                    return Err(at.invalid(
                        format!("tie_break[{i}].tag"),
                        here,
                        format!("no tariff has the tag \"{tag}\""),
                    ));
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// The table size for a sheet whose highest used seat is `used` (1-based).
    pub fn table_for(&self, used: usize) -> Option<&TableSize> {
        self.tables
            .iter()
            .filter(|t| t.players >= used)
            .min_by_key(|t| t.players)
    }

    pub fn max_players(&self) -> usize {
        self.tables.iter().map(|t| t.players).max().unwrap_or(0)
    }
}

/// Line (1-based) of the `index`-th `[[header]]` or `[header]` in a TOML text.
fn nth_header_line(text: &str, header: &str, index: usize) -> Option<usize> {
    let array = format!("[[{header}]]");
    let table = format!("[{header}]");
    text.lines()
        .enumerate()
        .filter(|(_, l)| {
            let l = l.trim();
            l == array || l == table
        })
        .nth(index)
        .map(|(n, _)| n + 1)
}

fn toml_error(file: &str, text: &str, path: &str, e: &toml::de::Error) -> TemplateError {
    let line = e
        .span()
        .map(|span| text[..span.start.min(text.len())].matches('\n').count() + 1);
    TemplateError::Invalid {
        file: file.to_string(),
        line,
        field: if path == "." {
            String::new()
        } else {
            path.to_string()
        },
        message: e.message().to_string(),
    }
}

/// One legal row of a rule set: values for the four playing seats in
/// canonical order, the circled position, whether the supervisor initials it.
#[derive(Debug, Clone)]
pub struct LegalRow {
    pub values: [i64; 4],
    pub circled: Option<usize>,
    pub initials: bool,
    pub first_game: bool,
    pub counts_as_game: bool,
    pub solo: bool,
}

/// Every legal row of the rule set's tariff (open unit ranges cut at 12).
pub fn legal_rows(rules: &RuleSet) -> Vec<LegalRow> {
    let mut out = Vec::new();
    for t in &rules.tariffs {
        let units: Vec<u32> = match (&t.units, t.units_from) {
            (Some(list), _) => list.clone(),
            (None, Some(from)) => (from..=t.units_to.unwrap_or(from + 12).min(from + 12)).collect(),
            _ => Vec::new(),
        };
        let laufende: Vec<u32> = match (&rules.laufende, t.laufende) {
            (Some(l), true) => std::iter::once(0).chain(l.from..=l.to).collect(),
            _ => vec![0],
        };
        let row = |values: [i64; 4], circled: Option<usize>| LegalRow {
            values,
            circled,
            initials: t.initials,
            first_game: t.first_game,
            counts_as_game: t.counts_as_game,
            solo: t.tags.iter().any(|x| x == "solo"),
        };
        for &b in &units {
            for &l in &laufende {
                let k = i64::from(b + l);
                match t.shape {
                    Shape::Partner => {
                        out.push(row([k, k, -k, -k], None));
                        if l > 0 && rules.laufende.as_ref().is_some_and(|x| x.caller_alone) {
                            let (b, l) = (i64::from(b), i64::from(l));
                            out.push(row([b + 2 * l, b, -(b + l), -(b + l)], None));
                            out.push(row([-(b + 2 * l), -b, b + l, b + l], None));
                        }
                    }
                    Shape::Solo => {
                        let circle = t.circled.unwrap_or(true).then_some(0);
                        if t.outcomes != Outcomes::Lost {
                            out.push(row([3 * k, -k, -k, -k], circle));
                        }
                        if t.outcomes != Outcomes::Won && k > 0 {
                            out.push(row([-3 * k, k, k, k], circle));
                        }
                    }
                }
            }
        }
    }
    out
}

/// A rule file being checked: its name and text, for errors that name the line.
struct RuleFile<'a> {
    file: &'a str,
    text: &'a str,
}

impl RuleFile<'_> {
    /// `field` is wrong; `header` is its `[[header]]` section and which one.
    fn invalid(
        &self,
        field: String,
        header: Option<(&str, usize)>,
        message: String,
    ) -> TemplateError {
        TemplateError::Invalid {
            file: self.file.to_string(),
            line: header.and_then(|(h, i)| nth_header_line(self.text, h, i)),
            field,
            message,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_rule_set_loads() {
        for id in builtin_ids() {
            let rules = RuleSet::load(id).unwrap_or_else(|e| panic!("{id}: {e}"));
            assert_eq!(rules.id, id);
        }
    }

    #[test]
    fn unknown_field_names_file_line_and_field() {
        let text = "id = \"x\"\nname = \"x\"\nfamily = \"schafkopf\"\nrounds = 2\n\n[[table]]\nplayers = 4\ngames = 32\n\n[[tariff]]\nname = \"Rufspiel\"\nkind = \"rufspiel\"\nshape = \"partner\"\nunits = [1]\ncolour = \"red\"\n";
        let err = RuleSet::from_toml("club.toml", text)
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("club.toml:15: field `tariff[0]"), "{err}");
        assert!(err.contains("colour"), "{err}");
    }

    #[test]
    fn wrong_type_names_the_field() {
        let text = "id = \"x\"\nname = \"x\"\nfamily = \"schafkopf\"\nrounds = \"two\"\n";
        let err = RuleSet::from_toml("club.toml", text)
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("club.toml:4: field `rounds`"), "{err}");
    }

    #[test]
    fn invalid_units_name_the_tariff_line() {
        let text = "id = \"x\"\nname = \"x\"\nfamily = \"schafkopf\"\nrounds = 2\n[[table]]\nplayers = 4\ngames = 32\n[[tariff]]\nname = \"a\"\nkind = \"rufspiel\"\nshape = \"partner\"\nunits = [1]\n[[tariff]]\nname = \"b\"\nkind = \"solo\"\nshape = \"solo\"\n";
        let err = RuleSet::from_toml("club.toml", text)
            .unwrap_err()
            .to_string();
        assert_eq!(
            err,
            "club.toml:13: field `tariff[1].units`: give a non-empty list `units = [..]` or a range `units_from = ..`"
        );
    }

    fn table_and_tariff(games: &str, units: &str) -> String {
        format!(
            "id = \"x\"\nname = \"x\"\nfamily = \"schafkopf\"\nrounds = 2\n[[table]]\nplayers = 4\ngames = {games}\n[[tariff]]\nname = \"a\"\nkind = \"rufspiel\"\nshape = \"partner\"\n{units}\n"
        )
    }

    #[test]
    fn zero_games_a_round_is_refused_with_its_line() {
        let err = RuleSet::from_toml("club.toml", &table_and_tariff("0", "units = [1]"))
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("club.toml:5: field `table[0].games`"),
            "{err}"
        );
    }

    #[test]
    fn a_tariff_of_zero_units_only_is_refused_with_its_line() {
        for units in [
            "units = [0]",
            "units = [0, 0]",
            "units_from = 0\nunits_to = 0",
        ] {
            let err = RuleSet::from_toml("club.toml", &table_and_tariff("32", units))
                .unwrap_err()
                .to_string();
            assert!(
                err.starts_with("club.toml:8: field `tariff[0].units`"),
                "{units}: {err}"
            );
        }
        // Doppelkopf's games from 0 points up stay a tariff.
        assert!(RuleSet::from_toml("club.toml", &table_and_tariff("32", "units_from = 0")).is_ok());
    }

    #[test]
    fn unknown_id_lists_the_known_ones() {
        let err = RuleSet::load("merkurr").unwrap_err().to_string();
        assert!(err.contains("merkur, schwaig"), "{err}");
    }
}
