//! Developer aid: the decode and the checks on a writer whose one shape is
//! misread all over the sheet. Takes the truth of generated sheets and
//! reads every number as written, surely, but for the digit FROM (default
//! 3): wherever it is written, in game cells and footer alike, it is read
//! as TO (default 5) at a probability drawn from LO..HI (default
//! 0.47..0.87), with the written number as the one alternative. So every
//! sheet is in the hand the reader misreads the same way everywhere. The
//! sheets so read are decoded and verified as `scan` does and written to
//! OUT as results, to be rated with `aufsicht-lab evaluate --truth TRUTH
//! --results OUT` (wrong values without a flag: `silent`).
//! Usage: one_shape TRUTH OUT [--from 3] [--to 5] [--lo 0.47] [--hi 0.87]

use std::path::Path;

use aufsicht::check::messages::Lang;
use aufsicht::decode::{CellReadings, Field, FieldReading, decode};
use aufsicht::read::Reading;
use aufsicht::{RuleSet, SheetResult, verify};

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let option = |name: &str, default: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .map_or(default.to_string(), Clone::clone)
    };
    let (Some(truth), Some(out)) = (args.first(), args.get(1)) else {
        return Err(
            "usage: one_shape TRUTH OUT [--from 3] [--to 5] [--lo 0.47] [--hi 0.87]".into(),
        );
    };
    let digit = |name: &str, default: &str| -> Result<char, String> {
        let d = option(name, default);
        d.chars()
            .next()
            .filter(char::is_ascii_digit)
            .ok_or(format!("{name}: not a digit: {d}"))
    };
    let number = |name: &str, default: &str| -> Result<f32, String> {
        option(name, default)
            .parse()
            .map_err(|e| format!("{name}: {e}"))
    };
    let shape = Shape {
        from: digit("--from", "3")?,
        to: digit("--to", "5")?,
        lo: number("--lo", "0.47")?,
        hi: number("--hi", "0.87")?,
    };
    std::fs::create_dir_all(out).map_err(|e| format!("{out}: {e}"))?;
    let mut paths: Vec<_> = std::fs::read_dir(truth)
        .map_err(|e| format!("{truth}: {e}"))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    let mut misread = 0;
    for (i, path) in paths.iter().enumerate() {
        let written = SheetResult::from_path(path).map_err(|e| e.to_string())?;
        let rules = RuleSet::load(written.rules.as_deref().unwrap_or("merkur"))
            .map_err(|e| e.to_string())?;
        let (sheet, readings, n) = shape.read(&written, i as u64);
        misread += n;
        let decoded = decode(sheet, &readings, &rules, Lang::En);
        let result = verify(decoded, &rules, Lang::En).map_err(|e| e.to_string())?;
        let name = path.file_name().unwrap_or_default();
        let json = serde_json::to_string_pretty(&result).map_err(|e| e.to_string())?;
        std::fs::write(Path::new(out).join(name), json).map_err(|e| e.to_string())?;
    }
    println!("{} sheets, {misread} numbers misread", paths.len());
    Ok(())
}

/// The writer's shape the reader misreads: `from` read as `to`.
struct Shape {
    from: char,
    to: char,
    lo: f32,
    hi: f32,
}

impl Shape {
    /// The sheet as read, its readings, and how many numbers were misread.
    fn read(&self, written: &SheetResult, seed: u64) -> (SheetResult, CellReadings, usize) {
        let mut sheet = written.clone();
        sheet.flags.clear();
        sheet.extra.clear();
        let mut fields = Vec::new();
        let mut misread = 0;
        let mut n = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mut read = |field: Field, v: u32| -> u32 {
            n = n
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let text = v.to_string();
            let seen = text.replace(self.from, &self.to.to_string());
            let reading = if seen == text {
                Reading {
                    text,
                    confidence: 0.999,
                    alternatives: Vec::new(),
                }
            } else {
                misread += 1;
                let p = self.lo + (self.hi - self.lo) * ((n >> 40) as f32 / (1u64 << 24) as f32);
                Reading {
                    text: seen.clone(),
                    confidence: p,
                    alternatives: vec![(text, 1.0 - p)],
                }
            };
            let value = reading.value().unwrap_or(v);
            fields.push(FieldReading {
                field,
                reading,
                what: format!("{field:?}"),
            });
            value
        };
        for g in &mut sheet.games {
            for (i, c) in g.cells.iter_mut().enumerate() {
                if let Some(v) = c.plus {
                    c.plus = Some(read(Field::Game(g.no, i + 1, false), v));
                }
                if let Some(v) = c.minus {
                    c.minus = Some(read(Field::Game(g.no, i + 1, true), v));
                }
            }
        }
        for (i, g) in sheet.gesamt.iter_mut().enumerate() {
            let Some(g) = g else { continue };
            if let Some(v) = g.plus {
                g.plus = Some(read(Field::Gesamt(i + 1, false), v));
            }
            if let Some(v) = g.minus {
                g.minus = Some(read(Field::Gesamt(i + 1, true), v));
            }
        }
        for (i, a) in sheet.abzug.iter_mut().enumerate() {
            if let Some(v) = *a {
                *a = Some(read(Field::Abzug(i + 1), v));
            }
        }
        for (i, e) in sheet.endergebnis.iter_mut().enumerate() {
            if let Some(v) = *e {
                let digits = read(Field::Endergebnis(i + 1), v.unsigned_abs() as u32);
                *e = Some(if v < 0 {
                    -i64::from(digits)
                } else {
                    i64::from(digits)
                });
            }
        }
        let readings = CellReadings {
            fields,
            ..Default::default()
        };
        (sheet, readings, misread)
    }
}
