//! A model file's tensors: safetensors of 32-bit floats, read as plain
//! numbers. Reading needs nothing more; the lab trains the nets with
//! candle and saves them in this format.

use std::collections::HashMap;

/// One tensor of a model file: its dimensions and its values, row-major.
#[derive(Debug, Clone, PartialEq)]
pub struct Weights {
    pub dims: Vec<usize>,
    pub values: Vec<f32>,
}

/// A model file's tensors by name (`c1.weight`, `f2.bias`, `temperature`).
pub type Tensors = HashMap<String, Weights>;

/// The tensors of a safetensors file; an error names what is wrong with it.
pub fn tensors_of(bytes: &[u8]) -> Result<Tensors, String> {
    let file = safetensors::SafeTensors::deserialize(bytes).map_err(|e| e.to_string())?;
    file.tensors()
        .into_iter()
        .map(|(name, view)| {
            if view.dtype() != safetensors::Dtype::F32 {
                return Err(format!("{name}: {:?}, not F32", view.dtype()));
            }
            let values = (view.data().chunks_exact(4))
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect();
            let dims = view.shape().to_vec();
            Ok((name, Weights { dims, values }))
        })
        .collect()
}

/// The temperature stored with a model (1 where none is).
pub fn stored_temperature(tensors: &Tensors) -> f32 {
    (tensors.get("temperature"))
        .and_then(|t| t.values.first().copied())
        .filter(|t| *t > 0.0)
        .unwrap_or(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file of two tensors as safetensors writes it.
    fn file(dtype: safetensors::Dtype) -> Vec<u8> {
        let bytes: Vec<u8> = [1.5f32, -2.0, 0.25]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let t = safetensors::tensor::TensorView::new(dtype, vec![3], &bytes).expect("view");
        let one: Vec<u8> = 0.8f32.to_le_bytes().to_vec();
        let temp = safetensors::tensor::TensorView::new(dtype, vec![1], &one).expect("view");
        safetensors::serialize([("f2.bias", t), ("temperature", temp)], None).expect("file")
    }

    #[test]
    fn a_model_files_tensors_should_be_read_as_written() {
        let tensors = tensors_of(&file(safetensors::Dtype::F32)).expect("read");
        assert_eq!(tensors["f2.bias"].dims, vec![3]);
        assert_eq!(tensors["f2.bias"].values, vec![1.5, -2.0, 0.25]);
        assert_eq!(stored_temperature(&tensors), 0.8);
    }

    #[test]
    fn a_file_that_is_no_model_or_not_of_floats_should_be_refused() {
        assert!(tensors_of(b"not a model").is_err());
        let err = tensors_of(&file(safetensors::Dtype::I32)).expect_err("ints");
        assert!(err.contains("not F32"), "{err}");
    }
}
