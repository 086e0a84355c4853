//! Renders a blank form from its template, so a club prints exactly what
//! the tool reads: PNG at a chosen dpi, or a one-page PDF holding that image.

use ab_glyph::{Font, FontRef, PxScale, ScaleFont};
use image::{GrayImage, Luma};
use imageproc::drawing::{draw_filled_rect_mut, draw_text_mut, text_size};
use imageproc::rect::Rect;

use crate::page::code::TableCode;
use crate::page::form::{FormTemplate, MmBox, Text};

pub(crate) static REGULAR: &[u8] = include_bytes!("../../templates/fonts/DejaVuSans.ttf");
pub(crate) static BOLD: &[u8] = include_bytes!("../../templates/fonts/DejaVuSans-Bold.ttf");

pub fn mm_to_px(mm: f64, dpi: f64) -> f64 {
    mm * dpi / 25.4
}

/// The blank form as a grayscale page at `dpi`.
pub fn render_form(form: &FormTemplate, dpi: f64) -> GrayImage {
    let px = |mm: f64| mm_to_px(mm, dpi);
    let [w, h] = form.page_mm;
    let mut page = GrayImage::from_pixel(px(w).round() as u32, px(h).round() as u32, Luma([255]));
    for &[x1, y1, x2, y2, width] in &form.lines {
        let t = px(width).max(1.0);
        let (l, r) = (px(x1.min(x2)) - t / 2.0, px(x1.max(x2)) + t / 2.0);
        let (top, bottom) = (px(y1.min(y2)) - t / 2.0, px(y1.max(y2)) + t / 2.0);
        let rect = Rect::at(l.round() as i32, top.round() as i32).of_size(
            ((r - l).round() as u32).max(1),
            ((bottom - top).round() as u32).max(1),
        );
        draw_filled_rect_mut(&mut page, rect, Luma([0]));
    }
    let (Ok(regular), Ok(bold)) = (
        FontRef::try_from_slice(REGULAR),
        FontRef::try_from_slice(BOLD),
    ) else {
        return page;
    };
    for t in &form.texts {
        let font = if t.bold { &bold } else { &regular };
        draw_text_mm(&mut page, font, t, dpi);
    }
    page
}

/// Draws a form's text (`y` its line's middle, `size` its cap height) at `dpi`.
pub(crate) fn draw_text_mm(page: &mut GrayImage, font: &FontRef, t: &Text, dpi: f64) {
    let px = |mm: f64| mm_to_px(mm, dpi);
    // Cap height of DejaVu is about 0.73 of the em size.
    let scale = PxScale::from((px(t.size) / 0.73) as f32);
    let (tw, _) = text_size(scale, font, &t.text);
    let x = match t.anchor.as_deref() {
        Some("center") => px(t.x) - f64::from(tw) / 2.0,
        Some("right") => px(t.x) - f64::from(tw),
        _ => px(t.x),
    };
    let ascent = f64::from(font.as_scaled(scale).ascent());
    let y = px(t.y) - ascent + px(t.size) / 2.0;
    draw_text_mut(
        page,
        Luma([0]),
        x.round() as i32,
        y.round() as i32,
        scale,
        font,
        &t.text,
    );
}

/// A drawn table's sheet: the blank form with the round, the table, each
/// seat's number and name printed in their fields, and the table's code
/// in the form's code box. `names` go with `code.players`, seat by seat.
pub fn render_printed(
    form: &FormTemplate,
    code: &TableCode,
    names: &[String],
    dpi: f64,
) -> GrayImage {
    let mut page = render_form(form, dpi);
    let Ok(regular) = FontRef::try_from_slice(REGULAR) else {
        return page;
    };
    let f = &form.fields;
    let round = code.round.to_string();
    let table = code.table.to_string();
    let mut texts = vec![
        (f.round, round.as_str(), PRINTED_DIGITS),
        (f.table, table.as_str(), PRINTED_DIGITS),
    ];
    for (i, number) in code.players.iter().enumerate() {
        if let Some(&bx) = f.player_id.get(i) {
            texts.push((bx, number, PRINTED_DIGITS));
        }
        if let (Some(&bx), Some(name)) = (f.player_name.get(i), names.get(i)) {
            texts.push((bx, name, PRINTED_NAME));
        }
    }
    for (bx, text, size) in texts {
        let t = centred_in(bx, text, size, &regular);
        draw_text_mm(&mut page, &regular, &t, dpi);
    }
    let [x, y, side, _] = form.code_box();
    let side_px = mm_to_px(side, dpi).round() as u32;
    if let Some(symbol) = code.draw(side_px) {
        image::imageops::overlay(
            &mut page,
            &symbol,
            mm_to_px(x, dpi).round() as i64,
            mm_to_px(y, dpi).round() as i64,
        );
    }
    page
}

/// The number `text` as `print` puts it in the box `bx`, alone on white, cut
/// as `cells::cut_at` cuts a page (`margin` mm around the box, at
/// `px_per_mm`): what the box holds where nothing was written over it.
pub fn printed_number(bx: MmBox, text: &str, margin: f64, px_per_mm: f64) -> GrayImage {
    let [_, _, w, h] = bx;
    let side = |mm: f64| ((mm + 2.0 * margin) * px_per_mm).round().max(1.0) as u32;
    let mut out = GrayImage::from_pixel(side(w), side(h), Luma([255]));
    if let Ok(font) = FontRef::try_from_slice(REGULAR) {
        let local = [margin, margin, w, h];
        let t = centred_in(local, text, PRINTED_DIGITS, &font);
        draw_text_mm(&mut out, &font, &t, px_per_mm * 25.4);
    }
    out
}

/// The form's text `t` as it lies in the box `bx` (mm), alone on white,
/// cut as `cells::cut_at` cuts a page with no margin, at `px_per_mm`.
pub fn printed_text(t: &Text, bx: MmBox, px_per_mm: f64) -> GrayImage {
    let [x, y, w, h] = bx;
    let side = |mm: f64| (mm * px_per_mm).round().max(1.0) as u32;
    let mut out = GrayImage::from_pixel(side(w), side(h), Luma([255]));
    let font = if t.bold { BOLD } else { REGULAR };
    if let Ok(font) = FontRef::try_from_slice(font) {
        let local = Text {
            x: t.x - x,
            y: t.y - y,
            ..t.clone()
        };
        draw_text_mm(&mut out, &font, &local, px_per_mm * 25.4);
    }
    out
}

/// Where a printed text's ink lies (mm), as [`draw_text_mm`] places it:
/// its width by the font, from its anchor; from its ascenders to its
/// descenders; `margin` mm around.
pub fn text_box_mm(t: &Text, margin: f64) -> MmBox {
    let font = if t.bold { BOLD } else { REGULAR };
    // The width at 100 px a mm of cap height, as the page is drawn.
    let width = FontRef::try_from_slice(font).map_or(t.size * 0.75 * t.text.len() as f64, |f| {
        let (w, _) = text_size(PxScale::from((100.0 / 0.73) as f32), &f, &t.text);
        f64::from(w) / 100.0 * t.size
    });
    let left = match t.anchor.as_deref() {
        Some("center") => t.x - width / 2.0,
        Some("right") => t.x - width,
        _ => t.x,
    };
    // Ascenders stand about 0.3 of the cap height above it, descenders
    // about as far below the line.
    let (top, bottom) = (t.y - t.size * 0.8, t.y + t.size * 0.8);
    [
        left - margin,
        top - margin,
        width + 2.0 * margin,
        bottom - top + 2.0 * margin,
    ]
}

/// Cap height (mm) of the printed round, table and numbers: clear print,
/// well inside a 7 mm box.
const PRINTED_DIGITS: f64 = 3.2;

/// Cap height (mm) of a printed name, smaller where it would not fit.
const PRINTED_NAME: f64 = 2.4;

/// `text` centred in the box `bx`, its cap height `size` mm or less, so
/// that it keeps 1 mm from the box's sides.
fn centred_in(bx: MmBox, text: &str, size: f64, font: &FontRef) -> Text {
    let [x, y, w, h] = bx;
    // The width at 1 px a mm of cap height: how wide the text is per mm.
    let (per_mm, _) = text_size(PxScale::from((100.0 / 0.73) as f32), font, text);
    let fits = if per_mm == 0 {
        size
    } else {
        (w - 2.0) * 100.0 / f64::from(per_mm)
    };
    Text {
        text: text.to_string(),
        x: x + w / 2.0,
        y: y + h / 2.0,
        size: size.min(fits).min(h * 0.6),
        bold: false,
        anchor: Some("center".into()),
    }
}

/// A PDF of page images at `dpi` (each page's size follows its image).
pub fn pdf_of_pages(pages: &[GrayImage], dpi: f64) -> Vec<u8> {
    let mut pdf = PdfPages::new();
    for page in pages {
        pdf.add(page, dpi);
    }
    pdf.finish()
}

/// Why a page could not be saved.
#[derive(Debug, thiserror::Error)]
pub enum SavePageError {
    /// The file's extension names no format a page is saved in.
    #[error("not a page format (pdf, png, jpg, tif)")]
    Format,
    #[error(transparent)]
    Write(#[from] std::io::Error),
    #[error(transparent)]
    Image(#[from] image::ImageError),
}

/// Saves a page at `dpi` in the format its file's extension names: PDF,
/// PNG, JPEG or TIFF.
pub fn save_page(page: &GrayImage, out: &std::path::Path, dpi: f64) -> Result<(), SavePageError> {
    let ext = out
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match ext.as_deref() {
        Some("pdf") => Ok(std::fs::write(
            out,
            pdf_of_pages(std::slice::from_ref(page), dpi),
        )?),
        Some("png" | "jpg" | "jpeg" | "tif" | "tiff") => Ok(page.save(out)?),
        _ => Err(SavePageError::Format),
    }
}

/// A PDF made a page at a time: each image is compressed as it comes, so a
/// night's hundreds of pages are never all in memory at once.
pub struct PdfPages {
    doc: lopdf::Document,
    pages_id: lopdf::ObjectId,
    kids: Vec<lopdf::Object>,
}

impl Default for PdfPages {
    fn default() -> Self {
        Self::new()
    }
}

impl PdfPages {
    pub fn new() -> Self {
        let mut doc = lopdf::Document::with_version("1.5");
        let pages_id = doc.new_object_id();
        PdfPages {
            doc,
            pages_id,
            kids: Vec::new(),
        }
    }

    /// Adds `page`, printed at `dpi`.
    pub fn add(&mut self, page: &GrayImage, dpi: f64) {
        use lopdf::content::{Content, Operation};
        use lopdf::{Object, Stream, dictionary};
        use std::io::Write;

        let (w, h) = page.dimensions();
        let mut encoder =
            flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        // Writing into a Vec cannot fail.
        let _ = encoder.write_all(page.as_raw());
        let data = encoder.finish().unwrap_or_default();
        let image = Stream::new(
            dictionary! {
                "Type" => "XObject", "Subtype" => "Image",
                "Width" => w as i64, "Height" => h as i64,
                "ColorSpace" => "DeviceGray", "BitsPerComponent" => 8,
                "Filter" => "FlateDecode",
            },
            data,
        );
        let image_id = self.doc.add_object(image);
        let (pw, ph) = (f64::from(w) * 72.0 / dpi, f64::from(h) * 72.0 / dpi);
        let content = Content {
            operations: vec![
                Operation::new("q", vec![]),
                Operation::new(
                    "cm",
                    vec![pw.into(), 0.into(), 0.into(), ph.into(), 0.into(), 0.into()],
                ),
                Operation::new("Do", vec!["Im0".into()]),
                Operation::new("Q", vec![]),
            ],
        };
        let content_id = self.doc.add_object(Stream::new(
            dictionary! {},
            content.encode().unwrap_or_default(),
        ));
        let page_id = self.doc.add_object(dictionary! {
            "Type" => "Page",
            "Parent" => self.pages_id,
            "MediaBox" => vec![0.into(), 0.into(), pw.into(), ph.into()],
            "Contents" => content_id,
            "Resources" => dictionary! { "XObject" => dictionary! { "Im0" => image_id } },
        });
        self.kids.push(Object::from(page_id));
    }

    /// The PDF's bytes.
    pub fn finish(mut self) -> Vec<u8> {
        use lopdf::{Object, dictionary};
        let count = self.kids.len() as i64;
        self.doc.objects.insert(
            self.pages_id,
            Object::Dictionary(
                dictionary! { "Type" => "Pages", "Kids" => self.kids, "Count" => count },
            ),
        );
        let catalog_id = self
            .doc
            .add_object(dictionary! { "Type" => "Catalog", "Pages" => self.pages_id });
        self.doc.trailer.set("Root", catalog_id);
        let mut out = Vec::new();
        let _ = self.doc.save_to(&mut out);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rendered_form_has_its_ruled_lines_where_the_template_says() {
        let form = FormTemplate::load("punkteliste-a4-32").expect("form");
        let page = render_form(&form, 100.0);
        assert_eq!(page.dimensions(), (827, 1169));
        let dark = |xmm: f64, ymm: f64| {
            page.get_pixel(mm_to_px(xmm, 100.0) as u32, mm_to_px(ymm, 100.0) as u32)[0] < 128
        };
        assert!(dark(100.0, 57.0), "grid top");
        assert!(dark(12.0, 150.0), "grid left");
        assert!(!dark(40.0, 66.0), "inside a cell");
    }

    #[test]
    fn a_printed_sheet_should_carry_its_code_and_numbers_in_their_boxes() {
        let form = FormTemplate::load("doko-a4-24x5").expect("form");
        let players = ["101", "0202", "303", "404", "505"]
            .map(String::from)
            .to_vec();
        let code = TableCode::new("Doko", &form.id, 3, 12, players);
        let names = ["A", "Bärbel Huber-Oberndorfer von Moosach", "C", "D", "E"].map(String::from);
        let page = render_printed(&form, &code, &names, 300.0);
        let ink_in = |bx: MmBox| {
            let px = |mm: f64| mm_to_px(mm, 300.0).round() as u32;
            let mut n = 0;
            for y in px(bx[1]) + 4..px(bx[1] + bx[3]) - 4 {
                for x in px(bx[0]) + 4..px(bx[0] + bx[2]) - 4 {
                    n += u32::from(page.get_pixel(x, y)[0] < 128);
                }
            }
            n
        };
        let f = &form.fields;
        assert!(ink_in(f.round) > 50 && ink_in(f.table) > 50);
        assert!(
            f.player_id
                .iter()
                .chain(&f.player_name)
                .all(|&b| ink_in(b) > 50)
        );
        assert_eq!(
            ink_in(f.abzug[0]),
            0,
            "nothing printed where the players write"
        );
        let [x, y, side, _] = form.code_box();
        let crop = image::imageops::crop_imm(
            &page,
            mm_to_px(x - 3.0, 300.0) as u32,
            mm_to_px(y - 3.0, 300.0) as u32,
            mm_to_px(side + 6.0, 300.0) as u32,
            mm_to_px(side + 6.0, 300.0) as u32,
        )
        .to_image();
        assert_eq!(TableCode::find(&crop), Some(code));
    }
}
