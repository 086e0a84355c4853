//! Measures scan results against the generator's truth: whether each field
//! holds ink, circles, initials, signatures, digits, and unreadable pages.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use aufsicht::cells::Mark;
use aufsicht::sheet::{SheetResult, Status};

/// Hits and totals per measured quantity.
#[derive(Debug, Default, Clone)]
pub struct Report {
    pub sheets: usize,
    pub missing: usize,
    pub unreadable: usize,
    pub counts: BTreeMap<&'static str, (usize, usize)>,
    pub uncertain: usize,
    /// Wrong values that no flag points at (the contract's first duty).
    pub silent: usize,
    /// Wrong values in all.
    pub wrong: usize,
    /// The truth's flags (the writer's mistakes as the verifier sees them) and how many the result has,
    /// raised or folded into a reading's look (`consequences`).
    pub writer_flags: (usize, usize),
    /// Of those found, the ones raised as flags of their own.
    pub writer_flags_raised: usize,
    /// Folded flags (`consequences`) the truth does not have.
    pub false_folded: usize,
    /// False flags by their code.
    pub false_by_code: BTreeMap<&'static str, usize>,
    /// The writer's mistakes by their code: found, and in all.
    pub writer_by_code: BTreeMap<&'static str, (usize, usize)>,
    /// Flags of the result the truth does not have (`CELL_UNCERTAIN` aside).
    pub false_flags: usize,
    /// Of those, the ones on a row or seat a `CELL_UNCERTAIN` also points at
    /// (they follow from a reading a person checks anyway).
    pub false_flags_at_uncertain: usize,
    /// Sheets with at least one false flag: the sheets a person opens for
    /// nothing (one misread Gesamt brings its Abzug's and Endergebnis's
    /// flags along, so flags count a finding up to three times).
    pub sheets_with_false_flags: usize,
    /// Sheets whose writer made no mistake the verifier flags, and of those
    /// the ones that came back with no flag at all (no look needed).
    pub writer_clean: (usize, usize),
    /// `CELL_UNCERTAIN`s by the field they name: game cells, footer,
    /// Teilnehmer-Nr., round and table.
    pub uncertain_by_field: [usize; 4],
    /// Later edits in another pen (the truth's `later_edit`): found by an
    /// `INK_DIFFERS` at their cell, and in all.
    pub later_edits: (usize, usize),
    /// `INK_DIFFERS` where no later edit is.
    pub false_ink: usize,
    /// Set when the evaluation ran the scan itself: seconds and peak memory (MB).
    pub run: Option<(f64, f64)>,
    /// Readings by their stated probability: (right, all) per bin of
    /// [`BINS`], per kind of probability ([`Calibration`]).
    pub calibration: BTreeMap<Calibration, [(usize, usize); 7]>,
    /// The sheets by the source of their writer's hand (`mnist` where the
    /// truth names none).
    pub by_source: BTreeMap<String, Tally>,
    /// The sheet whose cells were read worst: its share right, its file
    /// stem and its writer's family.
    pub worst: Option<(f64, String, String)>,
}

/// A few figures of a set of sheets, to compare sources and writers.
#[derive(Debug, Default, Clone)]
pub struct Tally {
    pub sheets: usize,
    pub cells: (usize, usize),
    pub uncertain: usize,
    pub false_flags: usize,
    pub writer_flags: (usize, usize),
    pub silent: usize,
}

impl Tally {
    fn of(r: &Report) -> Tally {
        Tally {
            sheets: 1,
            cells: r.cells(),
            uncertain: r.uncertain,
            false_flags: r.false_flags,
            writer_flags: r.writer_flags,
            silent: r.silent,
        }
    }

    fn add(&mut self, o: &Tally) {
        self.sheets += o.sheets;
        self.cells = (self.cells.0 + o.cells.0, self.cells.1 + o.cells.1);
        self.uncertain += o.uncertain;
        self.false_flags += o.false_flags;
        self.writer_flags = (
            self.writer_flags.0 + o.writer_flags.0,
            self.writer_flags.1 + o.writer_flags.1,
        );
        self.silent += o.silent;
    }

    fn line(&self, name: &str) -> String {
        let per_sheet = |n: usize| n as f64 / self.sheets.max(1) as f64;
        format!(
            "source {name}: sheets {}  cells {:.4} ({}/{})  writer-error recall {:.4} ({}/{})  false flags per sheet {:.3}  uncertain cells per sheet {:.2}  silent errors {}",
            self.sheets,
            self.cells.0 as f64 / self.cells.1.max(1) as f64,
            self.cells.0,
            self.cells.1,
            self.writer_flags.0 as f64 / self.writer_flags.1.max(1) as f64,
            self.writer_flags.0,
            self.writer_flags.1,
            per_sheet(self.false_flags),
            per_sheet(self.uncertain),
            self.silent
        )
    }
}

/// Which stated probability a calibration table bins (deliverable: the
/// probabilities in the result are calibrated, so a person can trust them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Calibration {
    /// A game cell's reading as the reader gave it (`*_reading.confidence`).
    ReaderGame,
    /// A game cell's best value after decoding (`*_reading.alternatives[0]`).
    DecodedGame,
    /// A Teilnehmer-Nr.: the `CELL_UNCERTAIN`'s confidence; one read
    /// surely (no flag) counts in the bin of [`aufsicht::decode::CONFIDENT`].
    PlayerId,
}

impl Calibration {
    fn describe(self) -> (&'static str, &'static str) {
        match self {
            Calibration::ReaderGame => ("reader confidence", "game cells, read right"),
            Calibration::DecodedGame => ("decoded probability", "game cells, best value right"),
            Calibration::PlayerId => ("Teilnehmer-Nr. confidence", "numbers, read right"),
        }
    }
}

/// Lower edges of the confidence bins of the calibration table.
pub const BINS: [f64; 7] = [0.0, 0.5, 0.75, 0.9, 0.97, 0.99, 0.999];

impl Report {
    fn calibrate(&mut self, kind: Calibration, probability: f64, right: bool) {
        let bin = BINS.iter().rposition(|&lo| probability >= lo).unwrap_or(0);
        let table = self.calibration.entry(kind).or_default();
        table[bin].0 += usize::from(right);
        table[bin].1 += 1;
    }

    fn count(&mut self, what: &'static str, hit: bool) {
        let e = self.counts.entry(what).or_default();
        e.0 += usize::from(hit);
        e.1 += 1;
    }

    pub fn rate(&self, what: &str) -> Option<f64> {
        self.counts
            .get(what)
            .map(|(h, n)| *h as f64 / (*n).max(1) as f64)
    }

    /// Game values and footer numbers read right, and in all.
    pub fn cells(&self) -> (usize, usize) {
        ["value digits", "footer digits", "endergebnis (with sign)"]
            .iter()
            .filter_map(|k| self.counts.get(k))
            .fold((0, 0), |a, c| (a.0 + c.0, a.1 + c.1))
    }

    /// Sheet `stem`'s own report, written in `hand` (source, family), into
    /// the figures by source and the worst sheet.
    fn add_sheet(&mut self, one: &Report, stem: &str, hand: (String, String)) {
        let tally = Tally::of(one);
        let share = tally.cells.0 as f64 / tally.cells.1.max(1) as f64;
        if tally.cells.1 > 0 && self.worst.as_ref().is_none_or(|w| share < w.0) {
            self.worst = Some((share, stem.to_string(), hand.1));
        }
        self.by_source.entry(hand.0).or_default().add(&tally);
    }

    pub fn lines(&self) -> Vec<String> {
        let per_sheet = |n: usize| n as f64 / self.sheets.max(1) as f64;
        let mut out = vec![format!(
            "sheets {}  missing results {}  unreadable {}  uncertain cells per sheet {:.2}  wrong values {}  silent errors {}",
            self.sheets,
            self.missing,
            self.unreadable,
            per_sheet(self.uncertain),
            self.wrong,
            self.silent
        )];
        let (found, all) = self.writer_flags;
        out.push(format!(
            "writer-error recall {:.4} ({found}/{all})  false flags per sheet {:.3} ({}; {} of them where a CELL_UNCERTAIN points too; on {} sheets, {:.3} of them)",
            found as f64 / all.max(1) as f64,
            per_sheet(self.false_flags),
            self.false_flags,
            self.false_flags_at_uncertain,
            self.sheets_with_false_flags,
            per_sheet(self.sheets_with_false_flags)
        ));
        out.push(format!(
            "writer-error recall by raised flags alone {:.4} ({}/{all})  folded into a look: {} found, {} false",
            self.writer_flags_raised as f64 / all.max(1) as f64,
            self.writer_flags_raised,
            found - self.writer_flags_raised,
            self.false_folded
        ));
        out.push(format!(
            "later edits found {:.4} ({}/{})  false INK_DIFFERS per sheet {:.3} ({})",
            self.later_edits.0 as f64 / self.later_edits.1.max(1) as f64,
            self.later_edits.0,
            self.later_edits.1,
            per_sheet(self.false_ink),
            self.false_ink
        ));
        let by_code: Vec<String> = self
            .false_by_code
            .iter()
            .map(|(code, n)| format!("{code} {:.3}", per_sheet(*n)))
            .collect();
        out.push(format!(
            "false flags per sheet by code: {}",
            by_code.join(", ")
        ));
        let recall: Vec<String> = self
            .writer_by_code
            .iter()
            .map(|(code, (found, all))| format!("{code} {found}/{all}"))
            .collect();
        out.push(format!(
            "writer-error recall by code: {}",
            recall.join(", ")
        ));
        let (clean, unflagged) = self.writer_clean;
        let [game, footer, number, round_table] = self.uncertain_by_field.map(per_sheet);
        out.push(format!(
            "writer-clean sheets with no flag {:.3} ({unflagged}/{clean})  uncertain cells per sheet: game {game:.2}, footer {footer:.2}, Teilnehmer-Nr. {number:.2}, round and table {round_table:.2}",
            unflagged as f64 / clean.max(1) as f64
        ));
        if let Some((secs, mb)) = self.run {
            out.push(format!(
                "scan: {:.2} sheets per second ({} in {secs:.1} s), peak memory {mb:.0} MB",
                self.sheets as f64 / secs.max(1e-9),
                self.sheets
            ));
        }
        let cells = self.cells();
        for (kind, table) in &self.calibration {
            let (what, items) = kind.describe();
            for (i, (right, all)) in table.iter().enumerate() {
                let hi = BINS.get(i + 1).copied().unwrap_or(1.0);
                out.push(format!(
                    "{what} {:.3}..{hi:.3}: {all:>6} {items} {:.4}",
                    BINS[i],
                    *right as f64 / (*all).max(1) as f64
                ));
            }
        }
        out.push(format!(
            "cells (game values and footer) {:.4} ({}/{})",
            cells.0 as f64 / cells.1.max(1) as f64,
            cells.0,
            cells.1
        ));
        for (name, tally) in &self.by_source {
            out.push(tally.line(name));
        }
        if let Some((share, stem, family)) = &self.worst {
            out.push(format!("worst sheet {stem} ({family}): cells {share:.4}"));
        }
        for (what, (h, n)) in &self.counts {
            out.push(format!(
                "{what:<28} {:>8.4}  ({h}/{n})",
                *h as f64 / (*n).max(1) as f64
            ));
        }
        out
    }
}

/// `truth_dir/<stem>.json` against `results_dir/<stem>.json`.
pub fn evaluate(truth_dir: &Path, results_dir: &Path) -> Result<Report, String> {
    let mut report = Report::default();
    let mut entries: Vec<_> = std::fs::read_dir(truth_dir)
        .map_err(|e| format!("cannot read {}: {e}", truth_dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    entries.sort();
    for truth_path in entries {
        let truth = SheetResult::from_path(&truth_path).map_err(|e| e.to_string())?;
        report.sheets += 1;
        let Some(stem) = truth_path.file_stem().and_then(|s| s.to_str()) else {
            continue;
        };
        let result_path = [format!("{stem}.json"), format!("{stem}-p1.json")]
            .into_iter()
            .map(|n| results_dir.join(n))
            .find(|p| p.exists());
        let Some(result) = result_path.and_then(|p| SheetResult::from_path(&p).ok()) else {
            report.missing += 1;
            continue;
        };
        if result.status == Status::Unreadable {
            report.unreadable += 1;
            continue;
        }
        let mut one = Report::default();
        compare(&truth, &result, &mut one);
        report.add_sheet(&one, stem, hand_of(&truth));
        compare(&truth, &result, &mut report);
    }
    Ok(report)
}

/// The source and family of the hand a truth's sheet was written in.
fn hand_of(truth: &SheetResult) -> (String, String) {
    let hand = truth.extra.get("writer").and_then(|w| w.get("hand"));
    let named = |key: &str| {
        hand.and_then(|h| h[key].as_str())
            .unwrap_or("mnist")
            .to_string()
    };
    (named("source"), named("family"))
}

fn compare(truth: &SheetResult, result: &SheetResult, report: &mut Report) {
    compare_flags(truth, result, report);
    compare_pens(truth, result, report);
    compare_rows(truth, result, report);
    for s in 0..truth.seats().min(result.seats()) {
        compare_footer(truth, result, s, report);
    }
    report.count(
        "round/table",
        truth.round == result.round && truth.table == result.table,
    );
    for (field, right) in [
        ("round", truth.round == result.round),
        ("table", truth.table == result.table),
    ] {
        if !right {
            report.wrong += 1;
            report.silent +=
                usize::from(!result.flags.iter().any(|f| f.points_at_field(None, field)));
        }
    }
}

/// Later edits found by `INK_DIFFERS`, and the ones raised elsewhere.
fn compare_pens(truth: &SheetResult, result: &SheetResult, report: &mut Report) {
    let edit = truth.extra.get("later_edit");
    let at_edit = |f: &aufsicht::Flag| {
        edit.is_some_and(|e| {
            f.row.map(u64::from) == e["row"].as_u64()
                && f.seat.map(|s| s as u64) == e["seat"].as_u64()
                && f.field.as_deref() == e["field"].as_str()
        })
    };
    let mut found = false;
    for f in result
        .flags
        .iter()
        .filter(|f| f.code == aufsicht::Code::InkDiffers)
    {
        if at_edit(f) {
            found = true;
        } else {
            report.false_ink += 1;
        }
    }
    if edit.is_some() {
        report.later_edits.1 += 1;
        report.later_edits.0 += usize::from(found);
    }
}

/// Where a `CELL_UNCERTAIN` points: 0 a game cell, 1 the footer, 2 a
/// Teilnehmer-Nr., 3 the round or table.
fn uncertain_field(f: &aufsicht::Flag) -> usize {
    match (f.row, f.field.as_deref()) {
        (Some(_), _) => 0,
        (None, Some("player_id")) => 2,
        (None, Some("round" | "table")) => 3,
        _ => 1,
    }
}

/// The writer's mistakes found, and the rule flags the truth has not.
fn compare_flags(truth: &SheetResult, result: &SheetResult, report: &mut Report) {
    for f in result
        .flags
        .iter()
        .filter(|f| f.code == aufsicht::Code::CellUncertain)
    {
        report.uncertain += 1;
        report.uncertain_by_field[uncertain_field(f)] += 1;
    }
    let checked = |f: &&aufsicht::Flag| {
        !matches!(
            f.code,
            aufsicht::Code::CellUncertain
                | aufsicht::Code::SheetUnreadable
                | aufsicht::Code::InkDiffers
        )
    };
    if !truth.flags.iter().any(|f| checked(&f)) {
        report.writer_clean.0 += 1;
        report.writer_clean.1 += usize::from(result.flags.is_empty());
    }
    let folded: Vec<&aufsicht::Flag> = result
        .flags
        .iter()
        .flat_map(|f| &f.detail.consequences)
        .collect();
    for t in truth.flags.iter().filter(checked) {
        let raised = result.flags.iter().any(|r| t.same_finding(r));
        let found = raised || folded.iter().any(|r| t.same_finding(r));
        report.writer_flags.1 += 1;
        report.writer_flags.0 += usize::from(found);
        report.writer_flags_raised += usize::from(raised);
        let by_code = report.writer_by_code.entry(t.code.as_str()).or_default();
        by_code.0 += usize::from(found);
        by_code.1 += 1;
    }
    report.false_folded += folded
        .iter()
        .filter(|r| !truth.flags.iter().any(|t| t.same_finding(r)))
        .count();
    let uncertain_at = |f: &aufsicht::Flag| {
        result.flags.iter().any(|u| {
            u.code == aufsicht::Code::CellUncertain
                && match (f.row, f.seat) {
                    (Some(r), _) => u.row == Some(r),
                    (None, Some(s)) => u.seat == Some(s),
                    (None, None) => u.row.is_none(),
                }
        })
    };
    let mut any_false = false;
    for f in result
        .flags
        .iter()
        .filter(checked)
        .filter(|r| !truth.flags.iter().any(|t| t.same_finding(r)))
    {
        report.false_flags += 1;
        report.false_flags_at_uncertain += usize::from(uncertain_at(f));
        *report.false_by_code.entry(f.code.as_str()).or_default() += 1;
        any_false = true;
    }
    report.sheets_with_false_flags += usize::from(any_false);
}

/// Every printed row's cells, circles and initials.
fn compare_rows(truth: &SheetResult, result: &SheetResult, report: &mut Report) {
    let seats = truth.seats().min(result.seats());
    let rows_t: BTreeMap<u32, _> = truth.games.iter().map(|g| (g.no, g)).collect();
    let rows_r: BTreeMap<u32, _> = result.games.iter().map(|g| (g.no, g)).collect();
    let max_row = rows_t
        .keys()
        .chain(rows_r.keys())
        .copied()
        .max()
        .unwrap_or(0);
    let form_rows = truth
        .extra
        .get("form_rows")
        .and_then(Value::as_u64)
        .unwrap_or(u64::from(max_row)) as u32;
    for no in 1..=form_rows {
        let t = rows_t.get(&no);
        let r = rows_r.get(&no);
        for s in 0..seats {
            for col in ["plus", "minus"] {
                let tv = t.and_then(|g| {
                    if col == "plus" {
                        g.cells[s].plus
                    } else {
                        g.cells[s].minus
                    }
                });
                let minus = col == "minus";
                let marks = r
                    .and_then(|g| g.cells[s].notes.marks)
                    .map(|m| if minus { m.minus } else { m.plus });
                let rv = r.and_then(|g| {
                    if col == "plus" {
                        g.cells[s].plus
                    } else {
                        g.cells[s].minus
                    }
                });
                report.count(
                    "value field ink",
                    tv.is_some() == (marks == Some(Mark::Ink)),
                );
                if tv != rv {
                    report.wrong += 1;
                    if !result.flags.iter().any(|f| f.points_at_row(no)) {
                        report.silent += 1;
                    }
                }
                let reading = r.and_then(|g| g.cells[s].notes.reading(minus));
                if let (Some(tv), Some(x)) = (tv, reading) {
                    report.calibrate(
                        Calibration::ReaderGame,
                        x.confidence,
                        x.read == tv.to_string(),
                    );
                }
                let decoded = reading.and_then(|x| x.alternatives.first().copied());
                if let (Some(tv), Some((best, p))) = (tv, decoded) {
                    report.calibrate(Calibration::DecodedGame, p, i64::from(tv) == best);
                }
                if let Some(tv) = tv {
                    report.count("value digits", rv == Some(tv));
                    let tc = t.is_some_and(|g| g.cells[s].circled);
                    let rc = r.is_some_and(|g| g.cells[s].circled);
                    report.count("circle", tc == rc);
                    let marked = r.is_some_and(|g| g.cells[s].corrected);
                    if let Some(tc) = t.map(|g| &g.cells[s]).filter(|c| c.corrected) {
                        report.count("corrected: new value read", rv == Some(tv));
                        report.count("corrected: marked corrected", marked);
                        let struck =
                            |c: &aufsicht::sheet::Cell| c.notes.struck.and_then(|x| x.value);
                        let read = r.and_then(|g| struck(&g.cells[s]));
                        report.count(
                            "corrected: struck value read",
                            read.is_some() && read == struck(tc),
                        );
                    } else {
                        report.count("not corrected: not marked", !marked);
                    }
                }
            }
        }
        let ti = t.is_some_and(|g| g.initials);
        let ri = r.is_some_and(|g| g.initials);
        report.count("initials", ti == ri);
    }
}

/// One seat's footer, signature and participant number.
fn compare_footer(truth: &SheetResult, result: &SheetResult, s: usize, report: &mut Report) {
    report.count("signature", truth.signatures[s] == result.signatures[s]);
    let uncertain_flag = |field: &str| {
        result.flags.iter().find(|f| {
            f.code == aufsicht::Code::CellUncertain
                && f.row.is_none()
                && f.seat == Some(s + 1)
                && f.field.as_deref() == Some(field)
        })
    };
    let uncertain = |field: &str| uncertain_flag(field).is_some();
    let tg = truth.gesamt[s].unwrap_or_default();
    let rg = result.gesamt[s].unwrap_or_default();
    for (field, tv, rv) in [
        ("plus", tg.plus, rg.plus),
        ("minus", tg.minus, rg.minus),
        ("abzug", truth.abzug[s], result.abzug[s]),
    ] {
        report.count(
            "footer field ink",
            tv.is_some() == (rv.is_some() || uncertain(field)),
        );
        if let Some(tv) = tv {
            report.count("footer digits", rv == Some(tv));
        }
        if tv != rv {
            report.wrong += 1;
            report.silent += usize::from(!result.flags.iter().any(|f| f.points_at_footer(s + 1)));
        }
    }
    let te = truth.endergebnis[s];
    report.count(
        "footer field ink",
        te.is_some() == (result.endergebnis[s].is_some() || uncertain("endergebnis")),
    );
    if te.is_some() {
        report.count("endergebnis (with sign)", te == result.endergebnis[s]);
    }
    if te != result.endergebnis[s] {
        report.wrong += 1;
        report.silent += usize::from(!result.flags.iter().any(|f| f.points_at_footer(s + 1)));
    }
    report.count("player id", truth.players[s] == result.players[s]);
    if truth.players[s].is_some() {
        let stated = uncertain_flag("player_id")
            .map_or(Some(f64::from(aufsicht::decode::CONFIDENT)), |f| {
                f.detail.confidence
            });
        if let Some(p) = stated {
            report.calibrate(
                Calibration::PlayerId,
                p,
                truth.players[s] == result.players[s],
            );
        }
    }
    // A participant number decides whose points these are.
    if truth.players[s] != result.players[s] {
        report.wrong += 1;
        report.silent += usize::from(
            !result
                .flags
                .iter()
                .any(|f| f.points_at_field(Some(s + 1), "player_id")),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use aufsicht::{Code, Flag};

    /// A finished merkur sheet with one Rufspiel row (+1 +1 −1 −1) and
    /// participants 1–4.
    fn one_row_sheet() -> aufsicht::SheetResult {
        use aufsicht::sheet::{Cell, GameRow, finished_sheet};
        let row = GameRow {
            no: 1,
            cells: vec![Cell::plus(1), Cell::plus(1), Cell::minus(1), Cell::minus(1)],
            initials: false,
            class: None,
            extra: Default::default(),
        };
        let ids = (1..=4).map(|i| Some(i.to_string())).collect();
        finished_sheet("merkur", vec![row], ids)
    }

    fn uncertain(seat: Option<usize>, field: &str) -> Flag {
        Flag {
            code: Code::CellUncertain,
            severity: Code::CellUncertain.severity(),
            row: None,
            seat,
            field: Some(field.into()),
            message: "uncertain".into(),
            detail: Default::default(),
            extra: Default::default(),
        }
    }

    #[test]
    fn a_wrong_participant_or_table_number_no_flag_names_should_be_silent() {
        let truth = one_row_sheet();
        let mut read = truth.clone();
        read.players[1] = Some("7".into());
        read.table = truth.table.map(|t| t + 1).or(Some(9));
        let mut report = Report::default();
        compare(&truth, &read, &mut report);
        assert_eq!((report.wrong, report.silent), (2, 2));
        // Flagged on their fields, neither is silent.
        read.flags.push(uncertain(Some(2), "player_id"));
        read.flags.push(uncertain(None, "table"));
        let mut report = Report::default();
        compare(&truth, &read, &mut report);
        assert_eq!((report.wrong, report.silent), (2, 0));
    }

    #[test]
    fn writer_clean_sheets_with_no_flag_and_uncertain_cells_by_field_should_be_counted() {
        let truth = one_row_sheet();
        let mut report = Report::default();
        compare(&truth, &truth, &mut report);
        let mut read = truth.clone();
        read.flags.push(uncertain(Some(2), "player_id"));
        read.flags.push(uncertain(None, "table"));
        read.flags.push(uncertain(Some(3), "abzug"));
        let mut row = uncertain(Some(1), "plus");
        row.row = Some(1);
        read.flags.push(row);
        compare(&truth, &read, &mut report);
        assert_eq!(report.writer_clean, (2, 1));
        assert_eq!(report.uncertain_by_field, [1, 1, 1, 1]);
        // A sheet with the writer's own mistake is not writer-clean.
        let mut wrong = truth.clone();
        wrong.flags.push(Flag {
            code: Code::GameCount,
            severity: Code::GameCount.severity(),
            row: None,
            seat: None,
            field: None,
            message: String::new(),
            detail: Default::default(),
            extra: Default::default(),
        });
        compare(&wrong, &wrong, &mut report);
        assert_eq!(report.writer_clean, (2, 1));
        assert!(
            report
                .lines()
                .iter()
                .any(|l| l.contains("writer-clean sheets with no flag 0.500 (1/2)"))
        );
    }

    #[test]
    fn a_corrected_cell_should_count_its_new_value_and_its_mark() {
        let mut truth = one_row_sheet();
        let seat = truth.games[0]
            .cells
            .iter()
            .position(|c| c.value().is_some())
            .expect("a value");
        truth.games[0].cells[seat].corrected = true;
        truth.games[0].cells[seat].notes.struck = Some(aufsicht::sheet::notes::Struck {
            minus: false,
            value: Some(3),
        });
        let mut read = truth.clone();
        read.games[0].cells[seat].corrected = false;
        read.games[0].cells[seat].notes.struck = None;
        let mut report = Report::default();
        compare(&truth, &read, &mut report);
        compare(&truth, &truth, &mut report);
        assert_eq!(report.counts["corrected: new value read"], (2, 2));
        assert_eq!(report.counts["corrected: marked corrected"], (1, 2));
        // The truth's struck value, read so in the second.
        assert_eq!(report.counts["corrected: struck value read"], (1, 2));
        assert!(report.counts["not corrected: not marked"].1 > 0);
    }

    #[test]
    fn a_writers_mistake_folded_into_a_look_should_count_found_but_not_raised() {
        let mut truth = one_row_sheet();
        let mistake = |seat| Flag {
            code: Code::GesamtMismatch,
            severity: Code::GesamtMismatch.severity(),
            row: None,
            seat: Some(seat),
            field: Some("plus".into()),
            message: String::new(),
            detail: Default::default(),
            extra: Default::default(),
        };
        truth.flags.push(mistake(1));
        let mut read = truth.clone();
        read.flags.clear();
        let mut look = uncertain(Some(1), "plus");
        look.detail.consequences = vec![mistake(1), mistake(2)];
        read.flags.push(look);
        let mut report = Report::default();
        compare(&truth, &read, &mut report);
        assert_eq!(report.writer_flags, (1, 1));
        assert_eq!(report.writer_flags_raised, 0);
        assert_eq!((report.false_folded, report.false_flags), (1, 0));
    }

    #[test]
    fn false_flags_should_be_counted_and_their_sheets_once() {
        let truth = one_row_sheet();
        let mut read = truth.clone();
        for code in [Code::GesamtMismatch, Code::AbzugMismatch] {
            read.flags.push(Flag {
                code,
                severity: code.severity(),
                row: None,
                seat: Some(1),
                field: None,
                message: String::new(),
                detail: Default::default(),
                extra: Default::default(),
            });
        }
        let mut report = Report::default();
        compare(&truth, &read, &mut report);
        compare(&truth, &truth, &mut report);
        assert_eq!((report.false_flags, report.sheets_with_false_flags), (2, 1));
    }

    #[test]
    fn a_participant_number_should_be_binned_by_its_stated_confidence() {
        let truth = one_row_sheet();
        let mut read = truth.clone();
        read.players[1] = Some("7".into());
        let mut doubt = uncertain(Some(2), "player_id");
        doubt.detail.confidence = Some(0.6);
        read.flags.push(doubt);
        let mut report = Report::default();
        compare(&truth, &read, &mut report);
        let table = report.calibration[&Calibration::PlayerId];
        // The doubted one read wrong at 0.6; the others, sure, read right.
        assert_eq!(table[1], (0, 1));
        let sure = truth.players.iter().flatten().count() - 1;
        assert_eq!(table[5], (sure, sure));
    }
}
