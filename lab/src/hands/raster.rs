//! Glyphs as the reader's nets and the generator take them: a canvas of
//! ink (bright on black) brought to MNIST's 28×28 (the ink's longer side
//! 20 px, its centre of mass in the middle), pen strokes drawn on a
//! canvas, and a glyph bent as one writer's hand bends it.

use image::{GrayImage, ImageBuffer, Luma};
use imageproc::geometric_transformations::{Border, Interpolation, warp_with};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

/// A 28×28 glyph, ink bright on black, as MNIST stores its digits.
pub type Glyph28 = [u8; 784];

/// Ink below this counts as paper when a canvas is boxed.
const FAINT: u8 = 40;

/// The canvas's ink as MNIST normalises a digit: its box scaled so that
/// the longer side is 20 px, its centre of mass moved to (14, 14).
/// `None` where the canvas holds no ink.
pub fn to_mnist(canvas: &GrayImage) -> Option<Glyph28> {
    let (x0, y0, x1, y1) = ink_box(canvas)?;
    let (w, h) = (x1 - x0 + 1, y1 - y0 + 1);
    let scale = 20.0 / f64::from(w.max(h));
    let side = |n: u32| ((f64::from(n) * scale).round() as u32).max(1);
    let crop = image::imageops::crop_imm(canvas, x0, y0, w, h).to_image();
    let small = image::imageops::resize(
        &crop,
        side(w),
        side(h),
        image::imageops::FilterType::Triangle,
    );
    let (mut mx, mut my, mut m) = (0.0, 0.0, 0.0);
    for (x, y, p) in small.enumerate_pixels() {
        let v = f64::from(p[0]);
        mx += v * f64::from(x);
        my += v * f64::from(y);
        m += v;
    }
    if m == 0.0 {
        return None;
    }
    let (ox, oy) = (
        (14.0 - mx / m).round() as i64,
        (14.0 - my / m).round() as i64,
    );
    // A hairline's ink comes out grey when scaled down; MNIST's strokes
    // are full ink at their core.
    let mut inks: Vec<u8> = small
        .pixels()
        .map(|p| p[0])
        .filter(|&v| v > FAINT)
        .collect();
    inks.sort_unstable();
    let top = inks.get(inks.len() * 3 / 4).copied().unwrap_or(255).max(1);
    let mut out = [0u8; 784];
    for (x, y, p) in small.enumerate_pixels() {
        let (tx, ty) = (i64::from(x) + ox, i64::from(y) + oy);
        if (0..28).contains(&tx) && (0..28).contains(&ty) {
            out[(ty * 28 + tx) as usize] = (u32::from(p[0]) * 255 / u32::from(top)).min(255) as u8;
        }
    }
    Some(out)
}

/// The box of the canvas's ink: x0, y0, x1, y1.
fn ink_box(canvas: &GrayImage) -> Option<(u32, u32, u32, u32)> {
    let mut b: Option<(u32, u32, u32, u32)> = None;
    for (x, y, p) in canvas.enumerate_pixels() {
        if p[0] > FAINT {
            b = Some(match b {
                None => (x, y, x, y),
                Some((a, c, d, e)) => (a.min(x), c.min(y), d.max(x), e.max(y)),
            });
        }
    }
    b
}

/// The mean width of the canvas's strokes (px): the ink's area over the
/// strokes' length, half its outline (which runs along both sides).
pub fn stroke_width(canvas: &GrayImage) -> f64 {
    let inked = |x: i64, y: i64| {
        x >= 0
            && y >= 0
            && x < i64::from(canvas.width())
            && y < i64::from(canvas.height())
            && canvas.get_pixel(x as u32, y as u32)[0] > 127
    };
    let (mut area, mut edge) = (0usize, 0usize);
    for (x, y, _) in canvas.enumerate_pixels() {
        let (x, y) = (i64::from(x), i64::from(y));
        if inked(x, y) {
            area += 1;
            edge += [(1, 0), (-1, 0), (0, 1), (0, -1)]
                .iter()
                .filter(|(dx, dy)| !inked(x + dx, y + dy))
                .count();
        }
    }
    area as f64 / (edge as f64 / 2.0).max(1.0)
}

/// The height of the canvas's ink (px).
pub fn ink_height(canvas: &GrayImage) -> u32 {
    ink_box(canvas).map_or(0, |(_, y0, _, y1)| y1 - y0 + 1)
}

/// A pen stroke through `points` (canvas px), `radius` px wide on each
/// side, its edge soft over one pixel: ink laid down where the pen passed.
pub fn stroke(canvas: &mut GrayImage, points: &[(f64, f64)], radius: f64) {
    let (w, h) = (i64::from(canvas.width()), i64::from(canvas.height()));
    for pair in points.windows(2) {
        let ((ax, ay), (bx, by)) = (pair[0], pair[1]);
        let (dx, dy) = (bx - ax, by - ay);
        let len2 = (dx * dx + dy * dy).max(1e-9);
        let (lo_x, hi_x) = (ax.min(bx) - radius - 1.0, ax.max(bx) + radius + 1.0);
        let (lo_y, hi_y) = (ay.min(by) - radius - 1.0, ay.max(by) + radius + 1.0);
        for y in (lo_y.floor() as i64).max(0)..=(hi_y.ceil() as i64).min(h - 1) {
            for x in (lo_x.floor() as i64).max(0)..=(hi_x.ceil() as i64).min(w - 1) {
                let (px, py) = (x as f64, y as f64);
                let t = (((px - ax) * dx + (py - ay) * dy) / len2).clamp(0.0, 1.0);
                let (qx, qy) = (ax + t * dx - px, ay + t * dy - py);
                let d = (qx * qx + qy * qy).sqrt();
                let ink = ((radius + 0.5 - d).clamp(0.0, 1.0) * 255.0) as u8;
                let p = canvas.get_pixel_mut(x as u32, y as u32);
                p[0] = p[0].max(ink);
            }
        }
    }
}

/// A smooth curve through `points` (Catmull-Rom), `steps` points between
/// each two.
pub fn smooth(points: &[(f64, f64)], steps: usize) -> Vec<(f64, f64)> {
    if points.len() < 3 {
        return points.to_vec();
    }
    let at = |i: isize| points[i.clamp(0, points.len() as isize - 1) as usize];
    let mut out = Vec::with_capacity(points.len() * steps);
    for i in 0..points.len() as isize - 1 {
        let (p0, p1, p2, p3) = (at(i - 1), at(i), at(i + 1), at(i + 2));
        for s in 0..steps {
            let t = s as f64 / steps as f64;
            let (t2, t3) = (t * t, t * t * t);
            let f = |a: f64, b: f64, c: f64, d: f64| {
                0.5 * (2.0 * b
                    + (c - a) * t
                    + (2.0 * a - 5.0 * b + 4.0 * c - d) * t2
                    + (3.0 * b - a - 3.0 * c + d) * t3)
            };
            out.push((f(p0.0, p1.0, p2.0, p3.0), f(p0.1, p1.1, p2.1, p3.1)));
        }
    }
    out.push(*points.last().expect("three points"));
    out
}

/// How far a glyph is bent: a rotation and shear (one writer's glyphs
/// differ by that much from one another) and a smooth random displacement
/// of every pixel (Simard et al., 2003: displacements drawn at random,
/// smoothed with a Gaussian of 4 px and scaled by `alpha`).
#[derive(Debug, Clone, Copy)]
pub struct Bend {
    pub alpha: (f32, f32),
    pub degrees: f32,
    pub shear: f32,
}

/// Bends a 28×28 glyph by `how`, drawn afresh from `rng`.
pub fn bend_with(img: &Glyph28, how: Bend, rng: &mut ChaCha8Rng) -> Glyph28 {
    const SIGMA: f32 = 4.0;
    let alpha = rng.random_range(how.alpha.0..how.alpha.1);
    let mut field = || {
        let raw = ImageBuffer::<Luma<f32>, Vec<f32>>::from_fn(28, 28, |_, _| {
            Luma([rng.random_range(-1.0..1.0f32)])
        });
        imageproc::filter::gaussian_blur_f32(&raw, SIGMA)
    };
    let (dx, dy) = (field(), field());
    let angle = rng.random_range(-how.degrees..how.degrees).to_radians();
    let shear = rng.random_range(-how.shear..how.shear);
    let (c, s) = (angle.cos(), angle.sin());
    let centre = 13.5;
    let src = GrayImage::from_fn(28, 28, |x, y| Luma([img[(y * 28 + x) as usize]]));
    // Where each pixel comes from: rotated and sheared back, then displaced.
    let bent = warp_with(
        &src,
        |x, y| {
            let (u, v) = (x - centre, y - centre);
            let (u, v) = (c * u + s * v, -s * u + c * v);
            let (i, j) = (x as u32, y as u32);
            (
                u + shear * v + centre + alpha * dx.get_pixel(i, j)[0],
                v + centre + alpha * dy.get_pixel(i, j)[0],
            )
        },
        Interpolation::Bilinear,
        Border::Constant(Luma([0])),
    );
    let mut out = [0u8; 784];
    out.copy_from_slice(bent.as_raw());
    out
}

/// A canvas sheared by a writer's slant (degrees, leaning forward where
/// positive) and narrowed or widened by `width`, about its middle.
pub fn lean(canvas: &GrayImage, slant: f64, width: f64) -> GrayImage {
    let (w, h) = (canvas.width(), canvas.height());
    let (cx, cy) = (f64::from(w) / 2.0, f64::from(h) / 2.0);
    let tan = slant.to_radians().tan();
    warp_with(
        canvas,
        |x, y| {
            let (u, v) = (f64::from(x) - cx, f64::from(y) - cy);
            // Output (u, v) comes from the upright point: unslanted, unwidened.
            let u = (u + tan * v) / width;
            ((u + cx) as f32, (v + cy) as f32)
        },
        Interpolation::Bilinear,
        Border::Constant(Luma([0])),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_canvas_should_be_boxed_to_twenty_pixels_and_centred() {
        let mut canvas = GrayImage::new(100, 60);
        stroke(&mut canvas, &[(50.0, 5.0), (50.0, 55.0)], 3.0);
        let g = to_mnist(&canvas).expect("ink");
        let rows: Vec<usize> = (0..28)
            .filter(|y| (0..28).any(|x| g[y * 28 + x] > FAINT))
            .collect();
        assert!((19..=21).contains(&rows.len()), "{} rows", rows.len());
        let cols: Vec<usize> = (0..28)
            .filter(|x| (0..28).any(|y| g[y * 28 + x] > FAINT))
            .collect();
        let mid = (cols[0] + cols[cols.len() - 1]) as f64 / 2.0;
        assert!((mid - 13.5).abs() <= 1.0, "columns {cols:?}");
    }

    #[test]
    fn a_stroke_should_measure_about_its_width() {
        let width = |radius: f64| {
            let mut canvas = GrayImage::new(100, 100);
            stroke(&mut canvas, &[(50.0, 10.0), (50.0, 90.0)], radius);
            stroke_width(&canvas)
        };
        // Its ink is 8 px across; the round ends' steps lengthen the outline.
        let (thin, broad) = (width(4.0), width(8.0));
        assert!((6.0..=9.0).contains(&thin), "{thin}");
        assert!((1.7..=2.3).contains(&(broad / thin)), "{thin} {broad}");
    }

    #[test]
    fn a_blank_canvas_should_give_no_glyph() {
        assert!(to_mnist(&GrayImage::new(40, 40)).is_none());
    }

    #[test]
    fn a_forward_slant_should_move_the_top_right() {
        let mut canvas = GrayImage::new(60, 60);
        stroke(&mut canvas, &[(30.0, 5.0), (30.0, 55.0)], 2.0);
        let leant = lean(&canvas, 20.0, 1.0);
        let first_ink = |y: u32| (0..60).find(|&x| leant.get_pixel(x, y)[0] > 128);
        assert!(
            first_ink(8) > first_ink(52),
            "{:?} {:?}",
            first_ink(8),
            first_ink(52)
        );
    }

    #[test]
    fn a_smooth_curve_should_pass_through_its_points() {
        let pts = [(0.0, 0.0), (10.0, 5.0), (20.0, 0.0)];
        let c = smooth(&pts, 8);
        for p in pts {
            assert!(
                c.iter()
                    .any(|q| (q.0 - p.0).abs() < 1e-9 && (q.1 - p.1).abs() < 1e-9)
            );
        }
    }
}
