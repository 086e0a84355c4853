//! Developer aid: how long a digit model's forward pass takes per input on
//! one thread (as reading runs it: a sheet per core), in batches of 64.
//! Usage: cargo run --release --example net_speed -- MODEL.safetensors...

use std::time::Instant;

use aufsicht::read::cnn::CnnReader;

fn main() -> Result<(), String> {
    let inputs: Vec<Vec<f32>> = (0..64)
        .map(|i| {
            (0..784)
                .map(|j| ((i * 31 + j * 37) % 101) as f32 / 100.0)
                .collect()
        })
        .collect();
    for model in std::env::args().skip(1) {
        let reader = CnnReader::from_bytes(std::fs::read(&model).map_err(|e| e.to_string())?)
            .map_err(|e| e.to_string())?;
        let rounds = 300;
        let t = Instant::now();
        for _ in 0..rounds {
            std::hint::black_box(reader.classify(&inputs));
        }
        let per = t.elapsed().as_secs_f64() * 1e6 / (rounds * inputs.len()) as f64;
        println!("{model}: {per:.1} µs an input");
    }
    Ok(())
}
