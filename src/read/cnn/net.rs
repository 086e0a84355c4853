//! The net: its shape, its layers, and the convolution as one matrix product.

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
    pub fn of_tensors(tensors: &std::collections::HashMap<String, Tensor>) -> Layers {
        if tensors.contains_key("c4.weight") {
            Layers::WIDE
        } else if tensors.contains_key("c3.weight") {
            Layers::DEEP
        } else {
            Layers::SMALL
        }
    }

    /// The layers of the model file at `path`.
    pub fn of_file(path: &std::path::Path) -> candle_core::Result<Layers> {
        Ok(Layers::of_tensors(&candle_core::safetensors::load(
            path,
            &Device::Cpu,
        )?))
    }
}

pub struct Net {
    pub(crate) convs: Vec<Conv2d>,
    pub(super) f1: Linear,
    pub(super) f2: Linear,
    pub(super) shape: Shape,
}

impl Net {
    pub fn new(vb: VarBuilder) -> candle_core::Result<Self> {
        Self::with_shape(vb, Shape::DIGIT)
    }

    /// A net for `shape` (10 classes: a model without [`NOT_A_DIGIT`]).
    pub fn with_shape(vb: VarBuilder, shape: Shape) -> candle_core::Result<Self> {
        let mut convs = Vec::new();
        let mut inputs = 1;
        for (i, conv) in shape.layers.convs.iter().enumerate() {
            let name = format!("c{}", i + 1);
            convs.push(conv2d(
                inputs,
                conv.channels,
                conv.side,
                Default::default(),
                vb.pp(name),
            )?);
            inputs = conv.channels;
        }
        let (h, w, c) = shape.maps();
        let dense = shape.layers.dense;
        Ok(Net {
            convs,
            f1: linear(c * h * w, dense, vb.pp("f1"))?,
            f2: linear(dense, shape.classes, vb.pp("f2"))?,
            shape,
        })
    }

    /// The maps after the convolutions; gradients flow back to their
    /// inputs when `train` (the net's input needs none: its windows are
    /// plain data).
    fn features(&self, x: &Tensor, train: bool) -> candle_core::Result<Tensor> {
        let mut x = x.clone();
        for (i, (conv, spec)) in self.convs.iter().zip(self.shape.layers.convs).enumerate() {
            x = if train && i > 0 {
                conv_as_one_product_differentiable(conv, &x)?
            } else {
                conv_as_one_product(conv, &x)?
            }
            .relu()?;
            if spec.pool {
                x = x.max_pool2d(2)?;
            }
        }
        x.flatten_from(1)
    }

    /// Logits as in training: the dense layer's outputs partly dropped,
    /// which ones drawn from `rng` (candle's CPU generator cannot be
    /// seeded, and a training resumed from its checkpoint must draw the
    /// same).
    pub fn forward_train(
        &self,
        x: &Tensor,
        rng: &mut impl rand::Rng,
    ) -> candle_core::Result<Tensor> {
        use rand::RngExt;
        let x = self.f1.forward(&self.features(x, true)?)?.relu()?;
        let (n, units) = x.dims2()?;
        let scale = 1.0 / (1.0 - DROPOUT);
        let keep: Vec<f32> = (0..n * units)
            .map(|_| {
                if rng.random::<f32>() >= DROPOUT {
                    scale
                } else {
                    0.0
                }
            })
            .collect();
        let mask = Tensor::from_vec(keep, (n, units), x.device())?;
        self.f2.forward(&(x * mask)?)
    }
}

impl Module for Net {
    /// Logits of 0..9 and [`NOT_A_DIGIT`] for a batch of 28×28 inputs.
    fn forward(&self, x: &Tensor) -> candle_core::Result<Tensor> {
        let x = self.features(x, false)?;
        self.f2.forward(&self.f1.forward(&x)?.relu()?)
    }
}

/// A valid, stride-1 convolution as one matrix product over the whole
/// batch (every input window a row). Candle's CPU convolution multiplies
/// image by image; on many small images (a sheet's digits) that is several
/// times slower, and the net was most of the reading time.
pub(super) fn conv_as_one_product(conv: &Conv2d, x: &Tensor) -> candle_core::Result<Tensor> {
    let (n, cin, h, w) = x.dims4()?;
    let (_, _, k, _) = conv.weight().dims4()?;
    let (oh, ow) = (h + 1 - k, w + 1 - k);
    let input = x.flatten_all()?.to_vec1::<f32>()?;
    let row = cin * k * k;
    let mut windows = vec![0f32; n * oh * ow * row];
    for (i, out) in windows.chunks_exact_mut(row).enumerate() {
        let (b, y, x0) = (i / (oh * ow), i / ow % oh, i % ow);
        for c in 0..cin {
            let plane = &input[(b * cin + c) * h * w..][..h * w];
            for dy in 0..k {
                let src = &plane[(y + dy) * w + x0..][..k];
                out[(c * k + dy) * k..][..k].copy_from_slice(src);
            }
        }
    }
    let windows = Tensor::from_vec(windows, (n * oh * ow, row), x.device())?;
    product_to_maps(conv, &windows, (n, oh, ow))
}

/// [`conv_as_one_product`] where gradients must flow back to the input
/// (training): the windows are gathered by a tensor operation. Candle's own
/// convolution backward pass made training a third slower.
pub(super) fn conv_as_one_product_differentiable(
    conv: &Conv2d,
    x: &Tensor,
) -> candle_core::Result<Tensor> {
    let (n, cin, h, w) = x.dims4()?;
    let (_, _, k, _) = conv.weight().dims4()?;
    let (oh, ow) = (h + 1 - k, w + 1 - k);
    let row = cin * k * k;
    let mut index = Vec::with_capacity(oh * ow * row);
    for y in 0..oh {
        for x0 in 0..ow {
            for c in 0..cin {
                for dy in 0..k {
                    let start = c * h * w + (y + dy) * w + x0;
                    index.extend((start..start + k).map(|i| i as u32));
                }
            }
        }
    }
    let len = index.len();
    let index = Tensor::from_vec(index, len, x.device())?;
    let windows = x
        .reshape((n, cin * h * w))?
        .index_select(&index, 1)?
        .reshape((n * oh * ow, row))?;
    product_to_maps(conv, &windows, (n, oh, ow))
}

/// Windows × the kernels (+ bias), back to `n` maps of `oh`×`ow`.
pub(super) fn product_to_maps(
    conv: &Conv2d,
    windows: &Tensor,
    (n, oh, ow): (usize, usize, usize),
) -> candle_core::Result<Tensor> {
    let (cout, cin, k, _) = conv.weight().dims4()?;
    let weight = conv.weight().reshape((cout, cin * k * k))?.t()?;
    let mut y = windows.matmul(&weight)?;
    if let Some(bias) = conv.bias() {
        y = y.broadcast_add(bias)?;
    }
    y.reshape((n, oh, ow, cout))?
        .permute((0, 3, 1, 2))?
        .contiguous()
}
