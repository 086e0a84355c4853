//! What every command shares: errors told in the user's language, the
//! rule set and participant list loaded, sheet results found, stdout.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use aufsicht::catalogue::{Tell, say};
use aufsicht::{Lang, RuleSet, SheetResult};

/// A library error told in the user's language, as the command's error.
pub trait Told<T> {
    fn told(self, lang: Lang) -> Result<T>;
}

impl<T, E: Tell> Told<T> for std::result::Result<T, E> {
    fn told(self, lang: Lang) -> Result<T> {
        self.map_err(|e| anyhow::anyhow!(e.tell(lang)))
    }
}

/// Tells on stderr where a command wrote its file.
pub fn told_written(path: &std::path::Path, lang: Lang) {
    eprintln!(
        "aufsicht: {}",
        say(lang, "written-to", &[("path", &path.display())])
    );
}

/// Prints a line; see [`write_stdout`].
pub fn stdout_line(line: &str, lang: Lang) -> Result<()> {
    write_stdout(format!("{line}\n").as_bytes(), lang)
}

/// Writes a command's main output to stdout. A closed pipe (`| head`)
/// ends the output quietly; any other failure (a full disk) is the
/// command's error, so that it never reports success on an output lost.
pub fn write_stdout(bytes: &[u8], lang: Lang) -> Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(anyhow::anyhow!(say(lang, "write-output", &[("error", &e)])))
        }
        _ => Ok(()),
    }
}

pub fn load_rules(rules: &str, lang: Lang) -> Result<RuleSet> {
    RuleSet::load(rules)
        .told(lang)
        .context(say(lang, "load-rules", &[]))
}

pub fn load_participants(
    list: Option<&Path>,
    lang: Lang,
) -> Result<Option<aufsicht::night::tournament::participants::Participants>> {
    list.map(aufsicht::night::tournament::participants::Participants::load)
        .transpose()
        .told(lang)
        .context(say(lang, "load-participants", &[]))
}

/// An option's value that is no `YYYY-MM-DD` date (told in the run's
/// language by `cli_lang`, which finds it as the error's source).
#[derive(Debug)]
pub struct NotADate;

impl std::fmt::Display for NotADate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("no date YYYY-MM-DD or D.M.YYYY")
    }
}

impl std::error::Error for NotADate {}

/// A date option's value (`--date`, `--from`, `--to`), parsed by clap:
/// `2026-10-03` or as Germans write it, `3.10.2026`.
pub fn date(text: &str) -> std::result::Result<chrono::NaiveDate, NotADate> {
    ["%Y-%m-%d", "%d.%m.%Y"]
        .iter()
        .find_map(|f| chrono::NaiveDate::parse_from_str(text.trim(), f).ok())
        .ok_or(NotADate)
}

/// A run that finished but could not read everything it was given.
#[derive(Debug)]
pub struct Incomplete(pub String);

impl std::fmt::Display for Incomplete {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Incomplete {}

/// Every sheet result below the folders, as (folder, file, result), sorted
/// by file. Other JSON files are passed over, and said; none at all is an error.
pub fn sheet_results(dirs: &[PathBuf], lang: Lang) -> Result<Vec<(PathBuf, PathBuf, SheetResult)>> {
    let mut out = Vec::new();
    for dir in dirs {
        if !dir.is_dir() {
            bail!(say(lang, "not-a-folder", &[("path", &dir.display())]));
        }
        let mut files = json_files(dir);
        files.sort();
        for file in files {
            match SheetResult::from_path(&file) {
                Ok(s) => out.push((dir.clone(), file, s)),
                Err(e) => {
                    let (file, error) = (file.display(), e.tell(lang));
                    let args: [(&str, &dyn std::fmt::Display); 2] =
                        [("file", &file), ("error", &error)];
                    eprintln!("aufsicht: {}", say(lang, "skipped-json", &args));
                }
            }
        }
    }
    if out.is_empty() {
        let dirs: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
        bail!(say(lang, "no-results", &[("dirs", &dirs.join(", "))]));
    }
    Ok(out)
}

/// Every `*.json` below `dir`, except the night-check and summary files.
fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(json_files(&path));
        } else if path.extension().and_then(|e| e.to_str()) == Some("json") {
            out.push(path);
        }
    }
    out
}

pub fn open_archive(path: &Path, lang: Lang) -> Result<aufsicht::night::club::archive::Archive> {
    if !aufsicht::night::club::archive::is_server(path) && !path.is_file() {
        bail!(say(lang, "archive-missing", &[("path", &path.display())]));
    }
    aufsicht::night::club::archive::Archive::open(path).told(lang)
}

/// The folder files written beside the archive go to: the archive
/// file's, or the working folder for a server's archive.
pub fn beside_archive(path: &Path) -> &Path {
    match aufsicht::night::club::archive::is_server(path) {
        true => Path::new("."),
        false => path.parent().unwrap_or(Path::new(".")),
    }
}

/// The seating `draw` wrote, checked.
pub fn load_seating(
    path: &std::path::Path,
    lang: Lang,
) -> Result<aufsicht::night::tournament::seating::Seating> {
    let text = aufsicht::night::tournament::spreadsheet::read_text(path)
        .with_context(|| say(lang, "seating-read", &[("path", &path.display())]))?;
    aufsicht::night::tournament::seating::Seating::from_csv(&text)
        .told(lang)
        .with_context(|| say(lang, "seating-read", &[("path", &path.display())]))
}

/// Says that another run holds the output folder `out`.
pub fn waiting(out: &Path, lang: Lang) {
    let said = say(lang, "scan-waiting", &[("path", &out.display())]);
    eprintln!("aufsicht: {said}");
}

/// Says that a file was passed over, and why.
pub fn passed_over(path: &Path, why: &aufsicht::page::input::PassedOver, lang: Lang) {
    eprintln!("aufsicht: {}: {}", path.display(), why.text(lang));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_date_should_be_taken_as_germans_and_iso_write_it() {
        let third = chrono::NaiveDate::from_ymd_opt(2026, 10, 3);
        assert_eq!(date("2026-10-03").ok(), third);
        assert_eq!(date("3.10.2026").ok(), third);
        assert_eq!(date("03.10.2026").ok(), third);
        assert!(date("3.10.26").is_err() || date("3.10.26").ok() != third);
        assert!(date("32.10.2026").is_err());
        assert!(date("Samstag").is_err());
    }
}
