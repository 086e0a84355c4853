//! Developer aid: how much reading each sheet in its own writer's hand
//! could win. For every generated sheet of a set (its truth beside its
//! scan), each game value's glyphs are cut as the reader cuts them and
//! read by the committed net. The glyphs the net reads surely (at least
//! `SURE`) give this writer's prototype of each digit: the mean of the
//! net's embeddings (its last hidden layer). The doubtful glyphs (below
//! `DOUBT`) are then read again, each digit's log-probability plus LAMBDA
//! times the glyph's cosine to the writer's prototype (`mean`), or to the
//! writer's nearest sure glyph of that digit (`nearest`). Only the net's
//! own sure readings teach the writer; the truth only counts what is right.
//! Usage: writer_prototypes SET_DIR [SET_DIR ...]

use std::path::Path;

use aufsicht::cells::{self, Mark};
use aufsicht::page::form::FormTemplate;
use aufsicht::read::cnn::{CnnReader, normalise, segment};

/// A glyph read at least this surely teaches the writer's digit.
const SURE: f32 = 0.995;
/// A glyph read less surely than this is read again.
const DOUBT: f32 = 0.9;
/// The weights of the writer's prototypes tried (0: the net alone).
const LAMBDAS: [f32; 6] = [0.0, 1.0, 2.0, 4.0, 8.0, 16.0];

struct Glyph {
    truth: usize,
    probs: [f32; 11],
    embedding: Vec<f32>,
}

fn main() {
    let reader = CnnReader::new().expect("the committed nets");
    let forms = FormTemplate::builtins();
    let mut right = [[0usize; LAMBDAS.len()]; 2];
    let (mut doubtful, mut sheets, mut glyphs_seen) = (0, 0, 0);
    for dir in std::env::args().skip(1) {
        let truths = std::fs::read_dir(Path::new(&dir).join("truth")).expect("truth folder");
        for entry in truths.flatten() {
            let Some(glyphs) = sheet_glyphs(&entry.path(), &reader, &forms) else {
                continue;
            };
            sheets += 1;
            glyphs_seen += glyphs.len();
            let prototypes = prototypes(&glyphs);
            for g in glyphs.iter().filter(|g| top(&g.probs).1 < DOUBT) {
                doubtful += 1;
                let nearest = nearest(g, &glyphs);
                for (i, &lambda) in LAMBDAS.iter().enumerate() {
                    right[0][i] +=
                        usize::from(reread(g, &prototypes_cos(g, &prototypes), lambda) == g.truth);
                    right[1][i] += usize::from(reread(g, &nearest, lambda) == g.truth);
                }
            }
        }
    }
    println!("sheets {sheets}  glyphs {glyphs_seen}  doubtful (< {DOUBT}) {doubtful}");
    for (way, right) in ["mean", "nearest"].iter().zip(right) {
        for (lambda, r) in LAMBDAS.iter().zip(right) {
            let share = r as f64 / doubtful.max(1) as f64;
            println!(
                "{way:>7} lambda {lambda:>4}: doubtful glyphs read right {r}/{doubtful} ({share:.4})"
            );
        }
    }
}

/// The labelled glyphs of one sheet's game values: a value whose cut
/// gives as many pieces as it has digits.
fn sheet_glyphs(truth: &Path, reader: &CnnReader, forms: &[FormTemplate]) -> Option<Vec<Glyph>> {
    let sheet: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(truth).ok()?).ok()?;
    let scan = Path::new(sheet["source"].as_str()?);
    let page = aufsicht::page::input::load(scan).next()?;
    let img = page.image.ok()?;
    let aligned = aufsicht::scan::locate(&img, forms).ok()?;
    let mut pieces = Vec::new();
    let mut labels = Vec::new();
    for (r, game) in sheet["games"].as_array()?.iter().enumerate() {
        for (s, cell) in game["cells"].as_array()?.iter().enumerate() {
            if cell.get("corrected").is_some() || cell.get("strike").is_some() {
                continue;
            }
            let boxes = aligned.form.fields.game.get(r)?.get(s)?;
            for (value, bx) in [(&cell["plus"], boxes.plus), (&cell["minus"], boxes.minus)] {
                let Some(v) = value.as_u64() else { continue };
                let c = cells::analyse(&cells::cut(&img, &aligned.alignment, bx), true, false);
                let cut = segment(&c.digits);
                let digits: Vec<usize> = v
                    .to_string()
                    .bytes()
                    .map(|b| usize::from(b - b'0'))
                    .collect();
                if c.mark != Mark::Ink || cut.len() != digits.len() {
                    continue;
                }
                pieces.extend(cut.iter().map(normalise));
                labels.extend(digits);
            }
        }
    }
    let probs = reader.classify(&pieces);
    let embeddings = reader.embed(&pieces);
    Some(
        labels
            .into_iter()
            .zip(probs)
            .zip(embeddings)
            .map(|((truth, probs), e)| Glyph {
                truth,
                probs,
                embedding: unit(&e),
            })
            .collect(),
    )
}

/// The best digit and its probability.
fn top(p: &[f32; 11]) -> (usize, f32) {
    (0..10).fold((0, 0.0), |b, d| if p[d] > b.1 { (d, p[d]) } else { b })
}

/// Each digit's prototype: the mean of the unit embeddings of the glyphs
/// read surely as it (None with fewer than two).
fn prototypes(glyphs: &[Glyph]) -> Vec<Option<Vec<f32>>> {
    (0..10)
        .map(|d| {
            let sure: Vec<&Glyph> = glyphs
                .iter()
                .filter(|g| top(&g.probs) == (d, g.probs[d]) && g.probs[d] >= SURE)
                .collect();
            (sure.len() >= 2).then(|| {
                let mut mean = vec![0f32; sure[0].embedding.len()];
                for g in &sure {
                    mean.iter_mut().zip(&g.embedding).for_each(|(m, e)| *m += e);
                }
                unit(&mean)
            })
        })
        .collect()
}

/// The cosine of `g` to each digit's prototype, where the writer has one.
fn prototypes_cos(g: &Glyph, prototypes: &[Option<Vec<f32>>]) -> Vec<Option<f32>> {
    prototypes
        .iter()
        .map(|p| p.as_ref().map(|p| cosine(p, &g.embedding)))
        .collect()
}

/// The cosine of `g` to the writer's nearest sure glyph of each digit.
fn nearest(g: &Glyph, glyphs: &[Glyph]) -> Vec<Option<f32>> {
    (0..10)
        .map(|d| {
            glyphs
                .iter()
                .filter(|o| top(&o.probs) == (d, o.probs[d]) && o.probs[d] >= SURE)
                .map(|o| cosine(&o.embedding, &g.embedding))
                .reduce(f32::max)
        })
        .collect()
}

fn cosine(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The digit `g` is read as, weighing its cosines to the writer's digits
/// by `lambda`.
fn reread(g: &Glyph, cos: &[Option<f32>], lambda: f32) -> usize {
    let known: Vec<f32> = cos.iter().flatten().copied().collect();
    // A digit this writer has not surely written yet counts as the mean.
    let neutral = known.iter().sum::<f32>() / known.len().max(1) as f32;
    (0..10)
        .map(|d| {
            let c = cos[d].unwrap_or(neutral);
            (d, g.probs[d].max(1e-6).ln() + lambda * c)
        })
        .fold((0, f32::MIN), |b, x| if x.1 > b.1 { x } else { b })
        .0
}

fn unit(v: &[f32]) -> Vec<f32> {
    let n = v.iter().map(|x| x * x).sum::<f32>().sqrt().max(1e-9);
    v.iter().map(|x| x / n).collect()
}
