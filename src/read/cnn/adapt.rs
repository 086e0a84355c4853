//! The digit net tuned to one writer: its last layer taught the glyphs of
//! one sheet whose values the sheet's arithmetic confirms, starting from
//! the committed layer and staying near it (a few steps of descent).

use super::infer::Layer;
use super::reader::{DigitNet, hypotheses, softmax};
use super::*;

/// Fewer glyphs than this show too little of a hand to tune to.
const LEAST_GLYPHS: usize = 30;

/// Steps of gradient descent from the committed layer. On the tuning
/// sets 40 steps at a quarter of the rate moved a writer's "1" read "7"
/// by 0.02; these take it to 0.90 (400 steps at 16: 0.99, no better
/// over the sets).
const STEPS: usize = 200;

/// The step, in temperature² over the features' mean square norm (the
/// scale of a softmax layer's curvature on them).
const RATE: f32 = 4.0;

/// `net` with its last layer tuned on `taught` (a cell's writing with the
/// value it holds): a cell cut into as many pieces as its value has
/// digits gives each piece its digit. None where too few glyphs are.
pub(super) fn adapted(net: &DigitNet, taught: &[(&GrayImage, u32)]) -> Option<DigitNet> {
    let (inputs, labels) = glyphs(taught);
    if labels.len() < LEAST_GLYPHS {
        return None;
    }
    let flat: Vec<f32> = inputs.concat();
    let features = net.net.features(&flat, inputs.len());
    let head = tuned(net.net.head(), &features, &labels, net.temperature);
    Some(DigitNet {
        net: net.net.with_head(head),
        temperature: net.temperature,
    })
}

/// Each taught cell's pieces, normalised, with their digits.
fn glyphs(taught: &[(&GrayImage, u32)]) -> (Vec<Vec<f32>>, Vec<usize>) {
    let (mut inputs, mut labels) = (Vec::new(), Vec::new());
    for (writing, value) in taught {
        let digits: Vec<usize> = value
            .to_string()
            .bytes()
            .map(|b| usize::from(b - b'0'))
            .collect();
        let Some(pieces) = hypotheses(writing).filter(|p| p.len() == digits.len()) else {
            continue;
        };
        for (piece, digit) in pieces.iter().zip(digits) {
            if let Some(whole) = piece.first().and_then(|way| way.0.first()) {
                inputs.push(normalise(whole));
                labels.push(digit);
            }
        }
    }
    (inputs, labels)
}

/// `start` after [`STEPS`] of gradient descent on the cross-entropy of the
/// calibrated softmax (temperature `t`) of `features` (row-major, one row
/// per label) against `labels`.
fn tuned(start: &Layer, features: &[f32], labels: &[usize], t: f32) -> Layer {
    let (d, k) = (start.inputs, start.outputs);
    let n = labels.len() as f32;
    let square: f32 = features.iter().map(|v| v * v).sum::<f32>() / n;
    let rate = RATE * t * t / square.max(1e-6);
    let mut head = start.clone();
    for _ in 0..STEPS {
        let (mut gw, mut gb) = (vec![0f32; d * k], vec![0f32; k]);
        let logits = head.apply(features, labels.len(), false);
        let rows = features.chunks_exact(d).zip(logits.chunks_exact(k));
        for ((f, l), &y) in rows.zip(labels) {
            for (o, p) in softmax(l, t).into_iter().enumerate() {
                let g = (p - f32::from(u8::from(o == y))) / (t * n);
                gb[o] += g;
                for (i, v) in f.iter().enumerate() {
                    gw[i * k + o] += g * v;
                }
            }
        }
        head.w.iter_mut().zip(&gw).for_each(|(w, g)| *w -= rate * g);
        head.b.iter_mut().zip(&gb).for_each(|(b, g)| *b -= rate * g);
    }
    head
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A last layer over two features: the first makes a 1, the second a 7.
    fn one_and_seven() -> Layer {
        let mut w = vec![0f32; 2 * CLASSES];
        w[1] = 4.0;
        w[CLASSES + 7] = 4.0;
        Layer {
            w,
            b: vec![0.0; CLASSES],
            inputs: 2,
            outputs: CLASSES,
        }
    }

    fn best(head: &Layer, f: [f32; 2]) -> usize {
        let p = softmax(&head.apply(&f, 1, false), 1.0);
        (0..CLASSES)
            .max_by(|&a, &b| p[a].total_cmp(&p[b]))
            .unwrap_or(0)
    }

    #[test]
    fn a_writers_seven_shaped_like_a_one_should_be_read_as_seven_once_taught() {
        let start = one_and_seven();
        assert_eq!(best(&start, [1.0, 0.1]), 1);
        // This writer's 7s have the first feature; the 3s the second.
        let features = [[1.0, 0.1], [0.9, 0.0], [0.1, 1.0], [0.0, 0.9]].concat();
        let head = tuned(&start, &features, &[7, 7, 3, 3], 1.0);
        assert_eq!(best(&head, [1.0, 0.1]), 7);
        assert_eq!(best(&head, [0.1, 1.0]), 3);
    }

    #[test]
    fn a_hand_read_as_taught_should_keep_its_readings() {
        let start = one_and_seven();
        let features = [[1.0, 0.0], [0.0, 1.0]].concat();
        let head = tuned(&start, &features, &[1, 7], 1.0);
        assert_eq!(best(&head, [1.0, 0.0]), 1);
        assert_eq!(best(&head, [0.0, 1.0]), 7);
    }
}
