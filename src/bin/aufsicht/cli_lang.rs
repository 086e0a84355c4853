//! The command line's own errors in the run's language, in one line: a
//! missing or unknown option, a value that is not allowed, an unknown
//! command. clap words them in English over several lines; here they are
//! told from the catalogue, with the help to ask for.

use std::ffi::OsString;

use clap::error::{ContextKind, ErrorKind};

use aufsicht::Lang;
use aufsicht::catalogue::say;

/// The run's language, before clap has parsed anything: `--lang X` or
/// `--lang=X` on the command line, else `AUFSICHT_LANG`, else German.
pub fn lang_of(args: &[OsString]) -> Lang {
    let given = args.iter().enumerate().find_map(|(i, a)| {
        let a = a.to_str()?;
        match a.strip_prefix("--lang") {
            Some("") => args.get(i + 1)?.to_str().map(str::to_string),
            Some(v) => v.strip_prefix('=').map(str::to_string),
            None => None,
        }
    });
    given
        .or_else(|| std::env::var("AUFSICHT_LANG").ok())
        .and_then(|l| l.parse().ok())
        .unwrap_or(Lang::De)
}

/// The command the arguments name (for the help to point at), if any.
fn command_of(args: &[OsString], known: &[String]) -> Option<String> {
    args.iter()
        .skip(1)
        .filter_map(|a| a.to_str())
        .find(|a| known.iter().any(|k| k == a))
        .map(str::to_string)
}

/// clap's error `e` as one line in `lang`, with the help to ask for.
pub fn told(e: &clap::Error, lang: Lang, args: &[OsString], commands: &[String]) -> String {
    // clap shows a context value of several as they join with ", ".
    let get = |kind: ContextKind| e.get(kind).map(ToString::to_string).unwrap_or_default();
    let help = match command_of(args, commands) {
        Some(c) => format!("aufsicht {c} --help"),
        None => "aufsicht --help".to_string(),
    };
    let arg = get(ContextKind::InvalidArg);
    let command = command_of(args, commands);
    let line = match e.kind() {
        // Folders or an archive: a command that reads either says both
        // where the folders are missing (an option missing is only that).
        ErrorKind::MissingRequiredArgument
            if matches!(command.as_deref(), Some("standings" | "writers"))
                && arg.split(", ").any(|a| !a.starts_with('-')) =>
        {
            let args = arg.trim_end_matches('.');
            say(lang, "cli-missing-or-archive", &[("args", &args)])
        }
        ErrorKind::MissingRequiredArgument => {
            let args = arg.trim_end_matches('.');
            say(lang, "cli-missing", &[("args", &args)])
        }
        ErrorKind::UnknownArgument => say(lang, "cli-unknown", &[("arg", &arg)]),
        ErrorKind::InvalidSubcommand => say(
            lang,
            "cli-unknown-command",
            &[("command", &get(ContextKind::InvalidSubcommand))],
        ),
        ErrorKind::MissingSubcommand => say(lang, "cli-no-command", &[]),
        ErrorKind::ValueValidation if is_date(e) => {
            let option = arg.split(' ').next().unwrap_or_default();
            let date = get(ContextKind::InvalidValue);
            say(lang, "bad-date", &[("option", &option), ("date", &date)])
        }
        ErrorKind::InvalidValue | ErrorKind::ValueValidation => {
            let valid = get(ContextKind::ValidValue);
            let value = get(ContextKind::InvalidValue);
            if valid.is_empty() {
                say(lang, "cli-bad-value", &[("arg", &arg), ("value", &value)])
            } else {
                let args: [(&str, &dyn std::fmt::Display); 3] =
                    [("arg", &arg), ("value", &value), ("valid", &valid)];
                say(lang, "cli-bad-value-of", &args)
            }
        }
        ErrorKind::ArgumentConflict => say(
            lang,
            "cli-conflict",
            &[("arg", &arg), ("other", &get(ContextKind::PriorArg))],
        ),
        ErrorKind::TooManyValues => say(
            lang,
            "cli-too-many",
            &[("value", &get(ContextKind::InvalidValue))],
        ),
        _ => say(lang, "cli-other", &[]),
    };
    // clap's own "tip: a similar argument exists", in the run's language.
    let suggested = get(ContextKind::SuggestedArg);
    let suggested = match get(ContextKind::SuggestedSubcommand) {
        s if suggested.is_empty() => s,
        _ => suggested,
    };
    let line = match suggested.is_empty() {
        true => line,
        false => format!(
            "{line} {}",
            say(lang, "cli-did-you-mean", &[("arg", &suggested)])
        ),
    };
    format!("{line} {}", say(lang, "cli-help", &[("help", &help)]))
}

/// Whether the value refused is a date option's.
fn is_date(e: &clap::Error) -> bool {
    std::error::Error::source(e).is_some_and(|s| s.is::<crate::common::NotADate>())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<OsString> {
        list.iter().map(OsString::from).collect()
    }

    #[test]
    fn the_language_should_be_found_before_parsing() {
        assert_eq!(
            lang_of(&args(&["aufsicht", "--lang", "en", "scan"])),
            Lang::En
        );
        assert_eq!(lang_of(&args(&["aufsicht", "scan", "--lang=en"])), Lang::En);
        assert_eq!(lang_of(&args(&["aufsicht", "--lang", "xx"])), Lang::De);
    }

    #[test]
    fn a_mistyped_option_should_be_answered_with_a_suggestion_in_german() {
        let command = <crate::Cli as clap::CommandFactory>::command();
        let given = args(&["aufsicht", "standings", "--rule", "merkur", "x"]);
        let e = command
            .try_get_matches_from(&given)
            .expect_err("--rule is no option");
        let known = ["standings".to_string()];
        let said = told(&e, Lang::De, &given, &known);
        assert!(said.contains("Meinten Sie --rules?"), "{said}");
        assert_eq!(said.lines().count(), 1, "{said}");
    }

    #[test]
    fn standings_without_folders_should_say_that_an_archive_does_too() {
        let command = <crate::Cli as clap::CommandFactory>::command();
        let given = args(&["aufsicht", "standings", "--rules", "merkur"]);
        let e = command
            .try_get_matches_from(&given)
            .expect_err("no folders");
        let said = told(&e, Lang::De, &given, &["standings".to_string()]);
        assert!(said.contains("oder --archive ARCHIV."), "{said}");
        assert!(!said.contains(".."), "{said}");
    }

    #[test]
    fn the_help_should_point_at_the_command_given() {
        let known = ["scan".to_string(), "correct".to_string()];
        let given = args(&["aufsicht", "--lang", "de", "correct", "x.json"]);
        assert_eq!(command_of(&given, &known).as_deref(), Some("correct"));
        assert_eq!(command_of(&args(&["aufsicht", "scna"]), &known), None);
    }
}
