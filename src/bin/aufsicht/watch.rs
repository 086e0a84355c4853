//! `scan --watch DIR`: each file is read as the scanner drops it into the
//! folder (`night::batch::run::watch`), so the results are ready when the
//! last sheet leaves the scanner. Ctrl-C stops after the files in hand
//! (each result is written whole or not at all); a second Ctrl-C stops at
//! once.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::Result;

use aufsicht::Lang;
use aufsicht::catalogue::say;
use aufsicht::night::batch::{Batch, FileDone};
use aufsicht::night::batch::run::{self, Read};

use crate::common::Told;

pub fn watch(batch: &Batch, dir: &Path, out: &Path, lang: Lang) -> Result<Read> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        eprintln!("aufsicht: {}", say(lang, "watch-stopping", &[]));
    })?;
    eprintln!(
        "aufsicht: {}",
        say(lang, "watch-start", &[("path", &dir.display())])
    );
    let passed = |path: &Path, why: &aufsicht::page::input::PassedOver| {
        eprintln!("aufsicht: {}: {}", path.display(), why.text(lang));
    };
    run::watch(batch, dir, out, &stop, &passed, &|d| tell_done(d, lang)).told(lang)
}

fn tell_done(d: &FileDone, lang: Lang) {
    let flagged = d.flagged();
    let file = d.file.display();
    let args: [(&str, &dyn std::fmt::Display); 3] = [
        ("file", &file),
        ("sheets", &d.sheets.len()),
        ("flagged", &flagged),
    ];
    eprintln!("aufsicht: {}", say(lang, "watch-file", &args));
}
