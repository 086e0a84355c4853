//! Reading digits: the `DigitReader` trait and its readers: [`cnn`], the
//! trained nets, and Tesseract (strong on print, weak on handwriting:
//! measured, see docs/reading.md).

pub mod cnn;
mod openmp;

pub use openmp::limit_openmp_threads;

use image::GrayImage;

use crate::catalogue::Tell;

/// A cell's digits as read.
#[derive(Debug, Clone, PartialEq)]
pub struct Reading {
    /// The digits read, as written (may be empty).
    pub text: String,
    /// 0..1: how sure the reader is.
    pub confidence: f32,
    /// Other readings with their confidence, best first.
    pub alternatives: Vec<(String, f32)>,
}

impl Reading {
    pub fn none() -> Self {
        Reading {
            text: String::new(),
            confidence: 0.0,
            alternatives: Vec::new(),
        }
    }

    /// The best reading and the alternatives, each with its probability.
    pub fn listed(&self) -> impl Iterator<Item = (&String, f32)> {
        std::iter::once((&self.text, self.confidence))
            .chain(self.alternatives.iter().map(|(t, c)| (t, *c)))
    }

    /// The mean of several readings of one field: each text's probability
    /// averaged over them (a text a reading does not list counts 0 there).
    pub fn mean(all: &[Reading]) -> Reading {
        let mut p: Vec<(String, f32)> = Vec::new();
        for r in all {
            for (t, c) in r.listed() {
                match p.iter_mut().find(|(u, _)| u == t) {
                    Some(e) => e.1 += c,
                    None => p.push((t.clone(), c)),
                }
            }
        }
        let n = all.len().max(1) as f32;
        p.iter_mut().for_each(|e| e.1 /= n);
        p.sort_by(|a, b| b.1.total_cmp(&a.1));
        let mut it = p.into_iter();
        let Some((text, confidence)) = it.next() else {
            return Reading::none();
        };
        Reading {
            text,
            confidence,
            // As many as decoding weighs.
            alternatives: it.take(4).collect(),
        }
    }

    pub fn value(&self) -> Option<u32> {
        if self.text.is_empty() || self.text.len() > 6 {
            return None;
        }
        self.text.parse().ok()
    }
}

/// Reads the digits of one cell: black ink on white, cropped to the ink.
pub trait DigitReader {
    fn name(&self) -> &str;
    fn read(&mut self, digits: &GrayImage) -> Reading;
    /// Many cells at once (a reader may batch them; the default reads one by one).
    fn read_batch(&mut self, cells: &[&GrayImage]) -> Vec<Reading> {
        cells.iter().map(|c| self.read(c)).collect()
    }
    /// The same cells read by a second model, where the reader has one:
    /// its own opinion, to weigh beside the first where a flag stands.
    fn second_opinion(&mut self, _cells: &[&GrayImage]) -> Option<Vec<Reading>> {
        None
    }
}

/// Where the Tesseract model lies: `AUFSICHT_TESSDATA`; the package's
/// (`share/aufsicht/tessdata` beside the binary's `bin`); the project's
/// `data/tessdata` (installed by scripts/install-deps.sh; both have the
/// legacy engine); or the system's.
pub fn tessdata_dir() -> Option<String> {
    if let Ok(dir) = std::env::var("AUFSICHT_TESSDATA") {
        return Some(dir);
    }
    let exe = std::env::current_exe().ok();
    let prefix = exe.as_deref().and_then(|e| e.parent()?.parent());
    let packaged = prefix.map(|p| p.join("share/aufsicht/tessdata"));
    if let Some(dir) = packaged.filter(|d| d.join("eng.traineddata").exists()) {
        return Some(dir.to_string_lossy().into_owned());
    }
    let local = concat!(env!("CARGO_MANIFEST_DIR"), "/data/tessdata");
    if std::path::Path::new(local).join("eng.traineddata").exists() {
        return Some(local.to_string());
    }
    None
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

/// A reader that cannot be set up.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{}", self.tell(crate::Lang::En))]
pub enum ReaderError {
    /// Neither of Tesseract's engines starts: its English model is missing.
    TesseractMissing,
    /// A committed model file cannot be read as a net.
    Model {
        which: &'static str,
        message: String,
    },
}

impl Tell for ReaderError {
    fn tell(&self, lang: crate::Lang) -> String {
        use crate::catalogue::say;
        match self {
            ReaderError::TesseractMissing => say(lang, "reader-tesseract-missing", &[]),
            ReaderError::Model { which, message } => say(
                lang,
                "reader-model",
                &[("which", which), ("message", message)],
            ),
        }
    }
}

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

    pub fn new(whitelist: &'static str) -> Result<Self, ReaderError> {
        let datapath = tessdata_dir();
        let mut reader = TesseractReader {
            api: None,
            datapath,
            legacy: true,
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

/// A reading for tests: its text, confidence and alternatives.
#[cfg(test)]
pub(crate) fn reading(text: &str, confidence: f32, alternatives: &[(&str, f32)]) -> Reading {
    Reading {
        text: text.into(),
        confidence,
        alternatives: alternatives
            .iter()
            .map(|(t, p)| (t.to_string(), *p))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_reading_should_stay_as_it_is() {
        let only = reading("12", 0.7, &[("72", 0.2)]);
        assert_eq!(Reading::mean(std::slice::from_ref(&only)), only);
    }

    #[test]
    fn two_cuts_that_disagree_should_give_the_mean_of_their_readings() {
        let first = reading("3", 0.6, &[("8", 0.3), ("5", 0.1)]);
        let second = reading("8", 0.9, &[("3", 0.1)]);
        let mean = Reading::mean(&[first, second]);
        assert_eq!(mean.text, "8");
        assert!((mean.confidence - 0.6).abs() < 1e-6);
        assert_eq!(mean.alternatives[0].0, "3");
        assert!((mean.alternatives[0].1 - 0.35).abs() < 1e-6);
        // A text one cut does not list counts nothing there.
        assert_eq!(mean.alternatives[1].0, "5");
        assert!((mean.alternatives[1].1 - 0.05).abs() < 1e-6);
    }
}
