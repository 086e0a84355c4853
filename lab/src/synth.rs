//! Test data: random legal sheets of a rule set, the writer's mistakes on
//! them, drawn by a [`hand`](super::hand) and then scanned with faults (skew,
//! scale, a dark scanner bed, upside down, blur, noise; or a phone's
//! perspective and uneven light). The truth is written in the contract's shape.

use image::{GrayImage, Luma};
use imageproc::geometric_transformations::{Border, Interpolation, Projection, warp_into};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::json;

use aufsicht::check::rules::RuleSet;
pub use aufsicht::check::rules::{LegalRow, legal_rows};
use aufsicht::page::form::FormTemplate;
use aufsicht::sheet::{Cell, GameRow, SheetResult, finished_sheet};

pub use super::digits::Digits;
pub use super::hand::{Drawn, Hands, WideRanges, blot_code, draw};
pub use super::strokes::{Mend, Strike};

/// `games` rows drawn from the rule set's legal `rows`: Rufspiele and
/// normal games most, solos half as often, nothing beyond 36 points, the
/// first game one allowed first; now and then a penalty row among them.
fn choose_games(rows: &[LegalRow], games: usize, rng: &mut ChaCha8Rng) -> Vec<LegalRow> {
    let game_rows: Vec<&LegalRow> = rows.iter().filter(|r| r.counts_as_game).collect();
    let penalty = rows.iter().find(|r| !r.counts_as_game);
    let mut chosen: Vec<LegalRow> = Vec::new();
    while chosen.len() < games {
        let r = game_rows[rng.random_range(0..game_rows.len())];
        if r.values.iter().any(|v| v.abs() > 12 * 3) || (chosen.is_empty() && !r.first_game) {
            continue;
        }
        if r.solo && rng.random_bool(0.5) {
            continue;
        }
        chosen.push(r.clone());
    }
    if let Some(p) = penalty
        && rng.random_bool(0.3)
    {
        let at = rng.random_range(1..chosen.len());
        chosen.insert(at, p.clone());
    }
    chosen
}

/// How many players sit at a drawn sheet of `rules` on `form`: the rule
/// set's first table that the form seats.
pub fn players_at(rules: &RuleSet, form: &FormTemplate) -> usize {
    rules
        .tables
        .iter()
        .map(|t| t.players)
        .find(|&p| p <= form.seats)
        .unwrap_or(4)
}

/// A random legal sheet of `rules` at a table of `players` on `form`.
pub fn random_sheet(
    rules: &RuleSet,
    form: &FormTemplate,
    players: usize,
    rng: &mut ChaCha8Rng,
) -> SheetResult {
    let table = rules
        .tables
        .iter()
        .find(|t| t.players == players)
        .or_else(|| rules.tables.first())
        .cloned();
    let (players, games, sits_out) =
        table.map_or((4, 32, 0), |t| (t.players, t.games as usize, t.sits_out));
    let rows = legal_rows(rules);
    let seats = form.seats;
    let chosen = choose_games(&rows, games, rng);
    let mut out_rows = Vec::new();
    for (i, r) in chosen.iter().enumerate() {
        let sitter = (sits_out > 0).then_some(i % players);
        let mut playing: Vec<usize> = (0..players).filter(|&s| Some(s) != sitter).collect();
        shuffle(&mut playing, rng);
        let mut cells = vec![Cell::default(); seats];
        for (pos, &v) in r.values.iter().enumerate() {
            let s = playing[pos];
            cells[s] = if v > 0 || (v == 0 && rng.random_bool(0.5)) {
                Cell::plus(v.unsigned_abs() as u32)
            } else {
                Cell::minus(v.unsigned_abs() as u32)
            };
            cells[s].circled = r.circled == Some(pos);
        }
        out_rows.push(GameRow {
            no: i as u32 + 1,
            cells,
            initials: r.initials || rng.random_bool(0.03),
            class: None,
            extra: Default::default(),
        });
    }
    // Doppelkopf: every player plays a solo (Pflichtsolo).
    if rules.pflichtsolo.is_some() {
        let solos: Vec<&LegalRow> = rows
            .iter()
            .filter(|r| r.counts_as_game)
            .filter(|r| r.solo && r.values[0].abs() <= 18)
            .collect();
        let slots: Vec<usize> = (1..chosen.len())
            .filter(|&i| chosen[i].counts_as_game)
            .take(players)
            .collect();
        for (s, &slot) in slots.iter().enumerate() {
            let r = solos[rng.random_range(0..solos.len())];
            let sitter = (sits_out > 0).then_some((s + 1) % players);
            let others: Vec<usize> = (0..players)
                .filter(|&o| o != s && Some(o) != sitter)
                .collect();
            let mut cells = vec![Cell::default(); seats];
            let to_cell = |v: i64| {
                if v > 0 {
                    Cell::plus(v as u32)
                } else {
                    Cell::minus(v.unsigned_abs() as u32)
                }
            };
            cells[s] = to_cell(r.values[0]);
            cells[s].circled = true;
            for (j, &o) in others.iter().enumerate() {
                cells[o] = to_cell(r.values[j + 1]);
            }
            out_rows[slot].cells = cells;
        }
    }
    let ids = (0..seats)
        .map(|s| (s < players).then(|| rng.random_range(1..2000u32).to_string()))
        .collect();
    let mut sheet = finished_sheet(&rules.id, out_rows, ids);
    sheet.form = Some(form.id.clone());
    sheet.round = Some(rng.random_range(1..=rules.rounds.max(1)));
    sheet.table = Some(rng.random_range(1..60));
    sheet
}

/// Makes one mistake a writer makes on a finished sheet, and says which:
/// a game value written wrong (the footer summed from what was written),
/// a Gesamt added up wrong, an Abzug or Endergebnis worked out wrong.
pub fn writer_error(sheet: &mut SheetResult, rng: &mut ChaCha8Rng) -> serde_json::Value {
    let seats: Vec<usize> = (0..sheet.players.len())
        .filter(|&s| sheet.players[s].is_some())
        .collect();
    let Some(&seat) = seats.get(rng.random_range(0..seats.len().max(1))) else {
        return serde_json::Value::Null;
    };
    let off = |v: u32, rng: &mut ChaCha8Rng| slip(v, &[10, 1, 2, 5], rng);
    match rng.random_range(0..4) {
        0 => {
            let rows: Vec<usize> = (0..sheet.games.len())
                .filter(|&i| !sheet.games[i].cells[seat].is_empty())
                .collect();
            let Some(&i) = rows.get(rng.random_range(0..rows.len().max(1))) else {
                return serde_json::Value::Null;
            };
            let c = &mut sheet.games[i].cells[seat];
            let field = if c.plus.is_some() {
                &mut c.plus
            } else {
                &mut c.minus
            };
            *field = field.map(|v| off(v, rng));
            let no = sheet.games[i].no;
            let done = finished_sheet(
                sheet.rules.as_deref().unwrap_or(""),
                std::mem::take(&mut sheet.games),
                sheet.players.clone(),
            );
            sheet.games = done.games;
            sheet.gesamt = done.gesamt;
            sheet.abzug = done.abzug;
            sheet.endergebnis = done.endergebnis;
            json!({"kind": "row value", "row": no, "seat": seat + 1})
        }
        1 => {
            if let Some(g) = sheet.gesamt[seat].as_mut() {
                if rng.random_bool(0.5) {
                    g.plus = g.plus.map(|v| off(v, rng));
                } else {
                    g.minus = g.minus.map(|v| off(v, rng));
                }
            }
            json!({"kind": "gesamt", "seat": seat + 1})
        }
        2 => {
            sheet.abzug[seat] = sheet.abzug[seat].map(|v| off(v, rng));
            json!({"kind": "abzug", "seat": seat + 1})
        }
        _ => {
            sheet.endergebnis[seat] = sheet.endergebnis[seat].map(|v| {
                if v != 0 && rng.random_bool(0.3) {
                    -v
                } else {
                    let w = off(v.unsigned_abs() as u32, rng);
                    i64::from(w) * if v < 0 { -1 } else { 1 }
                }
            });
            json!({"kind": "endergebnis", "seat": seat + 1})
        }
    }
}

/// `v` off by one of `steps` (chosen at random), down or up: off by ten,
/// or a digit slip. Never `v` itself.
fn slip(v: u32, steps: &[u32], rng: &mut ChaCha8Rng) -> u32 {
    let d = steps[rng.random_range(0..steps.len())];
    if v > d && rng.random_bool(0.5) {
        v - d
    } else {
        v + d
    }
}

/// Strikes one or two game values through and writes them anew, as a
/// writer mends a slip: the cell is `corrected`, the value struck out is
/// the truth's `struck` (how: `strike`). Half of those rows the supervisor
/// initials; the others are the writer's mistake the seeds name.
/// With `every_kind`, also blacked out values, new values written above
/// the old and digits written over digits (the truth's `mend`); without,
/// one to four kinds of strike and the new value beside, as the sets drawn
/// so far.
pub fn corrections(sheet: &mut SheetResult, every_kind: bool, rng: &mut ChaCha8Rng) {
    corrections_of(sheet, 1..=2, every_kind, rng);
}

/// Strikes a number of game values in `count` through and writes them
/// anew, as [`corrections`] does.
pub fn corrections_of(
    sheet: &mut SheetResult,
    count: std::ops::RangeInclusive<usize>,
    every_kind: bool,
    rng: &mut ChaCha8Rng,
) {
    let mut cells: Vec<(usize, usize)> = sheet
        .games
        .iter()
        .enumerate()
        .flat_map(|(i, g)| {
            g.cells
                .iter()
                .enumerate()
                .filter(|(_, c)| c.value().is_some() && !c.circled)
                .map(move |(s, _)| (i, s))
        })
        .collect();
    shuffle(&mut cells, rng);
    for &(i, s) in cells.iter().take(rng.random_range(count)) {
        let initialled = rng.random_bool(0.5);
        let row = &mut sheet.games[i];
        row.initials |= initialled;
        let cell = &mut row.cells[s];
        let value = cell.plus.or(cell.minus).unwrap_or(0);
        let struck = slip(value, &[10, 1, 2, 5, 20], rng);
        let how = if every_kind {
            Strike::WIDE[rng.random_range(0..Strike::WIDE.len())]
        } else {
            Strike::ALL[rng.random_range(0..Strike::ALL.len())]
        };
        if every_kind {
            // Beside half the time; above, or over the old digits, else.
            let mend =
                [Mend::Beside, Mend::Beside, Mend::Above, Mend::Over][rng.random_range(0..4)];
            cell.extra.insert("mend".into(), json!(mend.name()));
        }
        cell.corrected = true;
        cell.notes.struck = Some(aufsicht::sheet::notes::Struck {
            minus: cell.minus.is_some(),
            value: Some(struck),
        });
        cell.extra.insert("strike".into(), json!(how.name()));
    }
}

fn shuffle<T>(v: &mut [T], rng: &mut ChaCha8Rng) {
    for i in (1..v.len()).rev() {
        let j = rng.random_range(0..=i);
        v.swap(i, j);
    }
}

/// How a page is digitised.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Capture {
    /// A flat, straight scan.
    Clean,
    /// An office scanner: skew, shift, scale, dark bed, sometimes upside down.
    Scanner,
    /// A phone photo: perspective, uneven light, blur.
    Phone,
    /// An office scanner set to black and white: its scan cut at one
    /// fixed level, so thin lines and faint strokes break up.
    Bilevel,
}

/// Digitises a drawn page; returns the image and what was done (for the truth file).
pub fn capture(
    page: &GrayImage,
    how: Capture,
    rng: &mut ChaCha8Rng,
) -> (GrayImage, serde_json::Value) {
    match how {
        Capture::Clean => (page.clone(), json!({"capture": "clean"})),
        Capture::Scanner => scanned(page, rng),
        Capture::Phone => photographed(page, rng),
        Capture::Bilevel => black_and_white(page, rng),
    }
}

/// Digitises a page drawn in colour as [`capture`] does its grey, each
/// channel alike, with each channel's own sensor noise besides. A
/// bilevel capture has no colour: its caller scans the grey.
pub fn capture_colour(
    page: &image::RgbImage,
    how: Capture,
    rng: &mut ChaCha8Rng,
) -> (image::RgbImage, serde_json::Value) {
    let start = rng.clone();
    let mut channels = Vec::with_capacity(3);
    let mut facts = serde_json::Value::Null;
    for c in 0..3 {
        let grey = GrayImage::from_fn(page.width(), page.height(), |x, y| {
            Luma([page.get_pixel(x, y)[c]])
        });
        let mut same = start.clone();
        let (out, f) = capture(&grey, how, &mut same);
        (*rng, facts) = (same, f);
        channels.push(out);
    }
    let sigma = rng.random_range(1.5..4.0);
    let channels: Vec<GrayImage> = channels
        .iter()
        .map(|c| imageproc::noise::gaussian_noise(c, 0.0, sigma, rng.random()))
        .collect();
    let out = image::RgbImage::from_fn(channels[0].width(), channels[0].height(), |x, y| {
        image::Rgb(std::array::from_fn(|c| channels[c].get_pixel(x, y)[0]))
    });
    facts["colour"] = json!(true);
    (out, facts)
}

/// A scanner's black-and-white mode: the scan cut at a fixed level (the
/// scanner's, not the page's: no adaptive threshold).
fn black_and_white(page: &GrayImage, rng: &mut ChaCha8Rng) -> (GrayImage, serde_json::Value) {
    let (grey, mut facts) = scanned(page, rng);
    let level: u8 = rng.random_range(110..170);
    let out =
        imageproc::contrast::threshold(&grey, level, imageproc::contrast::ThresholdType::Binary);
    facts["capture"] = json!("bilevel");
    facts["level"] = json!(level);
    (out, facts)
}

/// An office scanner's capture: turned, scaled and shifted a little, on a
/// dark bed sometimes, upside down sometimes, blurred, with noise.
fn scanned(page: &GrayImage, rng: &mut ChaCha8Rng) -> (GrayImage, serde_json::Value) {
    let (w, h) = (page.width() as f64, page.height() as f64);
    let angle: f64 = rng.random_range(-5.0f64..5.0).to_radians();
    let scale = rng.random_range(0.97..1.03);
    let bed = rng.random_bool(0.4);
    let margin = if bed {
        rng.random_range(0.03..0.08)
    } else {
        0.0
    };
    let (ow, oh) = (w * (1.0 + 2.0 * margin), h * (1.0 + 2.0 * margin));
    let upside = rng.random_bool(0.15);
    let (shx, shy) = (
        rng.random_range(-0.015..0.015) * w,
        rng.random_range(-0.015..0.015) * h,
    );
    let (c, s) = (angle.cos() * scale, angle.sin() * scale);
    let flip = if upside { -1.0 } else { 1.0 };
    // Page centre to output centre, rotated and scaled (and turned if upside down).
    let (pcx, pcy) = (w / 2.0, h / 2.0);
    let m = [
        flip * c,
        -flip * s,
        ow / 2.0 + shx - flip * (c * pcx - s * pcy),
        flip * s,
        flip * c,
        oh / 2.0 + shy - flip * (s * pcx + c * pcy),
        0.0,
        0.0,
        1.0,
    ];
    let bed_value = if bed { rng.random_range(15..50) } else { 255 };
    let mut out = GrayImage::from_pixel(ow as u32, oh as u32, Luma([bed_value]));
    if let Some(p) = Projection::from_matrix(m.map(|v| v as f32)) {
        warp_into(
            page,
            p,
            Interpolation::Bilinear,
            Border::Constant(Luma([bed_value])),
            &mut out,
        );
    }
    let sigma = rng.random_range(0.3..1.0);
    let out = image::imageops::blur(&out, sigma);
    let out = imageproc::noise::gaussian_noise(&out, 0.0, rng.random_range(2.0..8.0), rng.random());
    let facts = json!({"capture": "scanner", "angle_deg": angle.to_degrees(), "scale": scale,
        "dark_bed": bed, "upside_down": upside, "blur": sigma});
    (out, facts)
}

/// A phone photo: the page in perspective on a table, lit unevenly,
/// blurred, with noise.
fn photographed(page: &GrayImage, rng: &mut ChaCha8Rng) -> (GrayImage, serde_json::Value) {
    let (w, h) = (page.width() as f64, page.height() as f64);
    let (ow, oh) = (w * 1.15, h * 1.15);
    let j = |rng: &mut ChaCha8Rng| rng.random_range(-0.05..0.05);
    let src = [(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)];
    let dst = [
        (ow * (0.06 + j(rng)), oh * (0.06 + j(rng))),
        (ow * (0.94 + j(rng)), oh * (0.06 + j(rng))),
        (ow * (0.94 + j(rng)), oh * (0.94 + j(rng))),
        (ow * (0.06 + j(rng)), oh * (0.94 + j(rng))),
    ];
    let table = rng.random_range(60..140);
    let mut out = GrayImage::from_pixel(ow as u32, oh as u32, Luma([table]));
    let to_f32 = |p: [(f64, f64); 4]| p.map(|(x, y)| (x as f32, y as f32));
    if let Some(p) = Projection::from_control_points(to_f32(src), to_f32(dst)) {
        warp_into(
            page,
            p,
            Interpolation::Bilinear,
            Border::Constant(Luma([table])),
            &mut out,
        );
    }
    // Uneven light: a gradient across the page, darker at one corner.
    let (gx, gy) = (rng.random_range(-0.35..0.35), rng.random_range(-0.35..0.35));
    for (x, y, p) in out.enumerate_pixels_mut() {
        let f = 1.0 + gx * (x as f64 / ow - 0.5) + gy * (y as f64 / oh - 0.5) - 0.1;
        p[0] = (f64::from(p[0]) * f).clamp(0.0, 255.0) as u8;
    }
    let sigma = rng.random_range(0.6..1.5);
    let out = image::imageops::blur(&out, sigma);
    let out = imageproc::noise::gaussian_noise(&out, 0.0, rng.random_range(3.0..9.0), rng.random());
    (
        out,
        json!({"capture": "phone", "corners": dst.iter().map(|p| [p.0, p.1]).collect::<Vec<_>>(), "blur": sigma}),
    )
}

pub fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use aufsicht::check::flags::Code;
    use aufsicht::{Lang, verify};

    #[test]
    fn corrections_of_every_kind_should_draw_each_mend_and_strike() {
        let rules = RuleSet::load("merkur").expect("rules");
        let form = FormTemplate::load("punkteliste-a4-32").expect("form");
        let mut kinds = std::collections::BTreeSet::new();
        for seed in 0..40 {
            let mut r = rng(seed);
            let mut sheet = random_sheet(&rules, &form, 4, &mut r);
            corrections(&mut sheet, true, &mut r);
            for c in sheet
                .games
                .iter()
                .flat_map(|g| &g.cells)
                .filter(|c| c.corrected)
            {
                for key in ["mend", "strike"] {
                    let name = c.extra[key].as_str().expect("named").to_string();
                    kinds.insert(name);
                }
            }
        }
        for mend in Mend::ALL {
            assert!(kinds.contains(mend.name()), "{kinds:?}");
        }
        for strike in Strike::WIDE {
            assert!(kinds.contains(strike.name()), "{kinds:?}");
        }
    }

    #[test]
    fn corrections_strike_other_values_and_only_uninitialled_rows_are_flagged() {
        let rules = RuleSet::load("merkur").expect("rules");
        let form = FormTemplate::load("punkteliste-a4-32").expect("form");
        let mut seen = (0, 0);
        for seed in 0..20 {
            let mut r = rng(seed);
            let mut sheet = random_sheet(&rules, &form, 4, &mut r);
            corrections(&mut sheet, false, &mut r);
            let corrected: Vec<(u32, bool, &Cell)> = sheet
                .games
                .iter()
                .flat_map(|g| g.cells.iter().map(move |c| (g.no, g.initials, c)))
                .filter(|(_, _, c)| c.corrected)
                .collect();
            assert!((1..=2).contains(&corrected.len()), "seed {seed}");
            for (_, _, c) in &corrected {
                let struck = c.notes.struck.expect("struck");
                assert_ne!(struck.value, c.plus.or(c.minus));
                assert_eq!(struck.minus, c.minus.is_some());
            }
            let bare: Vec<u32> = corrected
                .iter()
                .filter(|(_, initialled, _)| !initialled)
                .map(|(no, _, _)| *no)
                .collect();
            seen.0 += bare.len();
            seen.1 += corrected.len() - bare.len();
            let checked = verify(sheet.clone(), &rules, Lang::En).expect("verified");
            let flagged: Vec<u32> = checked
                .flags
                .iter()
                .filter(|f| f.code == Code::CorrectionNotInitialled)
                .filter_map(|f| f.row)
                .collect();
            assert_eq!(flagged, bare, "seed {seed}");
        }
        assert!(seen.0 > 0 && seen.1 > 0, "both kinds drawn: {seen:?}");
    }

    #[test]
    fn a_writer_writes_only_its_own_forms_of_each_digit() {
        let digits = Digits::from_dir(&crate::repository().join("samples/digits")).expect("digits");
        let own = digits.writer(2, &mut rng(3));
        assert_eq!(own.len(), 20);
        let mut r = rng(4);
        for d in 0..10u32 {
            let forms: std::collections::HashSet<&[u8; 784]> =
                (0..30).map(|_| own.pick(d, &mut r)).collect();
            assert!(forms.len() <= 2, "digit {d}: {} forms", forms.len());
            assert!(
                forms
                    .iter()
                    .all(|f| (0..own.len()).any(|i| own.get(i) == (*f, d as u8)))
            );
        }
    }
}
