//! Training the struck-ink net (a lab tool): sheets drawn with four to
//! eight values struck out and written anew (every kind of correction on
//! half of them), by tidy and by wide hands, printed or not, at 150-300
//! dpi, cut by the pipeline itself; each game cell's pieces labelled as
//! writing or as a struck value. The product asks the net ([`aufsicht::read::cnn::struck`]).

use rayon::prelude::*;

use crate::hands::Library;
use crate::harvest::Sample;
use crate::synth::{self, Capture, Digits, Hands, Mend, WideRanges};
use crate::training::{Lessons, Schedule, fit};
use aufsicht::cells::{self, Mark};
use aufsicht::check::rules::RuleSet;
use aufsicht::page::form::FormTemplate;
use aufsicht::read::cnn::segment_placed;
use aufsicht::read::cnn::struck::{OVER, STRUCK, STRUCK_CLASS, WRITING, input};
use aufsicht::sheet::{Cell, SheetResult};

/// What the harvest of struck and written pieces found.
#[derive(Debug, Default)]
pub struct StruckHarvest {
    pub samples: Vec<Sample>,
    pub sheets: usize,
    pub lost_sheets: usize,
    /// Corrected cells, and those whose pieces could be labelled.
    pub corrected: (usize, usize),
}

/// Draws `sheets` sheets (the rule sets and forms in turn; tidy and wide
/// hands, scanner and phone in turn; where `hands` is given, every other
/// sheet in a writer of its many sources) with four to eight corrected
/// values each, and labels every game cell's pieces. The same seed gives
/// the same samples.
pub fn harvest_struck(
    pairs: &[(RuleSet, FormTemplate)],
    digits: &Digits,
    hands: Option<&Library>,
    sheets: usize,
    seed: u64,
) -> StruckHarvest {
    let per_sheet: Vec<StruckHarvest> = (0..sheets)
        .into_par_iter()
        .map(|i| {
            let (sheet, form, image) = drawn_sheet(pairs, digits, hands, i, seed);
            one_sheet(&sheet, form, &image)
        })
        .collect();
    let mut all = StruckHarvest::default();
    for h in per_sheet {
        all.samples.extend(h.samples);
        all.sheets += h.sheets;
        all.lost_sheets += h.lost_sheets;
        all.corrected.0 += h.corrected.0;
        all.corrected.1 += h.corrected.1;
    }
    all
}

fn drawn_sheet<'p>(
    pairs: &'p [(RuleSet, FormTemplate)],
    digits: &Digits,
    hands: Option<&Library>,
    i: usize,
    seed: u64,
) -> (SheetResult, &'p FormTemplate, image::GrayImage) {
    let (rules, form) = &pairs[i % pairs.len()];
    let mut rng = synth::rng(seed.wrapping_mul(7_919).wrapping_add(i as u64));
    let players = synth::players_at(rules, form);
    let mut sheet = synth::random_sheet(rules, form, players, &mut rng);
    synth::corrections_of(&mut sheet, 4..=8, (i / 3).is_multiple_of(2), &mut rng);
    let wide = WideRanges {
        size: (0.45, 0.85),
        ring: (1.0, 1.5),
        slant: (0.0, 0.0),
    };
    // Every other sheet in one of the many hands, tidy and wide in turn.
    let hands = match hands {
        Some(library) if i % 2 == 1 => Hands::Many((i % 4 == 3).then_some(wide), library),
        _ if i.is_multiple_of(2) => Hands::Tidy,
        _ => Hands::Wide(wide),
    };
    let dpi = [200.0, 300.0, 150.0][i % 3];
    let (page, _) = synth::draw(&sheet, form, digits, hands, i % 4 == 1, dpi, &mut rng);
    let how = [Capture::Scanner, Capture::Scanner, Capture::Phone][(i / 2) % 3];
    let (image, _) = synth::capture(&page, how, &mut rng);
    (sheet, form, image)
}

/// A game cell's pieces labelled: in a corrected cell whose pieces are
/// the struck value (one piece where the strike joins its digits, else one
/// per digit) and one piece per digit of the new one, the struck one is the first (the new value
/// beside) or the lowest (the new value above); one digit written over
/// another is one piece of both; in any other cell with one piece per
/// digit, each is writing.
fn one_sheet(sheet: &SheetResult, form: &FormTemplate, image: &image::GrayImage) -> StruckHarvest {
    let mut h = StruckHarvest {
        sheets: 1,
        ..Default::default()
    };
    let Ok(found) = aufsicht::scan::locate(image, std::slice::from_ref(form)) else {
        h.lost_sheets = 1;
        return h;
    };
    for g in &sheet.games {
        let Some(row) = form.fields.game.get(g.no as usize - 1) else {
            continue;
        };
        for (c, pm) in g.cells.iter().zip(row) {
            for (v, bx) in [(c.plus, pm.plus), (c.minus, pm.minus)] {
                let Some(v) = v else { continue };
                let crop = cells::cut(image, &found.alignment, bx);
                let cell = cells::analyse(&crop, c.circled, false);
                if cell.mark != Mark::Ink {
                    continue;
                }
                let pieces = segment_placed(&cell.digits);
                h.corrected.0 += usize::from(c.corrected);
                let Some(labels) = labels(c, v, &pieces) else {
                    continue;
                };
                h.corrected.1 += usize::from(c.corrected);
                h.samples
                    .extend(pieces.iter().zip(labels).map(|(p, l)| (input(&p.0), l)));
            }
        }
    }
    h
}

/// The label of each of a cell's placed pieces (see [`one_sheet`]).
fn labels(c: &Cell, v: u32, pieces: &[(image::GrayImage, u32, u32)]) -> Option<Vec<u32>> {
    let digits = v.to_string().len();
    if !c.corrected {
        return (pieces.len() == digits).then(|| vec![WRITING; digits]);
    }
    let mend = c.extra.get("mend").and_then(|m| m.as_str());
    let mend = mend.and_then(Mend::named).unwrap_or(Mend::Beside);
    if mend == Mend::Over {
        // One digit over one: one piece, both inks.
        let one = |v: Option<u32>| v.is_some_and(|v| v < 10);
        let old = c.notes.struck.and_then(|s| s.value);
        return (pieces.len() == 1 && one(Some(v)) && one(old)).then(|| vec![OVER]);
    }
    // A strike that does not join the struck digits leaves one piece per
    // struck digit, each with its share of the strike: beside the new
    // value, they come first.
    let old_digits = c
        .notes
        .struck
        .and_then(|s| s.value)
        .map(|v| v.to_string().len());
    if let Some(old) = old_digits.filter(|&n| n > 1 && pieces.len() == digits + n)
        && mend != Mend::Above
    {
        let kind = |i: usize| if i < old { STRUCK_CLASS } else { WRITING };
        return Some((0..pieces.len()).map(kind).collect());
    }
    if pieces.len() != digits + 1 {
        return None;
    }
    let low = |p: &(image::GrayImage, u32, u32)| p.2 * 2 + p.0.height();
    let struck = match mend {
        Mend::Above => (0..pieces.len()).max_by_key(|&i| low(&pieces[i]))?,
        _ => 0,
    };
    Some(
        (0..pieces.len())
            .map(|i| if i == struck { STRUCK_CLASS } else { WRITING })
            .collect(),
    )
}

/// Trains the struck-ink net on `cut` (pieces from drawn sheets; the
/// struck and written-over ones, about one in twenty, repeated to weigh
/// half as much as the writing, at most tenfold), reporting on `held`
/// (drawn from digits the training never saw), which fits its temperature.
pub fn train_struck(
    cut: &[Sample],
    held: &[Sample],
    schedule: &Schedule,
    seed: u64,
    log: &mut dyn FnMut(String),
) -> candle_core::Result<candle_nn::VarMap> {
    let mended = cut.iter().filter(|s| s.1 != WRITING).count().max(1);
    let repeat = ((cut.len() - mended) / mended / 2).clamp(1, 10);
    let balanced: Vec<Sample> = cut
        .iter()
        .flat_map(|s| {
            let n = if s.1 == WRITING { 1 } else { repeat };
            std::iter::repeat_n(s.clone(), n)
        })
        .collect();
    let mut rng = synth::rng(seed);
    let none = |_: usize, _: &mut rand_chacha::ChaCha8Rng| -> Sample { (Vec::new(), 0) };
    let lessons = Lessons {
        shape: STRUCK,
        fresh: 0,
        draw: &none,
        fixed: &balanced,
        held: &[("held-back pieces (written over last)", held)],
    };
    fit(&lessons, schedule, &mut rng, log)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_struck_out_and_written_anew_should_read_as_the_new_ones_marked_corrected() {
        let root = crate::repository();
        let digits = synth::Digits::from_dir(&root.join("samples/digits")).expect("bundled digits");
        let rules = aufsicht::check::rules::RuleSet::load("merkur").expect("rules");
        let form = FormTemplate::load("punkteliste-a4-32").expect("form");
        let mut rng = synth::rng(5);
        let mut truth = synth::random_sheet(&rules, &form, 4, &mut rng);
        synth::corrections_of(&mut truth, 10..=10, false, &mut rng);
        let (page, _) = synth::draw(
            &truth,
            &form,
            &digits,
            synth::Hands::Tidy,
            false,
            200.0,
            &mut rng,
        );
        let found =
            aufsicht::scan::locate(&page, std::slice::from_ref(&form)).expect("the form is found");
        let mut reader = aufsicht::read::cnn::CnnReader::new().expect("the digit model");
        let (read, _) =
            aufsicht::scan::read_sheet(&found, &mut reader, "struck.png", 1, aufsicht::Lang::En);
        let (mut found_right, mut false_marks) = (0, 0);
        for g in &truth.games {
            for (s, t) in g.cells.iter().enumerate() {
                let r = read.cell(g.no, s).expect("every written row is read");
                if t.corrected {
                    let same = (r.plus, r.minus) == (t.plus, t.minus);
                    let column = r.notes.struck.map(|x| x.minus) == Some(t.minus.is_some());
                    found_right += usize::from(r.corrected && same && column);
                } else {
                    false_marks += usize::from(r.corrected);
                }
            }
        }
        assert!(found_right >= 8, "{found_right} of 10 corrections read");
        assert!(
            false_marks <= 1,
            "{false_marks} cells marked corrected wrongly"
        );
    }
}
