//! The form found on the page and confirmed by its printed title.

use super::*;
use crate::page::code::{FoundCode, TableCode, printed_symbol_side};
use crate::page::geometry::Homography;

/// A fit from which the other forms are not tried.
pub(super) const SURE_FIT: f64 = 0.95;

/// A page with the form found on it.
pub struct AlignedSheet<'a> {
    pub page: &'a GrayImage,
    pub form: &'a FormTemplate,
    pub alignment: Alignment,
    /// The share of the header's ruled lines found where the alignment
    /// puts them ([`align::header_share`]); `None` where not looked at.
    pub header_lines: Option<f64>,
    /// The header's print was found not to lie where the form puts it
    /// ([`HeaderPrint::fits`]): every header value read is asked.
    pub header_off: bool,
    /// Which of the header's printed labels ([`header_labels`]) lie where
    /// the form puts them by their ink ([`labels_by_ink`]), as locating the
    /// form found; `None` where not looked at yet.
    pub labels_by_ink: Option<Vec<bool>>,
}

/// At least this share of the header's ruled lines must lie where the
/// fit puts them for the header to be the form's (see [`HeaderPrint`]).
pub const HEADER_LINES_FIT: f64 = 0.8;

/// Finds which of `forms` is on the page and where. Never guesses: a page
/// that fits no form well enough is an error with the reason.
pub fn locate<'a>(
    page: &'a GrayImage,
    forms: &'a [FormTemplate],
) -> Result<AlignedSheet<'a>, Unreadable> {
    let mut ranked = locate_ranked(page, forms)?;
    Ok(ranked.swap_remove(0))
}

/// A form found on the page, and whether its header is there
/// ([`HeaderPrint::fits`]).
struct Fit<'a> {
    sheet: AlignedSheet<'a>,
    header_fits: bool,
}

/// How a page's ruled lines are looked for, in turn, until a form fits.
#[derive(Debug, Clone, Copy)]
enum Lines {
    /// Along the page's skew.
    Straight,
    /// Along several slopes (a phone photo's strong perspective).
    Sloping,
    /// Broken into dashes ([`align::prepare_dashed`]).
    Dashed,
}

impl Lines {
    /// The page's lines looked for so; `earlier`: as the pass before found them.
    fn prepare(self, page: &GrayImage, earlier: Option<&align::Prepared>) -> align::Prepared {
        match self {
            Lines::Straight => align::prepare_with(page, &[0.0]),
            Lines::Sloping => align::prepare_with(page, &[-6.0, -3.0, 0.0, 3.0, 6.0]),
            Lines::Dashed => align::prepare_dashed(page, earlier),
        }
    }

    /// `form` on the page by the lines found so. Over gaps a foreign form's
    /// share rises too, so it is held higher; where that falls short, the
    /// page may have lost its thin lines whole, and its thick ones alone
    /// are tried. `None` where neither fits: the short fit says nothing.
    fn align(
        self,
        prepared: &align::Prepared,
        form: &FormTemplate,
    ) -> Option<Result<Alignment, Unreadable>> {
        let found = align::align(prepared, form);
        let held = |a: &Alignment| a.fit >= align::MIN_FIT_DASHED;
        if !matches!(self, Lines::Dashed) || found.as_ref().is_ok_and(held) {
            return Some(found);
        }
        match align::align_thick(prepared, form) {
            Some(a) => Some(Ok(a)),
            None => found.err().map(Err),
        }
    }
}

/// As [`locate`], every form that fits well enough, best fit first (never
/// empty): where the best is short of sure, its print may deny it, and the
/// next is asked.
pub fn locate_ranked<'a>(
    page: &'a GrayImage,
    forms: &'a [FormTemplate],
) -> Result<Vec<AlignedSheet<'a>>, Unreadable> {
    if page.width() < 200 || page.height() < 200 {
        return Err(Unreadable::TooSmall {
            width: page.width(),
            height: page.height(),
        });
    }
    let mut fits: Vec<Fit> = Vec::new();
    let mut why = Unreadable::NoTable;
    let mut prep = None;
    let best = |fits: &[Fit]| {
        (fits.iter())
            .map(|f| f.sheet.alignment.fit)
            .fold(0.0, f64::max)
    };
    // A sure fit whose header lies where the form puts it: no other form
    // fits better. A sure table under a header that is not there is a
    // look-alike's (a club's form on the shipped one's table).
    let settled =
        |fits: &[Fit]| (fits.iter()).any(|f| f.sheet.alignment.fit >= SURE_FIT && f.header_fits);
    // Strong perspective bends the lines apart: then look along several
    // slopes; last, lines broken into dashes.
    // A page read by its code (below) keeps the lines found without gaps
    // bridged, as before the dashed look.
    let mut dashed = None;
    for pass in [Lines::Straight, Lines::Sloping, Lines::Dashed] {
        if best(&fits) >= MIN_FIT {
            break;
        }
        let lines = pass.prepare(page, prep.as_ref());
        let slot = match pass {
            Lines::Dashed => &mut dashed,
            _ => &mut prep,
        };
        let prepared = slot.insert(lines);
        for form in forms {
            if settled(&fits) {
                break;
            }
            match pass.align(prepared, form) {
                None => {}
                Some(Ok(a)) => {
                    let lines = align::header_share(prepared, form, &a.to_image);
                    let mut found = AlignedSheet {
                        page,
                        form,
                        alignment: a,
                        header_lines: lines,
                        header_off: false,
                        labels_by_ink: None,
                    };
                    found.labels_by_ink = Some(labels_by_ink(&found));
                    let header_fits = header_print(&found).fits();
                    fits.push(Fit {
                        sheet: found,
                        header_fits,
                    });
                }
                Some(Err(e)) => why = e,
            }
        }
    }
    // Each form by its best fit, the best first.
    fits.sort_by(|a, b| b.sheet.alignment.fit.total_cmp(&a.sheet.alignment.fit));
    let mut seen: Vec<&FormTemplate> = Vec::new();
    fits.retain(|f| {
        !seen.iter().any(|s| std::ptr::eq(*s, f.sheet.form)) && {
            seen.push(f.sheet.form);
            true
        }
    });
    if fits.iter().any(|f| f.sheet.alignment.fit >= MIN_FIT) {
        return Ok((fits.into_iter())
            .map(|f| f.sheet)
            .filter(|s| s.alignment.fit >= MIN_FIT)
            .collect());
    }
    let found = match fits.first() {
        Some(f) => Unreadable::OtherForm {
            form: f.sheet.form.id.clone(),
            percent: (f.sheet.alignment.fit * 100.0).round() as u32,
        },
        None => why,
    };
    let lines = (fits.into_iter().next()).map(|f| (f.sheet.form, f.sheet.alignment));
    match prep {
        Some(prep) => by_code(page, forms, &prep, lines)
            .map(|a| vec![a])
            .ok_or(found),
        None => Err(found),
    }
}

/// A page whose ruled lines were not found well enough, read by its
/// printed code: the code names the form, and where its symbol lies
/// decides between the lines' own best fit (`lines`) and one the code
/// seeds, each kept only where it puts the code where it was found. Where
/// neither does, the code's position alone stands (a fit of nought says
/// so). `None` where the page holds no code of one of `forms`.
fn by_code<'a>(
    page: &'a GrayImage,
    forms: &'a [FormTemplate],
    prep: &align::Prepared,
    lines: Option<(&FormTemplate, Alignment)>,
) -> Option<AlignedSheet<'a>> {
    let found = FoundCode::on(page).or_else(|| code_enlarged(page))?;
    let form = forms
        .iter()
        .find(|f| TableCode::form_tag(&f.id) == found.code.form)?;
    let (seed, symbol) = code_seed(form, &found)?;
    let agrees = |a: &Alignment| {
        symbol.iter().zip(&found.corners).all(|(&mm, &px)| {
            let at = a.to_image.apply(mm);
            (at.0 - px.0).hypot(at.1 - px.1) <= CODE_AGREES_PX
        })
    };
    let own = lines.filter(|(f, _)| f.id == form.id).map(|(_, a)| a);
    let alignment = [own, align::align_from(prep, form, &seed)]
        .into_iter()
        .flatten()
        .filter(agrees)
        .max_by(|a, b| a.fit.total_cmp(&b.fit))
        .unwrap_or_else(|| Alignment {
            quarter_turns: align::quarter_turns(&seed),
            to_image: seed,
            fit: 0.0,
            residual_mm: 0.0,
            thin_lines_lost: false,
        });
    let header_lines = align::header_share(prep, form, &alignment.to_image);
    Some(AlignedSheet {
        page,
        form,
        alignment,
        header_lines,
        header_off: false,
        labels_by_ink: None,
    })
}

/// The longest page side (px) looked at twice enlarged for its code.
const ENLARGE_UP_TO_PX: u32 = 2600;

/// The code looked for on the page at twice its size: at 150 dpi its
/// modules are 3 px, too few for the detector's finder search once a
/// black-and-white scan has eaten their edges.
fn code_enlarged(page: &GrayImage) -> Option<FoundCode> {
    let (w, h) = page.dimensions();
    // From about 220 dpi on (A4) the modules are large enough as they are,
    // and twice the page would cost hundreds of MB.
    if w.max(h) > ENLARGE_UP_TO_PX {
        return None;
    }
    let big = image::imageops::resize(page, w * 2, h * 2, image::imageops::FilterType::Triangle);
    let mut found = FoundCode::on(&big)?;
    found.corners = found.corners.map(|(x, y)| (x / 2.0, y / 2.0));
    Some(found)
}

/// How far (px) a fitted alignment may put the code's corners from where
/// they were found: a module or two at office resolutions.
const CODE_AGREES_PX: f64 = 12.0;

/// The map (form mm → image px) the found symbol gives, from its corners
/// as `print` placed them, and those corners in mm.
fn code_seed(form: &FormTemplate, found: &FoundCode) -> Option<(Homography, [(f64, f64); 4])> {
    let [x, y, side, _] = form.code_box();
    let half = printed_symbol_side(side, found.modules) / 2.0;
    let (cx, cy) = (x + side / 2.0, y + side / 2.0);
    let symbol = [
        (cx - half, cy - half),
        (cx + half, cy - half),
        (cx + half, cy + half),
        (cx - half, cy + half),
    ];
    // A similarity, not a homography: four points 13 mm apart say little
    // about perspective across a page 30 cm long.
    let [tl, tr, br, bl] = found.corners;
    let across = (
        (tr.0 - tl.0 + br.0 - bl.0) / 2.0,
        (tr.1 - tl.1 + br.1 - bl.1) / 2.0,
    );
    let down = (
        (bl.0 - tl.0 + br.0 - tr.0) / 2.0,
        (bl.1 - tl.1 + br.1 - tr.1) / 2.0,
    );
    let scale = (across.0.hypot(across.1) + down.0.hypot(down.1)) / (4.0 * half);
    let angle = across.1.atan2(across.0);
    let centre = (
        (tl.0 + tr.0 + br.0 + bl.0) / 4.0,
        (tl.1 + tr.1 + br.1 + bl.1) / 4.0,
    );
    if !(scale.is_finite() && scale > 0.0) {
        return None;
    }
    let (c, s) = (angle.cos() * scale, angle.sin() * scale);
    let seed = Homography(nalgebra::Matrix3::new(
        c,
        -s,
        centre.0 - (c * cx - s * cy),
        s,
        c,
        centre.1 - (s * cx + c * cy),
        0.0,
        0.0,
        1.0,
    ));
    Some((seed, symbol))
}

/// What the print on a located form says of it (see [`confirm`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Confirmation {
    /// The title as read, where the print reader reads letters.
    pub title_read: Option<String>,
    /// The title read (or its ink matched) is the form's.
    pub title_matches: bool,
    /// Of three printed row numbers, how many were read right.
    pub row_numbers_read: usize,
    /// The header's printed labels (Runde, Tisch, Teilnehmer-Nr., Name …):
    /// how many the form prints, how many of them lie where it puts them.
    pub header: HeaderPrint,
}

/// What the print above the game table says of the header.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct HeaderPrint {
    pub labels: usize,
    pub labels_found: usize,
    /// The share of its ruled lines found ([`AlignedSheet::header_lines`]).
    pub lines: Option<f64>,
}

impl HeaderPrint {
    /// Whether the header lies where the form puts it: at least half its
    /// labels where it prints them, or, on a form that prints none there,
    /// its ruled lines ([`HEADER_LINES_FIT`]); a form with neither is not
    /// denied by it. The labels decide where there are any: a header a
    /// row off lays its lines on the next row's (90% of them met on the
    /// shipped form, against 46% on some genuine black-and-white scans at
    /// 150 dpi), its labels on other words (at most 2 of 9 matched on 35
    /// pages; the genuine ones at least 6 of 10).
    pub fn fits(&self) -> bool {
        if self.labels > 0 {
            return 2 * self.labels_found >= self.labels;
        }
        self.lines.is_none_or(|h| h >= HEADER_LINES_FIT)
    }
}

impl Confirmation {
    /// Whether the print denies the form: none of the row numbers it
    /// prints was read where the alignment puts them, nor its title. A
    /// look-alike form takes another form's sheet by its ruled lines
    /// alone (a club's 32 rows of 6.3 mm took the shipped form's at a fit
    /// of 0.70); its print is what tells them apart. The row numbers must
    /// speak: a title alone is missed on genuine sheets of learnt forms
    /// (on 5 of 6 of one), a row number was read on every one.
    pub fn denies(&self, form: &FormTemplate) -> bool {
        let title_found = form.title.is_some() && self.title_matches;
        form.prints_row_numbers() && self.row_numbers_read == 0 && !title_found
    }
}

/// Reads the printed title and three printed row numbers through the
/// alignment: a second, independent check that the right form was found
/// where the ruled lines say. The title's ink is held against the title
/// drawn in the form's font first; a print reader that reads letters reads
/// it only where the two differ.
pub fn confirm(sheet: &AlignedSheet, printed: &mut dyn PrintReader) -> Confirmation {
    let form = sheet.form;
    let (mut title_read, mut title_matches) = (None, false);
    if let Some(t) = form.texts.first() {
        let bx = title_box(t);
        let crop = cells::cut_with_margin(sheet.page, &sheet.alignment, bx, 0.0);
        // The title's ink in the form's font settles it; only a title
        // printed otherwise (a club's own font, a smudge) is read, which
        // costs Tesseract about 20 ms a page.
        title_matches = print_matches(&crop, t, bx);
        if !title_matches {
            // Print is read at half the cutting resolution: Tesseract is
            // fastest there (~22 ms a title against ~30 at full size and
            // 22-45 ms at a third, where it also misread "Turnier" on hB).
            let small = image::imageops::resize(
                &crop,
                crop.width() / 2,
                crop.height() / 2,
                image::imageops::FilterType::Triangle,
            );
            if let Some(read) = printed.line(&small) {
                let expected = form.title.clone().unwrap_or_default();
                title_matches = similarity(&read.text, &expected) >= 0.7;
                title_read = Some(read.text);
            }
        }
    }
    let mut row_numbers_read = 0;
    let rows = form.fields.game.len();
    for row in [1, rows / 2, rows] {
        let first = form.fields.game[row - 1][0].plus;
        let grid = form.grid();
        let bx = [grid[0], first[1], first[0] - grid[0], first[3]];
        let crop = cells::cut_with_margin(sheet.page, &sheet.alignment, bx, -0.7);
        let text: String = printed
            .line(&crop)
            .unwrap_or_else(|| printed.number(&crop))
            .text
            .chars()
            .filter(char::is_ascii_digit)
            .collect();
        row_numbers_read += usize::from(text == row.to_string());
    }
    Confirmation {
        title_read,
        title_matches,
        row_numbers_read,
        header: header_print_read(sheet, Some(printed)),
    }
}

/// Where the title lies: its line, a little wider and taller.
fn title_box(t: &crate::page::form::Text) -> MmBox {
    let width = t.size * 0.75 * t.text.chars().count() as f64;
    [t.x - 1.0, t.y - t.size * 1.1, width + 2.0, t.size * 2.2]
}

/// How much paper (mm) around a label's ink is held against the font's:
/// enough for the print to lie a little off, short of the ruled lines
/// beside it.
const LABEL_MARGIN_MM: f64 = 0.5;

/// The header's printed labels held against the form's font where the
/// alignment puts them ([`header_print_read`] without a print reader).
pub fn header_print(sheet: &AlignedSheet) -> HeaderPrint {
    header_print_read(sheet, None)
}

/// The header's printed labels: every text above the game table but the
/// title that has a word in it.
fn header_labels(form: &FormTemplate) -> Vec<&crate::page::form::Text> {
    let top = form.grid()[1];
    form.texts
        .iter()
        .skip(1)
        .filter(|t| t.y < top && t.text.chars().filter(|c| c.is_alphabetic()).count() >= 2)
        .collect()
}

/// The crop of a header label's box, cut with no margin.
fn label_crop(sheet: &AlignedSheet, t: &crate::page::form::Text) -> (GrayImage, MmBox) {
    let bx = crate::page::render::text_box_mm(t, LABEL_MARGIN_MM);
    (
        cells::cut_with_margin(sheet.page, &sheet.alignment, bx, 0.0),
        bx,
    )
}

/// Whether each of the header's labels ([`header_labels`]) lies where the
/// alignment puts it, its ink matched against the form's font.
pub fn labels_by_ink(sheet: &AlignedSheet) -> Vec<bool> {
    header_labels(sheet.form)
        .into_iter()
        .map(|t| {
            let (crop, bx) = label_crop(sheet, t);
            print_matches(&crop, t, bx)
        })
        .collect()
}

/// The header's printed labels where the alignment puts them
/// ([`header_labels`]). Each one's ink is matched against the form's font
/// (once: as the form was located, [`AlignedSheet::labels_by_ink`]), and
/// where it does not match, read by `printed` where it reads letters: a
/// club's form is printed in its own font (a dozen labels through
/// Tesseract cost a quarter of a second, so only those the ink leaves in
/// doubt are read).
pub fn header_print_read(
    sheet: &AlignedSheet,
    mut printed: Option<&mut dyn PrintReader>,
) -> HeaderPrint {
    let labels = header_labels(sheet.form);
    let inked = (sheet.labels_by_ink.clone())
        .filter(|inked| inked.len() == labels.len())
        .unwrap_or_else(|| labels_by_ink(sheet));
    let mut labels_found = 0;
    for (t, inked) in labels.iter().zip(inked) {
        let found = inked
            || printed.as_deref_mut().is_some_and(|p| {
                p.line(&label_crop(sheet, t).0)
                    .is_some_and(|read| similarity(&read.text, &t.text) >= LABEL_READ)
            });
        labels_found += usize::from(found);
    }
    HeaderPrint {
        labels: labels.len(),
        labels_found,
        lines: sheet.header_lines,
    }
}

/// How much of a label's letter pairs a reading must hold to be it.
const LABEL_READ: f64 = 0.7;

/// How well (see [`cells::ink_agreement`]) a title's ink must lie on the
/// font's for the print to be the form's title. The forms' titles on 84
/// generated sheets (office, phone and black-and-white scans) and the six
/// samples agree 0.80-1.0; a foreign title of the same size in clean print
/// 0.73.
const TITLE_MATCH: f64 = 0.77;

/// Whether the ink in `crop` (the box `bx`, cut with no margin) is the
/// text `t` as the form prints it: most of the text's ink found, and most
/// of the ink found the text's, once laid on each other.
fn print_matches(crop: &GrayImage, t: &crate::page::form::Text, bx: MmBox) -> bool {
    let expected = crate::page::render::printed_text(t, bx, cells::PX_PER_MM);
    cells::ink_agrees(
        &expected,
        crop,
        TITLE_SPREAD_PX,
        TITLE_REACH_PX,
        TITLE_MATCH,
    )
}

/// How far (px at 10 px a mm) a title's ink may lie from the font's and
/// still be its stroke, once the two are laid on each other.
const TITLE_SPREAD_PX: u8 = 3;

/// How far (px) the title may lie from where the alignment puts it.
const TITLE_REACH_PX: i32 = 8;

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
