//! A Teilnehmer-Nr. by its value: "0107" and "107" are one player by
//! construction, and numbers order as numbers (9 before 10).

use std::cmp::Ordering;
use std::fmt;

use serde::{Serialize, Serializer};

/// A participant number as compared, counted and shown: leading zeros
/// and surrounding space dropped ("000" is "0"). Anything else is kept as
/// written, so a list's odd entry still names one player.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PlayerNo(String);

impl PlayerNo {
    /// The number written `written`.
    pub fn new(written: &str) -> PlayerNo {
        let digits = written.trim().trim_start_matches('0');
        PlayerNo(match digits {
            "" => "0".to_string(),
            d => d.to_string(),
        })
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The longest Teilnehmer-Nr. a list may hold (the forms have room for 4).
pub const MAX_DIGITS: usize = 6;

/// A Teilnehmer-Nr. given by a person (an option, a list): one to
/// [`MAX_DIGITS`] digits.
impl std::str::FromStr for PlayerNo {
    type Err = NotAPlayerNo;

    fn from_str(text: &str) -> Result<PlayerNo, NotAPlayerNo> {
        let digits = text.trim();
        let fits = (1..=MAX_DIGITS).contains(&digits.len());
        match fits && digits.bytes().all(|b| b.is_ascii_digit()) {
            true => Ok(PlayerNo::new(digits)),
            false => Err(NotAPlayerNo(text.to_string())),
        }
    }
}

/// Text that is no participant number.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is no participant number")]
pub struct NotAPlayerNo(pub String);

impl From<&str> for PlayerNo {
    fn from(written: &str) -> PlayerNo {
        PlayerNo::new(written)
    }
}

impl From<&String> for PlayerNo {
    fn from(written: &String) -> PlayerNo {
        PlayerNo::new(written)
    }
}

impl PartialEq<str> for PlayerNo {
    fn eq(&self, written: &str) -> bool {
        *self == PlayerNo::new(written)
    }
}

impl PartialEq<&str> for PlayerNo {
    fn eq(&self, written: &&str) -> bool {
        *self == PlayerNo::new(written)
    }
}

impl Ord for PlayerNo {
    /// Shorter numbers first, then digit by digit: the numbers' order.
    fn cmp(&self, other: &Self) -> Ordering {
        (self.0.len(), &self.0).cmp(&(other.0.len(), &other.0))
    }
}

impl PartialOrd for PlayerNo {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for PlayerNo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Serialize for PlayerNo {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leading_zeros_and_space_should_not_make_another_player() {
        assert_eq!(PlayerNo::new("0107"), PlayerNo::new(" 107 "));
        assert_eq!(PlayerNo::new("0107").to_string(), "107");
        assert_eq!(PlayerNo::new("000").to_string(), "0");
        assert_ne!(PlayerNo::new("107"), PlayerNo::new("1070"));
    }

    #[test]
    fn a_number_given_should_be_digits() {
        assert_eq!("0088".parse(), Ok(PlayerNo::new("88")));
        assert!("8a".parse::<PlayerNo>().is_err());
        assert!("".parse::<PlayerNo>().is_err());
        assert!("1234567".parse::<PlayerNo>().is_err());
    }

    #[test]
    fn numbers_should_order_as_numbers() {
        let mut numbers: Vec<PlayerNo> = ["10", "9", "0100", "11"].map(PlayerNo::new).to_vec();
        numbers.sort();
        let shown: Vec<String> = numbers.iter().map(ToString::to_string).collect();
        assert_eq!(shown, ["9", "10", "11", "100"]);
    }
}
