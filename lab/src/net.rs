//! The nets as candle trains them: the layers of a [`Shape`], the forward
//! pass with dropout, and the convolution as one matrix product. The
//! product reads the saved tensors with its own forward pass
//! ([`aufsicht::read::cnn::Inference`]).

use aufsicht::read::cnn::{Inference, Shape, Tensors, Weights};
use candle_core::{Module, Tensor};
use candle_nn::{Conv2d, Linear, VarBuilder, conv2d, linear};

/// Share of the dense layer's outputs dropped in training.
const DROPOUT: f32 = 0.25;

pub struct Net {
    pub(crate) convs: Vec<Conv2d>,
    pub(crate) f1: Linear,
    pub(crate) f2: Linear,
    pub(crate) shape: Shape,
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

impl Net {
    /// The net's tensors by their names in a model file, as plain numbers.
    pub fn tensors(&self) -> candle_core::Result<Tensors> {
        let weights = |t: &Tensor| -> candle_core::Result<Weights> {
            Ok(Weights {
                dims: t.dims().to_vec(),
                values: t.flatten_all()?.to_vec1::<f32>()?,
            })
        };
        let mut layers: Vec<(String, &Tensor, Option<&Tensor>)> = (self.convs.iter().enumerate())
            .map(|(i, c)| (format!("c{}", i + 1), c.weight(), c.bias()))
            .collect();
        layers.push(("f1".into(), self.f1.weight(), self.f1.bias()));
        layers.push(("f2".into(), self.f2.weight(), self.f2.bias()));
        let mut tensors = Tensors::new();
        for (name, w, b) in layers {
            tensors.insert(format!("{name}.weight"), weights(w)?);
            if let Some(b) = b {
                tensors.insert(format!("{name}.bias"), weights(b)?);
            }
        }
        Ok(tensors)
    }

    /// The net as the product reads with it.
    pub fn inference(&self) -> candle_core::Result<Inference> {
        Inference::from_tensors(self.shape, &self.tensors()?).map_err(candle_core::Error::Msg)
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
pub(crate) fn conv_as_one_product(conv: &Conv2d, x: &Tensor) -> candle_core::Result<Tensor> {
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
pub(crate) fn conv_as_one_product_differentiable(
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
pub(crate) fn product_to_maps(
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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use aufsicht::read::cnn::{CLASSES, CnnReader, Layers, MODEL, pair};
    use candle_core::{DType, Device};
    use candle_nn::VarMap;

    /// Probabilities from logits, as the reader makes them.
    fn softmax(logits: &[f32]) -> Vec<f32> {
        let top = logits.iter().fold(f32::MIN, |a, &b| a.max(b));
        let e: Vec<f32> = logits.iter().map(|&v| (v - top).exp()).collect();
        let sum: f32 = e.iter().sum();
        e.into_iter().map(|p| p / sum).collect()
    }

    /// The largest difference between two tensors' elements.
    pub(crate) fn largest_difference(a: Tensor, b: Tensor) -> f32 {
        assert_eq!(a.dims(), b.dims());
        (a - b)
            .and_then(|d| d.abs())
            .and_then(|d| d.max_all())
            .and_then(|d| d.to_scalar::<f32>())
            .expect("difference")
    }

    /// The committed model as candle's net.
    fn committed_net() -> Net {
        let vb = VarBuilder::from_buffered_safetensors(MODEL.to_vec(), DType::F32, &Device::Cpu)
            .expect("model");
        Net::new(vb).expect("net")
    }

    /// Three 28×28 inputs of varied grey.
    fn three_inputs() -> Vec<f32> {
        (0..3 * 28 * 28)
            .map(|i| ((i * 37) % 101) as f32 / 100.0)
            .collect()
    }

    #[test]
    fn the_plain_forward_pass_should_equal_candles() {
        let net = committed_net();
        let inputs = three_inputs();
        let x = Tensor::from_vec(inputs.clone(), (3, 1, 28, 28), &Device::Cpu).expect("tensor");
        let theirs = net.forward(&x).expect("forward");
        let ours = net.inference().expect("layout").forward(&inputs, 3);
        let ours = Tensor::from_vec(ours, (3, CLASSES), &Device::Cpu).expect("tensor");
        let diff = largest_difference(theirs, ours);
        assert!(diff < 1e-4, "{diff}");
    }

    /// A deep net (random weights) is read by the reader's forward pass as
    /// candle's own layers read it, and its model file says it is deep.
    #[test]
    fn a_deep_net_should_read_as_candles_layers_do_and_be_known_by_its_file() {
        let varmap = VarMap::new();
        let vb = VarBuilder::from_varmap(&varmap, DType::F32, &Device::Cpu);
        let shape = Shape {
            layers: Layers::DEEP,
            ..Shape::DIGIT
        };
        assert_eq!(shape.maps(), (4, 4, 64));
        assert_eq!(pair::PAIR.maps(), (4, 7, 64));
        let net = Net::with_shape(vb, shape).expect("net");
        let inputs = three_inputs();
        let x = Tensor::from_vec(inputs.clone(), (3, 1, 28, 28), &Device::Cpu).expect("tensor");
        let mut maps = x;
        for (conv, spec) in net.convs.iter().zip(Layers::DEEP.convs) {
            maps = conv.forward(&maps).and_then(|t| t.relu()).expect("conv");
            if spec.pool {
                maps = maps.max_pool2d(2).expect("pool");
            }
        }
        let theirs = maps
            .flatten_from(1)
            .and_then(|t| net.f1.forward(&t))
            .and_then(|t| t.relu())
            .and_then(|t| net.f2.forward(&t))
            .expect("dense");
        let ours = net.inference().expect("layout").forward(&inputs, 3);
        let ours = Tensor::from_vec(ours, (3, CLASSES), &Device::Cpu).expect("tensor");
        let diff = largest_difference(theirs.clone(), ours);
        assert!(diff < 1e-4, "{diff}");

        let dir = tempfile::tempdir().expect("temp dir");
        let file = dir.path().join("deep.safetensors");
        varmap.save(&file).expect("saved");
        assert_eq!(Layers::of_file(&file).expect("read"), Layers::DEEP);
        let reader = CnnReader::from_bytes(std::fs::read(&file).expect("read")).expect("model");
        let read = reader.classify(&inputs.chunks(784).map(<[f32]>::to_vec).collect::<Vec<_>>());
        let logits = theirs.to_vec2::<f32>().expect("logits");
        for (p, l) in read.iter().zip(&logits) {
            for (a, b) in p.iter().zip(softmax(l)) {
                assert!((a - b).abs() < 1e-4, "{a} against {b}");
            }
        }
    }

    #[test]
    fn the_convolution_as_one_product_should_equal_candles() {
        let x = Tensor::from_vec(three_inputs(), (3, 1, 28, 28), &Device::Cpu).expect("tensor");
        let net = &committed_net();
        let theirs = net.convs[0].forward(&x).expect("conv");
        let ours = conv_as_one_product(&net.convs[0], &x).expect("product");
        let pooled = ours.relu().and_then(|t| t.max_pool2d(2)).expect("pool");
        let theirs2 = net.convs[1].forward(&pooled).expect("conv");
        let ours2 = conv_as_one_product(&net.convs[1], &pooled).expect("product");
        let ours3 = conv_as_one_product_differentiable(&net.convs[1], &pooled).expect("product");
        for (a, b) in [(theirs, ours), (theirs2.clone(), ours2), (theirs2, ours3)] {
            let diff = largest_difference(a, b);
            assert!(diff < 1e-4, "{diff}");
        }
    }

    #[test]
    fn the_differentiable_product_should_give_candles_gradients() {
        use candle_core::Var;
        let values = |n: usize, seed: usize| -> Vec<f32> {
            (0..n)
                .map(|i| (((i + seed) * 37) % 101) as f32 / 100.0 - 0.5)
                .collect()
        };
        let dev = &Device::Cpu;
        let x = Var::from_vec(values(2 * 3 * 9 * 9, 1), (2, 3, 9, 9), dev).expect("x");
        let w = Var::from_vec(values(4 * 3 * 5 * 5, 2), (4, 3, 5, 5), dev).expect("w");
        let b = Var::from_vec(values(4, 3), 4, dev).expect("b");
        let conv = Conv2d::new(
            w.as_tensor().clone(),
            Some(b.as_tensor().clone()),
            Default::default(),
        );
        let grads = |out: Tensor| {
            let g = out
                .sqr()
                .and_then(|o| o.sum_all())
                .and_then(|l| l.backward())
                .expect("grads");
            [x.as_tensor(), w.as_tensor(), b.as_tensor()].map(|v| g.get(v).expect("grad").clone())
        };
        let theirs = grads(conv.forward(x.as_tensor()).expect("conv"));
        let ours =
            grads(conv_as_one_product_differentiable(&conv, x.as_tensor()).expect("product"));
        for (a, b) in theirs.into_iter().zip(ours) {
            let diff = largest_difference(a, b);
            assert!(diff < 1e-3, "{diff}");
        }
    }
}
