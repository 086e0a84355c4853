//! Developer aid: writes the digit ink of every game cell of a scan as PNG
//! (`<out>/<row>-<seat>-<plus|minus>.png`) and of the footer fields
//! (`player-`, `gesamt-`, `abzug-`, `endergebnis-<seat>`) to look at what the
//! reader sees.
//! Usage: cargo run --release --example dump_cells -- SCAN OUT_DIR

use aufsicht::{cells, page::form::FormTemplate, page::input, scan};

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().collect();
    let (Some(src), Some(out)) = (args.get(1), args.get(2)) else {
        return Err("usage: dump_cells SCAN OUT_DIR".into());
    };
    let forms = FormTemplate::builtins();
    let page = input::load(std::path::Path::new(src))
        .next()
        .ok_or("no page")?;
    let img = page.image.as_ref().map_err(|e| e.to_string())?;
    let sheet = scan::locate(img, &forms).map_err(|e| e.to_string())?;
    std::fs::create_dir_all(out).map_err(|e| e.to_string())?;
    for (i, row) in sheet.form.fields.game.iter().enumerate() {
        for (s, pm) in row.iter().enumerate() {
            for (name, bx) in [("plus", pm.plus), ("minus", pm.minus)] {
                let crop = cells::cut(sheet.page, &sheet.alignment, bx);
                let c = cells::analyse(&crop, true, false);
                if c.mark == cells::Mark::Ink {
                    let path = format!("{out}/{}-{}-{name}.png", i + 1, s + 1);
                    c.digits.save(&path).map_err(|e| e.to_string())?;
                    crop.save(format!("{out}/{}-{}-{name}-raw.png", i + 1, s + 1))
                        .map_err(|e| e.to_string())?;
                }
            }
        }
    }
    let f = &sheet.form.fields;
    let footer = [
        ("round".to_string(), f.round),
        ("table".to_string(), f.table),
    ]
    .into_iter()
    .chain(
        f.player_id
            .iter()
            .enumerate()
            .map(|(s, b)| (format!("player-{}", s + 1), *b)),
    )
    .chain(f.gesamt.iter().enumerate().flat_map(|(s, pm)| {
        [
            (format!("gesamt-{}-plus", s + 1), pm.plus),
            (format!("gesamt-{}-minus", s + 1), pm.minus),
        ]
    }))
    .chain(
        f.abzug
            .iter()
            .enumerate()
            .map(|(s, b)| (format!("abzug-{}", s + 1), *b)),
    )
    .chain(
        f.endergebnis
            .iter()
            .enumerate()
            .map(|(s, b)| (format!("endergebnis-{}", s + 1), *b)),
    );
    for (name, bx) in footer {
        let crop = cells::cut(sheet.page, &sheet.alignment, bx);
        // The Endergebnis's sign is looked for, as the pipeline does: the
        // image is its digits alone.
        let c = cells::analyse(&crop, false, name.starts_with("endergebnis"));
        c.digits
            .save(format!("{out}/{name}.png"))
            .map_err(|e| e.to_string())?;
        crop.save(format!("{out}/{name}-raw.png"))
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}
