//! Hands synthesised from the digits' skeletons: each digit a few strokes
//! through control points in a unit box, in the forms people write (a
//! continental 1 with its long up-stroke, a crossed 7, an open 4, a 9
//! with a straight tail, a 2 with a loop), each writer choosing its forms
//! and moving every point its own way, every glyph moved again.

use image::GrayImage;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use super::raster;

/// A stroke through control points (x right, y down, the digit's box 0..1).
type Stroke = &'static [(f64, f64)];

/// The ways to write each digit, the first the most common.
const FORMS: [&[&[Stroke]]; 10] = [
    &[
        &[&[
            (0.5, 0.0),
            (0.15, 0.2),
            (0.1, 0.55),
            (0.3, 0.95),
            (0.6, 1.0),
            (0.88, 0.7),
            (0.85, 0.3),
            (0.6, 0.02),
            (0.45, 0.04),
        ]],
        &[&[
            (0.55, 0.02),
            (0.2, 0.15),
            (0.12, 0.6),
            (0.45, 1.0),
            (0.8, 0.8),
            (0.85, 0.3),
            (0.55, 0.0),
            (0.3, 0.12),
        ]],
    ],
    &[
        // Continental: the up-stroke half the height or more.
        &[&[(0.15, 0.45), (0.6, 0.0), (0.55, 1.0)]],
        &[&[(0.55, 0.0), (0.5, 1.0)]],
        &[
            &[(0.3, 0.2), (0.55, 0.0)],
            &[(0.55, 0.0), (0.55, 1.0)],
            &[(0.25, 1.0), (0.85, 1.0)],
        ],
        &[&[(0.3, 0.25), (0.58, 0.0)], &[(0.58, 0.0), (0.52, 1.0)]],
    ],
    &[
        &[
            &[
                (0.12, 0.25),
                (0.35, 0.02),
                (0.7, 0.05),
                (0.8, 0.3),
                (0.6, 0.6),
                (0.1, 1.0),
            ],
            &[(0.1, 1.0), (0.9, 0.98)],
        ],
        &[&[
            (0.12, 0.25),
            (0.4, 0.0),
            (0.75, 0.1),
            (0.7, 0.45),
            (0.15, 0.95),
            (0.3, 0.82),
            (0.45, 0.98),
            (0.9, 0.97),
        ]],
        &[
            &[(0.15, 0.2), (0.5, 0.0), (0.85, 0.2), (0.1, 1.0)],
            &[(0.1, 1.0), (0.9, 1.0)],
        ],
    ],
    &[
        &[&[
            (0.15, 0.12),
            (0.5, 0.0),
            (0.8, 0.2),
            (0.45, 0.46),
            (0.85, 0.7),
            (0.55, 1.0),
            (0.1, 0.88),
        ]],
        // Flat-topped, as taught in German schools.
        &[
            &[(0.15, 0.02), (0.85, 0.02)],
            &[
                (0.85, 0.02),
                (0.4, 0.42),
                (0.8, 0.58),
                (0.75, 0.92),
                (0.4, 1.0),
                (0.1, 0.88),
            ],
        ],
    ],
    &[
        // Open: the two strokes apart at the top.
        &[
            &[(0.35, 0.0), (0.12, 0.62)],
            &[(0.12, 0.62), (0.88, 0.62)],
            &[(0.68, 0.25), (0.66, 1.0)],
        ],
        &[
            &[(0.66, 0.0), (0.1, 0.66)],
            &[(0.1, 0.66), (0.9, 0.66)],
            &[(0.66, 0.0), (0.66, 1.0)],
        ],
        &[
            &[(0.3, 0.0), (0.2, 0.55), (0.85, 0.52)],
            &[(0.7, 0.0), (0.68, 1.0)],
        ],
    ],
    &[
        &[
            &[(0.82, 0.02), (0.25, 0.02)],
            &[
                (0.25, 0.02),
                (0.2, 0.45),
                (0.55, 0.38),
                (0.85, 0.65),
                (0.6, 1.0),
                (0.12, 0.88),
            ],
        ],
        &[
            &[
                (0.25, 0.0),
                (0.2, 0.45),
                (0.6, 0.4),
                (0.85, 0.7),
                (0.55, 1.0),
                (0.12, 0.88),
            ],
            &[(0.25, 0.02), (0.85, 0.0)],
        ],
    ],
    &[
        &[&[
            (0.75, 0.0),
            (0.35, 0.25),
            (0.15, 0.65),
            (0.35, 1.0),
            (0.7, 0.95),
            (0.82, 0.7),
            (0.5, 0.5),
            (0.2, 0.7),
        ]],
        &[&[
            (0.7, 0.0),
            (0.25, 0.45),
            (0.2, 0.85),
            (0.5, 1.0),
            (0.8, 0.8),
            (0.6, 0.55),
            (0.25, 0.65),
        ]],
    ],
    &[
        &[&[(0.1, 0.02), (0.9, 0.02)], &[(0.9, 0.02), (0.4, 1.0)]],
        // Crossed, as Germans write it.
        &[
            &[(0.1, 0.12), (0.12, 0.02), (0.9, 0.02)],
            &[(0.9, 0.02), (0.45, 1.0)],
            &[(0.35, 0.52), (0.85, 0.5)],
        ],
        &[
            &[(0.1, 0.02), (0.88, 0.04)],
            &[(0.88, 0.04), (0.55, 0.5), (0.45, 1.0)],
            &[(0.3, 0.5), (0.8, 0.48)],
        ],
    ],
    &[
        &[&[
            (0.75, 0.15),
            (0.5, 0.0),
            (0.2, 0.15),
            (0.3, 0.4),
            (0.7, 0.6),
            (0.82, 0.85),
            (0.5, 1.0),
            (0.18, 0.85),
            (0.3, 0.6),
            (0.7, 0.4),
            (0.8, 0.15),
            (0.5, 0.0),
        ]],
        &[&[
            (0.5, 0.5),
            (0.2, 0.25),
            (0.5, 0.0),
            (0.8, 0.25),
            (0.5, 0.5),
            (0.15, 0.75),
            (0.5, 1.0),
            (0.85, 0.75),
            (0.5, 0.5),
        ]],
    ],
    &[
        &[&[
            (0.82, 0.25),
            (0.5, 0.0),
            (0.18, 0.2),
            (0.3, 0.45),
            (0.82, 0.3),
            (0.75, 0.7),
            (0.5, 1.0),
        ]],
        &[
            &[
                (0.82, 0.2),
                (0.5, 0.0),
                (0.18, 0.2),
                (0.35, 0.45),
                (0.82, 0.3),
            ],
            &[(0.84, 0.05), (0.8, 1.0)],
        ],
    ],
];

/// One synthesised writer: which form of each digit it writes, how it
/// moves every control point, its digits' width and its pen.
pub struct SkeletonHand {
    form: [usize; 10],
    /// A fixed move of every point of every form (the writer's own shapes).
    moves: Vec<(f64, f64)>,
    aspect: f64,
}

/// Canvas px of a digit's height.
pub const HEIGHT_PX: f64 = 80.0;

impl SkeletonHand {
    pub fn new(rng: &mut ChaCha8Rng) -> Self {
        let mut form = [0; 10];
        for (d, f) in form.iter_mut().enumerate() {
            // The first form half the time, the others alike.
            let n = FORMS[d].len();
            *f = if rng.random_bool(0.5) {
                0
            } else {
                rng.random_range(0..n)
            };
        }
        let spread = rng.random_range(0.02..0.07);
        let moves = (0..256)
            .map(|_| {
                (
                    rng.random_range(-spread..spread),
                    rng.random_range(-spread..spread),
                )
            })
            .collect();
        SkeletonHand {
            form,
            moves,
            aspect: rng.random_range(0.5..0.85),
        }
    }

    /// Digit `d` in this hand with a pen of `radius` px either side,
    /// every point moved again by up to `wobble` of the box; ink bright on black.
    pub fn draw(&self, d: u32, radius: f64, wobble: f64, rng: &mut ChaCha8Rng) -> GrayImage {
        let d = d as usize % 10;
        let strokes = FORMS[d][self.form[d]];
        let margin = 30.0;
        let w = HEIGHT_PX * self.aspect;
        let mut canvas =
            GrayImage::new((w + 2.0 * margin) as u32, (HEIGHT_PX + 2.0 * margin) as u32);
        let mut k = d * 23;
        for s in strokes {
            let pts: Vec<(f64, f64)> = s
                .iter()
                .map(|&(x, y)| {
                    let (mx, my) = self.moves[k % self.moves.len()];
                    k += 1;
                    let jx = rng.random_range(-wobble..=wobble);
                    let jy = rng.random_range(-wobble..=wobble);
                    (
                        margin + (x + mx + jx) * w,
                        margin + (y + my + jy) * HEIGHT_PX,
                    )
                })
                .collect();
            raster::stroke(&mut canvas, &raster::smooth(&pts, 6), radius);
        }
        canvas
    }
}
