//! Alignment on the thick lines alone. A black-and-white page at 150 dpi
//! can lose its thin (0.2 mm) lines whole to the scanner's threshold: only
//! the dots where two of them cross survive, beside the frame's and the
//! blocks' thick lines. Such a page is this form where its thick lines fit
//! all but surely and next to no line ink lies inside the table off the
//! form's lines (another form's thin lines would lie there).

use super::*;

/// A ruled line at least this thick (mm) survives the threshold.
const THICK_MM: f64 = 0.35;

/// The share of the thick lines' points that must be found.
pub const THICK_FIT: f64 = 0.95;

/// The line ink inside the table off every line of the form, as a share of
/// the ink its thin lines would hold, must stay below this: on pages of
/// the form that lost their thin lines 0.05-0.60, with the thin lines
/// ruled 2.5 mm elsewhere 1.4 (docs/measurements.md).
pub const STRAY_INK: f64 = 0.75;

/// Line pixels within this distance (mm) of a ruled line are its.
const NEAR_MM: f64 = 0.8;

/// `form` on the page by its thick lines, where they fit [`THICK_FIT`] and
/// the ink off its lines stays under [`STRAY_INK`]; `None` otherwise.
pub fn align_thick(prep: &Prepared, form: &FormTemplate) -> Option<Alignment> {
    let (thick, thin): (Vec<[f64; 5]>, Vec<[f64; 5]>) =
        form.lines.iter().partition(|l| l[4] >= THICK_MM);
    if thick.is_empty() || thin.is_empty() {
        return None;
    }
    let a = align_on(prep, form, &samples_of(&thick)).ok()?;
    if a.fit < THICK_FIT {
        return None;
    }
    let a = Alignment {
        thin_lines_lost: true,
        ..a
    };
    (stray_ink(prep, form, &a, &thick, &thin)? < STRAY_INK).then_some(a)
}

/// The line pixels inside the table that lie off every ruled line of the
/// form, against the pixels its thin lines would hold: the thick lines'
/// pixels per mm of length and of width, times the thin lines' length and
/// width inside the table.
fn stray_ink(
    prep: &Prepared,
    form: &FormTemplate,
    a: &Alignment,
    thick: &[[f64; 5]],
    thin: &[[f64; 5]],
) -> Option<f64> {
    let to_work = Homography::scale_translate(prep.scale, prep.scale, 0.0, 0.0);
    let to_work = a.to_image.then(&to_work);
    let to_mm = to_work.inverse()?;
    let grid = form.grid();
    let (mut on_thick, mut stray) = (0usize, 0usize);
    for (mask, x, y) in line_pixels(prep, &to_work, grid) {
        if mask.get_pixel(x, y)[0] == 0 {
            continue;
        }
        let mm = to_mm.apply((f64::from(x), f64::from(y)));
        if !inside(grid, mm, NEAR_MM) {
            continue;
        }
        if thick.iter().any(|l| near(l, mm)) {
            on_thick += 1;
        } else if !thin.iter().any(|l| near(l, mm)) {
            stray += 1;
        }
    }
    let per_mm2 = on_thick as f64 / ink_area(thick, grid);
    let expected = per_mm2 * ink_area(thin, grid);
    (expected > 0.0).then(|| stray as f64 / expected)
}

/// Every pixel of both line masks within the working px box around
/// `grid` (form mm) where `to_work` puts it.
fn line_pixels<'a>(
    prep: &'a Prepared,
    to_work: &Homography,
    [gx, gy, gw, gh]: [f64; 4],
) -> impl Iterator<Item = (&'a GrayImage, u32, u32)> + 'a {
    let corners =
        [(gx, gy), (gx + gw, gy), (gx + gw, gy + gh), (gx, gy + gh)].map(|p| to_work.apply(p));
    // Both masks are the working image's size.
    let span = |f: fn(&(f64, f64)) -> f64, limit: u32| {
        let lo = corners.iter().map(f).fold(f64::MAX, f64::min).max(0.0) as u32;
        let hi = corners
            .iter()
            .map(f)
            .fold(f64::MIN, f64::max)
            .ceil()
            .max(0.0) as u32;
        lo.min(limit)..hi.min(limit)
    };
    let (xs, ys) = (span(|p| p.0, prep.width), span(|p| p.1, prep.height));
    [&prep.horizontal, &prep.vertical]
        .into_iter()
        .flat_map(move |mask| {
            let xs = xs.clone();
            ys.clone()
                .flat_map(move |y| xs.clone().map(move |x| (mask, x, y)))
        })
}

/// Whether `mm` lies in `[x, y, w, h]`, grown by `margin` on each side.
fn inside([x, y, w, h]: [f64; 4], (px, py): (f64, f64), margin: f64) -> bool {
    px >= x - margin && px <= x + w + margin && py >= y - margin && py <= y + h + margin
}

/// Whether `mm` lies within [`NEAR_MM`] of the ruled line `l`.
fn near(&[x1, y1, x2, y2, _]: &[f64; 5], (x, y): (f64, f64)) -> bool {
    let along = |p: f64, a: f64, b: f64| p >= a.min(b) - NEAR_MM && p <= a.max(b) + NEAR_MM;
    along(x, x1, x2) && along(y, y1, y2)
}

/// The lines' length times width (mm²) inside `grid`.
fn ink_area(lines: &[[f64; 5]], [gx, gy, gw, gh]: [f64; 4]) -> f64 {
    let clip = |a: f64, b: f64, lo: f64, hi: f64| (a.max(b).min(hi) - a.min(b).max(lo)).max(0.0);
    lines
        .iter()
        .filter(|&&[x1, y1, x2, y2, _]| {
            inside([gx, gy, gw, gh], ((x1 + x2) / 2.0, (y1 + y2) / 2.0), 0.5)
        })
        .map(|&[x1, y1, x2, y2, width]| {
            (clip(x1, x2, gx, gx + gw) + clip(y1, y2, gy, gy + gh)) * width
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::render::render_form;

    /// `form` with its thin lines kept where `keep` says (moved by
    /// `shift_mm` down and right), drawn at 150 dpi.
    fn drawn(form: &FormTemplate, keep: bool, shift_mm: f64) -> GrayImage {
        let mut changed = form.clone();
        changed.lines = form
            .lines
            .iter()
            .filter(|l| keep || l[4] >= THICK_MM)
            .map(|&[x1, y1, x2, y2, w]| match w >= THICK_MM {
                true => [x1, y1, x2, y2, w],
                false => [
                    x1 + shift_mm,
                    y1 + shift_mm,
                    x2 + shift_mm,
                    y2 + shift_mm,
                    w,
                ],
            })
            .collect();
        render_form(&changed, 150.0)
    }

    fn placed_right(a: &Alignment) -> bool {
        let (x, y) = a.to_image.apply((100.0, 150.0));
        let px = 150.0 / 25.4;
        (x - 100.0 * px).abs() < 1.5 && (y - 150.0 * px).abs() < 1.5
    }

    #[test]
    fn a_form_whose_thin_lines_were_lost_is_found_by_its_thick_ones() {
        let form = FormTemplate::load("punkteliste-a4-32").expect("form");
        let page = drawn(&form, false, 0.0);
        let whole = prepare(&page);
        assert!(align(&whole, &form).map_or(0.0, |a| a.fit) < MIN_FIT);
        let a = align_thick(&prepare_dashed(&page, Some(&whole)), &form).expect("aligned");
        assert!(placed_right(&a), "{:?}", a.to_image.apply((100.0, 150.0)));
    }

    #[test]
    fn the_other_form_without_its_thin_lines_is_not_found_by_its_thick_ones() {
        let form = FormTemplate::load("punkteliste-a4-32").expect("form");
        let other = FormTemplate::load("doko-a4-24x5").expect("form");
        let page = drawn(&other, false, 0.0);
        let prep = prepare_dashed(&page, Some(&prepare(&page)));
        assert!(align_thick(&prep, &other).is_some());
        assert!(align_thick(&prep, &form).is_none());
    }

    /// The same thick lines, the thin ones ruled elsewhere: another form
    /// that shares the frame is told by the ink off the form's lines.
    #[test]
    fn thin_lines_where_the_form_rules_none_deny_it() {
        let form = FormTemplate::load("punkteliste-a4-32").expect("form");
        for (shift_mm, found) in [(0.0, true), (2.5, false)] {
            let page = drawn(&form, true, shift_mm);
            let prep = prepare_dashed(&page, Some(&prepare(&page)));
            assert_eq!(
                align_thick(&prep, &form).is_some(),
                found,
                "moved {shift_mm} mm"
            );
        }
    }
}
