//! Developer aid: a montage of writers drawn from the hands of many
//! sources, a row a writer, each digit twice (drawn anew each time).
//! With `pressure` last, the fonts and stroke fonts are drawn the second
//! way (`hands::pressure`).
//! Usage: cargo run --release -p aufsicht-lab --example hands_montage -- data/hands OUT.png [held-out] [WRITERS] [pressure]

use aufsicht_lab::hands::{Library, Rendering, Source, Split};
use image::{GrayImage, Luma};

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().collect();
    let (Some(dir), Some(out)) = (args.get(1), args.get(2)) else {
        return Err("usage: hands_montage HANDS_DIR OUT.png [held-out] [WRITERS]".into());
    };
    let split = match args.get(3).map(String::as_str) {
        Some("held-out") => Split::HeldOut,
        _ => Split::Training,
    };
    let writers: usize = args.get(4).and_then(|n| n.parse().ok()).unwrap_or(24);
    let sources = [Source::Font, Source::Hershey, Source::Synth];
    let rendering = if args.last().is_some_and(|a| a == "pressure") {
        Rendering::Pressure
    } else {
        Rendering::Outline
    };
    let lib = Library::load(std::path::Path::new(dir), &sources, split, None)?.rendered(rendering);
    let mut rng = aufsicht_lab::synth::rng(11);
    let mut sheet = GrayImage::from_pixel(20 * 30, writers as u32 * 30, Luma([255]));
    for row in 0..writers {
        let w = lib.writer(&mut rng);
        eprintln!("row {row}: {} {}", w.source().name(), w.family());
        for i in 0..20 {
            let g = w.glyph(i as u32 / 2, &mut rng);
            for (k, p) in g.iter().enumerate() {
                let (x, y) = (i * 30 + k % 28, row * 30 + k / 28);
                sheet.put_pixel(x as u32, y as u32, Luma([255 - p]));
            }
        }
    }
    sheet.save(out).map_err(|e| e.to_string())
}
