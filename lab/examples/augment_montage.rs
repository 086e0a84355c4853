//! Developer aid: a montage of augmented training digits (what the model learns from).
//! Usage: cargo run --release --example augment_montage -- data/mnist OUT.png [bent]
//! (`bent`: every other digit bent first, as `train-digits --bent` does).

use image::{GrayImage, Luma};

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().collect();
    let (Some(dir), Some(out)) = (args.get(1), args.get(2)) else {
        return Err("usage: augment_montage MNIST_DIR OUT.png".into());
    };
    let digits = aufsicht_lab::synth::Digits::from_dir(std::path::Path::new(dir))?;
    let mut rng = aufsicht_lab::synth::rng(3);
    let bent = args.get(3).is_some_and(|a| a == "bent");
    let mut sheet = GrayImage::from_pixel(20 * 30, 10 * 30, Luma([128]));
    for i in 0..200 {
        let (img, label) = digits.get(i);
        let bent_img;
        let img = if bent && i % 2 == 1 {
            bent_img = aufsicht_lab::training::bend(img, &mut rng);
            &bent_img
        } else {
            img
        };
        let v =
            aufsicht::read::cnn::normalise(&aufsicht_lab::training::augment(img, label, &mut rng));
        for (k, p) in v.iter().enumerate() {
            let (x, y) = ((i % 20) * 30 + k % 28, (i / 20) * 30 + k / 28);
            sheet.put_pixel(x as u32, y as u32, Luma([255 - (p * 255.0) as u8]));
        }
    }
    sheet.save(out).map_err(|e| e.to_string())
}
