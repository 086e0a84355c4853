//! A complaint answered from the archive alone: for a player, every sheet
//! they sat at (all rounds), or one sheet; each with its result (readings,
//! flags, arithmetic), its trail (paper corrections are in the result,
//! desk corrections, initials and verdicts in the trail) and the player's
//! standings line. [`page`](crate::night::audit_page) draws it as one
//! self-contained HTML page; the contract's JSON is this, serialised.

use serde::Serialize;

use crate::check::messages::Lang;
use crate::error::ArchiveError;
use crate::night::archive::{Archive, Change, ChangeKind, StoredSheet};
use crate::night::ranking::{NightRules, rank};
use crate::night::standings::player_key;
use crate::sheet::SheetResult;

/// Whom or what an audit is of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Subject<'a> {
    /// A participant number ("0417" and "417" are one player).
    Player(&'a str),
    /// A sheet by its archive id.
    Sheet(i64),
}

/// The contract's audit.
#[derive(Debug, Clone, Serialize)]
pub struct Audit {
    pub player: Option<String>,
    pub sheets: Vec<AuditedSheet>,
    /// The player's standings line by the CSV's column names.
    pub standings: Option<serde_json::Map<String, serde_json::Value>>,
}

/// One sheet of an audit.
#[derive(Debug, Clone, Serialize)]
pub struct AuditedSheet {
    pub id: i64,
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
        Subject::Player(p) => player_audit(archive, tournament, p, night, lang),
        Subject::Sheet(id) => {
            let stored = archive
                .sheet(tournament, id)?
                .ok_or(ArchiveError::NoSuchSheet(id))?;
            Ok(Audit {
                player: None,
                sheets: vec![audited(archive, &stored, None)?],
                standings: None,
            })
        }
    }
}

/// Every sheet `player` sat at, and their standings line over the night.
fn player_audit(
    archive: &Archive,
    tournament: i64,
    player: &str,
    night: NightRules,
    lang: Lang,
) -> Result<Audit, ArchiveError> {
    let stored = archive.sheets(tournament)?;
    let mut sheets = Vec::new();
    for s in &stored {
        if let Some(seat) = seat_of(&s.result, player) {
            sheets.push(audited(archive, s, Some(seat))?);
        }
    }
    if sheets.is_empty() {
        return Err(ArchiveError::NoSuchPlayer(player.to_string()));
    }
    sheets.sort_by_key(|s| (s.round, s.table, s.id));
    let named = stored.into_iter().map(StoredSheet::into_named).collect();
    Ok(Audit {
        player: Some(player.to_string()),
        sheets,
        standings: rank(named, night, lang).standings.line_of(player),
    })
}

/// The seat (from 1) where `player` sat on the sheet.
fn seat_of(sheet: &SheetResult, player: &str) -> Option<usize> {
    let key = player_key(player);
    sheet
        .players
        .iter()
        .position(|p| p.as_deref().is_some_and(|p| player_key(p) == key))
        .map(|i| i + 1)
}

fn audited(
    archive: &Archive,
    s: &StoredSheet,
    seat: Option<usize>,
) -> Result<AuditedSheet, ArchiveError> {
    Ok(AuditedSheet {
        id: s.id,
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
        ChangeKind::Correction if change.field == format!("endergebnis.{seat}") => {
            Some(number(&change.new)? - number(&change.old)?)
        }
        ChangeKind::Verdict => {
            let end = sheet.endergebnis.get(seat - 1).copied().flatten()?;
            let voided = change.new.as_deref().is_some_and(|r| !r.is_empty());
            Some(if voided { -end } else { end })
        }
        _ => None,
    }
}
