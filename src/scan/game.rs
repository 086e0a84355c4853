//! Another game's sheet: a page read on a form printed for another game
//! than the night's rule set (a Doppelkopf list on a Schafkopf night).
//! Its rows would only raise one tariff flag after another; the sheet is
//! named for what it is, once, and does not count until a person decides.

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

/// `sheet`, read on `form`, with `WRONG_GAME` where the form is another
/// game's than `rules`'.
pub fn with_game_checked(
    mut sheet: SheetResult,
    form: &FormTemplate,
    rules: &RuleSet,
    lang: Lang,
) -> SheetResult {
    let Some(printed) = family_of(form).filter(|&f| f != rules.family) else {
        return sheet;
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
            message: say(lang, "flag-wrong-game", &args),
            detail: Default::default(),
            extra: Default::default(),
        },
    );
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
            named[0].message.contains("Doppelkopf") && named[0].message.contains("Schafkopf"),
            "{}",
            named[0].message
        );
        assert_ne!(wrong.status, Status::Ok);
        let right = with_game_checked(sheet.clone(), &schafkopf, &merkur, Lang::De);
        assert_eq!(right, sheet);
    }
}
