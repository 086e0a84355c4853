//! One look for one cause: a footer or Pflichtsolo flag that a single
//! uncertain reading would clear, read as one of its alternatives, is
//! folded into that reading's `CELL_UNCERTAIN`, whose message then says
//! what the reading as it stands implies. A misread Gesamt asks for one
//! look, not for a Gesamt, an Abzug and an Endergebnis error.

use crate::catalogue::say;
use crate::check::flags::{Code, Flag};
use crate::check::messages::Lang;

/// The flags that follow from a seat's footer numbers or its rings.
const FOLDED: [Code; 5] = [
    Code::GesamtMismatch,
    Code::AbzugMismatch,
    Code::EndergebnisMismatch,
    Code::EndergebnisNotZero,
    Code::PflichtsoloMissing,
];

/// Takes back what an earlier verification folded into `reading`: the
/// rule flags are checked afresh.
pub(crate) fn unfold(reading: &mut [Flag]) {
    for u in reading {
        if let Some(said) = u.detail.consequences_said.take()
            && let Some(alone) = u.message.strip_suffix(&said)
        {
            u.message = alone.to_string();
        }
        u.detail.consequences.clear();
    }
}

/// Folds every flag of `flags` of a [`FOLDED`] kind that exactly one flag
/// of `reading` would clear (`clears[u]`: the indices in `flags` reading
/// flag `u` clears) into that flag, where it points at the same place (so
/// that no value loses the flag that points at it: a footer flag goes only
/// into the look at its seat's footer).
pub(crate) fn fold(flags: &mut Vec<Flag>, reading: &mut [Flag], clears: &[Vec<usize>], lang: Lang) {
    let into: Vec<Option<usize>> = flags
        .iter()
        .enumerate()
        .map(|(i, f)| {
            sole_cause(i, clears).filter(|&u| FOLDED.contains(&f.code) && covers(&reading[u], f))
        })
        .collect();
    let mut kept = Vec::with_capacity(flags.len());
    for (f, u) in flags.drain(..).zip(into) {
        match u {
            Some(u) => reading[u].detail.consequences.push(f),
            None => kept.push(f),
        }
    }
    *flags = kept;
    for u in reading
        .iter_mut()
        .filter(|u| !u.detail.consequences.is_empty())
    {
        let list: Vec<&str> = u
            .detail
            .consequences
            .iter()
            .map(|f| f.message.as_str())
            .collect();
        let said = format!(
            " {}",
            say(
                lang,
                "uncertain-consequences",
                &[("flags", &list.join(" "))]
            )
        );
        u.message.push_str(&said);
        u.detail.consequences_said = Some(said);
    }
}

/// The one reading flag that clears flag `i`, if exactly one does.
fn sole_cause(i: usize, clears: &[Vec<usize>]) -> Option<usize> {
    let mut causes = clears.iter().enumerate().filter(|(_, c)| c.contains(&i));
    match (causes.next(), causes.next()) {
        (Some((u, _)), None) => Some(u),
        _ => None,
    }
}

/// Whether the look `u` points wherever `f` does: a footer flag's seat
/// (row null), or nowhere in particular.
fn covers(u: &Flag, f: &Flag) -> bool {
    f.row.is_none() && (f.seat.is_none() || (u.row.is_none() && u.seat == f.seat))
}
