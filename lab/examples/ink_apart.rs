//! Every written value's ink against its sheet's writing, as the
//! `INK_DIFFERS` check measures it, beside whether the generator put a
//! later edit there: one line a value (CSV), to set the check's bounds.
//!
//! `cargo run --release -p aufsicht-lab --example ink_apart -- SET...`
//! (each SET a folder `generate --later-edits` wrote: `scans/`, `truth/`).

use std::path::Path;

use aufsicht::page::form::FormTemplate;
use aufsicht::page::input;
use aufsicht::scan::{locate, value_inks};
use aufsicht::sheet::SheetResult;

fn main() -> Result<(), String> {
    let forms = FormTemplate::builtins();
    println!("set,sheet,row,seat,field,edit,colour,darkness,width,colour_px");
    for set in std::env::args().skip(1) {
        let truths = Path::new(&set).join("truth");
        let mut names: Vec<_> = std::fs::read_dir(&truths)
            .map_err(|e| format!("{set}: {e}"))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        names.sort();
        for truth_path in names {
            let truth = SheetResult::from_path(&truth_path).map_err(|e| e.to_string())?;
            let Some(source) = truth.source.clone() else {
                continue;
            };
            let Some(page) = input::load(Path::new(&source)).next() else {
                continue;
            };
            let Ok(grey) = &page.image else { continue };
            let Ok(aligned) = locate(grey, &forms) else {
                continue;
            };
            let edit = truth.extra.get("later_edit");
            for v in value_inks(&truth, &aligned, page.chroma.as_ref()) {
                let (row, seat, field) = v.field.locator();
                let edited = edit.is_some_and(|e| {
                    row.map(u64::from) == e["row"].as_u64()
                        && seat.map(|s| s as u64) == e["seat"].as_u64()
                        && Some(field) == e["field"].as_str()
                });
                let stem = truth_path.file_stem().unwrap_or_default().to_string_lossy();
                println!(
                    "{set},{stem},{},{},{field},{},{:.3},{:.3},{:.3},{}",
                    row.map_or(String::new(), |r| r.to_string()),
                    seat.unwrap_or(0),
                    u8::from(edited),
                    v.apart.colour,
                    v.apart.darkness,
                    v.apart.width,
                    v.apart.colour_px
                );
            }
        }
    }
    Ok(())
}
