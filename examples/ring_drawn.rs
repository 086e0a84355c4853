//! Developer aid: every value the first look finds ringed, read peeled and
//! as drawn, beside whether a ring was drawn (truth).
//! Usage: cargo run --release --example ring_drawn -- SCANS TRUTH

use aufsicht::{
    SheetResult, cells, cnn::CnnReader, form::FormTemplate, input, read::DigitReader, scan,
};

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().collect();
    let (Some(scans), Some(truth)) = (args.get(1), args.get(2)) else {
        return Err("usage: ring_drawn SCANS TRUTH".into());
    };
    let forms = FormTemplate::builtins();
    let mut reader = CnnReader::new()?;
    let mut names: Vec<_> = std::fs::read_dir(scans)
        .map_err(|e| e.to_string())?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    names.sort();
    for path in names {
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        let Ok(text) = std::fs::read_to_string(format!("{truth}/{stem}.json")) else {
            continue;
        };
        let t: SheetResult = serde_json::from_str(&text).map_err(|e| e.to_string())?;
        let pages = input::load(&path);
        let Some(Ok(img)) = pages.first().map(|p| p.image.as_ref()) else {
            continue;
        };
        let sheet = scan::locate(img, &forms)?;
        for g in &t.games {
            let Some(row) = sheet.form.fields.game.get(g.no as usize - 1) else {
                continue;
            };
            for (s, c) in g.cells.iter().enumerate() {
                let (bx, v) = match (c.plus, c.minus) {
                    (Some(v), _) => (row[s].plus, v),
                    (_, Some(v)) => (row[s].minus, v),
                    _ => continue,
                };
                let crop = cells::cut(sheet.page, &sheet.alignment, bx);
                let a = cells::analyse(&crop, true, false);
                if !a.circled {
                    continue;
                }
                let peeled = reader.read(&a.digits);
                let drawn = a.unpeeled.as_ref().map(|u| reader.read(u));
                let (dt, dc) = drawn.map_or((String::new(), 0.0), |d| (d.text, d.confidence));
                println!(
                    "{stem}\t{}\t{}\t{}\t{v}\t{}\t{:.4}\t{}\t{:.4}",
                    g.no,
                    s + 1,
                    c.circled,
                    peeled.text,
                    peeled.confidence,
                    dt,
                    dc
                );
            }
        }
    }
    Ok(())
}
