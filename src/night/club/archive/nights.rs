//! The archive's nights: named, dated, picked by name or date, the newest
//! found, and each night's participants list (its names).

use super::engine::{Sql, args};
use super::{Archive, StoredSheet, now};
use crate::catalogue::Lang;
use crate::error::ArchiveError;
use crate::night::tournament::names::Names;
use chrono::NaiveDate;

/// A night (tournament) of the archive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Night {
    pub id: i64,
    /// Its name, as its venue named it.
    pub name: String,
    /// The venue it was pushed from, in a series' central archive.
    pub venue: Option<String>,
    /// Its date, where the scan gave one (stored as `YYYY-MM-DD`).
    pub date: Option<NaiveDate>,
    /// The rule set it was scanned with.
    pub rules: String,
}

impl Night {
    /// Whether it lies in the dates `from` to `to` (both included, either
    /// open). Without bounds every night does; with one, an undated night
    /// does not.
    pub fn within(&self, from: Option<NaiveDate>, to: Option<NaiveDate>) -> bool {
        match (from, to, self.date) {
            (None, None, _) => true,
            (_, _, None) => false,
            (from, to, Some(d)) => from.is_none_or(|f| d >= f) && to.is_none_or(|t| d <= t),
        }
    }

    /// How a person names it: its venue's name and its own (`VENUE/NAME`)
    /// in a series' archive, else its own name.
    pub fn key(&self) -> String {
        match &self.venue {
            Some(venue) => format!("{venue}/{}", self.name),
            None => self.name.clone(),
        }
    }

    /// Its [`Night::key`], with its date where it has one: how a person
    /// picks it.
    pub fn label(&self) -> String {
        match self.date {
            Some(day) => format!("{} ({})", self.key(), crate::catalogue::date(Lang::De, day)),
            None => self.key(),
        }
    }
}

/// Night `tournament`'s list of names (number, name) in place of the
/// one it had.
pub(super) fn replace_names(
    tx: &mut impl Sql,
    tournament: i64,
    names: &[(String, String)],
) -> Result<(), ArchiveError> {
    tx.execute(
        "DELETE FROM names WHERE tournament_id = ?1",
        args![tournament],
    )?;
    for (number, name) in names {
        tx.execute(
            "INSERT INTO names (tournament_id, number, name) VALUES (?1, ?2, ?3)",
            args![tournament, number, name],
        )?;
    }
    Ok(())
}

/// A night's own name, where the archive keeps it under its venue's
/// (`VENUE/NAME`).
fn own_name(stored: &str, venue: Option<&str>) -> String {
    venue
        .and_then(|v| stored.strip_prefix(v))
        .and_then(|rest| rest.strip_prefix('/'))
        .unwrap_or(stored)
        .to_string()
}

/// A date as the archive stores it (`YYYY-MM-DD`), read back.
fn stored_date(text: &str) -> Result<NaiveDate, ArchiveError> {
    NaiveDate::parse_from_str(text, "%Y-%m-%d").map_err(|_| ArchiveError::BadDate(text.to_string()))
}

impl Archive {
    /// The tournament's id, created on first use.
    pub fn tournament(&self, name: &str, rules: &str) -> Result<i64, ArchiveError> {
        let mut db = self.conn.db();
        db.execute(
            "INSERT INTO tournaments (name, rules, created) VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING",
            args![name, rules, now()],
        )?;
        db.value("SELECT id FROM tournaments WHERE name = ?1", args![name])
    }

    /// The tournament's date, where one was given.
    pub fn date_of(&self, tournament: i64) -> Result<Option<NaiveDate>, ArchiveError> {
        let text: Option<String> = self.conn.db().value(
            "SELECT date FROM tournaments WHERE id = ?1",
            args![tournament],
        )?;
        text.as_deref().map(stored_date).transpose()
    }

    /// Dates the tournament. A night keeps its date: another one is
    /// refused, nothing changed.
    pub fn date(&self, tournament: i64, date: NaiveDate) -> Result<(), ArchiveError> {
        match self.date_of(tournament)? {
            Some(had) if had != date => {
                let name = self.name_of(tournament)?;
                Err(ArchiveError::DateDiffers {
                    name,
                    had: had.to_string(),
                    given: date.to_string(),
                })
            }
            Some(_) => Ok(()),
            None => {
                self.conn.db().execute(
                    "UPDATE tournaments SET date = ?2 WHERE id = ?1",
                    args![tournament, date.to_string()],
                )?;
                Ok(())
            }
        }
    }

    /// The archive's nights, dated ones in date order, then undated ones,
    /// each by name.
    pub fn nights(&self) -> Result<Vec<Night>, ArchiveError> {
        let rows = self.conn.db().query(
            "SELECT id, name, date, rules, venue FROM tournaments ORDER BY date IS NULL, date, name",
            args![],
        )?;
        rows.iter()
            .map(|r| {
                let name: String = r.get(1)?;
                let venue: Option<String> = r.get(4)?;
                let date: Option<String> = r.get(2)?;
                Ok(Night {
                    id: r.get(0)?,
                    name: own_name(&name, venue.as_deref()),
                    venue,
                    date: date.as_deref().map(stored_date).transpose()?,
                    rules: r.get(3)?,
                })
            })
            .collect()
    }

    /// The night a desk opens on without being told: the latest dated
    /// one, else the one stored last.
    pub fn newest_night(&self) -> Result<i64, ArchiveError> {
        let nights = self.nights()?;
        let dated = nights
            .iter()
            .filter(|n| n.date.is_some())
            .max_by_key(|n| (n.date, n.id));
        let newest = dated.or_else(|| nights.iter().max_by_key(|n| n.id));
        newest.map(|n| n.id).ok_or(ArchiveError::Empty)
    }

    /// How many sheets each night holds, by the night's id.
    pub fn sheet_counts(&self) -> Result<std::collections::HashMap<i64, usize>, ArchiveError> {
        let rows = self.conn.db().query(
            "SELECT tournament_id, COUNT(*) FROM sheets GROUP BY tournament_id",
            args![],
        )?;
        rows.iter()
            .map(|r| Ok((r.get(0)?, usize::try_from(r.get::<i64>(1)?).unwrap_or(0))))
            .collect()
    }

    /// A stored sheet by its archive id, in whichever night holds it.
    pub fn sheet_anywhere(
        &self,
        sheet_id: i64,
    ) -> Result<Option<(i64, StoredSheet)>, ArchiveError> {
        let Some(night) = self.night_of_sheet(sheet_id)? else {
            return Ok(None);
        };
        Ok(self.sheet(night, sheet_id)?.map(|s| (night, s)))
    }

    /// Keeps `names` as the night's participants list, in place of the
    /// one it had.
    pub fn keep_names(&mut self, tournament: i64, names: &Names) -> Result<(), ArchiveError> {
        let mut tx = self.write()?;
        let names: Vec<(String, String)> = names
            .iter()
            .map(|(number, name)| (number.as_str().to_string(), name.to_string()))
            .collect();
        replace_names(&mut tx, tournament, &names)?;
        tx.commit()
    }

    /// Every night's capture key, by the night's id.
    pub fn capture_keys(&self) -> Result<Vec<(i64, String)>, ArchiveError> {
        let rows = self.conn.db().query(
            "SELECT tournament_id, key FROM capture_keys ORDER BY tournament_id",
            args![],
        )?;
        rows.iter().map(|r| Ok((r.get(0)?, r.get(1)?))).collect()
    }

    /// Keeps `key` as night `tournament`'s capture key, in place of the
    /// one it had.
    pub fn keep_capture_key(&mut self, tournament: i64, key: &str) -> Result<(), ArchiveError> {
        self.conn.db().execute(
            "INSERT INTO capture_keys (tournament_id, key) VALUES (?1, ?2)
             ON CONFLICT (tournament_id) DO UPDATE SET key = excluded.key",
            args![tournament, key],
        )?;
        Ok(())
    }

    /// The desk's key for other computers, kept so that a restart of the
    /// desk lets in who it let in before; made and kept where there is none.
    pub fn desk_key(&mut self, fresh: impl FnOnce() -> String) -> Result<String, ArchiveError> {
        let kept: Option<String> = self
            .conn
            .db()
            .optional("SELECT key FROM desk_keys WHERE name = 'lan'", args![])?;
        if let Some(key) = kept {
            return Ok(key);
        }
        // Two desks starting at once on one archive keep one key.
        self.conn.db().execute(
            "INSERT INTO desk_keys (name, key) VALUES ('lan', ?1) ON CONFLICT (name) DO NOTHING",
            args![fresh().as_str()],
        )?;
        self.conn
            .db()
            .value("SELECT key FROM desk_keys WHERE name = 'lan'", args![])
    }

    /// The names every night's list gives, the newest night's first.
    pub fn names(&self) -> Result<Names, ArchiveError> {
        let rows = self.conn.db().query(
            "SELECT n.number, n.name FROM names n JOIN tournaments t ON t.id = n.tournament_id
             ORDER BY t.date IS NULL, t.date DESC, t.id DESC",
            args![],
        )?;
        let mut names = Names::default();
        for r in rows {
            names.name_if_unnamed(&r.get::<String>(0)?, &r.get::<String>(1)?);
        }
        Ok(names)
    }

    /// The tournament's name (in a series' archive, `VENUE/NAME`).
    pub fn name_of(&self, tournament: i64) -> Result<String, ArchiveError> {
        self.conn.db().value(
            "SELECT name FROM tournaments WHERE id = ?1",
            args![tournament],
        )
    }

    /// The night that holds the sheet of this archive id, if any.
    pub fn night_of_sheet(&self, sheet_id: i64) -> Result<Option<i64>, ArchiveError> {
        self.conn.db().optional(
            "SELECT tournament_id FROM sheets WHERE id = ?1",
            args![sheet_id],
        )
    }

    /// The rule set the tournament was scanned with.
    pub fn rules_of(&self, tournament: i64) -> Result<String, ArchiveError> {
        self.conn.db().value(
            "SELECT rules FROM tournaments WHERE id = ?1",
            args![tournament],
        )
    }

    /// The night named by its name or its date (YYYY-MM-DD, where one
    /// night has it), or the only one when none is named.
    pub fn pick_tournament(&self, night: Option<&str>) -> Result<i64, ArchiveError> {
        let all = self.nights()?;
        let labels = |nights: &[&Night]| {
            nights
                .iter()
                .map(|n| n.label())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let every: Vec<&Night> = all.iter().collect();
        let Some(wanted) = night else {
            return match every.as_slice() {
                [one] => Ok(one.id),
                [] => Err(ArchiveError::Empty),
                _ => Err(ArchiveError::SeveralTournaments(labels(&every))),
            };
        };
        if let Some(n) = all.iter().find(|n| n.key() == wanted) {
            return Ok(n.id);
        }
        // As the contract writes a date, or as Germans do (3.12.2026).
        let wanted_date = ["%Y-%m-%d", "%d.%m.%Y"]
            .iter()
            .find_map(|f| NaiveDate::parse_from_str(wanted.trim(), f).ok());
        let dated: Vec<&Night> = all
            .iter()
            .filter(|n| wanted_date.is_some() && n.date == wanted_date)
            .collect();
        match dated.as_slice() {
            [one] => Ok(one.id),
            [] => Err(ArchiveError::NoTournament {
                name: wanted.to_string(),
                names: labels(&every),
            }),
            _ => Err(ArchiveError::SeveralTournaments(labels(&dated))),
        }
    }
}
