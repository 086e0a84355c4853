//! The net's shape: its input, its classes and its layers.

use super::*;

/// A net's input (height × width, one channel), its number of classes and
/// its layers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    pub height: usize,
    pub width: usize,
    pub classes: usize,
    pub layers: Layers,
}

impl Shape {
    /// The digit net's: 28×28, the digits and [`NOT_A_DIGIT`].
    pub const DIGIT: Shape = Shape {
        height: 28,
        width: 28,
        classes: CLASSES,
        layers: Layers::SMALL,
    };

    /// Height, width and channels of the maps after the last convolution
    /// (and its pooling).
    pub fn maps(&self) -> (usize, usize, usize) {
        let (mut h, mut w, mut c) = (self.height, self.width, 1);
        for conv in self.layers.convs {
            (h, w, c) = (h + 1 - conv.side, w + 1 - conv.side, conv.channels);
            if conv.pool {
                (h, w) = (h / 2, w / 2);
            }
        }
        (h, w, c)
    }
}

/// One convolution of a net: valid, stride 1, a ReLU after it, and a 2×2
/// max pooling if `pool`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Conv {
    pub side: usize,
    pub channels: usize,
    pub pool: bool,
}

impl Conv {
    pub const fn new(side: usize, channels: usize, pool: bool) -> Conv {
        Conv {
            side,
            channels,
            pool,
        }
    }
}

/// A net's layers: its convolutions (`c1`, `c2`, … in the model file),
/// then a dense layer of `dense` units (`f1`) and the classes (`f2`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layers {
    pub convs: &'static [Conv],
    pub dense: usize,
}

impl Layers {
    /// The committed nets': conv 32 5×5, pool, conv 64 5×5, pool, dense 128.
    pub const SMALL: Layers = Layers {
        convs: &[Conv::new(5, 32, true), Conv::new(5, 64, true)],
        dense: 128,
    };

    /// The second 5×5 convolution as two 3×3 ones (the same view of the
    /// digit with one more nonlinearity), and twice the dense units: about
    /// 1.3 times the small net's work (docs/reading.md).
    pub const DEEP: Layers = Layers {
        convs: &[
            Conv::new(5, 32, true),
            Conv::new(3, 64, false),
            Conv::new(3, 64, true),
        ],
        dense: 256,
    };

    /// Four 3×3 convolutions, two before each pooling, and 256 dense
    /// units: the same 4×4×64 maps as the small net's, seen through
    /// twice the nonlinearities; about 2.6 times its work.
    pub const WIDE: Layers = Layers {
        convs: &[
            Conv::new(3, 32, false),
            Conv::new(3, 32, true),
            Conv::new(3, 64, false),
            Conv::new(3, 64, true),
        ],
        dense: 256,
    };

    /// The layers a model file's tensors are of.
    pub fn of_tensors(tensors: &Tensors) -> Layers {
        if tensors.contains_key("c4.weight") {
            Layers::WIDE
        } else if tensors.contains_key("c3.weight") {
            Layers::DEEP
        } else {
            Layers::SMALL
        }
    }

    /// The layers of the model file at `path`.
    pub fn of_file(path: &std::path::Path) -> Result<Layers, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(Layers::of_tensors(&tensors_of(&bytes)?))
    }
}
