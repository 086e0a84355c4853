//! Handwritten digits for drawing test sheets: the MNIST training split
//! (or the bundled subset), read from its idx files.

use std::io::Read;
use std::path::Path;

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

/// Handwritten digits: 28×28 images (ink bright on black, as MNIST) and labels.
#[derive(Clone)]
pub struct Digits {
    images: Vec<[u8; 784]>,
    by_label: [Vec<usize>; 10],
}

impl Digits {
    /// Reads an idx3 images file and its idx1 labels file (plain or `.gz`).
    pub fn load(images: &Path, labels: &Path) -> Result<Self, String> {
        let img = read_maybe_gz(images)?;
        let lab = read_maybe_gz(labels)?;
        if img.len() < 16 || lab.len() < 8 || img[..4] != [0, 0, 8, 3] || lab[..4] != [0, 0, 8, 1] {
            return Err(format!(
                "{} / {} are not MNIST idx files",
                images.display(),
                labels.display()
            ));
        }
        let n = u32::from_be_bytes([img[4], img[5], img[6], img[7]]) as usize;
        if img.len() < 16 + n * 784 || lab.len() < 8 + n {
            return Err("the MNIST files are truncated".into());
        }
        let mut by_label: [Vec<usize>; 10] = Default::default();
        let mut images = Vec::with_capacity(n);
        for i in 0..n {
            let mut a = [0u8; 784];
            a.copy_from_slice(&img[16 + i * 784..16 + (i + 1) * 784]);
            images.push(a);
            let l = lab[8 + i] as usize;
            if l < 10 {
                by_label[l].push(i);
            }
        }
        if by_label.iter().any(Vec::is_empty) {
            return Err("the MNIST files lack some digit".into());
        }
        Ok(Digits { images, by_label })
    }

    /// The digits in `dir`: the full training split if fetched
    /// (`train-images.idx3-ubyte`), else the small bundled subset.
    pub fn from_dir(dir: &Path) -> Result<Self, String> {
        for (i, l) in [
            ("train-images.idx3-ubyte", "train-labels.idx1-ubyte"),
            (
                "train-images-subset.idx3-ubyte.gz",
                "train-labels-subset.idx1-ubyte.gz",
            ),
        ] {
            if dir.join(i).exists() {
                return Self::load(&dir.join(i), &dir.join(l));
            }
        }
        Err(format!(
            "no MNIST training digits in {} (run scripts/fetch-mnist.sh)",
            dir.display()
        ))
    }

    /// Only the last `n` images: the training command holds them back, so
    /// sheets drawn from them measure the digit model on digits it never saw.
    pub fn last(mut self, n: usize) -> Self {
        let start = self.images.len().saturating_sub(n);
        for list in &mut self.by_label {
            list.retain(|&i| i >= start);
        }
        self
    }

    /// All but the last `n` images: what the training command may draw.
    pub fn without_last(mut self, n: usize) -> Self {
        let end = self.images.len().saturating_sub(n);
        for list in &mut self.by_label {
            list.retain(|&i| i < end);
        }
        self
    }

    /// These digits with `extra` put in before the last `held` (which a
    /// training holds back, so they stay the last).
    pub fn with_before_last(self, extra: Vec<([u8; 784], u8)>, held: usize) -> Self {
        let split = self.images.len().saturating_sub(held);
        let mut labelled: Vec<([u8; 784], u8)> = (0..self.images.len())
            .map(|i| {
                let (img, label) = self.get(i);
                (*img, label)
            })
            .collect();
        let tail = labelled.split_off(split);
        labelled.extend(extra);
        labelled.extend(tail);
        let mut by_label: [Vec<usize>; 10] = Default::default();
        let mut images = Vec::with_capacity(labelled.len());
        for (i, (img, label)) in labelled.into_iter().enumerate() {
            by_label[label as usize % 10].push(i);
            images.push(img);
        }
        Digits { images, by_label }
    }

    pub fn len(&self) -> usize {
        self.images.len()
    }

    pub fn is_empty(&self) -> bool {
        self.images.is_empty()
    }

    /// Image `i` (28×28, ink bright) and its label.
    pub fn get(&self, i: usize) -> (&[u8; 784], u8) {
        let label = self
            .by_label
            .iter()
            .position(|l| l.binary_search(&i).is_ok())
            .unwrap_or(0);
        (&self.images[i], label as u8)
    }

    /// One writer's own forms of the digits: `per_digit` of each, the
    /// only ones that writer writes.
    pub(crate) fn writer(&self, per_digit: usize, rng: &mut ChaCha8Rng) -> Digits {
        let mut images = Vec::new();
        let mut by_label: [Vec<usize>; 10] = Default::default();
        for (own, list) in by_label.iter_mut().zip(&self.by_label) {
            for _ in 0..per_digit.min(list.len()) {
                own.push(images.len());
                images.push(self.images[list[rng.random_range(0..list.len())]]);
            }
        }
        Digits { images, by_label }
    }

    pub(crate) fn pick(&self, digit: u32, rng: &mut ChaCha8Rng) -> &[u8; 784] {
        let list = &self.by_label[digit as usize % 10];
        &self.images[list[rng.random_range(0..list.len())]]
    }
}

fn read_maybe_gz(path: &Path) -> Result<Vec<u8>, String> {
    let raw = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if raw.starts_with(&[0x1f, 0x8b]) {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(&raw[..])
            .read_to_end(&mut out)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(out)
    } else {
        Ok(raw)
    }
}
