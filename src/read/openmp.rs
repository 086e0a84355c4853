//! Tesseract's OpenMP threads, limited before the process starts.

/// Tesseract's OpenMP reads `OMP_THREAD_LIMIT` when the process starts, not
/// later: without it, each call is ten times slower. A program that reads
/// with Tesseract calls this first: it replaces itself (same pid, so a kill
/// or Ctrl-C reaches the one process that works) with a copy started with
/// the limit set. A build without Tesseract, or off Unix, has nothing to limit.
#[cfg(all(unix, feature = "tesseract"))]
pub fn limit_openmp_threads() {
    use std::os::unix::process::CommandExt;
    if std::env::var_os("OMP_THREAD_LIMIT").is_some() {
        return;
    }
    if let Ok(exe) = std::env::current_exe() {
        // `exec` returns only when it fails; then the program runs on, slower.
        let _failed = std::process::Command::new(exe)
            .args(std::env::args_os().skip(1))
            .env("OMP_THREAD_LIMIT", "1")
            .exec();
    }
}

#[cfg(not(all(unix, feature = "tesseract")))]
pub fn limit_openmp_threads() {}
