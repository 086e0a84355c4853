//! `desk`: a supervisor works through a scanned night's questions, each
//! answered truthfully from the generator's truth, then every value a flag
//! still points at; the decisions a sheet, the questions that held cells
//! the paper writes differently, the time an answer takes, and what still
//! differs from the paper are printed.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use serde_json::Value;

use aufsicht::catalogue::Tell;
use aufsicht::night::club::archive::{Archive, StoredSheet};
use aufsicht::night::desk::questions::Question;
use aufsicht::night::desk::questions::teach::{Asking, Given, Night};
use aufsicht::night::ledger::WriterSeats;
use aufsicht::page::form::FormTemplate;
use aufsicht::read::{DigitReader, PrintReader};
use aufsicht::record::Decision;
use aufsicht::record::answer::get;
use aufsicht::sheet::{SheetResult, ValuePath};
use aufsicht::{Lang, RuleSet};

use super::stdout_line;

/// The arguments of `desk`.
#[derive(clap::Args)]
pub struct DeskArgs {
    /// The archive the night was scanned into (`aufsicht scan --archive`).
    #[arg(long)]
    pub archive: PathBuf,
    /// The generator's truth of the night's scans.
    #[arg(long)]
    pub truth: PathBuf,
    #[arg(long)]
    pub rules: String,
    /// The night (name or date); default the newest.
    #[arg(long)]
    pub tournament: Option<String>,
    /// Where the Schreiber sits on every sheet.
    #[arg(long, default_value_t = 1)]
    pub writer_seat: usize,
}

/// What the supervisor did and found.
#[derive(Default)]
struct Tally {
    sheets: usize,
    questions: usize,
    taken_out: usize,
    mixed: usize,
    flagged_after: usize,
    misread_after: usize,
    answer_times: Vec<Duration>,
    silent_before: usize,
    differ_after: usize,
}

pub fn run(a: DeskArgs, lang: Lang) -> Result<()> {
    let told = |e: &dyn Tell| anyhow::anyhow!(e.tell(lang));
    let rules = RuleSet::load(&a.rules).map_err(|e| told(&e))?;
    let archive = Archive::open(&a.archive).map_err(|e| told(&e))?;
    let night_id = (archive.pick_tournament(a.tournament.as_deref())).map_err(|e| told(&e))?;
    let kept = archive.forms().map_err(|e| told(&e))?;
    let forms = aufsicht::night::club::archive::with_kept(&FormTemplate::builtins(), kept);
    let seats = WriterSeats::all_on(a.writer_seat);
    let check = |sheet| aufsicht::verify(sheet, &rules, lang);
    let night = Night {
        id: night_id,
        seats: &seats,
        forms: &forms,
        rules: &rules,
        check: &check,
        lang,
    };
    let truth = truths(&a.truth, &archive.sheets(night_id).map_err(|e| told(&e))?)?;
    let mut tally = Tally {
        sheets: truth.len(),
        ..Tally::default()
    };
    for (id, paper) in &truth {
        tally.silent_before += silent(&sheet(&archive, *id)?.result, paper);
    }
    let archive = std::sync::Mutex::new(archive);
    let mut digits = aufsicht::read::cnn::CnnReader::new().map_err(|e| told(&e))?;
    let mut printed = aufsicht::read::print_reader().map_err(|e| told(&e))?;
    let asking = Asking::default();
    let mut questions = asking.questions(&archive, &night).map_err(|e| told(&e))?;
    while let Some(q) = questions.first().cloned() {
        tally.questions += 1;
        let (all, apart) = answers(&q, &truth);
        tally.mixed += usize::from(!apart.is_empty());
        tally.taken_out += apart.len();
        // The cells taken out are answered apart, together; the rest with one key.
        let rest: Vec<_> = (q.cells.iter())
            .filter(|c| !apart.iter().any(|(s, p, _)| *s == c.sheet && *p == c.path))
            .map(|c| (c.sheet, c.path, all.clone()))
            .collect();
        let given = if apart.is_empty() {
            Given::All(all)
        } else {
            Given::Cells(apart.into_iter().chain(rest).collect())
        };
        let clock = Instant::now();
        let readers: (&mut dyn DigitReader, &mut dyn PrintReader) = (&mut digits, &mut *printed);
        questions = (asking.answer(&archive, &night, readers, (&q.id, "SV"), given))
            .map_err(|e| told(&e))?;
        tally.answer_times.push(clock.elapsed());
    }
    let mut archive = archive.into_inner().unwrap_or_else(|p| p.into_inner());
    for (id, paper) in &truth {
        // Until no flag points at a value the paper says otherwise.
        for _ in 0..4 {
            let (looks, misread) = review_flags(&mut archive, &night, *id, paper)?;
            tally.flagged_after += looks;
            tally.misread_after += misread;
            if misread == 0 {
                break;
            }
        }
        tally.differ_after += differing(&sheet(&archive, *id)?.result, paper).len();
    }
    for line in tally.lines() {
        stdout_line(&line);
    }
    Ok(())
}

/// The truth of every readable sheet of the night, by its archive id (a
/// scan's truth is the truth file of its stem).
fn truths(dir: &Path, sheets: &[StoredSheet]) -> Result<BTreeMap<i64, SheetResult>> {
    let mut out = BTreeMap::new();
    for s in sheets {
        let stem = Path::new(s.result.source.as_deref().unwrap_or_default())
            .file_stem()
            .map(|x| x.to_string_lossy().to_string())
            .unwrap_or_default();
        let file = dir.join(format!("{stem}.json"));
        let text = std::fs::read_to_string(&file).with_context(|| file.display().to_string())?;
        let truth = SheetResult::from_json(&file.display().to_string(), &text)
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        if s.result.status != aufsicht::sheet::Status::Unreadable {
            out.insert(s.id, truth);
        }
    }
    Ok(out)
}

fn sheet(archive: &Archive, id: i64) -> Result<StoredSheet> {
    archive
        .sheet_anywhere(id)
        .map_err(|e| anyhow::anyhow!(e.tell(Lang::En)))?
        .map(|(_, s)| s)
        .context("sheet gone")
}

/// What the paper says at each of the question's cells: the value most
/// of them hold (answered with one key) and each other cell apart.
fn answers(
    q: &Question,
    truth: &BTreeMap<i64, SheetResult>,
) -> (Value, Vec<(i64, ValuePath, Value)>) {
    let paper = |c: &aufsicht::night::desk::questions::Doubt| {
        truth.get(&c.sheet).map_or(Value::Null, |t| get(t, c.path))
    };
    let mut votes: BTreeMap<String, (usize, Value)> = BTreeMap::new();
    for c in &q.cells {
        let v = paper(c);
        votes.entry(v.to_string()).or_insert((0, v)).0 += 1;
    }
    let most = votes.into_values().max_by_key(|(n, _)| *n).map(|(_, v)| v);
    let most = most.unwrap_or(Value::Null);
    let apart = (q.cells.iter())
        .filter(|c| paper(c) != most)
        .map(|c| (c.sheet, c.path, paper(c)))
        .collect();
    (most, apart)
}

/// Every value a flag of sheet `id` still points at is looked at (a
/// row's flag points at the row): where the paper says otherwise, a
/// person's answer sets it. The looks, and those of them that found a
/// reading wrong.
fn review_flags(
    archive: &mut Archive,
    night: &Night,
    id: i64,
    paper: &SheetResult,
) -> Result<(usize, usize)> {
    let stored = sheet(archive, id)?;
    let mut looks: Vec<Vec<ValuePath>> = Vec::new();
    let flags =
        (stored.result.flags.iter()).flat_map(|f| std::iter::once(f).chain(&f.detail.consequences));
    for f in flags {
        let look = match (ValuePath::of_flag(f), f.row) {
            (Some(p), _) => vec![p],
            (None, Some(no)) => row_paths(paper, no),
            (None, None) => continue,
        };
        if !looks.contains(&look) {
            looks.push(look);
        }
    }
    let wrong = |p: &ValuePath| get(&stored.result, *p) != get(paper, *p);
    let misread = looks.iter().filter(|l| l.iter().any(wrong)).count();
    let mut decisions: Vec<Decision> = Vec::new();
    for p in looks.iter().flatten().filter(|p| wrong(p)) {
        let d = Decision::Paper {
            path: p.to_string(),
            value: get(paper, *p),
        };
        if !decisions.contains(&d) {
            decisions.push(d);
        }
    }
    if !decisions.is_empty() {
        archive
            .decide(id, "SV", &decisions, None, night.check)
            .map_err(|e| anyhow::anyhow!(e.tell(Lang::En)))?;
    }
    Ok((looks.len(), misread))
}

/// Every cell of game row `no`.
fn row_paths(paper: &SheetResult, no: u32) -> Vec<ValuePath> {
    use aufsicht::sheet::Column;
    let seats = paper
        .games
        .iter()
        .find(|g| g.no == no)
        .map_or(0, |g| g.cells.len());
    (1..=seats)
        .flat_map(|seat| {
            [Column::Plus, Column::Minus].map(|column| ValuePath::Game { no, seat, column })
        })
        .collect()
}

/// The values where the sheet and the paper differ.
fn differing(sheet: &SheetResult, paper: &SheetResult) -> Vec<ValuePath> {
    let mut paths = ValuePath::numbers_of(paper);
    paths.extend((1..=paper.players.len()).map(ValuePath::Player));
    paths
        .into_iter()
        .filter(|p| get(sheet, *p) != get(paper, *p))
        .collect()
}

/// The values that differ from the paper with no flag naming them, their
/// row, or their seat's footer (as `evaluate` counts silent errors).
fn silent(sheet: &SheetResult, paper: &SheetResult) -> usize {
    let flags: Vec<&aufsicht::Flag> = (sheet.flags.iter())
        .flat_map(|f| std::iter::once(f).chain(&f.detail.consequences))
        .collect();
    let named = |p: &ValuePath| {
        flags.iter().any(|f| {
            p.is_cell_of(f)
                || match *p {
                    ValuePath::Game { no, .. } => f.row == Some(no) && f.seat.is_none(),
                    ValuePath::Gesamt { seat, .. }
                    | ValuePath::Abzug(seat)
                    | ValuePath::Endergebnis(seat) => f.row.is_none() && f.seat == Some(seat),
                    _ => false,
                }
        })
    };
    differing(sheet, paper).iter().filter(|p| !named(p)).count()
}

impl Tally {
    fn lines(&self) -> Vec<String> {
        let per = |n: usize| n as f64 / self.sheets.max(1) as f64;
        let mut times = self.answer_times.clone();
        times.sort();
        let median = times
            .get(times.len() / 2)
            .map_or(0.0, Duration::as_secs_f64);
        let decisions = self.questions + self.taken_out + self.misread_after;
        vec![
            format!(
                "sheets {}  reading decisions per sheet {:.2} (questions {:.2}, cells taken out {:.2}, flags after them that found a misreading {:.2})",
                self.sheets,
                per(decisions),
                per(self.questions),
                per(self.taken_out),
                per(self.misread_after)
            ),
            format!(
                "looks at flags after the questions per sheet {:.2} (a value, or a row)",
                per(self.flagged_after)
            ),
            format!(
                "questions holding cells the paper writes differently {:.1}% ({}/{})",
                100.0 * self.mixed as f64 / self.questions.max(1) as f64,
                self.mixed,
                self.questions
            ),
            format!(
                "answers {}  median {:.2} s  slowest {:.2} s",
                times.len(),
                median,
                times.last().map_or(0.0, Duration::as_secs_f64)
            ),
            format!(
                "values wrong without a flag before review {}  values differing from the paper after review {}",
                self.silent_before, self.differ_after
            ),
        ]
    }
}
