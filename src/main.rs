//! The `aufsicht` command line: a thin layer over the library.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand, ValueEnum};
use rand::RngExt;

use aufsicht::form::FormTemplate;
use aufsicht::read::TesseractReader;
use aufsicht::{Lang, RuleSet, SheetResult, input, scan, synth};

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
    },
    /// Train the digit model on the MNIST training split (writes a .safetensors file).
    TrainDigits {
        /// Folder with train-images.idx3-ubyte and train-labels.idx1-ubyte.
        #[arg(long, default_value = "data/mnist")]
        mnist: PathBuf,
        #[arg(long, default_value = "models/digits.safetensors")]
        out: PathBuf,
        #[arg(long, default_value_t = 3)]
        epochs: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
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
    },
}

fn main() -> ExitCode {
    // Tesseract's OpenMP reads this at start-up only: re-run ourselves with it set.
    if std::env::var_os("OMP_THREAD_LIMIT").is_none()
        && let Ok(exe) = std::env::current_exe()
    {
        let status = std::process::Command::new(exe)
            .args(std::env::args_os().skip(1))
            .env("OMP_THREAD_LIMIT", "1")
            .status();
        if let Ok(status) = status {
            return ExitCode::from(status.code().unwrap_or(2).clamp(0, 255) as u8);
        }
    }
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
    let lang = cli.lang;
    match cli.command {
        Command::Verify { rules, sheet } => verify(&rules, &sheet, lang),
        Command::Scan {
            rules,
            form,
            out,
            reader,
            inputs,
        } => scan_cmd(&rules, form.as_deref(), &out, reader, &inputs, lang),
        Command::RenderForm { form, dpi, out } => {
            let form = FormTemplate::load(&form).context("cannot load the form (--form)")?;
            if !(50.0..=1200.0).contains(&dpi) {
                bail!("--dpi {dpi} is out of range: use 50 to 1200");
            }
            let page = aufsicht::render::render_form(&form, dpi);
            write_page(&page, &out, dpi)
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
            lang,
        ),
        Command::TrainDigits {
            mnist,
            out,
            epochs,
            seed,
        } => {
            let digits = synth::Digits::from_dir(&mnist).map_err(anyhow::Error::msg)?;
            eprintln!(
                "aufsicht: training on {} MNIST training digits",
                digits.len()
            );
            let model = aufsicht::cnn::train(&digits, epochs, seed, &mut |line| {
                eprintln!("aufsicht: {line}")
            })
            .map_err(|e| anyhow::anyhow!("training failed: {e}"))?;
            model
                .save(&out)
                .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", out.display()))?;
            eprintln!("aufsicht: model written to {}", out.display());
            Ok(())
        }
        Command::Evaluate {
            truth,
            results,
            scans,
            rules,
            reader,
        } => {
            let run = match (scans, rules) {
                (Some(scans), Some(rules)) => {
                    let start = std::time::Instant::now();
                    scan_cmd(&rules, None, &results, reader, &[scans], cli.lang)?;
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

/// Prints a line; a closed pipe (`| head`) ends the output quietly instead of panicking.
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

fn stdout_line(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stdout(), "{line}");
}

fn verify(rules: &str, sheet: &Path, lang: Lang) -> Result<()> {
    let rules = RuleSet::load(rules).context("cannot load the rule set (--rules)")?;
    let input = SheetResult::from_path(sheet)?;
    let named = input.rules.clone();
    let checked =
        aufsicht::verify(input, &rules, lang).with_context(|| sheet.display().to_string())?;
    stdout_line(&checked.to_json_pretty());
    if let Some(named) = named.filter(|n| n != &rules.id) {
        eprintln!(
            "aufsicht: note: {} names rule set `{named}`; it was checked with `{}` as --rules says",
            sheet.display(),
            rules.id
        );
    }
    Ok(())
}

fn scan_cmd(
    rules: &str,
    form: Option<&str>,
    out: &Path,
    which: ReaderArg,
    inputs: &[PathBuf],
    lang: Lang,
) -> Result<()> {
    let rules = RuleSet::load(rules).context("cannot load the rule set (--rules)")?;
    let forms = match form {
        Some(f) => vec![FormTemplate::load(f).context("cannot load the form (--form)")?],
        None => FormTemplate::builtins(),
    };
    for input in inputs {
        if !input.exists() {
            bail!("{} does not exist: check the path", input.display());
        }
    }
    std::fs::create_dir_all(out)
        .with_context(|| format!("cannot create the output folder {}", out.display()))?;
    let (files, skipped) = input::collect(inputs);
    for s in &skipped {
        eprintln!("aufsicht: skipped (not an image or PDF): {}", s.display());
    }
    // Result names first, in input order: a second file of the same stem keeps its extension.
    let mut used = std::collections::BTreeSet::new();
    let jobs: Vec<(PathBuf, String)> = files
        .iter()
        .map(|f| (f.clone(), result_base(f, &mut used)))
        .collect();
    let readers = || -> Result<(Box<dyn aufsicht::read::DigitReader>, TesseractReader), String> {
        let digits: Box<dyn aufsicht::read::DigitReader> = match which {
            ReaderArg::Cnn => Box::new(aufsicht::cnn::CnnReader::new()?),
            ReaderArg::Tesseract => Box::new(TesseractReader::digits()?),
        };
        Ok((digits, TesseractReader::printed()?))
    };
    readers().map_err(anyhow::Error::msg)?;
    use rayon::prelude::*;
    // Files in parallel, one set of readers per worker.
    let outcomes: Vec<Result<Vec<aufsicht::Status>>> = jobs
        .par_iter()
        .map_init(readers, |readers, (file, base)| {
            let (digits, printed) = readers.as_mut().map_err(|e| anyhow::anyhow!("{e}"))?;
            let pdf = input::kind_of(file) == input::Kind::Pdf;
            let mut statuses = Vec::new();
            for page in input::load(file) {
                let result = scan::scan_page(&page, &forms, &rules, digits.as_mut(), printed, lang);
                let name = if pdf {
                    format!("{base}-p{}.json", page.number)
                } else {
                    format!("{base}.json")
                };
                let path = out.join(name);
                std::fs::write(&path, result.to_json_pretty() + "\n").with_context(|| {
                    format!("cannot write {}: check the output folder", path.display())
                })?;
                statuses.push(result.status);
            }
            Ok(statuses)
        })
        .collect();
    let (mut ok, mut flagged, mut unreadable) = (0, 0, 0);
    for outcome in outcomes {
        for status in outcome? {
            match status {
                aufsicht::Status::Ok => ok += 1,
                aufsicht::Status::Flagged => flagged += 1,
                aufsicht::Status::Unreadable => unreadable += 1,
            }
        }
    }
    eprintln!(
        "aufsicht: {} sheets, {ok} ok, {flagged} flagged, {unreadable} unreadable; results in {}",
        ok + flagged + unreadable,
        out.display()
    );
    Ok(())
}

/// The result name's base: the file's stem, or stem and extension when an
/// earlier input had the same stem (`<base>.json`, `<base>-p<N>.json` for PDFs).
fn result_base(file: &Path, used: &mut std::collections::BTreeSet<String>) -> String {
    let stem = file
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("sheet")
        .to_string();
    if used.insert(stem.clone()) {
        return stem;
    }
    let ext = file.extension().and_then(|e| e.to_str()).unwrap_or("x");
    let base = format!("{stem}.{ext}");
    used.insert(base.clone());
    base
}

fn write_page(page: &image::GrayImage, out: &Path, dpi: f64) -> Result<()> {
    let ext = out
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match ext.as_deref() {
        Some("pdf") => std::fs::write(
            out,
            aufsicht::render::pdf_of_pages(std::slice::from_ref(page), dpi),
        )
        .with_context(|| format!("cannot write {}", out.display())),
        Some("png" | "jpg" | "jpeg" | "tif" | "tiff") => page
            .save(out)
            .with_context(|| format!("cannot write {}", out.display())),
        _ => bail!(
            "{}: give the output a .png, .jpg, .tif or .pdf name",
            out.display()
        ),
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
    for i in 0..count {
        let mut rng = synth::rng(seed.wrapping_mul(1_000_003).wrapping_add(i as u64));
        let table = players.unwrap_or_else(|| {
            let sizes: Vec<usize> = rules
                .tables
                .iter()
                .map(|t| t.players)
                .filter(|&p| p <= form.seats)
                .collect();
            sizes.get(i % sizes.len().max(1)).copied().unwrap_or(4)
        });
        let mut sheet = synth::random_sheet(&rules, &form, table, &mut rng);
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
        let stem = format!("{}-{:04}", rules.id, i + 1);
        let ext = match format {
            Format::Png => "png",
            Format::Jpg => "jpg",
            Format::Tif => "tif",
            Format::Pdf => "pdf",
        };
        let file = scans.join(format!("{stem}.{ext}"));
        write_page(&image, &file, dpi)?;
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
