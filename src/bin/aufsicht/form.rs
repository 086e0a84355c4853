//! `form`: a club's own form. `form check FORM SCAN --out OVERLAY.png`
//! draws every box of a template over a scan, straightened as the reader
//! sees it, so that a person sees at once whether the template fits.

use std::path::PathBuf;

use anyhow::{Result, anyhow, bail};

use aufsicht::Lang;
use aufsicht::catalogue::say;
use aufsicht::night::desk::review::overview;
use aufsicht::page::align::{MIN_FIT, align, prepare};
use aufsicht::page::form::FormTemplate;
use aufsicht::page::input;

use crate::common::Told;

/// The arguments of `form`.
#[derive(clap::Args)]
pub struct FormArgs {
    #[command(subcommand)]
    pub command: FormCommand,
}

#[derive(clap::Subcommand)]
pub enum FormCommand {
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
        FormCommand::Check { form, scan, out } => check(&form, &scan, &out, lang),
    }
}

fn check(form: &str, scan: &std::path::Path, out: &std::path::Path, lang: Lang) -> Result<()> {
    let template = FormTemplate::load(form).told(lang)?;
    let page = input::load(scan)
        .next()
        .ok_or_else(|| anyhow!(say(lang, "form-no-page", &[("path", &scan.display())])))?;
    let image = page
        .image
        .map_err(|why| anyhow!("{}: {}", scan.display(), why.text(lang)))?;
    let fitted = align(&prepare(&image), &template)
        .map_err(|why| anyhow!("{}: {}", scan.display(), why.text(lang)))?;
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
    // Below what `scan` takes, the sheet would be unreadable on this form.
    if fitted.fit < MIN_FIT {
        let least = aufsicht::catalogue::percent(MIN_FIT * 100.0);
        let args: [(&str, &dyn std::fmt::Display); 2] = [("fit", &fit), ("least", &least)];
        bail!(say(lang, "form-does-not-fit", &args));
    }
    Ok(())
}
