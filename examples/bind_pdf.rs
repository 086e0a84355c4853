//! Developer aid: binds page images into one PDF, as a scanner delivers a
//! night's pile (lossless grey pages), to time and measure `scan` on it.
//! Usage: cargo run --release --example bind_pdf -- OUT.pdf DPI IMAGE...

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [out, dpi, images @ ..] = args.as_slice() else {
        return Err("usage: bind_pdf OUT.pdf DPI IMAGE...".into());
    };
    let dpi: f64 = dpi.parse().map_err(|e| format!("DPI {dpi}: {e}"))?;
    let mut pdf = aufsicht::page::render::PdfPages::new();
    for path in images {
        let page = image::open(path).map_err(|e| format!("{path}: {e}"))?;
        pdf.add(&page.to_luma8(), dpi);
    }
    std::fs::write(out, pdf.finish()).map_err(|e| format!("{out}: {e}"))?;
    println!("{out}: {} pages", images.len());
    Ok(())
}
