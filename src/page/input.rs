//! The scan stage: files in, page images out. Images (PNG, JPEG, TIFF incl.
//! 1-bit and CCITT G4) and PDFs (one sheet per page, the page's image).
//!
//! Every size is bounded before memory is taken for it: a header claiming
//! more pixels than a scan of a sheet has, or a PDF stream that would
//! inflate past what its image needs, makes the page [`Unreadable`], never
//! a gigabyte. PDF pages are decoded one at a time, as they are read.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use image::metadata::Orientation;
use image::{DynamicImage, GrayImage, ImageDecoder, ImageReader, Limits};

use crate::page::chroma::Chroma;

pub use crate::page::unreadable::{FileProblem, PassedOver, Unreadable};

/// Pixels a page may have: an A4 sheet scanned at 600 dpi has 35 million,
/// with the scanner bed around it 44.
pub const MAX_PIXELS: u64 = 60_000_000;
/// Bytes a decoder may take for one page (a 16-bit RGB page of `MAX_PIXELS`).
const MAX_DECODE_BYTES: u64 = 6 * MAX_PIXELS;
/// Bytes one compressed PDF stream may inflate to while the file is parsed,
/// and a compressed page image (JPEG inside Flate) before it is decoded.
const MAX_PDF_STREAM: usize = 64 << 20;

/// What a file holds, judged by its first bytes, else by its extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Image,
    Pdf,
    /// Not an image or PDF: skipped with a notice.
    Other,
}

/// The kind of a regular file (never call it on a FIFO: opening one waits
/// for a writer). A file that cannot be opened is judged by its extension.
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

/// What was found below the inputs: the files to read (each once, in name
/// order) and what was passed over.
#[derive(Debug, Default)]
pub struct Found {
    pub files: Vec<PathBuf>,
    pub passed_over: Vec<(PathBuf, PassedOver)>,
}

/// Every image and PDF below the inputs. Links are followed, but no file or
/// folder is visited twice, so a link to `.` is no loop.
pub fn collect(inputs: &[PathBuf]) -> Found {
    let mut found = Found::default();
    let mut seen = HashSet::new();
    for input in inputs {
        walk(input, &mut seen, &mut found);
    }
    found
}

/// What makes a file itself, whatever the path to it: on Unix its device
/// and inode (a link or a bind mount leads to the same); elsewhere the
/// path with every link resolved.
#[cfg(unix)]
type Identity = (u64, u64);
#[cfg(not(unix))]
type Identity = PathBuf;

#[cfg(unix)]
fn identity(_: &Path, meta: &std::fs::Metadata) -> Identity {
    use std::os::unix::fs::MetadataExt;
    (meta.dev(), meta.ino())
}

#[cfg(not(unix))]
fn identity(path: &Path, _: &std::fs::Metadata) -> Identity {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// What a file that is neither a folder nor a regular file is.
#[cfg(unix)]
fn special(kind: std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if kind.is_fifo() {
        "FIFO"
    } else if kind.is_socket() {
        "socket"
    } else {
        "device"
    }
}

#[cfg(not(unix))]
fn special(_: std::fs::FileType) -> &'static str {
    "device"
}

fn walk(path: &Path, seen: &mut HashSet<Identity>, found: &mut Found) {
    let mut pass = |why| found.passed_over.push((path.to_path_buf(), why));
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) => return pass(PassedOver::Unreadable(FileProblem::from(&e))),
    };
    if !seen.insert(identity(path, &meta)) {
        return pass(PassedOver::Again);
    }
    let kind = meta.file_type();
    if kind.is_dir() {
        let entries = match std::fs::read_dir(path) {
            Ok(rd) => rd,
            Err(e) => return pass(PassedOver::Unreadable(FileProblem::from(&e))),
        };
        let mut paths = Vec::new();
        for entry in entries {
            match entry {
                Ok(e) => paths.push(e.path()),
                Err(e) => pass(PassedOver::Unreadable(FileProblem::from(&e))),
            }
        }
        paths.sort();
        for p in paths {
            walk(&p, seen, found);
        }
    } else if !kind.is_file() {
        pass(PassedOver::NotARegularFile(special(kind)));
    } else if kind_of(path) == Kind::Other {
        pass(PassedOver::NotAScan);
    } else {
        found.files.push(path.to_path_buf());
    }
}

/// One page of an input: its image, or why it could not be decoded.
pub struct Page {
    pub source: PathBuf,
    /// From 1; PDFs have several.
    pub number: u32,
    pub multi: bool,
    pub image: Result<GrayImage, Unreadable>,
    /// A colour scan's colour (none for grey and bilevel scans).
    pub chroma: Option<Chroma>,
}

/// A page image decoded: its grey, and its colour where it has any.
type Decoded = Result<(GrayImage, Option<Chroma>), Unreadable>;

/// The pages of one input file, decoded one at a time as they are taken.
pub struct Pages {
    source: PathBuf,
    next: u32,
    inner: Inner,
}

enum Inner {
    One(Option<Decoded>),
    /// A TIFF of several pages: the first decoded, the others said.
    Tiff {
        first: Option<Decoded>,
        pages: u32,
    },
    Pdf {
        doc: Box<lopdf::Document>,
        ids: Vec<lopdf::ObjectId>,
    },
}

impl Pages {
    /// How many pages the file has (1 for an image or an unreadable file).
    pub fn page_count(&self) -> usize {
        match &self.inner {
            Inner::One(_) => 1,
            Inner::Tiff { pages, .. } => *pages as usize,
            Inner::Pdf { ids, .. } => ids.len(),
        }
    }
}

impl Iterator for Pages {
    type Item = Page;

    fn next(&mut self) -> Option<Page> {
        let multi = self.page_count() > 1;
        let decoded = match &mut self.inner {
            Inner::One(image) => image.take()?,
            Inner::Tiff { first, pages } => match first.take() {
                Some(image) => image,
                None if self.next < *pages => Err(Unreadable::TiffPage {
                    page: self.next + 1,
                    pages: *pages,
                }),
                None => return None,
            },
            Inner::Pdf { doc, ids } => {
                let id = *ids.get(self.next as usize)?;
                pdf_page(doc, id, &self.source)
            }
        };
        self.next += 1;
        let (image, chroma) = match decoded {
            Ok((grey, chroma)) => (Ok(grey), chroma),
            Err(why) => (Err(why), None),
        };
        Some(Page {
            source: self.source.clone(),
            number: self.next,
            multi,
            image,
            chroma,
        })
    }
}

/// The pages of an image or PDF file (an image has one).
pub fn load(path: &Path) -> Pages {
    let empty = std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() == 0);
    let inner = match kind_of(path) {
        // Nothing in it: said as such, not as a broken image.
        _ if empty => Inner::One(Some(Err(Unreadable::EmptyFile))),
        Kind::Pdf => match open_pdf(path) {
            Ok(doc) => {
                let ids: Vec<lopdf::ObjectId> = doc.get_pages().into_values().collect();
                if ids.is_empty() {
                    Inner::One(Some(Err(Unreadable::PdfWithoutPages)))
                } else {
                    Inner::Pdf {
                        doc: Box::new(doc),
                        ids,
                    }
                }
            }
            Err(e) => Inner::One(Some(Err(e))),
        },
        _ => match tiff_pages(path) {
            pages @ 2.. => Inner::Tiff {
                first: Some(load_image_in_colour(path)),
                pages,
            },
            _ => Inner::One(Some(load_image_in_colour(path))),
        },
    };
    Pages {
        source: path.to_path_buf(),
        next: 0,
        inner,
    }
}

/// Every page of a file's bytes kept elsewhere than on disk (an
/// archive's), decoded once, in order, as [`load`] decodes the file (the
/// pages that decode): the bytes go through a private temporary file,
/// since a PDF's pages are read from disk one at a time.
pub fn pages_of_bytes(bytes: &[u8]) -> Vec<(u32, GrayImage)> {
    use std::io::Write;
    let Ok(mut file) = tempfile::NamedTempFile::new() else {
        return Vec::new();
    };
    if file.write_all(bytes).and_then(|()| file.flush()).is_err() {
        return Vec::new();
    }
    load(file.path())
        .filter_map(|p| Some((p.number, p.image.ok()?)))
        .collect()
}

/// Page `number` of a file's bytes kept elsewhere than on disk, decoded
/// as [`load`] decodes it, its colour included (what a second reading of
/// an archived scan reads).
pub fn page_of_bytes(bytes: &[u8], number: u32) -> Option<Page> {
    use std::io::Write;
    let mut file = tempfile::NamedTempFile::new().ok()?;
    file.write_all(bytes).and_then(|()| file.flush()).ok()?;
    load(file.path()).find(|p| p.number == number)
}

/// How many pages a TIFF file has (0 where it is none or cannot be read).
/// The image decoder reads only the first: the others must not be lost
/// without a word.
pub fn tiff_pages(path: &Path) -> u32 {
    let Ok(file) = std::fs::File::open(path) else {
        return 0;
    };
    let Ok(mut decoder) = tiff::decoder::Decoder::new(std::io::BufReader::new(file)) else {
        return 0;
    };
    let mut pages = 1;
    // A loop of page offsets is a broken file, not a thousand pages.
    while decoder.more_images() && pages < 1000 && decoder.next_image().is_ok() {
        pages += 1;
    }
    pages
}

/// Whether a file's results are numbered by page (`-p<N>`): a PDF, or a
/// TIFF of several pages.
pub fn paged(path: &Path) -> bool {
    match kind_of(path) {
        Kind::Pdf => true,
        Kind::Image => tiff_pages(path) > 1,
        Kind::Other => false,
    }
}

/// Decoding limits: the header's size is checked first, the decoder's
/// allocations besides.
fn limits() -> Limits {
    let mut l = Limits::default();
    l.max_image_width = Some(20_000);
    l.max_image_height = Some(20_000);
    l.max_alloc = Some(MAX_DECODE_BYTES);
    l
}

fn check_size(width: u64, height: u64) -> Result<(), Unreadable> {
    if width.saturating_mul(height) > MAX_PIXELS || width.max(height) > 20_000 {
        return Err(Unreadable::TooLarge { width, height });
    }
    Ok(())
}

/// The grey of an image file (its colour, where it has any, is left).
pub fn load_image(path: &Path) -> Result<GrayImage, Unreadable> {
    load_image_in_colour(path).map(|(grey, _)| grey)
}

/// An image file's grey and its colour, where it has any.
pub fn load_image_in_colour(path: &Path) -> Decoded {
    decode_bounded(|| Ok(ImageReader::open(path)?.with_guessed_format()?))
}

/// Decodes what `open` opens, once its header's size has been checked.
fn decode_bounded<R: std::io::BufRead + std::io::Seek>(
    open: impl Fn() -> Result<ImageReader<R>, Unreadable>,
) -> Decoded {
    // The header alone gives the size (nothing large is allocated for it).
    let (w, h) = open()?.into_dimensions()?;
    check_size(u64::from(w), u64::from(h))?;
    let mut reader = open()?;
    reader.limits(limits());
    let mut decoder = reader.into_decoder()?;
    // A phone stores its photo as the sensor saw it and says in EXIF how
    // to turn it; without the turn a page can lie on its side.
    let orientation = decoder.orientation().unwrap_or(Orientation::NoTransforms);
    let mut page = DynamicImage::from_decoder(decoder)?;
    page.apply_orientation(orientation);
    let chroma = Chroma::of(&page);
    Ok((page.into_luma8(), chroma))
}

fn open_pdf(path: &Path) -> Result<lopdf::Document, Unreadable> {
    std::fs::File::open(path)?;
    let mut options = lopdf::LoadOptions::with_max_decompressed_size(MAX_PDF_STREAM);
    options.filter = Some(image_data_left_on_disk);
    lopdf::Document::load_with_options(path, options).map_err(|e| match e {
        lopdf::Error::IO(io) => io.into(),
        lopdf::Error::Decompress(lopdf::DecompressError::MemoryLimitExceeded { .. }) => {
            Unreadable::PdfStreamTooLarge {
                limit_mb: (MAX_PDF_STREAM >> 20) as u64,
            }
        }
        _ => Unreadable::NotAPdf,
    })
}

/// The dictionary key under which an image's data left on disk notes its
/// length (its position is the stream's own).
const BYTES_ON_DISK: &[u8] = b"AufsichtBytesOnDisk";

/// A load filter: an image's data is dropped once read (its length
/// noted), and read again from the file when its page is read. A scanner's
/// PDF of a whole night is hundreds of megabytes of page images; only the
/// pages being read are in memory.
fn image_data_left_on_disk(
    id: lopdf::ObjectId,
    object: &mut lopdf::Object,
) -> Option<(lopdf::ObjectId, lopdf::Object)> {
    if let lopdf::Object::Stream(stream) = object {
        let image = stream
            .dict
            .get(b"Subtype")
            .and_then(lopdf::Object::as_name)
            .is_ok_and(|n| n == b"Image");
        if image && !stream.content.is_empty() {
            let bytes = std::mem::take(&mut stream.content).len();
            stream.dict.set(BYTES_ON_DISK, bytes as i64);
        }
    }
    // lopdf keeps the object changed in place, or (inside an object
    // stream, where no image is) the one returned.
    Some((id, object.clone()))
}

/// The largest image on a PDF page (a scanned PDF holds one per page).
fn pdf_page(doc: &lopdf::Document, page_id: lopdf::ObjectId, path: &Path) -> Decoded {
    let images = doc.get_page_images(page_id).unwrap_or_default();
    let best = images
        .into_iter()
        .max_by_key(|i| i.width.saturating_mul(i.height));
    let Some(mut img) = best else {
        return Err(Unreadable::PdfPageWithoutImage);
    };
    let on_disk = image_data_from_disk(doc, &img, path)?;
    if let Some(data) = &on_disk {
        img.content = data;
    }
    decode_pdf_image(doc, &img)
}

/// The image's data, where loading left it on disk ([`image_data_left_on_disk`]).
fn image_data_from_disk(
    doc: &lopdf::Document,
    img: &lopdf::xobject::PdfImage,
    path: &Path,
) -> Result<Option<Vec<u8>>, Unreadable> {
    use std::io::{Read, Seek};
    let Ok(bytes) = img
        .origin_dict
        .get(BYTES_ON_DISK)
        .and_then(lopdf::Object::as_i64)
    else {
        return Ok(None);
    };
    let bytes = usize::try_from(bytes).map_err(|_| Unreadable::PdfImageBroken)?;
    let Some(lopdf::xref::XrefEntry::Normal { offset, .. }) = doc.reference_table.get(img.id.0)
    else {
        return Err(Unreadable::PdfImageBroken);
    };
    let mut file = std::fs::File::open(path)?;
    file.seek(std::io::SeekFrom::Start(u64::from(*offset)))?;
    let mut head = Vec::new();
    file.by_ref().take(STREAM_HEAD).read_to_end(&mut head)?;
    for start in stream_starts(&head) {
        file.seek(std::io::SeekFrom::Start(u64::from(*offset) + start as u64))?;
        let mut data = Vec::with_capacity(bytes + END_STREAM_BYTES);
        let wanted = (bytes + END_STREAM_BYTES) as u64;
        file.by_ref().take(wanted).read_to_end(&mut data)?;
        if data.len() >= bytes && ends_stream(&data[bytes..]) {
            data.truncate(bytes);
            return Ok(Some(data));
        }
    }
    Err(Unreadable::PdfImageBroken)
}

/// How far into an image object its data starts at most (its dictionary).
const STREAM_HEAD: u64 = 64 << 10;

/// What is read past a stream's data to see it ends there: an end of line
/// and `endstream`.
const END_STREAM_BYTES: usize = 11;

/// Where a stream's data may start in its object's first bytes: after each
/// `stream` keyword and its end of line.
fn stream_starts(head: &[u8]) -> impl Iterator<Item = usize> + '_ {
    head.windows(6)
        .enumerate()
        .filter(|(_, w)| *w == b"stream")
        .filter_map(|(i, _)| match head.get(i + 6..i + 8) {
            Some([b'\r', b'\n']) => Some(i + 8),
            Some([b'\n', _]) | Some([b'\r', _]) => Some(i + 7),
            _ => None,
        })
}

/// Whether `tail` (what follows a stream's data) is its end: an optional end
/// of line, then `endstream`.
fn ends_stream(tail: &[u8]) -> bool {
    let tail = tail.strip_prefix(b"\r").unwrap_or(tail);
    let tail = tail.strip_prefix(b"\n").unwrap_or(tail);
    tail.starts_with(b"endstream")
}

/// Inflates at most `limit` bytes; more is a stream that is not the image it claims.
fn inflate(content: &[u8], limit: usize) -> Result<Vec<u8>, Unreadable> {
    use std::io::Read;
    let mut out = Vec::new();
    flate2::read::ZlibDecoder::new(content)
        .take(limit as u64 + 1)
        .read_to_end(&mut out)
        .map_err(|_| Unreadable::PdfImageBroken)?;
    if out.len() > limit {
        return Err(Unreadable::PdfStreamTooLarge {
            limit_mb: (limit as u64).div_ceil(1 << 20),
        });
    }
    Ok(out)
}

fn decode_pdf_image(doc: &lopdf::Document, img: &lopdf::xobject::PdfImage) -> Decoded {
    let (w, h) = match (u32::try_from(img.width), u32::try_from(img.height)) {
        (Ok(w), Ok(h)) if w > 0 && h > 0 && w <= 20_000 && h <= 20_000 => (w, h),
        _ => {
            return Err(Unreadable::TooLarge {
                width: img.width.max(0) as u64,
                height: img.height.max(0) as u64,
            });
        }
    };
    check_size(u64::from(w), u64::from(h))?;
    let filters = img.filters.clone().unwrap_or_default();
    let dict = img.origin_dict;
    let last = filters.last().map(String::as_str);
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
    let flate = filters.len() > 1 || last == Some("FlateDecode");
    let data: Vec<u8> = match (flate, last) {
        (false, _) => img.content.to_vec(),
        // Raw samples: never more than the image's own size (and a
        // predictor byte a row) is needed.
        (true, Some("FlateDecode")) => {
            let row = (w as usize * channels * bpc.clamp(1, 16) as usize).div_ceil(8);
            inflate(img.content, (row + 1) * h as usize)?
        }
        (true, _) => inflate(img.content, MAX_PDF_STREAM)?,
    };
    match last {
        Some("DCTDecode") => decode_bounded(|| {
            let jpeg = std::io::Cursor::new(&data);
            Ok(ImageReader::with_format(jpeg, image::ImageFormat::Jpeg))
        })
        .map_err(|e| match e {
            Unreadable::TooLarge { .. } => e,
            _ => Unreadable::PdfImageBroken,
        }),
        Some("CCITTFaxDecode") => ccitt(doc, dict, data, w, h).map(|grey| (grey, None)),
        _ => raw_to_gray(&data, w, h, bpc, channels),
    }
}

fn ccitt(
    doc: &lopdf::Document,
    dict: &lopdf::Dictionary,
    data: Vec<u8>,
    w: u32,
    h: u32,
) -> Result<GrayImage, Unreadable> {
    let parms = dict.get(b"DecodeParms").ok().and_then(|p| match p {
        lopdf::Object::Dictionary(d) => Some(d.clone()),
        lopdf::Object::Array(a) => a.iter().find_map(|o| o.as_dict().ok().cloned()),
        lopdf::Object::Reference(r) => doc.get_dictionary(*r).ok().cloned(),
        _ => None,
    });
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
        return Err(Unreadable::PdfImageBroken);
    }
    GrayImage::from_raw(w, h, pixels).ok_or(Unreadable::PdfImageBroken)
}

fn raw_to_gray(data: &[u8], w: u32, h: u32, bpc: i64, channels: usize) -> Decoded {
    let (wu, hu) = (w as usize, h as usize);
    match (bpc, channels) {
        (8, c) => {
            if data.len() < wu * hu * c {
                return Err(Unreadable::PdfImageBroken);
            }
            let img = match c {
                1 => DynamicImage::ImageLuma8(
                    GrayImage::from_raw(w, h, data[..wu * hu].to_vec())
                        .ok_or(Unreadable::PdfImageBroken)?,
                ),
                3 => DynamicImage::ImageRgb8(
                    image::RgbImage::from_raw(w, h, data[..wu * hu * 3].to_vec())
                        .ok_or(Unreadable::PdfImageBroken)?,
                ),
                _ => {
                    return Err(Unreadable::Unsupported(
                        "CMYK page images; scan in grayscale or colour".into(),
                    ));
                }
            };
            let chroma = Chroma::of(&img);
            Ok((img.into_luma8(), chroma))
        }
        (1, 1) => {
            let stride = wu.div_ceil(8);
            if data.len() < stride * hu {
                return Err(Unreadable::PdfImageBroken);
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
            Ok((out, None))
        }
        _ => Err(Unreadable::Unsupported(format!(
            "page images with {bpc} bits per component"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::codecs::jpeg::JpegEncoder;
    use image::{ImageEncoder, Luma};

    #[test]
    fn an_empty_file_should_be_said_to_be_empty_as_image_and_as_pdf() {
        let dir = tempfile::tempdir().expect("dir");
        for name in ["foto.jpg", "liste.pdf"] {
            let path = dir.path().join(name);
            std::fs::write(&path, b"").expect("write");
            let page = load(&path).next().expect("one page");
            let why = page.image.expect_err("empty");
            assert_eq!(why, Unreadable::EmptyFile, "{name}");
            assert!(
                why.text(crate::catalogue::Lang::De).contains("leere Datei"),
                "{name}"
            );
        }
    }

    /// An EXIF block (little-endian TIFF) holding one tag: the orientation.
    fn exif_orientation(value: u8) -> Vec<u8> {
        let mut exif = b"II*\0\x08\0\0\0\x01\0".to_vec();
        exif.extend_from_slice(&[0x12, 0x01, 3, 0, 1, 0, 0, 0, value, 0, 0, 0]);
        exif.extend_from_slice(&[0, 0, 0, 0]);
        exif
    }

    #[test]
    fn a_photo_is_turned_as_its_exif_says() {
        // 60×30, dark on the left: turned clockwise, dark on top.
        let photo = GrayImage::from_fn(60, 30, |x, _| Luma([if x < 30 { 0 } else { 255 }]));
        let mut bytes = Vec::new();
        let mut encoder = JpegEncoder::new_with_quality(&mut bytes, 95);
        encoder
            .set_exif_metadata(exif_orientation(6))
            .expect("exif");
        encoder
            .write_image(photo.as_raw(), 60, 30, image::ExtendedColorType::L8)
            .expect("jpeg");
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("photo.jpg");
        std::fs::write(&path, bytes).expect("write");
        let page = load_image(&path).expect("read");
        assert_eq!(page.dimensions(), (30, 60));
        assert!(page.get_pixel(15, 10)[0] < 60 && page.get_pixel(15, 50)[0] > 200);
    }

    #[test]
    fn pages_of_a_pdf_are_read_from_the_disk_each_whole() {
        // Three pages of distinct noise: each page's data, read back from
        // its place in the file, is that page's and no other's.
        let pages: Vec<GrayImage> = (0..3u32)
            .map(|p| {
                GrayImage::from_fn(40, 30, |x, y| {
                    Luma([((x * 7 + y * 13 + p * 91) % 251) as u8])
                })
            })
            .collect();
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("night.pdf");
        std::fs::write(&path, crate::page::render::pdf_of_pages(&pages, 150.0)).expect("write");
        let read: Vec<GrayImage> = load(&path).map(|p| p.image.expect("page")).collect();
        assert_eq!(read, pages);
    }

    #[test]
    fn a_stream_starts_after_its_keyword_and_end_of_line() {
        let head = b"5 0 obj << /Length 3 >> stream\r\nabc\r\nendstream";
        let starts: Vec<usize> = stream_starts(head).collect();
        assert_eq!(starts, [32]);
        assert_eq!(&head[32..35], b"abc");
        assert!(ends_stream(&head[35..]));
        assert!(!ends_stream(b"xyz endstream"));
        assert_eq!(stream_starts(b"<< >>stream\nabc").collect::<Vec<_>>(), [12]);
    }
}
