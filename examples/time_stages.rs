//! Developer aid: times the stages of the pipeline on one scan.
//! Usage: cargo run --release --example time_stages -- SCAN RULES

use std::time::Instant;

use aufsicht::{form::FormTemplate, input, read::TesseractReader, scan};

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().collect();
    let (Some(src), Some(rules)) = (args.get(1), args.get(2)) else {
        return Err("usage: time_stages SCAN RULES".into());
    };
    let rules = aufsicht::RuleSet::load(rules).map_err(|e| e.to_string())?;
    let forms = FormTemplate::builtins();
    let t = Instant::now();
    let pages = input::load(std::path::Path::new(src));
    let page = pages.first().ok_or("no page")?;
    let img = page.image.as_ref().map_err(|e| e.clone())?;
    eprintln!("load    {:>6.0} ms", t.elapsed().as_secs_f64() * 1e3);
    let mut cnn = aufsicht::cnn::CnnReader::new()?;
    let mut printed = TesseractReader::printed()?;
    let t = Instant::now();
    let sheet = scan::locate(img, &forms)?;
    eprintln!("locate  {:>6.0} ms", t.elapsed().as_secs_f64() * 1e3);
    // The engines start on first use; a batch reuses them.
    scan::confirm(&sheet, &mut printed);
    let t = Instant::now();
    scan::confirm(&sheet, &mut printed);
    eprintln!("confirm {:>6.0} ms", t.elapsed().as_secs_f64() * 1e3);
    let _ = scan::read_sheet(&sheet, &mut cnn, src, 1, aufsicht::Lang::En);
    let t = Instant::now();
    let (read, readings) = scan::read_sheet(&sheet, &mut cnn, src, 1, aufsicht::Lang::En);
    eprintln!("read    {:>6.0} ms", t.elapsed().as_secs_f64() * 1e3);
    let t = Instant::now();
    let decoded = aufsicht::decode::decode(read, &readings, &rules, aufsicht::Lang::En);
    let _ = aufsicht::verify(decoded, &rules, aufsicht::Lang::En);
    eprintln!("decode+verify {:>6.0} ms", t.elapsed().as_secs_f64() * 1e3);
    Ok(())
}
