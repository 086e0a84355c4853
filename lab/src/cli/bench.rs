//! `bench-stages`: what each stage of reading a sheet costs on one core,
//! beside the time just to decode its image (a developer's measurement).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};

use aufsicht::page::form::FormTemplate;
use aufsicht::page::input;
use aufsicht::read::cnn::CnnReader;
use aufsicht::scan::{StageTimes, scan_page_timed};
use aufsicht::sheet::Status;
use aufsicht::{Lang, RuleSet};

/// The arguments of `bench-stages`.
#[derive(clap::Args)]
pub struct BenchArgs {
    /// Rule set id or the path of a rule file.
    #[arg(long)]
    pub rules: String,
    /// Passes over the files; only the last is counted (the first warms
    /// the engines and the disk cache).
    #[arg(long, default_value_t = 2)]
    pub passes: usize,
    /// Scans: images, PDFs, folders.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
}

/// The columns: the image's decode, each stage of the scan
/// ([`StageTimes::named`]), the result written.
const COLUMNS: usize = StageTimes::STAGES + 2;

/// The columns' names, in the order a page goes through them.
fn stage_names() -> [&'static str; COLUMNS] {
    let mut names = ["open the image"; COLUMNS];
    for (i, (name, _)) in StageTimes::default().named().into_iter().enumerate() {
        names[i + 1] = name;
    }
    names[COLUMNS - 1] = "write the result";
    names
}

pub fn run(a: BenchArgs, lang: Lang) -> Result<()> {
    let rules = RuleSet::load(&a.rules).map_err(|e| anyhow::anyhow!("{e}"))?;
    let forms = FormTemplate::builtins();
    let files = input::collect(&a.inputs).files;
    if files.is_empty() {
        bail!("no scans among the inputs: {}", shown(&a.inputs));
    }
    let mut digits = CnnReader::new()?;
    let mut printed = aufsicht::read::print_reader()?;
    let out = std::env::temp_dir().join(format!("aufsicht-bench-{}.json", std::process::id()));
    let mut pages: Vec<[Duration; COLUMNS]> = Vec::new();
    // Pages that could not be read stop early: their times would say
    // nothing of reading a sheet, so they are named and left out.
    let mut unreadable: Vec<String> = Vec::new();
    for pass in 0..a.passes.max(1) {
        pages.clear();
        unreadable.clear();
        for file in &files {
            // An image is decoded when opened, a PDF's page when it is taken.
            let clock = Instant::now();
            let mut loaded = input::load(file);
            let mut opened = clock.elapsed();
            loop {
                let clock = Instant::now();
                let Some(page) = loaded.next() else { break };
                let decode = clock.elapsed() + std::mem::take(&mut opened);
                let mut t = StageTimes::default();
                let result = scan_page_timed(
                    &page,
                    &forms,
                    &rules,
                    &mut digits,
                    printed.as_mut(),
                    lang,
                    &mut t,
                );
                let clock = Instant::now();
                aufsicht::night::files::write_whole(&out, result.to_json_pretty().as_bytes())?;
                let write = clock.elapsed();
                if result.status == Status::Unreadable {
                    unreadable.push(format!("{} (page {})", file.display(), page.number));
                    continue;
                }
                let mut row = [decode; COLUMNS];
                for (i, (_, time)) in t.named().into_iter().enumerate() {
                    row[i + 1] = time;
                }
                row[COLUMNS - 1] = write;
                pages.push(row);
            }
        }
        eprintln!(
            "aufsicht-lab: pass {} of {}: {} pages",
            pass + 1,
            a.passes.max(1),
            pages.len()
        );
    }
    let _ = std::fs::remove_file(&out);
    for page in &unreadable {
        eprintln!("aufsicht-lab: unreadable, left out of the times: {page}");
    }
    if pages.is_empty() {
        bail!(
            "no page among the inputs could be read: {}",
            shown(&a.inputs)
        );
    }
    report(&pages);
    Ok(())
}

/// The inputs, as given, for a message.
fn shown(inputs: &[PathBuf]) -> String {
    let names: Vec<String> = inputs.iter().map(|p| p.display().to_string()).collect();
    names.join(", ")
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// A table of each stage's median and mean, and the whole against the decode.
fn report(pages: &[[Duration; COLUMNS]]) {
    let n = pages.len().max(1) as f64;
    let total: f64 = pages.iter().flatten().map(|d| ms(*d)).sum();
    println!("| stage | median ms | mean ms | share |");
    println!("|---|---|---|---|");
    for (i, name) in stage_names().iter().enumerate() {
        let mut column: Vec<f64> = pages.iter().map(|p| ms(p[i])).collect();
        column.sort_by(f64::total_cmp);
        let median = column.get(column.len() / 2).copied().unwrap_or(0.0);
        let sum: f64 = column.iter().sum();
        println!(
            "| {name} | {median:.1} | {:.1} | {:.0}% |",
            sum / n,
            100.0 * sum / total.max(1e-9)
        );
    }
    let decode: f64 = pages.iter().map(|p| ms(p[0])).sum();
    println!(
        "{} pages on one core: {:.0} ms a page, {:.2} pages/s; the whole is {:.1} times opening the image",
        pages.len(),
        total / n,
        1e3 * n / total.max(1e-9),
        total / decode.max(1e-9)
    );
}
