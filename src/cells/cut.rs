//! A field's box cut out of the aligned page, and a look at whether it is blank.

use super::*;

/// Cuts `bx` (mm) out of the page through the alignment, at `PX_PER_MM`, with a margin.
pub fn cut(page: &GrayImage, align: &Alignment, bx: MmBox) -> GrayImage {
    cut_with_margin(page, align, bx, MARGIN_MM)
}

/// Cuts `bx` (mm) with `margin` mm around it (negative: inside the box).
pub fn cut_with_margin(page: &GrayImage, align: &Alignment, bx: MmBox, margin: f64) -> GrayImage {
    cut_at(page, align, bx, margin, PX_PER_MM)
}

/// Cuts `bx` (mm) with `margin` mm around it at `px_per_mm` (the review page's crops and overviews).
pub fn cut_at(
    page: &GrayImage,
    align: &Alignment,
    bx: MmBox,
    margin: f64,
    px_per_mm: f64,
) -> GrayImage {
    let [x, y, w, h] = [
        bx[0] - margin,
        bx[1] - margin,
        bx[2] + 2.0 * margin,
        bx[3] + 2.0 * margin,
    ];
    let (cw, ch) = (
        (w * px_per_mm).round() as u32,
        (h * px_per_mm).round() as u32,
    );
    let mut out = vec![255u8; (cw * ch) as usize];
    let (pw, ph) = (page.width() as f64, page.height() as f64);
    for v in 0..ch {
        // Across a field the homography is affine to far below a pixel:
        // map a row's two ends, step linearly between them.
        let ym = y + (f64::from(v) + 0.5) / px_per_mm;
        let first = align.to_image.apply((x + 0.5 / px_per_mm, ym));
        let last = align
            .to_image
            .apply((x + (f64::from(cw) - 0.5) / px_per_mm, ym));
        let steps = f64::from(cw.saturating_sub(1).max(1));
        let step = ((last.0 - first.0) / steps, (last.1 - first.1) / steps);
        let row = &mut out[(v * cw) as usize..((v + 1) * cw) as usize];
        // Positions in 1/65536 px: integer steps and an integer bilinear
        // filter (the cutting was a tenth of all reading time in floats).
        let fixed = |v: f64| (v * 65536.0).round() as i64;
        let (mut fx, mut fy) = (fixed(first.0), fixed(first.1));
        let (sx, sy) = (fixed(step.0), fixed(step.1));
        let (limit_x, limit_y) = (fixed(pw - 1.0), fixed(ph - 1.0));
        for o in row.iter_mut() {
            if fx >= 0 && fy >= 0 && fx < limit_x && fy < limit_y {
                *o = bilinear_fixed(page, fx, fy);
            }
            fx += sx;
            fy += sy;
        }
    }
    GrayImage::from_raw(cw, ch, out).unwrap_or_else(|| GrayImage::new(cw, ch))
}

/// A quick look before cutting: no sample inside the box (a 0.25 mm grid,
/// finer than any pen) is darker than the paper around it. Most fields of a
/// sheet are blank; this spares cutting them.
pub fn looks_blank(page: &GrayImage, align: &Alignment, bx: MmBox) -> bool {
    let inset = 0.4;
    let step = 0.25;
    let (pw, ph) = (page.width() as f64, page.height() as f64);
    let (nx, ny) = (
        ((bx[2] - 2.0 * inset) / step).floor().max(1.0) as u32,
        ((bx[3] - 2.0 * inset) / step).floor().max(1.0) as u32,
    );
    let mut values = Vec::with_capacity((nx * ny) as usize);
    for j in 0..=ny {
        for i in 0..=nx {
            let mm = (
                bx[0] + inset + f64::from(i) * step,
                bx[1] + inset + f64::from(j) * step,
            );
            let (ix, iy) = align.to_image.apply(mm);
            if ix < 0.0 || iy < 0.0 || ix >= pw - 1.0 || iy >= ph - 1.0 {
                return false;
            }
            values.push(bilinear(page, ix, iy));
        }
    }
    let paper = paper_level(values.iter().copied());
    let cut = (paper * 0.85).min(paper - 30.0);
    values.iter().all(|&v| f64::from(v) >= cut)
}

/// [`bilinear`] at a position in 1/65536 px, in integers (8-bit weights).
#[inline]
pub(super) fn bilinear_fixed(img: &GrayImage, x: i64, y: i64) -> u8 {
    let (x0, y0) = ((x >> 16) as usize, (y >> 16) as usize);
    let (wx, wy) = (((x >> 8) & 0xff) as u32, ((y >> 8) & 0xff) as u32);
    let w = img.width() as usize;
    let raw = img.as_raw();
    let i = y0 * w + x0;
    let (Some(top), Some(bottom)) = (raw.get(i..i + 2), raw.get(i + w..i + w + 2)) else {
        return 255;
    };
    let upper = u32::from(top[0]) * (256 - wx) + u32::from(top[1]) * wx;
    let lower = u32::from(bottom[0]) * (256 - wx) + u32::from(bottom[1]) * wx;
    ((upper * (256 - wy) + lower * wy + 32768) >> 16) as u8
}

#[inline]
pub(super) fn bilinear(img: &GrayImage, x: f64, y: f64) -> u8 {
    let (x0, y0) = (x as usize, y as usize);
    let (fx, fy) = ((x - x0 as f64) as f32, (y - y0 as f64) as f32);
    let w = img.width() as usize;
    let raw = img.as_raw();
    let i = y0 * w + x0;
    // Callers keep (x, y) at least a pixel inside the right and bottom edges.
    let (Some(top), Some(bottom)) = (raw.get(i..i + 2), raw.get(i + w..i + w + 2)) else {
        return 255;
    };
    let (a, b, c, d) = (
        f32::from(top[0]),
        f32::from(top[1]),
        f32::from(bottom[0]),
        f32::from(bottom[1]),
    );
    let upper = a + (b - a) * fx;
    let lower = c + (d - c) * fx;
    (upper + (lower - upper) * fy + 0.5).clamp(0.0, 255.0) as u8
}
