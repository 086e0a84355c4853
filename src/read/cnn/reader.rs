//! The reader: every way to cut a cell's ink read by the nets, and the
//! cell's best strings with their probabilities.

use super::*;

/// One digit net with its calibration: what reads a 28×28 input.
pub(super) struct DigitNet {
    pub(super) net: infer::Inference,
    /// Logits are divided by it before the softmax so that the
    /// probabilities are calibrated (fitted on held-back digits in training).
    pub(super) temperature: f32,
}

/// 28×28 inputs one after another, where every one is 28×28.
fn flat(inputs: &[Vec<f32>]) -> Option<Vec<f32>> {
    let flat: Vec<f32> = inputs.iter().flatten().copied().collect();
    (flat.len() == inputs.len() * 784).then_some(flat)
}

impl DigitNet {
    fn from_bytes(bytes: Vec<u8>) -> Result<Self, ReaderError> {
        let (net, temperature) = load_net(bytes, "digit", |tensors| Shape {
            // Models made before the "not one digit" class read only digits.
            classes: tensors
                .get("f2.bias")
                .map_or(CLASSES, |b| b.values.len().min(CLASSES)),
            ..Shape::DIGIT
        })?;
        Ok(DigitNet { net, temperature })
    }

    fn classify(&self, inputs: &[Vec<f32>]) -> Vec<[f32; CLASSES]> {
        let Some(flat) = flat(inputs) else {
            return Vec::new();
        };
        let logits = self.net.forward(&flat, inputs.len());
        let classes = logits.len() / inputs.len().max(1);
        logits
            .chunks_exact(classes.max(1))
            .map(|l| {
                let mut a = [0f32; CLASSES];
                a.iter_mut()
                    .zip(softmax(l, self.temperature))
                    .for_each(|(o, p)| *o = p);
                a
            })
            .collect()
    }
}

pub struct CnnReader {
    pub(super) digits: DigitNet,
    /// Reads a piece that may be two touching digits whole, beside the cuts.
    pub(super) pair: Option<pair::PairReader>,
    /// A second net, trained otherwise, whose opinion is asked where a
    /// rule flag stands ([`DigitReader::second_opinion`]); it reads with
    /// the same segmentation and pair net as the first.
    pub(super) second: Option<DigitNet>,
}

impl CnnReader {
    /// The committed model, with the committed second net beside it.
    pub fn new() -> Result<Self, ReaderError> {
        let mut reader = Self::from_bytes(MODEL.to_vec())?;
        reader.second = Some(DigitNet::from_bytes(SECOND_MODEL.to_vec())?);
        Ok(reader)
    }

    pub fn from_bytes(bytes: Vec<u8>) -> Result<Self, ReaderError> {
        Ok(CnnReader {
            digits: DigitNet::from_bytes(bytes)?,
            pair: pair::PairReader::committed(),
            second: None,
        })
    }

    /// Probabilities of 0..9 and [`NOT_A_DIGIT`] for each 28×28 input.
    pub fn classify(&self, inputs: &[Vec<f32>]) -> Vec<[f32; CLASSES]> {
        self.digits.classify(inputs)
    }

    /// The digit net's embedding of each 28×28 input (its last hidden layer).
    pub fn embed(&self, inputs: &[Vec<f32>]) -> Vec<Vec<f32>> {
        let Some(flat) = flat(inputs).filter(|f| !f.is_empty()) else {
            return Vec::new();
        };
        let features = self.digits.net.features(&flat, inputs.len());
        let width = features.len() / inputs.len();
        features
            .chunks_exact(width.max(1))
            .map(<[f32]>::to_vec)
            .collect()
    }
}

/// A model file's net (`which` names it in errors), ready to run, and the
/// temperature stored with it: its shape from `shape_of` the file's
/// tensors, its layers as the file has them.
pub(super) fn load_net(
    bytes: Vec<u8>,
    which: &'static str,
    shape_of: impl FnOnce(&Tensors) -> Shape,
) -> Result<(infer::Inference, f32), ReaderError> {
    let tensors = tensors_of(&bytes).map_err(|e| model_error(which, e))?;
    let shape = Shape {
        layers: Layers::of_tensors(&tensors),
        ..shape_of(&tensors)
    };
    let net = infer::Inference::from_tensors(shape, &tensors).map_err(|e| model_error(which, e))?;
    Ok((net, stored_temperature(&tensors)))
}

/// Probabilities from logits divided by the temperature `t`.
pub(super) fn softmax(logits: &[f32], t: f32) -> Vec<f32> {
    let top = logits.iter().fold(f32::MIN, |a, &b| a.max(b));
    let e: Vec<f32> = logits.iter().map(|&v| ((v - top) / t).exp()).collect();
    let sum: f32 = e.iter().sum();
    e.into_iter().map(|p| p / sum).collect()
}

impl DigitReader for CnnReader {
    fn name(&self) -> &str {
        "cnn-mnist"
    }

    fn read(&mut self, digits: &GrayImage) -> Reading {
        self.read_batch(&[digits])
            .pop()
            .unwrap_or_else(Reading::none)
    }

    fn read_batch(&mut self, cells: &[&GrayImage]) -> Vec<Reading> {
        self.read_with(&self.digits, cells)
    }

    fn second_opinion(&mut self, cells: &[&GrayImage]) -> Option<Vec<Reading>> {
        Some(self.read_with(self.second.as_ref()?, cells))
    }

    fn adapted_opinion(
        &mut self,
        taught: &[(&GrayImage, u32)],
        cells: &[&GrayImage],
    ) -> Option<Vec<Reading>> {
        let own = super::adapt::adapted(&self.digits, taught)?;
        Some(self.read_with(&own, cells))
    }
}

impl CnnReader {
    /// All cells' digits go through `net` in three batches: every piece
    /// whole; the first cut into each number of digits of the pieces not
    /// read whole with confidence (together those weigh less than the whole
    /// reading, so they could only add alternatives); then the further cuts
    /// into two where the first is not read surely (the net is the costliest
    /// stage, and a sure first cut leaves the others nothing to win).
    fn read_with(&self, net: &DigitNet, cells: &[&GrayImage]) -> Vec<Reading> {
        let mut options: Vec<Option<Options>> = cells.iter().map(|c| hypotheses(c)).collect();
        let whole: Vec<Vec<f32>> = options
            .iter()
            .flatten()
            .flatten()
            .map(|ways| normalise(&ways[0].0[0]))
            .collect();
        let whole_probs = net.classify(&whole);
        for (ways, p) in options.iter_mut().flatten().flatten().zip(&whole_probs) {
            settle_ways(ways, p);
        }
        // Per piece, per way: the net's probabilities of its parts, once read.
        let mut read: Vec<Vec<Option<Parts>>> = options
            .iter()
            .flatten()
            .flatten()
            .zip(whole_probs)
            .map(|(ways, p)| {
                let mut r = vec![None; ways.len()];
                r[0] = Some(vec![p]);
                r
            })
            .collect();
        for further in [false, true] {
            let pieces: Vec<&Vec<Way>> = options.iter().flatten().flatten().collect();
            let queued = ways_to_read(&pieces, &read, further);
            let inputs: Vec<Vec<f32>> = queued
                .iter()
                .flat_map(|&(i, j)| pieces[i][j].0.iter().map(normalise))
                .collect();
            let mut probs = net.classify(&inputs).into_iter();
            for (i, j) in queued {
                let n = pieces[i][j].0.len();
                read[i][j] = Some(probs.by_ref().take(n).collect());
            }
        }
        // Further cuts not read are not ways to read the piece.
        let mut ordered = Vec::new();
        for (ways, r) in options.iter_mut().flatten().flatten().zip(read) {
            let mut r = r.into_iter();
            ways.retain(|_| match r.next().flatten() {
                Some(p) => {
                    ordered.extend(p);
                    true
                }
                None => false,
            });
        }
        let mut probs = ordered.into_iter();
        let mut pairs = self.read_pairs(&options).into_iter();
        options
            .iter()
            .map(|o| match o {
                Some(o) => best_strings(o, &mut probs, &mut pairs),
                None => Reading::none(),
            })
            .collect()
    }

    /// Per piece, the pair net's probabilities of it read whole, where a
    /// way cuts it in two (and a pair model is committed).
    fn read_pairs(&self, options: &[Option<Options>]) -> Vec<Option<Vec<f32>>> {
        let pieces: Vec<&Vec<Way>> = options.iter().flatten().flatten().collect();
        let Some(reader) = &self.pair else {
            return vec![None; pieces.len()];
        };
        let two = |ways: &Vec<Way>| ways.iter().any(|w| w.0.len() == 2);
        let inputs: Vec<Vec<f32>> = pieces
            .iter()
            .filter(|ways| two(ways))
            .map(|ways| pair::normalise_pair(&ways[0].0[0]))
            .collect();
        let mut read = reader.classify(&inputs).into_iter();
        pieces
            .iter()
            .map(|ways| if two(ways) { read.next() } else { None })
            .collect()
    }
}

/// What the net reads of each piece's ways ((piece, way) pairs): the first
/// cut into each number of digits, or, `further`, the other cuts into as
/// many digits where the first was not read surely.
pub(super) fn ways_to_read(
    pieces: &[&Vec<Way>],
    read: &[Vec<Option<Parts>>],
    further: bool,
) -> Vec<(usize, usize)> {
    let mut queued = Vec::new();
    for (i, ways) in pieces.iter().enumerate() {
        for (j, (imgs, _)) in ways.iter().enumerate().skip(1) {
            let first = (1..j).find(|&k| ways[k].0.len() == imgs.len());
            let wanted = match first {
                None => !further,
                Some(k) => {
                    let parts = read
                        .get(i)
                        .and_then(|r| r.get(k))
                        .and_then(Option::as_deref);
                    further && surety(parts) < SURE_CUT
                }
            };
            if wanted {
                queued.push((i, j));
            }
        }
    }
    queued
}

/// The net's probabilities for the parts of one way.
pub(super) type Parts = Vec<[f32; CLASSES]>;

/// How surely the net reads every part of a way as a digit (the product of
/// their best digits' probabilities); 0 when it was not read.
pub(super) fn surety(parts: Option<&[[f32; CLASSES]]>) -> f32 {
    parts.map_or(0.0, |ps| ps.iter().map(best_digit).product())
}

/// The probability of the net's likeliest digit.
pub(super) fn best_digit(p: &[f32; CLASSES]) -> f32 {
    p[..NOT_A_DIGIT].iter().copied().fold(0.0, f32::max)
}

/// A piece's ways to be read, once the net has read it whole: a piece read
/// whole with confidence is not cut; a narrow one the net calls no digit
/// is also read as two touching digits.
pub(super) fn settle_ways(ways: &mut Vec<Way>, whole: &[f32; CLASSES]) {
    let best = best_digit(whole);
    let Some(first) = ways.first() else {
        return;
    };
    if first.1 * best >= SURE_WHOLE {
        ways.truncate(1);
    } else if ways.len() == 1 && whole[NOT_A_DIGIT] >= 0.5 {
        let piece = &first.0[0];
        if piece.width() >= 8 {
            ways.extend(
                two_cuts(piece, Cuts::AlongPathToo)
                    .into_iter()
                    .map(|c| (c, TOUCHING_PRIOR)),
            );
        }
    }
}

/// One way to read a piece: its parts (one digit, or several touching
/// ones) with the way's prior weight.
pub type Way = (Vec<GrayImage>, f32);

/// A cell's pieces, each as its ways to be read.
pub(super) type Options = Vec<Vec<Way>>;

pub(super) fn hypotheses(digits: &GrayImage) -> Option<Options> {
    let pieces = segment(digits);
    if pieces.is_empty() || pieces.len() > 6 {
        return None;
    }
    // Each piece is one digit or several touching ones: all are read, and
    // the width of the piece weighs them.
    Some(
        pieces
            .iter()
            .map(|p| splits(p, Cuts::AlongPathToo))
            .collect(),
    )
}

/// One way of reading a piece as the net saw it: how many digits, how
/// surely each part is a digit (product), the mass it gives to digits, and
/// its strings.
pub(super) type CutRead = (usize, f32, f32, Vec<(String, f32)>);

/// The best strings of a cell's options, given the net's probabilities in
/// the order the options' digits were queued.
pub(super) fn best_strings(
    options: &Options,
    probs: &mut impl Iterator<Item = [f32; CLASSES]>,
    pairs: &mut impl Iterator<Item = Option<Vec<f32>>>,
) -> Reading {
    let mut beam: Vec<(String, f32)> = vec![(String::new(), 1.0)];
    for piece in options {
        let pair = pairs.next().flatten();
        // Per number of digits, the cut the net reads best.
        let mut best_cut: Vec<CutRead> = Vec::new();
        for (imgs, prior) in piece {
            // The strings this option can be, best first.
            let mut strings: Vec<(String, f32)> = vec![(String::new(), *prior)];
            let mut mass = *prior;
            let mut sure = 1.0;
            let mut parts: Parts = Vec::new();
            for _ in imgs {
                let p = probs.next().unwrap_or([0.1; CLASSES]);
                parts.push(p);
                mass *= 1.0 - p[NOT_A_DIGIT];
                sure *= best_digit(&p);
                let mut top: Vec<(usize, f32)> =
                    p[..NOT_A_DIGIT].iter().copied().enumerate().collect();
                top.sort_by(|a, b| b.1.total_cmp(&a.1));
                strings = strings
                    .iter()
                    .flat_map(|(t, q)| {
                        top.iter()
                            .take(3)
                            .map(move |&(d, pd)| (format!("{t}{d}"), q * pd))
                    })
                    .collect();
            }
            // A cut read surely is left as read: mixed in, the pair net
            // (less sure than the digit net of each part) only made sure
            // readings unsure (tuning sets: 3.54 -> 3.71 uncertain cells a
            // sheet ungated, 3.52 gated).
            if let ([a, b], Some(whole), true) = (parts.as_slice(), &pair, sure < SURE_CUT) {
                (mass, strings) = with_pair(*prior, [a, b], whole);
            }
            match best_cut.iter_mut().find(|b| b.0 == imgs.len()) {
                Some(b) if b.1 >= sure => {}
                Some(b) => *b = (imgs.len(), sure, mass, strings),
                None => best_cut.push((imgs.len(), sure, mass, strings)),
            }
        }
        let digit_mass: f32 = best_cut.iter().map(|b| b.2).sum();
        let strings_of_piece: Vec<(String, f32)> = best_cut.into_iter().flat_map(|b| b.3).collect();
        let z = digit_mass.max(DIGITS_FLOOR);
        let mut next = Vec::new();
        for (text, q) in &beam {
            for (t, p) in &strings_of_piece {
                next.push((format!("{text}{t}"), q * p / z));
            }
        }
        next.sort_by(|a, b| b.1.total_cmp(&a.1));
        next.truncate(8);
        beam = next;
    }
    // The same string from two cuts is one reading.
    let mut merged: Vec<(String, f32)> = Vec::new();
    for (t, p) in beam {
        match merged.iter_mut().find(|m| m.0 == t) {
            Some(m) => m.1 += p,
            None => merged.push((t, p)),
        }
    }
    merged.sort_by(|a, b| b.1.total_cmp(&a.1));
    let (text, confidence) = merged.first().cloned().unwrap_or_default();
    Reading {
        text,
        confidence: confidence.min(1.0),
        alternatives: merged.into_iter().skip(1).take(4).collect(),
    }
}

/// The share of the pair net in reading a piece as two digits; the cut's
/// parts read one by one have the rest (tuning sets, mean cells, first
/// model: 0.3 99.36%, 0.5 99.39%, 0.7 99.36%; committed model: 0.35
/// 99.39%, 0.5 99.44%, 0.65 99.41%).
pub(super) const PAIR_SHARE: f32 = 0.5;

/// A piece's way into two digits, read both as its two cut parts and by the
/// pair net whole: the mass it gives to two digits and its best strings.
pub(super) fn with_pair(
    prior: f32,
    parts: [&[f32; CLASSES]; 2],
    whole: &[f32],
) -> (f32, Vec<(String, f32)>) {
    let cut = 1.0 - PAIR_SHARE;
    let mass = prior
        * (cut * (1.0 - parts[0][NOT_A_DIGIT]) * (1.0 - parts[1][NOT_A_DIGIT])
            + PAIR_SHARE * (1.0 - whole.get(pair::NOT_TWO).copied().unwrap_or(1.0)));
    let top = |p: &[f32], n: usize| {
        let mut t: Vec<(usize, f32)> = p.iter().copied().enumerate().collect();
        t.sort_by(|a, b| b.1.total_cmp(&a.1));
        t.into_iter().take(n).map(|(d, _)| d).collect::<Vec<_>>()
    };
    let mut candidates: Vec<usize> = top(&whole[..pair::NOT_TWO.min(whole.len())], 5);
    for a in top(&parts[0][..NOT_A_DIGIT], 3) {
        for b in top(&parts[1][..NOT_A_DIGIT], 3) {
            candidates.push(10 * a + b);
        }
    }
    candidates.sort_unstable();
    candidates.dedup();
    let mut strings: Vec<(String, f32)> = candidates
        .into_iter()
        .map(|ab| {
            let p = cut * parts[0][ab / 10] * parts[1][ab % 10]
                + PAIR_SHARE * whole.get(ab).copied().unwrap_or(0.0);
            (format!("{:02}", ab), prior * p)
        })
        .collect();
    strings.sort_by(|a, b| b.1.total_cmp(&a.1));
    strings.truncate(9);
    (mass, strings)
}
