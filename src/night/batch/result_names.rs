//! Result file names: one per input, unique by construction.
//!
//! An image's result is `<base>.json`, a PDF's pages are `<base>-p<N>.json`.
//! The base is the file's stem where that is free, else the stem with its
//! folders (`runde2-x`), else with its extension, else numbered. A base is
//! free when no other input of this run and no result of another source
//! already in the output folder would share a file name with it, so a
//! re-run gives every file the name it had.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A name's bytes at most: file systems take 255, and `-p9999.json` with
/// what its temporary file adds (`.`, `.XXXXXX.part`) must still fit.
const MAX_BASE_BYTES: usize = 200;

/// The result names already in the output folder (without `.json`), and
/// whose they are (the `source` each names, read when asked).
pub struct Existing {
    dir: PathBuf,
    names: BTreeSet<String>,
    owners: BTreeMap<String, Option<String>>,
}

impl Existing {
    /// The results in `dir` (none when it does not exist yet).
    pub fn in_dir(dir: &Path) -> Self {
        let names = std::fs::read_dir(dir)
            .map(|rd| {
                rd.flatten()
                    .filter_map(|e| {
                        let name = e.file_name().to_string_lossy().to_string();
                        name.strip_suffix(".json").map(str::to_string)
                    })
                    .collect()
            })
            .unwrap_or_default();
        Existing {
            dir: dir.to_path_buf(),
            names,
            owners: BTreeMap::new(),
        }
    }

    /// None at all (an empty or new folder).
    pub fn none() -> Self {
        Existing {
            dir: PathBuf::new(),
            names: BTreeSet::new(),
            owners: BTreeMap::new(),
        }
    }

    /// Does a result `name` exist that another source wrote?
    fn taken_by_other(&mut self, name: &str, source: &str) -> bool {
        if !self.names.contains(name) {
            return false;
        }
        let dir = &self.dir;
        let owner = self.owners.entry(name.to_string()).or_insert_with(|| {
            let text = std::fs::read_to_string(dir.join(format!("{name}.json"))).ok()?;
            let value: serde_json::Value = serde_json::from_str(&text).ok()?;
            value.get("source")?.as_str().map(str::to_string)
        });
        owner.as_deref() != Some(source)
    }

    /// Existing names that a PDF with this base would write (`base-p<N>`).
    fn pages_of(&self, base: &str) -> Vec<String> {
        let prefix = format!("{base}-p");
        self.names
            .range(prefix.clone()..)
            .take_while(|n| n.starts_with(&prefix))
            .filter(|n| is_page_number(&n[prefix.len()..]))
            .cloned()
            .collect()
    }
}

fn is_page_number(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// `base` minus a `-p<N>` end, where it has one.
fn page_prefix(base: &str) -> Option<&str> {
    let (head, tail) = base.rsplit_once("-p")?;
    is_page_number(tail).then_some(head)
}

/// One input and the base of its result names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Named {
    pub file: PathBuf,
    /// Results numbered by page (a PDF, or a TIFF of several pages).
    pub pdf: bool,
    pub base: String,
}

impl Named {
    /// The result file of page `page` (from 1).
    pub fn result_name(&self, page: u32) -> String {
        if self.pdf {
            format!("{}-p{page}.json", self.base)
        } else {
            format!("{}.json", self.base)
        }
    }
}

/// The names this run has handed out.
#[derive(Default)]
struct Given {
    images: BTreeSet<String>,
    pdfs: BTreeSet<String>,
}

impl Given {
    fn clashes(&self, base: &str, pdf: bool) -> bool {
        if pdf {
            self.pdfs.contains(base) || self.images.iter().any(|i| page_prefix(i) == Some(base))
        } else {
            self.images.contains(base) || page_prefix(base).is_some_and(|p| self.pdfs.contains(p))
        }
    }
}

/// Result names for `files` (in order), beside the results already in `out`.
pub fn name_beside(files: &[PathBuf], out: &Path) -> Vec<Named> {
    let files: Vec<(PathBuf, bool)> = files
        .iter()
        .map(|f| (f.clone(), crate::page::input::paged(f)))
        .collect();
    name_all(&files, &mut Existing::in_dir(out))
}

/// Names every input (in order), `(file, is a PDF)`, so that no two share a
/// result file and none overwrites another source's result in the folder.
pub fn name_all(files: &[(PathBuf, bool)], existing: &mut Existing) -> Vec<Named> {
    let mut given = Given::default();
    let mut in_folder = BTreeMap::new();
    for (file, _) in files {
        *in_folder
            .entry((file.parent(), file.file_stem()))
            .or_insert(0) += 1;
    }
    files
        .iter()
        .map(|(file, pdf)| {
            let source = file.display().to_string();
            // Two of one stem in one folder differ by their extension first.
            let ext_first = in_folder[&(file.parent(), file.file_stem())] > 1;
            let base = candidates(file, ext_first)
                .find(|base| {
                    if given.clashes(base, *pdf) {
                        return false;
                    }
                    let mut written = if *pdf {
                        existing.pages_of(base)
                    } else {
                        vec![base.clone()]
                    };
                    !written
                        .iter_mut()
                        .any(|n| existing.taken_by_other(n, &source))
                })
                .expect("the numbered candidates never end");
            if *pdf {
                given.pdfs.insert(base.clone());
            } else {
                given.images.insert(base.clone());
            }
            Named {
                file: file.clone(),
                pdf: *pdf,
                base,
            }
        })
        .collect()
}

/// The bases a file may take, best first: stem, folders and stem (one more
/// folder at a time), each also with the extension (first where `ext_first`,
/// else after), then numbered. Endless.
fn candidates(file: &Path, ext_first: bool) -> impl Iterator<Item = String> {
    let stem = file
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "sheet".into());
    let ext = file
        .extension()
        .map(|e| format!(".{}", e.to_string_lossy()))
        .unwrap_or_default();
    let folders: Vec<String> = file
        .parent()
        .into_iter()
        .flat_map(Path::components)
        .filter_map(|c| match c {
            std::path::Component::Normal(n) => Some(n.to_string_lossy().to_string()),
            _ => None,
        })
        .collect();
    let with_folders: Vec<String> = (0..=folders.len())
        .map(|k| {
            let mut parts = folders[folders.len() - k..].to_vec();
            parts.push(stem.clone());
            parts.join("-")
        })
        .collect();
    let longest = with_folders.last().cloned().unwrap_or_default() + &ext;
    // The stem comes first either way: it is the contract's name.
    let named: Vec<String> = if ext_first {
        with_folders
            .into_iter()
            .flat_map(|b| [b.clone(), b + &ext])
            .collect()
    } else {
        let with_ext: Vec<String> = with_folders.iter().map(|b| format!("{b}{ext}")).collect();
        with_folders.into_iter().chain(with_ext).collect()
    };
    named
        .into_iter()
        .chain((2u64..).map(move |n| format!("{longest}~{n}")))
        .map(|b| fit(&b))
}

/// A base short enough for the file system: a long one keeps its start and
/// ends in a hash of the whole, so two long names stay apart.
fn fit(base: &str) -> String {
    let clean: String = base
        .chars()
        .map(|c| if c == '/' || c == '\0' { '-' } else { c })
        .collect();
    if clean.len() <= MAX_BASE_BYTES {
        return clean;
    }
    use sha2::{Digest, Sha256};
    let hash: String = Sha256::digest(clean.as_bytes())[..4]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let mut cut = MAX_BASE_BYTES - hash.len() - 1;
    while !clean.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{}~{hash}", &clean[..cut])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(files: &[(&str, bool)]) -> Vec<String> {
        let files: Vec<(PathBuf, bool)> = files.iter().map(|(f, p)| (f.into(), *p)).collect();
        name_all(&files, &mut Existing::none())
            .into_iter()
            .map(|n| n.base)
            .collect()
    }

    #[test]
    fn three_scans_of_one_name_in_three_folders_should_get_three_results() {
        let got = names(&[
            ("night/runde1/x.png", false),
            ("night/runde2/x.png", false),
            ("night/runde3/x.png", false),
        ]);
        assert_eq!(got, ["x", "runde2-x", "runde3-x"]);
    }

    #[test]
    fn a_stem_shared_in_one_folder_should_keep_its_extension_apart() {
        let got = names(&[("a/x.png", false), ("a/x.jpg", false), ("a-x.png", false)]);
        assert_eq!(got, ["x", "x.jpg", "a-x"]);
    }

    #[test]
    fn an_image_should_not_take_the_name_of_a_pdfs_page_nor_the_other_way() {
        let got = names(&[("s.pdf", true), ("s-p1.png", false)]);
        assert_eq!(got, ["s", "s-p1.png"]);
        let got = names(&[("s-p2.png", false), ("d/s.pdf", true)]);
        assert_eq!(got, ["s-p2", "d-s"]);
    }

    #[test]
    fn when_every_name_is_taken_the_numbers_should_go_on() {
        let got = names(&[("x.png", false), ("x.png", false), ("x.png", false)]);
        assert_eq!(got, ["x", "x.png", "x.png~2"]);
    }

    #[test]
    fn a_name_too_long_for_the_file_system_should_be_shortened_and_stay_apart() {
        let long_a = format!("{}a.png", "n".repeat(250));
        let long_b = format!("{}b.png", "n".repeat(250));
        let got = names(&[(&long_a, false), (&long_b, false)]);
        assert!(got.iter().all(|b| b.len() <= MAX_BASE_BYTES), "{got:?}");
        assert_ne!(got[0], got[1]);
    }

    #[test]
    fn a_result_of_another_source_in_the_folder_should_not_be_overwritten() {
        let dir = tempfile::tempdir().expect("temp");
        std::fs::write(dir.path().join("x.json"), r#"{"source": "old/x.png"}"#).expect("write");
        std::fs::write(dir.path().join("y-p1.json"), r#"{"source": "y.png"}"#).expect("write");
        let files = [
            (PathBuf::from("old/x.png"), false),
            (PathBuf::from("new/x.png"), false),
            (PathBuf::from("y.pdf"), true),
        ];
        let got: Vec<String> = name_all(&files, &mut Existing::in_dir(dir.path()))
            .into_iter()
            .map(|n| n.base)
            .collect();
        // A re-run of old/x.png keeps its name; the new one does not take it.
        assert_eq!(got, ["x", "new-x", "y.pdf"]);
    }
}
