//! `generate`: the man page and the shell completions, made from the
//! command line's own definition (what the package installs).

use clap::{CommandFactory, ValueEnum};

use aufsicht::Lang;

use crate::Cli;
use crate::common::write_stdout;

/// The arguments of `generate`.
#[derive(clap::Args)]
pub struct GenerateArgs {
    /// What to write to standard output.
    #[arg(value_enum)]
    pub what: Generated,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum Generated {
    /// The man page (roff), for `man aufsicht`.
    Man,
    /// Completions for bash.
    CompleteBash,
    /// Completions for zsh.
    CompleteZsh,
    /// Completions for fish.
    CompleteFish,
}

pub fn run(a: GenerateArgs, lang: Lang) -> anyhow::Result<()> {
    let mut command = crate::cli_help::localized(Cli::command(), lang);
    let mut out = Vec::new();
    let shell = match a.what {
        Generated::Man => {
            man_page(command, &mut out)?;
            return write_stdout(&out, lang);
        }
        Generated::CompleteBash => clap_complete::Shell::Bash,
        Generated::CompleteZsh => clap_complete::Shell::Zsh,
        Generated::CompleteFish => clap_complete::Shell::Fish,
    };
    clap_complete::generate(shell, &mut command, "aufsicht", &mut out);
    write_stdout(&out, lang)
}

/// One man page for the whole command line: the program's title, name,
/// synopsis, description and options, then each command (and each of a
/// command's own commands) in a section of its own with its synopsis,
/// description and every option. No other page is named, since none is
/// installed.
fn man_page(mut command: clap::Command, out: &mut Vec<u8>) -> std::io::Result<()> {
    command.build();
    let top = clap_mangen::Man::new(command.clone());
    top.render_title(out)?;
    top.render_name_section(out)?;
    top.render_synopsis_section(out)?;
    top.render_description_section(out)?;
    top.render_options_section(out)?;
    commands(&command, "aufsicht", out)?;
    top.render_version_section(out)
}

/// A section for each of `parent`'s commands, named `prefix` and its name.
fn commands(parent: &clap::Command, prefix: &str, out: &mut Vec<u8>) -> std::io::Result<()> {
    for sub in parent.get_subcommands().filter(|c| c.get_name() != "help") {
        let name = format!("{prefix} {}", sub.get_name());
        out.extend_from_slice(format!(".SH \"{}\"\n", name.to_uppercase()).as_bytes());
        let named = sub
            .clone()
            .display_name(name.clone())
            .bin_name(name.clone());
        let man = clap_mangen::Man::new(named);
        let mut part = Vec::new();
        man.render_synopsis_section(&mut part)?;
        man.render_description_section(&mut part)?;
        man.render_options_section(&mut part)?;
        // The command's own sections are subsections of its section.
        let text = String::from_utf8_lossy(&part).replace(".SH ", ".SS ");
        out.extend_from_slice(text.as_bytes());
        commands(sub, &name, out)?;
    }
    Ok(())
}
