//! How long each stage of a page took: what the stage benchmark adds up
//! (`aufsicht-lab bench-stages`), to choose where the time is worth winning.

use std::time::{Duration, Instant};

use image::GrayImage;

use crate::read::{DigitReader, Reading};

/// The time of each stage of [`super::scan_page`] on one page.
#[derive(Debug, Clone, Copy, Default)]
pub struct StageTimes {
    /// Finding the form: the ruled lines, the homography, the header's print.
    pub locate: Duration,
    /// The printed title and row numbers read (Tesseract) or matched.
    pub confirm: Duration,
    /// Every field cut from the page and its ink told from the paper
    /// (marks, rings, pieces): reading the fields, less the nets.
    pub cut: Duration,
    /// The digit nets reading the fields' pieces (a second look's nets
    /// count under `check`).
    pub read: Duration,
    /// The printed code looked for (and, where unread, the printed numbers).
    pub code: Duration,
    /// The readings decoded against the rule set's legal rows.
    pub decode: Duration,
    /// The rules checked, with the second looks where a flag stands.
    pub check: Duration,
    /// The pens told apart, and the game's own checks.
    pub pens: Duration,
}

impl StageTimes {
    /// How many stages there are.
    pub const STAGES: usize = 8;

    /// Each stage's name and time, in the order a page goes through them.
    pub fn named(&self) -> [(&'static str, Duration); Self::STAGES] {
        [
            ("locate", self.locate),
            ("confirm", self.confirm),
            ("cut", self.cut),
            ("read", self.read),
            ("code", self.code),
            ("decode", self.decode),
            ("check", self.check),
            ("pens", self.pens),
        ]
    }
}

/// A digit reader that keeps the time spent in it: around the fields'
/// reading, what is not the nets' is cutting.
pub(super) struct Timed<'a> {
    inner: &'a mut dyn DigitReader,
    pub(super) spent: Duration,
}

impl<'a> Timed<'a> {
    pub(super) fn new(inner: &'a mut dyn DigitReader) -> Self {
        Timed {
            inner,
            spent: Duration::ZERO,
        }
    }

    fn time<T>(&mut self, f: impl FnOnce(&mut dyn DigitReader) -> T) -> T {
        let clock = Instant::now();
        let out = f(&mut *self.inner);
        self.spent += clock.elapsed();
        out
    }
}

impl DigitReader for Timed<'_> {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn read(&mut self, digits: &GrayImage) -> Reading {
        self.time(|r| r.read(digits))
    }

    fn read_batch(&mut self, cells: &[&GrayImage]) -> Vec<Reading> {
        self.time(|r| r.read_batch(cells))
    }

    fn second_opinion(&mut self, cells: &[&GrayImage]) -> Option<Vec<Reading>> {
        self.time(|r| r.second_opinion(cells))
    }

    fn adapted_opinion(
        &mut self,
        taught: &[(&GrayImage, u32)],
        cells: &[&GrayImage],
    ) -> Option<Vec<Reading>> {
        self.time(|r| r.adapted_opinion(taught, cells))
    }
}
