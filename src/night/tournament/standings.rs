//! The night's ranking: sheet results of every round → players linked by
//! their Teilnehmer-Nr. → totals, tie-break counts, ranks, and the night's
//! consistency checks (a player at two tables, a missing round, a table
//! number twice, an unreadable participant number; with the night's
//! participant list, a number nobody registered and a registered player
//! without any sheet).
//!
//! `[SheetResult]` (verified) + [`Participants`] → [`standings`] → [`Standings`]
//!
//! Nothing is dropped silently: whatever cannot be attributed to a player and
//! a round becomes a [`NightCheck`], and every sheet a person still has to
//! look at is named in the `review` column of the players it touches.

use std::collections::{BTreeMap, BTreeSet};

use crate::catalogue::say;
use crate::check::flags::Code;
use crate::check::messages::Lang;
use crate::check::rules::{RuleSet, TieBreakBy};
use crate::night::table::{Entry, Table};
pub use crate::night::tournament::checks::{NightCheck, NightCheckKind, sheet_label, sheet_name};
use crate::night::tournament::participants::Participants;
use crate::record::counts::Counting;
use crate::sheet::notes::{Settled, Void};
use crate::sheet::{PlayerNo, SheetResult};

/// One player's line of the ranking.
#[derive(Debug, Clone, PartialEq)]
pub struct Standing {
    /// Equal for players the total and every tie-break cannot separate.
    pub rank: usize,
    pub player: PlayerNo,
    /// Sum of the player's Endergebnis over all rounds.
    pub total: i64,
    /// Per round of the night (index 0 = round 1): the Endergebnis, if played.
    pub rounds: Vec<Option<i64>>,
    /// The rule set's tie-break counts, in its order.
    pub tie_breaks: Vec<i64>,
    /// Sheets (source names) a person must still look at for this player.
    pub review: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Standings {
    /// Number of round columns (the highest round number seen, at least the rule set's).
    pub rounds: usize,
    /// Tie-break column names, in the rule set's order.
    pub tie_break_columns: Vec<String>,
    /// In rank order.
    pub players: Vec<Standing>,
    /// The open checks: while any stands, the ranking is provisional.
    pub checks: Vec<NightCheck>,
    /// Each sheet's name (as `review` and the checks' `sheets` give it)
    /// → the name a person reads (`R1 T5`).
    pub labels: BTreeMap<String, String>,
    /// Checks a person settled (a sheet declared invalid), with who and when.
    pub settled: Vec<(NightCheck, Settled)>,
}

/// Whether a person must still look at this seat of the sheet before its
/// numbers can be trusted: an error anywhere on the sheet (a wrong row
/// changes everyone's result), or an uncertain reading or a value written
/// in another pen (a later edit) in the player's seat or in a game row.
fn needs_review(sheet: &SheetResult, seat: usize) -> bool {
    sheet
        .flags
        .iter()
        .filter(|f| f.detail.settled.is_none())
        .any(|f| {
            f.is_error()
                || (matches!(f.code, Code::CellUncertain | Code::InkDiffers)
                    && (f.seat.is_none_or(|s| s == seat) || f.row.is_some()))
        })
}

struct Acc {
    player: PlayerNo,
    total: i64,
    rounds: BTreeMap<u32, i64>,
    tie_breaks: Vec<i64>,
    review: BTreeSet<String>,
    /// round → sheets the player sits at in it.
    seen: BTreeMap<u32, Vec<String>>,
    /// Other readings of this participant number (from `CELL_UNCERTAIN`).
    alternatives: BTreeSet<PlayerNo>,
}

/// At most one digit inserted, dropped or changed between two numbers.
fn one_digit_apart(a: &str, b: &str) -> bool {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let (short, long) = if a.len() <= b.len() {
        (&a, &b)
    } else {
        (&b, &a)
    };
    match long.len() - short.len() {
        0 => {
            short
                .iter()
                .zip(long.iter())
                .filter(|(x, y)| x != y)
                .count()
                <= 1
        }
        1 => (0..long.len()).any(|skip| {
            long.iter()
                .enumerate()
                .filter(|(i, _)| *i != skip)
                .map(|(_, c)| c)
                .eq(short.iter())
        }),
        _ => false,
    }
}

/// The ranking of one night. `sheets` are (name, verified result) pairs; the
/// name is used when a result has no `source`. With the night's
/// `participants`, numbers nobody registered and registered players
/// without a sheet become night checks, worded in `lang`.
pub fn standings(
    sheets: &[(String, SheetResult)],
    rules: &RuleSet,
    participants: Option<&Participants>,
    lang: Lang,
) -> Standings {
    let mut night = Night {
        rules,
        lang,
        players: BTreeMap::new(),
        checks: Vec::new(),
        tables: BTreeMap::new(),
        max_round: rules.rounds,
        rounds_seen: BTreeSet::new(),
        excused: BTreeSet::new(),
        settled: Vec::new(),
        labels: BTreeMap::new(),
        in_doubt: Vec::new(),
    };
    let counting = crate::record::counts::night(sheets.iter().map(|(_, s)| s));
    for ((fallback, sheet), how) in sheets.iter().zip(counting) {
        night.take(sheet, fallback, how);
    }
    night.table_checks();
    night.round_checks();
    night
        .checks
        .extend(crate::night::tournament::copies::copy_checks(sheets, lang));
    if let Some(list) = participants.filter(|l| !l.is_empty()) {
        // A registered player whose only sheet was declared invalid lost
        // by a person's decision: no check speaks of it.
        let excused: BTreeSet<PlayerNo> = night.excused.iter().map(|(p, _)| p.clone()).collect();
        registration_checks(&mut night.players, list, &excused, &mut night.checks, lang);
    }
    night.ranked()
}

/// Sheets' names as a person reads them, `, `-separated.
fn labelled(labels: &BTreeMap<String, String>, names: &[String]) -> String {
    let named = names.iter().map(|n| labels.get(n).unwrap_or(n).as_str());
    named.collect::<Vec<_>>().join(", ")
}

/// The night as its sheets are added: each player's points, where each
/// sat, and the checks found so far.
struct Night<'a> {
    rules: &'a RuleSet,
    lang: Lang,
    players: BTreeMap<PlayerNo, Acc>,
    checks: Vec<NightCheck>,
    /// (round, table) → the sheets that name it.
    tables: BTreeMap<(u32, u32), Vec<String>>,
    max_round: u32,
    rounds_seen: BTreeSet<u32>,
    /// The players of a sheet declared invalid, by round: they lost that
    /// round by a person's decision, and no check asks for it.
    excused: BTreeSet<(PlayerNo, u32)>,
    settled: Vec<(NightCheck, Settled)>,
    labels: BTreeMap<String, String>,
    /// Sheets that count with a flag a person must still look at.
    in_doubt: Vec<String>,
}

impl Night<'_> {
    /// A sheet that does not count, at its round and table.
    fn see_table(&mut self, sheet: &SheetResult, fallback: &str) {
        if let (Some(r), Some(t)) = (sheet.round, sheet.table) {
            let name = sheet_name(sheet, fallback);
            self.tables.entry((r, t)).or_default().push(name);
        }
    }

    /// A sheet sent by mistake and taken out of the night: no points, no
    /// table, no player; its taking out is listed as settled.
    fn discarded_sheet(&mut self, sheet: &SheetResult, fallback: &str, discarded: &Void) {
        let verdict = (NightCheckKind::SheetDiscarded, "check-sheet-discarded");
        self.settled_verdict(sheet_name(sheet, fallback), verdict, discarded);
    }

    /// A sheet declared invalid: no points, no player, no open check; its
    /// verdict is listed as settled.
    fn void_sheet(&mut self, sheet: &SheetResult, fallback: &str, void: &Void) {
        if let Some(round) = sheet.round {
            for player in sheet.players.iter().flatten() {
                self.excused.insert((PlayerNo::new(player), round));
            }
        }
        let verdict = (NightCheckKind::SheetVoid, "check-sheet-void");
        self.settled_verdict(sheet_name(sheet, fallback), verdict, void);
    }

    /// A person's verdict on sheet `name` (its kind and message), listed
    /// as a settled check with who and when.
    fn settled_verdict(&mut self, name: String, (kind, id): (NightCheckKind, &str), by: &Void) {
        let label = self.label(&name);
        let args: [(&str, &dyn std::fmt::Display); 3] =
            [("sheet", &label), ("by", &by.by), ("reason", &by.reason)];
        let check = NightCheck {
            kind,
            message: say(self.lang, id, &args),
            sheets: vec![name],
        };
        let settled = Settled {
            by: by.by.clone(),
            at: by.at.clone(),
        };
        self.settled.push((check, settled));
    }

    /// One sheet as it stands in the night ([`Counting`]).
    fn take(&mut self, sheet: &SheetResult, fallback: &str, how: Counting) {
        let name = || sheet_name(sheet, fallback);
        let (label, lang) = (sheet_label(sheet, fallback, self.lang), self.lang);
        self.labels.insert(name(), label.clone());
        let one = |kind, id: &str, name: String| NightCheck {
            kind,
            message: say(lang, id, &[("sheet", &label)]),
            sheets: vec![name],
        };
        match (how, &sheet.notes.discarded, &sheet.notes.void) {
            (Counting::Discarded, Some(discarded), _) => {
                self.discarded_sheet(sheet, fallback, discarded)
            }
            (Counting::Void, _, Some(void)) => self.void_sheet(sheet, fallback, void),
            // The same paper again counts once, until a person decides;
            // its table is still seen twice.
            (Counting::Twin { .. }, ..) => self.see_table(sheet, fallback),
            // A sheet a person settled as a copy of another leaves the
            // count, and the checks that found it twice with it.
            (Counting::Copy, ..) => {}
            (Counting::Unreadable, ..) => {
                let check = one(
                    NightCheckKind::SheetUnreadable,
                    "check-sheet-unreadable",
                    name(),
                );
                self.checks.push(check);
            }
            (Counting::OtherGame, ..) => {
                let check = one(NightCheckKind::WrongGame, "check-wrong-game", name());
                self.checks.push(check);
            }
            _ => self.add_sheet(sheet, fallback),
        }
    }

    /// One sheet that counts: its round and table, and each seat's points.
    fn add_sheet(&mut self, sheet: &SheetResult, fallback: &str) {
        let name = sheet_name(sheet, fallback);
        match (sheet.round, sheet.table) {
            (Some(r), Some(t)) => self.tables.entry((r, t)).or_default().push(name.clone()),
            _ => self.checks.push(NightCheck {
                kind: NightCheckKind::RoundOrTableMissing,
                sheets: vec![name.clone()],
                message: say(
                    self.lang,
                    "check-round-or-table-missing",
                    &[("sheet", &self.label(&name))],
                ),
            }),
        }
        if let Some(r) = sheet.round {
            self.max_round = self.max_round.max(r);
            self.rounds_seen.insert(r);
        }
        if (1..=sheet.seats()).any(|seat| needs_review(sheet, seat)) {
            self.in_doubt.push(name.clone());
        }
        for seat in 1..=sheet.seats() {
            self.add_seat(sheet, &name, seat);
        }
    }

    /// One seat of a sheet: its points go to its player.
    fn add_seat(&mut self, sheet: &SheetResult, name: &str, seat: usize) {
        let end = sheet.endergebnis.get(seat - 1).copied().flatten();
        let played = sheet
            .games
            .iter()
            .any(|g| g.cells.get(seat - 1).is_some_and(|c| c.has_writing()));
        let id = sheet.players.get(seat - 1).cloned().flatten();
        let Some(id) = id.filter(|s| !s.trim().is_empty()) else {
            if played || end.is_some() {
                self.checks.push(NightCheck {
                    kind: NightCheckKind::PlayerIdUnreadable,
                    sheets: vec![name.to_string()],
                    message: say(
                        self.lang,
                        "check-player-id-unreadable",
                        &[("sheet", &self.label(name)), ("seat", &seat)],
                    ),
                });
            }
            return;
        };
        // A number is written one way everywhere: by its value.
        let id = PlayerNo::new(&id);
        let acc = self.players.entry(id.clone()).or_insert_with(|| Acc {
            player: id,
            total: 0,
            rounds: BTreeMap::new(),
            tie_breaks: vec![0; self.rules.tie_breaks.len()],
            review: BTreeSet::new(),
            seen: BTreeMap::new(),
            alternatives: BTreeSet::new(),
        });
        acc.alternatives.extend(
            sheet
                .flags
                .iter()
                .filter(|f| f.code == Code::CellUncertain && f.seat == Some(seat))
                .filter(|f| f.field.as_deref() == Some("player_id"))
                .flat_map(|f| f.detail.alternatives.iter())
                .map(|(number, _)| PlayerNo::new(number)),
        );
        let value = end.unwrap_or_else(|| computed_result(sheet, seat));
        if end.is_none() || needs_review(sheet, seat) {
            acc.review.insert(name.to_string());
        }
        acc.total += value;
        if let Some(r) = sheet.round {
            *acc.rounds.entry(r).or_insert(0) += value;
            acc.seen.entry(r).or_default().push(name.to_string());
        }
        for (i, tb) in self.rules.tie_breaks.iter().enumerate() {
            acc.tie_breaks[i] += solo_count(sheet, seat, tb.by, tb.tag.as_deref());
        }
    }

    /// A round and table on more than one sheet.
    fn table_checks(&mut self) {
        for ((round, table), names) in &self.tables {
            if names.len() > 1 {
                self.checks.push(NightCheck {
                    kind: NightCheckKind::TableTwice,
                    sheets: names.clone(),
                    message: say(
                        self.lang,
                        "check-table-twice",
                        &[
                            ("round", round),
                            ("table", table),
                            ("count", &names.len()),
                            ("sheets", &labelled(&self.labels, names)),
                        ],
                    ),
                });
            }
        }
    }

    /// The name a person reads for sheet `name`.
    fn label(&self, name: &str) -> String {
        self.labels
            .get(name)
            .cloned()
            .unwrap_or_else(|| name.to_string())
    }

    /// A player at two places in a round, or missing from one.
    fn round_checks(&mut self) {
        // Who was seen in which rounds, to pair a number missing from a round
        // with one seen only there (a misread participant number).
        let seen_in: Vec<(PlayerNo, BTreeSet<u32>, BTreeSet<PlayerNo>)> = self
            .players
            .iter()
            .map(|(k, a)| {
                (
                    k.clone(),
                    a.seen.keys().copied().collect(),
                    a.alternatives.clone(),
                )
            })
            .collect();
        for (key, acc) in self.players.iter_mut() {
            for (round, names) in &acc.seen {
                if names.len() > 1 {
                    self.checks.push(NightCheck {
                        kind: NightCheckKind::PlayerTwiceInRound,
                        sheets: names.clone(),
                        message: say(
                            self.lang,
                            "check-player-twice-in-round",
                            &[
                                ("player", &acc.player),
                                ("count", &names.len()),
                                ("round", round),
                                ("sheets", &labelled(&self.labels, names)),
                            ],
                        ),
                    });
                    acc.review.extend(names.iter().cloned());
                }
            }
            let excused = |r: &u32| self.excused.contains(&(key.clone(), *r));
            let missing: Vec<String> = self
                .rounds_seen
                .iter()
                .filter(|r| !acc.seen.contains_key(r) && !excused(r))
                .map(u32::to_string)
                .collect();
            if !missing.is_empty() && !acc.seen.is_empty() {
                let sheets: Vec<String> = acc.seen.values().flatten().cloned().collect();
                let absent: BTreeSet<u32> = self
                    .rounds_seen
                    .iter()
                    .copied()
                    .filter(|r| !acc.seen.contains_key(r) && !excused(r))
                    .collect();
                let maybe: Vec<&str> = seen_in
                    .iter()
                    .filter(|(k, rounds, alts)| {
                        k != key
                            && !rounds.is_empty()
                            && rounds.is_subset(&absent)
                            && (one_digit_apart(k.as_str(), key.as_str())
                                || alts.contains(key)
                                || acc.alternatives.contains(k))
                    })
                    .map(|(k, _, _)| k.as_str())
                    .collect();
                let hint = perhaps(self.lang, "hint-same-player", &maybe);
                self.checks.push(NightCheck {
                    kind: NightCheckKind::PlayerMissingRound,
                    sheets,
                    message: say(
                        self.lang,
                        "check-player-missing-round",
                        &[
                            ("player", &acc.player),
                            ("rounds", &missing.join(", ")),
                            ("hint", &hint),
                        ],
                    ),
                });
            }
        }
    }

    /// The players in rank order, with the checks.
    fn ranked(mut self) -> Standings {
        let rounds = self.max_round as usize;
        let mut rows: Vec<Standing> = self
            .players
            .into_values()
            .map(|acc| {
                let mut tie_breaks = acc.tie_breaks;
                for (i, tb) in self.rules.tie_breaks.iter().enumerate() {
                    if tb.by == TieBreakBy::RoundDifference {
                        let lo = acc.rounds.values().min().copied().unwrap_or(0);
                        let hi = acc.rounds.values().max().copied().unwrap_or(0);
                        tie_breaks[i] = hi - lo;
                    }
                }
                Standing {
                    rank: 0,
                    player: acc.player,
                    total: acc.total,
                    rounds: (1..=rounds as u32)
                        .map(|r| acc.rounds.get(&r).copied())
                        .collect(),
                    tie_breaks,
                    review: acc.review.into_iter().collect(),
                }
            })
            .collect();

        // Sort key: total, then each tie-break (more is better, except the round
        // difference); the participant number only orders equal lines.
        let key =
            |s: &Standing| -> Vec<i64> {
                std::iter::once(-s.total)
                    .chain(self.rules.tie_breaks.iter().zip(&s.tie_breaks).map(
                        |(tb, v)| match tb.by {
                            TieBreakBy::RoundDifference => *v,
                            _ => -*v,
                        },
                    ))
                    .collect()
            };
        rows.sort_by(|a, b| key(a).cmp(&key(b)).then_with(|| a.player.cmp(&b.player)));
        let keys: Vec<Vec<i64>> = rows.iter().map(key).collect();
        for i in 0..rows.len() {
            rows[i].rank = if i > 0 && keys[i] == keys[i - 1] {
                rows[i - 1].rank
            } else {
                i + 1
            };
        }
        if !self.in_doubt.is_empty() {
            let labels = labelled(&self.labels, &self.in_doubt);
            let count = self.in_doubt.len();
            self.checks.push(NightCheck {
                kind: NightCheckKind::SheetsInDoubt,
                sheets: self.in_doubt,
                message: say(
                    self.lang,
                    "check-sheets-in-doubt",
                    &[("count", &count), ("sheets", &labels)],
                ),
            });
        }
        self.checks.sort();
        Standings {
            rounds,
            tie_break_columns: self
                .rules
                .tie_breaks
                .iter()
                .map(|t| t.column.clone())
                .collect(),
            players: rows,
            checks: self.checks,
            settled: self.settled,
            labels: self.labels,
        }
    }
}

/// " (perhaps … A or B …)" naming the likely pairs of a number, or nothing.
fn perhaps<S: AsRef<str>>(lang: Lang, hint: &str, maybe: &[S]) -> String {
    if maybe.is_empty() {
        return String::new();
    }
    let names: Vec<&str> = maybe.iter().map(AsRef::as_ref).collect();
    let or = say(lang, "or", &[]);
    say(lang, hint, &[("players", &names.join(&or))])
}

/// Numbers on sheets that nobody registered, and registered players on no
/// sheet: each is a misread or miswritten number or a lost sheet. A number
/// one digit apart on the other side is named as the likely pair.
fn registration_checks(
    players: &mut BTreeMap<PlayerNo, Acc>,
    list: &Participants,
    excused: &BTreeSet<PlayerNo>,
    checks: &mut Vec<NightCheck>,
    lang: Lang,
) {
    let unregistered: Vec<PlayerNo> = players
        .keys()
        .filter(|k| !list.contains(k.as_str()))
        .cloned()
        .collect();
    let without_sheet: Vec<&PlayerNo> = list
        .numbers()
        .filter(|n| !players.contains_key(*n) && !excused.contains(*n))
        .collect();
    // Likely pairs (unregistered, registered): one digit apart, or the
    // registered number among the reader's alternatives.
    let pairs: Vec<(&PlayerNo, &PlayerNo)> = unregistered
        .iter()
        .flat_map(|key| without_sheet.iter().map(move |n| (key, *n)))
        .filter(|(key, n)| {
            one_digit_apart(n.as_str(), key.as_str())
                || players
                    .get(*key)
                    .is_some_and(|a| a.alternatives.contains(*n))
        })
        .collect();
    for key in &unregistered {
        let maybe: Vec<&str> = pairs
            .iter()
            .filter(|p| p.0 == key)
            .map(|p| p.1.as_str())
            .collect();
        let hint = perhaps(lang, "hint-registered", &maybe);
        let Some(acc) = players.get_mut(key) else {
            continue;
        };
        let sheets: Vec<String> = acc.seen.values().flatten().cloned().collect();
        acc.review.extend(sheets.iter().cloned());
        checks.push(NightCheck {
            kind: NightCheckKind::PlayerNotRegistered,
            message: say(
                lang,
                "check-player-not-registered",
                &[
                    ("player", &acc.player),
                    ("sheets", &sheets.join(", ")),
                    ("hint", &hint),
                ],
            ),
            sheets,
        });
    }
    for &number in &without_sheet {
        let maybe: Vec<&str> = pairs
            .iter()
            .filter(|p| p.1 == number)
            .map(|p| p.0.as_str())
            .collect();
        let hint = perhaps(lang, "hint-read-as", &maybe);
        checks.push(NightCheck {
            kind: NightCheckKind::RegisteredWithoutSheet,
            sheets: Vec::new(),
            message: say(
                lang,
                "check-registered-without-sheet",
                &[("player", number), ("hint", &hint)],
            ),
        });
    }
}

/// A seat's result from its game rows, for a sheet whose Endergebnis is blank.
fn computed_result(sheet: &SheetResult, seat: usize) -> i64 {
    sheet
        .games
        .iter()
        .filter_map(|g| g.cells.get(seat - 1).and_then(|c| c.value()))
        .sum()
}

/// Games of the seat as soloist with the tag (won ones only for `Won`).
fn solo_count(sheet: &SheetResult, seat: usize, by: TieBreakBy, tag: Option<&str>) -> i64 {
    let Some(tag) = tag else { return 0 };
    let counted = sheet
        .games
        .iter()
        .filter_map(|g| g.class.as_ref())
        .filter(|c| c.soloist == Some(seat) && c.tags.iter().any(|t| t == tag))
        .filter(|c| match by {
            TieBreakBy::Won => c.won == Some(true),
            TieBreakBy::Played => true,
            TieBreakBy::RoundDifference => false,
        })
        .count();
    i64::try_from(counted).unwrap_or(i64::MAX)
}

impl Standings {
    /// The contract's CSV: rank, player, total, round_N..., tie-breaks, review.
    pub fn write_csv<W: std::io::Write>(&self, out: W) -> Result<(), csv::Error> {
        self.table().write_csv(out)
    }

    /// The ranking as typed rows, by the CSV's column names; the last,
    /// `status`, says `vorläufig` on every row while anything is open and
    /// `Endergebnis` when nothing is.
    pub fn table(&self) -> Table {
        // The contract's words, in every language, as the codes are.
        let status = if self.provisional() {
            "vorläufig"
        } else {
            "Endergebnis"
        };
        let rows = self.players.iter().map(|p| {
            let mut row = Self::record(p);
            row.push(Entry::Text(status.to_string()));
            row
        });
        Table {
            header: self.header(),
            rows: rows.collect(),
        }
    }

    /// Whether the ranking is still provisional: a check stands (a sheet
    /// still in doubt is one, [`NightCheckKind::SheetsInDoubt`]).
    pub fn provisional(&self) -> bool {
        !self.checks.is_empty()
    }

    /// The ranking as a person reads it (the spreadsheet, the print): the
    /// sheets to look at by round and table, the status in words.
    pub fn for_people(&self, lang: Lang) -> Table {
        let mut table = self.table();
        let review = table.header.iter().position(|h| h == "review");
        let status = match self.provisional() {
            true => say(lang, "standings-provisional", &[]),
            false => say(lang, "standings-final", &[]),
        };
        for (row, p) in table.rows.iter_mut().zip(&self.players) {
            if let Some(at) = review {
                row[at] = Entry::Text(labelled(&self.labels, &p.review).replace(", ", "; "));
            }
            if let Some(last) = row.last_mut() {
                *last = Entry::Text(status.clone());
            }
        }
        table
    }

    /// The CSV's column names.
    fn header(&self) -> Vec<String> {
        let mut header = vec!["rank".to_string(), "player".into(), "total".into()];
        header.extend((1..=self.rounds).map(|r| format!("round_{r}")));
        header.extend(self.tie_break_columns.iter().cloned());
        header.push("review".into());
        header.push("status".into());
        header
    }

    /// One player's line: numbers as numbers, a round not played blank.
    fn record(p: &Standing) -> Vec<Entry> {
        let mut rec = vec![
            Entry::count(p.rank),
            Entry::Text(p.player.to_string()),
            Entry::Number(p.total),
        ];
        rec.extend(p.rounds.iter().map(|&v| Entry::maybe(v)));
        rec.extend(p.tie_breaks.iter().map(|&v| Entry::Number(v)));
        rec.push(Entry::Text(p.review.join(";")));
        rec
    }

    /// A player's line as an object by the CSV's column names (numbers as
    /// numbers, an empty round as null), where the player is ranked.
    pub fn line_of(&self, player: &PlayerNo) -> Option<serde_json::Map<String, serde_json::Value>> {
        let at = self.players.iter().position(|p| p.player == *player)?;
        self.table().json_row(at)
    }

    /// The night checks as CSV (kind, sheets, message) for the file beside the ranking.
    pub fn write_checks_csv<W: std::io::Write>(&self, out: W) -> Result<(), csv::Error> {
        let mut w = csv::Writer::from_writer(out);
        w.write_record(["check", "sheets", "message"])?;
        for c in &self.checks {
            w.write_record([c.kind.as_str(), &c.sheets.join(";"), &c.message])?;
        }
        w.flush()?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::messages::Lang;
    use crate::check::verify::verify;
    use crate::sheet::{Cell, GameRow};
    use crate::sheet::{Status, finished_sheet};

    fn row(no: u32, values: [i64; 4], circled: Option<usize>) -> GameRow {
        let cells = values
            .iter()
            .enumerate()
            .map(|(s, &v)| {
                let mut c = if v >= 0 {
                    Cell::plus(v.unsigned_abs() as u32)
                } else {
                    Cell::minus(v.unsigned_abs() as u32)
                };
                c.circled = circled == Some(s);
                c
            })
            .collect();
        GameRow {
            no,
            cells,
            initials: false,
            class: None,
            extra: Default::default(),
        }
    }

    /// A verified merkur sheet of `games` rows (the game count is not the point here).
    fn sheet(round: u32, table: u32, ids: [&str; 4], games: Vec<GameRow>) -> (String, SheetResult) {
        let rules = RuleSet::load("merkur").expect("merkur");
        let ids = ids.iter().map(|s| Some(s.to_string())).collect();
        let mut s = finished_sheet("merkur", games, ids);
        s.round = Some(round);
        s.table = Some(table);
        s.source = Some(format!("r{round}t{table}.png"));
        let mut s = verify(s, &rules, Lang::En).expect("verify");
        s.flags.retain(|f| f.code != Code::GameCount);
        if s.flags.is_empty() {
            s.status = Status::Ok;
        }
        (format!("r{round}t{table}.json"), s)
    }

    fn night(sheets: Vec<(String, SheetResult)>) -> Standings {
        standings(
            &sheets,
            &RuleSet::load("merkur").expect("merkur"),
            None,
            Lang::En,
        )
    }

    fn line<'a>(s: &'a Standings, player: &str) -> &'a Standing {
        s.players
            .iter()
            .find(|p| p.player == player)
            .expect("player listed")
    }

    fn rows(n: u32) -> Vec<GameRow> {
        (1..=n)
            .map(|no| row(no, [no as i64, no as i64, -(no as i64), -(no as i64)], None))
            .collect()
    }

    #[test]
    fn a_voided_sheets_players_should_not_be_ranked_and_no_check_should_name_it() {
        let mut void = sheet(2, 1, ["5", "6", "7", "8"], rows(2));
        void.1.source = Some("doko.png".into());
        void.1.notes.void = Some(Void {
            by: "AB".into(),
            at: "now".into(),
            reason: "Doppelkopf".into(),
        });
        let s = night(vec![
            sheet(1, 1, ["1", "2", "3", "4"], rows(2)),
            sheet(2, 1, ["1", "2", "3", "4"], rows(2)),
            // Player 5 also played round 1: they keep it, and no check
            // asks for the round they lost by the verdict.
            sheet(1, 2, ["5", "9", "10", "11"], rows(2)),
            void,
        ]);
        let ranked: Vec<&str> = s.players.iter().map(|p| p.player.as_str()).collect();
        for gone in ["6", "7", "8"] {
            assert!(!ranked.contains(&gone), "{ranked:?}");
        }
        assert_eq!(line(&s, "5").rounds, vec![Some(3), None]);
        let named = |c: &NightCheck| c.sheets.iter().any(|n| n == "doko.png");
        assert!(!s.checks.iter().any(named), "{:?}", s.checks);
        assert!(
            !s.checks.iter().any(|c| c.message.contains("layer 5 ")),
            "{:?}",
            s.checks
        );
        assert_eq!(s.settled.len(), 1);
        assert_eq!(s.settled[0].0.kind, NightCheckKind::SheetVoid);
        assert_eq!(s.settled[0].1.by, "AB");
    }

    #[test]
    fn a_voided_photo_of_nothing_should_leave_the_ranking_final() {
        let mut junk = sheet(1, 2, ["5", "6", "7", "8"], rows(2));
        junk.1.status = Status::Unreadable;
        junk.1.players = vec![None; 4];
        let s = night(vec![
            sheet(1, 1, ["1", "2", "3", "4"], rows(2)),
            junk.clone(),
        ]);
        assert!(
            s.checks
                .iter()
                .any(|c| c.kind == NightCheckKind::SheetUnreadable)
        );
        junk.1.notes.void = Some(Void {
            by: "AB".into(),
            at: "now".into(),
            reason: "kein Blatt".into(),
        });
        let s = night(vec![sheet(1, 1, ["1", "2", "3", "4"], rows(2)), junk]);
        assert!(s.checks.is_empty(), "{:?}", s.checks);
        assert_eq!(s.settled.len(), 1);
    }

    #[test]
    fn the_same_paper_twice_should_count_once_until_a_person_decides() {
        let first = sheet(1, 1, ["27", "2", "3", "4"], rows(12));
        let mut fax = first.clone();
        fax.1.source = Some("fax.png".into());
        let s = night(vec![first, fax.clone()]);
        assert_eq!(line(&s, "27").total, 78);
        assert!(
            s.checks
                .iter()
                .any(|c| c.kind == NightCheckKind::SheetTwice)
        );
        // Another table's sheet with the same rows is no copy of this paper.
        let mut other = fax;
        other.1.players = ["31", "32", "33", "34"].map(|p| Some(p.into())).to_vec();
        let s = night(vec![sheet(1, 1, ["27", "2", "3", "4"], rows(12)), other]);
        assert_eq!(line(&s, "31").total, 78);
    }

    #[test]
    fn players_are_linked_across_rounds_by_their_number() {
        let s = night(vec![
            sheet(
                1,
                1,
                ["1", "2", "3", "4"],
                vec![row(1, [1, 1, -1, -1], None)],
            ),
            sheet(
                2,
                1,
                ["3", "0001", "2", "4"],
                vec![row(1, [2, -2, 2, -2], None)],
            ),
        ]);
        let one = line(&s, "1");
        assert_eq!(one.total, -1);
        assert_eq!(one.rounds, vec![Some(1), Some(-2)]);
        assert_eq!(line(&s, "2").total, 3);
        assert_eq!(line(&s, "3").total, 1);
        assert_eq!(line(&s, "4").total, -3);
        assert_eq!(
            s.players.iter().map(|p| p.rank).collect::<Vec<_>>(),
            vec![1, 2, 3, 4]
        );
        assert!(s.checks.is_empty(), "{:?}", s.checks);
    }

    #[test]
    fn a_won_solo_ranks_a_player_ahead_on_equal_points() {
        // Seat 1 wins a solo (+6); seat 3 wins two Rufspiele durch (+3 each).
        let s = night(vec![sheet(
            1,
            1,
            ["10", "20", "30", "40"],
            vec![
                row(1, [6, -2, -2, -2], Some(0)),
                row(2, [-3, -3, 3, 3], None),
                row(3, [3, -3, 3, -3], None),
                row(4, [-1, 1, 1, -1], None),
            ],
        )]);
        let a = line(&s, "10");
        let c = line(&s, "30");
        assert_eq!((a.total, c.total), (5, 5));
        assert_eq!(a.tie_breaks, vec![0, 0, 1, 1]);
        assert_eq!((a.rank, c.rank), (1, 2));
    }

    #[test]
    fn players_nothing_separates_share_a_rank() {
        let s = night(vec![sheet(
            1,
            1,
            ["1", "2", "3", "4"],
            vec![row(1, [1, 1, -1, -1], None)],
        )]);
        let ranks: Vec<(usize, &str)> = s
            .players
            .iter()
            .map(|p| (p.rank, p.player.as_str()))
            .collect();
        assert_eq!(ranks, vec![(1, "1"), (1, "2"), (3, "3"), (3, "4")]);
    }

    #[test]
    fn night_inconsistencies_are_reported_not_dropped() {
        let mut unknown = sheet(
            2,
            2,
            ["5", "6", "7", "8"],
            vec![row(1, [1, 1, -1, -1], None)],
        );
        unknown.1.players[3] = None;
        let s = night(vec![
            sheet(
                1,
                1,
                ["1", "2", "3", "4"],
                vec![row(1, [1, 1, -1, -1], None)],
            ),
            sheet(
                1,
                1,
                ["5", "6", "7", "1"],
                vec![row(1, [1, 1, -1, -1], None)],
            ),
            sheet(
                2,
                1,
                ["1", "2", "3", "4"],
                vec![row(1, [1, 1, -1, -1], None)],
            ),
            unknown,
        ]);
        let kinds: Vec<NightCheckKind> = s.checks.iter().map(|c| c.kind).collect();
        assert!(kinds.contains(&NightCheckKind::TableTwice), "{kinds:?}");
        assert!(kinds.contains(&NightCheckKind::PlayerTwiceInRound));
        assert!(kinds.contains(&NightCheckKind::PlayerIdUnreadable));
        // Both sheets of round 1, table 1 carry the same name: one review entry.
        let one = line(&s, "1");
        assert_eq!(one.review, vec!["r1t1.png".to_string()]);
    }

    #[test]
    fn a_player_absent_from_a_round_is_reported() {
        let s = night(vec![
            sheet(
                1,
                1,
                ["1", "2", "3", "4"],
                vec![row(1, [1, 1, -1, -1], None)],
            ),
            sheet(
                2,
                1,
                ["1", "2", "3", "9"],
                vec![row(1, [1, 1, -1, -1], None)],
            ),
        ]);
        let missing: Vec<&NightCheck> = s
            .checks
            .iter()
            .filter(|c| c.kind == NightCheckKind::PlayerMissingRound)
            .collect();
        assert_eq!(missing.len(), 2, "{missing:?}");
        assert!(missing.iter().any(|c| c.message.contains("player 4 ")));
        assert!(missing.iter().any(|c| c.message.contains("player 9 ")));
        // 4 and 9 are one digit apart, each seen only where the other is missing.
        assert!(
            missing
                .iter()
                .any(|c| c.message.contains("perhaps the same as player 9")),
            "{missing:?}"
        );
    }

    #[test]
    fn a_number_the_reader_also_read_otherwise_should_be_named_as_perhaps_the_same_player() {
        let (name, mut second) = sheet(
            2,
            1,
            ["1", "2", "3", "57"],
            vec![row(1, [1, 1, -1, -1], None)],
        );
        second.flags.push(crate::check::flags::Flag {
            code: Code::CellUncertain,
            severity: Code::CellUncertain.severity(),
            row: None,
            seat: Some(4),
            field: Some("player_id".into()),
            message: "read 57".into(),
            detail: crate::check::flags::FlagDetail {
                alternatives: vec![("4".into(), 0.2)],
                ..Default::default()
            },
            extra: Default::default(),
        });
        let s = night(vec![
            sheet(
                1,
                1,
                ["1", "2", "3", "4"],
                vec![row(1, [1, 1, -1, -1], None)],
            ),
            (name, second),
        ]);
        let hinted = s
            .checks
            .iter()
            .filter(|c| c.kind == NightCheckKind::PlayerMissingRound)
            .filter(|c| c.message.contains("perhaps the same as player"))
            .count();
        assert_eq!(hinted, 2, "{:?}", s.checks);
    }

    #[test]
    fn numbers_nobody_registered_and_registered_players_without_a_sheet_should_be_checks() {
        let sheets = vec![sheet(
            1,
            1,
            ["101", "102", "103", "177"],
            vec![row(1, [1, 1, -1, -1], None)],
        )];
        let rules = RuleSet::load("merkur").expect("merkur");
        let list = Participants::parse("101\n102\n0103\n107\n200\n");
        let s = standings(&sheets, &rules, Some(&list), Lang::En);
        let of = |kind| {
            s.checks
                .iter()
                .filter(|c| c.kind == kind)
                .map(|c| c.message.as_str())
                .collect::<Vec<_>>()
        };
        let unregistered = of(NightCheckKind::PlayerNotRegistered);
        assert_eq!(unregistered.len(), 1, "{unregistered:?}");
        assert!(unregistered[0].contains("player 177 (r1t1.png)"));
        assert!(unregistered[0].contains("perhaps registered player 107"));
        let absent = of(NightCheckKind::RegisteredWithoutSheet);
        assert_eq!(absent.len(), 2, "{absent:?}");
        assert!(
            absent
                .iter()
                .any(|m| m.contains("player 107 is on no sheet (perhaps read as 177"))
        );
        assert!(
            absent
                .iter()
                .any(|m| m.contains("player 200 is on no sheet:"))
        );
        // The unregistered number's sheet goes to a person; registered ones stay as they are.
        assert_eq!(line(&s, "177").review, vec!["r1t1.png".to_string()]);
        assert!(line(&s, "101").review.is_empty());
        // Without a list there are no such checks.
        assert!(night(sheets).checks.is_empty());
    }

    #[test]
    fn numbers_one_digit_apart_are_recognised() {
        assert!(one_digit_apart("417", "417"));
        assert!(one_digit_apart("417", "447"));
        assert!(one_digit_apart("417", "17"));
        assert!(!one_digit_apart("17", "1717"));
        assert!(!one_digit_apart("417", "174"));
    }

    #[test]
    fn a_sheet_with_an_error_flag_is_named_in_review() {
        let (name, mut s) = sheet(
            1,
            3,
            ["1", "2", "3", "4"],
            vec![row(1, [1, 1, -1, -1], None)],
        );
        s.endergebnis[0] = Some(5);
        let s = verify(s, &RuleSet::load("merkur").expect("merkur"), Lang::En).expect("verify");
        assert!(s.flags.iter().any(|f| f.code == Code::EndergebnisMismatch));
        let st = night(vec![(name, s)]);
        assert_eq!(line(&st, "2").review, vec!["r1t3.png".to_string()]);
        // The written Endergebnis counts, wrong or not: the flag points at it.
        assert_eq!(line(&st, "1").total, 5);
    }

    #[test]
    fn a_value_in_another_pen_should_name_its_sheet_in_review_for_everyone_at_its_row() {
        let (name, mut s) = sheet(
            1,
            4,
            ["1", "2", "3", "4"],
            vec![row(1, [1, 1, -1, -1], None)],
        );
        s.flags.push(crate::check::flags::Flag {
            code: Code::InkDiffers,
            severity: Code::InkDiffers.severity(),
            row: Some(1),
            seat: Some(2),
            field: Some("plus".into()),
            message: "another pen".into(),
            detail: Default::default(),
            extra: Default::default(),
        });
        let st = night(vec![(name, s)]);
        for player in ["1", "2", "3", "4"] {
            assert_eq!(line(&st, player).review, vec!["r1t4.png".to_string()]);
        }
    }

    #[test]
    fn csv_has_the_contract_columns_in_order() {
        let s = night(vec![sheet(
            1,
            1,
            ["1", "2", "3", "4"],
            vec![row(1, [1, 1, -1, -1], None)],
        )]);
        let mut out = Vec::new();
        s.write_csv(&mut out).expect("csv");
        let text = String::from_utf8(out).expect("utf8");
        let header = text.lines().next().expect("header");
        assert_eq!(
            header,
            "rank,player,total,round_1,round_2,tout_won,tout_played,solo_won,solo_played,review,status"
        );
        assert_eq!(text.lines().nth(1), Some("1,1,1,1,,0,0,0,0,,Endergebnis"));
    }
}
