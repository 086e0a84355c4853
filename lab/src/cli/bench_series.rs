//! `bench-series`: venues' archives pushed at once into one central
//! archive, and the season over it (a developer's measurement).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use aufsicht::night::club::archive::Archive;
use aufsicht::page::form::FormTemplate;
use aufsicht::{Lang, RuleSet};

/// The arguments of `bench-series`.
#[derive(clap::Args)]
pub struct BenchSeriesArgs {
    /// The central archive: postgres://USER@HOST[:PORT]/DB (empty).
    #[arg(long)]
    pub to: String,
    /// The folder the venues' archives are made in.
    #[arg(long)]
    pub work: PathBuf,
    /// The program that pushes (`aufsicht`, built for release).
    #[arg(long)]
    pub aufsicht: PathBuf,
    #[arg(long, default_value_t = 60)]
    pub venues: usize,
    /// Sheets a venue's night holds (two rounds of tables of four).
    #[arg(long, default_value_t = 40)]
    pub sheets: usize,
    /// Each scan's size in kilobytes.
    #[arg(long, default_value_t = 16)]
    pub scan_kb: usize,
}

pub fn run(a: BenchSeriesArgs) -> Result<()> {
    let clock = Instant::now();
    let venues: Vec<PathBuf> = (0..a.venues)
        .map(|v| venue(&a.work, v, a.sheets, a.scan_kb))
        .collect::<Result<_>>()?;
    crate::cli::stdout_line(&format!(
        "{} venue archives of {} sheets made in {:.1} s",
        venues.len(),
        a.sheets,
        clock.elapsed().as_secs_f64()
    ));
    let clock = Instant::now();
    let children = venues
        .iter()
        .map(|v| {
            Command::new(&a.aufsicht)
                .args(["push", "--archive"])
                .arg(v)
                .args(["--to", &a.to])
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .context("push")
        })
        .collect::<Result<Vec<_>>>()?;
    let mut peak_kb = 0;
    for child in children {
        let (ok, max_rss_kb) = wait_measured(child.id())?;
        if !ok {
            bail!("a push failed");
        }
        peak_kb = peak_kb.max(max_rss_kb);
    }
    let pushed = clock.elapsed();
    let total = a.venues * a.sheets;
    crate::cli::stdout_line(&format!(
        "pushed {total} sheets from {} venues at once in {:.1} s: {:.1} sheets/s; a push's peak memory {:.1} MB",
        a.venues,
        pushed.as_secs_f64(),
        total as f64 / pushed.as_secs_f64(),
        peak_kb as f64 / 1024.0
    ));
    let season = timed(|| {
        let out = Command::new(&a.aufsicht)
            .args(["season", "--archive", &a.to])
            .output()?;
        if !out.status.success() {
            bail!("season: {}", String::from_utf8_lossy(&out.stderr));
        }
        Ok(out
            .stdout
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            .saturating_sub(1))
    })?;
    crate::cli::stdout_line(&format!(
        "the season table over {total} sheets: {} players in {:.2} s",
        season.0,
        season.1.as_secs_f64()
    ));
    lost(&a.to, &venues, a.sheets)
}

fn timed<T>(f: impl FnOnce() -> Result<T>) -> Result<(T, Duration)> {
    let clock = Instant::now();
    let t = f()?;
    Ok((t, clock.elapsed()))
}

/// Every venue's night holds all its sheets, each with its scan and its
/// reading, centrally; else what is missing.
fn lost(to: &str, venues: &[PathBuf], sheets: usize) -> Result<()> {
    let central = Archive::open(Path::new(to)).map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut missing = 0;
    for v in venues {
        let name = v
            .file_stem()
            .map(|s| s.to_string_lossy().to_string())
            .unwrap_or_default();
        let night = central
            .pick_tournament(Some(&format!("{name}/Abend")))
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        let there = central.sheets(night).map_err(|e| anyhow::anyhow!("{e}"))?;
        missing += sheets.saturating_sub(there.len());
        for s in &there {
            if central
                .scan_bytes(&s.sha256)
                .map_err(|e| anyhow::anyhow!("{e}"))?
                .is_none()
                || central
                    .record(s.id)
                    .map_err(|e| anyhow::anyhow!("{e}"))?
                    .readings
                    .is_empty()
            {
                missing += 1;
            }
        }
    }
    let checked = central.check().map_err(|e| anyhow::anyhow!("{e}"))?;
    crate::cli::stdout_line(&format!(
        "lost: {missing} sheets, scans or readings; damage found by the archive's check: {}",
        checked.damage.len()
    ));
    if missing > 0 || !checked.damage.is_empty() {
        bail!("the central archive lacks what was pushed");
    }
    Ok(())
}

/// Waits for process `pid`; whether it succeeded, and its peak resident
/// memory in kilobytes.
fn wait_measured(pid: u32) -> Result<(bool, i64)> {
    let mut status = 0;
    // SAFETY: an all-zero `rusage` is a valid value for wait4 to fill.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `pid` is a child of this process that nothing else waits for.
    let got = unsafe { libc::wait4(pid as i32, &mut status, 0, &mut usage) };
    if got < 0 {
        bail!("wait4: {}", std::io::Error::last_os_error());
    }
    let ok = libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0;
    Ok((ok, usage.ru_maxrss))
}

/// Venue `v`'s archive, made in `work`: one night of `sheets` sheets,
/// each with a scan of its own.
fn venue(work: &Path, v: usize, sheets: usize, scan_kb: usize) -> Result<PathBuf> {
    let rules = RuleSet::load("merkur").map_err(|e| anyhow::anyhow!("{e}"))?;
    let form = FormTemplate::load("punkteliste-a4-32").map_err(|e| anyhow::anyhow!("{e}"))?;
    let file = work.join(format!("venue-{v:03}.sqlite"));
    let _ = std::fs::remove_file(&file);
    let mut archive = Archive::open(&file).map_err(|e| anyhow::anyhow!("{e}"))?;
    let night = archive
        .tournament("Abend", "merkur")
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let tables = sheets.div_ceil(2);
    let drawn = (0..sheets)
        .map(|i| {
            let (round, table) = (i / tables + 1, i % tables + 1);
            let mut rng = crate::synth::rng((v * 10_000 + i) as u64);
            let mut sheet = crate::synth::random_sheet(&rules, &form, 4, &mut rng);
            sheet.round = Some(round as u32);
            sheet.table = Some(table as u32);
            for (seat, slot) in sheet.players.iter_mut().enumerate() {
                let seated = if round == 1 {
                    table * 4 + seat
                } else {
                    seat * tables + table
                };
                *slot = Some(format!("{}", 100 + seated));
            }
            sheet.source = Some(format!("r{round}-t{table:02}.png"));
            aufsicht::verify(sheet, &rules, Lang::En).map_err(|e| anyhow::anyhow!("{e}"))
        })
        .collect::<Result<Vec<_>>>()?;
    let scans = work.join(format!("venue-{v:03}"));
    crate::series::store_with_scans(&mut archive, night, &scans, drawn, (v as u64, scan_kb))?;
    Ok(file)
}
