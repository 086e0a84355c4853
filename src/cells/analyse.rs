//! A field's marks told apart: empty, a dash, ink to read; a circle; a sign.

use super::*;

/// A labelled piece of ink: its box (inclusive), area and label.
#[derive(Clone, Copy)]
pub(crate) struct Component {
    pub(crate) x0: u32,
    pub(crate) y0: u32,
    pub(crate) x1: u32,
    pub(crate) y1: u32,
    pub(crate) area: u32,
    pub(crate) label: u32,
}

/// The box around all of `cs`: (x0, y0, x1, y1).
pub(super) fn bbox(cs: &[Component]) -> (u32, u32, u32, u32) {
    (
        cs.iter().map(|c| c.x0).min().unwrap_or(0),
        cs.iter().map(|c| c.y0).min().unwrap_or(0),
        cs.iter().map(|c| c.x1).max().unwrap_or(0),
        cs.iter().map(|c| c.y1).max().unwrap_or(0),
    )
}

impl Component {
    pub(super) fn w(&self) -> u32 {
        self.x1 - self.x0 + 1
    }
    pub(super) fn h(&self) -> u32 {
        self.y1 - self.y0 + 1
    }
}

/// Reads the marks of one field from its cut-out (see [`cut`]).
pub fn analyse(crop: &GrayImage, find_circle: bool, find_sign: bool) -> CellImage {
    let cell = analyse_at(crop, Cut::FromCore, find_circle, find_sign);
    if find_circle && !cell.circled && cell.mark == Mark::Ink {
        // A ring drawn thinner or lighter than the digits falls apart at
        // the digits' cut; at the paper's shade it is whole, and the cell
        // is read as cut there.
        let shaded = analyse_at(crop, Cut::Shade, find_circle, find_sign);
        if shaded.circled {
            return shaded;
        }
        // A ring crossing a ruled line may run into the neighbour row's
        // ring there, and the two together are no ring: looked at again
        // without what lies beyond the box's lines.
        if (cell.beyond_lines || shaded.beyond_lines)
            && let Some(inside) = within_lines(crop)
        {
            for at in [Cut::FromCore, Cut::Shade] {
                let c = analyse_at(&inside, at, find_circle, find_sign);
                if c.circled {
                    return c;
                }
            }
        }
    }
    if find_sign && cell.sign.is_none() && cell.mark == Mark::Ink {
        let shaded = analyse_at(crop, Cut::Shade, false, true);
        // A minus drawn lighter than the digits (a phone photo's blur
        // thins a fine stroke) is lost at the digits' cut, like a ring.
        if shaded.sign.is_some() {
            return shaded;
        }
    }
    cell
}

/// The crop analysed at [`Cut::NearCore`], as [`analyse`] does at its
/// first look (a second opinion on an unsure field, not a reading alone).
pub fn analyse_near_core(crop: &GrayImage, find_circle: bool, find_sign: bool) -> CellImage {
    analyse_at(crop, Cut::NearCore, find_circle, find_sign)
}

/// The crop analysed at the paper's shade ([`Cut::Shade`]): a stroke
/// drawn lighter than the others (a faint leading 1), lost at the digits'
/// cut, is ink here. For counting what a number holds, not for reading it.
pub fn analyse_shaded(crop: &GrayImage) -> CellImage {
    analyse_at(crop, Cut::Shade, false, false)
}

/// The crop with what lies beyond its box's top and bottom ruled lines
/// painted over with paper, or `None` where less than [`MIN_BEYOND`] ink
/// pixels lie there.
pub(super) fn within_lines(crop: &GrayImage) -> Option<GrayImage> {
    let h = crop.height();
    let beyond = |y: u32| beyond_lines(y, h);
    let paper = paper_level(crop.pixels().map(|p| p[0]));
    let shade = shade_of(paper);
    let ink = crop
        .enumerate_pixels()
        .filter(|(_, y, p)| beyond(*y) && f64::from(p[0]) < shade)
        .count();
    if ink < MIN_BEYOND {
        return None;
    }
    let mut inside = crop.clone();
    for (_, y, p) in inside.enumerate_pixels_mut() {
        if beyond(y) {
            *p = Luma([paper.round().clamp(0.0, 255.0) as u8]);
        }
    }
    Some(inside)
}

/// Whether row `y` of a crop `h` high lies beyond its box's top or bottom line.
pub(super) fn beyond_lines(y: u32, h: u32) -> bool {
    let m = (MARGIN_MM * PX_PER_MM) as u32;
    y + 1 < m || y > h.saturating_sub(m) + 1
}

/// A field's ink at one cut: ruled lines taken out, its pieces labelled,
/// those that are the field's own kept (not specks, not a neighbour's ink
/// reaching in over an edge).
pub(super) struct FieldInk {
    pub(super) lines: GrayImage,
    pub(super) labels: image::ImageBuffer<Luma<u32>, Vec<u32>>,
    pub(super) kept: Vec<Component>,
}

impl FieldInk {
    pub(super) fn of(crop: &GrayImage, at: Cut) -> FieldInk {
        let mut ink = binarize_at(crop, at);
        let lines = remove_lines(&mut ink);
        let (w, h) = ink.dimensions();
        let m = (MARGIN_MM * PX_PER_MM) as u32;
        let inset = (0.4 * PX_PER_MM) as u32;
        let (ix0, iy0, ix1, iy1) = (
            m + inset,
            m + inset,
            w.saturating_sub(m + inset),
            h.saturating_sub(m + inset),
        );

        let labels = crate::page::label::connected_components(&ink, 0);
        let comps = components(&labels);
        let min_area = (0.12 * PX_PER_MM * PX_PER_MM) as u32;
        // Ink that only reaches in over an edge (a neighbour's circle, a long
        // stroke from the row above) is not this cell's: it hugs that edge.
        let reach = (1.2 * PX_PER_MM) as u32;
        let tol = (0.5 * PX_PER_MM) as u32;
        let box_h = h - 2 * m;
        // A neighbour's ring that crossed a side line leaves a sliver beside
        // it, thinner than a pen and short: read, it was a "1" (11 read 111).
        let (sliver_w, sliver_gap) = ((0.5 * PX_PER_MM) as u32, (1.0 * PX_PER_MM) as u32);
        let stray = |c: &Component| {
            let sliver = c.x1 - c.x0 < sliver_w && c.y1 - c.y0 < box_h / 2;
            (c.x0 <= m + tol && c.x1 < m + reach)
                || (c.x1 + tol >= w - m && c.x0 + reach > w - m)
                || (c.y0 <= m + tol && c.y1 < m + box_h * 2 / 5)
                || (c.y1 + tol >= h - m && c.y0 > h - m - box_h * 2 / 5)
                || (sliver && (c.x0 <= m + sliver_gap || c.x1 + sliver_gap >= w - m))
        };
        let kept: Vec<Component> = comps
            .into_iter()
            .filter(|c| {
                c.area >= min_area
                    && c.x1 >= ix0
                    && c.x0 <= ix1
                    && c.y1 >= iy0
                    && c.y0 <= iy1
                    && !stray(c)
            })
            .collect();
        FieldInk {
            lines,
            labels,
            kept,
        }
    }

    /// The kept pieces' labels.
    pub(super) fn keep(&self) -> std::collections::BTreeSet<u32> {
        self.kept.iter().map(|c| c.label).collect()
    }

    /// The kept pieces' ink, white on black.
    pub(super) fn clean(&self) -> GrayImage {
        let top = self.kept.iter().map(|c| c.label).max().unwrap_or(0) as usize;
        let mut kept = vec![false; top + 1];
        for c in &self.kept {
            kept[c.label as usize] = true;
        }
        let (w, h) = self.labels.dimensions();
        let pixels = self
            .labels
            .as_raw()
            .iter()
            .map(|&l| {
                if kept.get(l as usize) == Some(&true) {
                    255
                } else {
                    0
                }
            })
            .collect();
        GrayImage::from_raw(w, h, pixels).unwrap_or_else(|| GrayImage::new(w, h))
    }
}

/// Each label's piece, in label order (what `connected_components` labels).
pub(crate) fn components(labels: &image::ImageBuffer<Luma<u32>, Vec<u32>>) -> Vec<Component> {
    let mut comps: Vec<Component> = Vec::new();
    for (x, y, l) in labels.enumerate_pixels() {
        let l = l[0];
        if l == 0 {
            continue;
        }
        let i = l as usize - 1;
        if i >= comps.len() {
            comps.resize(
                i + 1,
                Component {
                    x0: u32::MAX,
                    y0: u32::MAX,
                    x1: 0,
                    y1: 0,
                    area: 0,
                    label: 0,
                },
            );
        }
        let c = &mut comps[i];
        c.label = l;
        c.x0 = c.x0.min(x);
        c.y0 = c.y0.min(y);
        c.x1 = c.x1.max(x);
        c.y1 = c.y1.max(y);
        c.area += 1;
    }
    // Labels run from 1 without gaps; should one have no pixels, it is no piece.
    comps.retain(|c| c.area > 0);
    comps
}

pub(super) fn analyse_at(
    crop: &GrayImage,
    at: Cut,
    find_circle: bool,
    find_sign: bool,
) -> CellImage {
    let ink = FieldInk::of(crop, at);
    let (keep, mut clean) = (ink.keep(), ink.clean());
    let FieldInk {
        lines,
        labels,
        mut kept,
    } = ink;
    let h = labels.height();
    let ink_px: u32 = kept.iter().map(|c| c.area).sum();
    let empty = CellImage {
        ink_px,
        ..CellImage::blank()
    };
    if kept.is_empty() {
        return empty;
    }
    let (bx0, by0, bx1, by1) = bbox(&kept);
    let (bw, bh) = (bx1 - bx0 + 1, by1 - by0 + 1);
    let mm = |px: u32| f64::from(px) / PX_PER_MM;
    if mm(bh) <= 1.3 && mm(bw) >= 2.0 && bw >= 3 * bh {
        return CellImage {
            mark: Mark::Dash,
            ..empty
        };
    }

    let unpeeled = if find_circle && is_ring(&clean, &lines, (bx0, by0, bx1, by1), RING_FIRST_LOOK)
    {
        let ink = RingInk {
            labels: &labels,
            keep: &keep,
            bounds: (bx0, by0, bx1, by1),
        };
        peel_found_ring(&ink, &mut clean, &mut kept)
    } else {
        None
    };
    let circled = unpeeled.is_some();
    let sign = if find_sign {
        sign_of(&kept, &labels, &mut clean)
    } else {
        None
    };

    CellImage {
        mark: Mark::Ink,
        circled,
        sign,
        digits: crop_to_ink(&clean),
        ink_px,
        beyond_lines: beyond_lines(by0, h) || beyond_lines(by1, h),
        across_side: across_side(bx0, bx1, clean.width()),
        unpeeled,
    }
}

/// How far (mm) kept ink may reach over a box's side line: a stroke's
/// end; beyond it, the number runs on into the next column.
pub const ACROSS_SIDE_MM: f64 = 0.4;

/// Whether ink from column `x0` to `x1` of a cut `w` wide reaches over
/// the box's left or right line by more than [`ACROSS_SIDE_MM`].
fn across_side(x0: u32, x1: u32, w: u32) -> bool {
    let m = MARGIN_MM * PX_PER_MM;
    let over = ACROSS_SIDE_MM * PX_PER_MM;
    f64::from(x0) < m - over || f64::from(x1) > f64::from(w) - 1.0 - m + over
}

/// A leading sign (an Endergebnis's): the first piece, small and flat (a
/// minus) or two crossing strokes (a plus), or a stroke run into the first
/// digit. Its ink is erased from `clean`.
fn sign_of(
    kept: &[Component],
    labels: &image::ImageBuffer<Luma<u32>, Vec<u32>>,
    clean: &mut GrayImage,
) -> Option<char> {
    let mut sign = None;
    let mut parts: Vec<&Component> = kept.iter().collect();
    parts.sort_by_key(|c| c.x0);
    let tallest = parts.iter().map(|c| c.h()).max().unwrap_or(0);
    if parts.len() >= 2
        && let Some(first) = parts.first()
    {
        let small = first.h() * 100 < tallest * 55;
        let squarish = first.w() * 10 >= first.h() * 6 && first.h() * 10 >= first.w() * 6;
        if small && first.w() >= first.h() * 2 {
            sign = Some('-');
        } else if squarish && first.h() * 100 < tallest * 90 && (small || is_cross(labels, first)) {
            // A plus is often written half as high as the digits or more
            // (0.8 on a development sheet, read as a minus run into the
            // first digit): its shape, two crossing strokes, tells it
            // from a small digit.
            sign = Some('+');
        }
        if sign.is_some() {
            erase_left_of(clean, labels, first.label, u32::MAX);
        }
    }
    if sign.is_none()
        && let Some(first) = parts.first()
        && let Some(end) = attached_minus(labels, first, tallest)
    {
        sign = Some('-');
        erase_left_of(clean, labels, first.label, end);
    }
    if sign.is_none()
        && let Some(first) = parts.first()
        && let Some(end) = attached_plus(labels, first, tallest)
    {
        sign = Some('+');
        erase_left_of(clean, labels, first.label, end);
    }
    sign
}

/// Erases the ink of piece `label` left of column `end` (a sign).
pub(super) fn erase_left_of(
    clean: &mut GrayImage,
    labels: &image::ImageBuffer<Luma<u32>, Vec<u32>>,
    label: u32,
    end: u32,
) {
    for (x, y, p) in clean.enumerate_pixels_mut() {
        if x < end && labels.get_pixel(x, y)[0] == label {
            *p = Luma([0]);
        }
    }
}

/// Where a minus written into the first digit ends (its first column
/// free of it): the piece starts with a thin level run of at least
/// [`MINUS_LENGTH`] of the writing's height, about its middle.
pub(super) fn attached_minus(
    labels: &image::ImageBuffer<Luma<u32>, Vec<u32>>,
    first: &Component,
    tallest: u32,
) -> Option<u32> {
    let thin = (tallest * 18 / 100).max(3);
    let (lo, hi) = (
        first.y0 + first.h() * 25 / 100,
        first.y0 + first.h() * 80 / 100,
    );
    let mut run = 0;
    for x in first.x0..=first.x1 {
        let Some((top, bottom)) = column_extent(labels, first, x) else {
            break;
        };
        if bottom - top + 1 > thin || top < lo || bottom > hi {
            break;
        }
        run += 1;
    }
    (first.h() * 100 >= tallest * 60 && f64::from(run) >= MINUS_LENGTH * f64::from(tallest))
        .then_some(first.x0 + run)
}

/// Where a plus written into the first digit ends (the column where its
/// right arm meets the digit): left of some column in the piece's first
/// two thirds of a digit, its ink is a cross lower than the writing, and
/// that column holds only a thin run of ink about the middle (the arm).
pub(super) fn attached_plus(
    labels: &image::ImageBuffer<Luma<u32>, Vec<u32>>,
    first: &Component,
    tallest: u32,
) -> Option<u32> {
    let thin = (tallest * 18 / 100).max(3);
    let (lo, hi) = (
        first.y0 + first.h() * 20 / 100,
        first.y0 + first.h() * 85 / 100,
    );
    let from = first.x0 + tallest / 5;
    let to = (first.x0 + tallest * 7 / 10).min(first.x1.saturating_sub(tallest / 5));
    // The ink's rows left of each column: (top, bottom) so far.
    let (mut y0, mut y1) = (u32::MAX, 0);
    for x in first.x0..=to {
        let extent = column_extent(labels, first, x);
        let arm = extent.is_some_and(|(t, b)| b - t < thin && t >= lo && b <= hi);
        if x >= from && arm && y1 >= y0 {
            let left = Component {
                x0: first.x0,
                y0,
                x1: x - 1,
                y1,
                area: 0,
                label: first.label,
            };
            if left.h() * 100 <= tallest * 75
                && left.h() * 100 >= tallest * 25
                && is_cross(labels, &left)
            {
                return Some(x);
            }
        }
        if let Some((t, b)) = extent {
            y0 = y0.min(t);
            y1 = y1.max(b);
        }
    }
    None
}

/// The topmost and bottommost rows of piece `c`'s ink in column `x`.
pub(super) fn column_extent(
    labels: &image::ImageBuffer<Luma<u32>, Vec<u32>>,
    c: &Component,
    x: u32,
) -> Option<(u32, u32)> {
    let inked = |y: &u32| labels.get_pixel(x, *y)[0] == c.label;
    Some(((c.y0..=c.y1).find(inked)?, (c.y0..=c.y1).rev().find(inked)?))
}

/// Black ink on white, cut to the ink with a small white border.
/// Two crossing strokes: nearly all the component's ink lies near its
/// fullest row or its fullest column (a plus sign, not a digit).
pub(super) fn is_cross(labels: &image::ImageBuffer<Luma<u32>, Vec<u32>>, c: &Component) -> bool {
    let (w, h) = (c.w() as usize, c.h() as usize);
    let (mut rows, mut cols) = (vec![0u32; h], vec![0u32; w]);
    let mut on = Vec::new();
    for y in c.y0..=c.y1 {
        for x in c.x0..=c.x1 {
            if labels.get_pixel(x, y)[0] == c.label {
                let (i, j) = ((x - c.x0) as usize, (y - c.y0) as usize);
                rows[j] += 1;
                cols[i] += 1;
                on.push((i, j));
            }
        }
    }
    let fullest = |v: &[u32]| v.iter().enumerate().max_by_key(|e| *e.1).map_or(0, |e| e.0);
    let (row, col) = (fullest(&rows), fullest(&cols));
    // The pen's width (ink over the strokes' length), and a pixel of play.
    let pen = (on.len() as f64 / (w + h) as f64).max(1.0) + 1.0;
    let near = on
        .iter()
        .filter(|&&(i, j)| {
            (j as f64 - row as f64).abs() <= pen || (i as f64 - col as f64).abs() <= pen
        })
        .count();
    near * 100 >= on.len() * 90
        && (row as f64 - h as f64 / 2.0).abs() < h as f64 / 4.0
        && (col as f64 - w as f64 / 2.0).abs() < w as f64 / 4.0
}

/// How high the ink of a mask reaches, top to bottom (0 without ink).
pub(super) fn ink_height(mask: &GrayImage) -> u32 {
    let mut rows = mask.enumerate_pixels().filter(|p| p.2[0] > 0).map(|p| p.1);
    // Pixels come row by row: the first inked one is the top.
    let top = rows.next();
    top.map_or(0, |t| rows.last().unwrap_or(t) - t + 1)
}

/// A mask's ink (bright) as black digits on white, cropped to it with a
/// margin: what a field's `digits` are.
pub fn crop_to_ink(mask: &GrayImage) -> GrayImage {
    let on: Vec<(u32, u32)> = mask
        .enumerate_pixels()
        .filter(|p| p.2[0] > 0)
        .map(|p| (p.0, p.1))
        .collect();
    let Some(x0) = on.iter().map(|p| p.0).min() else {
        return GrayImage::from_pixel(1, 1, Luma([255]));
    };
    let x1 = on.iter().map(|p| p.0).max().unwrap_or(x0);
    let y0 = on.iter().map(|p| p.1).min().unwrap_or(0);
    let y1 = on.iter().map(|p| p.1).max().unwrap_or(y0);
    let pad = 4;
    let mut out = GrayImage::from_pixel(x1 - x0 + 1 + 2 * pad, y1 - y0 + 1 + 2 * pad, Luma([255]));
    for &(x, y) in &on {
        out.put_pixel(x - x0 + pad, y - y0 + pad, Luma([0]));
    }
    out
}
