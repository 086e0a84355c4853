//! The `aufsicht-lab` command line: makes test sheets, trains the nets and
//! measures the product on them. It speaks English; the sheets' flag
//! messages follow `--lang`, as the product's do.

mod bench;
mod bench_series;
mod club_forms;
mod desk;
mod evaluate;
mod generate;
#[cfg(feature = "train")]
mod train;

use anyhow::Result;
use clap::{Parser, Subcommand};

use aufsicht::Lang;

#[derive(Parser)]
#[command(
    name = "aufsicht-lab",
    version,
    about = "Makes test sheets for aufsicht, trains its nets, measures it"
)]
struct Cli {
    /// Language of the flag messages in the truth and the results: de
    /// (default) or en. Also AUFSICHT_LANG.
    #[arg(long, global = true, env = "AUFSICHT_LANG", default_value = "de")]
    lang: Lang,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Generate filled, scanned test sheets with their truth (scans/ and truth/ in --out).
    Generate(Box<generate::GenerateArgs>),
    /// Train the digit model on the MNIST training split (writes a .safetensors file).
    #[cfg(feature = "train")]
    TrainDigits(train::TrainDigitsArgs),
    /// Train the pair model (two touching digits read whole) on the MNIST
    /// training split (writes a .safetensors file).
    #[cfg(feature = "train")]
    TrainPairs(train::TrainPairsArgs),
    /// Train the struck-ink model (a value struck out, told from writing)
    /// on sheets drawn with corrections (writes a .safetensors file).
    #[cfg(feature = "train")]
    TrainStruck(train::TrainStruckArgs),
    /// Compare scan results with the generator's truth and print the rates.
    /// With --scans, scan them first (into --results) and time it.
    Evaluate(evaluate::EvaluateArgs),
    /// Draw club forms (templates and their blanks) for learning a form.
    ClubForms(club_forms::ClubFormsArgs),
    /// Time each stage of reading a sheet on one core, beside decoding its image.
    BenchStages(bench::BenchArgs),
    /// Push venues' archives into one central archive at once, then time
    /// its season (a PostgreSQL database of its own, empty).
    BenchSeries(bench_series::BenchSeriesArgs),
    /// Work through a scanned night's questions at the desk, answered from
    /// the truth; print the decisions a sheet and what still differs.
    Desk(desk::DeskArgs),
}

/// Parses `args` (the program's name first) and runs the command.
pub fn run<I, T>(args: I) -> Result<()>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let cli = Cli::try_parse_from(args)?;
    let lang = cli.lang;
    match cli.command {
        Command::Generate(a) => generate::run(*a, lang),
        #[cfg(feature = "train")]
        Command::TrainDigits(a) => train::digits(a),
        #[cfg(feature = "train")]
        Command::TrainPairs(a) => train::pairs(a),
        #[cfg(feature = "train")]
        Command::TrainStruck(a) => train::struck(a),
        Command::Evaluate(a) => evaluate::run(a, lang),
        Command::BenchStages(a) => bench::run(a, lang),
        Command::BenchSeries(a) => bench_series::run(a),
        Command::ClubForms(a) => club_forms::run(a),
        Command::Desk(a) => desk::run(a, lang),
    }
}

/// Prints a line; a closed pipe (`| head`) ends the output quietly instead of panicking.
pub(crate) fn stdout_line(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stdout(), "{line}");
}
