//! Tesseract: the printed title and numbers, and a choice of digit reader
//! (strong on print, weak on handwriting: measured, see docs/reading.md).
//! Only in builds with the `tesseract` feature (the default).

use image::GrayImage;

use super::{DigitReader, PrintReader, ReaderError, Reading};

/// Where the Tesseract model lies: `AUFSICHT_TESSDATA` (cargo sets it to
/// the checkout's `data/tessdata` for its runs and tests, `.cargo/config.toml`);
/// the package's (`share/aufsicht/tessdata` beside the binary's `bin`); the
/// checkout's, beside a binary built in it (`target/*/aufsicht`); all with
/// the legacy engine. No path of the machine that built it is compiled in:
/// a package without its model is found out.
pub fn tessdata_dir() -> Option<String> {
    own_model().map(|dir| dir.to_string_lossy().into_owned())
}

fn own_model() -> Option<std::path::PathBuf> {
    let given = std::env::var_os("AUFSICHT_TESSDATA").map(std::path::PathBuf::from);
    let exe = std::env::current_exe().ok();
    let bin = exe.as_deref().and_then(std::path::Path::parent);
    let packaged = bin
        .and_then(std::path::Path::parent)
        .map(|p| p.join("share/aufsicht/tessdata"));
    let checkout = bin
        .and_then(std::path::Path::parent)
        .and_then(std::path::Path::parent)
        .map(|p| p.join("data/tessdata"));
    // A folder named that holds no model is passed over, not handed to
    // Tesseract (which would say so on stderr, in its words).
    [given, packaged, checkout]
        .into_iter()
        .flatten()
        .find(|d| d.join(MODEL_FILE).exists())
}

const MODEL_FILE: &str = "eng.traineddata";

/// The model a reader starts with: its folder (None: Tesseract's own
/// default) and whether it holds the legacy engine. The system's model
/// (Debian's) is LSTM only: asking it for the legacy engine makes the C
/// library complain on stderr, so only our own model is asked for it.
fn model() -> Option<(Option<String>, bool)> {
    if let Some(dir) = tessdata_dir() {
        return Some((Some(dir), true));
    }
    let system = std::env::var("TESSDATA_PREFIX")
        .ok()
        .map(std::path::PathBuf::from);
    let debian = std::fs::read_dir("/usr/share/tesseract-ocr")
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path().join("tessdata"));
    system
        .into_iter()
        .chain(debian)
        .find(|d| d.join(MODEL_FILE).exists())
        .map(|d| (Some(d.to_string_lossy().into_owned()), false))
}

/// Tesseract with a digit whitelist, one engine reused for every cell.
pub struct TesseractReader {
    api: Option<tesseract::Tesseract>,
    datapath: Option<String>,
    legacy: bool,
    whitelist: &'static str,
}

/// Letters, digits and the punctuation of printed form titles.
const PRINTED: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-.";

impl TesseractReader {
    /// The legacy engine (best on handwritten digits measured here) when its
    /// model is there, else the LSTM engine.
    pub fn digits() -> Result<Self, ReaderError> {
        Self::new("0123456789")
    }

    /// An engine for printed text (titles, row numbers): the legacy engine
    /// where its model is there (several times faster than LSTM on a title),
    /// else LSTM; both read the printed samples right.
    pub fn printed() -> Result<Self, ReaderError> {
        Self::new(PRINTED)
    }

    /// A reader with `whitelist`; where no model is found, the reader is
    /// missing (said in one line by the caller), and Tesseract is not asked.
    pub fn new(whitelist: &'static str) -> Result<Self, ReaderError> {
        let (datapath, legacy) = model().ok_or(ReaderError::TesseractMissing)?;
        let mut reader = TesseractReader {
            api: None,
            datapath,
            legacy,
            whitelist,
        };
        if reader.engine().is_none() {
            reader.legacy = false;
            reader.engine().ok_or(ReaderError::TesseractMissing)?;
        }
        Ok(reader)
    }

    fn engine(&mut self) -> Option<&mut tesseract::Tesseract> {
        if self.api.is_none() {
            let oem = if self.legacy {
                tesseract::OcrEngineMode::TesseractOnly
            } else {
                tesseract::OcrEngineMode::LstmOnly
            };
            let api =
                tesseract::Tesseract::new_with_oem(self.datapath.as_deref(), Some("eng"), oem)
                    .ok()?
                    .set_variable("tessedit_char_whitelist", self.whitelist)
                    .ok()?
                    .set_variable("debug_file", "/dev/null")
                    .ok()?
                    // No adaptive learning from page to page: a reading must
                    // not depend on which pages this engine read before.
                    .set_variable("classify_enable_learning", "0")
                    .ok()?;
            self.api = Some(api);
        }
        self.api.as_mut()
    }

    /// Reads printed or handwritten text on one line.
    pub fn read_line(&mut self, img: &GrayImage) -> Reading {
        let (w, h) = img.dimensions();
        let Some(mut api) = self.engine().map(|_| ()).and_then(|_| self.api.take()) else {
            return Reading::none();
        };
        api.set_page_seg_mode(tesseract::PageSegMode::PsmSingleLine);
        let result = api
            .set_frame(img.as_raw(), w as i32, h as i32, 1, w as i32)
            .map(|a| a.set_source_resolution(300))
            .ok()
            .and_then(|a| a.recognize().ok());
        let Some(mut api) = result else {
            return Reading::none();
        };
        let text = api.get_text().unwrap_or_default();
        let conf = api.mean_text_conf();
        self.api = Some(api);
        Reading {
            text: text.chars().filter(|c| !c.is_whitespace()).collect(),
            confidence: (conf.clamp(0, 100) as f32) / 100.0,
            alternatives: Vec::new(),
        }
    }
}

impl DigitReader for TesseractReader {
    fn name(&self) -> &str {
        if self.legacy {
            "tesseract-legacy"
        } else {
            "tesseract-lstm"
        }
    }

    fn read(&mut self, digits: &GrayImage) -> Reading {
        // Tesseract wants text about 30-40 px high with a white border.
        let h = digits.height().max(1);
        let scale = (48.0 / f64::from(h)).clamp(0.5, 4.0);
        let resized = image::imageops::resize(
            digits,
            ((f64::from(digits.width()) * scale) as u32).max(1),
            ((f64::from(h) * scale) as u32).max(1),
            image::imageops::FilterType::Triangle,
        );
        let pad = 16;
        let mut framed = GrayImage::from_pixel(
            resized.width() + 2 * pad,
            resized.height() + 2 * pad,
            image::Luma([255]),
        );
        image::imageops::overlay(&mut framed, &resized, i64::from(pad), i64::from(pad));
        let mut r = self.read_line(&framed);
        r.text.retain(|c| c.is_ascii_digit());
        r
    }
}

impl PrintReader for TesseractReader {
    fn line(&mut self, img: &GrayImage) -> Option<Reading> {
        Some(self.read_line(img))
    }

    fn number(&mut self, img: &GrayImage) -> Reading {
        self.read(img)
    }
}
