//! `scan --watch DIR`: each file is read as the scanner drops it into the
//! folder, so the results are ready when the last sheet leaves the
//! scanner. Ctrl-C stops after the files in hand (each result is written
//! whole or not at all); a second Ctrl-C stops at once.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, SystemTime};

use anyhow::Result;

use aufsicht::Lang;
use aufsicht::catalogue::say;
use aufsicht::night::batch::{Batch, FileDone};
use aufsicht::page::input;

use crate::common::Told;
use crate::scan::Read;

/// How often the folder is looked at; a file is read once it has kept its
/// size over one look (the scanner has finished writing it).
const POLL: Duration = Duration::from_millis(400);

/// Size and time of last change of a file, as last seen.
type Seen = HashMap<PathBuf, (u64, Option<SystemTime>)>;

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
    let mut read = Read {
        jobs: Vec::new(),
        outcomes: Vec::new(),
        passed_over: Vec::new(),
    };
    let (mut seen, mut done, mut told) = (Seen::new(), HashSet::new(), HashSet::new());
    let at_once = rayon::current_num_threads().max(1);
    while !stop.load(Ordering::SeqCst) {
        let found = input::collect(&[dir.to_path_buf()]);
        for (path, why) in found.passed_over {
            if told.insert(path.clone()) {
                eprintln!("aufsicht: {}: {}", path.display(), why.text(lang));
                read.passed_over.push((path, why));
            }
        }
        let ready: Vec<PathBuf> = found
            .files
            .into_iter()
            .filter(|f| !done.contains(f) && settled(f, &mut seen))
            .collect();
        // A few at a time, so that Ctrl-C waits for little.
        for files in ready.chunks(at_once) {
            if stop.load(Ordering::SeqCst) {
                break;
            }
            let jobs = aufsicht::night::result_names::name_beside(files, out);
            let outcomes = batch.run(&jobs, &|d| tell_done(d, lang)).told(lang)?;
            done.extend(files.iter().cloned());
            read.jobs.extend(jobs);
            read.outcomes.extend(outcomes);
        }
        pause(&stop);
    }
    Ok(read)
}

/// Whether `file` has kept its size and time since the last look, and
/// has something in it.
fn settled(file: &Path, seen: &mut Seen) -> bool {
    let Ok(meta) = std::fs::metadata(file) else {
        return false;
    };
    let now = (meta.len(), meta.modified().ok());
    let before = seen.insert(file.to_path_buf(), now);
    now.0 > 0 && before == Some(now)
}

/// Waits one look's time, or less where Ctrl-C comes.
fn pause(stop: &AtomicBool) {
    let step = Duration::from_millis(50);
    let mut waited = Duration::ZERO;
    while waited < POLL && !stop.load(Ordering::SeqCst) {
        std::thread::sleep(step);
        waited += step;
    }
}

fn tell_done(d: &FileDone, lang: Lang) {
    let flagged = d
        .sheets
        .iter()
        .filter(|s| s.status != aufsicht::Status::Ok)
        .count();
    let file = d.file.display();
    let args: [(&str, &dyn std::fmt::Display); 3] = [
        ("file", &file),
        ("sheets", &d.sheets.len()),
        ("flagged", &flagged),
    ];
    eprintln!("aufsicht: {}", say(lang, "watch-file", &args));
}
