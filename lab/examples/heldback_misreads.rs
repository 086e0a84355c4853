//! Developer aid: reads the MNIST training digits the model's training
//! held back (the last 5000, which every evaluation set is drawn from),
//! each alone on a white cell drawn as the generator draws it, with the
//! committed first net (or MODEL; with several, their mean reading, as
//! the second opinion weighs two nets), and prints every one read wrong
//! (index, label, reading, confidence) and the count per digit. With `--png OUT`, it also draws the ones read
//! at `--sure` (default 0.8) or more side by side, to look at.
//! Usage: heldback_misreads [MODEL ...] [--png OUT] [--sure P]

use aufsicht::read::cnn::CnnReader;
use aufsicht::read::{DigitReader, Reading};
use aufsicht_lab::synth::Digits;
use image::{GrayImage, Luma};

const HELD_BACK: usize = 5000;
/// A digit's 28 px drawn at 70, as 20 px of writing make a 50 px high
/// number in a cell at 300 dpi.
const SIDE: u32 = 70;
/// White around it, as a cell's ink has room around it.
const PAD: u32 = 16;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let option = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
    };
    let sure: f32 = option("--sure")
        .map_or(Ok(0.8), |s| s.parse())
        .map_err(|e| format!("--sure: {e}"))?;
    // The models: every argument before the first option.
    let models: Vec<&String> = args.iter().take_while(|a| !a.starts_with("--")).collect();
    let mut readers = Vec::new();
    for m in &models {
        let bytes = std::fs::read(m).map_err(|e| format!("{m}: {e}"))?;
        readers.push(CnnReader::from_bytes(bytes).map_err(|e| e.to_string())?);
    }
    if readers.is_empty() {
        readers.push(CnnReader::new().map_err(|e| e.to_string())?);
    }
    let digits = Digits::from_dir(std::path::Path::new("data/mnist"))?;
    // As the generator draws a digit (`synth::paste_digit`): scaled up
    // smoothly to a cell's writing height, a stroke's faint edge solid ink.
    let cell = |i: usize| {
        let (img, _) = digits.get(i);
        let src = GrayImage::from_fn(28, 28, |x, y| Luma([img[(y * 28 + x) as usize]]));
        let big = image::imageops::resize(&src, SIDE, SIDE, image::imageops::FilterType::Triangle);
        let mut g = GrayImage::from_pixel(SIDE + 2 * PAD, SIDE + 2 * PAD, Luma([255]));
        for (x, y, p) in big.enumerate_pixels() {
            let ink = (f32::from(p[0]) / 170.0).min(1.0);
            g.put_pixel(x + PAD, y + PAD, Luma([255 - (ink * 255.0) as u8]));
        }
        g
    };
    let (mut wrong, mut all) = ([0u32; 10], [0u32; 10]);
    let mut sure_wrong = Vec::new();
    for i in digits.len().saturating_sub(HELD_BACK)..digits.len() {
        let (_, label) = digits.get(i);
        let ink = cell(i);
        let all_read: Vec<_> = readers.iter_mut().map(|r| r.read(&ink)).collect();
        let r = Reading::mean(&all_read);
        all[usize::from(label)] += 1;
        if r.text != label.to_string() {
            wrong[usize::from(label)] += 1;
            println!("{i}\t{label}\t{}\t{:.3}", r.text, r.confidence);
            if r.confidence >= sure {
                sure_wrong.push(i);
            }
        }
    }
    println!("read wrong, per digit 0-9: {wrong:?} of {all:?}");
    println!(
        "read wrong: {} of {}, at {sure} or more: {}",
        wrong.iter().sum::<u32>(),
        all.iter().sum::<u32>(),
        sure_wrong.len()
    );
    if let Some(out) = option("--png") {
        let side = SIDE + 2 * PAD;
        let mut sheet =
            GrayImage::from_pixel(side * sure_wrong.len().max(1) as u32, side, Luma([255]));
        for (k, &i) in sure_wrong.iter().enumerate() {
            image::imageops::replace(&mut sheet, &cell(i), i64::from(side) * k as i64, 0);
        }
        sheet.save(out).map_err(|e| e.to_string())?;
    }
    Ok(())
}
