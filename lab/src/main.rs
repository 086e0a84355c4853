//! `aufsicht-lab`: the lab's commands (see `aufsicht_lab::cli`).

use std::process::ExitCode;

fn main() -> ExitCode {
    aufsicht::read::limit_openmp_threads();
    match aufsicht_lab::cli::run(std::env::args_os()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => match e.downcast_ref::<clap::Error>() {
            // Help, version and usage errors print as clap prints them.
            Some(usage) => usage.exit(),
            None => {
                eprintln!("aufsicht-lab: {e:#}");
                ExitCode::from(2)
            }
        },
    }
}
