//! Developer aid: how well the footer fields' reading probabilities are
//! calibrated. Reads every sheet of a set with truth (as `evaluate` does,
//! before decoding) and prints, per confidence bin, how often the reading
//! and its alternatives are the written value.
//! With `--games`, the game cells instead, and the sure readings' error
//! rate by how sure (the doubt of a sure reading rests on it).
//! Usage: footer_calibration [--games] SET_DIR... (each with scans/ and truth/)
use aufsicht::decode::Field;
use aufsicht::{Lang, page::form::FormTemplate, page::input, read::cnn::CnnReader, scan};

fn main() -> Result<(), String> {
    let forms = FormTemplate::builtins();
    let mut reader = CnnReader::new().map_err(|e| e.to_string())?;
    // Per bin of a tenth: count, right, summed probability; for the best
    // reading and for the alternatives apart.
    let mut best = [(0u32, 0u32, 0f64); 10];
    let mut alts = [(0u32, 0u32, 0f64); 10];
    let mut unlisted = (0u32, 0u32);
    // Sure readings: at least 0.99, 0.999, 0.9999: count, wrong.
    let mut sure = [(0u32, 0u32); 3];
    let games = std::env::args().any(|a| a == "--games");
    for dir in std::env::args().skip(1).filter(|a| a != "--games") {
        let mut scans: Vec<_> = std::fs::read_dir(format!("{dir}/scans"))
            .map_err(|e| e.to_string())?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        scans.sort();
        for path in scans {
            let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
            let truth: serde_json::Value = serde_json::from_str(
                &std::fs::read_to_string(format!("{dir}/truth/{stem}.json"))
                    .map_err(|e| e.to_string())?,
            )
            .map_err(|e| e.to_string())?;
            let Some(Ok(img)) = input::load(&path).next().map(|p| p.image) else {
                continue;
            };
            let Ok(sheet) = scan::locate(&img, &forms) else {
                continue;
            };
            let (_, readings) = scan::read_sheet(&sheet, &mut reader, stem, 1, Lang::De);
            let game = |no: u32, s: usize, minus: bool| {
                truth["games"]
                    .as_array()
                    .and_then(|g| g.iter().find(|g| g["no"] == no))
                    .map_or(&serde_json::Value::Null, |g| {
                        &g["cells"][s - 1][if minus { "minus" } else { "plus" }]
                    })
            };
            for f in &readings.fields {
                let written = match f.field {
                    Field::Game(no, s, minus) if games => game(no, s, minus),
                    _ if games => continue,
                    Field::Gesamt(s, minus) => {
                        &truth["gesamt"][s - 1][if minus { "minus" } else { "plus" }]
                    }
                    Field::Abzug(s) => &truth["abzug"][s - 1],
                    Field::Endergebnis(s) => &truth["endergebnis"][s - 1],
                    _ => continue,
                };
                let Some(v) = written.as_i64() else { continue };
                let v = v.abs().to_string();
                let r = &f.reading;
                let b = &mut best[bin(r.confidence)];
                *b = (
                    b.0 + 1,
                    b.1 + u32::from(r.text == v),
                    b.2 + f64::from(r.confidence),
                );
                let mut listed = r.text == v;
                for (t, p) in &r.alternatives {
                    let a = &mut alts[bin(*p)];
                    *a = (a.0 + 1, a.1 + u32::from(*t == v), a.2 + f64::from(*p));
                    listed |= *t == v;
                }
                unlisted = (unlisted.0 + 1, unlisted.1 + u32::from(!listed));
                for (i, bar) in [0.99f32, 0.999, 0.9999].into_iter().enumerate() {
                    if r.confidence >= bar {
                        sure[i] = (sure[i].0 + 1, sure[i].1 + u32::from(r.text != v));
                    }
                }
            }
        }
    }
    for (name, bins) in [("best reading", best), ("alternatives", alts)] {
        println!("{name}: bin, count, right, mean probability");
        for (i, (n, k, p)) in bins.iter().enumerate() {
            if *n > 0 {
                println!(
                    "  {:.1}-{:.1}: {n:6} {k:6} ({:.3})  {:.3}",
                    i as f64 / 10.0,
                    (i + 1) as f64 / 10.0,
                    f64::from(*k) / f64::from(*n),
                    p / f64::from(*n)
                );
            }
        }
    }
    println!(
        "written value neither read nor listed: {} of {}",
        unlisted.1, unlisted.0
    );
    for (bar, (n, wrong)) in ["0.99", "0.999", "0.9999"].iter().zip(sure) {
        println!("read at {bar} or more: {n}, wrong {wrong}");
    }
    Ok(())
}

/// A probability's bin of a tenth.
fn bin(p: f32) -> usize {
    ((p * 10.0) as usize).min(9)
}
