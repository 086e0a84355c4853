//! Developer aid: reads digit-ink PNGs (as `dump_cells` writes them) with
//! the committed first net and with the second net, and prints both
//! readings.
//! Usage: cargo run --release --example read_ink -- INK.png...

use aufsicht::{read::DigitReader, read::cnn::CnnReader};

fn main() -> Result<(), String> {
    let mut reader = CnnReader::new().map_err(|e| e.to_string())?;
    for path in std::env::args().skip(1) {
        let ink = image::open(&path).map_err(|e| e.to_string())?.to_luma8();
        let first = reader.read(&ink);
        let second = reader.second_opinion(&[&ink]).and_then(|mut r| r.pop());
        println!("{path}\n  first  {first:?}\n  second {second:?}");
    }
    Ok(())
}
