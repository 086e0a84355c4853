//! Hershey's single-stroke fonts (`.jhf`, Debian's hershey-fonts-data):
//! each digit a few strokes of a pen's centre line, drawn here with a pen
//! of the writer's width, every point moved a little as a hand moves it.

use std::path::Path;

use image::GrayImage;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use super::raster;

/// A stroke: the pen's path, in font units (y down).
pub type Stroke = Vec<(f64, f64)>;

/// One Hershey font's digits.
pub struct HersheyFont {
    pub name: String,
    digits: Vec<Vec<Stroke>>,
}

/// Canvas pixels a font unit (Hershey digits are about 21 units high).
const PX_PER_UNIT: f64 = 3.0;

/// A digit's height on the canvas (px).
pub const HEIGHT_PX: f64 = 21.0 * PX_PER_UNIT;

impl HersheyFont {
    /// Reads a `.jhf` file whose glyphs are in ASCII order from the space.
    pub fn load(path: &Path) -> Result<Self, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let glyphs =
            parse(&text).ok_or_else(|| format!("{}: not a Hershey font", path.display()))?;
        // '0' is the 17th glyph after the space.
        let digits: Vec<Vec<Stroke>> = glyphs.into_iter().skip(16).take(10).collect();
        if digits.len() < 10 || digits.iter().any(Vec::is_empty) {
            return Err(format!("{}: the font lacks a digit", path.display()));
        }
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        Ok(HersheyFont { name, digits })
    }

    /// This font with digit `d` written as `strokes`, named `name`.
    pub fn with_digit(&self, d: u32, strokes: Vec<Stroke>, name: String) -> HersheyFont {
        let mut digits = self.digits.clone();
        digits[d as usize % 10] = strokes;
        HersheyFont { name, digits }
    }

    /// Digit `d` drawn with a pen of `radius` canvas px, each point of its
    /// path moved by up to `wobble` font units; ink bright on black.
    pub fn draw(&self, d: u32, radius: f64, wobble: f64, rng: &mut ChaCha8Rng) -> GrayImage {
        let strokes = &self.digits[d as usize % 10];
        let margin = 40.0;
        let side = (30.0 * PX_PER_UNIT + 2.0 * margin) as u32;
        let mut canvas = GrayImage::new(side, side);
        let (ox, oy) = (f64::from(side) / 2.0, f64::from(side) / 2.0);
        for s in strokes {
            let moved: Vec<(f64, f64)> = s
                .iter()
                .map(|&(x, y)| {
                    let (jx, jy) = if wobble > 0.0 {
                        (
                            rng.random_range(-wobble..wobble),
                            rng.random_range(-wobble..wobble),
                        )
                    } else {
                        (0.0, 0.0)
                    };
                    (ox + (x + jx) * PX_PER_UNIT, oy + (y + jy) * PX_PER_UNIT)
                })
                .collect();
            let path = if moved.len() >= 3 {
                raster::smooth(&moved, 4)
            } else {
                moved
            };
            raster::stroke(&mut canvas, &path, radius);
        }
        canvas
    }
}

/// The glyphs of a `.jhf` text: a 5-character number, a 3-character count
/// of coordinate pairs (the first pair the glyph's left and right edge),
/// then the pairs, each coordinate a letter's distance from 'R'; " R"
/// lifts the pen. A long glyph runs on over the next lines.
fn parse(text: &str) -> Option<Vec<Vec<Stroke>>> {
    let chars: Vec<char> = text.chars().filter(|c| *c != '\n' && *c != '\r').collect();
    let mut at = 0;
    let mut glyphs = Vec::new();
    while at + 8 <= chars.len() {
        let count: String = chars[at + 5..at + 8].iter().collect();
        let count: usize = count.trim().parse().ok()?;
        let data = chars.get(at + 8..at + 8 + 2 * count)?;
        at += 8 + 2 * count;
        let mut strokes = vec![Vec::new()];
        for pair in data.chunks(2).skip(1) {
            if pair == [' ', 'R'] {
                strokes.push(Vec::new());
                continue;
            }
            let unit = |c: char| f64::from(c as u32) - f64::from('R' as u32);
            strokes
                .last_mut()
                .expect("a stroke")
                .push((unit(pair[0]), unit(pair[1])));
        }
        strokes.retain(|s| !s.is_empty());
        glyphs.push(strokes);
    }
    Some(glyphs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_glyph_should_be_read_across_its_lines_with_its_pen_lifts() {
        // Two glyphs: a one-stroke mark, and one of two strokes whose
        // data runs on over a second line.
        let text = "12345  3I[RFRZ\n12346  6I[PFPZ R\nTFTZ\n";
        let glyphs = parse(text).expect("parsed");
        assert_eq!(glyphs.len(), 2);
        assert_eq!(glyphs[0], vec![vec![(0.0, -12.0), (0.0, 8.0)]]);
        assert_eq!(
            glyphs[1],
            vec![
                vec![(-2.0, -12.0), (-2.0, 8.0)],
                vec![(2.0, -12.0), (2.0, 8.0)]
            ]
        );
    }
}
