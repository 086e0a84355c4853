//! The scan a result was read from, and no other: every page that shows a
//! crop takes the image by the hash the result records
//! (`source_sha256`, or the archive's row). The archive's kept bytes come
//! first; a file found by its path is used only if its bytes hash the
//! same, else the page says that the scan has changed since it was read.
//! A file's pages are decoded once, however many sheets it holds.

use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use image::GrayImage;

use crate::error::ArchiveError;
use crate::night::club::archive::hex_sha256;
use crate::sheet::SheetResult;

/// What a page can show of a result's scan.
#[derive(Debug, Clone)]
pub enum Evidence {
    /// The page the values were read from.
    Scan(Arc<GrayImage>),
    /// A file is at the result's source, but not the one read: its bytes
    /// hash otherwise.
    Changed,
    /// Neither the archive nor the disk has the scan.
    Missing,
}

impl Evidence {
    pub fn image(&self) -> Option<&GrayImage> {
        match self {
            Evidence::Scan(img) => Some(img),
            _ => None,
        }
    }
}

/// The file a result's `source` names: where it was read, else in
/// `beside` (the results' or the archive's folder) or that folder's parent.
pub fn find_source(source: &str, beside: &Path) -> Option<PathBuf> {
    let src = Path::new(source);
    [
        src.to_path_buf(),
        beside.join(src),
        beside.parent().unwrap_or(beside).join(src),
    ]
    .into_iter()
    .find(|p| p.is_file())
}

/// A file's pages, decoded.
type Pages = Vec<(u32, Arc<GrayImage>)>;

/// Scans decoded by their hash, each file's pages once, the newest first.
#[derive(Default)]
pub struct Decoded {
    files: VecDeque<(String, Pages)>,
}

impl Decoded {
    /// The page of `result`'s scan where it is decoded here already.
    pub fn cached(&self, result: &SheetResult, sha256: &str) -> Option<Evidence> {
        let want = result.notes.source_sha256.as_deref().unwrap_or(sha256);
        self.decoded_page(want, result.page.unwrap_or(1))
    }

    /// Takes `newer`'s files in, keeping the `keep` newest.
    pub fn absorb(&mut self, newer: Decoded, keep: usize) {
        for (sha, pages) in newer.files.into_iter().rev() {
            self.files.retain(|(s, _)| *s != sha);
            self.files.push_front((sha, pages));
        }
        self.files.truncate(keep);
    }

    /// The page of `result`'s scan: the one hashing to `sha256` (the
    /// result's own record, else the archive's), its bytes from `kept`
    /// (the archive; an error there is reported, never replaced by a
    /// search on disk), else from the file at its source if that file
    /// hashes the same. A result that records no hash (from before hashes
    /// were recorded) takes the file found by its path.
    pub fn page_of(
        &mut self,
        result: &SheetResult,
        sha256: Option<&str>,
        kept: impl FnOnce(&str) -> Result<Option<Vec<u8>>, ArchiveError>,
        beside: &Path,
    ) -> Result<Evidence, ArchiveError> {
        let page = result.page.unwrap_or(1);
        let want = result.notes.source_sha256.as_deref().or(sha256);
        if let Some(sha) = want {
            if let Some(found) = self.decoded_page(sha, page) {
                return Ok(found);
            }
            if let Some(bytes) = kept(sha)? {
                return Ok(self.decode(sha, &bytes, page));
            }
        }
        let Some(file) = result
            .source
            .as_deref()
            .and_then(|s| find_source(s, beside))
        else {
            return Ok(Evidence::Missing);
        };
        let Ok(bytes) = std::fs::read(&file) else {
            return Ok(Evidence::Missing);
        };
        let found = hex_sha256(&bytes);
        match want {
            Some(sha) if sha != found => Ok(Evidence::Changed),
            _ => Ok(self.decode(&found, &bytes, page)),
        }
    }

    fn decoded_page(&self, sha: &str, page: u32) -> Option<Evidence> {
        let (_, pages) = self.files.iter().find(|(s, _)| s == sha)?;
        Some(
            pages
                .iter()
                .find(|(n, _)| *n == page)
                .map_or(Evidence::Missing, |(_, img)| Evidence::Scan(img.clone())),
        )
    }

    /// Decodes every page of `bytes` once and keeps them under `sha`.
    fn decode(&mut self, sha: &str, bytes: &[u8], page: u32) -> Evidence {
        let pages: Pages = crate::page::input::pages_of_bytes(bytes)
            .into_iter()
            .map(|(n, img)| (n, Arc::new(img)))
            .collect();
        self.files.push_front((sha.to_string(), pages));
        self.decoded_page(sha, page).unwrap_or(Evidence::Missing)
    }
}

/// The archive's kept bytes of the scan with a hash, where it keeps them.
pub type Kept<'a> = dyn Fn(&str) -> Result<Option<Vec<u8>>, ArchiveError> + 'a;

/// Each audited sheet's scan by the sheet's id, every file decoded once.
pub fn of_audit(
    audit: &crate::night::club::audit::Audit,
    kept: &Kept,
    beside: &Path,
) -> Result<HashMap<i64, Evidence>, ArchiveError> {
    let mut scans = Decoded::default();
    audit
        .sheets
        .iter()
        .map(|s| {
            let found = scans.page_of(&s.result, Some(&s.scan_sha256), kept, beside)?;
            Ok((s.id, found))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png(shade: u8) -> Vec<u8> {
        let img = GrayImage::from_pixel(8, 6, image::Luma([shade]));
        let mut out = std::io::Cursor::new(Vec::new());
        img.write_to(&mut out, image::ImageFormat::Png)
            .expect("png");
        out.into_inner()
    }

    fn result_of(source: &Path, sha: Option<String>) -> SheetResult {
        let mut r = crate::sheet::finished_sheet("merkur", Vec::new(), vec![None; 4]);
        r.source = Some(source.display().to_string());
        r.notes.source_sha256 = sha;
        r
    }

    #[test]
    fn a_file_replaced_since_it_was_read_should_show_no_crop() {
        let dir = tempfile::tempdir().expect("dir");
        let file = dir.path().join("scan0001.png");
        std::fs::write(&file, png(10)).expect("write");
        let read = result_of(&file, Some(hex_sha256(&png(10))));
        let none = |_: &str| Ok(None);
        let shown = Decoded::default()
            .page_of(&read, None, none, dir.path())
            .expect("page");
        assert_eq!(shown.image().map(|i| i.get_pixel(0, 0)[0]), Some(10));
        std::fs::write(&file, png(200)).expect("replace");
        let shown = Decoded::default()
            .page_of(&read, None, none, dir.path())
            .expect("page");
        assert!(matches!(shown, Evidence::Changed), "{shown:?}");
    }

    #[test]
    fn the_archives_bytes_should_win_over_a_file_of_the_same_name() {
        let dir = tempfile::tempdir().expect("dir");
        let file = dir.path().join("scan0001.png");
        std::fs::write(&file, png(200)).expect("write");
        let read = result_of(&file, None);
        let kept_sha = hex_sha256(&png(10));
        let kept = |sha: &str| Ok((sha == kept_sha).then(|| png(10)));
        let shown = Decoded::default()
            .page_of(&read, Some(&kept_sha), kept, dir.path())
            .expect("page");
        assert_eq!(shown.image().map(|i| i.get_pixel(0, 0)[0]), Some(10));
    }

    #[test]
    fn an_archive_that_fails_should_be_an_error_not_a_search_on_disk() {
        let dir = tempfile::tempdir().expect("dir");
        let file = dir.path().join("scan0001.png");
        std::fs::write(&file, png(10)).expect("write");
        let read = result_of(&file, Some(hex_sha256(&png(10))));
        let failing = |_: &str| {
            Err(ArchiveError::ScanRead(std::io::Error::other(
                "disk I/O error",
            )))
        };
        assert!(
            Decoded::default()
                .page_of(&read, None, failing, dir.path())
                .is_err()
        );
    }
}
