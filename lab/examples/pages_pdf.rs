//! Developer aid: scans put together into one PDF, a page each, as a
//! scanner's feeder writes a night (to time what reads a PDF's pages).
//! Usage: cargo run --release -p aufsicht-lab --example pages_pdf -- DPI OUT.pdf SCAN...

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dpi, out, scans @ ..] = args.as_slice() else {
        return Err("usage: pages_pdf DPI OUT.pdf SCAN...".into());
    };
    let dpi: f64 = dpi
        .parse()
        .map_err(|_| format!("{dpi}: not a resolution"))?;
    let pages: Vec<image::GrayImage> = scans
        .iter()
        .map(|s| {
            image::open(s)
                .map(|i| i.to_luma8())
                .map_err(|e| format!("{s}: {e}"))
        })
        .collect::<Result<_, _>>()?;
    std::fs::write(out, aufsicht::page::render::pdf_of_pages(&pages, dpi))
        .map_err(|e| e.to_string())
}
