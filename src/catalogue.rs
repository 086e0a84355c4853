//! What the program says to a person (flags, command-line errors, notes,
//! progress), in German and English, from Fluent files.
//!
//! `templates/messages/{de,en}.ftl` are compiled in. A club rewords a
//! message without recompiling: a folder named by `AUFSICHT_MESSAGES`
//! holding `de.ftl` or `en.ftl` overrides the entries it has.

use std::str::FromStr;
use std::sync::OnceLock;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource};

/// The supervisor's language: German by default, English on request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Lang {
    #[default]
    De,
    En,
}

impl FromStr for Lang {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "de" | "deutsch" | "german" => Ok(Lang::De),
            "en" | "english" | "englisch" => Ok(Lang::En),
            other => Err(format!("unknown language \"{other}\": use de or en")),
        }
    }
}

impl Lang {
    /// The language's code, as a page's `lang` attribute wants it.
    pub fn code(self) -> &'static str {
        match self {
            Lang::De => "de",
            Lang::En => "en",
        }
    }
}

const DE: &str = include_str!("../templates/messages/de.ftl");
const EN: &str = include_str!("../templates/messages/en.ftl");

/// The folder whose `de.ftl` / `en.ftl` override the built-in wording.
pub const OVERRIDE_ENV: &str = "AUFSICHT_MESSAGES";

type Bundle = FluentBundle<FluentResource>;

fn bundle(lang: Lang) -> &'static Bundle {
    static BUNDLES: OnceLock<[Bundle; 2]> = OnceLock::new();
    let [de, en] = BUNDLES.get_or_init(|| [make(Lang::De, DE), make(Lang::En, EN)]);
    match lang {
        Lang::De => de,
        Lang::En => en,
    }
}

fn make(lang: Lang, built_in: &str) -> Bundle {
    let (id, file) = match lang {
        Lang::De => ("de", "de.ftl"),
        Lang::En => ("en", "en.ftl"),
    };
    let locale: unic_langid::LanguageIdentifier = id.parse().unwrap_or_default();
    let mut bundle = FluentBundle::new_concurrent(vec![locale]);
    // Messages go to terminals and CSV files: no bidi isolation marks.
    bundle.set_use_isolating(false);
    // The built-in files are tested to parse whole; a club's file adds
    // what parses of it.
    let parsed = |text: String| FluentResource::try_new(text).unwrap_or_else(|(r, _)| r);
    let _ = bundle.add_resource(parsed(built_in.to_string()));
    if let Some(text) = std::env::var_os(OVERRIDE_ENV)
        .and_then(|dir| std::fs::read_to_string(std::path::Path::new(&dir).join(file)).ok())
    {
        bundle.add_resource_overriding(parsed(text));
    }
    bundle
}

/// The message `id` in `lang`, its `{ $name }`s filled from `args`. An
/// unknown id comes back as itself (the catalogue test finds none).
pub fn say(lang: Lang, id: &str, args: &[(&str, &dyn std::fmt::Display)]) -> String {
    let bundle = bundle(lang);
    let Some(pattern) = bundle.get_message(id).and_then(|m| m.value()) else {
        return id.to_string();
    };
    let mut fluent_args = FluentArgs::new();
    for (name, value) in args {
        let text = value.to_string();
        // A whole number as written is a number to Fluent, so that a
        // message can choose its plural form; "0107" stays text.
        match text.parse::<i64>() {
            Ok(n) if n.to_string() == text => fluent_args.set(*name, n),
            _ => fluent_args.set(*name, text),
        }
    }
    let mut errors = Vec::new();
    bundle
        .format_pattern(pattern, Some(&fluent_args), &mut errors)
        .into_owned()
}

/// A table's column head in `lang`: `column-<name>` of the catalogue (a
/// round's `column-round`), else the column's name as it is (a night's
/// column, a club's own tie-break). The CSVs keep the names.
pub fn column_head(lang: Lang, name: &str) -> String {
    if let Some(n) = name
        .strip_prefix("round_")
        .filter(|n| n.parse::<u32>().is_ok())
    {
        return say(lang, "column-round", &[("n", &n)]);
    }
    // A night's column: its date as the language writes it, then its name.
    if let Some((day, rest)) = name.split_at_checked(10)
        && let Ok(day) = chrono::NaiveDate::parse_from_str(day, "%Y-%m-%d")
    {
        return format!("{}{rest}", date(lang, day));
    }
    let id = format!("column-{name}");
    if bundle(lang).has_message(&id) {
        say(lang, &id, &[])
    } else {
        name.to_string()
    }
}

/// A date as people of `lang` write it: 09.01.2026 in German, 2026-01-09
/// in English.
pub fn date(lang: Lang, date: chrono::NaiveDate) -> String {
    match lang {
        Lang::De => date.format("%d.%m.%Y").to_string(),
        Lang::En => date.format("%Y-%m-%d").to_string(),
    }
}

/// A whole number with the language's thousands separator: 5.000 in
/// German, 5,000 in English.
pub fn thousands(lang: Lang, n: u64) -> String {
    let sep = match lang {
        Lang::De => '.',
        Lang::En => ',',
    };
    let digits = n.to_string();
    let mut out = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(sep);
        }
        out.push(d);
    }
    out
}

/// A stored time (RFC 3339, UTC) as people of `lang` read it, in this
/// computer's time zone: 03.12.2026, 15:23 in German. Text that is no
/// such time is given as it is.
pub fn time(lang: Lang, at: &str) -> String {
    let Ok(t) = chrono::DateTime::parse_from_rfc3339(at) else {
        return at.to_string();
    };
    let local = t.with_timezone(&chrono::Local);
    match lang {
        Lang::De => local.format("%d.%m.%Y, %H:%M").to_string(),
        Lang::En => local.format("%Y-%m-%d %H:%M").to_string(),
    }
}

/// A percentage as the messages show it (an argument to [`say`]): whole,
/// rounded.
pub fn percent<T: std::fmt::Display>(hundredths: T) -> String {
    format!("{hundredths:.0}")
}

/// A number with `places` decimals as the language writes it: a decimal
/// comma in German ("0,3"), a point in English ("0.3").
pub fn decimal(lang: Lang, value: f64, places: usize) -> String {
    let text = format!("{value:.places$}");
    match lang {
        Lang::De => text.replace('.', ","),
        Lang::En => text,
    }
}

/// A text a person reads, in their language: the library's errors.
pub trait Tell {
    fn tell(&self, lang: Lang) -> String;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_decimal_should_be_written_as_the_language_writes_it() {
        assert_eq!(decimal(Lang::De, 0.34, 1), "0,3");
        assert_eq!(decimal(Lang::En, 0.34, 1), "0.3");
        assert_eq!(decimal(Lang::De, 12.0, 0), "12");
    }

    #[test]
    fn counts_of_one_should_be_singular() {
        let one: [(&str, &dyn std::fmt::Display); 3] =
            [("players", &4), ("rounds", &1), ("tables", &1)];
        let mut args = one.to_vec();
        args.push(("fives", &1));
        let said = say(Lang::De, "draw-done", &args);
        assert!(
            said.contains("1 Runde zu je 1 Tisch (1 Fünfertisch)"),
            "{said}"
        );
        let said = say(Lang::De, "check-damaged", &[("count", &1)]);
        assert!(said.ends_with("1 Befund oben"), "{said}");
    }

    /// The message ids of a catalogue file, which must parse whole.
    fn ids(text: &str) -> Vec<String> {
        if let Err((_, e)) = FluentResource::try_new(text.to_string()) {
            panic!("the built-in catalogue does not parse: {e:?}");
        }
        text.lines()
            .filter_map(|l| l.split_once(" = ").map(|(id, _)| id))
            .filter(|id| !id.is_empty() && id.chars().all(|c| c.is_ascii_lowercase() || c == '-'))
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn both_languages_should_have_every_message() {
        let (mut de, mut en) = (ids(DE), ids(EN));
        de.sort();
        en.sort();
        assert_eq!(de, en);
        assert!(de.len() > 40);
    }

    #[test]
    fn every_message_the_code_asks_for_should_exist() {
        let known = ids(EN);
        // Every file, so that a message asked for anywhere is checked; this
        // one's examples aside.
        let src: String = crate::source_files()
            .into_iter()
            .filter(|(path, _)| !path.ends_with("catalogue.rs"))
            .map(|(_, text)| text)
            .collect();
        let asked: Vec<&str> = src
            .split("say(")
            .skip(1)
            // `say(lang, "id", ...)`: the id is the second argument, a literal.
            .filter_map(|rest| rest.split_once(',')?.1.trim_start().strip_prefix('"'))
            .filter_map(|rest| rest.split('"').next())
            .filter(|id| id.chars().all(|c| c.is_ascii_lowercase() || c == '-'))
            .collect();
        assert!(asked.len() > 10, "{asked:?}");
        for id in asked {
            assert!(known.iter().any(|k| k == id), "no message `{id}`");
        }
    }

    #[test]
    fn counts_should_take_the_languages_plural_forms() {
        let said = |lang, n: usize| {
            let args: [(&str, &dyn std::fmt::Display); 5] = [
                ("sheets", &n),
                ("ok", &n),
                ("flagged", &0),
                ("unreadable", &0),
                ("path", &"out"),
            ];
            say(lang, "scan-done", &args)
        };
        assert!(
            said(Lang::De, 1).starts_with("1 Blatt,"),
            "{}",
            said(Lang::De, 1)
        );
        assert!(said(Lang::De, 2).starts_with("2 Blätter,"));
        assert!(said(Lang::En, 1).starts_with("1 sheet,"));
        assert!(said(Lang::En, 11).starts_with("11 sheets,"));
        let numbered = say(Lang::De, "archive-no-such-player", &[("player", &"0107")]);
        assert!(numbered.contains("0107"), "text stays text: {numbered}");
    }

    #[test]
    fn column_heads_and_dates_should_follow_the_language() {
        assert_eq!(column_head(Lang::De, "round_2"), "Runde 2");
        assert_eq!(column_head(Lang::En, "round_2"), "Round 2");
        assert_eq!(column_head(Lang::De, "solo_won"), "Solo gewonnen");
        assert_eq!(column_head(Lang::De, "player"), "Teilnehmer");
        assert_eq!(column_head(Lang::De, "round_difference"), "Rundendifferenz");
        assert_eq!(
            column_head(Lang::De, "2026-01-09 Januar"),
            "09.01.2026 Januar"
        );
        assert_eq!(
            column_head(Lang::En, "2026-01-09 Januar"),
            "2026-01-09 Januar"
        );
        let day = chrono::NaiveDate::from_ymd_opt(2026, 1, 9).expect("a date");
        assert_eq!(date(Lang::De, day), "09.01.2026");
        assert_eq!(date(Lang::En, day), "2026-01-09");
    }

    #[test]
    fn a_stored_time_should_read_as_the_language_writes_it() {
        // Noon UTC is the same day in every zone a club sits in.
        let said = time(Lang::De, "2026-12-03T12:23:20Z");
        let (day, clock) = said.split_once(", ").expect("day, time");
        assert_eq!(day, "03.12.2026", "{said}");
        assert!(clock.len() == 5 && clock.ends_with(":23"), "{said}");
        assert!(time(Lang::En, "2026-12-03T12:23:20Z").starts_with("2026-12-03 "));
        assert_eq!(time(Lang::De, "gestern"), "gestern");
    }

    #[test]
    fn a_message_should_take_its_arguments_in_either_language() {
        let path = "night/x.png";
        assert_eq!(
            say(Lang::De, "input-missing", &[("path", &path)]),
            "night/x.png gibt es nicht: bitte den Pfad prüfen"
        );
        assert_eq!(
            say(Lang::En, "input-missing", &[("path", &path)]),
            "night/x.png does not exist: check the path"
        );
    }
}
