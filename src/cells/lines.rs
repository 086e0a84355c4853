//! The ruled lines removed without the strokes that cross them.

use super::*;

/// Removes the box's ruled lines from an ink mask, keeping strokes that cross
/// them. Returns where the lines were (255), for the circle test.
pub fn remove_lines(ink: &mut GrayImage) -> GrayImage {
    let (w, h) = ink.dimensions();
    let mut lines = GrayImage::new(w, h);
    let m = (MARGIN_MM * PX_PER_MM).round() as u32;
    let band = (0.8 * PX_PER_MM) as u32;
    // Horizontal lines at the top and bottom edges.
    for edge in [m, h.saturating_sub(m)] {
        let rows = line_span(ink, edge, band, true);
        if let Some((a, b)) = rows {
            for x in 0..w {
                let above = a > 0 && ink.get_pixel(x, a - 1)[0] > 0;
                let below = b + 1 < h && ink.get_pixel(x, b + 1)[0] > 0;
                if !(above && below) {
                    for y in a..=b {
                        ink.put_pixel(x, y, Luma([0]));
                    }
                }
                for y in a..=b {
                    lines.put_pixel(x, y, Luma([255]));
                }
            }
        }
    }
    for edge in [m, w.saturating_sub(m)] {
        if let Some((a, b)) = line_span(ink, edge, band, false) {
            for y in 0..h {
                let left = a > 0 && ink.get_pixel(a - 1, y)[0] > 0;
                let right = b + 1 < w && ink.get_pixel(b + 1, y)[0] > 0;
                if !(left && right) {
                    for x in a..=b {
                        ink.put_pixel(x, y, Luma([0]));
                    }
                }
                for x in a..=b {
                    lines.put_pixel(x, y, Luma([255]));
                }
            }
        }
    }
    lines
}

/// The rows (or columns) near `edge` that are mostly ink: the printed line.
pub(super) fn line_span(
    ink: &GrayImage,
    edge: u32,
    band: u32,
    horizontal: bool,
) -> Option<(u32, u32)> {
    let (w, h) = ink.dimensions();
    let (len, across) = if horizontal { (w, h) } else { (h, w) };
    let lo = edge.saturating_sub(band);
    let hi = (edge + band).min(across - 1);
    let fill = |i: u32| -> f64 {
        let n = (0..len)
            .filter(|&j| {
                let (x, y) = if horizontal { (j, i) } else { (i, j) };
                ink.get_pixel(x, y)[0] > 0
            })
            .count();
        n as f64 / f64::from(len)
    };
    let fills: Vec<(u32, f64)> = (lo..=hi).map(|i| (i, fill(i))).collect();
    let &(peak, best) = fills.iter().max_by(|a, b| a.1.total_cmp(&b.1))?;
    if best < 0.4 {
        return None;
    }
    let on = |i: u32| fills.iter().any(|&(j, f)| j == i && f > best * 0.35);
    let (mut a, mut b) = (peak, peak);
    while a > lo && on(a - 1) {
        a -= 1;
    }
    while b < hi && on(b + 1) {
        b += 1;
    }
    Some((a.saturating_sub(1), (b + 1).min(across - 1)))
}
