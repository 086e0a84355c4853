//! Reading digits: the `DigitReader` trait and its readers: [`cnn`], the
//! trained nets, and Tesseract (strong on print, weak on handwriting:
//! measured, see docs/reading.md); the `PrintReader` trait for the print
//! on a sheet: Tesseract, or [`font`], which matches the form's own font.

pub mod cnn;
pub mod font;
mod openmp;
#[cfg(feature = "tesseract")]
mod tesseract;

pub use openmp::limit_openmp_threads;
#[cfg(feature = "tesseract")]
pub use tesseract::{TesseractReader, tessdata_dir};

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
        let even = 1.0 / all.len().max(1) as f32;
        Reading::weighted(&all.iter().map(|r| (r, even)).collect::<Vec<_>>())
    }

    /// Readings of one field weighed: each text's probability the sum of
    /// its probabilities times their readings' weights (which add up to 1).
    pub fn weighted(all: &[(&Reading, f32)]) -> Reading {
        let mut p: Vec<(String, f32)> = Vec::new();
        for (r, w) in all {
            for (t, c) in r.listed() {
                match p.iter_mut().find(|(u, _)| u == t) {
                    Some(e) => e.1 += c * w,
                    None => p.push((t.clone(), c * w)),
                }
            }
        }
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
    /// Readings of `cells` by the reader tuned to one writer's hand on
    /// `taught`: that writer's writing with the value the sheet's
    /// arithmetic confirms. None where this reader cannot be tuned, or
    /// `taught` shows too little of the hand.
    fn adapted_opinion(
        &mut self,
        _taught: &[(&GrayImage, u32)],
        _cells: &[&GrayImage],
    ) -> Option<Vec<Reading>> {
        None
    }
}

/// Reads the print on a sheet: the form's title and row numbers, and a
/// drawn table's printed numbers where its code cannot be read.
pub trait PrintReader {
    /// The text of one printed line, where this reader reads letters; None
    /// where it does not (the line is then held against its expected print).
    fn line(&mut self, img: &GrayImage) -> Option<Reading>;
    /// The printed number in `img` (black on white, any margin).
    fn number(&mut self, img: &GrayImage) -> Reading;
}

/// The reader for the print: Tesseract where this build has it, else the
/// form's font matched glyph by glyph.
pub fn print_reader() -> Result<Box<dyn PrintReader + Send>, ReaderError> {
    #[cfg(feature = "tesseract")]
    return Ok(Box::new(TesseractReader::printed()?));
    #[cfg(not(feature = "tesseract"))]
    return Ok(Box::new(font::FontDigits::new()));
}

/// Tesseract's digit reader, where this build has Tesseract.
pub fn tesseract_digits() -> Result<Box<dyn DigitReader + Send>, ReaderError> {
    #[cfg(feature = "tesseract")]
    return Ok(Box::new(TesseractReader::digits()?));
    #[cfg(not(feature = "tesseract"))]
    return Err(ReaderError::NotBuilt);
}

/// A reader that cannot be set up.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{}", self.tell(crate::Lang::En))]
pub enum ReaderError {
    /// Neither of Tesseract's engines starts: its English model is missing.
    TesseractMissing,
    /// This build has no Tesseract (built without its feature).
    NotBuilt,
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
            ReaderError::NotBuilt => say(lang, "reader-tesseract-not-built", &[]),
            ReaderError::Model { which, message } => say(
                lang,
                "reader-model",
                &[("which", which), ("message", message)],
            ),
        }
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
