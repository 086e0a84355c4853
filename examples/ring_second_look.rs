//! Developer aid: how often the second look for a ring
//! (`cells::ring_searched`) finds the rings the first look missed, and
//! how often it finds one where none is drawn, on a set with truth. With
//! `drawn`, it prints instead every value the first look finds ringed,
//! read peeled and as drawn, beside whether a ring was drawn (tab-separated:
//! sheet, game, seat, drawn ring, value, peeled reading and confidence,
//! drawn reading and confidence), as `scan::RING_FLAGGED_DRAWN` was chosen.
//! Usage: cargo run --release --example ring_second_look -- SCANS TRUTH [drawn]

use aufsicht::{
    SheetResult, cells, page::form::FormTemplate, page::input, read::DigitReader,
    read::cnn::CnnReader, scan,
};

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().collect();
    let (Some(scans), Some(truth)) = (args.get(1), args.get(2)) else {
        return Err("usage: ring_second_look SCANS TRUTH [drawn]".into());
    };
    let mut drawn_reader = match args.get(3).map(String::as_str) {
        Some("drawn") => Some(CnnReader::new().map_err(|e| e.to_string())?),
        _ => None,
    };
    let forms = FormTemplate::builtins();
    let mut names: Vec<_> = std::fs::read_dir(scans)
        .map_err(|e| e.to_string())?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    names.sort();
    // (rings, found first, missed and found second), (no ring, found second)
    let (mut rings, mut first, mut second, mut plain, mut false_second) = (0, 0, 0, 0, 0);
    for path in names {
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        let Ok(text) = std::fs::read_to_string(format!("{truth}/{stem}.json")) else {
            continue;
        };
        let t: SheetResult = serde_json::from_str(&text).map_err(|e| e.to_string())?;
        let Some(Ok(img)) = input::load(&path).next().map(|p| p.image) else {
            continue;
        };
        let sheet = scan::locate(&img, &forms).map_err(|e| e.to_string())?;
        for g in &t.games {
            let Some(row) = sheet.form.fields.game.get(g.no as usize - 1) else {
                continue;
            };
            for (s, c) in g.cells.iter().enumerate() {
                let bx = if c.plus.is_some() {
                    row[s].plus
                } else if c.minus.is_some() {
                    row[s].minus
                } else {
                    continue;
                };
                let crop = cells::cut(sheet.page, &sheet.alignment, bx);
                let first_look = cells::analyse(&crop, true, false);
                let found = first_look.circled;
                if let Some(reader) = drawn_reader.as_mut() {
                    if let (true, Some(unpeeled)) = (found, first_look.unpeeled.as_ref()) {
                        let peeled = reader.read(&first_look.digits);
                        let drawn = reader.read(unpeeled);
                        println!(
                            "{stem}\t{}\t{}\t{}\t{}\t{}\t{:.4}\t{}\t{:.4}",
                            g.no,
                            s + 1,
                            c.circled,
                            c.plus.or(c.minus).unwrap_or(0),
                            peeled.text,
                            peeled.confidence,
                            drawn.text,
                            drawn.confidence
                        );
                    }
                    continue;
                }
                if c.circled {
                    rings += 1;
                    if found {
                        first += 1;
                    } else if cells::ring_searched(&crop) {
                        second += 1;
                        println!("{stem} row {} seat {}: found second", g.no, s + 1);
                    } else {
                        println!("{stem} row {} seat {}: missed", g.no, s + 1);
                    }
                } else if !found {
                    plain += 1;
                    if cells::ring_searched(&crop) {
                        false_second += 1;
                        println!("{stem} row {} seat {}: false ring second", g.no, s + 1);
                    }
                }
            }
        }
    }
    if drawn_reader.is_some() {
        return Ok(());
    }
    println!(
        "rings {rings}: first look {first}, second look {second} of {} missed; \
         unringed values {plain}: second look finds a ring in {false_second}",
        rings - first
    );
    Ok(())
}
