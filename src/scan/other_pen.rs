//! Values written in another pen than the sheet's writing: a later edit
//! (`INK_DIFFERS`). Each written value's pieces of ink are measured
//! ([`cells::pen_traces`]) against the sheet's writing as a whole, the
//! median of all its pieces: one writer fills a sheet with one pen, so
//! the median is theirs, however many values another pen changed.

use super::*;
use crate::page::chroma::Chroma;

/// How far a written value's ink lies from the sheet's writing: its most
/// distant piece in each measure.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Apart {
    /// Colour, as Cb/Cr per grey level of darkness (see
    /// [`cells::PenTrace::colour`]); 0 on a grey scan.
    pub colour: f64,
    /// The core's darkness, in shares of the paper's brightness; darker
    /// where positive.
    pub darkness: f64,
    /// The stroke's breadth, as the factor from the sheet's (1.0: alike).
    pub width: f64,
    /// On a colour scan: the most core pixels of one piece whose colour
    /// lies [`COLOUR_APART`] from the sheet's writing (a digit in another
    /// pen touching the writer's).
    pub colour_px: u32,
}

/// One written value's ink against the sheet's.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ValueInk {
    pub field: Field,
    pub apart: Apart,
}

/// A value whose ink lies at least this far in colour from the sheet's
/// writing is in another pen. Tuning sets (k1 k2 k3: printed nights in
/// colour, office scanner and phone, 62 sheets, 36 later edits): the
/// edits lay 0.171 or more apart, the writers' own values at most 0.098.
pub const COLOUR_APART: f64 = 0.13;

/// A value with this many core pixels (px at 10 a mm: 1.5 mm²) in one
/// piece [`COLOUR_APART`] in colour from the sheet's writing is in
/// another pen, though the piece as a whole is not (the pen's digit
/// touches the writer's: a felt-tip 1 against a ringed 24). Tuning sets
/// k1 k2 k3: the writers' own values had at most 116 such pixels, the
/// edits at least 173.
pub const OTHER_COLOUR_PX: u32 = 150;

/// A value whose ink is lighter than the sheet's writing by at least this
/// share of the paper's brightness is in another pen (a pencil beside a
/// ballpoint). The writers' own values on the tuning sets, grey and in
/// colour, and the comparison sets c1 c3 (64 sheets): none at 0.4 (a thin
/// 1 is lighter than a broad 8 by up to 0.35); 0.45 found fewer edits.
pub const LIGHTER_APART: f64 = 0.4;

/// A value whose ink is darker than the sheet's writing by at least this
/// share and [`BROADER_APART`] times as broad is in another pen (a
/// felt-tip over a fine ballpoint). Darkness alone is pressure; breadth
/// alone a big 0 or a sign.
pub const DARKER_APART: f64 = 0.25;

/// See [`DARKER_APART`].
pub const BROADER_APART: f64 = 2.0;

/// Fewer pieces of ink than this on a sheet are too few to know its
/// writer's pen.
const MIN_PIECES: usize = 12;

/// The ink of every written value against the sheet's writing; none on a
/// bilevel scan (its ink carries neither shade nor colour) or a sheet with
/// too little writing.
pub fn value_inks(
    sheet: &SheetResult,
    aligned: &AlignedSheet,
    chroma: Option<&Chroma>,
) -> Vec<ValueInk> {
    if is_bilevel(aligned.page) {
        return Vec::new();
    }
    let traced: Vec<(Field, Vec<cells::PenTrace>)> = written_fields(sheet, aligned.form)
        .into_iter()
        .map(|(field, bx)| {
            let traces = cells::pen_traces(aligned.page, chroma, &aligned.alignment, bx);
            (field, traces)
        })
        .collect();
    let all: Vec<&cells::PenTrace> = traced.iter().flat_map(|(_, t)| t).collect();
    if all.len() < MIN_PIECES {
        return Vec::new();
    }
    let sheet_pen = median_pen(&all);
    traced
        .into_iter()
        .filter(|(_, t)| !t.is_empty())
        .map(|(field, traces)| ValueInk {
            field,
            apart: farthest(&traces, &sheet_pen),
        })
        .collect()
}

/// `INK_DIFFERS` for each value whose ink lies apart from the sheet's.
pub fn ink_differs(inks: &[ValueInk], lang: Lang) -> Vec<Flag> {
    inks.iter()
        .filter(|v| other_pen(&v.apart))
        .map(|v| flag(v, lang))
        .collect()
}

/// Whether ink this far apart is another pen's.
fn other_pen(a: &Apart) -> bool {
    a.colour >= COLOUR_APART
        || a.colour_px >= OTHER_COLOUR_PX
        || a.darkness <= -LIGHTER_APART
        || (a.darkness >= DARKER_APART && a.width >= BROADER_APART)
}

fn flag(v: &ValueInk, lang: Lang) -> Flag {
    let (row, seat, field) = v.field.locator();
    let measure = measure_text(&v.apart, lang);
    let place = match row {
        Some(row) => say(
            lang,
            "ink-place-game",
            &[
                ("row", &row),
                ("seat", &seat.unwrap_or(0)),
                ("field", &field),
            ],
        ),
        None => say(
            lang,
            "ink-place-footer",
            &[("seat", &seat.unwrap_or(0)), ("field", &field)],
        ),
    };
    let mut extra = Map::new();
    extra.insert(
        "ink".into(),
        serde_json::json!({
            "colour": round3(v.apart.colour),
            "darkness": round3(v.apart.darkness),
            "width": round3(v.apart.width),
            "colour_px": v.apart.colour_px,
        }),
    );
    Flag {
        code: Code::InkDiffers,
        severity: Code::InkDiffers.severity(),
        row,
        seat,
        field: Some(field.to_string()),
        message: say(
            lang,
            "flag-ink-differs",
            &[("place", &place), ("measure", &measure)],
        ),
        detail: Default::default(),
        extra,
    }
}

/// The measures that set the value apart, for the message.
fn measure_text(a: &Apart, lang: Lang) -> String {
    if a.colour >= COLOUR_APART {
        return say(lang, "ink-colour", &[("by", &format!("{:.2}", a.colour))]);
    }
    if a.colour_px >= OTHER_COLOUR_PX {
        let mm2 = format!(
            "{:.1}",
            f64::from(a.colour_px) / (cells::PX_PER_MM * cells::PX_PER_MM)
        );
        return say(lang, "ink-colour-part", &[("mm2", &mm2)]);
    }
    let percent = (a.darkness.abs() * 100.0).round() as i64;
    // Darkness is a share of the paper's brightness: "40 % lighter".
    let key = if a.darkness > 0.0 {
        "ink-darker"
    } else {
        "ink-lighter"
    };
    say(
        lang,
        key,
        &[("percent", &percent), ("width", &format!("{:.1}", a.width))],
    )
}

fn round3(v: f64) -> f64 {
    (v * 1000.0).round() / 1000.0
}

/// Every field holding a written value, with its box.
fn written_fields(sheet: &SheetResult, form: &FormTemplate) -> Vec<(Field, MmBox)> {
    let f = &form.fields;
    let mut out = Vec::new();
    for g in &sheet.games {
        let Some(row) = (g.no as usize).checked_sub(1).and_then(|i| f.game.get(i)) else {
            continue;
        };
        for (s, (cell, pm)) in g.cells.iter().zip(row).enumerate() {
            if cell.plus.is_some() {
                out.push((Field::Game(g.no, s + 1, false), pm.plus));
            }
            if cell.minus.is_some() {
                out.push((Field::Game(g.no, s + 1, true), pm.minus));
            }
        }
    }
    for s in 0..form.seats {
        let gesamt = sheet.gesamt.get(s).copied().flatten();
        if let (Some(g), Some(pm)) = (gesamt, f.gesamt.get(s)) {
            if g.plus.is_some() {
                out.push((Field::Gesamt(s + 1, false), pm.plus));
            }
            if g.minus.is_some() {
                out.push((Field::Gesamt(s + 1, true), pm.minus));
            }
        }
        if let (Some(Some(_)), Some(bx)) = (sheet.abzug.get(s), f.abzug.get(s)) {
            out.push((Field::Abzug(s + 1), *bx));
        }
        if let (Some(Some(_)), Some(bx)) = (sheet.endergebnis.get(s), f.endergebnis.get(s)) {
            out.push((Field::Endergebnis(s + 1), *bx));
        }
    }
    out
}

/// The sheet's writing: the median of each measure over all its pieces.
fn median_pen(all: &[&cells::PenTrace]) -> cells::PenTrace {
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v.get(v.len() / 2).copied().unwrap_or(0.0)
    };
    let colour = all.iter().all(|t| t.colour.is_some()).then(|| {
        let part = |i: usize| median(all.iter().filter_map(|t| t.colour.map(|c| c[i])).collect());
        [part(0), part(1)]
    });
    cells::PenTrace {
        darkness: median(all.iter().map(|t| t.darkness).collect()),
        width_mm: median(all.iter().map(|t| t.width_mm).collect()),
        colour,
        core_colours: Vec::new(),
        area: 0,
    }
}

/// A value's pieces against the sheet's pen: the farthest in each measure.
fn farthest(traces: &[cells::PenTrace], pen: &cells::PenTrace) -> Apart {
    let mut apart = Apart {
        width: 1.0,
        ..Apart::default()
    };
    for t in traces {
        if let (Some(c), Some(p)) = (t.colour, pen.colour) {
            apart.colour = apart.colour.max((c[0] - p[0]).hypot(c[1] - p[1]));
            let other = t
                .core_colours
                .iter()
                .filter(|c| (f64::from(c[0]) - p[0]).hypot(f64::from(c[1]) - p[1]) >= COLOUR_APART)
                .count() as u32;
            apart.colour_px = apart.colour_px.max(other);
        }
        let darker = t.darkness - pen.darkness;
        if darker.abs() > apart.darkness.abs() {
            apart.darkness = darker;
        }
        let width = t.width_mm / pen.width_mm.max(1e-6);
        if (width.ln()).abs() > apart.width.ln().abs() {
            apart.width = width;
        }
    }
    apart
}

/// Whether a page holds black and white only (a scanner's bilevel mode):
/// fewer than one sample in 500 lies between.
fn is_bilevel(page: &GrayImage) -> bool {
    let (mut between, mut n) = (0usize, 0usize);
    for p in page.as_raw().iter().step_by(7) {
        n += 1;
        between += usize::from((9..=246).contains(p));
    }
    between * 500 < n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_of_black_and_white_should_be_bilevel_and_a_grey_one_not() {
        let bilevel = GrayImage::from_fn(100, 100, |x, _| {
            image::Luma([if x % 3 == 0 { 0 } else { 255 }])
        });
        assert!(is_bilevel(&bilevel));
        let grey = GrayImage::from_fn(100, 100, |x, y| image::Luma([((x + y) % 256) as u8]));
        assert!(!is_bilevel(&grey));
    }

    #[test]
    fn another_colour_a_much_lighter_ink_or_a_darker_broad_one_should_be_another_pen() {
        let apart = |colour, darkness, width| Apart {
            colour,
            darkness,
            width,
            colour_px: 0,
        };
        assert!(other_pen(&apart(0.2, 0.0, 1.0)));
        assert!(!other_pen(&apart(0.05, 0.0, 1.0)));
        assert!(other_pen(&apart(0.0, -0.5, 1.0)), "a pencil beside a pen");
        assert!(!other_pen(&apart(0.0, -0.3, 0.5)), "a thin 1 is lighter");
        assert!(other_pen(&apart(0.0, 0.3, 2.5)), "a felt-tip");
        assert!(!other_pen(&apart(0.0, 0.3, 1.2)), "pressure varies");
        assert!(!other_pen(&apart(0.0, 0.05, 3.0)), "a big 0");
    }

    #[test]
    fn the_farthest_piece_should_set_a_value_apart() {
        let trace = |colour: [f64; 2], darkness, width_mm| cells::PenTrace {
            darkness,
            width_mm,
            colour: Some(colour),
            core_colours: Vec::new(),
            area: 100,
        };
        let pen = trace([0.27, -0.09], 0.7, 0.4);
        let apart = farthest(
            &[trace([0.26, -0.08], 0.7, 0.4), trace([0.0, 0.0], 0.8, 0.8)],
            &pen,
        );
        assert!((apart.colour - 0.2846).abs() < 1e-3, "{apart:?}");
        assert!((apart.darkness - 0.1).abs() < 1e-9);
        assert!((apart.width - 2.0).abs() < 1e-9);
    }

    #[test]
    fn a_piece_of_two_pens_should_count_its_pixels_in_the_other_colour() {
        let blue = [0.27f32, -0.09];
        let mut core_colours = vec![blue; 300];
        core_colours.extend(vec![[0.0f32, 0.0]; 200]);
        let mixed = cells::PenTrace {
            darkness: 0.8,
            width_mm: 0.5,
            colour: Some([0.16, -0.05]),
            core_colours,
            area: 900,
        };
        let pen = cells::PenTrace {
            colour: Some([0.27, -0.09]),
            core_colours: Vec::new(),
            ..mixed.clone()
        };
        let apart = farthest(&[mixed], &pen);
        assert!(apart.colour < COLOUR_APART, "{apart:?}");
        assert_eq!(apart.colour_px, 200);
        assert!(other_pen(&apart));
    }
}
