//! The `aufsicht` command line: a thin layer over the library.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};

use aufsicht::{Lang, RuleSet, SheetResult};

#[derive(Parser)]
#[command(
    name = "aufsicht",
    version,
    about = "Reads and checks Schafkopf and Doppelkopf score sheets"
)]
struct Cli {
    /// Language of flag messages: de (default) or en. Also AUFSICHT_LANG.
    #[arg(long, global = true, env = "AUFSICHT_LANG", default_value = "de")]
    lang: Lang,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Recompute every flag of a sheet result and print it as JSON.
    Verify {
        /// Rule set id (merkur, schwaig, turnier30, laufende, doppelkopf) or the path of a rule file.
        #[arg(long)]
        rules: String,
        /// A sheet result (JSON, schema aufsicht/sheet-v1).
        sheet: PathBuf,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("aufsicht: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Verify { rules, sheet } => {
            let rules = RuleSet::load(&rules).context("cannot load the rule set (--rules)")?;
            let input = SheetResult::from_path(&sheet)?;
            let named = input.rules.clone();
            let checked = aufsicht::verify(input, &rules, cli.lang)
                .with_context(|| sheet.display().to_string())?;
            println!("{}", checked.to_json_pretty());
            if let Some(named) = named.filter(|n| n != &rules.id) {
                eprintln!(
                    "aufsicht: note: {} names rule set `{named}`; it was checked with `{}` as --rules says",
                    sheet.display(),
                    rules.id
                );
            }
            Ok(())
        }
    }
}
