//! A picture of a blank made a straight page: squared to its game table,
//! its skew and a photo's perspective taken out in one warp, cropped to the
//! paper, an A4 sheet's sides restored. The picture's own edges are carried
//! along, so that a form cut off by them is told from one that ends.

use image::{GrayImage, Luma, imageops};
use imageproc::contrast::adaptive_threshold;
use imageproc::geometric_transformations::{Border, Interpolation, Projection, warp};

use super::Edge;
use super::ruling::{MIN_HORIZONTAL_MM, MIN_VERTICAL_MM, PAGE_WIDTH_MM, Rule, lines};

/// The straight page, and where on it the picture ended.
pub struct Straight {
    pub gray: GrayImage,
    pub edges: PictureEdges,
}

/// Per pixel of the straight page: the picture's edge it lies on (a band
/// of [`BAND_MM`] along each), inside the picture, or beyond it.
pub struct PictureEdges(GrayImage);

const BEYOND: u8 = 0;
const INSIDE: u8 = 255;
/// The band along each of the picture's edges (mm) that is marked as it.
const BAND_MM: f64 = 1.0;

impl PictureEdges {
    /// The picture's edge within `reach` px of `(x, y)` px, if any.
    pub fn near(&self, (x, y): (f64, f64), reach: f64) -> Option<Edge> {
        let (w, h) = self.0.dimensions();
        let span = |c: f64, limit: u32| {
            let lo = (c - reach).max(0.0) as u32;
            let hi = ((c + reach).max(0.0) as u32).min(limit.saturating_sub(1));
            lo..=hi
        };
        span(y, h)
            .flat_map(|yy| span(x, w).map(move |xx| (xx, yy)))
            .find_map(|(xx, yy)| edge_of(self.0.get_pixel(xx, yy)[0]))
    }
}

fn code(edge: Edge) -> u8 {
    match edge {
        Edge::Left => 1,
        Edge::Right => 2,
        Edge::Top => 3,
        Edge::Bottom => 4,
    }
}

fn edge_of(code: u8) -> Option<Edge> {
    match code {
        1 => Some(Edge::Left),
        2 => Some(Edge::Right),
        3 => Some(Edge::Top),
        4 => Some(Edge::Bottom),
        _ => None,
    }
}

/// A `w`×`h` picture's edge bands, `band` px wide.
fn edge_bands(w: u32, h: u32, band: u32) -> GrayImage {
    GrayImage::from_fn(w, h, |x, y| {
        let edge = if x < band {
            Some(Edge::Left)
        } else if x + band >= w {
            Some(Edge::Right)
        } else if y < band {
            Some(Edge::Top)
        } else if y + band >= h {
            Some(Edge::Bottom)
        } else {
            None
        };
        Luma([edge.map_or(INSIDE, code)])
    })
}

/// The straight page of `work` (a picture at most 300 dpi), its adaptive
/// threshold's radius `radius` px.
pub fn straight(work: &GrayImage, radius: u32) -> Straight {
    let (page, projection) = straightened(work, radius, surround(work));
    let (w, h) = work.dimensions();
    let px_per_mm = f64::from(w) / PAGE_WIDTH_MM;
    let bands = edge_bands(w, h, ((BAND_MM * px_per_mm).round() as u32).max(1));
    let edges = match projection {
        Some(p) => warp(
            &bands,
            p,
            Interpolation::Nearest,
            Border::Constant(Luma([BEYOND])),
        ),
        None => bands,
    };
    let [x0, y0, x1, y1] = paper(&page);
    let cut = |img: &GrayImage| imageops::crop_imm(img, x0, y0, x1 - x0, y1 - y0).to_image();
    let (mut gray, mut edges) = (cut(&page), cut(&edges));
    // A whole A4 sheet seen (a photo's foreshortening squeezes it one
    // way): its sides made A4's again.
    let aspect = f64::from(y1 - y0) / f64::from(x1 - x0);
    let whole = x0 > 0 && y0 > 0 && x1 < page.width() && y1 < page.height();
    if whole && (aspect / A4_ASPECT - 1.0).abs() < 0.1 {
        let height = (f64::from(x1 - x0) * A4_ASPECT).round() as u32;
        gray = imageops::resize(&gray, x1 - x0, height, imageops::FilterType::Triangle);
        edges = imageops::resize(&edges, x1 - x0, height, imageops::FilterType::Nearest);
    }
    Straight {
        gray,
        edges: PictureEdges(edges),
    }
}

/// The median grey of the picture's outermost pixels: what lies around
/// the page (a scanner's white lid, its dark bed, a table top), brought in
/// where a turn reaches beyond the picture, so that the paper is told from
/// it as before.
fn surround(work: &GrayImage) -> Luma<u8> {
    let (w, h) = work.dimensions();
    let mut rim: Vec<u8> = (0..w)
        .flat_map(|x| [(x, 0), (x, h - 1)])
        .chain((0..h).flat_map(|y| [(0, y), (w - 1, y)]))
        .map(|(x, y)| work.get_pixel(x, y)[0])
        .collect();
    let mid = rim.len() / 2;
    Luma([*rim.select_nth_unstable(mid).1])
}

/// The page straightened, and the map that did it (none where it stands
/// straight): made square to its game table's corners, or turned by its
/// lines' skew where no table is found; then made square by its own
/// outermost ruled lines. Corners alone are fooled by a table whose
/// outline is not a rectangle (an Aufs. column standing lower than the
/// header): the page came out sheared. What a map brings in from beyond
/// the picture is `border`.
fn straightened(
    work: &GrayImage,
    radius: u32,
    border: Luma<u8>,
) -> (GrayImage, Option<Projection>) {
    let warped = |p: Projection| warp(work, p, Interpolation::Bilinear, Border::Constant(border));
    let first = rectification(work).or_else(|| deskewing(work, radius));
    let once = first.map_or_else(|| work.clone(), warped);
    let Some(corners) = square_corners(&once, radius) else {
        return (once, first);
    };
    // The corners taken back into the picture and squared from there: the
    // rectangle's true sides, however the first map stretched them.
    let back = |(x, y): (f64, f64)| match first {
        Some(f) => {
            let (x, y) = f.invert() * (x as f32, y as f32);
            (f64::from(x), f64::from(y))
        }
        None => (x, y),
    };
    match to_rectangle(corners.map(back)) {
        Some(both) => (warped(both), Some(both)),
        None => (once, first),
    }
}

/// The map making the page square to its game table: the largest ruled
/// structure's four corners taken to a rectangle, which undoes a scan's
/// rotation and a photo's perspective alike.
fn rectification(work: &GrayImage) -> Option<Projection> {
    let corners = crate::page::align::prepare(work).largest_structure()?;
    if !a_table(corners, work.dimensions()) {
        return None;
    }
    // A table square to the picture already is left as it is: its corners
    // are found to a pixel or two, its lines to a tenth of one.
    let [tl, tr, br, bl] = corners;
    let slope = |a: (f64, f64), b: (f64, f64), across: bool| {
        let (along, off) = if across {
            (b.1 - a.1, b.0 - a.0)
        } else {
            (b.0 - a.0, b.1 - a.1)
        };
        (off / along).abs()
    };
    let sides = [
        slope(tl, tr, false),
        slope(bl, br, false),
        slope(tl, bl, true),
        slope(tr, br, true),
    ];
    if sides.iter().all(|&s| s < SQUARE_SLOPE) {
        return None;
    }
    to_rectangle(corners)
}

/// Whether four corners found in a `w`×`h` picture may be a table's: none
/// on the picture's edge (a structure running off it is the paper's edge
/// against the scanner's lid, or a table cut off), each side at least a
/// quarter of the picture's width.
fn a_table(corners: [(f64, f64); 4], (w, h): (u32, u32)) -> bool {
    let (w, h) = (f64::from(w), f64::from(h));
    let inside =
        |&(x, y): &(f64, f64)| x > EDGE_PX && y > EDGE_PX && x < w - EDGE_PX && y < h - EDGE_PX;
    let side = |i: usize| {
        let (a, b) = (corners[i], corners[(i + 1) % 4]);
        (a.0 - b.0).hypot(a.1 - b.1)
    };
    corners.iter().all(inside) && (0..4).all(|i| side(i) > w / 4.0)
}

/// How near (px) the picture's edge a corner lies on it.
const EDGE_PX: f64 = 3.0;

/// The map taking a quadrilateral (top-left, top-right, bottom-right,
/// bottom-left) to the rectangle of its mean side lengths about its centre.
fn to_rectangle(corners: [(f64, f64); 4]) -> Option<Projection> {
    let [tl, tr, br, bl] = corners;
    let dist = |a: (f64, f64), b: (f64, f64)| (a.0 - b.0).hypot(a.1 - b.1);
    let w = (dist(tl, tr) + dist(bl, br)) / 2.0;
    let h = (dist(tl, bl) + dist(tr, br)) / 2.0;
    let cx = corners.iter().map(|c| c.0).sum::<f64>() / 4.0;
    let cy = corners.iter().map(|c| c.1).sum::<f64>() / 4.0;
    let square = [
        (cx - w / 2.0, cy - h / 2.0),
        (cx + w / 2.0, cy - h / 2.0),
        (cx + w / 2.0, cy + h / 2.0),
        (cx - w / 2.0, cy + h / 2.0),
    ];
    let f32s = |q: [(f64, f64); 4]| q.map(|(x, y)| (x as f32, y as f32));
    Projection::from_control_points(f32s(corners), f32s(square))
}

/// Shortest line (mm) that squares the page: the table's and the player
/// block's lines, not a box's.
const SQUARING_MM: f64 = 60.0;
/// A printed rule is thinner (mm) than this; the paper's edge against a
/// dark bed is a broad band.
const THICKEST_MM: f64 = 1.5;
/// Outermost lines sloping less than this (a tenth of a mm over a page)
/// leave the page as it is.
const SQUARED_SLOPE: f64 = 0.0003;
/// Lines at least this share of the longest one's length square the page.
const SQUARING_SHARE: f64 = 0.8;

/// The corners that make an almost straight page square: where its
/// outermost long ruled lines each way meet, each fitted through its
/// pixels (top-left, top-right, bottom-right, bottom-left). None where the
/// page is square already or too few lines are found.
fn square_corners(page: &GrayImage, radius: u32) -> Option<[(f64, f64); 4]> {
    let ink = adaptive_threshold(page, radius, 12);
    let px_per_mm = f64::from(page.width()) / PAGE_WIDTH_MM;
    let long = |horizontal: bool| -> Vec<Rule> {
        let min = if horizontal {
            MIN_HORIZONTAL_MM
        } else {
            MIN_VERTICAL_MM
        };
        let found: Vec<Rule> = lines(&ink, horizontal, (min * px_per_mm) as usize)
            .into_iter()
            .filter(|r| r.len() >= SQUARING_MM * px_per_mm && r.width < THICKEST_MM * px_per_mm)
            .filter(|r| printed(page, r, horizontal, px_per_mm))
            .collect();
        let longest = found.iter().map(Rule::len).fold(0.0, f64::max);
        found
            .into_iter()
            .filter(|r| r.len() >= SQUARING_SHARE * longest)
            .collect()
    };
    let outer = |rules: Vec<Rule>| -> Option<(Rule, Rule)> {
        let first = *rules.iter().min_by(|a, b| a.at.total_cmp(&b.at))?;
        let last = *rules.iter().max_by(|a, b| a.at.total_cmp(&b.at))?;
        (last.at - first.at > SQUARING_MM * px_per_mm).then_some((first, last))
    };
    let (top, bottom) = outer(long(true))?;
    let (left, right) = outer(long(false))?;
    if [top, bottom, left, right]
        .iter()
        .all(|r| r.slope.abs() < SQUARED_SLOPE)
    {
        return None;
    }
    Some([
        meet(&top, &left),
        meet(&top, &right),
        meet(&bottom, &right),
        meet(&bottom, &left),
    ])
}

/// Where a horizontal and a vertical line meet, `(x, y)`.
fn meet(h: &Rule, v: &Rule) -> (f64, f64) {
    // y = h.across(x), x = v.across(y): solved for x.
    let x = (v.at + v.slope * (h.at - h.slope * h.centre - v.centre)) / (1.0 - v.slope * h.slope);
    (x, h.across(x))
}

/// Whether a line is printed on the paper, with paper on both its sides,
/// not the paper's edge against a darker bed or table top.
fn printed(page: &GrayImage, r: &Rule, horizontal: bool, px_per_mm: f64) -> bool {
    let (w, h) = page.dimensions();
    let off = r.width / 2.0 + PAPER_SIDE_MM * px_per_mm;
    let gray = |along: f64, across: f64| -> Option<f64> {
        let (x, y) = if horizontal {
            (along, across)
        } else {
            (across, along)
        };
        (x >= 0.0 && y >= 0.0 && x < f64::from(w) && y < f64::from(h))
            .then(|| f64::from(page.get_pixel(x as u32, y as u32)[0]))
    };
    let samples: u32 = 9;
    let both_light = (0..samples)
        .filter(|i| {
            let along = r.from + r.len() * (f64::from(*i) + 0.5) / f64::from(samples);
            let across = r.across(along);
            match (gray(along, across - off), gray(along, across + off)) {
                (Some(a), Some(b)) => (a - b).abs() < PAPER_CONTRAST,
                _ => false,
            }
        })
        .count();
    both_light * 2 > samples as usize
}

/// How far (mm) beside a line its two sides are looked at.
const PAPER_SIDE_MM: f64 = 1.5;

/// The paper in the picture (`[x0, y0, x1, y1)` px): where a scanner's
/// bed or a table top around it is darker, the span of bright columns and
/// rows; else the whole picture.
fn paper(img: &GrayImage) -> [u32; 4] {
    let (w, h) = img.dimensions();
    let span = |means: Vec<f64>| -> (u32, u32) {
        let (lo, hi) = means
            .iter()
            .fold((f64::MAX, f64::MIN), |(a, b), &m| (a.min(m), b.max(m)));
        if hi - lo < PAPER_CONTRAST {
            return (0, means.len() as u32);
        }
        let bright = |m: &f64| *m > (lo + hi) / 2.0;
        let first = means.iter().position(bright).unwrap_or(0);
        let last = means
            .iter()
            .rposition(bright)
            .map_or(means.len(), |l| l + 1);
        (first as u32, last as u32)
    };
    // Means over the middle half across, where the paper surely is.
    let mean = |xs: std::ops::Range<u32>, ys: std::ops::Range<u32>| {
        let n = (xs.len() * ys.len()).max(1) as f64;
        let sum: f64 = ys
            .flat_map(|y| xs.clone().map(move |x| (x, y)))
            .map(|(x, y)| f64::from(img.get_pixel(x, y)[0]))
            .sum();
        sum / n
    };
    let columns = (0..w).map(|x| mean(x..x + 1, h / 4..h * 3 / 4)).collect();
    let rows = (0..h).map(|y| mean(w / 4..w * 3 / 4, y..y + 1)).collect();
    let ((x0, x1), (y0, y1)) = (span(columns), span(rows));
    if (x1 - x0) * 2 < w || (y1 - y0) * 2 < h {
        return [0, 0, w, h];
    }
    [x0, y0, x1, y1]
}

/// An A4 page's height over its width.
const A4_ASPECT: f64 = 297.0 / 210.0;

/// How much brighter (grey levels) the paper must be than what is around
/// it to be told from it.
const PAPER_CONTRAST: f64 = 60.0;

/// Sides sloping less than this (about a quarter of a degree) make a
/// table square to the picture: what is left, the skew takes out.
const SQUARE_SLOPE: f64 = 0.004;

/// The map turning the page by its ruled lines' skew, where no table was
/// found to square it to.
fn deskewing(work: &GrayImage, radius: u32) -> Option<Projection> {
    let slope = crate::page::align::skew(&adaptive_threshold(work, radius, 12));
    if slope.abs() < 0.0005 {
        return None;
    }
    let (cx, cy) = (work.width() as f32 / 2.0, work.height() as f32 / 2.0);
    Some(
        Projection::translate(cx, cy)
            * Projection::rotate(-slope.atan() as f32)
            * Projection::translate(-cx, -cy),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A ruled grid at 4 px a mm whose rows slope 1.2% while its columns
    /// stand upright: a page sheared, as a table's corners left it.
    fn sheared_grid() -> GrayImage {
        let mut img = GrayImage::from_pixel(840, 1188, Luma([255]));
        let slope = 0.012;
        for row in 0..=16 {
            let y0 = 200.0 + 50.0 * f64::from(row);
            for x in 100..=740 {
                let y = (y0 + slope * f64::from(x - 100)).round() as u32;
                img.put_pixel(x, y, Luma([0]));
                img.put_pixel(x, y + 1, Luma([0]));
            }
        }
        for col in 0..=8 {
            let x = 100 + 80 * col;
            let top = (200.0 + slope * f64::from(x - 100)).round() as u32;
            for y in top..=top + 800 {
                img.put_pixel(x, y, Luma([0]));
                img.put_pixel(x + 1, y, Luma([0]));
            }
        }
        img
    }

    fn steepest(img: &GrayImage, horizontal: bool) -> f64 {
        let ink = adaptive_threshold(img, 12, 12);
        lines(&ink, horizontal, 40)
            .iter()
            .filter(|r| r.len() > 400.0)
            .map(|r| r.slope.abs())
            .fold(0.0, f64::max)
    }

    #[test]
    fn a_sheared_page_should_be_squared_by_its_outermost_lines() {
        let grid = sheared_grid();
        assert!(steepest(&grid, true) > 0.01, "the rows slope as drawn");
        let corners = square_corners(&grid, 12).expect("a sheared page is squared");
        let p = to_rectangle(corners).expect("a map");
        let squared = warp(
            &grid,
            p,
            Interpolation::Bilinear,
            Border::Constant(Luma([255])),
        );
        assert!(steepest(&squared, true) < 0.001, "rows level");
        assert!(steepest(&squared, false) < 0.001, "columns upright");
        assert!(square_corners(&squared, 12).is_none(), "square already");
    }

    #[test]
    fn corners_on_the_pictures_edge_should_be_no_tables() {
        let quad = [(50.0, 60.0), (750.0, 70.0), (740.0, 1100.0), (60.0, 1090.0)];
        assert!(a_table(quad, (840, 1188)));
        let touching = [(0.5, 60.0), (750.0, 70.0), (740.0, 1100.0), (60.0, 1090.0)];
        assert!(!a_table(touching, (840, 1188)));
        let folded = [
            (50.0, 60.0),
            (750.0, 70.0),
            (740.0, 1100.0),
            (740.0, 1100.0),
        ];
        assert!(!a_table(folded, (840, 1188)));
    }

    #[test]
    fn the_pictures_edges_should_be_told_apart_after_a_turn() {
        let bands = edge_bands(100, 140, 3);
        let edges = PictureEdges(bands.clone());
        assert_eq!(edges.near((1.0, 70.0), 1.0), Some(Edge::Left));
        assert_eq!(edges.near((50.0, 139.0), 1.0), Some(Edge::Bottom));
        assert_eq!(edges.near((50.0, 70.0), 5.0), None);
        let turn = Projection::translate(50.0, 70.0)
            * Projection::rotate(0.1)
            * Projection::translate(-50.0, -70.0);
        let turned = PictureEdges(warp(
            &bands,
            turn,
            Interpolation::Nearest,
            Border::Constant(Luma([BEYOND])),
        ));
        // The right edge, turned clockwise, stands further right below.
        assert_eq!(turned.near((50.0, 70.0), 5.0), None);
        let right_low = (0..100)
            .rev()
            .find(|&x| turned.near((f64::from(x), 110.0), 0.0).is_some());
        let right_high = (0..100)
            .rev()
            .find(|&x| turned.near((f64::from(x), 30.0), 0.0).is_some());
        assert!(right_low.is_some() && right_high.is_some());
        assert_eq!(
            turned.near((f64::from(right_low.unwrap()), 110.0), 0.0),
            Some(Edge::Right)
        );
    }
}
