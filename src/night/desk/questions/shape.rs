//! A cell's shape: its ink, cropped and scaled to a small fixed grid, so
//! that one writer's cells that look alike can be asked together.

use image::GrayImage;
use image::imageops::{FilterType, resize};

use crate::cells;
use crate::page::align::Alignment;
use crate::page::form::{FormTemplate, MmBox};
use crate::sheet::{Column, ValuePath};

/// The grid a shape is scaled to: wide enough for three digits.
const WIDTH: u32 = 24;
const HEIGHT: u32 = 12;

/// Two cells whose shapes agree at least this much (the cosine of their
/// centred grids) look alike: on the generated nights one writer's same
/// number in the same hand agreed 0.8 and more, another number read the
/// same way less.
pub const SAME_SHAPE: f32 = 0.75;

/// A cell's ink on [`WIDTH`] × [`HEIGHT`], centred and of unit length.
#[derive(Debug, Clone, PartialEq)]
pub struct Shape(Vec<f32>);

impl Shape {
    /// The shape of a cell's ink (black on white, cropped to it); none
    /// where it holds no ink.
    pub fn of_ink(ink: &GrayImage) -> Option<Shape> {
        if ink.width() == 0 || ink.height() == 0 {
            return None;
        }
        let small = resize(ink, WIDTH, HEIGHT, FilterType::Triangle);
        let mut v: Vec<f32> = small
            .pixels()
            .map(|p| 1.0 - f32::from(p[0]) / 255.0)
            .collect();
        let mean = v.iter().sum::<f32>() / v.len() as f32;
        v.iter_mut().for_each(|x| *x -= mean);
        let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        if norm < 1e-3 {
            return None;
        }
        v.iter_mut().for_each(|x| *x /= norm);
        Some(Shape(v))
    }

    /// The cell at `path` on a page aligned to `form`.
    pub fn at(
        page: &GrayImage,
        alignment: &Alignment,
        form: &FormTemplate,
        path: ValuePath,
    ) -> Option<Shape> {
        let bx = box_of(form, path)?;
        let game = matches!(path, ValuePath::Game { .. });
        let sign = matches!(path, ValuePath::Endergebnis(_));
        let cell = cells::analyse(&cells::cut(page, alignment, bx), game, sign);
        if cell.mark != cells::Mark::Ink {
            return None;
        }
        Shape::of_ink(&cell.digits)
    }

    /// How alike two shapes are: 1 the same, 0 unrelated.
    pub fn agreement(&self, other: &Shape) -> f32 {
        self.0.iter().zip(&other.0).map(|(a, b)| a * b).sum()
    }
}

/// The box of the value at `path` on `form`.
pub fn box_of(form: &FormTemplate, path: ValuePath) -> Option<MmBox> {
    let f = &form.fields;
    let seat = |s: usize| s.checked_sub(1);
    let pick = |pm: &crate::page::form::PlusMinus, c: Column| match c {
        Column::Plus => pm.plus,
        Column::Minus => pm.minus,
    };
    Some(match path {
        ValuePath::Game {
            no,
            seat: s,
            column,
        } => {
            let row = f.game.get((no as usize).checked_sub(1)?)?;
            pick(row.get(seat(s)?)?, column)
        }
        ValuePath::Gesamt { seat: s, column } => pick(f.gesamt.get(seat(s)?)?, column),
        ValuePath::Abzug(s) => *f.abzug.get(seat(s)?)?,
        ValuePath::Endergebnis(s) => *f.endergebnis.get(seat(s)?)?,
        ValuePath::Player(s) => *f.player_id.get(seat(s)?)?,
        ValuePath::Round => f.round,
        ValuePath::Table => f.table,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Luma;

    /// A bar of ink from `x0` to `x1` across a 20 × 10 cell, rows `y0..y1`.
    fn bar(x0: u32, x1: u32, y0: u32, y1: u32) -> GrayImage {
        GrayImage::from_fn(20, 10, |x, y| {
            let ink = (x0..x1).contains(&x) && (y0..y1).contains(&y);
            Luma([if ink { 0 } else { 255 }])
        })
    }

    #[test]
    fn the_same_ink_should_agree_fully() {
        let a = Shape::of_ink(&bar(2, 6, 0, 10)).unwrap();
        assert!((a.agreement(&a) - 1.0).abs() < 1e-4);
    }

    #[test]
    fn ink_on_the_left_and_ink_on_the_right_should_not_look_alike() {
        let left = Shape::of_ink(&bar(0, 6, 0, 10)).unwrap();
        let right = Shape::of_ink(&bar(14, 20, 0, 10)).unwrap();
        assert!(left.agreement(&right) < SAME_SHAPE);
    }

    #[test]
    fn a_blank_cell_should_have_no_shape() {
        assert_eq!(Shape::of_ink(&bar(0, 0, 0, 0)), None);
    }
}
