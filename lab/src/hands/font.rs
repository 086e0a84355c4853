//! Handwriting fonts (WOFF, as the npm registry's `@fontsource` packages
//! ship them): a family's digit outlines filled on a canvas.

use std::path::Path;

use ab_glyph::{Font, FontVec, PxScale};
use image::GrayImage;

/// One handwriting font family.
pub struct FontFamily {
    pub name: String,
    font: FontVec,
}

/// The em size digits are filled at: large enough that a pen's width can
/// be changed by whole pixels.
const EM_PX: f32 = 72.0;

impl FontFamily {
    /// Reads a WOFF (or plain TrueType/OpenType) file; the family is named
    /// after the file.
    pub fn load(path: &Path) -> Result<Self, String> {
        let raw =
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let sfnt = if raw.starts_with(b"wOFF") {
            wuff::decompress_woff1(&raw).map_err(|e| format!("{}: {e:?}", path.display()))?
        } else {
            raw
        };
        let font = FontVec::try_from_vec(sfnt).map_err(|e| format!("{}: {e}", path.display()))?;
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let family = FontFamily { name, font };
        if (0..10).any(|d| family.fill(d).is_none()) {
            return Err(format!("{}: the font lacks a digit", path.display()));
        }
        Ok(family)
    }

    /// Digit `d` filled, ink bright on black, with a margin for the pen
    /// and the slant; `None` where the font draws no such glyph.
    pub fn fill(&self, d: u32) -> Option<GrayImage> {
        let ch = char::from_digit(d, 10)?;
        let id = self.font.glyph_id(ch);
        if id.0 == 0 {
            return None;
        }
        let glyph = id.with_scale_and_position(PxScale::from(EM_PX), ab_glyph::point(0.0, 0.0));
        let outline = self.font.outline_glyph(glyph)?;
        let b = outline.px_bounds();
        let margin = EM_PX as u32 / 2;
        let (w, h) = (
            b.width() as u32 + 2 * margin,
            b.height() as u32 + 2 * margin,
        );
        let mut canvas = GrayImage::new(w, h);
        outline.draw(|x, y, c| {
            let (x, y) = (x + margin, y + margin);
            if x < w && y < h {
                canvas.get_pixel_mut(x, y)[0] = (c.clamp(0.0, 1.0) * 255.0) as u8;
            }
        });
        Some(canvas)
    }
}
