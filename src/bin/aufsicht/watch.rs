//! `scan --watch DIR`: each file is read as the scanner drops it into the
//! folder (`night::batch::run`), so the results are ready when the last
//! sheet leaves the scanner. Ctrl-C stops after the files in hand (each
//! result is written whole or not at all); a second Ctrl-C stops at once.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use aufsicht::Lang;
use aufsicht::catalogue::say;
use aufsicht::night::batch::FileDone;
use aufsicht::night::batch::run::Progress;

/// `scan` (given the stop flag Ctrl-C sets and what shows its progress)
/// run over the watched folder `dir`, each file said as it is read.
pub fn watch<T>(
    dir: &Path,
    out: &Path,
    lang: Lang,
    scan: impl FnOnce(&AtomicBool, &(dyn Fn(Progress) + Sync)) -> T,
) -> T {
    let stop = Arc::new(AtomicBool::new(false));
    // Ctrl-C stops gently once the folder is watched; before (waiting for
    // another run's folder, opening the archive) it ends the run at once.
    let stop_on_ctrl_c = || {
        let flag = stop.clone();
        ctrlc::set_handler(move || {
            if flag.swap(true, Ordering::SeqCst) {
                std::process::exit(130);
            }
            eprintln!("aufsicht: {}", say(lang, "watch-stopping", &[]));
        })
    };
    let show = |p: Progress| match p {
        Progress::Waiting => crate::common::waiting(out, lang),
        Progress::Watching => {
            if let Err(e) = stop_on_ctrl_c() {
                eprintln!("aufsicht: {e}");
            }
            let said = say(lang, "watch-start", &[("path", &dir.display())]);
            eprintln!("aufsicht: {said}");
        }
        Progress::PassedOver(path, why) => crate::common::passed_over(path, why, lang),
        Progress::Done(d) => tell_done(d, lang),
        Progress::Failed(file, why) => eprintln!("aufsicht: {}: {why}", file.display()),
        Progress::Found(_) => {}
    };
    scan(&stop, &show)
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
