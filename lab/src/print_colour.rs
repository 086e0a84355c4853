//! The colour a form is printed in: clubs print their Punkteliste in
//! black, or in a colour whose grey is lighter than black's.

use image::{GrayImage, RgbImage};

/// A print colour: what each channel (R, G, B) keeps of the ink's
/// darkness. Full ink on white paper is `255 - 255 * darkening`.
#[derive(Debug, Clone, Copy, PartialEq, clap::ValueEnum)]
pub enum PrintColour {
    Black,
    /// A form blue, RGB (40, 90, 170) at full ink: grey 84.
    Blue,
    /// A signal red, RGB (190, 40, 40): grey 85.
    Red,
    /// A dark green, RGB (30, 120, 70): grey 87.
    Green,
    /// A light blue, RGB (100, 160, 220): grey 149, the faintest a club
    /// would print its lines in.
    LightBlue,
}

impl PrintColour {
    /// The colours but black, in the order a seed picks them.
    pub const COLOURS: [PrintColour; 4] = [
        PrintColour::Blue,
        PrintColour::Red,
        PrintColour::Green,
        PrintColour::LightBlue,
    ];

    /// What each channel keeps of the ink's darkness.
    pub fn darkening(self) -> [f64; 3] {
        let full: [f64; 3] = match self {
            PrintColour::Black => [0.0, 0.0, 0.0],
            PrintColour::Blue => [40.0, 90.0, 170.0],
            PrintColour::Red => [190.0, 40.0, 40.0],
            PrintColour::Green => [30.0, 120.0, 70.0],
            PrintColour::LightBlue => [100.0, 160.0, 220.0],
        };
        full.map(|v| (255.0 - v) / 255.0)
    }

    /// The colour's name on the command line (`light-blue`).
    pub fn name(self) -> String {
        use clap::ValueEnum;
        self.to_possible_value()
            .map_or_else(String::new, |v| v.get_name().to_string())
    }

    /// A page drawn in grey, its ink in this colour.
    pub fn tint(self, page: &GrayImage) -> RgbImage {
        let d = self.darkening();
        RgbImage::from_fn(page.width(), page.height(), |x, y| {
            let dark = 255.0 - f64::from(page.get_pixel(x, y)[0]);
            image::Rgb(std::array::from_fn(|c| {
                (255.0 - dark * d[c]).round().clamp(0.0, 255.0) as u8
            }))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Luma;

    #[test]
    fn a_colour_should_print_lighter_than_black_and_keep_the_paper_white() {
        let page = GrayImage::from_fn(2, 1, |x, _| Luma([[0, 255][x as usize]]));
        for colour in PrintColour::COLOURS {
            let rgb = colour.tint(&page);
            assert_eq!(rgb.get_pixel(1, 0).0, [255, 255, 255]);
            let [r, g, b] = rgb.get_pixel(0, 0).0.map(f64::from);
            let grey = 0.299 * r + 0.587 * g + 0.114 * b;
            assert!((80.0..160.0).contains(&grey), "{colour:?}: {grey}");
        }
        assert_eq!(PrintColour::Black.tint(&page).get_pixel(0, 0).0, [0, 0, 0]);
    }
}
