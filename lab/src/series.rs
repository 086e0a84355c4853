//! Venues' archives for measuring and testing a series: a night's sheets
//! stored each with a scan of its own (bytes of no image, no two alike).

use std::path::Path;

use anyhow::Result;

use aufsicht::night::club::archive::{Archive, sha256_file};
use aufsicht::sheet::SheetResult;

/// Stores `sheets` into night `night` of `archive`, each with a scan of
/// `kb` kilobytes written into `scans` (made if missing); `seed` makes
/// this archive's scans its own.
pub fn store_with_scans(
    archive: &mut Archive,
    night: i64,
    scans: &Path,
    sheets: Vec<SheetResult>,
    (seed, kb): (u64, usize),
) -> Result<()> {
    std::fs::create_dir_all(scans)?;
    for (i, sheet) in sheets.into_iter().enumerate() {
        let scan = scans.join(format!("{i}.png"));
        std::fs::write(&scan, noise(seed * 100_000 + i as u64, kb * 1024))?;
        let sha = sha256_file(&scan)?;
        archive
            .store_file(night, &sha, Some(&scan), &[(format!("{i}.json"), sheet)])
            .map_err(|e| anyhow::anyhow!("{e}"))?;
    }
    Ok(())
}

/// `len` bytes from `seed` (xorshift).
pub fn noise(seed: u64, len: usize) -> Vec<u8> {
    let mut x = seed.wrapping_mul(6364136223846793005) | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}
