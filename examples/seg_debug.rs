//! Developer aid: prints the ink components of a digit-ink PNG (as
//! `dump_cells` writes it) and writes the pieces `cnn::segment` makes of
//! them, to see where segmentation loses or joins a digit.
//! Usage: cargo run --release --example seg_debug -- INK.png OUT_PREFIX
use aufsicht::read::cnn;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().collect();
    let (Some(src), Some(out)) = (args.get(1), args.get(2)) else {
        return Err("usage: seg_debug INK.png OUT_PREFIX".into());
    };
    let ink = image::open(src).map_err(|e| e.to_string())?.to_luma8();
    println!("ink {:?}", ink.dimensions());
    let (w, h) = ink.dimensions();
    let inv = image::GrayImage::from_fn(w, h, |x, y| {
        image::Luma([if ink.get_pixel(x, y)[0] < 128 { 255 } else { 0 }])
    });
    let labels = imageproc::region_labelling::connected_components(
        &inv,
        imageproc::region_labelling::Connectivity::Eight,
        image::Luma([0u8]),
    );
    let mut boxes: std::collections::BTreeMap<u32, (u32, u32, u32, u32, u32)> = Default::default();
    for (x, y, l) in labels.enumerate_pixels() {
        if l[0] == 0 {
            continue;
        }
        let b = boxes.entry(l[0]).or_insert((x, y, x, y, 0));
        *b = (b.0.min(x), b.1.min(y), b.2.max(x), b.3.max(y), b.4 + 1);
    }
    for (l, b) in &boxes {
        println!(
            "component {l}: x {}..{} y {}..{} px {}",
            b.0, b.2, b.1, b.3, b.4
        );
    }
    for (i, p) in cnn::segment(&ink).iter().enumerate() {
        println!("piece {i}: {:?}", p.dimensions());
        p.save(format!("{out}-{i}.png"))
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}
