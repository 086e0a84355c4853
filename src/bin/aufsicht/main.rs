//! The `aufsicht` command line: parses, then hands each command to its
//! module. The product's commands (scan, verify, standings, review,
//! export, correct, render-form) speak the user's language; the lab's
//! (generate, train-*, evaluate) make and measure test data.

mod archive;
mod bench;
mod common;
mod draw;
mod evaluate;
mod generate;
mod print;
mod render;
mod review;
mod scan;
mod serve;
mod standings;
mod train;
mod verify;
mod watch;

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
struct Cli {
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
    /// Write an archived night back out: one contract JSON per sheet and values.csv.
    Export(archive::ExportArgs),
    /// Take a person's corrected sheet result into the archive: re-verified,
    /// every changed value recorded with who and when. Prints the new result.
    Correct(archive::CorrectArgs),
    /// Write the night's review page: one self-contained HTML file, flagged sheets first.
    Review(review::ReviewArgs),
    /// Render a blank form to print (PNG or PDF by the file's extension).
    RenderForm(render::RenderFormArgs),
    /// Generate filled, scanned test sheets with their truth (scans/ and truth/ in --out).
    Generate(generate::GenerateArgs),
    /// Train the digit model on the MNIST training split (writes a .safetensors file).
    TrainDigits(train::TrainDigitsArgs),
    /// Train the pair model (two touching digits read whole) on the MNIST
    /// training split (writes a .safetensors file).
    TrainPairs(train::TrainPairsArgs),
    /// Train the struck-ink model (a value struck out, told from writing)
    /// on sheets drawn with corrections (writes a .safetensors file).
    TrainStruck(train::TrainStruckArgs),
    /// Compare scan results with the generator's truth and print the rates.
    /// With --scans, scan them first (into --results) and time it.
    Evaluate(evaluate::EvaluateArgs),
    /// Time each stage of reading a sheet on one core, beside decoding its image.
    BenchStages(bench::BenchArgs),
}

fn main() -> ExitCode {
    limit_openmp_threads();
    let cli = Cli::parse();
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

/// Tesseract's OpenMP reads `OMP_THREAD_LIMIT` when the process starts, not
/// later: without it, each call is ten times slower. The program replaces
/// itself (same pid, so a kill or Ctrl-C reaches the one process that
/// works) with a copy started with it set.
fn limit_openmp_threads() {
    use std::os::unix::process::CommandExt;
    if std::env::var_os("OMP_THREAD_LIMIT").is_some() {
        return;
    }
    if let Ok(exe) = std::env::current_exe() {
        // `exec` returns only when it fails; then the program runs on, slower.
        let _failed = std::process::Command::new(exe)
            .args(std::env::args_os().skip(1))
            .env("OMP_THREAD_LIMIT", "1")
            .exec();
    }
}

fn run(cli: Cli) -> Result<()> {
    let lang = cli.lang;
    match cli.command {
        Command::Scan(a) => scan::run(a, lang),
        Command::Verify(a) => verify::run(a, lang),
        Command::Draw(a) => draw::run(a, lang),
        Command::Print(a) => print::run(a, lang),
        Command::Standings(a) => standings::run(a, lang),
        Command::Export(a) => archive::export_run(a, lang),
        Command::Correct(a) => archive::correct_run(a, lang),
        Command::Review(a) => review::run(a, lang),
        Command::RenderForm(a) => render::run(a, lang),
        Command::Generate(a) => generate::run(a, lang),
        Command::TrainDigits(a) => train::digits(a),
        Command::TrainPairs(a) => train::pairs(a),
        Command::TrainStruck(a) => train::struck(a),
        Command::Evaluate(a) => evaluate::run(a, lang),
        Command::BenchStages(a) => bench::run(a, lang),
    }
}
