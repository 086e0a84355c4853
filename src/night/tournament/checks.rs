//! The night's checks as data: what the sheets of a night say about each
//! other (a player at two tables, a table twice, a sheet scanned twice,
//! ...), each naming the sheets concerned, found by the standings, the
//! seating and the copy checks alike.

use crate::catalogue::{Lang, say};
use crate::sheet::SheetResult;

/// What the night's sheets say about each other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum NightCheckKind {
    /// The sheet could not be read at all: its players are not counted.
    SheetUnreadable,
    /// No round or table number could be read.
    RoundOrTableMissing,
    /// A seat with scores has no readable participant number.
    PlayerIdUnreadable,
    /// The same round and table number on two sheets.
    TableTwice,
    /// A participant number at two tables (or seats) in one round.
    PlayerTwiceInRound,
    /// A participant seen in some rounds of the night but not in all.
    PlayerMissingRound,
    /// A participant number on a sheet that is not on the night's list.
    PlayerNotRegistered,
    /// A registered participant on no sheet of the night.
    RegisteredWithoutSheet,
    /// A table the draw seated that no sheet comes back for.
    TableWithoutSheet,
    /// A sheet whose players or seats are not the draw's for its table.
    SeatingDiffers,
    /// The supervisor declared the sheet invalid: its players' points of
    /// its round count 0.
    SheetVoid,
    /// A sheet sent by mistake that a person took out of the night.
    SheetDiscarded,
    /// Two sheets with nearly all game rows alike: one paper scanned twice.
    SheetTwice,
    /// A run of game rows written alike on another table's sheet.
    RowsCopied,
    /// A sheet of another game than the night's (`WRONG_GAME`): its
    /// players are not counted until a person decides.
    WrongGame,
    /// Sheets that count still carry flags a person has not settled: the
    /// ranking is provisional until they are looked at.
    SheetsInDoubt,
}

impl NightCheckKind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::SheetUnreadable => "SHEET_UNREADABLE",
            Self::RoundOrTableMissing => "ROUND_OR_TABLE_MISSING",
            Self::PlayerIdUnreadable => "PLAYER_ID_UNREADABLE",
            Self::TableTwice => "TABLE_TWICE",
            Self::PlayerTwiceInRound => "PLAYER_TWICE_IN_ROUND",
            Self::PlayerMissingRound => "PLAYER_MISSING_ROUND",
            Self::PlayerNotRegistered => "PLAYER_NOT_REGISTERED",
            Self::RegisteredWithoutSheet => "REGISTERED_WITHOUT_SHEET",
            Self::TableWithoutSheet => "TABLE_WITHOUT_SHEET",
            Self::SeatingDiffers => "SEATING_DIFFERS",
            Self::SheetVoid => "SHEET_VOID",
            Self::SheetDiscarded => "SHEET_DISCARDED",
            Self::SheetTwice => "SHEET_TWICE",
            Self::RowsCopied => "ROWS_COPIED",
            Self::WrongGame => "WRONG_GAME",
            Self::SheetsInDoubt => "SHEETS_IN_DOUBT",
        }
    }
}

impl NightCheckKind {
    /// The catalogue's entry for what settles the check at the desk,
    /// named as the desk's buttons and boxes are.
    pub fn action(self) -> &'static str {
        match self {
            Self::SheetUnreadable => "action-sheet-unreadable",
            Self::RoundOrTableMissing => "action-round-or-table-missing",
            Self::PlayerIdUnreadable => "action-player-id-unreadable",
            Self::TableTwice => "action-table-twice",
            Self::PlayerTwiceInRound => "action-player-twice-in-round",
            Self::PlayerMissingRound => "action-player-missing-round",
            Self::PlayerNotRegistered => "action-player-not-registered",
            Self::RegisteredWithoutSheet => "action-registered-without-sheet",
            Self::TableWithoutSheet => "action-table-without-sheet",
            Self::SeatingDiffers => "action-seating-differs",
            Self::SheetVoid => "action-sheet-void",
            Self::SheetDiscarded => "action-sheet-discarded",
            Self::SheetTwice => "action-sheet-twice",
            Self::RowsCopied => "action-rows-copied",
            Self::WrongGame => "action-wrong-game",
            Self::SheetsInDoubt => "action-sheets-in-doubt",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct NightCheck {
    pub kind: NightCheckKind,
    /// The sheets concerned (source names).
    pub sheets: Vec<String>,
    /// One sentence for the supervisor, saying what to do.
    pub message: String,
}

/// The name a sheet goes by in `review` and the night checks.
pub fn sheet_name(sheet: &SheetResult, fallback: &str) -> String {
    let source = sheet.source.clone().unwrap_or_else(|| fallback.to_string());
    match sheet.page {
        Some(p) if source.to_ascii_lowercase().ends_with(".pdf") => format!("{source}#p{p}"),
        _ => source,
    }
}

/// The name a person reads for a sheet: its round and table (`R1 T5`);
/// where neither could be read, its file ([`sheet_name`]).
pub fn sheet_label(sheet: &SheetResult, fallback: &str, lang: Lang) -> String {
    round_and_table(sheet.round, sheet.table, lang).unwrap_or_else(|| sheet_name(sheet, fallback))
}

/// `R1 T5` (`?` for a number not read), where either number is read.
pub fn round_and_table(round: Option<u32>, table: Option<u32>, lang: Lang) -> Option<String> {
    let part = |n: Option<u32>| n.map_or("?".to_string(), |n| n.to_string());
    let args: [(&str, &dyn std::fmt::Display); 2] =
        [("round", &part(round)), ("table", &part(table))];
    (round.is_some() || table.is_some()).then(|| say(lang, "sheet-round-table", &args))
}
