//! Which families of each source the nets learn from and which are held
//! out: a family held out is never trained or tuned on, so sheets written
//! in it measure the reader on hands it has never seen. The split is by
//! family, never by glyph. The families reserved for evaluation outside
//! the project (shared/RESERVED.md) are not fetched at all.

/// Handwriting fonts held out: print and cursive, school hands (an
/// Austrian one with continental forms among them), marker and brush.
pub const HELD_OUT_FONTS: &[&str] = &[
    "playwrite-at",
    "edu-tas-beginner",
    "nothing-you-could-do",
    "sedgwick-ave",
    "mali",
    "klee-one",
    "just-me-again-down-here",
    "rock-salt",
    "gamja-flower",
    "bad-script",
];

/// Hershey fonts held out (a script hand and an italic).
pub const HELD_OUT_HERSHEY: &[&str] = &["scriptc", "timesi"];

/// The Hershey fonts whose digits are drawn at all (the others are
/// symbols, or gothic letters no one writes by hand).
pub const HERSHEY_HANDS: &[&str] = &[
    "futural", "futuram", "rowmans", "rowmand", "scripts", "cursive", "timesr", "scriptc", "timesi",
];

/// Which families a set draws from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Split {
    /// The families the nets learn from.
    Training,
    /// The families no net learned from or was tuned on.
    HeldOut,
}

impl Split {
    /// Whether family `name` of a source whose held-out families are
    /// `held_out` belongs to this split.
    pub fn holds(self, name: &str, held_out: &[&str]) -> bool {
        held_out.contains(&name) == (self == Split::HeldOut)
    }
}
