//! The `aufsicht` command line: parses, then hands each command to its
//! module. The product's commands (scan, verify, standings, review,
//! export, correct, audit, render-form) speak the user's language. Making and
//! measuring test data is the lab's own binary, `aufsicht-lab`.

mod archive;
mod audit;
mod cli_help;
mod cli_lang;
mod common;
mod draw;
mod form;
mod generate;
mod install_path;
mod print;
mod push;
mod render;
mod review;
mod scan;
mod season;
mod serve;
mod standings;
mod verify;
mod watch;
mod writers;

use std::process::ExitCode;

use anyhow::Result;
use clap::{Parser, Subcommand};

use aufsicht::Lang;

#[derive(Parser)]
#[command(
    name = "aufsicht",
    version,
    about = "Reads and checks Schafkopf and Doppelkopf score sheets"
)]
pub(crate) struct Cli {
    /// Language of flag messages: de (default) or en. Also AUFSICHT_LANG.
    #[arg(long, global = true, env = "AUFSICHT_LANG", default_value = "de")]
    lang: Lang,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Read scanned sheets (images, PDFs, folders) and write one result JSON per sheet.
    Scan(scan::ScanArgs),
    /// Recompute every flag of a sheet result and print it as JSON.
    Verify(verify::VerifyArgs),
    /// Draw every round's tables and seats for the registered players
    /// (seating CSV: round,table,seat,player).
    Draw(draw::DrawArgs),
    /// Print one sheet per drawn table and round, with its players and a
    /// code that `scan` reads (PDF at 300 dpi).
    Print(print::PrintArgs),
    /// Rank the night's players from the sheet results in DIRs (CSV to stdout).
    Standings(standings::StandingsArgs),
    /// The Schreiber's ledger: per Schreiber their footer errors, whose
    /// points they moved, and whether their own way is beyond chance.
    Writers(writers::WritersArgs),
    /// The club's season table over the archive's nights (CSV to stdout).
    Season(season::SeasonArgs),
    /// Write an archived night back out: one contract JSON per sheet and values.csv.
    Export(archive::ExportArgs),
    /// Send a venue's nights into a series' central archive (PostgreSQL):
    /// only what it lacks, again and again as the venue decides more.
    Push(push::PushArgs),
    /// Take a person's corrected sheet result into the archive: re-verified,
    /// every changed value recorded with who and when. Prints the new result.
    Correct(archive::CorrectArgs),
    /// The archive's upkeep: `archive backup FILE DEST` copies it while in use.
    Archive(archive::ArchiveArgs),
    /// A player's night (every sheet they sat at) or one sheet, from the
    /// archive: crops, readings, arithmetic and every change (HTML or JSON).
    Audit(audit::AuditArgs),
    /// Write the night's review page: one self-contained HTML file, flagged sheets first.
    Review(review::ReviewArgs),
    /// Render a blank form to print (PNG or PDF by the file's extension).
    RenderForm(render::RenderFormArgs),
    /// A club's own form: check a template against a scan.
    Form(form::FormArgs),
    /// Write the man page or a shell's completions to standard output.
    Generate(generate::GenerateArgs),
    /// The Windows installer's: put a folder on the machine's PATH or take
    /// it off, every other entry left as it is.
    #[command(hide = true)]
    InstallPath(install_path::InstallPathArgs),
}

fn main() -> ExitCode {
    aufsicht::read::limit_openmp_threads();
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let lang = cli_lang::lang_of(&args);
    let command = cli_help::localized(<Cli as clap::CommandFactory>::command(), lang);
    let parsed = command
        .try_get_matches_from(&args)
        .and_then(|m| <Cli as clap::FromArgMatches>::from_arg_matches(&m));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => return usage_error(&e, &args),
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("aufsicht: {e:#}");
            // Finished, but not everything could be read: not a usage error.
            if e.downcast_ref::<common::Incomplete>().is_some() {
                ExitCode::from(1)
            } else {
                ExitCode::from(2)
            }
        }
    }
}

/// Help and version as clap shows them; any other error of the command
/// line in one line of the run's language (exit 2).
fn usage_error(e: &clap::Error, args: &[std::ffi::OsString]) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        e.exit();
    }
    let commands: Vec<String> = <Cli as clap::CommandFactory>::command()
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect();
    let lang = cli_lang::lang_of(args);
    eprintln!("aufsicht: {}", cli_lang::told(e, lang, args, &commands));
    ExitCode::from(2)
}

fn run(cli: Cli) -> Result<()> {
    let lang = cli.lang;
    match cli.command {
        Command::Scan(a) => scan::run(a, lang),
        Command::Verify(a) => verify::run(a, lang),
        Command::Draw(a) => draw::run(a, lang),
        Command::Print(a) => print::run(a, lang),
        Command::Standings(a) => standings::run(a, lang),
        Command::Season(a) => season::run(a, lang),
        Command::Writers(a) => writers::run(a, lang),
        Command::Export(a) => archive::export_run(a, lang),
        Command::Push(a) => push::run(a, lang),
        Command::Correct(a) => archive::correct_run(a, lang),
        Command::Archive(a) => archive::archive_run(a, lang),
        Command::Audit(a) => audit::run(a, lang),
        Command::Review(a) => review::run(a, lang),
        Command::RenderForm(a) => render::run(a, lang),
        Command::Form(a) => form::run(a, lang),
        Command::Generate(a) => generate::run(a, lang),
        Command::InstallPath(a) => install_path::run(a, lang),
    }
}
