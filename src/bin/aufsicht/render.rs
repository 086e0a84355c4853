//! `render-form`: a blank form to print, exactly as it is read.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use aufsicht::Lang;
use aufsicht::catalogue::say;
use aufsicht::page::form::FormTemplate;

use crate::common::Told;

/// The arguments of `render-form`.
#[derive(clap::Args)]
pub struct RenderFormArgs {
    /// Form id (punkteliste-a4-32, doko-a4-24x5) or a template's path.
    #[arg(long)]
    pub form: String,
    /// Dots per inch of the page drawn (50 to 1200).
    #[arg(long, default_value_t = 300.0)]
    pub dpi: f64,
    /// The file to write: PNG or PDF, by its extension.
    #[arg(long)]
    pub out: PathBuf,
}

pub fn run(a: RenderFormArgs, lang: Lang) -> Result<()> {
    let form = FormTemplate::load(&a.form)
        .told(lang)
        .context(say(lang, "load-form", &[]))?;
    if !(50.0..=1200.0).contains(&a.dpi) {
        bail!(say(lang, "dpi-range", &[("dpi", &a.dpi)]));
    }
    let page = aufsicht::page::render::render_form(&form, a.dpi);
    write_page(&page, &a.out, a.dpi, lang)?;
    crate::common::told_written(&a.out, lang);
    Ok(())
}

fn write_page(page: &image::GrayImage, out: &Path, dpi: f64, lang: Lang) -> Result<()> {
    use aufsicht::page::render::{SavePageError, save_page};
    match save_page(page, out, dpi) {
        Err(SavePageError::Format) => bail!(say(lang, "page-format", &[("path", &out.display())])),
        done => done.with_context(|| say(lang, "cannot-write", &[("path", &out.display())])),
    }
}
