//! Connected pieces of a mask labelled, 8-connected: as
//! `imageproc::region_labelling::connected_components` labels them (the
//! same numbers, each piece numbered in the order its first pixel comes
//! in rows from the top), at a fraction of its time. The crate keeps a
//! union-find of the image's size for every call and reads pixels through
//! its generic image; a sheet labels hundreds of small crops, and that was
//! near a tenth of a scan.

use image::{GrayImage, ImageBuffer, Luma};

/// A label for every pixel: 0 where it is `background`, else its piece's
/// number from 1 (pixels of one value touching, diagonals too).
pub fn connected_components(image: &GrayImage, background: u8) -> ImageBuffer<Luma<u32>, Vec<u32>> {
    let (w, h) = (image.width() as usize, image.height() as usize);
    let px = &image.as_raw()[..w * h];
    let mut labels = vec![0u32; w * h];
    // The provisional labels' forest; 0 is no label.
    let mut parent: Vec<u32> = vec![0];
    for y in 0..h {
        for x in 0..w {
            let i = y * w + x;
            if px[i] != background {
                labels[i] = own_label(px, &labels, &mut parent, (x, y), w);
            }
        }
    }
    // Numbered in the order each piece's first pixel comes.
    let mut number = vec![0u32; parent.len()];
    let mut next = 1;
    for l in labels.iter_mut().filter(|l| **l != 0) {
        let r = root(&mut parent, *l) as usize;
        if number[r] == 0 {
            number[r] = next;
            next += 1;
        }
        *l = number[r];
    }
    ImageBuffer::from_raw(w as u32, h as u32, labels).unwrap_or_else(|| ImageBuffer::new(0, 0))
}

/// The provisional label of the pixel at (x, y) from those the raster
/// scan has labelled next to it (north, west, north-west, north-east),
/// joining pieces it connects; a new label where none is of its value.
/// Of those four, north touches all the others, and west touches
/// north-west: only north-east can be a piece apart from west or
/// north-west.
fn own_label(
    px: &[u8],
    labels: &[u32],
    parent: &mut Vec<u32>,
    (x, y): (usize, usize),
    w: usize,
) -> u32 {
    let i = y * w + x;
    let v = px[i];
    let same = |n: usize| px[n] == v;
    let north = (y > 0).then(|| i - w).filter(|&n| same(n));
    let west = (x > 0).then(|| i - 1).filter(|&n| same(n));
    let north_west = (x > 0 && y > 0).then(|| i - w - 1).filter(|&n| same(n));
    let north_east = (y > 0 && x + 1 < w).then(|| i - w + 1).filter(|&n| same(n));
    if let Some(n) = north {
        return labels[n];
    }
    let Some(first) = west.or(north_west).or(north_east) else {
        let new = parent.len() as u32;
        parent.push(new);
        return new;
    };
    let own = labels[first];
    if let (Some(ne), true) = (north_east, west.or(north_west).is_some()) {
        let (a, b) = (root(parent, own), root(parent, labels[ne]));
        join(parent, a, b);
    }
    own
}

/// The root of label `l`, halving the path on the way.
fn root(parent: &mut [u32], mut l: u32) -> u32 {
    while parent[l as usize] != l {
        let up = parent[parent[l as usize] as usize];
        parent[l as usize] = up;
        l = up;
    }
    l
}

/// Two roots made one (the smaller stays root); that root.
fn join(parent: &mut [u32], a: u32, b: u32) -> u32 {
    let (low, high) = (a.min(b), a.max(b));
    parent[high as usize] = low;
    low
}

#[cfg(test)]
mod tests {
    use super::*;
    use imageproc::region_labelling::Connectivity;
    use proptest::prelude::*;

    fn labelled_by_imageproc(img: &GrayImage, background: u8) -> Vec<u32> {
        let crate_labels = imageproc::region_labelling::connected_components(
            img,
            Connectivity::Eight,
            Luma([background]),
        );
        crate_labels.into_raw()
    }

    #[test]
    fn a_ring_and_a_dot_should_be_two_pieces_a_diagonal_one() {
        // A ring (one piece), a dot apart, and a diagonal stroke.
        let rows = ["##....#..", "#.#.....#", "##.....#.", "......#.."];
        let img = GrayImage::from_fn(9, 4, |x, y| {
            Luma([if rows[y as usize].as_bytes()[x as usize] == b'#' {
                255
            } else {
                0
            }])
        });
        let labels = connected_components(&img, 0).into_raw();
        let at = |x: usize, y: usize| labels[y * 9 + x];
        assert_eq!((at(0, 0), at(2, 1), at(1, 2)), (1, 1, 1), "the ring");
        assert_eq!(at(6, 0), 2, "the dot");
        assert_eq!((at(8, 1), at(7, 2), at(6, 3)), (3, 3, 3), "the diagonal");
        assert_eq!(at(1, 1), 0, "the ring's hole");
    }

    // Masks of two values, not of one pixel: the crate's forest of one
    // node a pixel overflows where a single pixel is a piece of its own.
    proptest! {
        #[test]
        fn labels_should_be_the_crates(
            (w, h, pixels) in (1u32..24, 1u32..24).prop_flat_map(|(w, h)| {
                (Just(w), Just(h), proptest::collection::vec(prop_oneof![Just(0u8), Just(255u8)], (w * h) as usize))
            })
        ) {
            prop_assume!(w * h >= 2);
            let img = GrayImage::from_raw(w, h, pixels).expect("image");
            for background in [0u8, 255] {
                prop_assert_eq!(connected_components(&img, background).into_raw(), labelled_by_imageproc(&img, background));
            }
        }
    }
}
