//! The archive's trail: what a correction changed, value by value, and
//! each entry's kind (a correction, a value kept, initials, a verdict).

use crate::sheet::{SheetResult, ValuePath};

/// One value that changed in a correction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Correction {
    pub field: String,
    pub old: Option<String>,
    pub new: Option<String>,
}

/// One entry of a sheet's trail.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Change {
    pub field: String,
    pub old: Option<String>,
    pub new: Option<String>,
    pub by: String,
    pub at: String,
    pub kind: ChangeKind,
}

/// What a trail entry records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ChangeKind {
    /// A value changed.
    Correction,
    /// A value looked at and left as written.
    Kept,
    /// The supervisor initialled a game row, or took it back.
    Initials,
    /// The supervisor declared the sheet invalid, or valid again, or a
    /// copy of another.
    Verdict,
    /// The scan was read again (`old` and `new`: the forms read on).
    Reread,
}

impl ChangeKind {
    pub(super) fn of(field: &str, old: &Option<String>, new: &Option<String>) -> Self {
        if field == "form" {
            ChangeKind::Reread
        } else if field.ends_with(".supervisor_initials") {
            ChangeKind::Initials
        } else if matches!(field, "void" | "copy_of" | "game_confirmed") {
            ChangeKind::Verdict
        } else if old == new {
            ChangeKind::Kept
        } else {
            ChangeKind::Correction
        }
    }
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

/// One field's value (as the trail writes it) by its archive name.
pub(super) fn values_by_field(sheet: &SheetResult, field: &str) -> Option<String> {
    if field == "form" {
        return sheet.form.clone();
    }
    ValuePath::of_archive_field(field)?.text(sheet)
}

/// What changed between two versions of a sheet: numbers, participant
/// numbers, circles, initials and signatures.
pub fn diff(old: &SheetResult, new: &SheetResult) -> Vec<Correction> {
    let mut before: std::collections::BTreeMap<String, Option<String>> = values(old)
        .into_iter()
        .map(|(f, v)| (f, v.map(|v| v.to_string())))
        .collect();
    let mut after: std::collections::BTreeMap<String, Option<String>> = values(new)
        .into_iter()
        .map(|(f, v)| (f, v.map(|v| v.to_string())))
        .collect();
    for (sheet, map) in [(old, &mut before), (new, &mut after)] {
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
    }
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
