//! Hands of many sources: the MNIST training split, handwriting fonts,
//! Hershey's single-stroke fonts drawn with a pen, and hands synthesised
//! from the digits' skeletons. One writer writes a whole sheet in one
//! family, with its own slant, width and pen; every glyph is drawn anew
//! and bent on its own. Glyphs come out as MNIST stores digits (28×28,
//! ink bright), so the generator and the training take any of them.

pub mod families;
mod font;
mod hershey;
pub mod kinds;
pub mod pressure;
pub mod raster;
mod skeleton;

use std::path::Path;

use image::GrayImage;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use crate::digits::Digits;
pub use families::Split;
use font::FontFamily;
use hershey::HersheyFont;
pub use pressure::Rendering;
use raster::{Bend, Glyph28};
use skeleton::SkeletonHand;

/// Where a writer's hand comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Source {
    /// Digits of the MNIST training split's writers.
    Mnist,
    /// Handwriting fonts (data/hands/fonts, scripts/fetch-hands.sh).
    Font,
    /// Hershey's stroke fonts drawn with a pen (data/hands/hershey).
    Hershey,
    /// Hands synthesised from the digits' skeletons.
    Synth,
    /// Hershey's hands with one digit in a shape the reader misreads
    /// (a flat-topped 3, a 1 with a long up-stroke): [`kinds`].
    Kinds,
}

impl Source {
    pub fn name(self) -> &'static str {
        match self {
            Source::Mnist => "mnist",
            Source::Font => "font",
            Source::Hershey => "hershey",
            Source::Synth => "synth",
            Source::Kinds => "kinds",
        }
    }
}

/// The hands a set of sheets or a training draws its writers from.
pub struct Library {
    mnist: Option<Digits>,
    fonts: Vec<FontFamily>,
    hershey: Vec<HersheyFont>,
    /// Hershey's hands each with one failure kind.
    kinds: Vec<HersheyFont>,
    synth: bool,
    /// How the fonts' and stroke fonts' glyphs are put on paper.
    rendering: Rendering,
}

/// How much every glyph of a drawn hand is bent on its own.
const GLYPH_BEND: Bend = Bend {
    alpha: (1.0, 7.0),
    degrees: 5.0,
    shear: 0.08,
};

impl Library {
    /// The families of `split` of each of `sources` found under `dir`
    /// (data/hands); MNIST's digits are `mnist`'s.
    pub fn load(
        dir: &Path,
        sources: &[Source],
        split: Split,
        mnist: Option<Digits>,
    ) -> Result<Self, String> {
        let mut lib = Library {
            mnist: mnist.filter(|_| sources.contains(&Source::Mnist)),
            fonts: Vec::new(),
            hershey: Vec::new(),
            kinds: Vec::new(),
            synth: sources.contains(&Source::Synth),
            rendering: Rendering::Outline,
        };
        if sources.contains(&Source::Font) {
            for path in files(&dir.join("fonts"), "woff")? {
                let name = stem(&path);
                if split.holds(&name, families::HELD_OUT_FONTS) {
                    lib.fonts.push(FontFamily::load(&path)?);
                }
            }
        }
        if sources.contains(&Source::Hershey) {
            for name in families::HERSHEY_HANDS {
                if split.holds(name, families::HELD_OUT_HERSHEY) {
                    let path = dir.join("hershey").join(format!("{name}.jhf"));
                    lib.hershey.push(HersheyFont::load(&path)?);
                }
            }
        }
        if sources.contains(&Source::Kinds) {
            for name in families::HERSHEY_HANDS {
                let path = dir.join("hershey").join(format!("{name}.jhf"));
                // Whichever of the split's families are there (a test's
                // fixture holds one).
                if split.holds(name, families::HELD_OUT_HERSHEY) && path.exists() {
                    let font = HersheyFont::load(&path)?;
                    for kind in kinds::FailureKind::ALL {
                        let named = format!("{name}-{}", kind.name());
                        lib.kinds
                            .push(font.with_digit(kind.digit(), kind.strokes(), named));
                    }
                }
            }
        }
        let empty = |s: &Source| match s {
            Source::Mnist => lib.mnist.is_none(),
            Source::Font => lib.fonts.is_empty(),
            Source::Hershey => lib.hershey.is_empty(),
            Source::Kinds => lib.kinds.is_empty(),
            Source::Synth => !lib.synth,
        };
        if let Some(s) = sources.iter().find(|s| empty(s)) {
            return Err(format!(
                "no {} hands of the {split:?} split in {} (run scripts/fetch-hands.sh)",
                s.name(),
                dir.display()
            ));
        }
        Ok(lib)
    }

    /// The library with its fonts' and stroke fonts' glyphs drawn `rendering`.
    pub fn rendered(self, rendering: Rendering) -> Self {
        Library { rendering, ..self }
    }

    /// The families this library draws writers from, by source.
    pub fn families(&self) -> Vec<(Source, String)> {
        let mut out: Vec<(Source, String)> = Vec::new();
        if self.mnist.is_some() {
            out.push((Source::Mnist, "mnist".into()));
        }
        out.extend(self.fonts.iter().map(|f| (Source::Font, f.name.clone())));
        out.extend(
            self.hershey
                .iter()
                .map(|f| (Source::Hershey, f.name.clone())),
        );
        out.extend(self.kinds.iter().map(|f| (Source::Kinds, f.name.clone())));
        if self.synth {
            out.push((Source::Synth, "skeleton".into()));
        }
        out
    }

    /// A new writer: a source, then one of its families, each alike.
    pub fn writer(&self, rng: &mut ChaCha8Rng) -> Writer<'_> {
        let mut sources = Vec::new();
        if self.mnist.is_some() {
            sources.push(Source::Mnist);
        }
        if !self.fonts.is_empty() {
            sources.push(Source::Font);
        }
        if !self.hershey.is_empty() {
            sources.push(Source::Hershey);
        }
        if !self.kinds.is_empty() {
            sources.push(Source::Kinds);
        }
        if self.synth {
            sources.push(Source::Synth);
        }
        let kind = match sources[rng.random_range(0..sources.len())] {
            Source::Mnist => {
                Kind::Mnist(Box::new(self.mnist.as_ref().expect("mnist").writer(2, rng)))
            }
            Source::Font => Kind::Font(&self.fonts[rng.random_range(0..self.fonts.len())]),
            Source::Hershey => {
                Kind::Hershey(&self.hershey[rng.random_range(0..self.hershey.len())])
            }
            Source::Kinds => Kind::Hershey(&self.kinds[rng.random_range(0..self.kinds.len())]),
            Source::Synth => Kind::Synth(Box::new(SkeletonHand::new(rng))),
        };
        let rendering = match self.rendering {
            Rendering::Both if rng.random_bool(0.5) => Rendering::Pressure,
            Rendering::Both => Rendering::Outline,
            one => one,
        };
        Writer {
            kind,
            rendering,
            slant: rng.random_range(-8.0..18.0),
            width: rng.random_range(0.8..1.2),
            pen: rng.random_range(0.08..0.17),
            wobble: rng.random_range(0.2..0.9),
        }
    }
}

/// `writers` writers of `library` who write every digit once each,
/// drawn on all cores: glyphs with their labels, for training. The same
/// seed gives the same glyphs.
pub fn glyphs_of_writers(library: &Library, writers: usize, seed: u64) -> Vec<(Glyph28, u8)> {
    use rayon::prelude::*;
    (0..writers)
        .into_par_iter()
        .flat_map_iter(|w| {
            let mut rng = crate::synth::rng(seed.wrapping_mul(104_729).wrapping_add(w as u64));
            let writer = library.writer(&mut rng);
            (0..10u8)
                .map(|d| (writer.glyph(u32::from(d), &mut rng), d))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// One writer: its family and how it writes every glyph.
pub struct Writer<'a> {
    kind: Kind<'a>,
    rendering: Rendering,
    /// Degrees, leaning forward where positive.
    slant: f64,
    /// The digits' width against the family's.
    width: f64,
    /// The pen's width as a share of the digit's height (a ballpoint on a
    /// 5 mm digit: 0.1; MNIST's strokes: 0.12 to 0.17).
    pen: f64,
    /// How far a stroke font's points move from glyph to glyph (font units).
    wobble: f64,
}

enum Kind<'a> {
    /// Two of each digit, the only ones this writer writes.
    Mnist(Box<Digits>),
    Font(&'a FontFamily),
    Hershey(&'a HersheyFont),
    Synth(Box<SkeletonHand>),
}

impl Writer<'_> {
    pub fn source(&self) -> Source {
        match self.kind {
            Kind::Mnist(_) => Source::Mnist,
            Kind::Font(_) => Source::Font,
            Kind::Hershey(_) => Source::Hershey,
            Kind::Synth(_) => Source::Synth,
        }
    }

    pub fn family(&self) -> &str {
        match &self.kind {
            Kind::Mnist(_) => "mnist",
            Kind::Font(f) => &f.name,
            Kind::Hershey(f) => &f.name,
            Kind::Synth(_) => "skeleton",
        }
    }

    /// Whether the hand itself decides its 1 and 7 (a synthesised hand
    /// draws its continental forms; no stroke is to be added to them).
    pub fn own_forms(&self) -> bool {
        matches!(self.kind, Kind::Synth(_))
    }

    /// Digit `d` as this writer writes it this time.
    pub fn glyph(&self, d: u32, rng: &mut ChaCha8Rng) -> Glyph28 {
        let pressure = self.rendering == Rendering::Pressure;
        let canvas: GrayImage = match &self.kind {
            Kind::Mnist(own) => return *own.pick(d, rng),
            Kind::Font(f) if pressure => {
                let filled = f.fill(d).unwrap_or_default();
                let pen = self.pen * f64::from(raster::ink_height(&filled));
                pressure::redraw(&filled, pen, rng)
            }
            Kind::Font(f) => self.weighted(f.fill(d).unwrap_or_default()),
            Kind::Hershey(f) => {
                let drawn = f.draw(d, self.pen * hershey::HEIGHT_PX / 2.0, self.wobble, rng);
                if pressure {
                    pressure::redraw(&drawn, self.pen * hershey::HEIGHT_PX, rng)
                } else {
                    drawn
                }
            }
            Kind::Synth(h) => h.draw(d, self.pen * skeleton::HEIGHT_PX / 2.0, 0.03, rng),
        };
        let leant = raster::lean(&canvas, self.slant, self.width);
        let glyph = raster::to_mnist(&leant).unwrap_or([0; 784]);
        raster::bend_with(&glyph, GLYPH_BEND, rng)
    }

    /// What the truth says of the writer's hand.
    pub fn facts(&self) -> serde_json::Value {
        serde_json::json!({
            "source": self.source().name(),
            "family": self.family(),
            "slant": self.slant,
            "width": self.width,
            "rendering": format!("{:?}", self.rendering).to_lowercase(),
        })
    }
}

impl Writer<'_> {
    /// A font's glyph with its strokes brought to this writer's pen.
    fn weighted(&self, canvas: GrayImage) -> GrayImage {
        use imageproc::morphology::{Mask, grayscale_dilate, grayscale_erode};
        let want = self.pen * f64::from(raster::ink_height(&canvas));
        let by = ((want - raster::stroke_width(&canvas)) / 2.0).round() as i32;
        match by.clamp(-4, 8) {
            0 => canvas,
            b if b > 0 => grayscale_dilate(&canvas, &Mask::disk(b as u8)),
            b => {
                let thinner = grayscale_erode(&canvas, &Mask::disk((-b) as u8));
                // A hairline font eroded to nothing keeps its own strokes.
                if raster::ink_height(&thinner) == 0 {
                    canvas
                } else {
                    thinner
                }
            }
        }
    }
}

/// The files in `dir` ending in `.ext`, in name order.
fn files(dir: &Path, ext: &str) -> Result<Vec<std::path::PathBuf>, String> {
    let read = std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    let mut out: Vec<_> = read
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    out.sort();
    Ok(out)
}

fn stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}
