//! `review`: one offline HTML page of the flagged sheets, with crops.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use aufsicht::Lang;
use aufsicht::catalogue::say;
use aufsicht::page::form::FormTemplate;

use crate::common::{Told, load_participants, sheet_results};

/// The arguments of `review`.
#[derive(clap::Args)]
pub struct ReviewArgs {
    /// The HTML file to write (the offline page).
    #[arg(long, required_unless_present = "serve")]
    pub out: Option<PathBuf>,
    /// The page's title (default: the night's review, in the run's language).
    #[arg(long)]
    pub title: Option<String>,
    /// Serve the review desk over the archive instead: a local web
    /// application whose corrections land in the archive at once.
    #[arg(long, requires = "night_archive", conflicts_with = "out")]
    pub serve: bool,
    /// Where the desk listens: this computer only unless told otherwise
    /// (another address needs the token it prints).
    #[arg(long, default_value = "127.0.0.1:8377", requires = "serve")]
    pub listen: std::net::SocketAddr,
    /// The night's archive (what `scan --archive` filled).
    #[arg(long, requires = "serve", group = "night_archive")]
    pub archive: Option<PathBuf>,
    /// Instead of --archive: the newest archive (*.sqlite) in this folder
    /// (the Start-menu entry's desk on Windows).
    #[arg(long, requires = "serve", group = "night_archive")]
    pub newest: Option<PathBuf>,
    /// Open the desk in the default browser once it listens.
    #[arg(long, requires = "serve")]
    pub open: bool,
    /// Rule set id or the path of a rule file, to verify corrected sheets
    /// (default: the one the night was scanned with, as the archive keeps it).
    #[arg(long, requires = "serve")]
    pub rules: Option<String>,
    /// The night's registered participants: their names beside the
    /// numbers, and (the desk) the standings' checks.
    #[arg(long)]
    pub participants: Option<PathBuf>,
    /// The night's seating (`draw`), for the standings' checks.
    #[arg(long, requires = "serve")]
    pub seating: Option<PathBuf>,
    /// The tournament's name; may be left out when the archive holds one.
    /// With --rules, a night (and an archive) that does not exist yet is
    /// made: a night filled from phones alone.
    #[arg(long, requires = "serve")]
    pub tournament: Option<String>,
    /// The night's date (3.10.2026 or 2026-10-03), where the desk makes it.
    #[arg(long, requires = "tournament", value_parser = crate::common::date)]
    pub date: Option<chrono::NaiveDate>,
    /// The club's file: the season's rule (`[season]`) for a player's
    /// audit over every night, the member list's names on every page.
    #[arg(long, requires = "serve")]
    pub club: Option<PathBuf>,
    /// A name the desk is reached by (on the club's network, or a proxy's);
    /// addresses and localhost always are, any other name is refused.
    #[arg(long = "host", requires = "serve")]
    pub hosts: Vec<String>,
    /// A proxy (TLS) on this computer forwards to the desk: every client
    /// needs the token, and the proxy's https:// origin counts as the desk's.
    #[arg(long, requires = "serve")]
    pub behind_proxy: bool,
    /// Folders of sheet results (*.json) whose scans are still where they were read.
    #[arg(required_unless_present = "serve", conflicts_with = "serve")]
    pub dirs: Vec<PathBuf>,
}

pub fn run(a: ReviewArgs, lang: Lang) -> Result<()> {
    let title = a
        .title
        .unwrap_or_else(|| say(lang, "review-default-title", &[]));
    let archive = match (&a.archive, &a.newest) {
        (Some(file), _) => Some(file.clone()),
        (None, Some(dir)) => Some(newest_archive(dir, lang)?),
        (None, None) => None,
    };
    match (a.serve, archive, a.out) {
        (true, Some(archive), _) => crate::serve::run(
            crate::serve::ServeOptions {
                listen: a.listen,
                archive,
                open: a.open,
                rules: a.rules,
                participants: a.participants,
                seating: a.seating,
                tournament: a.tournament,
                date: a.date,
                club: a.club,
                hosts: a.hosts,
                behind_proxy: a.behind_proxy,
                title,
            },
            lang,
        ),
        (_, _, Some(out)) => review(&out, &title, &a.dirs, a.participants.as_deref(), lang),
        _ => unreachable!("clap requires --out, or --serve with --archive or --newest"),
    }
}

/// The archive (`*.sqlite`) in `dir` written last.
fn newest_archive(dir: &Path, lang: Lang) -> Result<PathBuf> {
    let none = || {
        anyhow::anyhow!(say(
            lang,
            "serve-no-archive-in",
            &[("path", &dir.display())]
        ))
    };
    let entries = std::fs::read_dir(dir).map_err(|_| none())?;
    entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.extension()
                .is_some_and(|x| x.eq_ignore_ascii_case("sqlite"))
        })
        .filter_map(|p| Some((std::fs::metadata(&p).ok()?.modified().ok()?, p)))
        .max()
        .map(|(_, p)| p)
        .ok_or_else(none)
}

fn review(
    out: &Path,
    title: &str,
    dirs: &[PathBuf],
    participants: Option<&Path>,
    lang: Lang,
) -> Result<()> {
    use aufsicht::night::club::evidence::Evidence;
    use aufsicht::night::desk::review::{ReviewSheet, page, stored_alignment};
    let results = sheet_results(dirs, lang)?;
    let forms = FormTemplate::builtins();
    let custom: Vec<FormTemplate> = results
        .iter()
        .filter_map(|(_, _, s)| s.form.as_deref())
        .filter(|f| !forms.iter().any(|b| &b.id == f))
        .filter_map(|f| FormTemplate::load(f).ok())
        .collect();
    let all_forms: Vec<aufsicht::page::form::KnownForm> = (forms.into_iter().chain(custom))
        .map(aufsicht::page::form::KnownForm::of)
        .collect();
    let mut missing = 0;
    // Each scan file decoded once, however many of its pages are sheets.
    let mut decoded = aufsicht::night::club::evidence::Decoded::default();
    let no_archive = |_: &str| Ok(None);
    let sheets: Vec<ReviewSheet> = results
        .iter()
        .map(|(dir, file, s)| {
            let form = aufsicht::page::form::find_for(
                &all_forms,
                s.form.as_deref(),
                s.notes.form_sha256.as_deref(),
            );
            // The scan read: where it was read, else beside the results'
            // folder, and only if its bytes are the ones read.
            let scan = decoded.page_of(s, None, no_archive, dir).told(lang)?;
            let image = match &scan {
                Evidence::Scan(img) => Some(img.clone()),
                _ => None,
            };
            let scan_note =
                matches!(scan, Evidence::Changed).then(|| say(lang, "scan-changed", &[]));
            if image.is_none() && s.status != aufsicht::Status::Ok {
                missing += 1;
            }
            if s.status != aufsicht::Status::Unreadable && stored_alignment(s).is_none() {
                let said = say(lang, "review-no-alignment", &[("file", &file.display())]);
                eprintln!("aufsicht: {said}");
            }
            Ok(ReviewSheet {
                result: s,
                file_name: file
                    .file_name()
                    .map(|n| n.to_string_lossy().to_string())
                    .unwrap_or_default(),
                image,
                scan_note,
                form,
            })
        })
        .collect::<Result<_>>()?;
    let names = load_participants(participants, lang)?
        .map(|list| list.names().clone())
        .unwrap_or_default();
    let html = page(title, &sheets, &names, lang);
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
