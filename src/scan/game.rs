//! Another game's sheet: a page read on a form printed for another game
//! than the night's rule set (a Doppelkopf list on a Schafkopf night), or
//! whose rows fit the other game's tariff where they fit none of the
//! night's. Its rows would only raise one tariff flag after another; the
//! sheet is named for what it is, once, and does not count until a person
//! decides.

use crate::catalogue::say;
use crate::check::flags::{Code, Flag};
use crate::check::messages::Lang;
use crate::check::rules::{Family, RuleSet};
use crate::page::form::FormTemplate;
use crate::sheet::{SheetResult, Status};

/// The game a form is printed for, where it names one the rule sets know.
fn family_of(form: &FormTemplate) -> Option<Family> {
    match form.game.to_ascii_lowercase().as_str() {
        "schafkopf" => Some(Family::Schafkopf),
        "doppelkopf" => Some(Family::Doppelkopf),
        _ => None,
    }
}

fn word(family: Family, lang: Lang) -> String {
    match family {
        Family::Schafkopf => say(lang, "game-schafkopf", &[]),
        Family::Doppelkopf => say(lang, "game-doppelkopf", &[]),
    }
}

/// The rule set a sheet of the other game is held against.
fn other_game(family: Family) -> (Family, &'static str) {
    match family {
        Family::Schafkopf => (Family::Doppelkopf, "doppelkopf"),
        Family::Doppelkopf => (Family::Schafkopf, "merkur"),
    }
}

/// The rows no game of `rules`' tariff fits.
fn illegal_rows(sheet: &SheetResult, rules: &RuleSet, lang: Lang) -> Option<usize> {
    let checked = crate::check::verify::verify(sheet.clone(), rules, lang).ok()?;
    Some(
        checked
            .flags
            .iter()
            .filter(|f| f.code == Code::RowIllegalValues)
            .count(),
    )
}

/// The other game, where the sheet's rows say it is the other game's:
/// at least four and half its written rows fit none of the night's
/// games, and at most a quarter as many fit none of the other's.
fn rows_of_other_game(sheet: &SheetResult, rules: &RuleSet, lang: Lang) -> Option<Family> {
    let written = sheet
        .games
        .iter()
        .filter(|g| g.cells.iter().any(|c| c.has_writing()))
        .count();
    let own = sheet
        .flags
        .iter()
        .filter(|f| f.code == Code::RowIllegalValues)
        .count();
    if own < 4 || own * 2 < written {
        return None;
    }
    let (family, id) = other_game(rules.family);
    let other = RuleSet::load(id).ok()?;
    let theirs = illegal_rows(sheet, &other, lang)?;
    (theirs * 4 <= own).then_some(family)
}

/// `sheet`, read on `form`, with `WRONG_GAME` where the form, or else its
/// rows, are another game's than `rules'`.
pub fn with_game_checked(
    mut sheet: SheetResult,
    form: &FormTemplate,
    rules: &RuleSet,
    lang: Lang,
) -> SheetResult {
    let by_form = family_of(form).filter(|&f| f != rules.family);
    let (printed, id) = match by_form {
        Some(family) => (family, "flag-wrong-game"),
        None => match rows_of_other_game(&sheet, rules, lang) {
            Some(family) => (family, "flag-wrong-game-rows"),
            None => return sheet,
        },
    };
    let args: [(&str, &dyn std::fmt::Display); 4] = [
        ("form", &form.id),
        ("form_game", &word(printed, lang)),
        ("rules", &rules.id),
        ("rules_game", &word(rules.family, lang)),
    ];
    sheet.flags.insert(
        0,
        Flag {
            code: Code::WrongGame,
            severity: Code::WrongGame.severity(),
            row: None,
            seat: None,
            field: None,
            message: say(lang, id, &args),
            detail: Default::default(),
            extra: Default::default(),
        },
    );
    // The night's tariff says nothing of another game's rows: only what
    // the reading found stays beside the one flag.
    sheet.flags.retain(|f| f.code.is_from_reading());
    if sheet.status == Status::Ok {
        sheet.status = Status::Flagged;
    }
    sheet
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_doppelkopf_form_on_a_schafkopf_night_should_be_named_once() {
        let doko = FormTemplate::load("doko-a4-24x5").expect("form");
        let schafkopf = FormTemplate::load("punkteliste-a4-32").expect("form");
        let merkur = RuleSet::load("merkur").expect("rules");
        let sheet = crate::sheet::example::one_row_sheet(1);
        let wrong = with_game_checked(sheet.clone(), &doko, &merkur, Lang::De);
        let named: Vec<&Flag> = wrong
            .flags
            .iter()
            .filter(|f| f.code == Code::WrongGame)
            .collect();
        assert_eq!(named.len(), 1, "{:?}", wrong.flags);
        assert!(
            wrong.flags.iter().all(|f| f.code.is_from_reading()),
            "{:?}",
            wrong.flags
        );
        assert!(
            named[0].message.contains("Doppelkopf") && named[0].message.contains("Schafkopf"),
            "{}",
            named[0].message
        );
        assert_ne!(wrong.status, Status::Ok);
        let right = with_game_checked(sheet.clone(), &schafkopf, &merkur, Lang::De);
        assert_eq!(right, sheet);
    }

    /// A Doppelkopf night written on the Schafkopf form: its rows fit
    /// Doppelkopf's tariff and none of Schafkopf's.
    #[test]
    fn doppelkopf_rows_on_a_schafkopf_form_should_be_named_another_games() {
        use crate::sheet::{Cell, GameRow};
        let doko = RuleSet::load("doppelkopf").expect("rules");
        let merkur = RuleSet::load("merkur").expect("rules");
        let form = FormTemplate::load("punkteliste-a4-32").expect("form");
        // Normal games of 5 and 7, a solo of 3 (+9/-3): no Rufspiel's values.
        let values = [
            [5, 5, -5, -5],
            [-7, 7, 7, -7],
            [9, -3, -3, -3],
            [5, -5, 5, -5],
            [-7, -7, 7, 7],
        ];
        let games: Vec<GameRow> = (1..)
            .zip(values)
            .map(|(no, v)| GameRow {
                no,
                cells: v
                    .iter()
                    .map(|&x: &i64| {
                        if x > 0 {
                            Cell::plus(x as u32)
                        } else {
                            Cell::minus((-x) as u32)
                        }
                    })
                    .collect(),
                initials: false,
                class: None,
                extra: Default::default(),
            })
            .collect();
        let players = (1..=4).map(|p| Some(p.to_string())).collect();
        let typed = crate::sheet::finished_sheet("merkur", games, players);
        let read = crate::check::verify::verify(typed.clone(), &merkur, Lang::De).expect("verify");
        let named = with_game_checked(read, &form, &merkur, Lang::De);
        assert_eq!(
            named.flags.first().map(|f| f.code),
            Some(Code::WrongGame),
            "{:?}",
            named.flags
        );
        // The same rows on a Doppelkopf night, on its form, are its own game's.
        let doko_form = FormTemplate::load("doko-a4-24x5").expect("form");
        let own = crate::check::verify::verify(typed, &doko, Lang::De).expect("verify");
        let kept = with_game_checked(own.clone(), &doko_form, &doko, Lang::De);
        assert!(
            kept.flags.iter().all(|f| f.code != Code::WrongGame),
            "{:?}",
            kept.flags
        );
    }
}
