//! The `aufsicht` command line: a thin layer over the library.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand, ValueEnum};
use rand::RngExt;

use aufsicht::catalogue::{Tell, say};
use aufsicht::form::FormTemplate;
use aufsicht::{Lang, RuleSet, SheetResult, input, synth};

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

#[derive(Clone, Copy, ValueEnum)]
enum CaptureArg {
    Clean,
    Scanner,
    Phone,
    Mixed,
}

#[derive(Clone, Copy, ValueEnum, PartialEq)]
enum ReaderArg {
    /// The trained digit model (default).
    Cnn,
    /// Tesseract's legacy engine with a digit whitelist.
    Tesseract,
}

#[derive(Clone, Copy, ValueEnum, PartialEq)]
enum Format {
    Png,
    Jpg,
    Tif,
    Pdf,
}

#[derive(Subcommand)]
enum Command {
    /// Read scanned sheets (images, PDFs, folders) and write one result JSON per sheet.
    Scan {
        /// Rule set id (merkur, schwaig, turnier30, laufende, doppelkopf) or the path of a rule file.
        #[arg(long)]
        rules: String,
        /// Form id (punkteliste-a4-32, doko-a4-24x5) or a template path; recognised when absent.
        #[arg(long)]
        form: Option<String>,
        /// Folder for the results.
        #[arg(long)]
        out: PathBuf,
        /// Which reader reads the handwritten digits.
        #[arg(long, value_enum, default_value = "cnn")]
        reader: ReaderArg,
        /// The archive (SQLite) the sheets go into; default: aufsicht.sqlite in --out.
        #[arg(long)]
        archive: Option<PathBuf>,
        /// The tournament's name in the archive; default: the name of --out.
        #[arg(long)]
        tournament: Option<String>,
        /// Do not archive (results and summary.csv only).
        #[arg(long, conflicts_with_all = ["archive", "tournament"])]
        no_archive: bool,
        /// The night's registered participant numbers (one per line, or a CSV
        /// with them in the first column): participant numbers are checked against it.
        #[arg(long)]
        participants: Option<PathBuf>,
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
    },
    /// Recompute every flag of a sheet result and print it as JSON.
    Verify {
        /// Rule set id or the path of a rule file.
        #[arg(long)]
        rules: String,
        /// A sheet result (JSON, schema aufsicht/sheet-v1).
        sheet: PathBuf,
    },
    /// Rank the night's players from the sheet results in DIRs (CSV to stdout).
    Standings {
        /// Rule set id or the path of a rule file (its tie-breaks order equal totals).
        #[arg(long)]
        rules: String,
        /// Where the night checks go (CSV); default: standings-checks.csv in the first DIR.
        #[arg(long)]
        checks: Option<PathBuf>,
        /// The night's registered participant numbers: numbers nobody registered
        /// and registered players on no sheet become night checks.
        #[arg(long)]
        participants: Option<PathBuf>,
        /// Folders of sheet results (*.json), e.g. one per round.
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
    },
    /// Write an archived night back out: one contract JSON per sheet and values.csv.
    Export {
        #[arg(long)]
        archive: PathBuf,
        /// The tournament's name; may be left out when the archive holds one.
        #[arg(long)]
        tournament: Option<String>,
        #[arg(long)]
        out: PathBuf,
    },
    /// Take a person's corrected sheet result into the archive: re-verified,
    /// every changed value recorded with who and when. Prints the new result.
    Correct {
        #[arg(long)]
        archive: PathBuf,
        #[arg(long)]
        tournament: Option<String>,
        /// Rule set id or the path of a rule file.
        #[arg(long)]
        rules: String,
        /// Who corrected it (name or initials), for the trail.
        #[arg(long)]
        by: String,
        /// The corrected sheet result (a scan's JSON, edited).
        sheet: PathBuf,
    },
    /// Write the night's review page: one self-contained HTML file, flagged sheets first.
    Review {
        /// The HTML file to write.
        #[arg(long)]
        out: PathBuf,
        /// The page's title.
        #[arg(long, default_value = "aufsicht review")]
        title: String,
        /// Folders of sheet results (*.json) whose scans are still where they were read.
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
    },
    /// Render a blank form to print (PNG or PDF by the file's extension).
    RenderForm {
        #[arg(long)]
        form: String,
        #[arg(long, default_value_t = 300.0)]
        dpi: f64,
        #[arg(long)]
        out: PathBuf,
    },
    /// Generate filled, scanned test sheets with their truth (scans/ and truth/ in --out).
    Generate {
        #[arg(long)]
        rules: String,
        #[arg(long)]
        form: String,
        #[arg(long, default_value_t = 10)]
        count: usize,
        #[arg(long)]
        out: PathBuf,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Players at the table (Doppelkopf: 4 or 5).
        #[arg(long)]
        players: Option<usize>,
        #[arg(long, value_enum, default_value = "mixed")]
        capture: CaptureArg,
        #[arg(long, default_value_t = 200.0)]
        dpi: f64,
        #[arg(long, value_enum, default_value = "png")]
        format: Format,
        /// MNIST training digits (default: data/mnist, else the bundled subset).
        #[arg(long)]
        digits: Option<PathBuf>,
        /// Draw only the digits the model's training held back (measures the model fairly).
        #[arg(long)]
        held_back: bool,
        /// Share of sheets on which the writer makes one mistake (0..1).
        #[arg(long, default_value_t = 0.3)]
        writer_errors: f64,
        /// A whole night instead of --count sheets: this many players (a multiple
        /// of 4) at tables of four in every round of the rule set, seated anew each round.
        #[arg(long)]
        night: Option<usize>,
    },
    /// Train the digit model on the MNIST training split (writes a .safetensors file).
    TrainDigits {
        /// Folder with train-images.idx3-ubyte and train-labels.idx1-ubyte.
        #[arg(long, default_value = "data/mnist")]
        mnist: PathBuf,
        #[arg(long, default_value = "models/digits.safetensors")]
        out: PathBuf,
        #[arg(long, default_value_t = 5)]
        epochs: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Sheets drawn from the training digits and cut by the pipeline,
        /// whose digits train beside MNIST's (0: MNIST only).
        #[arg(long, default_value_t = 600)]
        sheets: usize,
        /// Share of the MNIST digits bent afresh each epoch (a small
        /// rotation, shear and elastic distortion; 0: none).
        #[arg(long, default_value_t = 0.0)]
        bent: f64,
        #[command(flatten)]
        go_on: GoOn,
    },
    /// Train the pair model (two touching digits read whole) on the MNIST
    /// training split (writes a .safetensors file).
    TrainPairs {
        /// Folder with train-images.idx3-ubyte and train-labels.idx1-ubyte.
        #[arg(long, default_value = "data/mnist")]
        mnist: PathBuf,
        #[arg(long, default_value = "models/pairs.safetensors")]
        out: PathBuf,
        /// The defaults make the committed model (49 min on 2 cores).
        #[arg(long, default_value_t = 6)]
        epochs: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Sheets drawn from the training digits whose pieces train beside
        /// digits drawn side by side.
        #[arg(long, default_value_t = 1200)]
        sheets: usize,
        /// Digits drawn side by side afresh in each epoch.
        #[arg(long, default_value_t = 100000)]
        fresh: usize,
        #[command(flatten)]
        go_on: GoOn,
    },
    /// Compare scan results with the generator's truth and print the rates.
    /// With --scans, scan them first (into --results) and time it.
    Evaluate {
        #[arg(long)]
        truth: PathBuf,
        #[arg(long)]
        results: PathBuf,
        /// Scans to read first (a generated set's scans/ folder).
        #[arg(long, requires = "rules")]
        scans: Option<PathBuf>,
        /// Rule set for --scans.
        #[arg(long)]
        rules: Option<String>,
        #[arg(long, value_enum, default_value = "cnn")]
        reader: ReaderArg,
        /// The participant list for --scans (as for scan).
        #[arg(long, requires = "scans")]
        participants: Option<PathBuf>,
    },
}

/// A library error told in the user's language, as the command's error.
trait Told<T> {
    fn told(self, lang: Lang) -> Result<T>;
}

impl<T, E: Tell> Told<T> for std::result::Result<T, E> {
    fn told(self, lang: Lang) -> Result<T> {
        self.map_err(|e| anyhow::anyhow!(e.tell(lang)))
    }
}

fn main() -> ExitCode {
    limit_openmp_threads();
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("aufsicht: {e:#}");
            // Finished, but not everything could be read: not a usage error.
            if e.downcast_ref::<Incomplete>().is_some() {
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
        Command::Verify { rules, sheet } => verify(&rules, &sheet, lang),
        Command::Scan {
            rules,
            form,
            out,
            reader,
            archive,
            tournament,
            no_archive,
            participants,
            inputs,
        } => scan_cmd(
            &Setup {
                rules: &rules,
                form: form.as_deref(),
                reader,
                participants: participants.as_deref(),
            },
            &out,
            &inputs,
            lang,
            (!no_archive).then_some(ArchiveArg {
                file: archive,
                tournament,
            }),
        ),
        Command::Standings {
            rules,
            checks,
            participants,
            dirs,
        } => standings(&rules, checks, participants.as_deref(), &dirs, lang),
        Command::Export {
            archive,
            tournament,
            out,
        } => export(&archive, tournament.as_deref(), &out, lang),
        Command::Correct {
            archive,
            tournament,
            rules,
            by,
            sheet,
        } => correct(&archive, tournament.as_deref(), &rules, &by, &sheet, lang),
        Command::Review { out, title, dirs } => review(&out, &title, &dirs, lang),
        Command::RenderForm { form, dpi, out } => {
            let form = FormTemplate::load(&form)
                .told(lang)
                .context(say(lang, "load-form", &[]))?;
            if !(50.0..=1200.0).contains(&dpi) {
                bail!(say(lang, "dpi-range", &[("dpi", &dpi)]));
            }
            let page = aufsicht::render::render_form(&form, dpi);
            write_page(&page, &out, dpi, lang)
        }
        Command::Generate {
            rules,
            form,
            count,
            out,
            seed,
            players,
            capture,
            dpi,
            format,
            digits,
            held_back,
            writer_errors,
            night,
        } => generate(
            &rules,
            &form,
            count,
            &out,
            seed,
            players,
            capture,
            dpi,
            format,
            digits,
            held_back,
            writer_errors,
            night,
            lang,
        ),
        Command::TrainDigits {
            mnist,
            out,
            epochs,
            seed,
            sheets,
            bent,
            go_on,
        } => {
            if !(0.0..=1.0).contains(&bent) {
                bail!("--bent is a share between 0 and 1, not {bent}");
            }
            let schedule = go_on.schedule(epochs)?;
            let digits = synth::Digits::from_dir(&mnist).map_err(anyhow::Error::msg)?;
            let [cells, held_cells] =
                harvest_training_and_held(&digits, sheets, seed.wrapping_mul(1000) + 1, |h, what| {
                    eprintln!(
                        "aufsicht: {} digits and {} parts not one digit cut from {} sheets drawn with {what} ({} of {} fields not in one piece per digit, {} sheets not found)",
                        h.samples.len() - h.not_digits,
                        h.not_digits,
                        h.sheets,
                        h.missegmented,
                        h.fields,
                        h.lost_sheets
                    )
                })?
                .map(|h| h.samples);
            let held = aufsicht::cnn::HELD_BACK;
            eprintln!(
                "aufsicht: training on {} MNIST training digits and {} cut from sheets",
                digits.len() - held.min(digits.len() / 10),
                cells.len()
            );
            let model = aufsicht::cnn::train(
                &digits,
                &cells,
                &held_cells,
                &schedule,
                seed,
                bent,
                &mut |line| eprintln!("aufsicht: {line}"),
            )
            .map_err(|e| anyhow::anyhow!("training failed: {e}"))?;
            save_model(&model, &out)
        }
        Command::TrainPairs {
            mnist,
            out,
            epochs,
            seed,
            sheets,
            fresh,
            go_on,
        } => {
            let schedule = go_on.schedule(epochs)?;
            let digits = synth::Digits::from_dir(&mnist).map_err(anyhow::Error::msg)?;
            let [cut, held_cut] =
                harvest_training_and_held(&digits, sheets, seed.wrapping_mul(1000) + 3, |h, what| {
                    let none = h
                        .pairs
                        .iter()
                        .filter(|s| s.1 as usize == aufsicht::cnn::pair::NOT_TWO)
                        .count();
                    eprintln!(
                        "aufsicht: {} pieces of two touching digits and {none} of one or three cut from {} sheets drawn with {what}",
                        h.pairs.len() - none,
                        h.sheets,
                    )
                })?
                .map(|h| h.pairs);
            let model = aufsicht::cnn::pair::train_pairs(
                &digits,
                &cut,
                &held_cut,
                fresh,
                &schedule,
                seed,
                &mut |line| eprintln!("aufsicht: {line}"),
            )
            .map_err(|e| anyhow::anyhow!("training failed: {e}"))?;
            save_model(&model, &out)
        }
        Command::Evaluate {
            truth,
            results,
            scans,
            rules,
            reader,
            participants,
        } => {
            let run = match (scans, rules) {
                (Some(scans), Some(rules)) => {
                    let start = std::time::Instant::now();
                    let setup = Setup {
                        rules: &rules,
                        form: None,
                        reader,
                        participants: participants.as_deref(),
                    };
                    scan_cmd(&setup, &results, &[scans], cli.lang, None)?;
                    Some((start.elapsed().as_secs_f64(), peak_memory_mb()))
                }
                _ => None,
            };
            let mut report =
                aufsicht::evaluate::evaluate(&truth, &results).map_err(anyhow::Error::msg)?;
            report.run = run;
            for line in report.lines() {
                stdout_line(&line);
            }
            Ok(())
        }
    }
}

/// Sheets drawn with the MNIST training digits but the held-back last
/// ones, and a sixth as many drawn with the held-back ones (seed + 1),
/// cut as the pipeline cuts them; `report` says what each gave.
fn harvest_training_and_held(
    digits: &synth::Digits,
    sheets: usize,
    seed: u64,
    report: impl Fn(&aufsicht::harvest::Harvest, &str),
) -> Result<[aufsicht::harvest::Harvest; 2]> {
    let forms = training_forms()?;
    let held = aufsicht::cnn::HELD_BACK;
    let training =
        aufsicht::harvest::harvest(&forms, &digits.clone().without_last(held), sheets, seed);
    report(&training, "the training digits");
    let held_back = aufsicht::harvest::harvest(
        &forms,
        &digits.clone().last(held),
        sheets.div_ceil(6),
        seed + 1,
    );
    report(&held_back, "the held-back digits");
    Ok([training, held_back])
}

/// Where a training starts: afresh, or from a model it goes on training.
#[derive(clap::Args, Debug)]
struct GoOn {
    /// Go on training this model (of the same net) instead of starting afresh.
    #[arg(long)]
    from: Option<PathBuf>,
    /// The first epoch's learning rate (each later one is 0.6 times the one before).
    #[arg(long, default_value_t = aufsicht::cnn::LEARNING_RATE)]
    learning_rate: f64,
    /// A fresh net with three convolutions and a dense layer twice as
    /// broad (about 1.3 times the work); a model to go on from brings its own.
    #[arg(long, conflicts_with = "from")]
    deep: bool,
}

impl GoOn {
    /// Checked before the long harvest: a model that cannot be read fails at once.
    fn schedule(self, epochs: usize) -> Result<aufsicht::cnn::Schedule> {
        if let Some(from) = &self.from {
            std::fs::File::open(from)
                .with_context(|| format!("cannot read the model {}", from.display()))?;
        }
        if !(self.learning_rate > 0.0 && self.learning_rate.is_finite()) {
            bail!(
                "--learning-rate must be a positive number, not {}",
                self.learning_rate
            );
        }
        Ok(aufsicht::cnn::Schedule {
            epochs,
            learning_rate: self.learning_rate,
            from: self.from,
            layers: if self.deep {
                aufsicht::cnn::Layers::DEEP
            } else {
                aufsicht::cnn::Layers::SMALL
            },
        })
    }
}

fn save_model(model: &candle_nn::VarMap, out: &Path) -> Result<()> {
    model
        .save(out)
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", out.display()))?;
    eprintln!("aufsicht: model written to {}", out.display());
    Ok(())
}

/// The rule sets and forms training sheets are drawn with, in turn.
fn training_forms() -> Result<Vec<(RuleSet, FormTemplate)>> {
    [
        ("merkur", "punkteliste-a4-32"),
        ("doppelkopf", "doko-a4-24x5"),
        ("schwaig", "punkteliste-a4-32"),
    ]
    .iter()
    .map(|(r, f)| Ok((RuleSet::load(r)?, FormTemplate::load(f)?)))
    .collect()
}

/// The process's peak resident memory (Linux), 0 where unknown.
fn peak_memory_mb() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<f64>().ok())
        })
        .map_or(0.0, |kb| kb / 1024.0)
}

/// Prints a line; a closed pipe (`| head`) ends the output quietly instead of panicking.
fn stdout_line(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stdout(), "{line}");
}

fn load_rules(rules: &str, lang: Lang) -> Result<RuleSet> {
    RuleSet::load(rules)
        .told(lang)
        .context(say(lang, "load-rules", &[]))
}

fn load_participants(
    list: Option<&Path>,
    lang: Lang,
) -> Result<Option<aufsicht::participants::Participants>> {
    list.map(aufsicht::participants::Participants::load)
        .transpose()
        .told(lang)
        .context(say(lang, "load-participants", &[]))
}

fn verify(rules: &str, sheet: &Path, lang: Lang) -> Result<()> {
    let rules = load_rules(rules, lang)?;
    let input = SheetResult::from_path(sheet).told(lang)?;
    let named = input.rules.clone();
    let checked = aufsicht::verify(input, &rules, lang)
        .told(lang)
        .with_context(|| sheet.display().to_string())?;
    stdout_line(&checked.to_json_pretty());
    if let Some(named) = named.filter(|n| n != &rules.id) {
        let (file, rules) = (sheet.display(), &rules.id);
        let args: [(&str, &dyn std::fmt::Display); 3] =
            [("file", &file), ("named", &named), ("rules", rules)];
        eprintln!("aufsicht: {}", say(lang, "verify-other-rules", &args));
    }
    Ok(())
}

fn standings(
    rules: &str,
    checks: Option<PathBuf>,
    participants: Option<&Path>,
    dirs: &[PathBuf],
    lang: Lang,
) -> Result<()> {
    let rules = load_rules(rules, lang)?;
    let participants = load_participants(participants, lang)?;
    let results = sheet_results(dirs, lang)?;
    refuse_other_rules(&results, &rules.id, lang)?;
    let mut sheets = Vec::new();
    for (_, file, sheet) in results {
        let name = file.display().to_string();
        // Flags are recomputed: a corrected value must count, a stale flag must not.
        match aufsicht::verify(sheet.clone(), &rules, lang) {
            Ok(checked) => sheets.push((name, checked)),
            Err(e) => {
                let error = e.tell(lang);
                let args: [(&str, &dyn std::fmt::Display); 2] =
                    [("file", &name), ("error", &error)];
                eprintln!("aufsicht: {}", say(lang, "standings-verify-failed", &args));
                sheets.push((name, sheet));
            }
        }
    }
    let table = aufsicht::standings::standings(&sheets, &rules, participants.as_ref(), lang);
    let mut out = Vec::new();
    table.write_csv(&mut out)?;
    use std::io::Write;
    let _ = std::io::stdout().write_all(&out);
    let checks_path = checks.unwrap_or_else(|| dirs[0].join("standings-checks.csv"));
    let mut text = Vec::new();
    table.write_checks_csv(&mut text)?;
    std::fs::write(&checks_path, text)
        .with_context(|| say(lang, "write-checks", &[("path", &checks_path.display())]))?;
    for c in &table.checks {
        eprintln!("aufsicht: {}: {}", c.kind.as_str(), c.message);
    }
    let review = table
        .players
        .iter()
        .filter(|p| !p.review.is_empty())
        .count();
    let (players, path) = (table.players.len(), checks_path.display());
    let args: [(&str, &dyn std::fmt::Display); 5] = [
        ("players", &players),
        ("sheets", &sheets.len()),
        ("checks", &table.checks.len()),
        ("path", &path),
        ("review", &review),
    ];
    eprintln!("aufsicht: {}", say(lang, "standings-done", &args));
    Ok(())
}

/// A night is ranked under one rule set: results read under another
/// (a Doppelkopf table among Schafkopf ones) are named, not counted.
fn refuse_other_rules(
    results: &[(PathBuf, PathBuf, SheetResult)],
    rules: &str,
    lang: Lang,
) -> Result<()> {
    let other: Vec<String> = results
        .iter()
        .filter_map(|(_, file, s)| {
            let named = s.rules.as_deref()?;
            (named != rules).then(|| format!("{} ({named})", file.display()))
        })
        .collect();
    if let Some(first) = other.first() {
        let more = match other.len() {
            1 => String::new(),
            n => say(lang, "and-more", &[("count", &(n - 1))]),
        };
        let args: [(&str, &dyn std::fmt::Display); 4] = [
            ("count", &other.len()),
            ("rules", &rules),
            ("first", first),
            ("more", &more),
        ];
        bail!(say(lang, "standings-other-rules", &args));
    }
    Ok(())
}

/// Every sheet result below the folders, as (folder, file, result), sorted
/// by file. Other JSON files are passed over, and said; none at all is an error.
fn sheet_results(dirs: &[PathBuf], lang: Lang) -> Result<Vec<(PathBuf, PathBuf, SheetResult)>> {
    let mut out = Vec::new();
    for dir in dirs {
        if !dir.is_dir() {
            bail!(say(lang, "not-a-folder", &[("path", &dir.display())]));
        }
        let mut files = json_files(dir);
        files.sort();
        for file in files {
            match SheetResult::from_path(&file) {
                Ok(s) => out.push((dir.clone(), file, s)),
                Err(e) => {
                    let (file, error) = (file.display(), e.tell(lang));
                    let args: [(&str, &dyn std::fmt::Display); 2] =
                        [("file", &file), ("error", &error)];
                    eprintln!("aufsicht: {}", say(lang, "skipped-json", &args));
                }
            }
        }
    }
    if out.is_empty() {
        let dirs: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
        bail!(say(lang, "no-results", &[("dirs", &dirs.join(", "))]));
    }
    Ok(out)
}

/// Every `*.json` below `dir`, except the night-check and summary files.
fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(json_files(&path));
        } else if path.extension().and_then(|e| e.to_str()) == Some("json") {
            out.push(path);
        }
    }
    out
}

fn review(out: &Path, title: &str, dirs: &[PathBuf], lang: Lang) -> Result<()> {
    use aufsicht::review::{ReviewSheet, page, stored_alignment};
    let results = sheet_results(dirs, lang)?;
    let forms = FormTemplate::builtins();
    let custom: Vec<FormTemplate> = results
        .iter()
        .filter_map(|(_, _, s)| s.form.as_deref())
        .filter(|f| !forms.iter().any(|b| &b.id == f))
        .filter_map(|f| FormTemplate::load(f).ok())
        .collect();
    let all_forms: Vec<FormTemplate> = forms.into_iter().chain(custom).collect();
    let mut missing = 0;
    let sheets: Vec<ReviewSheet> = results
        .iter()
        .map(|(dir, file, s)| {
            let form = s
                .form
                .as_deref()
                .and_then(|id| all_forms.iter().find(|f| f.id == id));
            // The scan's image: where it was read, else beside the results' folder.
            let image = s.source.as_deref().and_then(|src| {
                let src = Path::new(src);
                let candidates = [
                    src.to_path_buf(),
                    dir.join(src),
                    dir.parent().unwrap_or(dir).join(src),
                ];
                candidates.into_iter().find(|p| p.is_file()).and_then(|p| {
                    input::load(&p)
                        .into_iter()
                        .find(|pg| Some(pg.number) == s.page || s.page.is_none())
                        .and_then(|pg| pg.image.ok())
                })
            });
            if image.is_none() && s.status != aufsicht::Status::Ok {
                missing += 1;
            }
            if s.status != aufsicht::Status::Unreadable && stored_alignment(s).is_none() {
                let said = say(lang, "review-no-alignment", &[("file", &file.display())]);
                eprintln!("aufsicht: {said}");
            }
            ReviewSheet {
                result: s,
                file_name: file
                    .file_name()
                    .map(|n| n.to_string_lossy().to_string())
                    .unwrap_or_default(),
                image,
                form,
            }
        })
        .collect();
    let html = page(title, &sheets);
    std::fs::write(out, html)
        .with_context(|| say(lang, "cannot-write", &[("path", &out.display())]))?;
    if missing > 0 {
        let said = say(lang, "review-missing-images", &[("count", &missing)]);
        eprintln!("aufsicht: {said}");
    }
    let args: [(&str, &dyn std::fmt::Display); 2] =
        [("count", &sheets.len()), ("path", &out.display())];
    eprintln!("aufsicht: {}", say(lang, "review-done", &args));
    Ok(())
}

fn open_archive(path: &Path, lang: Lang) -> Result<aufsicht::archive::Archive> {
    if !path.is_file() {
        bail!(say(lang, "archive-missing", &[("path", &path.display())]));
    }
    aufsicht::archive::Archive::open(path).told(lang)
}

fn export(archive: &Path, tournament: Option<&str>, out: &Path, lang: Lang) -> Result<()> {
    let db = open_archive(archive, lang)?;
    let t = db.pick_tournament(tournament).told(lang)?;
    std::fs::create_dir_all(out)
        .with_context(|| say(lang, "cannot-create-folder", &[("path", &out.display())]))?;
    let sheets = db.sheets(t).told(lang)?;
    // The names the scan gave, where the archive knows them; else named anew.
    let files: Vec<(PathBuf, bool)> = sheets
        .iter()
        .map(|s| {
            let source = s.result.source.clone();
            let file = PathBuf::from(source.unwrap_or_else(|| format!("sheet-{}", s.id)));
            let pdf = s.result.page.is_some_and(|p| p > 1)
                || aufsicht::input::kind_of(&file) == aufsicht::input::Kind::Pdf;
            (file, pdf)
        })
        .collect();
    let mut distinct = files.clone();
    distinct.dedup();
    let named =
        aufsicht::result_names::name_all(&distinct, &mut aufsicht::result_names::Existing::none());
    let mut written = std::collections::BTreeSet::new();
    for (stored, file) in sheets.iter().zip(&files) {
        let page = stored.result.page.unwrap_or(1);
        let name = stored.result_file.clone().unwrap_or_else(|| {
            named
                .iter()
                .find(|n| (&n.file, n.pdf) == (&file.0, file.1))
                .map_or_else(
                    || format!("sheet-{}.json", stored.id),
                    |n| n.result_name(page),
                )
        });
        let path = out.join(&name);
        std::fs::write(&path, stored.result.to_json_pretty() + "\n")
            .with_context(|| say(lang, "cannot-write", &[("path", &path.display())]))?;
        written.insert(name);
    }
    let values = out.join("values.csv");
    let file = std::fs::File::create(&values)
        .with_context(|| say(lang, "cannot-write", &[("path", &values.display())]))?;
    db.write_values_csv(t, std::io::BufWriter::new(file))
        .told(lang)?;
    let args: [(&str, &dyn std::fmt::Display); 2] =
        [("count", &written.len()), ("path", &out.display())];
    eprintln!("aufsicht: {}", say(lang, "export-done", &args));
    Ok(())
}

fn correct(
    archive: &Path,
    tournament: Option<&str>,
    rules: &str,
    by: &str,
    sheet: &Path,
    lang: Lang,
) -> Result<()> {
    if by.trim().is_empty() {
        bail!(say(lang, "by-empty", &[]));
    }
    let rules = load_rules(rules, lang)?;
    let input = SheetResult::from_path(sheet).told(lang)?;
    let checked = aufsicht::verify(input, &rules, lang)
        .told(lang)
        .with_context(|| sheet.display().to_string())?;
    let mut db = open_archive(archive, lang)?;
    let t = db.pick_tournament(tournament).told(lang)?;
    let source = checked.source.clone().unwrap_or_default();
    let page = checked.page.unwrap_or(1);
    let Some(id) = db.sheet_id(t, &source, page).told(lang)? else {
        let file = sheet.display();
        let args: [(&str, &dyn std::fmt::Display); 3] =
            [("file", &file), ("source", &source), ("page", &page)];
        bail!(say(lang, "correct-not-archived", &args));
    };
    let changes = db.correct(id, &checked, by).told(lang)?;
    let blank = say(lang, "blank", &[]);
    for c in &changes {
        let (old, new) = (
            c.old.as_deref().unwrap_or(&blank),
            c.new.as_deref().unwrap_or(&blank),
        );
        let args: [(&str, &dyn std::fmt::Display); 3] =
            [("field", &c.field), ("old", &old), ("new", &new)];
        eprintln!("aufsicht: {}", say(lang, "correct-change", &args));
    }
    let args: [(&str, &dyn std::fmt::Display); 3] = [
        ("count", &changes.len()),
        ("by", &by),
        ("flags", &checked.flags.len()),
    ];
    eprintln!("aufsicht: {}", say(lang, "correct-done", &args));
    stdout_line(&checked.to_json_pretty());
    Ok(())
}

/// Where and under which name a scan archives its sheets.
struct ArchiveArg {
    file: Option<PathBuf>,
    tournament: Option<String>,
}

#[allow(clippy::too_many_arguments)]
/// What reads the sheets: rule set, form, reader, participant list.
struct Setup<'a> {
    rules: &'a str,
    form: Option<&'a str>,
    reader: ReaderArg,
    participants: Option<&'a Path>,
}

fn scan_cmd(
    setup: &Setup,
    out: &Path,
    inputs: &[PathBuf],
    lang: Lang,
    archive: Option<ArchiveArg>,
) -> Result<()> {
    use aufsicht::batch::{Batch, ReaderKind};
    let (rules, form, which) = (setup.rules, setup.form, setup.reader);
    let participants = load_participants(setup.participants, lang)?;
    let rules = load_rules(rules, lang)?;
    let forms = match form {
        Some(f) => vec![
            FormTemplate::load(f)
                .told(lang)
                .context(say(lang, "load-form", &[]))?,
        ],
        None => FormTemplate::builtins(),
    };
    for input in inputs {
        if std::fs::symlink_metadata(input).is_err() {
            bail!(say(lang, "input-missing", &[("path", &input.display())]));
        }
    }
    std::fs::create_dir_all(out)
        .with_context(|| say(lang, "cannot-create-folder", &[("path", &out.display())]))?;
    let _only_scan_here = lock_folder(out, lang)?;
    let found = input::collect(inputs);
    for (path, why) in &found.passed_over {
        eprintln!("aufsicht: {}: {}", path.display(), why.text(lang));
    }
    let files: Vec<(PathBuf, bool)> = found
        .files
        .iter()
        .map(|f| (f.clone(), input::kind_of(f) == input::Kind::Pdf))
        .collect();
    let jobs = aufsicht::result_names::name_all(
        &files,
        &mut aufsicht::result_names::Existing::in_dir(out),
    );
    let archive = match archive {
        Some(a) => Some(open_scan_archive(a, out, &rules.id, lang)?),
        None => None,
    };
    let batch = Batch {
        forms: &forms,
        rules: &rules,
        reader: match which {
            ReaderArg::Cnn => ReaderKind::Cnn,
            ReaderArg::Tesseract => ReaderKind::Tesseract,
        },
        lang,
        out,
        archive,
        participants: participants.as_ref(),
    };
    let outcomes = run_with_progress(&batch, &jobs, lang)?;
    report_scan(out, &jobs, outcomes, &found.passed_over, lang)
}

/// Holds the output folder for this run: a second scan into it waits,
/// so the two never hand out one result name twice.
fn lock_folder(out: &Path, lang: Lang) -> Result<std::fs::File> {
    let path = out.join(".aufsicht-scan.lock");
    let file = std::fs::File::create(&path)
        .with_context(|| say(lang, "cannot-write-folder", &[("path", &out.display())]))?;
    if file.try_lock().is_err() {
        let said = say(lang, "scan-waiting", &[("path", &out.display())]);
        eprintln!("aufsicht: {said}");
        file.lock()
            .with_context(|| say(lang, "cannot-lock", &[("path", &path.display())]))?;
    }
    Ok(file)
}

fn open_scan_archive(
    a: ArchiveArg,
    out: &Path,
    rules: &str,
    lang: Lang,
) -> Result<(std::sync::Mutex<aufsicht::archive::Archive>, i64)> {
    let file = a.file.unwrap_or_else(|| out.join("aufsicht.sqlite"));
    let name = a.tournament.unwrap_or_else(|| {
        out.file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_else(|| "night".into())
    });
    let db = aufsicht::archive::Archive::open(&file).told(lang)?;
    let id = db.tournament(&name, rules).told(lang)?;
    Ok((std::sync::Mutex::new(db), id))
}

type Outcomes = Vec<Result<aufsicht::batch::FileDone, aufsicht::batch::BatchError>>;

fn run_with_progress(
    batch: &aufsicht::batch::Batch,
    jobs: &[aufsicht::batch::Job],
    lang: Lang,
) -> Result<Outcomes> {
    use indicatif::{ProgressBar, ProgressStyle};
    use std::sync::atomic::{AtomicUsize, Ordering};
    let bar = ProgressBar::new(jobs.len() as u64).with_style(
        ProgressStyle::with_template(&say(lang, "scan-bar", &[]))
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let (sheets_done, flagged_so_far) = (AtomicUsize::new(0), AtomicUsize::new(0));
    let on_done = |d: &aufsicht::batch::FileDone| {
        let flagged = d
            .sheets
            .iter()
            .filter(|(_, s)| s.status != aufsicht::Status::Ok)
            .count();
        let n = sheets_done.fetch_add(d.sheets.len(), Ordering::Relaxed) + d.sheets.len();
        let f = flagged_so_far.fetch_add(flagged, Ordering::Relaxed) + flagged;
        let args: [(&str, &dyn std::fmt::Display); 2] = [("sheets", &n), ("flagged", &f)];
        bar.set_message(say(lang, "scan-progress", &args));
        bar.inc(1);
    };
    let outcomes = batch.run(jobs, &on_done).told(lang)?;
    bar.finish_and_clear();
    Ok(outcomes)
}

/// A run that finished but could not read everything it was given.
#[derive(Debug)]
struct Incomplete(String);

impl std::fmt::Display for Incomplete {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Incomplete {}

/// The summary file and the run's last words; the error says what is missing.
fn report_scan(
    out: &Path,
    jobs: &[aufsicht::batch::Job],
    outcomes: Outcomes,
    passed_over: &[(PathBuf, input::PassedOver)],
    lang: Lang,
) -> Result<()> {
    use aufsicht::summary::Row;
    let mut rows = Vec::new();
    let (mut failed, mut resumed, mut file_problems) = (0, 0, 0);
    let mut count = [0usize; 3];
    for (job, outcome) in jobs.iter().zip(outcomes) {
        match outcome {
            Ok(done) => {
                resumed += usize::from(done.from_archive);
                file_problems += usize::from(done.file_problem);
                for (path, s) in &done.sheets {
                    count[s.status as usize] += 1;
                    let name = path.file_name().unwrap_or_default().to_string_lossy();
                    rows.push(Row::sheet(&job.file, &name, s));
                }
            }
            Err(e) => {
                failed += 1;
                eprintln!("aufsicht: {}: {}", job.file.display(), e.tell(lang));
                rows.push(Row::passed_over(&job.file, e.tell(lang)));
            }
        }
    }
    for (path, why) in passed_over {
        file_problems += usize::from(why.is_failure());
        rows.push(Row::passed_over(path, why.text(lang)));
    }
    let summary = out.join("summary.csv");
    aufsicht::summary::write(&summary, &rows)
        .with_context(|| say(lang, "cannot-write", &[("path", &summary.display())]))?;
    if resumed > 0 {
        eprintln!(
            "aufsicht: {}",
            say(lang, "scan-resumed", &[("count", &resumed)])
        );
    }
    let [ok, flagged, unreadable] = count;
    let args: [(&str, &dyn std::fmt::Display); 5] = [
        ("sheets", &(ok + flagged + unreadable)),
        ("ok", &ok),
        ("flagged", &flagged),
        ("unreadable", &unreadable),
        ("path", &out.display()),
    ];
    eprintln!("aufsicht: {}", say(lang, "scan-done", &args));
    if failed > 0 {
        bail!(say(lang, "scan-failed", &[("count", &failed)]));
    }
    if file_problems > 0 {
        return Err(Incomplete(say(lang, "scan-incomplete", &[("count", &file_problems)])).into());
    }
    Ok(())
}

/// A night's seating: for each round and table (from 1) the participant
/// numbers of its four seats; every player plays every round, seated anew.
fn night_seating(players: usize, rounds: u32, seed: u64) -> Vec<(u32, u32, Vec<String>)> {
    let mut rng = synth::rng(seed ^ 0x5eed_2a11);
    let mut ids: Vec<u32> = Vec::new();
    while ids.len() < players {
        let id = rng.random_range(1..2000u32);
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    let mut out = Vec::new();
    for round in 1..=rounds {
        let mut order = ids.clone();
        for i in (1..order.len()).rev() {
            order.swap(i, rng.random_range(0..=i));
        }
        for (t, chunk) in order.chunks(4).enumerate() {
            out.push((
                round,
                t as u32 + 1,
                chunk.iter().map(u32::to_string).collect(),
            ));
        }
    }
    out
}

fn write_page(page: &image::GrayImage, out: &Path, dpi: f64, lang: Lang) -> Result<()> {
    let cannot = || say(lang, "cannot-write", &[("path", &out.display())]);
    let ext = out
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match ext.as_deref() {
        Some("pdf") => std::fs::write(
            out,
            aufsicht::render::pdf_of_pages(std::slice::from_ref(page), dpi),
        )
        .with_context(cannot),
        Some("png" | "jpg" | "jpeg" | "tif" | "tiff") => page.save(out).with_context(cannot),
        _ => bail!(say(lang, "page-format", &[("path", &out.display())])),
    }
}

#[allow(clippy::too_many_arguments)]
fn generate(
    rules: &str,
    form: &str,
    count: usize,
    out: &Path,
    seed: u64,
    players: Option<usize>,
    capture: CaptureArg,
    dpi: f64,
    format: Format,
    digits: Option<PathBuf>,
    held_back: bool,
    writer_errors: f64,
    night: Option<usize>,
    lang: Lang,
) -> Result<()> {
    if !(0.0..=1.0).contains(&writer_errors) {
        bail!("--writer-errors is a share of the sheets: give a number from 0 to 1");
    }
    let rules = RuleSet::load(rules).context("cannot load the rule set (--rules)")?;
    let form = FormTemplate::load(form).context("cannot load the form (--form)")?;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let digits = match digits {
        Some(d) => synth::Digits::from_dir(&d),
        None => synth::Digits::from_dir(&root.join("data/mnist"))
            .or_else(|_| synth::Digits::from_dir(&root.join("samples/digits"))),
    }
    .map_err(anyhow::Error::msg)?;
    let digits = if held_back {
        digits.last(aufsicht::cnn::HELD_BACK)
    } else {
        digits
    };
    let (scans, truths) = (out.join("scans"), out.join("truth"));
    std::fs::create_dir_all(&scans)?;
    std::fs::create_dir_all(&truths)?;
    let seating = match night {
        Some(n) => {
            if n == 0 || n % 4 != 0 || n / 4 > 99 {
                bail!("--night {n}: give a multiple of 4 players (tables of four), at most 396");
            }
            night_seating(n, rules.rounds.max(1), seed)
        }
        None => Vec::new(),
    };
    let count = if night.is_some() {
        seating.len()
    } else {
        count
    };
    for i in 0..count {
        let mut rng = synth::rng(seed.wrapping_mul(1_000_003).wrapping_add(i as u64));
        let seat = seating.get(i);
        let table = seat.map(|_| 4).or(players).unwrap_or_else(|| {
            let sizes: Vec<usize> = rules
                .tables
                .iter()
                .map(|t| t.players)
                .filter(|&p| p <= form.seats)
                .collect();
            sizes.get(i % sizes.len().max(1)).copied().unwrap_or(4)
        });
        let mut sheet = synth::random_sheet(&rules, &form, table, &mut rng);
        if let Some((round, table, ids)) = seat {
            sheet.round = Some(*round);
            sheet.table = Some(*table);
            for (slot, id) in sheet.players.iter_mut().zip(ids) {
                *slot = Some(id.clone());
            }
        }
        let mistake = if rng.random_bool(writer_errors) {
            synth::writer_error(&mut sheet, &mut rng)
        } else {
            serde_json::Value::Null
        };
        let (page, drawn) = synth::draw(&sheet, &form, &digits, dpi, &mut rng);
        let how = match capture {
            CaptureArg::Clean => synth::Capture::Clean,
            CaptureArg::Scanner => synth::Capture::Scanner,
            CaptureArg::Phone => synth::Capture::Phone,
            CaptureArg::Mixed => [
                synth::Capture::Scanner,
                synth::Capture::Scanner,
                synth::Capture::Phone,
            ][i % 3],
        };
        let (image, facts) = synth::capture(&page, how, &mut rng);
        let stem = match seat {
            Some((round, table, _)) => format!("{}-r{round}-t{table:02}", rules.id),
            None => format!("{}-{:04}", rules.id, i + 1),
        };
        let ext = match format {
            Format::Png => "png",
            Format::Jpg => "jpg",
            Format::Tif => "tif",
            Format::Pdf => "pdf",
        };
        let file = scans.join(format!("{stem}.{ext}"));
        write_page(&image, &file, dpi, Lang::En)?;
        let mut truth = aufsicht::verify(sheet, &rules, lang)?;
        truth.source = Some(file.display().to_string());
        truth.extra.insert("capture".into(), facts);
        if !mistake.is_null() {
            truth.extra.insert("writer_error".into(), mistake);
        }
        truth
            .extra
            .insert("form_rows".into(), serde_json::json!(form.games));
        truth.extra.insert(
            "dashes".into(),
            serde_json::json!(
                drawn
                    .dashes
                    .iter()
                    .map(|(r, s, c)| serde_json::json!([r, s, c]))
                    .collect::<Vec<_>>()
            ),
        );
        std::fs::write(
            truths.join(format!("{stem}.json")),
            truth.to_json_pretty() + "\n",
        )?;
    }
    eprintln!("aufsicht: {count} sheets in {}", scans.display());
    Ok(())
}
