//! `verify`: a sheet result's flags recomputed and printed.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use aufsicht::catalogue::say;
use aufsicht::{Lang, SheetResult};

use crate::common::{Told, load_rules, stdout_line};

/// The arguments of `verify`.
#[derive(clap::Args)]
pub struct VerifyArgs {
    /// Rule set id or the path of a rule file.
    #[arg(long)]
    pub rules: String,
    /// A sheet result (JSON, schema aufsicht/sheet-v1).
    pub sheet: PathBuf,
}

pub fn run(a: VerifyArgs, lang: Lang) -> Result<()> {
    verify(&a.rules, &a.sheet, lang)
}

fn verify(rules: &str, sheet: &Path, lang: Lang) -> Result<()> {
    let rules = load_rules(rules, lang)?;
    let input = SheetResult::from_path(sheet).told(lang)?;
    let named = input.rules.clone();
    let checked = aufsicht::verify(input, &rules, lang)
        .told(lang)
        .with_context(|| sheet.display().to_string())?;
    stdout_line(&checked.to_json_pretty(), lang)?;
    if let Some(named) = named.filter(|n| n != &rules.id) {
        let (file, rules) = (sheet.display(), &rules.id);
        let args: [(&str, &dyn std::fmt::Display); 3] =
            [("file", &file), ("named", &named), ("rules", rules)];
        eprintln!("aufsicht: {}", say(lang, "verify-other-rules", &args));
    }
    Ok(())
}
