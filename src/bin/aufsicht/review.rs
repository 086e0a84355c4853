//! `review`: one offline HTML page of the flagged sheets, with crops.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use aufsicht::catalogue::say;
use aufsicht::page::form::FormTemplate;
use aufsicht::{Lang, page::input};

use crate::common::sheet_results;

/// The arguments of `review`.
#[derive(clap::Args)]
pub struct ReviewArgs {
    /// The HTML file to write.
    #[arg(long)]
    pub out: PathBuf,
    /// The page's title.
    #[arg(long, default_value = "aufsicht review")]
    pub title: String,
    /// Folders of sheet results (*.json) whose scans are still where they were read.
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
}

pub fn run(a: ReviewArgs, lang: Lang) -> Result<()> {
    review(&a.out, &a.title, &a.dirs, lang)
}

fn review(out: &Path, title: &str, dirs: &[PathBuf], lang: Lang) -> Result<()> {
    use aufsicht::night::review::{ReviewSheet, page, stored_alignment};
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
