//! A second way to put a family's glyph on paper, for a held-out measure
//! that does not share the training's look: the glyph (a font's filled
//! outline, a stroke font's pen line) thinned to its skeleton and drawn
//! again with a pen whose pressure swells and fades along the stroke, ink
//! that thins where the ballpoint skips, and a wave through the whole
//! glyph as a hand's unsteady line bends it.

use image::GrayImage;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

/// How the held-out families are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Rendering {
    /// As the training draws them: a font's outline filled, a stroke
    /// font's line drawn with an even pen.
    #[default]
    Outline,
    /// Their skeleton drawn again with pressure, skipping ink and a wave.
    Pressure,
    /// Each writer one of the two, at even odds (to train on both).
    Both,
}

/// The canvas's ink (bright on black) thinned to one-pixel lines
/// (Zhang and Suen's thinning of the ink above half).
pub fn thin(canvas: &GrayImage) -> Vec<Vec<bool>> {
    let (w, h) = (canvas.width() as usize, canvas.height() as usize);
    let mut on: Vec<Vec<bool>> = (0..h)
        .map(|y| {
            (0..w)
                .map(|x| canvas.get_pixel(x as u32, y as u32)[0] > 127)
                .collect()
        })
        .collect();
    loop {
        let mut changed = false;
        for step in 0..2 {
            let mut off = Vec::new();
            for y in 1..h.saturating_sub(1) {
                for x in 1..w.saturating_sub(1) {
                    if on[y][x] && removable(&on, x, y, step) {
                        off.push((x, y));
                    }
                }
            }
            changed |= !off.is_empty();
            for (x, y) in off {
                on[y][x] = false;
            }
        }
        if !changed {
            return on;
        }
    }
}

/// Whether a pixel of a line thicker than one may go in this sub-step.
fn removable(on: &[Vec<bool>], x: usize, y: usize, step: usize) -> bool {
    // P2..P9 clockwise from the pixel above.
    let p = [
        on[y - 1][x],
        on[y - 1][x + 1],
        on[y][x + 1],
        on[y + 1][x + 1],
        on[y + 1][x],
        on[y + 1][x - 1],
        on[y][x - 1],
        on[y - 1][x - 1],
    ];
    let neighbours = p.iter().filter(|&&b| b).count();
    let turns = (0..8).filter(|&i| !p[i] && p[(i + 1) % 8]).count();
    let (a, b) = if step == 0 {
        (p[0] && p[2] && p[4], p[2] && p[4] && p[6])
    } else {
        (p[0] && p[2] && p[6], p[0] && p[4] && p[6])
    };
    (2..=6).contains(&neighbours) && turns == 1 && !a && !b
}

/// A smooth field over the canvas in `lo..hi`: a few slow waves at
/// random angles and phases.
struct Field {
    waves: Vec<(f64, f64, f64)>,
    lo: f64,
    hi: f64,
}

impl Field {
    fn new(scale: f64, lo: f64, hi: f64, rng: &mut ChaCha8Rng) -> Self {
        let waves = (0..3)
            .map(|_| {
                let angle: f64 = rng.random_range(0.0..std::f64::consts::TAU);
                let k = rng.random_range(0.5..1.5) * std::f64::consts::TAU / scale;
                (
                    k * angle.cos(),
                    k * angle.sin(),
                    rng.random_range(0.0..std::f64::consts::TAU),
                )
            })
            .collect();
        Field { waves, lo, hi }
    }

    fn at(&self, x: f64, y: f64) -> f64 {
        let sum: f64 = self
            .waves
            .iter()
            .map(|(kx, ky, ph)| (kx * x + ky * y + ph).sin())
            .sum();
        let unit = (sum / self.waves.len() as f64 + 1.0) / 2.0;
        self.lo + (self.hi - self.lo) * unit
    }
}

/// The glyph on `canvas` drawn the second way with a pen `pen_px` wide:
/// its skeleton stroked with pressure and skipping ink, then bent by a
/// wave (ink bright on black, as the canvas).
pub fn redraw(canvas: &GrayImage, pen_px: f64, rng: &mut ChaCha8Rng) -> GrayImage {
    let skeleton = thin(canvas);
    let (w, h) = (canvas.width(), canvas.height());
    let scale = f64::from(h.max(w));
    let pressure = Field::new(scale * 0.6, 0.45, 1.35, rng);
    let ink = Field::new(scale * 0.3, 0.55, 1.0, rng);
    let mut out = GrayImage::new(w, h);
    for (y, row) in skeleton.iter().enumerate() {
        for (x, &set) in row.iter().enumerate() {
            if set {
                let (fx, fy) = (x as f64, y as f64);
                let radius = (pen_px / 2.0 * pressure.at(fx, fy)).max(0.6);
                dab(&mut out, fx, fy, radius, ink.at(fx, fy));
            }
        }
    }
    wave(&out, scale * 0.035, rng)
}

/// A round dab of ink `radius` px wide at `(cx, cy)`, its edge soft over
/// one pixel, at `darkness` of full ink.
fn dab(canvas: &mut GrayImage, cx: f64, cy: f64, radius: f64, darkness: f64) {
    let (w, h) = (i64::from(canvas.width()), i64::from(canvas.height()));
    let reach = radius + 1.0;
    for y in ((cy - reach).floor() as i64).max(0)..=((cy + reach).ceil() as i64).min(h - 1) {
        for x in ((cx - reach).floor() as i64).max(0)..=((cx + reach).ceil() as i64).min(w - 1) {
            let d = ((x as f64 - cx).powi(2) + (y as f64 - cy).powi(2)).sqrt();
            let v = ((radius + 0.5 - d).clamp(0.0, 1.0) * darkness * 255.0) as u8;
            let p = canvas.get_pixel_mut(x as u32, y as u32);
            p[0] = p[0].max(v);
        }
    }
}

/// The canvas bent by a slow wave `amplitude` px high across and along.
fn wave(canvas: &GrayImage, amplitude: f64, rng: &mut ChaCha8Rng) -> GrayImage {
    let (w, h) = (canvas.width(), canvas.height());
    let scale = f64::from(h.max(w));
    let (dx, dy) = (
        Field::new(scale * 1.2, -amplitude, amplitude, rng),
        Field::new(scale * 1.2, -amplitude, amplitude, rng),
    );
    GrayImage::from_fn(w, h, |x, y| {
        let (fx, fy) = (f64::from(x), f64::from(y));
        let (sx, sy) = (fx + dx.at(fx, fy), fy + dy.at(fx, fy));
        let (ix, iy) = (sx.round() as i64, sy.round() as i64);
        if ix < 0 || iy < 0 || ix >= i64::from(w) || iy >= i64::from(h) {
            return image::Luma([0]);
        }
        *canvas.get_pixel(ix as u32, iy as u32)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    /// A bar `thick` px thick across a canvas, ink bright.
    fn bar(thick: u32) -> GrayImage {
        GrayImage::from_fn(40, 30, |x, y| {
            image::Luma([if (5..35).contains(&x) && (10..10 + thick).contains(&y) {
                255
            } else {
                0
            }])
        })
    }

    #[test]
    fn a_thick_line_should_thin_to_one_pixel_along_its_length() {
        let thin = thin(&bar(7));
        for x in 10..30 {
            let column = thin.iter().filter(|row| row[x]).count();
            assert_eq!(column, 1, "column {x}");
        }
    }

    #[test]
    fn a_redrawn_glyph_should_keep_its_ink_where_the_glyph_was() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let drawn = redraw(&bar(7), 5.0, &mut rng);
        let ink =
            |img: &GrayImage, y: u32| (5..35).filter(|&x| img.get_pixel(x, y)[0] > 60).count();
        assert!(
            ink(&drawn, 13) > 15,
            "the line is drawn again along its middle"
        );
        assert_eq!(ink(&drawn, 28), 0, "nothing far from it");
    }
}
