//! Hands with a failure kind: a stroke font's hand whose one digit is
//! written in a shape the reader is known to misread all over a writer's
//! sheets, while a person reads it at a glance. Each kind is drawn on every
//! Hershey family of a split, so a kind is measured on families the nets
//! learned from and on families held out.

use super::hershey::Stroke;

/// A digit shape the reader misreads the same way on every cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailureKind {
    /// A 3 with a flat top and an open lower bow, its diagonal reaching
    /// far to the left (meant to be read as 5; the reader reads it as 3).
    FlatThree,
    /// A 1 with a long up-stroke and no foot (read as 7 about half the
    /// times it is written, alone).
    LongOne,
}

impl FailureKind {
    pub const ALL: [FailureKind; 2] = [FailureKind::FlatThree, FailureKind::LongOne];

    pub fn name(self) -> &'static str {
        match self {
            FailureKind::FlatThree => "flat-three",
            FailureKind::LongOne => "long-one",
        }
    }

    /// The digit this kind writes.
    pub fn digit(self) -> u32 {
        match self {
            FailureKind::FlatThree => 3,
            FailureKind::LongOne => 1,
        }
    }

    /// Its strokes in Hershey font units (about 21 high, y down, the
    /// baseline at 9).
    pub fn strokes(self) -> Vec<Stroke> {
        match self {
            FailureKind::FlatThree => vec![vec![
                (-6.0, -12.0),
                (5.0, -12.0),
                (-5.0, -6.0),
                (-6.0, -3.0),
                (-2.0, -5.0),
                (2.0, -5.0),
                (5.0, -3.0),
                (7.0, 1.0),
                (7.0, 3.0),
                (6.0, 6.0),
                (4.0, 8.0),
                (1.0, 9.0),
                (-3.0, 9.0),
                (-6.0, 7.0),
            ]],
            // The flag rises from far left nearly level with the top.
            FailureKind::LongOne => vec![vec![(-8.0, -10.0), (1.0, -12.0), (1.0, 9.0)]],
        }
    }
}
