//! Files written whole: into a temporary file of its own beside the
//! target, synced to the disk, then renamed into place, so a kill, a power
//! cut or a full disk leaves the old file or the new one, never half of
//! one, and no temporary file behind; two writers never share one.

use std::io::Write;
use std::path::Path;

/// Writes `bytes` to `path` whole.
pub fn write_whole(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut tmp = temp_beside(path)?;
    tmp.write_all(bytes)?;
    persist_synced(tmp, path)
}

/// A new temporary file in `path`'s folder (removed unless persisted).
pub fn temp_beside(path: &Path) -> std::io::Result<tempfile::NamedTempFile> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    temp_named(dir, &format!(".{name}."))
}

/// A new temporary file in `dir`, for bytes whose name is not known yet
/// (removed unless persisted).
pub fn temp_in(dir: &Path) -> std::io::Result<tempfile::NamedTempFile> {
    temp_named(dir, ".upload.")
}

fn temp_named(dir: &Path, prefix: &str) -> std::io::Result<tempfile::NamedTempFile> {
    let mut builder = tempfile::Builder::new();
    builder.prefix(prefix).suffix(".part");
    // As any file a program makes: what the user's umask allows, not the
    // temporary file's private 0600 (a result or a PDF is to be shared).
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    builder.tempfile_in(dir)
}

/// `tmp` synced to the disk and renamed to `path`.
pub fn persist_synced(tmp: tempfile::NamedTempFile, path: &Path) -> std::io::Result<()> {
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
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

    #[cfg(unix)]
    #[test]
    fn a_file_written_whole_should_get_the_permissions_any_new_file_gets() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("temp");
        let plain = dir.path().join("plain.csv");
        std::fs::write(&plain, b"x").expect("write");
        let whole = dir.path().join("whole.json");
        write_whole(&whole, b"{}").expect("write whole");
        let mode = |p: &Path| std::fs::metadata(p).expect("meta").permissions().mode() & 0o777;
        assert_eq!(mode(&whole), mode(&plain), "the umask's, as for any file");
    }

    #[test]
    fn a_failed_write_should_leave_no_temporary_file() {
        let dir = tempfile::tempdir().expect("temp");
        // The target is a folder: the rename fails after the write.
        let path = dir.path().join("x.json");
        std::fs::create_dir(&path).expect("dir");
        std::fs::write(path.join("inside"), b"keep").expect("write");
        assert!(write_whole(&path, b"{}").is_err());
        let left: Vec<_> = std::fs::read_dir(dir.path())
            .expect("dir")
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert_eq!(left, ["x.json"], "no temporary file left");
    }
}
