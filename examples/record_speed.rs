//! The night's record at a large night's size: 400 sheets (four rounds
//! of 100 tables, 400 players) with 2,000 decisions (answers, counts,
//! initials and a void), then the standings read from the archive as the
//! desk reads them. Prints how long each part took.
//! Usage: cargo run --release --example record_speed [SHEETS] [DECISIONS]

use std::time::Instant;

use aufsicht::night::club::archive::Archive;
use aufsicht::night::tournament::ranking::{NightRules, rank};
use aufsicht::record::Decision;
use aufsicht::sheet::{Cell, GameRow, finished_sheet};
use aufsicht::{Lang, RuleSet, SheetResult};

/// A finished sheet of 32 Rufspiele at `table` of `round`, its players
/// drawn so that everyone plays every round.
fn sheet(round: u32, table: u32, tables: u32) -> SheetResult {
    let games = (1..=32)
        .map(|no| {
            // Each sheet's games its own: no two tables copy each other.
            let seed = (u64::from(round) << 40) | (u64::from(table) << 20) | u64::from(no);
            let mixed = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let mix = (mixed ^ (mixed >> 29)) as usize;
            let k = (mix / 7 % 12 + 1) as i64;
            let win = [k, k, -k, -k];
            let turn = mix % 4;
            let cells = (0..4)
                .map(|s| match win[(s + turn) % 4] {
                    v if v > 0 => Cell::plus(v as u32),
                    v => Cell::minus((-v) as u32),
                })
                .collect();
            GameRow {
                no,
                cells,
                initials: false,
                class: None,
                extra: Default::default(),
            }
        })
        .collect();
    let players = (0..4)
        .map(|seat| Some((1 + (table - 1 + seat * round) % tables + seat * tables).to_string()))
        .collect();
    let mut s = finished_sheet("merkur", games, players);
    s.round = Some(round);
    s.table = Some(table);
    s.source = Some(format!("r{round}-t{table:03}.png"));
    s
}

/// The `k`-th decision on the `i`-th sheet: one sheet in twenty is voided.
fn decision(k: usize, i: usize) -> Decision {
    let path = format!("games/{}/{}/plus", k % 32 + 1, k % 4 + 1);
    match k % 5 {
        0 | 1 => Decision::Paper {
            path,
            value: 1.into(),
        },
        2 => Decision::Counts {
            path: format!("endergebnis/{}", k % 4 + 1),
            value: 0.into(),
            reason: "die Zeilen geben 0".into(),
        },
        3 => Decision::Initials {
            row: Some((k % 32 + 1) as u32),
            seat: None,
            field: None,
            undo: false,
        },
        _ if i.is_multiple_of(20) => Decision::Void {
            void: true,
            reason: "unleserlich".into(),
        },
        _ => Decision::Initials {
            row: Some((k % 32 + 1) as u32),
            seat: None,
            field: None,
            undo: true,
        },
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let sheets = args.first().copied().unwrap_or(400) as u32;
    let decisions = args.get(1).copied().unwrap_or(2_000);
    let dir = tempfile::tempdir()?;
    let mut archive = Archive::open(&dir.path().join("nacht.sqlite"))?;
    let night = archive.tournament("Nacht", "merkur")?;
    let rules = RuleSet::load("merkur")?;
    let check = |s| aufsicht::verify(s, &rules, Lang::De);
    let tables = sheets.div_ceil(4);
    let t = Instant::now();
    for i in 0..sheets {
        let s = sheet(i / tables + 1, i % tables + 1, tables);
        let name = format!("{i}.json");
        archive.store_file(night, &format!("scan-{i}"), None, &[(name, s)])?;
    }
    println!("store    {sheets} sheets: {:>7.0} ms", ms(t));
    let ids: Vec<i64> = archive.sheets(night)?.iter().map(|s| s.id).collect();
    let t = Instant::now();
    for k in 0..decisions {
        let i = k % ids.len();
        archive.decide(ids[i], "AB", &[decision(k / ids.len(), i)], None, &check)?;
    }
    println!("decide   {decisions} decisions: {:>7.0} ms", ms(t));
    let t = Instant::now();
    let stored = archive.sheets(night)?;
    let named = stored.into_iter().map(|s| s.into_named()).collect();
    let ranked = rank(named, NightRules::of(&rules), Lang::De);
    let elapsed = ms(t);
    let mut kinds = std::collections::BTreeMap::new();
    for c in &ranked.standings.checks {
        *kinds.entry(c.kind.as_str()).or_insert(0) += 1;
    }
    println!(
        "standings {} players: {elapsed:>7.0} ms (checks: {kinds:?})",
        ranked.standings.players.len(),
    );
    Ok(())
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}
