//! Renders a blank form from its template, so a club prints exactly what
//! the tool reads: PNG at a chosen dpi, or a one-page PDF holding that image.

use ab_glyph::{Font, FontRef, PxScale, ScaleFont};
use image::{GrayImage, Luma};
use imageproc::drawing::{draw_filled_rect_mut, draw_text_mut, text_size};
use imageproc::rect::Rect;

use crate::page::form::FormTemplate;

static REGULAR: &[u8] = include_bytes!("../../templates/fonts/DejaVuSans.ttf");
static BOLD: &[u8] = include_bytes!("../../templates/fonts/DejaVuSans-Bold.ttf");

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
            &mut page,
            Luma([0]),
            x.round() as i32,
            y.round() as i32,
            scale,
            font,
            &t.text,
        );
    }
    page
}

/// A one-page PDF of the given page image at `dpi` (the page size follows).
pub fn pdf_of_pages(pages: &[GrayImage], dpi: f64) -> Vec<u8> {
    use lopdf::content::{Content, Operation};
    use lopdf::{Document, Object, Stream, dictionary};
    use std::io::Write;

    let mut doc = Document::with_version("1.5");
    let pages_id = doc.new_object_id();
    let mut kids = Vec::new();
    for page in pages {
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
        let image_id = doc.add_object(image);
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
        let content_id = doc.add_object(Stream::new(
            dictionary! {},
            content.encode().unwrap_or_default(),
        ));
        let page_id = doc.add_object(dictionary! {
            "Type" => "Page",
            "Parent" => pages_id,
            "MediaBox" => vec![0.into(), 0.into(), pw.into(), ph.into()],
            "Contents" => content_id,
            "Resources" => dictionary! { "XObject" => dictionary! { "Im0" => image_id } },
        });
        kids.push(Object::from(page_id));
    }
    let count = kids.len() as i64;
    doc.objects.insert(
        pages_id,
        Object::Dictionary(dictionary! { "Type" => "Pages", "Kids" => kids, "Count" => count }),
    );
    let catalog_id = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages_id });
    doc.trailer.set("Root", catalog_id);
    let mut out = Vec::new();
    let _ = doc.save_to(&mut out);
    out
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
}
