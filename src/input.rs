//! The scan stage: files in, page images out. Images (PNG, JPEG, TIFF incl.
//! 1-bit and CCITT G4) and PDFs (one sheet per page, the page's image).

use std::path::{Path, PathBuf};

use image::{DynamicImage, GrayImage, ImageReader, Limits};

/// What a file holds, judged by its first bytes, else by its extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Image,
    Pdf,
    /// Not an image or PDF: skipped with a notice.
    Other,
}

pub fn kind_of(path: &Path) -> Kind {
    let mut head = [0u8; 8];
    let n = std::fs::File::open(path)
        .and_then(|mut f| std::io::Read::read(&mut f, &mut head))
        .unwrap_or(0);
    let head = &head[..n];
    if head.starts_with(b"%PDF") {
        return Kind::Pdf;
    }
    if head.starts_with(b"\x89PNG")
        || head.starts_with(&[0xff, 0xd8])
        || head.starts_with(b"II*\0")
        || head.starts_with(b"MM\0*")
    {
        return Kind::Image;
    }
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match ext.as_deref() {
        Some("png" | "jpg" | "jpeg" | "tif" | "tiff") => Kind::Image,
        Some("pdf") => Kind::Pdf,
        _ => Kind::Other,
    }
}

/// Every image and PDF below the inputs (directories walked in name order),
/// and the files skipped because they are neither.
pub fn collect(inputs: &[PathBuf]) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let mut files = Vec::new();
    let mut skipped = Vec::new();
    for input in inputs {
        walk(input, &mut files, &mut skipped);
    }
    (files, skipped)
}

fn walk(path: &Path, files: &mut Vec<PathBuf>, skipped: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
            .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        entries.sort();
        for e in entries {
            walk(&e, files, skipped);
        }
    } else if kind_of(path) == Kind::Other {
        skipped.push(path.to_path_buf());
    } else {
        files.push(path.to_path_buf());
    }
}

/// One page of an input: its image, or why it could not be decoded.
pub struct Page {
    pub source: PathBuf,
    /// From 1; PDFs have several.
    pub number: u32,
    pub multi: bool,
    pub image: Result<GrayImage, String>,
}

/// Decoding limits: a header claiming 60000×60000 pixels is refused, not allocated.
fn limits() -> Limits {
    let mut l = Limits::default();
    l.max_image_width = Some(20_000);
    l.max_image_height = Some(20_000);
    l.max_alloc = Some(1 << 30);
    l
}

pub fn load(path: &Path) -> Vec<Page> {
    let page = |number, multi, image| Page {
        source: path.to_path_buf(),
        number,
        multi,
        image,
    };
    match kind_of(path) {
        Kind::Pdf => match pdf_pages(path) {
            Ok(pages) if !pages.is_empty() => {
                let multi = pages.len() > 1;
                pages
                    .into_iter()
                    .enumerate()
                    .map(|(i, img)| page(i as u32 + 1, multi, img))
                    .collect()
            }
            Ok(_) => vec![page(1, false, Err("the PDF has no pages".into()))],
            Err(e) => vec![page(1, false, Err(e))],
        },
        _ => vec![page(1, false, load_image(path))],
    }
}

pub fn load_image(path: &Path) -> Result<GrayImage, String> {
    let mut reader = ImageReader::open(path)
        .map_err(|e| format!("cannot open: {e}"))?
        .with_guessed_format()
        .map_err(|e| format!("cannot read: {e}"))?;
    reader.limits(limits());
    let img = reader
        .decode()
        .map_err(|e| format!("not a readable image: {e}"))?;
    Ok(img.to_luma8())
}

/// The largest image on each PDF page (a scanned PDF holds one per page).
fn pdf_pages(path: &Path) -> Result<Vec<Result<GrayImage, String>>, String> {
    let doc = lopdf::Document::load(path).map_err(|e| format!("not a readable PDF: {e}"))?;
    let mut out = Vec::new();
    for (_, page_id) in doc.get_pages() {
        let images = doc.get_page_images(page_id).unwrap_or_default();
        let best = images.into_iter().max_by_key(|i| i.width * i.height);
        out.push(match best {
            Some(img) => decode_pdf_image(&doc, &img),
            None => Err("the PDF page holds no scanned image".into()),
        });
    }
    Ok(out)
}

fn decode_pdf_image(
    doc: &lopdf::Document,
    img: &lopdf::xobject::PdfImage,
) -> Result<GrayImage, String> {
    let (w, h) = (
        u32::try_from(img.width).map_err(|_| "bad width")?,
        u32::try_from(img.height).map_err(|_| "bad height")?,
    );
    if w == 0 || h == 0 || w > 20_000 || h > 20_000 {
        return Err(format!("the page image is {w}×{h} pixels"));
    }
    let filters = img.filters.clone().unwrap_or_default();
    let content = img.content;
    let dict = img.origin_dict;
    let parms = dict.get(b"DecodeParms").ok().and_then(|p| match p {
        lopdf::Object::Dictionary(d) => Some(d.clone()),
        lopdf::Object::Array(a) => a.iter().find_map(|o| o.as_dict().ok().cloned()),
        lopdf::Object::Reference(r) => doc.get_dictionary(*r).ok().cloned(),
        _ => None,
    });
    let last = filters.last().map(String::as_str);
    let data: Vec<u8> = if filters.len() > 1 || last == Some("FlateDecode") {
        let mut d = flate2::read::ZlibDecoder::new(content);
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut d, &mut v)
            .map_err(|e| format!("broken image data in the PDF: {e}"))?;
        v
    } else {
        content.to_vec()
    };
    match last {
        Some("DCTDecode") => {
            let mut reader =
                ImageReader::with_format(std::io::Cursor::new(&data), image::ImageFormat::Jpeg);
            reader.limits(limits());
            reader
                .decode()
                .map(|i| i.to_luma8())
                .map_err(|e| format!("broken JPEG in the PDF: {e}"))
        }
        Some("CCITTFaxDecode") => {
            let black_is_1 = parms
                .as_ref()
                .and_then(|p| p.get(b"BlackIs1").ok())
                .and_then(|o| o.as_bool().ok())
                .unwrap_or(false);
            let mut pixels = Vec::with_capacity((w * h) as usize);
            let mut rows = 0;
            fax::decoder::decode_g4(data.into_iter(), w, Some(h), |line| {
                rows += 1;
                pixels.extend(fax::decoder::pels(line, w).map(|c| {
                    let black = c == fax::Color::Black;
                    // BlackIs1 flips what the decoder calls black.
                    if black != black_is_1 { 0u8 } else { 255u8 }
                }));
            });
            if rows < h {
                return Err(format!(
                    "the CCITT image in the PDF ends after {rows} of {h} lines"
                ));
            }
            GrayImage::from_raw(w, h, pixels)
                .ok_or_else(|| "broken CCITT image in the PDF".to_string())
        }
        _ => {
            let bpc = dict
                .get(b"BitsPerComponent")
                .ok()
                .and_then(|o| o.as_i64().ok())
                .unwrap_or(8);
            let cs = img.color_space.clone().unwrap_or_default();
            let channels: usize = if cs.contains("RGB") {
                3
            } else if cs.contains("CMYK") {
                4
            } else {
                1
            };
            raw_to_gray(&data, w, h, bpc, channels)
        }
    }
}

fn raw_to_gray(
    data: &[u8],
    w: u32,
    h: u32,
    bpc: i64,
    channels: usize,
) -> Result<GrayImage, String> {
    let (wu, hu) = (w as usize, h as usize);
    match (bpc, channels) {
        (8, c) => {
            if data.len() < wu * hu * c {
                return Err("the page image data is shorter than its size".into());
            }
            let img = match c {
                1 => DynamicImage::ImageLuma8(
                    GrayImage::from_raw(w, h, data[..wu * hu].to_vec()).ok_or("bad size")?,
                ),
                3 => DynamicImage::ImageRgb8(
                    image::RgbImage::from_raw(w, h, data[..wu * hu * 3].to_vec())
                        .ok_or("bad size")?,
                ),
                _ => {
                    return Err(
                        "CMYK page images are not supported; scan in grayscale or colour".into(),
                    );
                }
            };
            Ok(img.to_luma8())
        }
        (1, 1) => {
            let stride = wu.div_ceil(8);
            if data.len() < stride * hu {
                return Err("the page image data is shorter than its size".into());
            }
            let mut out = GrayImage::new(w, h);
            for (y, row) in data.chunks(stride).take(hu).enumerate() {
                for x in 0..wu {
                    let bit = (row[x / 8] >> (7 - x % 8)) & 1;
                    out.put_pixel(
                        x as u32,
                        y as u32,
                        image::Luma([if bit == 1 { 255 } else { 0 }]),
                    );
                }
            }
            Ok(out)
        }
        _ => Err(format!(
            "page images with {bpc} bits per component are not supported"
        )),
    }
}
