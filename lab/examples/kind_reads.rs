//! Developer aid: how the digit reader reads each failure kind's digit
//! (`hands::kinds`), alone, as a writer of each Hershey family writes it.
//! Usage: kind_reads [training|held-out] [N]

use std::collections::BTreeMap;

use aufsicht::read::DigitReader;
use aufsicht_lab::hands::{Library, Source, Split};
use image::{GrayImage, Luma};

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let split = match args.first().map(String::as_str) {
        Some("held-out") => Split::HeldOut,
        _ => Split::Training,
    };
    let n: usize = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(200);
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/hands");
    let lib = Library::load(&root, &[Source::Kinds], split, None)?;
    let mut reader = aufsicht::read::cnn::CnnReader::new().map_err(|e| format!("{e:?}"))?;
    let mut seen: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
    for i in 0..n {
        let mut rng = aufsicht_lab::synth::rng(i as u64);
        let w = lib.writer(&mut rng);
        let d = if w.family().ends_with("flat-three") {
            3
        } else {
            1
        };
        let g = w.glyph(d, &mut rng);
        let img = GrayImage::from_fn(28, 28, |x, y| Luma([255 - g[(y * 28 + x) as usize]]));
        let r = reader.read(&img);
        *seen
            .entry(w.family().to_string())
            .or_default()
            .entry(r.text)
            .or_default() += 1;
    }
    for (family, reads) in seen {
        println!("{family}: {reads:?}");
    }
    Ok(())
}
