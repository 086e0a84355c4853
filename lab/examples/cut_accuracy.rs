//! How a digit model reads digits as the pipeline cuts them from sheets
//! drawn with the held-back MNIST training digits (never trained on):
//! share right with the best digit, share whose best class is "not one
//! digit", and how the "not one digit" parts are read.
//!
//! `cargo run --release --example cut_accuracy -- MODEL.safetensors [SHEETS]`

use aufsicht::RuleSet;
use aufsicht::page::form::FormTemplate;
use aufsicht::read::cnn::{CnnReader, HELD_BACK, NOT_A_DIGIT};
use aufsicht_lab::{harvest, synth};

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let model = args.next().ok_or("usage: cut_accuracy MODEL [SHEETS]")?;
    let sheets: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(60);
    let reader = CnnReader::from_bytes(std::fs::read(&model).map_err(|e| e.to_string())?)
        .map_err(|e| e.to_string())?;
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let digits = synth::Digits::from_dir(&root.join("data/mnist"))?.last(HELD_BACK);
    let pairs = [
        ("merkur", "punkteliste-a4-32"),
        ("doppelkopf", "doko-a4-24x5"),
        ("schwaig", "punkteliste-a4-32"),
    ]
    .iter()
    .map(|(r, f)| {
        Ok((
            RuleSet::load(r).map_err(|e| e.to_string())?,
            FormTemplate::load(f).map_err(|e| e.to_string())?,
        ))
    })
    .collect::<Result<Vec<_>, String>>()?;
    // A seed no training run uses (training: seed * 1000 + 1 and + 2).
    let h = harvest::harvest(&pairs, &digits, None, sheets, 424_242, harvest::CAPTURES);
    let inputs: Vec<Vec<f32>> = h.samples.iter().map(|s| s.0.clone()).collect();
    let probs = reader.classify(&inputs);
    let (mut n, mut right, mut as_junk, mut junk_n, mut junk_right) = (0, 0, 0, 0, 0);
    let mut junk_mass = 0.0;
    for (p, (_, label)) in probs.iter().zip(&h.samples) {
        let best_digit = (0..NOT_A_DIGIT)
            .max_by(|&a, &b| p[a].total_cmp(&p[b]))
            .unwrap_or(0);
        let best = (0..p.len())
            .max_by(|&a, &b| p[a].total_cmp(&p[b]))
            .unwrap_or(0);
        if *label as usize == NOT_A_DIGIT {
            junk_n += 1;
            junk_right += usize::from(best == NOT_A_DIGIT);
        } else {
            n += 1;
            right += usize::from(best_digit == *label as usize);
            as_junk += usize::from(best == NOT_A_DIGIT);
            junk_mass += f64::from(p.get(NOT_A_DIGIT).copied().unwrap_or(0.0));
        }
    }
    // Digits only, renormalised (as a reading uses them): the scale of the
    // log-probabilities with the least negative log-likelihood.
    let nll = |scale: f64| -> f64 {
        probs
            .iter()
            .zip(&h.samples)
            .filter(|(_, s)| (s.1 as usize) < NOT_A_DIGIT)
            .map(|(p, s)| {
                let l: Vec<f64> = p[..NOT_A_DIGIT]
                    .iter()
                    .map(|&v| scale * f64::from(v.max(1e-30)).ln())
                    .collect();
                let m = l.iter().copied().fold(f64::MIN, f64::max);
                let z: f64 = l.iter().map(|v| (v - m).exp()).sum();
                z.ln() + m - l[s.1 as usize]
            })
            .sum()
    };
    let best_scale = (50..=200)
        .map(|i| f64::from(i) / 100.0)
        .min_by(|a, b| nll(*a).total_cmp(&nll(*b)))
        .unwrap_or(1.0);
    println!(
        "digits only: best scale of the log-probabilities {best_scale:.2} (1 = as calibrated)"
    );
    let pct = |a: usize, b: usize| 100.0 * a as f64 / b.max(1) as f64;
    println!(
        "{sheets} sheets: {n} digits, best digit right {:.2}%, best class 'not one digit' {:.2}%, mean 'not one digit' {:.4}; {junk_n} parts not one digit, {:.2}% read so",
        pct(right, n),
        pct(as_junk, n),
        junk_mass / n.max(1) as f64,
        pct(junk_right, junk_n),
    );
    Ok(())
}
