//! Learning a club's own form from one scan or photo of its blank:
//!
//! ```text
//! blank page ──ruling (straightened, ruled lines in mm)──▶ Ruling
//!            ──frame (table, seats, rows, footer, player block, boxes)──▶ Frame
//!            ──labels (title and labels read where they stand)──▶ Print
//!            ──template──▶ FormTemplate, read by `scan --form` like a shipped one
//! ```
//!
//! A page that is no blank score sheet is refused with what was not found.

mod frame;
mod labels;
mod ruling;
mod straighten;
mod template;

use image::GrayImage;

use crate::Lang;
use crate::catalogue::{Tell, say};
use crate::page::form::FormTemplate;
use crate::read::PrintReader;

pub use frame::Frame;
pub use ruling::Ruling;

/// What a person knows of the form beforehand: checked against what the
/// page shows, never put in its place.
#[derive(Debug, Clone, Default)]
pub struct Hints {
    pub seats: Option<usize>,
    pub games: Option<usize>,
}

/// An edge of the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edge {
    Left,
    Right,
    Top,
    Bottom,
}

/// Why a page is not the blank of a score sheet.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{}", self.tell(Lang::En))]
pub enum NotAForm {
    NoTable,
    CutOff(Edge),
    NoSeats,
    NoCheckColumn,
    NoFooter,
    NoPlayerBlock,
    NoRoundAndTable,
    NoSignatures,
    /// Game cells with writing in them: a filled sheet, not the blank.
    Filled {
        cells: usize,
    },
    SeatsDiffer {
        found: usize,
        hinted: usize,
    },
    GamesDiffer {
        found: usize,
        hinted: usize,
    },
    /// Fewer game rows than a form needs (the checks look at the first,
    /// the middle and the last row apart).
    TooFewRows {
        found: usize,
    },
}

impl Tell for NotAForm {
    fn tell(&self, lang: Lang) -> String {
        use NotAForm::*;
        match self {
            NoTable => say(lang, "learn-no-table", &[]),
            CutOff(edge) => {
                let edge = match edge {
                    Edge::Left => say(lang, "edge-left", &[]),
                    Edge::Right => say(lang, "edge-right", &[]),
                    Edge::Top => say(lang, "edge-top", &[]),
                    Edge::Bottom => say(lang, "edge-bottom", &[]),
                };
                say(lang, "learn-cut-off", &[("edge", &edge)])
            }
            NoSeats => say(lang, "learn-no-seats", &[]),
            NoCheckColumn => say(lang, "learn-no-check-column", &[]),
            NoFooter => say(lang, "learn-no-footer", &[]),
            NoPlayerBlock => say(lang, "learn-no-player-block", &[]),
            NoRoundAndTable => say(lang, "learn-no-round-and-table", &[]),
            NoSignatures => say(lang, "learn-no-signatures", &[]),
            Filled { cells } => say(lang, "learn-filled", &[("cells", cells)]),
            SeatsDiffer { found, hinted } => say(
                lang,
                "learn-seats-differ",
                &[("found", found), ("hinted", hinted)],
            ),
            GamesDiffer { found, hinted } => say(
                lang,
                "learn-games-differ",
                &[("found", found), ("hinted", hinted)],
            ),
            TooFewRows { found } => say(lang, "learn-too-few-rows", &[("found", found)]),
        }
    }
}

impl NotAForm {
    /// How far the frame was found before this stopped it: a page
    /// turned the other way that gets further is more likely the right way
    /// up.
    fn stage(&self) -> u8 {
        use NotAForm::*;
        match self {
            NoTable => 0,
            NoSeats => 1,
            NoCheckColumn => 2,
            NoFooter => 3,
            NoPlayerBlock => 4,
            NoRoundAndTable => 5,
            NoSignatures => 6,
            CutOff(_)
            | Filled { .. }
            | SeatsDiffer { .. }
            | GamesDiffer { .. }
            | TooFewRows { .. } => 7,
        }
    }

    /// The reason as seen on the page turned half round.
    fn turned(self) -> Self {
        match self {
            NotAForm::CutOff(edge) => NotAForm::CutOff(match edge {
                Edge::Left => Edge::Right,
                Edge::Right => Edge::Left,
                Edge::Top => Edge::Bottom,
                Edge::Bottom => Edge::Top,
            }),
            why => why,
        }
    }
}

/// Share of game cells with writing above which the page is a filled
/// sheet: a blank's cells hold nothing but dust.
const FILLED_SHARE: f64 = 0.05;

/// A game cell's writing lies this far (mm) inside its ruled edges.
const CELL_INSET_MM: f64 = 1.0;
/// Dark share of a cell's inside that is writing, not dust.
const WRITTEN_SHARE: f64 = 0.015;

/// How many game cells hold writing.
fn written_cells(f: &Frame, ruling: &Ruling) -> usize {
    let written = |x0: f64, x1: f64, (y0, y1): frame::Span| {
        let i = CELL_INSET_MM;
        let ink = ruling.ink_in([x0 + i, y0 + i, x1 - i, y1 - i]);
        ink.dark as f64 > WRITTEN_SHARE * ink.area.max(1) as f64
    };
    f.games
        .iter()
        .flat_map(|&r| {
            (0..f.seats()).flat_map(move |s| {
                [
                    written(f.seat_x[s], f.split_x[s], r),
                    written(f.split_x[s], f.seat_x[s + 1], r),
                ]
            })
        })
        .filter(|&w| w)
        .count()
}

/// A mm measure to a hundredth, as templates hold them.
fn round2(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

/// The ruling and frame of the blank on `page`, or of the page turned
/// half round where a scanner took it upside down (its label column then
/// stands right, and no frame is found as it lies). Where neither has a
/// frame, why not, of the way that got further (as it lies, where both
/// got as far); an edge is named as the picture lies.
fn upright_frame(page: &GrayImage) -> Result<(Ruling, Frame), NotAForm> {
    let ruling = Ruling::of(page);
    let why = match Frame::of(&ruling) {
        Ok(frame) => return Ok((ruling, frame)),
        Err(why) => why,
    };
    let turned = Ruling::of(&image::imageops::rotate180(page));
    match Frame::of(&turned) {
        Ok(frame) => Ok((turned, frame)),
        Err(other) if other.stage() > why.stage() => Err(other.turned()),
        Err(_) => Err(why),
    }
}

/// The form template of the blank on `page`, its id `id`.
pub fn learn(
    page: &GrayImage,
    id: &str,
    hints: &Hints,
    printed: &mut dyn PrintReader,
) -> Result<FormTemplate, NotAForm> {
    let (ruling, frame) = upright_frame(page)?;
    let (seats, games) = (frame.seats(), frame.games.len());
    if games < crate::page::form::MIN_GAMES {
        return Err(NotAForm::TooFewRows { found: games });
    }
    if let Some(hinted) = hints.seats.filter(|&h| h != seats) {
        return Err(NotAForm::SeatsDiffer {
            found: seats,
            hinted,
        });
    }
    if let Some(hinted) = hints.games.filter(|&h| h != games) {
        return Err(NotAForm::GamesDiffer {
            found: games,
            hinted,
        });
    }
    let written = written_cells(&frame, &ruling);
    if written as f64 > FILLED_SHARE * (games * seats * 2) as f64 {
        return Err(NotAForm::Filled { cells: written });
    }
    let print = labels::read(&frame, &ruling, printed);
    Ok(template::template(id, &frame, &ruling, print))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shipped_blank() -> (FormTemplate, GrayImage) {
        let shipped = FormTemplate::load("punkteliste-a4-32").expect("shipped");
        let blank = crate::page::render::render_form(&shipped, 150.0);
        (shipped, blank)
    }

    fn learnt(page: &GrayImage) -> Result<FormTemplate, NotAForm> {
        let mut print = crate::read::font::FontDigits::new();
        learn(page, "learnt", &Hints::default(), &mut print)
    }

    /// How far (mm) the learnt game boxes lie from the shipped ones, the
    /// first box laid on the first (a page lies anywhere in a picture).
    fn farthest(learnt: &FormTemplate, shipped: &FormTemplate) -> f64 {
        assert_eq!((learnt.seats, learnt.games), (shipped.seats, shipped.games));
        let boxes = |t: &FormTemplate| -> Vec<[f64; 4]> {
            t.fields.game.iter().flatten().map(|g| g.plus).collect()
        };
        let (a, b) = (boxes(learnt), boxes(shipped));
        let shift = [b[0][0] - a[0][0], b[0][1] - a[0][1], 0.0, 0.0];
        a.iter()
            .zip(&b)
            .flat_map(|(a, b)| (0..4).map(move |i| (a[i] + shift[i] - b[i]).abs()))
            .fold(0.0, f64::max)
    }

    /// The shipped form's blank fed to the scanner upside down is learnt
    /// as it is upright: every game box where the template has it.
    #[test]
    fn a_blank_scanned_upside_down_should_be_learnt_upright() {
        let (shipped, blank) = shipped_blank();
        let turned = image::imageops::rotate180(&blank);
        let off = farthest(&learnt(&turned).expect("learnt"), &shipped);
        assert!(off < 0.3, "game boxes off by up to {off:.2} mm");
    }

    /// Upside down and cut through its signature row: why not is told of
    /// the page turned, which got as far as the signatures.
    #[test]
    fn an_upside_down_blank_should_be_refused_for_what_it_lacks_the_right_way_up() {
        let (shipped, blank) = shipped_blank();
        let px_per_mm = f64::from(blank.width()) / 210.0;
        let signature_top = shipped.fields.signature[0][1];
        let keep = ((signature_top + 2.0) * px_per_mm) as u32;
        let cut = image::imageops::crop_imm(&blank, 0, 0, blank.width(), keep).to_image();
        assert_eq!(learnt(&cut).err(), Some(NotAForm::NoSignatures));
        let turned = image::imageops::rotate180(&cut);
        assert_eq!(learnt(&turned).err(), Some(NotAForm::NoSignatures));
    }

    /// The blank turned 4° on the scanner's white lid.
    fn turned(blank: &GrayImage) -> GrayImage {
        use imageproc::geometric_transformations::{Border, Interpolation, rotate_about_center};
        let white = Border::Constant(image::Luma([255]));
        rotate_about_center(blank, 4f32.to_radians(), Interpolation::Bilinear, white)
    }

    #[test]
    fn a_blank_scanned_turned_should_be_learnt_square() {
        let (shipped, blank) = shipped_blank();
        let off = farthest(&learnt(&turned(&blank)).expect("learnt"), &shipped);
        assert!(off < 0.3, "game boxes off by up to {off:.2} mm");
    }

    /// Turned, the picture's right edge cuts the table's lower right
    /// corner only: the page's edge lies far from the table.
    #[test]
    fn a_turned_blank_the_picture_cuts_should_be_refused_as_cut_off() {
        let (_, blank) = shipped_blank();
        let page = turned(&blank);
        let (w, h) = page.dimensions();
        let cut = image::imageops::crop_imm(&page, 0, 0, w * 92 / 100, h).to_image();
        assert_eq!(learnt(&cut).err(), Some(NotAForm::CutOff(Edge::Right)));
    }
}
