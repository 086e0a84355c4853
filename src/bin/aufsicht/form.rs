//! `form`: a club's own form. `form learn BLANK --out FORM.json` learns
//! the template from a scan of the empty form; `form check FORM SCAN --out
//! OVERLAY.png` draws every box of a template over a scan, straightened as
//! the reader sees it, so that a person sees at once whether it fits.

use std::path::{Path, PathBuf};

use anyhow::{Result, anyhow, bail};

use aufsicht::Lang;
use aufsicht::catalogue::{Tell, say};
use aufsicht::learn::{self, Hints};
use aufsicht::night::desk::review::overview;
use aufsicht::page::align::{MIN_FIT, align, header_share, prepare};
use aufsicht::page::form::FormTemplate;
use aufsicht::page::input;
use aufsicht::scan::{AlignedSheet, header_print_read};

use crate::common::Told;

/// The arguments of `form`.
#[derive(clap::Args)]
pub struct FormArgs {
    #[command(subcommand)]
    pub command: FormCommand,
}

#[derive(clap::Subcommand)]
pub enum FormCommand {
    /// Learn a form from a scan of its blank and write its template.
    Learn {
        /// A scan or photo of the empty form.
        blank: PathBuf,
        /// The form's players (a check: the page is counted).
        #[arg(long)]
        seats: Option<usize>,
        /// The form's game rows (a check).
        #[arg(long)]
        games: Option<usize>,
        /// The template to write (JSON).
        #[arg(long)]
        out: PathBuf,
    },
    /// Draw every box of a form over a scan (the first page of a PDF).
    Check {
        /// The form: an id of a shipped one or a template's path.
        form: String,
        /// A scan or photo of a sheet printed on that form.
        scan: PathBuf,
        /// The picture to write (PNG): the straightened sheet, every box outlined.
        #[arg(long)]
        out: PathBuf,
    },
}

pub fn run(a: FormArgs, lang: Lang) -> Result<()> {
    match a.command {
        FormCommand::Learn {
            blank,
            seats,
            games,
            out,
        } => learn(&blank, Hints { seats, games }, &out, lang),
        FormCommand::Check { form, scan, out } => check(&form, &scan, &out, lang),
    }
}

/// Learns the form on `blank`; writes nothing unless the page is one.
fn learn(blank: &Path, hints: Hints, out: &Path, lang: Lang) -> Result<()> {
    let image = first_page(blank, lang)?;
    let id = out
        .file_stem()
        .map_or("club".into(), |s| s.to_string_lossy());
    let mut printed = aufsicht::read::print_reader().told(lang)?;
    let form = learn::learn(&image, &id, &hints, printed.as_mut()).map_err(|why| {
        let args: [(&str, &dyn std::fmt::Display); 2] =
            [("path", &blank.display()), ("why", &why.tell(lang))];
        anyhow!(say(lang, "learn-not-learned", &args))
    })?;
    let mut json = serde_json::to_string_pretty(&form)?;
    json.push('\n');
    aufsicht::night::files::write_whole(out, json.as_bytes())
        .map_err(|_| anyhow!(say(lang, "cannot-write", &[("path", &out.display())])))?;
    let title = form.title.as_ref().map_or(String::new(), |t| {
        say(lang, "form-learned-title", &[("title", t)])
    });
    let args: [(&str, &dyn std::fmt::Display); 5] = [
        ("path", &out.display()),
        ("seats", &form.seats),
        ("games", &form.games),
        ("labels", &form.texts.len()),
        ("title", &title),
    ];
    eprintln!("aufsicht: {}", say(lang, "form-learned", &args));
    Ok(())
}

/// The first page of a scan or PDF, or one line why not.
fn first_page(path: &Path, lang: Lang) -> Result<image::GrayImage> {
    let page = input::load(path)
        .next()
        .ok_or_else(|| anyhow!(say(lang, "form-no-page", &[("path", &path.display())])))?;
    page.image
        .map_err(|why| anyhow!("{}: {}", path.display(), why.text(lang)))
}

fn check(form: &str, scan: &Path, out: &Path, lang: Lang) -> Result<()> {
    let template = FormTemplate::load(form).told(lang)?;
    let image = first_page(scan, lang)?;
    let prepared = prepare(&image);
    let fitted = align(&prepared, &template)
        .map_err(|why| anyhow!("{}: {}", scan.display(), why.text(lang)))?;
    let sheet = AlignedSheet {
        page: &image,
        form: &template,
        header_lines: header_share(&prepared, &template, &fitted.to_image),
        header_off: false,
        labels_by_ink: None,
        alignment: fitted.clone(),
    };
    // A club's own font is read where its ink is not the shipped font's.
    let mut reader = aufsicht::read::print_reader().ok();
    let printed = reader
        .as_deref_mut()
        .map(|r| r as &mut dyn aufsicht::read::PrintReader);
    let header = header_print_read(&sheet, printed);
    let boxes: Vec<_> = template.named_boxes().into_iter().map(|(_, b)| b).collect();
    let drawn = overview(&image, &fitted, &template, &boxes);
    let mut png = Vec::new();
    drawn
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .map_err(|e| anyhow!(e.to_string()))?;
    aufsicht::night::files::write_whole(out, &png)
        .map_err(|_| anyhow!(say(lang, "cannot-write", &[("path", &out.display())])))?;
    let fit = aufsicht::catalogue::percent(fitted.fit * 100.0);
    let args: [(&str, &dyn std::fmt::Display); 3] = [
        ("path", &out.display()),
        ("boxes", &boxes.len()),
        ("fit", &fit),
    ];
    eprintln!("aufsicht: {}", say(lang, "form-checked", &args));
    let lines = sheet.header_lines.map_or("–".to_string(), |h| {
        aufsicht::catalogue::percent(h * 100.0)
    });
    let args: [(&str, &dyn std::fmt::Display); 3] = [
        ("lines", &lines),
        ("found", &header.labels_found),
        ("labels", &header.labels),
    ];
    eprintln!("aufsicht: {}", say(lang, "form-checked-header", &args));
    // Below what `scan` takes, the sheet would be unreadable on this form.
    if fitted.fit < MIN_FIT {
        let least = aufsicht::catalogue::percent(MIN_FIT * 100.0);
        let args: [(&str, &dyn std::fmt::Display); 2] = [("fit", &fit), ("least", &least)];
        bail!(say(lang, "form-does-not-fit", &args));
    }
    // The table fits, the header does not: `scan` would ask every header value.
    if !header.fits() {
        bail!(say(lang, "form-header-does-not-fit", &[]));
    }
    Ok(())
}
