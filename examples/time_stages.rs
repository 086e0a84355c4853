//! Developer aid: times the stages of the pipeline on one scan.
//! Usage: cargo run --release --example time_stages -- SCAN RULES

use std::time::Instant;

use aufsicht::{page::form::FormTemplate, page::input, scan};

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().collect();
    let (Some(src), Some(rules)) = (args.get(1), args.get(2)) else {
        return Err("usage: time_stages SCAN RULES".into());
    };
    let rules = aufsicht::RuleSet::load(rules).map_err(|e| e.to_string())?;
    let forms = FormTemplate::builtins();
    let t = Instant::now();
    let page = input::load(std::path::Path::new(src))
        .next()
        .ok_or("no page")?;
    let img = page.image.as_ref().map_err(|e| e.to_string())?;
    eprintln!("load    {:>6.0} ms", t.elapsed().as_secs_f64() * 1e3);
    let mut cnn = aufsicht::read::cnn::CnnReader::new().map_err(|e| e.to_string())?;
    let mut printed = aufsicht::read::print_reader().map_err(|e| e.to_string())?;
    let t = Instant::now();
    let prep = aufsicht::page::align::prepare(img);
    eprintln!("  prepare {:>6.0} ms", t.elapsed().as_secs_f64() * 1e3);
    for f in &forms {
        let t = Instant::now();
        let _ = aufsicht::page::align::align(&prep, f);
        eprintln!(
            "  align {} {:>6.0} ms",
            f.id,
            t.elapsed().as_secs_f64() * 1e3
        );
    }
    let t = Instant::now();
    let sheet = scan::locate(img, &forms).map_err(|e| e.to_string())?;
    eprintln!("locate  {:>6.0} ms", t.elapsed().as_secs_f64() * 1e3);
    // The engines start on first use; a batch reuses them.
    scan::confirm(&sheet, printed.as_mut());
    let t = Instant::now();
    let c = scan::confirm(&sheet, printed.as_mut());
    eprintln!("{c:?}");
    eprintln!("confirm {:>6.0} ms", t.elapsed().as_secs_f64() * 1e3);
    let _ = scan::read_sheet(&sheet, &mut cnn, src, 1, aufsicht::Lang::En);
    let t = Instant::now();
    let (read, readings) = scan::read_sheet(&sheet, &mut cnn, src, 1, aufsicht::Lang::En);
    eprintln!("read    {:>6.0} ms", t.elapsed().as_secs_f64() * 1e3);
    let t = Instant::now();
    let n = cells_only(&sheet);
    eprintln!(
        "  of which cutting {n} game cells {:>6.0} ms",
        t.elapsed().as_secs_f64() * 1e3
    );
    let inked = inked_cells(&sheet);
    let images: Vec<&image::GrayImage> = inked.iter().collect();
    let t = Instant::now();
    use aufsicht::read::DigitReader;
    let _ = cnn.read_batch(&images);
    eprintln!(
        "  of which reading {} cells' digits {:>6.0} ms",
        images.len(),
        t.elapsed().as_secs_f64() * 1e3
    );
    let pieces: Vec<image::GrayImage> = inked
        .iter()
        .flat_map(aufsicht::read::cnn::segment)
        .collect();
    let ways: Vec<usize> = pieces
        .iter()
        .map(|p| aufsicht::read::cnn::splits(p, aufsicht::read::cnn::Cuts::AlongPathToo).len())
        .collect();
    eprintln!(
        "    {} pieces, {} with split hypotheses",
        pieces.len(),
        ways.iter().filter(|&&w| w > 1).count()
    );
    let t = Instant::now();
    let inputs: Vec<Vec<f32>> = inked
        .iter()
        .flat_map(aufsicht::read::cnn::segment)
        .flat_map(|p| aufsicht::read::cnn::splits(&p, aufsicht::read::cnn::Cuts::AlongPathToo))
        .flat_map(|(parts, _)| parts)
        .map(|p| aufsicht::read::cnn::normalise(&p))
        .collect();
    eprintln!(
        "    segmenting into {} inputs {:>6.0} ms",
        inputs.len(),
        t.elapsed().as_secs_f64() * 1e3
    );
    let t = Instant::now();
    let _ = cnn.classify(&inputs);
    eprintln!(
        "    the net on them {:>6.0} ms",
        t.elapsed().as_secs_f64() * 1e3
    );
    let t = Instant::now();
    let decoded = aufsicht::decode::decode(read, &readings, &rules, aufsicht::Lang::En);
    let _ = aufsicht::verify(decoded, &rules, aufsicht::Lang::En);
    eprintln!("decode+verify {:>6.0} ms", t.elapsed().as_secs_f64() * 1e3);
    Ok(())
}

/// The digits of every game cell with ink.
fn inked_cells(sheet: &scan::AlignedSheet) -> Vec<image::GrayImage> {
    let mut out = Vec::new();
    for row in &sheet.form.fields.game {
        for pm in row {
            for bx in [pm.plus, pm.minus] {
                let crop = aufsicht::cells::cut(sheet.page, &sheet.alignment, bx);
                let c = aufsicht::cells::analyse(&crop, true, false);
                if c.mark == aufsicht::cells::Mark::Ink {
                    out.push(c.digits);
                }
            }
        }
    }
    out
}

/// Cutting and analysing every game cell, without reading.
fn cells_only(sheet: &scan::AlignedSheet) -> usize {
    let t = Instant::now();
    let mut crops = Vec::new();
    for row in &sheet.form.fields.game {
        for pm in row {
            for bx in [pm.plus, pm.minus] {
                if !aufsicht::cells::looks_blank(sheet.page, &sheet.alignment, bx) {
                    crops.push(aufsicht::cells::cut(sheet.page, &sheet.alignment, bx));
                }
            }
        }
    }
    eprintln!(
        "    looking at 256 boxes, cutting {} {:>6.0} ms",
        crops.len(),
        t.elapsed().as_secs_f64() * 1e3
    );
    let t = Instant::now();
    for c in &crops {
        let _ = aufsicht::cells::analyse(c, true, false);
    }
    eprintln!(
        "    analysing them {:>6.0} ms",
        t.elapsed().as_secs_f64() * 1e3
    );
    let mut ink = 0;
    for row in &sheet.form.fields.game {
        for pm in row {
            for bx in [pm.plus, pm.minus] {
                let crop = aufsicht::cells::cut(sheet.page, &sheet.alignment, bx);
                let c = aufsicht::cells::analyse(&crop, true, false);
                ink += usize::from(c.mark == aufsicht::cells::Mark::Ink);
            }
        }
    }
    ink
}
