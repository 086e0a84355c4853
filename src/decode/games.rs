//! Game cells decided by their rows (the legal patterns) and their
//! columns (the footer's sums), in two passes.

use super::*;

/// The game cells decided: each uncertain cell's values ranked by its row,
/// and what the columns concluded.
pub(super) fn decide_games(
    sheet: &mut SheetResult,
    ev: &Evidence,
) -> (BTreeMap<Field, Decoded>, Columns) {
    let mut decided: BTreeMap<Field, Decoded> = BTreeMap::new();
    let mut cols = Columns::default();
    // Game cells a first pass took: a second pass weighs the rows and
    // columns again with them as sure, so that a cell its column settled
    // lets its row settle the row's other cells (rows and columns are
    // decided one after the other, not jointly).
    let mut settled: BTreeMap<Field, i64> = BTreeMap::new();
    for _pass in 0..2 {
        let (decided_now, row_legal_now) = decide_rows(
            &sheet.games,
            &ev.by_field,
            &ev.legal,
            &is_uncertain,
            &settled,
        );
        decide_columns(sheet, &ev.by_field, &decided_now, &row_legal_now, &mut cols);
        let first = settled.is_empty();
        decided.extend(decided_now);
        let taken: BTreeMap<Field, i64> = cols
            .accepted
            .iter()
            .filter(|(f, _)| matches!(f, Field::Game(..)))
            .map(|(&f, &v)| (f, v))
            .collect();
        if !first || taken.is_empty() {
            break;
        }
        settled = taken;
    }
    accept_by_row(&decided, &ev.by_field, &mut cols);
    (decided, cols)
}

/// A row alone may confirm a reading: where the legal rows make the
/// reader's own best reading overwhelmingly likely ([`ACCEPT_ROW`]), it stands.
fn accept_by_row(
    decided: &BTreeMap<Field, Decoded>,
    by_field: &BTreeMap<Field, &FieldReading>,
    cols: &mut Columns,
) {
    for (f, d) in decided {
        if cols.accepted.contains_key(f) {
            continue;
        }
        let own = by_field
            .get(f)
            .and_then(|fr| fr.reading.value())
            .map(i64::from);
        if d.posterior >= ACCEPT_ROW
            && let Some(v) = d.value
            && Some(v) == own
            && !column_disagrees(cols, by_field, *f)
        {
            cols.accepted.insert(*f, v);
        }
    }
}

/// Whether a game cell's column, its open cells as their rows decode them,
/// more likely misses its Gesamt (read at even odds or better) than meets
/// it: a row's agreement is then no evidence for a doubtful reading, since
/// the writer's one shape may be misread in every seat of the row.
fn column_disagrees(cols: &Columns, by_field: &BTreeMap<Field, &FieldReading>, f: Field) -> bool {
    let Field::Game(_, s, m) = f else {
        return false;
    };
    let Some(gesamt) = by_field
        .get(&Field::Gesamt(s, m))
        .filter(|g| g.reading.confidence >= REPLACE_GESAMT_SUPPORT)
        .and_then(|g| g.reading.value())
    else {
        return false;
    };
    let Some(sums) = cols.sums.get(&(s, m)) else {
        return false;
    };
    let all: f64 = sums.values().sum();
    let meets = sums.get(&i64::from(gesamt)).copied().unwrap_or(0.0);
    all > 0.0 && meets / all < 0.5
}

/// How sure the decode must be of the reading without its first digit
/// to take that digit for a struck-out value. On the seed-7100 held-out
/// sets the three corrections no strike was found on read so ("64" for a
/// 6 struck and 4 written), the value without it at 0.997–0.999.
const STRUCK_READ: f64 = 0.99;

/// Whether `read` is the likeliest value with one glyph more in front: a
/// value struck out and read as a digit, which no strike detector saw.
/// The cell keeps its doubt and value; it is marked corrected, so the
/// row asks for the supervisor's initials.
pub(super) fn struck_digit_read(read: &str, d: &Decoded) -> bool {
    let Some(&(best, p)) = d.ranked.first() else {
        return false;
    };
    let best = best.to_string();
    p >= STRUCK_READ && read.len() == best.len() + 1 && read.get(1..) == Some(best.as_str())
}

/// Every game cell's reading kept in its notes, and a `CELL_UNCERTAIN`
/// for each uncertain one decoding did not take.
pub(super) fn game_flags(
    sheet: &mut SheetResult,
    ev: &Evidence,
    decided: &BTreeMap<Field, Decoded>,
    cols: &Columns,
) -> Vec<Flag> {
    let mut flags = Vec::new();
    for fr in &ev.readings.fields {
        let Field::Game(no, s, minus) = fr.field else {
            continue;
        };
        let cell = sheet
            .games
            .iter_mut()
            .find(|g| g.no == no)
            .and_then(|g| g.cells.get_mut(s - 1));
        let Some(d) = decided.get(&fr.field) else {
            let own = Decoded {
                value: None,
                posterior: 0.0,
                ranked: candidates(&fr.reading),
            };
            if let Some(c) = cell {
                c.notes.set_reading(minus, cell_reading(fr, &own, false));
            }
            continue;
        };
        let d = cols.with_column.get(&fr.field).unwrap_or(d);
        let taken = cols.accepted.contains_key(&fr.field);
        if let Some(c) = cell {
            c.notes.set_reading(minus, cell_reading(fr, d, taken));
            // A struck value read as a digit: the row's initials are asked.
            c.corrected |= !taken && struck_digit_read(&fr.reading.text, d);
        }
        if !taken {
            let (row, seat, name) = fr.field.locator();
            flags.push(uncertain_flag(
                row,
                seat,
                name,
                &fr.reading,
                &fr.what,
                Some(d),
                ev.lang,
            ));
        }
    }
    flags
}

/// What the columns concluded, over both passes.
#[derive(Default)]
pub(super) struct Columns {
    /// Game cells that stand (as read, or as the sheet demands).
    pub(super) accepted: BTreeMap<Field, i64>,
    /// Of those, the ones taken as another value than read.
    pub(super) replaced: BTreeMap<Field, i64>,
    /// Gesamt fields their whole column confirms as read.
    pub(super) confirms: BTreeMap<(usize, bool), (i64, f64)>,
    /// Every column's distribution of sums (one sum where no cell is open).
    pub(super) sums: ColumnSums,
    /// Each open cell's values weighed by its row and its column together.
    pub(super) with_column: BTreeMap<Field, Decoded>,
}

/// Columns: the uncertain cells of a column and its Gesamt are decided
/// together, each cell coming with its row's values (`decided`); cells
/// taken as another value are set in `sheet`.
pub(super) fn decide_columns(
    sheet: &mut SheetResult,
    by_field: &BTreeMap<Field, &FieldReading>,
    decided: &BTreeMap<Field, Decoded>,
    row_legal: &BTreeMap<Field, f64>,
    cols: &mut Columns,
) {
    // Columns: the uncertain cells of a column and its Gesamt are decided
    // together. A decoded value is taken without asking only when the
    // column's most likely assignment adds up to a Gesamt the reading
    // supports, and is overwhelmingly the most likely.
    for s in 1..=sheet.gesamt.len() {
        for m in [false, true] {
            let column = Column::of(sheet, decided, s, m);
            cols.sums.insert((s, m), column.total.clone());
            let Some(gesamt) = by_field.get(&Field::Gesamt(s, m)) else {
                continue;
            };
            if column.open.is_empty() {
                continue;
            }
            let g_cands = candidates(&gesamt.reading);
            let weight = |sum: i64| fits(&g_cands, sum);
            column.weigh_cells(&weight, cols);
            if column.best.is_empty() {
                continue;
            }
            let all: f64 = column.total.iter().map(|(sum, p)| p * weight(*sum)).sum();
            // The Gesamt as read, confirmed by every way its column may add
            // up (a cell read otherwise still goes to a person, and the
            // Gesamt is checked again against what the person confirms).
            if let Some(&(read, p_read)) = g_cands.first()
                && p_read >= GESAMT_SUPPORT
            {
                let sums_to_read = column.total.get(&read).copied().unwrap_or(0.0) * weight(read);
                let p_sum = sums_to_read / all.max(f64::MIN_POSITIVE);
                if p_sum >= ACCEPT {
                    cols.confirms.insert((s, m), (read, p_sum));
                }
            }
            column.take_best(sheet, by_field, gesamt, &g_cands, all, cols);
            if g_cands.first().is_some_and(|g| g.1 >= GESAMT_SUPPORT) {
                column.take_row_sure(by_field, row_legal, cols);
            }
        }
    }
    replace(sheet, &cols.replaced);
}

/// One seat's Plus or Minus column of game cells.
struct Column<'d> {
    seat: usize,
    minus: bool,
    /// The sum of its surely read cells.
    fixed: i64,
    /// Its uncertain cells with their row-decoded values.
    open: Vec<(Field, &'d Decoded)>,
    /// Over the column's possible sums: the total probability.
    total: BTreeMap<i64, f64>,
    /// The best assignment reaching each sum, with its values.
    best: BTreeMap<i64, (f64, Vec<i64>)>,
}

impl<'d> Column<'d> {
    fn of(sheet: &SheetResult, decided: &'d BTreeMap<Field, Decoded>, s: usize, m: bool) -> Self {
        let mut fixed = 0i64;
        let mut open: Vec<(Field, &Decoded)> = Vec::new();
        for g in &sheet.games {
            let Some(c) = g.cells.get(s - 1) else {
                continue;
            };
            let Some(v) = (if m { c.minus } else { c.plus }) else {
                continue;
            };
            let f = Field::Game(g.no, s, m);
            match decided.get(&f) {
                Some(d) => open.push((f, d)),
                None => fixed += i64::from(v),
            }
        }
        let mut total: BTreeMap<i64, f64> = BTreeMap::from([(fixed, 1.0)]);
        let mut best: BTreeMap<i64, (f64, Vec<i64>)> = BTreeMap::from([(fixed, (1.0, Vec::new()))]);
        for (_, d) in &open {
            let mut t2: BTreeMap<i64, f64> = BTreeMap::new();
            let mut b2: BTreeMap<i64, (f64, Vec<i64>)> = BTreeMap::new();
            for &(v, q) in d.ranked.iter().take(WEIGHED) {
                for (sum, p) in &total {
                    *t2.entry(sum + v).or_default() += p * q;
                }
                for (sum, (p, vs)) in &best {
                    let e = b2.entry(sum + v).or_insert((0.0, Vec::new()));
                    if p * q > e.0 {
                        let mut vs = vs.clone();
                        vs.push(v);
                        *e = (p * q, vs);
                    }
                }
            }
            total = t2;
            best = b2;
        }
        Column {
            seat: s,
            minus: m,
            fixed,
            open,
            total,
            best,
        }
    }

    /// Each open cell's values weighed by its row and its column together:
    /// what a person is shown and the rule flags are judged by.
    fn weigh_cells(&self, weight: &dyn Fn(i64) -> f64, cols: &mut Columns) {
        for (i, (f, d)) in self.open.iter().enumerate() {
            let others: Vec<&Decoded> = self
                .open
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, o)| o.1)
                .collect();
            let ranked = d
                .ranked
                .iter()
                .take(WEIGHED)
                .map(|&(v, _)| (v, column_marginal(self.fixed, &others, d, v, weight)))
                .collect();
            cols.with_column.insert(*f, Decoded::from_ranked(ranked));
        }
    }

    /// Of the column's best assignment, the cells read so are taken. A
    /// cell it reads otherwise goes to a person with the suggestion, unless
    /// its row allows the value ([`row_allows`]) and the column, its Gesamt
    /// supporting the sum, makes it overwhelmingly likely ([`REPLACE`]),
    /// and it drops none of the digits read ([`keeps_the_ink`]): then the
    /// reader misread it, and the value the sheet demands is taken.
    fn take_best(
        &self,
        sheet: &SheetResult,
        by_field: &BTreeMap<Field, &FieldReading>,
        gesamt: &FieldReading,
        g_cands: &[(i64, f64)],
        all: f64,
        cols: &mut Columns,
    ) {
        let weight = |sum: i64| fits(g_cands, sum);
        let Some((sum, (p, values))) = self
            .best
            .iter()
            .max_by(|a, b| (a.1.0 * weight(*a.0)).total_cmp(&(b.1.0 * weight(*b.0))))
        else {
            return;
        };
        let posterior = p * weight(*sum) / all.max(f64::MIN_POSITIVE);
        if prob(g_cands, *sum) < GESAMT_SUPPORT {
            return;
        }
        // The whole assignment stands where it is overwhelming; a cell may
        // also be taken on its own probability in the column, however the
        // column's other open cells are read.
        let whole = posterior >= ACCEPT;
        // Only a Gesamt whose best reading is the sum, or whose Endergebnis
        // or Abzug as read the sum explains, may overrule a reading.
        let gesamt_sure = (gesamt.reading.confidence >= REPLACE_GESAMT_SUPPORT
            && gesamt.reading.value().map(i64::from) == Some(*sum))
            || footer_confirms(by_field, sheet, self.seat, self.minus, *sum);
        for ((f, d), v) in self.open.iter().zip(values) {
            let top = by_field.get(f).and_then(|fr| fr.reading.value());
            if whole && top.map(i64::from) == Some(*v) {
                cols.accepted.insert(*f, *v);
            } else if top.map(i64::from) != Some(*v)
                && ((whole && posterior >= REPLACE) || in_column(cols, f, *v) >= REPLACE)
                && gesamt_sure
                && row_allows(d, by_field.get(f).copied(), *v)
                && keeps_the_ink(by_field.get(f).copied(), *v)
            {
                cols.accepted.insert(*f, *v);
                cols.replaced.insert(*f, *v);
            }
        }
    }

    /// A cell read as its row has it stands also where its column adds up
    /// with it as read, however the column's other open cells are read (its
    /// own marginal), even if none of their assignments is sure enough to
    /// stand whole.
    fn take_row_sure(
        &self,
        by_field: &BTreeMap<Field, &FieldReading>,
        row_legal: &BTreeMap<Field, f64>,
        cols: &mut Columns,
    ) {
        let covered = |o: &Decoded| o.ranked.iter().take(WEIGHED).map(|v| v.1).sum::<f64>();
        for (i, (f, d)) in self.open.iter().enumerate() {
            let read = by_field
                .get(f)
                .and_then(|fr| fr.reading.value())
                .map(i64::from);
            // The row must make the reading likely by itself, as a legal
            // pattern (not merely the reader's best among illegal ones), and
            // the other open cells' listed readings must cover nearly all of
            // their probability (the sums of readings left out are not weighed).
            let row_sure = d.posterior >= ACCEPT && row_legal.get(f).is_some_and(|&p| p >= ACCEPT);
            let Some(read) = read.filter(|r| d.value == Some(*r) && row_sure) else {
                continue;
            };
            if self
                .open
                .iter()
                .enumerate()
                .any(|(j, o)| j != i && covered(o.1) < ACCEPT)
            {
                continue;
            }
            if !cols.accepted.contains_key(f) && in_column(cols, f, read) >= ACCEPT {
                cols.accepted.insert(*f, read);
            }
        }
    }
}

/// A cell's own probability in the column, however the column's other
/// open cells are read ([`Column::weigh_cells`]).
fn in_column(cols: &Columns, f: &Field, v: i64) -> f64 {
    cols.with_column
        .get(f)
        .map_or(0.0, |c| listed(&c.ranked, v))
}

/// The game cells decoding replaced hold the value the sheet demands.
fn replace(sheet: &mut SheetResult, replaced: &BTreeMap<Field, i64>) {
    for (f, v) in replaced {
        if let Field::Game(no, s, m) = *f
            && let Some(c) = sheet
                .games
                .iter_mut()
                .find(|g| g.no == no)
                .and_then(|g| g.cells.get_mut(s - 1))
        {
            let target = if m { &mut c.minus } else { &mut c.plus };
            *target = u32::try_from(*v).ok();
        }
    }
}

/// A row's likeliest assignments (at most 400) of its cells' values with
/// their probability by the reader: each confident cell as read, each
/// uncertain one as its candidates and the values the row's confident
/// cells suggest for it, weighed with its power in `weights` (cells
/// sharing one doubt are one witness, [`witness`]).
fn row_hypotheses(cells: &[RowCell], weights: &[f64]) -> Vec<(Vec<i64>, f64)> {
    // Values the row's confident cells suggest for the others.
    let sure: Vec<i64> = cells
        .iter()
        .filter(|c| !c.3)
        .filter_map(|c| c.2.first().map(|v| v.0.abs()))
        .collect();
    let options: Vec<Vec<(i64, f64)>> = cells
        .iter()
        .zip(weights)
        .map(|((_, sign, c, unsure), &power)| {
            if !unsure {
                return c.iter().take(1).map(|&(v, _)| (v, 1.0)).collect();
            }
            let mut o: Vec<(i64, f64)> = c.iter().take(4).copied().collect();
            for &v in &sure {
                for w in [v, 3 * v, v / 3, 2 * v] {
                    let w = sign * w;
                    if w != 0 && !o.iter().any(|x| x.0 == w) {
                        o.push((w, prob(c, w)));
                    }
                }
            }
            o.into_iter().map(|(v, q)| (v, q.powf(power))).collect()
        })
        .collect();
    let mut hyps: Vec<(Vec<i64>, f64)> = vec![(Vec::new(), 1.0)];
    for o in &options {
        hyps = hyps
            .into_iter()
            .flat_map(|(vs, p)| {
                o.iter().map(move |&(v, q)| {
                    let mut vs = vs.clone();
                    vs.push(v);
                    (vs, p * q)
                })
            })
            .collect();
        hyps.sort_by(|a, b| b.1.total_cmp(&a.1));
        hyps.truncate(400);
    }
    hyps
}

/// Rows: each uncertain game cell's values weighed by the reader and by
/// how legal its row is with them (cells in `settled` as sure). Returns
/// the cells' decoded values and, per cell, how likely its row is legal.
pub(super) fn decide_rows(
    games: &[GameRow],
    by_field: &BTreeMap<Field, &FieldReading>,
    legal: &HashSet<Vec<i64>>,
    uncertain: &dyn Fn(&FieldReading) -> bool,
    settled: &BTreeMap<Field, i64>,
) -> (BTreeMap<Field, Decoded>, BTreeMap<Field, f64>) {
    let mut decided: BTreeMap<Field, Decoded> = BTreeMap::new();
    let mut row_legal: BTreeMap<Field, f64> = BTreeMap::new();
    // Rows: hypotheses are the uncertain cells' candidates (and the values the
    // row's other cells suggest), weighed by the reader and by legality.
    for g in games {
        let cells: Vec<RowCell> = g
            .cells
            .iter()
            .enumerate()
            .flat_map(|(s, c)| {
                [(false, c.plus), (true, c.minus)]
                    .into_iter()
                    .filter_map(move |(m, v)| v.map(|_| (Field::Game(g.no, s + 1, m), m)))
            })
            .filter_map(|(f, m)| {
                let fr = by_field.get(&f)?;
                let sign = if m { -1 } else { 1 };
                if let Some(&v) = settled.get(&f) {
                    return Some((f, sign, vec![(sign * v, 1.0)], false));
                }
                let c: Vec<(i64, f64)> = candidates(&fr.reading)
                    .into_iter()
                    .map(|(v, p)| (sign * v, p))
                    .collect();
                Some((f, sign, c, uncertain(fr)))
            })
            .collect();
        if !cells.iter().any(|c| c.3) {
            continue;
        }
        let doubts: Vec<Option<(u8, u8)>> = cells
            .iter()
            .map(|c| {
                let fr = by_field.get(&c.0).filter(|_| c.3)?;
                witness::doubt_between(&fr.reading)
            })
            .collect();
        let mut hyps = row_hypotheses(&cells, &witness::weights(&doubts));
        let mut legal_mass = 0.0;
        for h in &mut hyps {
            if legal.contains(&key(h.0.iter().copied())) {
                legal_mass += h.1;
            } else {
                h.1 *= WRITER_ERROR;
            }
        }
        let total: f64 = hyps.iter().map(|h| h.1).sum();
        if total <= 0.0 {
            continue;
        }
        for c in cells.iter().filter(|c| c.3) {
            row_legal.insert(c.0, legal_mass / total);
        }
        for (i, (f, _, _, unsure)) in cells.iter().enumerate() {
            if !unsure {
                continue;
            }
            let mut marginal: BTreeMap<i64, f64> = BTreeMap::new();
            for (vs, p) in &hyps {
                *marginal.entry(vs[i]).or_default() += p / total;
            }
            let ranked: Vec<(i64, f64)> = marginal.into_iter().map(|(v, p)| (v.abs(), p)).collect();
            decided.insert(*f, Decoded::from_ranked(ranked));
        }
    }
    (decided, row_legal)
}
