//! `push`: a venue's nights into a series' central archive (PostgreSQL).

use std::path::PathBuf;

use anyhow::{Result, bail};

use aufsicht::Lang;
use aufsicht::catalogue::say;
use aufsicht::night::club::archive::push::Progress;
use aufsicht::night::club::archive::{Archive, is_server};

use crate::common::{Told, load_rules, stdout_line};

/// The arguments of `push`.
#[derive(clap::Args)]
pub struct PushArgs {
    /// The venue's archive file (only read).
    #[arg(long)]
    pub archive: PathBuf,
    /// The central archive: postgres://USER@HOST[:PORT]/DB.
    #[arg(long = "to", id = "central")]
    pub to: PathBuf,
    /// The venue the nights are kept under (default: the archive file's
    /// name without its ending).
    #[arg(long)]
    pub venue: Option<String>,
    /// Only this night, by its name or its date (YYYY-MM-DD).
    #[arg(long)]
    pub tournament: Option<String>,
}

pub fn run(a: PushArgs, lang: Lang) -> Result<()> {
    if !a.archive.is_file() {
        bail!(say(lang, "push-missing", &[("path", &a.archive.display())]));
    }
    let stem = a
        .archive
        .file_stem()
        .map(|s| s.to_string_lossy().to_string());
    let venue = match (&a.venue, stem.as_deref()) {
        (Some(v), _) => v.trim().to_string(),
        // Every venue's archive is called so where the scan named none.
        (None, Some("aufsicht")) => bail!(say(lang, "push-default-name", &[])),
        (None, stem) => stem.unwrap_or_default().to_string(),
    };
    if venue.is_empty() || venue.contains('/') {
        bail!(say(lang, "push-venue", &[("venue", &venue)]));
    }
    let from = Archive::open_to_read(&a.archive).told(lang)?;
    let night = match &a.tournament {
        Some(name) => Some(from.pick_tournament(Some(name)).told(lang)?),
        None => None,
    };
    if !is_server(&a.to) {
        bail!(say(lang, "push-to", &[("to", &a.to.display())]));
    }
    // Another venue's push writing: said once, then waited for (a minute at most).
    let said = std::sync::atomic::AtomicBool::new(false);
    aufsicht::night::club::archive::when_waiting(move || {
        if !said.swap(true, std::sync::atomic::Ordering::Relaxed) {
            eprintln!("aufsicht: {}", say(lang, "push-waiting", &[]));
        }
    });
    let mut central = Archive::open(&a.to).told(lang)?;
    // Each night's rules, loaded before anything is sent.
    let mut rules = std::collections::HashMap::new();
    for n in from.nights().told(lang)? {
        if !rules.contains_key(&n.rules) {
            rules.insert(n.rules.clone(), load_rules(&n.rules, lang)?);
        }
    }
    let remake = |id: &str, sheet| match rules.get(id) {
        Some(r) => aufsicht::verify(sheet, r, lang),
        None => Ok(sheet),
    };
    let bar = bar(lang);
    let mut show = |p: &Progress| {
        bar.set_length(p.of as u64);
        bar.set_position(p.done as u64);
        bar.set_message(p.night.to_string());
    };
    let pushed = from.push_into(&mut central, &venue, night, &remake, &mut show);
    bar.finish_and_clear();
    let pushed = pushed.told(lang)?;
    let args: [(&str, &dyn std::fmt::Display); 8] = [
        ("venue", &venue),
        ("nights", &pushed.nights),
        ("sheets", &pushed.sheets),
        ("new", &pushed.new_sheets),
        ("scans", &pushed.new_scans),
        ("readings", &pushed.new_readings),
        ("decisions", &pushed.new_decisions),
        ("lines", &pushed.new_lines),
    ];
    stdout_line(&say(lang, "push-done", &args), lang)
}

/// The push's progress on standard error, where it is a terminal.
fn bar(lang: Lang) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(0).with_style(
        indicatif::ProgressStyle::with_template(&say(lang, "push-bar", &[]))
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
    bar
}
