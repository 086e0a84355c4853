//! The digit net's forward pass for reading, in plain loops around `gemm`'s
//! matrix products (the crate candle, which trains the nets, multiplies
//! with), run on the calling thread. Candle spreads each product over all
//! cores and copies between its layouts; a batch already keeps every core
//! busy with a sheet each, so the product is serial here, and the maps
//! stay channel-last from the first layer to the last, with no copies
//! between.

use super::{Conv, Shape, Tensors, Weights};

/// The net's weights, laid out for channel-last maps: every product is
/// (rows × inputs) · (inputs × outputs).
#[derive(Clone)]
pub struct Inference {
    shape: Shape,
    convs: Vec<(Layer, Conv)>,
    f1: Layer,
    f2: Layer,
}

/// How many inputs go through the layers together (see [`Inference::forward`]).
const CHUNK: usize = 16;

/// One layer's product: `w` is inputs × outputs, row-major.
#[derive(Clone)]
pub(super) struct Layer {
    pub(super) w: Vec<f32>,
    pub(super) b: Vec<f32>,
    pub(super) inputs: usize,
    pub(super) outputs: usize,
}

impl Inference {
    /// A net of `shape` from a model file's tensors (`c1`, `c2`, …, `f1`,
    /// `f2`, each `.weight` and `.bias`, as candle names them), laid out
    /// for [`Inference::forward`]; an error names the tensor that is
    /// missing or of another size.
    pub fn from_tensors(shape: Shape, tensors: &Tensors) -> Result<Self, String> {
        let get = |name: String| tensors.get(&name).ok_or(format!("no tensor {name}"));
        let bias = |name: String| tensors.get(&name);
        let (h, w, c) = shape.maps();
        let mut inputs = 1;
        let mut convs = Vec::new();
        for (i, spec) in shape.layers.convs.iter().enumerate() {
            let name = format!("c{}", i + 1);
            let layer = conv_layer(get(format!("{name}.weight"))?, bias(format!("{name}.bias")))?;
            if (layer.inputs, layer.outputs) != (spec.side * spec.side * inputs, spec.channels) {
                return Err(format!("{name} is not the net's"));
            }
            inputs = spec.channels;
            convs.push((layer, *spec));
        }
        let dense = |name: &str, channels: usize, cells: usize, outputs: usize| {
            let layer = dense_after_maps(
                get(format!("{name}.weight"))?,
                bias(format!("{name}.bias")),
                channels,
                cells,
            )?;
            (layer.outputs == outputs)
                .then_some(layer)
                .ok_or(format!("{name} is not the net's"))
        };
        Ok(Inference {
            shape,
            convs,
            f1: dense("f1", c, h * w, shape.layers.dense)?,
            f2: dense("f2", shape.layers.dense, 1, shape.classes)?,
        })
    }

    /// Logits for `n` inputs of the net's shape (row-major, one after another).
    pub fn forward(&self, inputs: &[f32], n: usize) -> Vec<f32> {
        self.in_chunks(inputs, n, |x, k| {
            self.f2.apply(&self.hidden(x, k), k, false)
        })
    }

    /// The last hidden layer's activations for `n` inputs (row-major): the
    /// net's embedding of each input, what its last layer weighs.
    pub fn features(&self, inputs: &[f32], n: usize) -> Vec<f32> {
        self.in_chunks(inputs, n, |x, k| self.hidden(x, k))
    }

    /// The last layer, which weighs the [`Inference::features`] into logits.
    pub(super) fn head(&self) -> &Layer {
        &self.f2
    }

    /// The same net with another last layer.
    pub(super) fn with_head(&self, head: Layer) -> Inference {
        Inference {
            f2: head,
            ..self.clone()
        }
    }

    /// `layers` run on a few inputs at a time: the second layer's windows
    /// of a whole sheet's batch are tens of megabytes a thread; a chunk's
    /// about three.
    fn in_chunks(
        &self,
        inputs: &[f32],
        n: usize,
        layers: impl Fn(&[f32], usize) -> Vec<f32>,
    ) -> Vec<f32> {
        let size = self.shape.height * self.shape.width;
        let mut out = Vec::new();
        for chunk in inputs[..n * size].chunks(CHUNK * size) {
            out.extend(layers(chunk, chunk.len() / size));
        }
        out
    }

    /// The maps and the first dense layer (with its ReLU).
    fn hidden(&self, inputs: &[f32], n: usize) -> Vec<f32> {
        // The small digit net: 28×28×1 → conv 24×24×32 → pool 12×12×32 →
        // conv 8×8×64 → pool 4×4×64 (the pair net's 28×40 ends at 4×7×64).
        let (mut h, mut w, mut c) = (self.shape.height, self.shape.width, 1);
        let mut maps: Option<Vec<f32>> = None;
        for (layer, spec) in &self.convs {
            let x = maps.as_deref().unwrap_or(inputs);
            let k = spec.side;
            let (oh, ow) = (h + 1 - k, w + 1 - k);
            let mut y = layer.apply(&windows(x, n, (h, w), c, k), n * oh * ow, true);
            (h, w, c) = (oh, ow, spec.channels);
            if spec.pool {
                y = max_pool(&y, n, (h, w), c);
                (h, w) = (h / 2, w / 2);
            }
            maps = Some(y);
        }
        self.f1.apply(maps.as_deref().unwrap_or(inputs), n, true)
    }
}

impl Layer {
    /// `rows` × inputs times the weights, plus the bias (and ReLU).
    pub(super) fn apply(&self, x: &[f32], rows: usize, relu: bool) -> Vec<f32> {
        assert_eq!(x.len(), rows * self.inputs, "layer input");
        assert_eq!(self.w.len(), self.inputs * self.outputs, "layer weights");
        let mut y = vec![0f32; rows * self.outputs];
        // y = x·w, asked as yᵀ = wᵀ·xᵀ: gemm's kernels run down columns, and
        // in this order every operand is read where it lies. Asked as
        // x·w, gemm copies x into its own layout first (`gemm::gemm`
        // turns a product so; the kernel called here does not), which
        // cost more than the product of the first layer's 25 inputs.
        // SAFETY: every slice holds exactly the rows × columns the strides
        // describe (checked above and by construction), and `y` is not
        // aliased.
        unsafe {
            gemm_f32::gemm::f32::get_gemm_fn()(
                self.outputs,
                rows,
                self.inputs,
                y.as_mut_ptr(),
                self.outputs as isize,
                1,
                false,
                self.w.as_ptr(),
                self.outputs as isize,
                1,
                x.as_ptr(),
                self.inputs as isize,
                1,
                0.0,
                1.0,
                false,
                false,
                false,
                gemm_common::Parallelism::None,
            );
        }
        for row in y.chunks_exact_mut(self.outputs) {
            for (v, b) in row.iter_mut().zip(&self.b) {
                *v += b;
                if relu && *v < 0.0 {
                    *v = 0.0;
                }
            }
        }
        y
    }
}

/// Every k×k window of `n` channel-last maps of `(height, width)` as a
/// row, in the order (dy, dx, channel): each window row copies k runs of
/// k·c values.
fn windows(x: &[f32], n: usize, (h, wd): (usize, usize), c: usize, k: usize) -> Vec<f32> {
    let (oh, ow) = (h + 1 - k, wd + 1 - k);
    // Filled by appending: no pass to zero it first.
    let mut w = Vec::with_capacity(n * oh * ow * k * k * c);
    for i in 0..n * oh * ow {
        let (b, y, x0) = (i / (oh * ow), i / ow % oh, i % ow);
        for dy in 0..k {
            w.extend_from_slice(&x[((b * h + y + dy) * wd + x0) * c..][..k * c]);
        }
    }
    w
}

/// 2×2 max pooling of `n` channel-last maps of `(height, width)` (even).
fn max_pool(x: &[f32], n: usize, (h, w): (usize, usize), c: usize) -> Vec<f32> {
    let (hh, hw) = (h / 2, w / 2);
    let mut out = vec![f32::MIN; n * hh * hw * c];
    for b in 0..n {
        for y in 0..h {
            for x0 in 0..w {
                let src = &x[((b * h + y) * w + x0) * c..][..c];
                let dst = &mut out[((b * hh + y / 2) * hw + x0 / 2) * c..][..c];
                for (d, s) in dst.iter_mut().zip(src) {
                    *d = d.max(*s);
                }
            }
        }
    }
    out
}

/// A convolution's kernels (out, in, K, K) as a (K·K·in) × out matrix in
/// the windows' (dy, dx, channel) order.
fn conv_layer(weight: &Weights, bias: Option<&Weights>) -> Result<Layer, String> {
    let &[cout, cin, k, k2] = weight.dims.as_slice() else {
        return Err(format!("a convolution of {:?}", weight.dims));
    };
    if k != k2 {
        return Err(format!("a convolution of {:?}", weight.dims));
    }
    let w = &weight.values;
    let mut m = vec![0f32; k * k * cin * cout];
    for o in 0..cout {
        for c in 0..cin {
            for dy in 0..k {
                for dx in 0..k {
                    m[((dy * k + dx) * cin + c) * cout + o] = w[((o * cin + c) * k + dy) * k + dx];
                }
            }
        }
    }
    Ok(Layer {
        w: m,
        b: bias_of(bias, cout)?,
        inputs: k * k * cin,
        outputs: cout,
    })
}

/// A dense layer (out, in) reading `channels` maps of `cells` cells each:
/// its inputs are taken from candle's channel-first flattening
/// (channel, cell) and put in channel-last order (cell, channel).
fn dense_after_maps(
    weight: &Weights,
    bias: Option<&Weights>,
    channels: usize,
    cells: usize,
) -> Result<Layer, String> {
    let &[outputs, inputs] = weight.dims.as_slice() else {
        return Err(format!("a dense layer of {:?}", weight.dims));
    };
    if inputs != channels * cells {
        return Err(format!(
            "dense layer of {inputs} inputs after {channels}×{cells}"
        ));
    }
    let w = &weight.values;
    let mut m = vec![0f32; inputs * outputs];
    for o in 0..outputs {
        for c in 0..channels {
            for cell in 0..cells {
                m[(cell * channels + c) * outputs + o] = w[o * inputs + c * cells + cell];
            }
        }
    }
    Ok(Layer {
        w: m,
        b: bias_of(bias, outputs)?,
        inputs,
        outputs,
    })
}

fn bias_of(bias: Option<&Weights>, n: usize) -> Result<Vec<f32>, String> {
    match bias {
        Some(b) if b.values.len() == n => Ok(b.values.clone()),
        Some(b) => Err(format!("a bias of {} for {n} outputs", b.values.len())),
        None => Ok(vec![0.0; n]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_layer_should_multiply_its_rows_by_its_weights_and_add_the_bias() {
        // Three inputs, two outputs, four rows: a shape with no two sides alike.
        let layer = Layer {
            w: vec![1.0, -1.0, 2.0, 0.5, -3.0, 4.0],
            b: vec![0.25, -100.0],
            inputs: 3,
            outputs: 2,
        };
        let x = [1.0, 2.0, 3.0, 0.0, 1.0, 0.0, -1.0, 0.0, 2.0, 5.0, 5.0, 5.0];
        let by_hand: Vec<f32> = x
            .chunks(3)
            .flat_map(|r| {
                (0..2).map(move |o| {
                    (0..3).map(|i| r[i] * layer_w(i, o)).sum::<f32>() + [0.25, -100.0][o]
                })
            })
            .collect();
        assert_eq!(layer.apply(&x, 4, false), by_hand);
        let relu: Vec<f32> = by_hand.iter().map(|v| v.max(0.0)).collect();
        assert_eq!(layer.apply(&x, 4, true), relu);
    }

    /// The test layer's weight from input `i` to output `o`.
    fn layer_w(i: usize, o: usize) -> f32 {
        [1.0, -1.0, 2.0, 0.5, -3.0, 4.0][i * 2 + o]
    }
}
