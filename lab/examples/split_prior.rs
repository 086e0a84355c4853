//! How many digits a piece of ink of a given width-to-height ratio holds,
//! on sheets drawn from the MNIST training digits (not the held-back ones):
//! the data behind `cnn::splits`' priors. A piece's count is known when a
//! field's pieces are as many as its digits (one each), or when the field
//! is one piece (all of them).
//!
//! `cargo run --release --example split_prior -- [SHEETS]`

use aufsicht::RuleSet;
use aufsicht::page::form::FormTemplate;
use aufsicht_lab::{harvest, synth};

fn main() -> Result<(), String> {
    let sheets: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(60);
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let digits = synth::Digits::from_dir(&root.join("data/mnist"))?
        .without_last(aufsicht::read::cnn::HELD_BACK);
    let pair = |r: &str, f: &str| -> Result<(RuleSet, FormTemplate), String> {
        Ok((
            RuleSet::load(r).map_err(|e| e.to_string())?,
            FormTemplate::load(f).map_err(|e| e.to_string())?,
        ))
    };
    let pairs = vec![
        pair("merkur", "punkteliste-a4-32")?,
        pair("doppelkopf", "doko-a4-24x5")?,
    ];
    // Per aspect bucket of 0.1: pieces holding 1, 2, 3, 4 digits.
    let mut counts = [[0usize; 4]; 40];
    let mut fields = std::collections::BTreeMap::new();
    for i in 0..sheets {
        let Some((sheet, form, image)) =
            harvest::drawn_sheet(&pairs, &digits, None, i, 77, harvest::CAPTURES)
        else {
            continue;
        };
        for (text, pieces) in harvest::cut_fields(&sheet, form, &image).unwrap_or_default() {
            *fields.entry((text.len(), pieces.len())).or_insert(0usize) += 1;
            let k = match pieces.len() {
                p if p == text.len() => 1,
                1 if text.len() <= 4 => text.len(),
                _ => continue,
            };
            for p in &pieces {
                let a = f64::from(p.width()) / f64::from(p.height().max(1));
                counts[((a * 10.0) as usize).min(39)][k - 1] += 1;
            }
        }
    }
    println!("aspect   1 digit  2 digits  3 digits  4 digits");
    for (b, c) in counts.iter().enumerate() {
        if c.iter().sum::<usize>() > 0 {
            println!(
                "{:.1}-{:.1} {:>8} {:>9} {:>9} {:>9}",
                b as f64 / 10.0,
                (b + 1) as f64 / 10.0,
                c[0],
                c[1],
                c[2],
                c[3]
            );
        }
    }
    println!("digits written, pieces cut: fields");
    for ((l, p), n) in fields {
        println!("{l} {p}: {n}");
    }
    Ok(())
}
