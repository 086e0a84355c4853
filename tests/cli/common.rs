//! Shared test helpers: running the binary, and legal sheets for property
//! tests (from the rule set's tariffs, independently of the verifier's matching).
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use aufsicht::check::rules::{RuleSet, TableSize};
use aufsicht::sheet::{Cell, GameRow, SheetResult};
use proptest::prelude::*;

/// One legal way to fill the four playing seats of a row: the generator's
/// enumeration of the tariff, which does not share code with the verifier.
pub use aufsicht_lab::synth::{LegalRow as RowSpec, legal_rows};

#[derive(Debug, Clone)]
pub struct RowChoice {
    pub spec: usize,
    pub perm: Vec<usize>,
    pub zero_in_minus: bool,
    pub extra_initials: bool,
    pub corrected: Option<usize>,
}

fn row_choice(n_specs: usize) -> impl Strategy<Value = RowChoice> {
    (
        0..n_specs,
        Just(vec![0usize, 1, 2, 3]).prop_shuffle(),
        any::<bool>(),
        prop::bool::weighted(0.1),
        prop::option::weighted(0.05, 0usize..4),
    )
        .prop_map(
            |(spec, perm, zero_in_minus, extra_initials, corrected)| RowChoice {
                spec,
                perm,
                zero_in_minus,
                extra_initials,
                corrected,
            },
        )
}

/// A random legal sheet for `rules` at a table of `table.players`, on a form of `form_seats` columns.
pub fn legal_sheet(
    rules: RuleSet,
    table: TableSize,
    form_seats: usize,
) -> impl Strategy<Value = (RuleSet, SheetResult)> {
    let rows = legal_rows(&rules);
    let n_games = table.games as usize;
    let penalties = if rules.tariffs.iter().any(|t| !t.counts_as_game) {
        0..3usize
    } else {
        0..1usize
    };
    (
        prop::collection::vec(row_choice(rows.len()), n_games + 2),
        penalties,
        any::<u64>(),
    )
        .prop_map(move |(choices, n_penalties, seed)| {
            let sheet = build(
                &rules,
                &table,
                form_seats,
                &rows,
                &choices,
                n_penalties,
                seed,
            );
            (rules.clone(), sheet)
        })
}

fn build(
    rules: &RuleSet,
    table: &TableSize,
    form_seats: usize,
    rows: &[RowSpec],
    choices: &[RowChoice],
    n_penalties: usize,
    seed: u64,
) -> SheetResult {
    let games_needed = table.games as usize;
    let penalty_rows: Vec<&RowSpec> = rows.iter().filter(|r| !r.counts_as_game).collect();
    let game_rows: Vec<usize> = (0..rows.len())
        .filter(|&i| rows[i].counts_as_game)
        .collect();
    let mut chosen: Vec<(RowSpec, &RowChoice)> = Vec::new();
    let mut ci = 0;
    while chosen.len() < games_needed {
        let c = &choices[ci % choices.len()];
        ci += 1;
        let spec = &rows[game_rows[c.spec % game_rows.len()]];
        if chosen.is_empty() && !spec.first_game {
            continue;
        }
        chosen.push((spec.clone(), c));
    }
    // Penalty rows go after the first game.
    if let Some(spec) = penalty_rows.first() {
        for (p, choice) in choices.iter().take(n_penalties).enumerate() {
            let at = 1 + (seed as usize + p * 7) % (chosen.len() - 1);
            chosen.insert(at, ((*spec).clone(), choice));
        }
    }

    let players = table.players;
    let mut games = Vec::new();
    for (i, (spec, choice)) in chosen.iter().enumerate() {
        let sitter = (table.sits_out > 0).then_some(i % players);
        let playing: Vec<usize> = (0..players).filter(|&s| Some(s) != sitter).collect();
        let mut cells = vec![Cell::default(); form_seats];
        for (pos, &v) in spec.values.iter().enumerate() {
            let seat = playing[choice.perm[pos]];
            cells[seat] = value_cell(v, choice.zero_in_minus);
            if spec.circled == Some(pos) {
                cells[seat].circled = true;
            }
        }
        let mut initials = spec.initials || choice.extra_initials;
        if let Some(s) = choice.corrected {
            cells[playing[s]].corrected = true;
            initials = true;
        }
        games.push(GameRow {
            no: i as u32 + 1,
            cells,
            initials,
            class: None,
            extra: Default::default(),
        });
    }
    // Doppelkopf: every player plays a solo (Pflichtsolo): rows 2.. become solos.
    if rules.pflichtsolo.is_some() {
        let solo = rows
            .iter()
            .find(|r| r.solo && r.counts_as_game && r.values[0] > 0)
            .expect("a won solo");
        let slots: Vec<usize> = (1..chosen.len())
            .filter(|&i| chosen[i].0.counts_as_game)
            .take(players)
            .collect();
        for (s, &slot) in slots.iter().enumerate() {
            let row = &mut games[slot];
            let sitter = (table.sits_out > 0).then_some((s + 1) % players);
            let others: Vec<usize> = (0..players)
                .filter(|&o| o != s && Some(o) != sitter)
                .collect();
            let mut cells = vec![Cell::default(); form_seats];
            cells[s] = value_cell(solo.values[0], false);
            cells[s].circled = true;
            for (j, &o) in others.iter().enumerate() {
                cells[o] = value_cell(solo.values[j + 1], false);
            }
            row.cells = cells;
            row.initials = solo.initials;
        }
    }

    let ids = (0..form_seats)
        .map(|s| (s < players).then(|| format!("{:04}", (seed as usize / (s + 1)) % 10000)))
        .collect();
    aufsicht::sheet::finished_sheet(&rules.id, games, ids)
}

fn value_cell(v: i64, zero_in_minus: bool) -> Cell {
    let a = v.unsigned_abs() as u32;
    if v > 0 || (v == 0 && !zero_in_minus) {
        Cell::plus(a)
    } else {
        Cell::minus(a)
    }
}

/// Every (rule set, table size, form columns) combination the project ships.
pub fn all_tables() -> Vec<(RuleSet, TableSize, usize)> {
    let mut out = Vec::new();
    for id in aufsicht::check::rules::builtin_ids() {
        let rules = RuleSet::load(id).expect("builtin rule set");
        let form_seats = rules.max_players();
        for t in rules.tables.clone() {
            out.push((rules.clone(), t, form_seats));
        }
    }
    out
}

/// Runs the built binary with German messages (the default).
pub fn aufsicht(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_aufsicht"))
        .args(args)
        .env_remove("AUFSICHT_LANG")
        .output()
        .expect("run aufsicht")
}

/// Runs the binary with English messages, for tests that read them.
pub fn aufsicht_en(args: &[&str]) -> Output {
    let mut all = vec!["--lang", "en"];
    all.extend_from_slice(args);
    aufsicht(&all)
}

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A fresh, empty folder for one test, removed with everything in it when
/// the test ends (also when it fails), so test runs leave nothing behind.
pub struct Scratch(tempfile::TempDir);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        self.0.path()
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        self.0.path()
    }
}

pub fn temp(name: &str) -> Scratch {
    Scratch(
        tempfile::Builder::new()
            .prefix(&format!("aufsicht-{name}-"))
            .tempdir()
            .expect("temp dir"),
    )
}

/// The two flagged samples (fax, office scan) scanned as merkur into `out`,
/// with its archive; one at a time, so the archive holds them in this order.
pub fn scan_flagged_samples(out: &Path) {
    scan_samples(out, &["merkur-fax.tif", "merkur-scanner.jpg"]);
}

/// The sample scans named, each scanned by `scan --rules merkur` into `out`
/// (and its archive).
pub fn scan_samples(out: &Path, samples: &[&str]) {
    for sample in samples {
        let scan = aufsicht(&[
            "scan",
            "--rules",
            "merkur",
            "--out",
            out.to_str().expect("utf8"),
            root()
                .join("samples/scans")
                .join(sample)
                .to_str()
                .expect("utf8"),
        ]);
        let err = String::from_utf8_lossy(&scan.stderr);
        assert!(scan.status.success(), "{err}");
    }
}
