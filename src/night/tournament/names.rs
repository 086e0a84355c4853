//! Who a Teilnehmer-Nr. is: the names a night's participants list gives,
//! and where no night's list names a player, the club's member list
//! (`[members] file` in CLUB.toml). Numbers are compared by value ("088"
//! is 88, [`PlayerNo`]).

use std::collections::BTreeMap;
use std::path::Path;

use crate::error::ParticipantsError;
use crate::night::tournament::roster::Roster;
use crate::sheet::PlayerNo;

/// Names by participant number (its key).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Names(BTreeMap<PlayerNo, String>);

impl Names {
    /// The names a list gives (a list of numbers alone gives none).
    pub fn of_roster(roster: &Roster) -> Names {
        let named = roster.people.iter().filter(|p| !p.name.trim().is_empty());
        Names(
            named
                .map(|p| (PlayerNo::new(&p.number), p.name.trim().to_string()))
                .collect(),
        )
    }

    /// The names of the list at `path` (a club's member list, say).
    pub fn load(path: &Path) -> Result<Names, ParticipantsError> {
        Ok(Names::of_roster(&Roster::load(path)?))
    }

    /// The name of participant `number`, if any list gives one.
    pub fn get(&self, number: &str) -> Option<&str> {
        self.0.get(&PlayerNo::new(number)).map(String::as_str)
    }

    /// The number, its name after it where a list gives one ("88 Huber").
    pub fn label(&self, number: &PlayerNo) -> String {
        match self.0.get(number) {
            Some(name) => format!("{number} {name}"),
            None => number.to_string(),
        }
    }

    /// Adds the names `other` gives for numbers this has none for.
    pub fn fill_from(&mut self, other: &Names) {
        for (number, name) in &other.0 {
            self.0.entry(number.clone()).or_insert_with(|| name.clone());
        }
    }

    /// Each (number, name).
    pub fn iter(&self) -> impl Iterator<Item = (&PlayerNo, &str)> {
        self.0.iter().map(|(k, v)| (k, v.as_str()))
    }

    /// Names `number` where nothing names it yet.
    pub fn name_if_unnamed(&mut self, number: &str, name: &str) {
        let number = PlayerNo::new(number);
        self.0.entry(number).or_insert_with(|| name.to_string());
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_should_be_found_by_the_numbers_value_and_a_nights_list_should_come_first() {
        let night = Roster::parse("number,name\n088,Huber\n7,\n").expect("list");
        let mut names = Names::of_roster(&night);
        assert_eq!(names.get("88"), Some("Huber"));
        assert_eq!(names.get("0088"), Some("Huber"));
        assert_eq!(names.get("7"), None, "no name, none made up");
        let members = Roster::parse("number,name\n88,Maier\n7,Wagner\n").expect("members");
        names.fill_from(&Names::of_roster(&members));
        assert_eq!(names.get("88"), Some("Huber"));
        assert_eq!(names.get("7"), Some("Wagner"));
    }
}
