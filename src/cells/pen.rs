//! The pen a piece of ink was written with, as a scan shows it: how dark
//! its core, how broad its stroke, and on a colour scan its colour. What
//! tells a later edit in another pen from the writer's own hand.

use super::*;
use crate::page::chroma::Chroma;
use crate::page::geometry::Homography;

/// How one piece of ink (a connected stroke group) in a field was written.
#[derive(Debug, Clone, PartialEq)]
pub struct PenTrace {
    /// The core's darkness, as a share of the paper's brightness (0..1).
    pub darkness: f64,
    /// The stroke's breadth in mm (twice the area over the outline).
    pub width_mm: f64,
    /// On a colour scan: Cb and Cr per grey level of darkness (a blue
    /// ballpoint about (0.27, -0.09), black ink (0, 0)); independent of
    /// how much of a pixel the stroke covers.
    pub colour: Option<[f64; 2]>,
    /// On a colour scan: the colour of each pixel of the piece's core (at
    /// least half as dark as its darkest quarter), as [`PenTrace::colour`]
    /// is the piece's. Two pens whose strokes touch are one piece of
    /// mixed colour; its pixels still tell them apart.
    pub core_colours: Vec<[f32; 2]>,
    /// The piece's pixels at [`PX_PER_MM`].
    pub area: u32,
}

/// A piece smaller than this (px at [`PX_PER_MM`]: 1.2 mm², a short
/// stroke) is a dot, noise or a ring's blurred scrap, too little ink to
/// tell its pen (a scrap of 61 px read 29% lighter than its pen).
const MIN_PIECE: u32 = 120;

/// How far inside a box the ink is measured (mm): the ruled lines are
/// printed, not written.
const INSIDE_MM: f64 = 0.45;

/// The pen of each piece of ink inside `bx`, largest first. None where the
/// box holds too little ink.
pub fn pen_traces(
    page: &GrayImage,
    chroma: Option<&Chroma>,
    align: &Alignment,
    bx: MmBox,
) -> Vec<PenTrace> {
    let crop = cut_with_margin(page, align, bx, -INSIDE_MM);
    let colour = chroma.map(|c| colour_crops(c, align, bx));
    // At the paper's shade, not the reader's cut: a faint pencil digit put
    // beside a ballpoint's is a piece of its own here.
    let mask = binarize_at(&crop, Cut::Shade);
    let paper = paper_level(crop.pixels().map(|p| p[0])).max(1.0);
    let paper_colour = colour.as_ref().map(|(b, r)| paper_colour(&mask, b, r));
    let labels = crate::page::label::connected_components(&mask, 0);
    let mut pieces: std::collections::BTreeMap<u32, Vec<(u32, u32)>> = Default::default();
    for (x, y, l) in labels.enumerate_pixels() {
        if l[0] > 0 {
            pieces.entry(l[0]).or_default().push((x, y));
        }
    }
    let mut traces: Vec<PenTrace> = pieces
        .values()
        .filter(|px| px.len() as u32 >= MIN_PIECE && !ruled_line(px, crop.dimensions()))
        .map(|px| {
            let planes = colour.as_ref();
            let core = core_of(px, &crop);
            let core_colours = planes
                .zip(paper_colour)
                .map(|((b, r), p)| core_pixel_colours(px, &crop, paper, core, b, r, p))
                .unwrap_or_default();
            let colour = planes
                .zip(paper_colour)
                .map(|((b, r), p)| colour_per_darkness(px, &crop, paper, b, r, p));
            PenTrace {
                core_colours,
                darkness: (paper - core).max(0.0) / paper,
                width_mm: 2.0 * px.len() as f64 / outline(px, &labels) as f64 / PX_PER_MM,
                colour,
                area: px.len() as u32,
            }
        })
        .collect();
    traces.sort_by_key(|t| std::cmp::Reverse(t.area));
    traces
}

/// The thickest a piece of a ruled line is (px at [`PX_PER_MM`]): lines
/// are printed 0.2 to 0.5 mm broad.
const LINE_PX: u32 = 8;

/// How much of a crop's side a ruled line's edge runs along at least.
const LINE_ALONG: f64 = 0.85;

fn along(extent: u32, side: u32) -> bool {
    f64::from(extent + 1) >= LINE_ALONG * f64::from(side)
}

/// Whether a piece is a ruled line's edge left in the crop: it touches the
/// crop's side, runs along most of it and is no broader than a line.
fn ruled_line(px: &[(u32, u32)], (w, h): (u32, u32)) -> bool {
    let (mut x0, mut y0, mut x1, mut y1) = (u32::MAX, u32::MAX, 0, 0);
    for &(x, y) in px {
        (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
    }
    // Along most of the side it touches: a 1 written tight against the
    // box's line is as narrow, but shorter than the box.
    let at_side = (x0 == 0 || x1 + 1 >= w) && x1 - x0 < LINE_PX && along(y1 - y0, h);
    let at_top_or_bottom = (y0 == 0 || y1 + 1 >= h) && y1 - y0 < LINE_PX && along(x1 - x0, w);
    at_side || at_top_or_bottom
}

/// The chroma planes cut over the same pixels as the box's grey crop.
fn colour_crops(chroma: &Chroma, align: &Alignment, bx: MmBox) -> (GrayImage, GrayImage) {
    // A plane's pixel (i, j) is the mean of the page's 2i..2i+1: page
    // position p lies at p/2 - 1/4 on the plane.
    let s = Chroma::SCALE;
    let to_plane = Homography::scale_translate(s, s, -s / 2.0, -s / 2.0);
    let on_plane = Alignment {
        to_image: align.to_image.then(&to_plane),
        ..align.clone()
    };
    let cut = |plane: &GrayImage| cut_at(plane, &on_plane, bx, -INSIDE_MM, PX_PER_MM);
    (cut(&chroma.blue), cut(&chroma.red))
}

/// The paper's colour: the median Cb and Cr where there is no ink.
fn paper_colour(mask: &GrayImage, blue: &GrayImage, red: &GrayImage) -> [f64; 2] {
    let median = |plane: &GrayImage| {
        let mut v: Vec<u8> = mask
            .pixels()
            .zip(plane.pixels())
            .filter(|(m, _)| m[0] == 0)
            .map(|(_, p)| p[0])
            .collect();
        v.sort_unstable();
        v.get(v.len() / 2).map_or(128.0, |&m| f64::from(m))
    };
    [median(blue), median(red)]
}

/// The core's grey: the darkest quarter's bound of the piece's pixels.
fn core_of(px: &[(u32, u32)], crop: &GrayImage) -> f64 {
    let mut v: Vec<u8> = px.iter().map(|&(x, y)| crop.get_pixel(x, y)[0]).collect();
    v.sort_unstable();
    f64::from(v[v.len() / 4])
}

/// Pixels of a piece with a four-neighbour outside it.
fn outline(px: &[(u32, u32)], labels: &image::ImageBuffer<Luma<u32>, Vec<u32>>) -> u32 {
    let (w, h) = labels.dimensions();
    let outside = |x: i64, y: i64, own: u32| {
        x < 0
            || y < 0
            || x >= i64::from(w)
            || y >= i64::from(h)
            || labels.get_pixel(x as u32, y as u32)[0] != own
    };
    let n = px
        .iter()
        .filter(|&&(x, y)| {
            let own = labels.get_pixel(x, y)[0];
            let (x, y) = (i64::from(x), i64::from(y));
            [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)]
                .iter()
                .any(|&(a, b)| outside(a, b, own))
        })
        .count();
    (n as u32).max(1)
}

/// The least-squares slope of the piece's colour against its darkness:
/// a stroke's edge, half covering its pixel, is half as coloured as its
/// core, and the slope is the pen's colour either way.
fn colour_per_darkness(
    px: &[(u32, u32)],
    crop: &GrayImage,
    paper: f64,
    blue: &GrayImage,
    red: &GrayImage,
    paper_colour: [f64; 2],
) -> [f64; 2] {
    let (mut sb, mut sr, mut dd) = (0.0, 0.0, 0.0);
    for &(x, y) in px {
        let d = (paper - f64::from(crop.get_pixel(x, y)[0])).max(0.0);
        sb += d * (f64::from(blue.get_pixel(x, y)[0]) - paper_colour[0]);
        sr += d * (f64::from(red.get_pixel(x, y)[0]) - paper_colour[1]);
        dd += d * d;
    }
    if dd <= 0.0 {
        return [0.0, 0.0];
    }
    [sb / dd, sr / dd]
}

/// The colour of each pixel of a piece's core: at least half as dark as
/// the core's grey (`core`) is against the paper.
fn core_pixel_colours(
    px: &[(u32, u32)],
    crop: &GrayImage,
    paper: f64,
    core: f64,
    blue: &GrayImage,
    red: &GrayImage,
    paper_colour: [f64; 2],
) -> Vec<[f32; 2]> {
    let least = (paper - core) / 2.0;
    px.iter()
        .filter_map(|&(x, y)| {
            let d = paper - f64::from(crop.get_pixel(x, y)[0]);
            (d >= least && d > 0.0).then(|| {
                let b = f64::from(blue.get_pixel(x, y)[0]) - paper_colour[0];
                let r = f64::from(red.get_pixel(x, y)[0]) - paper_colour[1];
                [(b / d) as f32, (r / d) as f32]
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::geometry::Homography;
    use image::{DynamicImage, Rgb, RgbImage};

    /// A page at 10 px/mm with two strokes in a 20×10 mm box at (10, 10):
    /// one in `left`'s colour, one in `right`'s, `right` twice as broad.
    fn page(left: [u8; 3], right: [u8; 3]) -> RgbImage {
        RgbImage::from_fn(400, 300, |x, y| {
            let inside_y = (120..180).contains(&y);
            if inside_y && (140..150).contains(&x) {
                Rgb(left)
            } else if inside_y && (240..260).contains(&x) {
                Rgb(right)
            } else {
                Rgb([245, 245, 245])
            }
        })
    }

    fn traces(rgb: RgbImage) -> Vec<PenTrace> {
        let image = DynamicImage::ImageRgb8(rgb);
        let chroma = Chroma::of(&image);
        let grey = image.to_luma8();
        let align = Alignment {
            to_image: Homography::scale_translate(PX_PER_MM, PX_PER_MM, 0.0, 0.0),
            fit: 1.0,
            residual_mm: 0.0,
            quarter_turns: 0,
            thin_lines_lost: false,
        };
        let mut t = pen_traces(&grey, chroma.as_ref(), &align, [10.0, 10.0, 20.0, 10.0]);
        t.sort_by(|a, b| a.width_mm.total_cmp(&b.width_mm));
        t
    }

    #[test]
    fn a_blue_and_a_black_stroke_should_differ_in_colour_not_in_darkness() {
        let t = traces(page([40, 60, 170], [60, 60, 60]));
        assert_eq!(t.len(), 2, "{t:?}");
        let (blue, black) = (t[0].colour.expect("colour"), t[1].colour.expect("colour"));
        assert!(blue[0] > 0.2 && blue[1] < 0.0, "{blue:?}");
        assert!(black[0].abs() < 0.02 && black[1].abs() < 0.02, "{black:?}");
        assert!((t[0].darkness - t[1].darkness).abs() < 0.1, "{t:?}");
    }

    #[test]
    fn a_ruled_lines_edge_in_the_crop_should_be_no_piece() {
        let line: Vec<(u32, u32)> = (0..50).flat_map(|y| [(0, y), (1, y), (2, y)]).collect();
        assert!(ruled_line(&line, (100, 50)));
        let one: Vec<(u32, u32)> = (0..50).flat_map(|y| [(40, y), (41, y), (42, y)]).collect();
        assert!(!ruled_line(&one, (100, 50)), "a 1 is no line");
        let one_at_the_line: Vec<(u32, u32)> =
            (10..40).flat_map(|y| [(0, y), (1, y), (2, y)]).collect();
        assert!(
            !ruled_line(&one_at_the_line, (100, 50)),
            "nor one against it"
        );
    }

    #[test]
    fn a_broad_stroke_should_measure_broader_and_grey_should_have_no_colour() {
        let t = traces(page([60, 60, 60], [60, 60, 60]));
        assert!(t.iter().all(|t| t.colour.is_none()));
        assert!(
            (t[0].width_mm - 1.0).abs() < 0.3 && (t[1].width_mm - 2.0).abs() < 0.5,
            "{t:?}"
        );
    }
}
