//! The trail: what each record changed, one line per value, with its
//! kind (../shared/CONTRACT.md, "The night's record"); and what changed
//! between two versions of a sheet, value by value.

use serde_json::Value;

use super::{Decision, answer};
use crate::sheet::{SheetResult, ValuePath};

/// One value that changed (or was looked at and kept).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Correction {
    /// The archive's field (`game.3.seat.2.plus`).
    pub field: String,
    pub old: Option<String>,
    pub new: Option<String>,
}

/// One line of a sheet's trail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// The archive's field (`game.3.seat.2.plus`, `void`, ...).
    pub field: String,
    /// The contract's path (`games/3/2/plus`), or the field where no
    /// path names it.
    pub path: String,
    pub old: Option<String>,
    pub new: Option<String>,
    pub by: String,
    pub at: String,
    pub kind: ChangeKind,
    /// Why the program changed or confirmed the value, where it says.
    pub why: Option<String>,
}

/// Which record made a trail line.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum ChangeKind {
    /// The program read the scan (again): `by` is the program.
    Reading,
    /// A person's answer to what the paper says.
    Paper,
    /// The Leitung's count where the writer erred.
    Counts,
    /// The Aufsicht's initials, or their taking back.
    Initials,
    /// The sheet declared invalid, or valid again.
    Void,
    /// The sheet settled as a copy of another, or not.
    Copy,
    /// A sheet of another game settled as the night's, or not.
    Game,
    /// A sheet sent by mistake taken out of the night, or back in.
    Discard,
    /// A person's answer taken back.
    Withdraw,
    /// The scan read on another form (`old` and `new`: the forms).
    Form,
}

impl ChangeKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ChangeKind::Reading => "reading",
            ChangeKind::Paper => "paper",
            ChangeKind::Counts => "counts",
            ChangeKind::Initials => "initials",
            ChangeKind::Void => "void",
            ChangeKind::Copy => "copy",
            ChangeKind::Game => "game",
            ChangeKind::Discard => "discard",
            ChangeKind::Withdraw => "withdraw",
            ChangeKind::Form => "form",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        [
            ChangeKind::Reading,
            ChangeKind::Paper,
            ChangeKind::Counts,
            ChangeKind::Initials,
            ChangeKind::Void,
            ChangeKind::Copy,
            ChangeKind::Game,
            ChangeKind::Discard,
            ChangeKind::Withdraw,
            ChangeKind::Form,
        ]
        .into_iter()
        .find(|k| k.as_str() == text)
    }

    /// The kind an older archive's trail line had, by its field.
    pub fn of_field(field: &str) -> Self {
        if field == "form" {
            ChangeKind::Form
        } else if field.ends_with(".supervisor_initials") {
            ChangeKind::Initials
        } else if field == "void" {
            ChangeKind::Void
        } else if field == "copy_of" {
            ChangeKind::Copy
        } else if field == "game_confirmed" {
            ChangeKind::Game
        } else if field == "discarded" {
            ChangeKind::Discard
        } else {
            ChangeKind::Paper
        }
    }
}

impl Change {
    /// The audit's kind (the contract's "Audit"): `correction` (a value
    /// changed), `kept` (looked at, left as written), `initials` or
    /// `verdict`.
    pub fn audit_kind(&self) -> &'static str {
        match self.kind {
            ChangeKind::Initials => "initials",
            ChangeKind::Void | ChangeKind::Copy | ChangeKind::Game | ChangeKind::Discard => {
                "verdict"
            }
            _ if self.old == self.new => "kept",
            _ => "correction",
        }
    }
}

/// The trail lines of one decision: the sheet `before` and `after` it.
pub fn lines_of(decision: &Decision, before: &SheetResult, after: &SheetResult) -> Vec<Correction> {
    let text = |v: Value| match v {
        Value::Null => None,
        Value::String(s) => Some(s),
        v => Some(v.to_string()),
    };
    let line =
        |field: String, old: Option<String>, new: Option<String>| Correction { field, old, new };
    match decision {
        Decision::Paper { path, .. } | Decision::Withdraw { path } => {
            match path.parse::<ValuePath>() {
                Ok(p) => vec![line(
                    p.archive_field(),
                    text(answer::get(before, p)),
                    text(answer::get(after, p)),
                )],
                Err(_) => vec![],
            }
        }
        Decision::Counts { path, value, .. } => {
            // What counted before: an earlier count, else what is written.
            let counted = |s: &SheetResult| {
                s.notes
                    .counts
                    .iter()
                    .find(|c| &c.path == path)
                    .map(|c| c.value.clone())
                    .or_else(|| path.parse().ok().map(|p| answer::get(s, p)))
            };
            let field = path
                .parse::<ValuePath>()
                .map(|p| p.archive_field())
                .unwrap_or_else(|_| path.clone());
            vec![line(
                field,
                counted(before).and_then(text),
                text(value.clone()),
            )]
        }
        Decision::Initials { .. }
        | Decision::Void { .. }
        | Decision::Copy { .. }
        | Decision::Game { .. }
        | Decision::Discard { .. } => diff(before, after)
            .into_iter()
            .filter(|c| ChangeKind::of_field(&c.field) == decision.kind())
            .collect(),
    }
}

/// As the audit writes it (the contract's "Audit"): its kind the
/// audit's, `record` the trail's.
impl serde::Serialize for Change {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(8))?;
        map.serialize_entry("field", &self.field)?;
        map.serialize_entry("path", &self.path)?;
        map.serialize_entry("old", &self.old)?;
        map.serialize_entry("new", &self.new)?;
        map.serialize_entry("by", &self.by)?;
        map.serialize_entry("at", &self.at)?;
        map.serialize_entry("kind", self.audit_kind())?;
        map.serialize_entry("record", self.kind.as_str())?;
        if let Some(why) = &self.why {
            map.serialize_entry("why", why)?;
        }
        map.end()
    }
}

/// The line of a decision that changed nothing: its field, as it stands.
pub fn kept_line(decision: &Decision, sheet: &SheetResult) -> Correction {
    let field = match decision {
        Decision::Paper { path, .. }
        | Decision::Counts { path, .. }
        | Decision::Withdraw { path } => path
            .parse::<ValuePath>()
            .map(|p| p.archive_field())
            .unwrap_or_else(|_| path.clone()),
        Decision::Initials { row: Some(row), .. } => format!("game.{row}.supervisor_initials"),
        Decision::Initials { seat, field, .. } => {
            let seat = seat.unwrap_or(0);
            match field.as_deref().unwrap_or("") {
                column @ ("plus" | "minus") => {
                    format!("gesamt.{seat}.{column}.supervisor_initials")
                }
                other => format!("{other}.{seat}.supervisor_initials"),
            }
        }
        Decision::Void { .. } => "void".into(),
        Decision::Copy { .. } => "copy_of".into(),
        Decision::Game { .. } => "game_confirmed".into(),
        Decision::Discard { .. } => "discarded".into(),
    };
    let now = fields_of(sheet).remove(&field).flatten();
    Correction {
        field,
        old: now.clone(),
        new: now,
    }
}

/// The contract's path of an archive field, where one names it.
pub fn path_of_field(field: &str) -> String {
    ValuePath::of_archive_field(field)
        .map(|p| p.to_string())
        .unwrap_or_else(|| field.to_string())
}

/// The trail lines of a new reading: every value it changed, and the
/// form where it was read on another.
pub fn reading_lines(before: &SheetResult, after: &SheetResult) -> Vec<(ChangeKind, Correction)> {
    diff(before, after)
        .into_iter()
        .filter_map(|c| match ChangeKind::of_field(&c.field) {
            ChangeKind::Form => Some((ChangeKind::Form, c)),
            ChangeKind::Paper => Some((ChangeKind::Reading, c)),
            _ => None,
        })
        .collect()
}

/// Every number on the sheet by its archive field (`game.3.seat.2.plus`,
/// `gesamt.1.minus`, `abzug.1`, `endergebnis.1`, `round`, `table`; see
/// [`ValuePath::archive_field`]), blanks included.
pub fn values(sheet: &SheetResult) -> Vec<(String, Option<i64>)> {
    ValuePath::numbers_of(sheet)
        .into_iter()
        .map(|p| (p.archive_field(), p.number(sheet)))
        .collect()
}

/// Every field of a sheet the trail knows, by its archive name: numbers,
/// participant numbers, signatures, the supervisor's acts, the form,
/// circles and the paper's initials.
fn fields_of(sheet: &SheetResult) -> std::collections::BTreeMap<String, Option<String>> {
    let mut fields: std::collections::BTreeMap<String, Option<String>> = values(sheet)
        .into_iter()
        .map(|(f, v)| (f, v.map(|v| v.to_string())))
        .collect();
    let map = &mut fields;
    for seat in 1..=sheet.players.len() {
        let path = ValuePath::Player(seat);
        map.insert(path.archive_field(), path.text(sheet));
    }
    for (s, sig) in sheet.signatures.iter().enumerate() {
        map.insert(format!("signature.{}", s + 1), Some(sig.to_string()));
    }
    // The supervisor's acts: who initialled a row, why a sheet is void.
    for i in &sheet.notes.supervisor_initials {
        map.insert(
            format!("game.{}.supervisor_initials", i.row),
            Some(i.by.clone()),
        );
    }
    for i in &sheet.notes.footer_initials {
        map.insert(
            match i.field.as_str() {
                "plus" | "minus" => {
                    format!("gesamt.{}.{}.supervisor_initials", i.seat, i.field)
                }
                other => format!("{other}.{}.supervisor_initials", i.seat),
            },
            Some(i.by.clone()),
        );
    }
    if let Some(void) = &sheet.notes.void {
        map.insert("void".into(), Some(void.reason.clone()));
    }
    if let Some(copy) = &sheet.notes.copy_of {
        map.insert("copy_of".into(), Some(copy.of.to_string()));
    }
    if let Some(discarded) = &sheet.notes.discarded {
        map.insert("discarded".into(), Some(discarded.reason.clone()));
    }
    if let Some(settled) = &sheet.notes.game_confirmed {
        map.insert("game_confirmed".into(), Some(settled.by.clone()));
    }
    map.insert("form".into(), sheet.form.clone());
    for g in &sheet.games {
        map.insert(
            format!("game.{}.initials", g.no),
            Some(g.initials.to_string()),
        );
        for (s, c) in g.cells.iter().enumerate() {
            map.insert(
                format!("game.{}.seat.{}.circled", g.no, s + 1),
                Some(c.circled.to_string()),
            );
        }
    }
    fields
}

/// What changed between two versions of a sheet: numbers, participant
/// numbers, circles, initials and signatures.
pub fn diff(old: &SheetResult, new: &SheetResult) -> Vec<Correction> {
    let (before, after) = (fields_of(old), fields_of(new));
    let fields: std::collections::BTreeSet<&String> = before.keys().chain(after.keys()).collect();
    fields
        .into_iter()
        .filter_map(|f| {
            let o = before.get(f).cloned().flatten();
            let n = after.get(f).cloned().flatten();
            // A row that appears only now reads "false"/blank before: same thing.
            let blankish = |v: &Option<String>| v.as_deref().is_none_or(|v| v == "false");
            (o != n && !(blankish(&o) && blankish(&n))).then(|| Correction {
                field: f.clone(),
                old: o,
                new: n,
            })
        })
        .collect()
}
