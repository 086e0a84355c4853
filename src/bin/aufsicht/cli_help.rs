//! The command line's help in the run's language: every command's and
//! option's text from the catalogue (`help-<command>` and
//! `help-<command>--<option>`, a subcommand's as `help-<command>-<sub>`),
//! with clap's own words (usage, headings, help and version) said there
//! too. The doc comments on the arguments are the code's documentation.

use clap::{Arg, Command};

use aufsicht::Lang;
use aufsicht::catalogue::say;

/// `command` with every text a person reads in `lang`.
pub fn localized(command: Command, lang: Lang) -> Command {
    let command = command
        .disable_version_flag(true)
        .arg(version_flag(lang))
        .disable_help_subcommand(true);
    let mut command = words_of(command, "help", lang);
    command.build();
    usage_localized(&mut command, lang);
    command
}

/// The command's about, example, headings and arguments, then its
/// subcommands', keyed under `key`.
fn words_of(mut command: Command, key: &str, lang: Lang) -> Command {
    let about = say(lang, key, &[]);
    command = command
        .about(about)
        .long_about(None)
        .help_template(template(lang))
        .subcommand_help_heading(say(lang, "help-heading-commands", &[]))
        .subcommand_value_name(say(lang, "help-value-command", &[]))
        .disable_help_flag(true)
        .arg(help_flag(lang));
    let example = format!("{key}-example");
    if has(lang, &example) {
        let said = say(lang, "help-word-example", &[]);
        command = command.after_help(format!("{said}\n  {}", say(lang, &example, &[])));
    }
    let ids: Vec<String> = command
        .get_arguments()
        .map(|a| a.get_id().to_string())
        .filter(|id| id != "help" && id != "version")
        .collect();
    for id in ids {
        let text = say(lang, &format!("{key}--{id}"), &[]);
        command = command.mut_arg(id, |a| with_heading(described(a, text, lang), lang));
    }
    let subs: Vec<String> = command
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect();
    for name in subs {
        let sub_key = format!("{key}-{name}");
        command = command.mut_subcommand(name, |c| words_of(c, &sub_key, lang));
    }
    command
}

/// The argument's help `text`, then its default and its possible values
/// in the language (clap's own brackets hidden).
fn described(arg: Arg, text: String, lang: Lang) -> Arg {
    if !arg.get_action().takes_values() {
        return arg.help(text);
    }
    // The placeholder in the language (`<REGELWERK>`, not `<RULES>`).
    let placeholder = format!("help-value-{}", arg.get_id());
    let arg = match has(lang, &placeholder) {
        true => arg.value_name(say(lang, &placeholder, &[])),
        false => arg,
    };
    let mut told = vec![text];
    {
        let defaults: Vec<String> = arg
            .get_default_values()
            .iter()
            .map(|v| v.to_string_lossy().into_owned())
            .filter(|v| !v.is_empty())
            .collect();
        if !defaults.is_empty() {
            told.push(say(
                lang,
                "help-default",
                &[("value", &defaults.join(", "))],
            ));
        }
        let possible: Vec<String> = arg
            .get_possible_values()
            .iter()
            .filter(|v| !v.is_hide_set())
            .map(|v| v.get_name().to_string())
            .collect();
        if !possible.is_empty() {
            told.push(say(
                lang,
                "help-possible",
                &[("values", &possible.join(", "))],
            ));
        }
    }
    arg.help(told.join("; "))
        .hide_default_value(true)
        .hide_possible_values(true)
        .hide_env(true)
}

/// Options and arguments under the language's heading.
fn with_heading(arg: Arg, lang: Lang) -> Arg {
    let heading = match arg.is_positional() {
        true => "help-heading-arguments",
        false => "help-heading-options",
    };
    arg.help_heading(say(lang, heading, &[]))
}

fn help_flag(lang: Lang) -> Arg {
    let arg = Arg::new("help")
        .short('h')
        .long("help")
        .action(clap::ArgAction::Help)
        .help(say(lang, "help-flag-help", &[]));
    with_heading(arg, lang)
}

fn version_flag(lang: Lang) -> Arg {
    let arg = Arg::new("version")
        .short('V')
        .long("version")
        .action(clap::ArgAction::Version)
        .help(say(lang, "help-flag-version", &[]));
    with_heading(arg, lang)
}

/// clap's layout with the usage line's heading in the language.
fn template(lang: Lang) -> String {
    let usage = say(lang, "help-heading-usage", &[]);
    format!(
        "{{before-help}}{{about-with-newline}}\n{usage} {{usage}}\n\n{{all-args}}{{after-help}}"
    )
}

/// Every usage line with the options' placeholder in the language: clap
/// writes `[OPTIONS]` itself, so the line it renders is said again.
pub fn usage_localized(command: &mut Command, lang: Lang) {
    let options = format!("[{}]", say(lang, "help-options", &[]));
    let usage = command.render_usage().to_string();
    let line = usage.split_once(' ').map_or(usage.as_str(), |(_, l)| l);
    let line = line.trim().replace("[OPTIONS]", &options);
    *command = std::mem::take(command).override_usage(line);
    for sub in command.get_subcommands_mut() {
        usage_localized(sub, lang);
    }
}

/// Whether the catalogue holds `id` (an example is not every command's).
fn has(lang: Lang, id: &str) -> bool {
    say(lang, id, &[]) != id
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    /// Every key the command line asks the catalogue for.
    fn keys(command: &Command, key: &str, out: &mut Vec<String>) {
        out.push(key.to_string());
        for a in command.get_arguments() {
            let id = a.get_id().as_str();
            if id != "help" && id != "version" {
                out.push(format!("{key}--{id}"));
            }
        }
        for c in command.get_subcommands() {
            keys(c, &format!("{key}-{}", c.get_name()), out);
        }
    }

    #[test]
    fn every_command_and_option_should_be_described_in_both_languages() {
        let mut wanted = Vec::new();
        keys(&crate::Cli::command(), "help", &mut wanted);
        assert!(wanted.len() > 80, "{}", wanted.len());
        for lang in [Lang::De, Lang::En] {
            let missing: Vec<&String> = wanted.iter().filter(|k| !has(lang, k)).collect();
            assert!(missing.is_empty(), "{lang:?} lacks {missing:?}");
        }
    }

    /// Every option's placeholder that is not German by itself.
    fn placeholders(command: &Command, out: &mut std::collections::BTreeSet<String>) {
        for a in command.get_arguments() {
            if a.get_action().takes_values() && a.get_possible_values().is_empty() {
                out.insert(format!("help-value-{}", a.get_id()));
            }
        }
        for c in command.get_subcommands() {
            placeholders(c, out);
        }
    }

    /// Every command's help, rendered in `lang`.
    fn helps(command: &mut Command, out: &mut Vec<String>) {
        out.push(command.render_help().to_string());
        for c in command.get_subcommands_mut() {
            helps(c, out);
        }
    }

    #[test]
    fn no_option_should_name_an_empty_default() {
        let mut c = localized(crate::Cli::command(), Lang::De);
        c.build();
        let mut all = Vec::new();
        helps(&mut c, &mut all);
        let empty = say(Lang::De, "help-default", &[("value", &"")]);
        for help in &all {
            for line in help.lines() {
                let line = line.trim_end();
                assert!(
                    !line.ends_with(empty.trim_end()) && !line.contains(&format!("{empty};")),
                    "{line}"
                );
            }
        }
    }

    #[test]
    fn every_options_placeholder_should_be_german() {
        let mut wanted = std::collections::BTreeSet::new();
        placeholders(&crate::Cli::command(), &mut wanted);
        let missing: Vec<&String> = wanted.iter().filter(|k| !has(Lang::De, k)).collect();
        assert!(missing.is_empty(), "German lacks {missing:?}");
    }

    #[test]
    fn the_help_should_speak_german_by_default_and_english_when_asked() {
        let help = |lang| {
            let mut c = localized(crate::Cli::command(), lang);
            c.build();
            let scan = c.find_subcommand_mut("scan").expect("scan");
            scan.render_help().to_string()
        };
        let de = help(Lang::De);
        for words in [
            "Aufruf:",
            "Optionen:",
            "Beispiel:",
            "Ordner für die Ergebnisse",
        ] {
            assert!(de.contains(words), "{words} in\n{de}");
        }
        assert!(!de.contains("Usage:") && !de.contains("Print help"), "{de}");
        let en = help(Lang::En);
        for words in ["Usage:", "Options:", "Example:", "Folder for the results"] {
            assert!(en.contains(words), "{words} in\n{en}");
        }
    }
}
