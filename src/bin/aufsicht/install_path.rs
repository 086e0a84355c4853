//! `install-path add|remove DIR`: the Windows installer's own way to put
//! its folder on the machine's PATH and take it off again. NSIS holds a
//! string in 1,024 characters and reads a longer PATH as empty, so the
//! installer leaves the registry to this command, which reads and writes
//! the whole value and touches no other entry.

use anyhow::Result;

use aufsicht::Lang;
use aufsicht::catalogue::say;

/// The arguments of `install-path`.
#[derive(clap::Args)]
pub struct InstallPathArgs {
    #[arg(value_enum)]
    pub change: Change,
    /// The folder put on the PATH or taken off it.
    pub dir: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Change {
    Add,
    Remove,
}

/// A PATH's entries, added and taken away; only the Windows build changes
/// a PATH, the tests hold them everywhere.
#[cfg_attr(not(windows), allow(dead_code))]
mod entries {
    /// `path` (entries split by `;`) with `dir` once at its end, or `None`
    /// where it holds `dir` already (Windows compares without case, and a
    /// trailing backslash names the same folder).
    pub fn with_entry(path: &str, dir: &str) -> Option<String> {
        if path.split(';').any(|e| same_dir(e, dir)) {
            return None;
        }
        let kept = path.trim_end_matches(';');
        Some(if kept.is_empty() {
            dir.to_string()
        } else {
            format!("{kept};{dir}")
        })
    }

    /// `path` without any entry naming `dir`, every other entry as it was, in
    /// its order; `None` where it holds none.
    pub fn without_entry(path: &str, dir: &str) -> Option<String> {
        let entries: Vec<&str> = path.split(';').collect();
        let kept: Vec<&str> = entries
            .iter()
            .copied()
            .filter(|e| !same_dir(e, dir))
            .collect();
        (kept.len() != entries.len()).then(|| kept.join(";"))
    }

    fn same_dir(entry: &str, dir: &str) -> bool {
        let norm = |s: &str| s.trim().trim_end_matches('\\').to_lowercase();
        !entry.trim().is_empty() && norm(entry) == norm(dir)
    }
}

pub fn run(a: InstallPathArgs, lang: Lang) -> Result<()> {
    machine_path::change(a.change, &a.dir, lang)
}

#[cfg(windows)]
mod machine_path {
    use super::entries::{with_entry, without_entry};
    use super::*;
    use anyhow::anyhow;

    const ENVIRONMENT: &str = r"SYSTEM\CurrentControlSet\Control\Session Manager\Environment";

    /// Reads the machine's PATH whole and writes it back changed, as an
    /// expandable string (its `%SystemRoot%` entries stay unexpanded).
    pub fn change(change: Change, dir: &str, lang: Lang) -> Result<()> {
        let failed = |e: &dyn std::fmt::Display| {
            anyhow!(say(
                lang,
                "install-path-failed",
                &[("problem", &e.to_string())]
            ))
        };
        let key = windows_registry::LOCAL_MACHINE
            .options()
            .read()
            .write()
            .open(ENVIRONMENT)
            .map_err(|e| failed(&e))?;
        let path = key.get_string("Path").unwrap_or_default();
        let changed = match change {
            Change::Add => with_entry(&path, dir),
            Change::Remove => without_entry(&path, dir),
        };
        if let Some(new) = changed {
            key.set_expand_string("Path", new).map_err(|e| failed(&e))?;
        }
        Ok(())
    }
}

#[cfg(not(windows))]
mod machine_path {
    use super::*;

    /// Elsewhere there is no machine PATH in a registry.
    pub fn change(_: Change, _: &str, lang: Lang) -> Result<()> {
        anyhow::bail!(say(lang, "install-path-windows-only", &[]))
    }
}

#[cfg(test)]
mod tests {
    use super::entries::*;

    #[test]
    fn a_folder_should_be_added_once_and_removed_leaving_every_other_entry() {
        let long: String = (0..150)
            .map(|i| format!(r"C:\Werkzeuge\Programm {i:03}"))
            .collect::<Vec<_>>()
            .join(";");
        assert!(long.len() > 3000);
        let path = format!(r"%SystemRoot%\system32;{long}");
        let dir = r"C:\Program Files\aufsicht";
        let added = with_entry(&path, dir).expect("added");
        assert_eq!(added, format!("{path};{dir}"));
        assert_eq!(with_entry(&added, r"c:\program files\AUFSICHT\"), None);
        assert_eq!(without_entry(&added, dir).as_deref(), Some(path.as_str()));
        assert_eq!(without_entry(&path, dir), None);
        assert_eq!(with_entry("", dir).as_deref(), Some(dir));
        assert_eq!(with_entry(r"C:\a;", dir), Some(format!(r"C:\a;{dir}")));
    }
}
