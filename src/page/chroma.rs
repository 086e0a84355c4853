//! A colour scan's colour, kept beside its grey: the grey reads the sheet,
//! the colour tells one pen from another (a later edit in another pen).
//!
//! Kept as the two colour-difference planes (Cb and Cr, 128 neutral) at
//! half the scan's resolution: a pen's colour is the same over a stroke,
//! and a quarter of the pixels keeps a 300 dpi page's colour in 4 MB.

use image::{DynamicImage, GrayImage, Luma};

/// The colour of a page: Cb and Cr at [`Chroma::SCALE`] of the page.
#[derive(Debug, Clone, PartialEq)]
pub struct Chroma {
    /// Blue against luminance, 128 where neutral.
    pub blue: GrayImage,
    /// Red against luminance, 128 where neutral.
    pub red: GrayImage,
}

/// A file of colour whose colour differs from grey by no more than this
/// anywhere is a grey scan stored as colour: nothing is kept.
const GREY_TOLERANCE: i32 = 2;

impl Chroma {
    /// The planes' pixels per page pixel.
    pub const SCALE: f64 = 0.5;

    /// The colour of `image`, or `None` where it holds none (a grey or
    /// bilevel file, or colour channels all alike).
    pub fn of(image: &DynamicImage) -> Option<Chroma> {
        if !image.color().has_color() {
            return None;
        }
        let owned;
        let rgb = match image.as_rgb8() {
            Some(rgb) => rgb,
            None => {
                owned = image.to_rgb8();
                &owned
            }
        };
        let (w, h) = ((rgb.width() / 2).max(1), (rgb.height() / 2).max(1));
        let (mut blue, mut red) = (GrayImage::new(w, h), GrayImage::new(w, h));
        let mut coloured = false;
        for y in 0..h {
            for x in 0..w {
                let (cb, cr) = block_chroma(rgb, x * 2, y * 2);
                coloured |= (cb - 128).abs() > GREY_TOLERANCE || (cr - 128).abs() > GREY_TOLERANCE;
                blue.put_pixel(x, y, Luma([cb.clamp(0, 255) as u8]));
                red.put_pixel(x, y, Luma([cr.clamp(0, 255) as u8]));
            }
        }
        coloured.then_some(Chroma { blue, red })
    }
}

/// Cb and Cr (ITU-R BT.601, 128 neutral) of the 2×2 block at (`x`, `y`).
fn block_chroma(rgb: &image::RgbImage, x: u32, y: u32) -> (i32, i32) {
    let (mut r, mut g, mut b) = (0i32, 0i32, 0i32);
    let mut n = 0;
    for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
        if let Some(p) = rgb.get_pixel_checked(x + dx, y + dy) {
            r += i32::from(p[0]);
            g += i32::from(p[1]);
            b += i32::from(p[2]);
            n += 1;
        }
    }
    let (r, g, b) = (
        r as f64 / n as f64,
        g as f64 / n as f64,
        b as f64 / n as f64,
    );
    let cb = 128.0 - 0.168_736 * r - 0.331_264 * g + 0.5 * b;
    let cr = 128.0 + 0.5 * r - 0.418_688 * g - 0.081_312 * b;
    (cb.round() as i32, cr.round() as i32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::{Rgb, RgbImage};

    #[test]
    fn a_grey_image_should_keep_no_colour() {
        let grey = DynamicImage::ImageLuma8(GrayImage::from_pixel(8, 8, Luma([90])));
        assert_eq!(Chroma::of(&grey), None);
        let grey_as_colour = DynamicImage::ImageRgb8(RgbImage::from_pixel(8, 8, Rgb([90, 90, 90])));
        assert_eq!(Chroma::of(&grey_as_colour), None);
    }

    #[test]
    fn blue_ink_should_be_blue_and_black_ink_neutral() {
        let page = RgbImage::from_fn(8, 4, |x, _| {
            if x < 4 {
                Rgb([30, 50, 160])
            } else {
                Rgb([20, 20, 20])
            }
        });
        let chroma = Chroma::of(&DynamicImage::ImageRgb8(page)).expect("colour");
        assert_eq!(chroma.blue.dimensions(), (4, 2));
        assert!(chroma.blue.get_pixel(0, 0)[0] > 170, "{:?}", chroma.blue);
        assert!(chroma.red.get_pixel(0, 0)[0] < 128);
        assert_eq!(chroma.blue.get_pixel(3, 1)[0], 128);
        assert_eq!(chroma.red.get_pixel(3, 1)[0], 128);
    }
}
