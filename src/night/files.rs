//! Files written whole: under a temporary name beside the target, then
//! renamed into place, so a kill or a full disk leaves the old file or the
//! new one, never half of one, and no temporary file behind.

use std::path::Path;

/// Writes `bytes` to `path` whole; `.part` is added to the name meanwhile.
pub fn write_whole(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".part");
    let tmp = std::path::PathBuf::from(tmp);
    let written = std::fs::write(&tmp, bytes).and_then(|()| std::fs::rename(&tmp, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_written_whole_should_replace_the_old_and_leave_nothing_else() {
        let dir = tempfile::tempdir().expect("temp");
        let path = dir.path().join("summary.csv");
        write_whole(&path, b"old").expect("first");
        write_whole(&path, b"new").expect("second");
        assert_eq!(std::fs::read(&path).expect("read"), b"new");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .expect("dir")
            .flatten()
            .collect();
        assert_eq!(names.len(), 1);
    }

    #[test]
    fn a_failed_write_should_leave_no_temporary_file() {
        let dir = tempfile::tempdir().expect("temp");
        // The target is a folder: the rename fails after the write.
        let path = dir.path().join("x.json");
        std::fs::create_dir(&path).expect("dir");
        std::fs::write(path.join("inside"), b"keep").expect("write");
        assert!(write_whole(&path, b"{}").is_err());
        assert!(!dir.path().join("x.json.part").exists());
    }
}
