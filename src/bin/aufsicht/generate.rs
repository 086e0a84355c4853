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
    let mut command = Cli::command();
    let mut out = Vec::new();
    let shell = match a.what {
        Generated::Man => {
            clap_mangen::Man::new(command).render(&mut out)?;
            return write_stdout(&out, lang);
        }
        Generated::CompleteBash => clap_complete::Shell::Bash,
        Generated::CompleteZsh => clap_complete::Shell::Zsh,
        Generated::CompleteFish => clap_complete::Shell::Fish,
    };
    clap_complete::generate(shell, &mut command, "aufsicht", &mut out);
    write_stdout(&out, lang)
}
