//! The form found on the page and confirmed by its printed title.

use super::*;

/// A fit from which the other forms are not tried.
pub(super) const SURE_FIT: f64 = 0.95;

/// A page with the form found on it.
pub struct AlignedSheet<'a> {
    pub page: &'a GrayImage,
    pub form: &'a FormTemplate,
    pub alignment: Alignment,
}

/// Finds which of `forms` is on the page and where. Never guesses: a page
/// that fits no form well enough is an error with the reason.
pub fn locate<'a>(
    page: &'a GrayImage,
    forms: &'a [FormTemplate],
) -> Result<AlignedSheet<'a>, Unreadable> {
    if page.width() < 200 || page.height() < 200 {
        return Err(Unreadable::TooSmall {
            width: page.width(),
            height: page.height(),
        });
    }
    let mut best: Option<(usize, Alignment)> = None;
    let mut why = Unreadable::NoTable;
    // Strong perspective bends the lines apart: then look along several slopes.
    for slopes in [&[0.0][..], &[-6.0, -3.0, 0.0, 3.0, 6.0][..]] {
        if best.as_ref().is_some_and(|b| b.1.fit >= MIN_FIT) {
            break;
        }
        let prep = align::prepare_with(page, slopes);
        for (i, form) in forms.iter().enumerate() {
            // Nearly every ruled line of a form in place: no other form fits better.
            if best.as_ref().is_some_and(|b| b.1.fit >= SURE_FIT) {
                break;
            }
            match align::align(&prep, form) {
                Ok(a) if best.as_ref().is_none_or(|b| a.fit > b.1.fit) => best = Some((i, a)),
                Ok(_) => {}
                Err(e) => why = e,
            }
        }
    }
    match best {
        Some((i, a)) if a.fit >= MIN_FIT => Ok(AlignedSheet {
            page,
            form: &forms[i],
            alignment: a,
        }),
        Some((i, a)) => Err(Unreadable::OtherForm {
            form: forms[i].id.clone(),
            percent: (a.fit * 100.0).round() as u32,
        }),
        None => Err(why),
    }
}

/// Reads the printed title and three printed row numbers through the
/// alignment: a second, independent check that the right form was found
/// where the ruled lines say. Returns (title as read, title matches, row numbers found).
pub fn confirm(sheet: &AlignedSheet, printed: &mut TesseractReader) -> (String, bool, usize) {
    let form = sheet.form;
    let mut title = String::new();
    if let Some(t) = form.texts.first() {
        let width = t.size * 0.75 * t.text.chars().count() as f64;
        let crop = cells::cut_with_margin(
            sheet.page,
            &sheet.alignment,
            [t.x - 1.0, t.y - t.size * 1.1, width + 2.0, t.size * 2.2],
            0.0,
        );
        // Print is read at half the cutting resolution: Tesseract is fastest
        // there (~22 ms a title against ~30 at full size and 22-45 ms at a
        // third, where it also misread "Turnier" on hB).
        let small = image::imageops::resize(
            &crop,
            crop.width() / 2,
            crop.height() / 2,
            image::imageops::FilterType::Triangle,
        );
        title = printed.read_line(&small).text;
    }
    let expected = form.title.clone().unwrap_or_default();
    let matches = similarity(&title, &expected) >= 0.7;
    let mut rows_found = 0;
    let rows = form.fields.game.len();
    for row in [1, rows / 2, rows] {
        let first = form.fields.game[row - 1][0].plus;
        let grid = form.grid();
        let bx = [grid[0], first[1], first[0] - grid[0], first[3]];
        let crop = cells::cut_with_margin(sheet.page, &sheet.alignment, bx, -0.7);
        let text: String = printed
            .read_line(&crop)
            .text
            .chars()
            .filter(char::is_ascii_digit)
            .collect();
        rows_found += usize::from(text == row.to_string());
    }
    (title, matches, rows_found)
}

/// Share of the expected text's letter pairs found in the read text.
pub(super) fn similarity(read: &str, expected: &str) -> f64 {
    let norm = |s: &str| {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect::<Vec<_>>()
    };
    let (r, e) = (norm(read), norm(expected));
    if e.len() < 2 {
        return 0.0;
    }
    let pairs: Vec<(char, char)> = r.windows(2).map(|w| (w[0], w[1])).collect();
    let hits = e
        .windows(2)
        .filter(|w| pairs.contains(&(w[0], w[1])))
        .count();
    hits as f64 / (e.len() - 1) as f64
}
