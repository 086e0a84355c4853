//! What the desk answers a phone about a photo it sent: one sentence that
//! names the round and table read, and what a person at the table can
//! still do about it while the sheet lies there.

use crate::catalogue::{Lang, say};
use crate::check::flags::{Code, Flag};
use crate::sheet::{SheetResult, Status};

/// Where a sheet of the night lies: its round and table as read, and its id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Place {
    pub round: Option<u32>,
    pub table: Option<u32>,
    pub sheet: i64,
}

/// What became of one sheet read from a sent photo.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Told {
    /// Read, nothing to check.
    Read,
    /// Read, with this many places a person looks at.
    ToCheck(usize),
    /// A sheet of another game than the night's: it does not count.
    OtherGame,
    /// The night holds another sheet of this round and table.
    TableThere,
    /// Not readable; the reason the reading gave, if any.
    Unreadable(Option<String>),
}

impl Told {
    /// The sheet `sheet`, stored as `id`, among the places of the night's
    /// sheets that hold a table.
    pub fn of(sheet: &SheetResult, id: i64, others: &[Place]) -> Told {
        if sheet.status == Status::Unreadable {
            let why = sheet.flags.iter().find(|f| f.code == Code::SheetUnreadable);
            return Told::Unreadable(why.map(|f| f.message.clone()));
        }
        if sheet.flags.iter().any(|f| f.code == Code::WrongGame) {
            return Told::OtherGame;
        }
        let at = (sheet.round, sheet.table);
        let twice = at.0.is_some()
            && at.1.is_some()
            && others
                .iter()
                .any(|o| o.sheet != id && (o.round, o.table) == at);
        if twice {
            return Told::TableThere;
        }
        match to_check(&sheet.flags) {
            0 => Told::Read,
            n => Told::ToCheck(n),
        }
    }

    /// Whether the answer's status is `ok`, `flagged` or `unreadable`.
    pub fn status(&self) -> &'static str {
        match self {
            Told::Read => "ok",
            Told::Unreadable(_) => "unreadable",
            _ => "flagged",
        }
    }
}

/// The places a person looks at: each flag of the sheet once (the
/// consequences folded into one are not counted again).
fn to_check(flags: &[Flag]) -> usize {
    flags.len()
}

/// "Runde 1, Tisch 3: …" for one sheet, or the words for a sheet whose
/// round or table is not read.
pub fn sentence(lang: Lang, sheet: &SheetResult, told: &Told) -> String {
    let what = match told {
        Told::Read => say(lang, "sent-read", &[]),
        Told::ToCheck(n) => say(lang, "sent-to-check", &[("count", n)]),
        Told::OtherGame => say(lang, "sent-other-game", &[]),
        Told::TableThere => say(lang, "sent-table-there", &[]),
        Told::Unreadable(None) => say(lang, "sent-unreadable", &[]),
        Told::Unreadable(Some(why)) => {
            let why = reason_of(lang, why);
            say(lang, "sent-unreadable-because", &[("why", &why)])
        }
    };
    if matches!(told, Told::Unreadable(_)) {
        return what;
    }
    format!("{}: {what}", at(lang, sheet))
}

/// The reason alone of an unreadable sheet's flag message: the flag's
/// own words around it ("Blatt nicht lesbar: ….") left out, so that the
/// phone's answer stays one sentence.
fn reason_of(lang: Lang, message: &str) -> String {
    let frame = say(lang, "flag-sheet-unreadable", &[("why", &"\u{0}")]);
    let (before, after) = frame.split_once('\u{0}').unwrap_or((&frame, ""));
    let inner = message.strip_prefix(before).unwrap_or(message);
    inner.strip_suffix(after).unwrap_or(inner).to_string()
}

/// Where the sheet lies: "Runde 1, Tisch 3", with what is not read said so.
pub fn at(lang: Lang, sheet: &SheetResult) -> String {
    let unknown = say(lang, "sent-unknown", &[]);
    let number = |n: Option<u32>| n.map_or_else(|| unknown.clone(), |n| n.to_string());
    let args: [(&str, &dyn std::fmt::Display); 2] = [
        ("round", &number(sheet.round)),
        ("table", &number(sheet.table)),
    ];
    say(lang, "sent-at", &args)
}

/// One sentence for every sheet a file gave, in page order.
pub fn sentences(lang: Lang, told: &[(SheetResult, Told)]) -> String {
    let all: Vec<String> = told
        .iter()
        .map(|(sheet, told)| sentence(lang, sheet, told))
        .collect();
    all.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::flags::Severity;

    fn sheet(round: Option<u32>, table: Option<u32>) -> SheetResult {
        let mut s = crate::sheet::example::one_row_sheet(1);
        (s.status, s.flags) = (Status::Ok, Vec::new());
        (s.round, s.table) = (round, table);
        s
    }

    fn flag(code: Code) -> Flag {
        Flag {
            code,
            severity: Severity::Warning,
            row: None,
            seat: None,
            field: None,
            message: String::new(),
            detail: Default::default(),
            extra: serde_json::Map::new(),
        }
    }

    fn place(round: Option<u32>, table: Option<u32>, sheet: i64) -> Place {
        Place {
            round,
            table,
            sheet,
        }
    }

    #[test]
    fn a_read_sheet_should_be_named_by_its_round_and_table() {
        let s = sheet(Some(1), Some(30));
        let told = Told::of(&s, 7, &[place(Some(1), Some(30), 7)]);
        assert_eq!(told, Told::Read);
        let said = sentence(Lang::De, &s, &told);
        assert!(said.starts_with("Runde 1, Tisch 30: "), "{said}");
    }

    #[test]
    fn another_sheet_of_the_same_table_should_be_said() {
        let s = sheet(Some(2), Some(4));
        let others = [place(Some(2), Some(4), 3), place(Some(2), Some(4), 9)];
        assert_eq!(Told::of(&s, 9, &others), Told::TableThere);
        assert_eq!(Told::of(&s, 9, &others[1..]), Told::Read);
        // Not read: nothing to hold it against.
        let unread = sheet(Some(2), None);
        let others = [place(Some(2), None, 3)];
        assert_eq!(Told::of(&unread, 9, &others), Told::Read);
    }

    #[test]
    fn an_unreadable_photo_should_say_why_in_one_sentence() {
        let flag = say(
            Lang::De,
            "flag-sheet-unreadable",
            &[("why", &"keine Tabelle")],
        );
        let told = Told::Unreadable(Some(flag));
        let said = sentence(Lang::De, &sheet(None, None), &told);
        assert!(said.contains("(keine Tabelle)"), "{said}");
        assert_eq!(said.matches("nicht lesbar").count(), 1, "{said}");
    }

    #[test]
    fn another_game_should_outweigh_the_flags_and_count_them_otherwise() {
        let mut s = sheet(Some(1), Some(2));
        s.flags = vec![flag(Code::RowNotZeroSum), flag(Code::GesamtMismatch)];
        assert_eq!(Told::of(&s, 1, &[]), Told::ToCheck(2));
        let said = sentence(Lang::De, &s, &Told::ToCheck(2));
        assert!(said.contains("2 Stellen"), "{said}");
        s.flags.push(flag(Code::WrongGame));
        assert_eq!(Told::of(&s, 1, &[]), Told::OtherGame);
        assert_eq!(Told::OtherGame.status(), "flagged");
    }
}
