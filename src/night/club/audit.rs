//! A complaint answered from the archive alone: for a player, every sheet
//! they sat at (all rounds), or one sheet; each with its result (readings,
//! flags, arithmetic), its trail (paper corrections are in the result,
//! desk corrections, initials and verdicts in the trail) and the player's
//! standings line. [`page`](crate::night::club::audit_page) draws it as one
//! self-contained HTML page; the contract's JSON is this, serialised.

use serde::Serialize;

use crate::check::messages::Lang;
use crate::check::rules::RuleSet;
use crate::error::{ArchiveError, ClubError};
use crate::night::club::archive::{Archive, Change, ChangeKind, StoredSheet};
use crate::night::club::season::{self, SeasonRule};
use crate::night::tournament::names::Names;
use crate::night::tournament::ranking::{NightRules, rank};
use crate::sheet::{PlayerNo, SheetResult};

/// Whom or what an audit is of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Subject {
    Player(PlayerNo),
    /// A sheet by its archive id.
    Sheet(i64),
}

/// The contract's audit.
#[derive(Debug, Clone, Serialize)]
pub struct Audit {
    pub player: Option<PlayerNo>,
    /// The player's name, where a night's list or the club's names them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Who every number on the audit's sheets is (for the page).
    #[serde(skip)]
    pub names: Names,
    pub sheets: Vec<AuditedSheet>,
    /// The player's standings line by the CSV's column names: of the
    /// night audited (none for a season audit over several nights).
    pub standings: Option<Line>,
    /// A season audit's nights the player played, in date order, each
    /// with its standings line.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub nights: Vec<AuditedNight>,
    /// A season audit's line of the season table.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub season: Option<Line>,
}

/// A line of a table by its column names.
pub type Line = serde_json::Map<String, serde_json::Value>;

/// A night of a season audit.
#[derive(Debug, Clone, Serialize)]
pub struct AuditedNight {
    pub name: String,
    /// `YYYY-MM-DD`, where the night has a date.
    pub date: Option<String>,
    pub standings: Option<Line>,
}

/// One sheet of an audit.
#[derive(Debug, Clone, Serialize)]
pub struct AuditedSheet {
    pub id: i64,
    /// The night's name.
    pub tournament: String,
    pub source: Option<String>,
    pub round: Option<u32>,
    pub table: Option<u32>,
    /// The player's seat (from 1); none in a sheet's audit.
    pub seat: Option<usize>,
    pub result: SheetResult,
    pub changes: Vec<AuditedChange>,
    /// The hash of the scan file the archive stored it under.
    #[serde(skip)]
    pub scan_sha256: String,
}

/// A trail entry, with what it moved the audited player's total by.
#[derive(Debug, Clone, Serialize)]
pub struct AuditedChange {
    #[serde(flatten)]
    pub change: Change,
    /// Points it added to the player's total: an Endergebnis of their seat
    /// corrected, or the sheet declared invalid (its Endergebnis taken
    /// away) or valid again. Null where the total does not follow from it
    /// alone (a game cell, initials, another seat, a sheet's audit).
    pub moved: Option<i64>,
}

/// The audit of `subject` in the archive's `tournament`, ranked under the
/// night's rules. A player on no sheet of it is
/// [`ArchiveError::NoSuchPlayer`], a sheet not in it
/// [`ArchiveError::NoSuchSheet`].
pub fn audit(
    archive: &Archive,
    tournament: i64,
    subject: Subject,
    night: NightRules,
    lang: Lang,
) -> Result<Audit, ArchiveError> {
    match subject {
        Subject::Player(p) => player_audit(archive, tournament, &p, night, lang),
        Subject::Sheet(id) => {
            let stored = archive
                .sheet(tournament, id)?
                .ok_or(ArchiveError::NoSuchSheet(id))?;
            Ok(Audit {
                player: None,
                name: None,
                names: archive.names()?,
                sheets: vec![audited(
                    archive,
                    &archive.name_of(tournament)?,
                    &stored,
                    None,
                )?],
                standings: None,
                nights: Vec::new(),
                season: None,
            })
        }
    }
}

/// Every sheet `player` sat at, and their standings line over the night.
fn player_audit(
    archive: &Archive,
    tournament: i64,
    player: &PlayerNo,
    night: NightRules,
    lang: Lang,
) -> Result<Audit, ArchiveError> {
    let (sheets, standings) = night_of_player(archive, tournament, player, night, lang)?;
    if sheets.is_empty() {
        return Err(ArchiveError::NoSuchPlayer(player.to_string()));
    }
    let names = archive.names()?;
    Ok(Audit {
        player: Some(player.clone()),
        name: names.get(player.as_str()).map(String::from),
        names,
        sheets,
        standings,
        nights: Vec::new(),
        season: None,
    })
}

impl Audit {
    /// Names those no night's list names from `more` (the club's members).
    pub fn name_from(&mut self, more: &Names) {
        self.names.fill_from(more);
        let player = self.player.as_ref();
        self.name = player
            .and_then(|p| self.names.get(p.as_str()))
            .map(String::from);
    }
}

/// The sheets `player` sat at in the night (by round and table), and
/// their standings line over it.
fn night_of_player(
    archive: &Archive,
    tournament: i64,
    player: &PlayerNo,
    night: NightRules,
    lang: Lang,
) -> Result<(Vec<AuditedSheet>, Option<Line>), ArchiveError> {
    let stored = archive.sheets(tournament)?;
    let name = archive.name_of(tournament)?;
    let mut sheets = Vec::new();
    for s in &stored {
        if let Some(seat) = seat_of(&s.result, player) {
            sheets.push(audited(archive, &name, s, Some(seat))?);
        }
    }
    if sheets.is_empty() {
        return Ok((sheets, None));
    }
    sheets.sort_by_key(|s| (s.round, s.table, s.id));
    let named = stored.into_iter().map(StoredSheet::into_named).collect();
    let line = rank(named, night, lang).standings.line_of(player);
    Ok((sheets, line))
}

/// The audit of `subject` over every night of the archive: a player's
/// nights in date order, each ranked under the rule set it was scanned
/// with, and their line of the season under `rule`; a sheet in whichever
/// night holds it.
pub fn season_audit(
    archive: &Archive,
    subject: Subject,
    rule: &SeasonRule,
    lang: Lang,
) -> Result<Audit, ClubError> {
    let player = match &subject {
        Subject::Player(p) => p.clone(),
        &Subject::Sheet(id) => {
            let night = archive
                .night_of_sheet(id)?
                .ok_or(ArchiveError::NoSuchSheet(id))?;
            let rules = RuleSet::load(&archive.rules_of(night)?)?;
            return Ok(audit(
                archive,
                night,
                subject,
                NightRules::of(&rules),
                lang,
            )?);
        }
    };
    let mut all = Vec::new();
    let mut nights = Vec::new();
    for night in archive.nights()? {
        let rules = RuleSet::load(&night.rules)?;
        let (sheets, standings) =
            night_of_player(archive, night.id, &player, NightRules::of(&rules), lang)?;
        if sheets.is_empty() {
            continue;
        }
        all.extend(sheets);
        nights.push(AuditedNight {
            name: night.key(),
            date: night.date.map(|d| d.to_string()),
            standings,
        });
    }
    if all.is_empty() {
        return Err(ArchiveError::NoSuchPlayer(player.to_string()).into());
    }
    let season = season::of_archive(archive, (None, None), rule, lang)?;
    let names = archive.names()?;
    Ok(Audit {
        player: Some(player.clone()),
        name: names.get(player.as_str()).map(String::from),
        names,
        sheets: all,
        // One night: its line, as an audit of that night gives it.
        standings: match nights.as_slice() {
            [one] => one.standings.clone(),
            _ => None,
        },
        nights,
        season: season.line_of(&player),
    })
}

/// The seat (from 1) where `player` sat on the sheet.
fn seat_of(sheet: &SheetResult, player: &PlayerNo) -> Option<usize> {
    sheet
        .players
        .iter()
        .position(|p| p.as_deref().is_some_and(|p| *player == *p))
        .map(|i| i + 1)
}

fn audited(
    archive: &Archive,
    night: &str,
    s: &StoredSheet,
    seat: Option<usize>,
) -> Result<AuditedSheet, ArchiveError> {
    Ok(AuditedSheet {
        id: s.id,
        tournament: night.to_string(),
        source: s.result.source.clone(),
        round: s.result.round,
        table: s.result.table,
        seat,
        result: s.result.clone(),
        scan_sha256: s.sha256.clone(),
        changes: archive
            .corrections(s.id)?
            .into_iter()
            .map(|change| AuditedChange {
                moved: seat.and_then(|seat| moved(&change, &s.result, seat)),
                change,
            })
            .collect(),
    })
}

/// What a change moved the total of the player at `seat` by (see
/// [`AuditedChange::moved`]).
fn moved(change: &Change, sheet: &SheetResult, seat: usize) -> Option<i64> {
    let number = |v: &Option<String>| v.as_deref().and_then(|v| v.parse::<i64>().ok());
    match change.kind {
        ChangeKind::Paper | ChangeKind::Reading | ChangeKind::Counts
            if change.field == format!("endergebnis.{seat}") =>
        {
            Some(number(&change.new)? - number(&change.old)?)
        }
        ChangeKind::Void => {
            let end = sheet.endergebnis.get(seat - 1).copied().flatten()?;
            let voided = change.new.as_deref().is_some_and(|r| !r.is_empty());
            Some(if voided { -end } else { end })
        }
        _ => None,
    }
}
