//! A blank form's frame: from its ruled lines, the game table (seat
//! columns with their plus and minus halves, the label and Aufs. columns,
//! the header, game and footer rows), the player block above it, the round
//! and table boxes, and the signature boxes below. By the table's shape
//! alone: a row is told by where it lies, not by what it says.

use super::NotAForm;
use super::ruling::{Rule, Ruling};

/// How far apart two positions (mm) may lie and be one.
const TOL: f64 = 1.5;
/// A game table has at least a header, a few game rows and three footer rows.
const MIN_TABLE_LINES: usize = 8;
/// A ruled line of the table runs at least this far (mm).
const MIN_TABLE_MM: f64 = 60.0;
/// How close (mm) to the image's edge a line ends where the page is cut off.
const EDGE_MM: f64 = 1.0;

/// How close (mm) to the picture's edge band a line ends where the
/// picture cut it.
const PICTURE_EDGE_MM: f64 = 0.5;

/// A span between two ruled lines, in mm: `[from, to)`.
pub type Span = (f64, f64);

/// Where everything of a form lies, in mm, found on its blank.
#[derive(Debug, Clone)]
pub struct Frame {
    pub left: f64,
    pub right: f64,
    /// The label column's right edge (the first seat's left).
    pub label_right: f64,
    /// Seat boundaries: `seats + 1` of them, left to right.
    pub seat_x: Vec<f64>,
    /// Each seat's line between its plus and its minus half.
    pub split_x: Vec<f64>,
    /// The Aufs. column.
    pub check: Span,
    pub header: Span,
    pub games: Vec<Span>,
    pub gesamt: Span,
    pub abzug: Span,
    pub end: Span,
    /// The player block's rows: its header (where printed), the
    /// Teilnehmer-Nr., the name, and any below (a Wohnort).
    pub block_rows: Vec<Span>,
    pub block_header: bool,
    /// The player block's seat boundaries (usually the table's).
    pub block_seat_x: Vec<f64>,
    /// The round and table boxes, `[x, y, w, h]`, left to right.
    pub boxes: Vec<[f64; 4]>,
    pub signature: Span,
    /// Every ruled line the frame is made of: `[x1, y1, x2, y2, width]`.
    pub lines: Vec<[f64; 5]>,
}

impl Frame {
    pub fn seats(&self) -> usize {
        self.split_x.len()
    }

    /// The frame of the form whose ruled lines are `ruling`'s.
    ///
    /// A page whose table the picture's edge cuts is refused as cut off:
    /// at once where the table's own lines run into it, else where no
    /// frame is found and lines of it run into the picture's edge.
    pub fn of(ruling: &Ruling) -> Result<Self, NotAForm> {
        let table = table_lines(&ruling.horizontal).ok_or(NotAForm::NoTable)?;
        cut_off(&table, ruling)?;
        Self::around(&table, ruling)
            .map_err(|why| runs_off(&table, ruling).map_or(why, NotAForm::CutOff))
    }

    /// The frame around the game table whose horizontal lines are `table`.
    fn around(table: &[Rule], ruling: &Ruling) -> Result<Self, NotAForm> {
        let (left, right) = (table[0].from, table[0].to);
        let (top, bottom) = (table[0].at, table[table.len() - 1].at);
        let (full, splits) = table_verticals(&ruling.vertical, left, right, top, bottom);
        let columns = Columns::of(&full, &splits)?;
        let rows = Rows::of(table, &splits)?;
        let mut lines: Vec<[f64; 5]> = Vec::new();
        lines.extend(table.iter().map(horizontal));
        lines.extend(full.iter().chain(&splits).map(vertical));
        let block = PlayerBlock::of(ruling, left, top, &columns.seat_x)?;
        lines.extend(block.lines.iter().copied());
        let (boxes, box_lines) = round_and_table(ruling, block.rows[0].0);
        if boxes.len() < 2 {
            return Err(NotAForm::NoRoundAndTable);
        }
        lines.extend(box_lines);
        let (signature, sig_lines) =
            signature(ruling, bottom, &columns.seat_x).ok_or(NotAForm::NoSignatures)?;
        lines.extend(sig_lines);
        Ok(Frame {
            left,
            right,
            label_right: columns.seat_x[0],
            seat_x: columns.seat_x,
            split_x: columns.split_x,
            check: columns.check,
            header: rows.header,
            games: rows.games,
            gesamt: rows.gesamt,
            abzug: rows.abzug,
            end: rows.end,
            block_rows: block.rows,
            block_header: block.header,
            block_seat_x: block.seat_x,
            boxes,
            signature,
            lines,
        })
    }
}

fn horizontal(r: &Rule) -> [f64; 5] {
    [r.from, r.at, r.to, r.at, r.width]
}

fn vertical(r: &Rule) -> [f64; 5] {
    [r.at, r.from, r.at, r.to, r.width]
}

fn near(a: f64, b: f64) -> bool {
    (a - b).abs() < TOL
}

/// Lines sorted across, one kept of those less than a mm apart (a thick
/// line's two edges found as two).
fn sorted_apart<R: std::ops::Deref<Target = Rule>>(lines: &mut Vec<R>) {
    lines.sort_by(|a, b| a.at.total_cmp(&b.at));
    lines.dedup_by(|b, a| b.at - a.at < 1.0);
}

/// The game table's horizontal lines, top to bottom: the largest stack of
/// long lines that begin and end alike, without a gap much wider than its
/// rows (a player block as wide as the table is a stack of its own).
fn table_lines(rules: &[Rule]) -> Option<Vec<Rule>> {
    let long: Vec<&Rule> = rules.iter().filter(|r| r.len() >= MIN_TABLE_MM).collect();
    let stack_of = |r: &Rule| -> Vec<Rule> {
        let mut alike: Vec<&Rule> = long
            .iter()
            .filter(|o| near(o.from, r.from) && near(o.to, r.to))
            .copied()
            .collect();
        sorted_apart(&mut alike);
        largest_run(alike.into_iter().copied().collect())
    };
    let best = long
        .iter()
        .map(|r| stack_of(r))
        .max_by(|a, b| a.len().cmp(&b.len()))?;
    (best.len() >= MIN_TABLE_LINES).then_some(best)
}

/// The longest run of `lines` (sorted) whose gaps stay under 2.5 times the
/// median gap.
fn largest_run(lines: Vec<Rule>) -> Vec<Rule> {
    if lines.len() < 3 {
        return lines;
    }
    let mut gaps: Vec<f64> = lines.windows(2).map(|w| w[1].at - w[0].at).collect();
    gaps.sort_by(f64::total_cmp);
    let limit = gaps[gaps.len() / 2] * 2.5;
    let mut best: &[Rule] = &[];
    let mut start = 0;
    for i in 1..=lines.len() {
        if i == lines.len() || lines[i].at - lines[i - 1].at > limit {
            if i - start > best.len() {
                best = &lines[start..i];
            }
            start = i;
        }
    }
    best.to_vec()
}

/// A page cut off at one edge: the table's lines run into the page's
/// edge, or into the picture's where the page was turned to straighten it.
fn cut_off(table: &[Rule], ruling: &Ruling) -> Result<(), NotAForm> {
    use super::Edge;
    let [w, h] = ruling.page_mm;
    let (left, right) = (table[0].from, table[0].to);
    if left < EDGE_MM {
        return Err(NotAForm::CutOff(Edge::Left));
    }
    if right > w - EDGE_MM {
        return Err(NotAForm::CutOff(Edge::Right));
    }
    // The table's own verticals, from its top line running out at the
    // bottom, or from its bottom line running out at the top.
    let (top, bottom) = (table[0].at, table[table.len() - 1].at);
    let inside = |r: &&Rule| r.at > left - TOL && r.at < right + TOL;
    let mut own = ruling.vertical.iter().filter(inside);
    if own.clone().any(|r| near(r.from, top) && r.to > h - EDGE_MM) {
        return Err(NotAForm::CutOff(Edge::Bottom));
    }
    if own.any(|r| near(r.to, bottom) && r.from < EDGE_MM) {
        return Err(NotAForm::CutOff(Edge::Top));
    }
    // Where the page was turned to straighten it, the picture's edge runs
    // across it.
    let ends = table.iter().flat_map(|r| [(r.from, r.at), (r.to, r.at)]);
    match picture_edge(ruling, ends) {
        Some(edge) => Err(NotAForm::CutOff(edge)),
        None => Ok(()),
    }
}

/// The picture's edge that lines of the table run into: its verticals
/// from its top, and rows ruled from its sides as far down as those reach.
fn runs_off(table: &[Rule], ruling: &Ruling) -> Option<super::Edge> {
    let (left, right) = (table[0].from, table[0].to);
    let (top, bottom) = (table[0].at, table[table.len() - 1].at);
    let from_top: Vec<&Rule> = ruling
        .vertical
        .iter()
        .filter(|r| r.at > left - TOL && r.at < right + TOL && near(r.from, top))
        .collect();
    let lowest = from_top.iter().map(|r| r.to).fold(bottom, f64::max);
    let row = |r: &&Rule| {
        (near(r.from, left) || near(r.to, right)) && r.at > top - TOL && r.at < lowest + TOL
    };
    let ends = from_top.iter().map(|r| (r.at, r.to)).chain(
        ruling
            .horizontal
            .iter()
            .filter(row)
            .flat_map(|r| [(r.from, r.at), (r.to, r.at)]),
    );
    picture_edge(ruling, ends)
}

/// The picture's edge the first of `ends` (mm) lies in.
fn picture_edge(
    ruling: &Ruling,
    mut ends: impl Iterator<Item = (f64, f64)>,
) -> Option<super::Edge> {
    let px = ruling.px_per_mm;
    ends.find_map(|(x, y)| ruling.edges.near((x * px, y * px), PICTURE_EDGE_MM * px))
}

/// The table's vertical lines: those from its top to its bottom, and the
/// plus/minus splits, from its top to above its bottom (they end at the
/// Abzug row).
fn table_verticals(
    rules: &[Rule],
    left: f64,
    right: f64,
    top: f64,
    bottom: f64,
) -> (Vec<Rule>, Vec<Rule>) {
    let inside = rules
        .iter()
        .filter(|r| r.at > left - TOL && r.at < right + TOL && near(r.from, top));
    let mut full: Vec<&Rule> = inside.clone().filter(|r| near(r.to, bottom)).collect();
    let mut splits: Vec<&Rule> = inside
        .filter(|r| r.to < bottom - TOL && r.to > (top + bottom) / 2.0)
        .collect();
    sorted_apart(&mut full);
    sorted_apart(&mut splits);
    let owned = |lines: Vec<&Rule>| lines.into_iter().copied().collect();
    (owned(full), owned(splits))
}

/// The table's columns: the label column, the seats (each split once into
/// plus and minus), the Aufs. column.
struct Columns {
    seat_x: Vec<f64>,
    split_x: Vec<f64>,
    check: Span,
}

impl Columns {
    fn of(full: &[Rule], splits: &[Rule]) -> Result<Self, NotAForm> {
        let xs: Vec<f64> = full.iter().map(|r| r.at).collect();
        if xs.len() < 4 {
            return Err(NotAForm::NoSeats);
        }
        let inside = |a: f64, b: f64| -> Vec<f64> {
            splits
                .iter()
                .map(|s| s.at)
                .filter(|&x| x > a + TOL && x < b - TOL)
                .collect()
        };
        let mut seat_x = vec![xs[1]];
        let mut split_x = Vec::new();
        if !inside(xs[0], xs[1]).is_empty() {
            return Err(NotAForm::NoSeats);
        }
        let mut i = 1;
        while i + 1 < xs.len() {
            match inside(xs[i], xs[i + 1])[..] {
                [split] => {
                    split_x.push(split);
                    seat_x.push(xs[i + 1]);
                }
                _ => break,
            }
            i += 1;
        }
        if split_x.len() < 2 {
            return Err(NotAForm::NoSeats);
        }
        // What is right of the seats is the Aufs. column: one, unsplit.
        if i + 2 != xs.len() || !inside(xs[i], xs[i + 1]).is_empty() {
            return Err(NotAForm::NoCheckColumn);
        }
        Ok(Columns {
            seat_x,
            split_x,
            check: (xs[i], xs[i + 1]),
        })
    }
}

/// The table's rows: the header, the games, Gesamt (still split into plus
/// and minus), then Abzug and Endergebnis (where the splits have ended).
struct Rows {
    header: Span,
    games: Vec<Span>,
    gesamt: Span,
    abzug: Span,
    end: Span,
}

impl Rows {
    fn of(table: &[Rule], splits: &[Rule]) -> Result<Self, NotAForm> {
        let mut ends: Vec<f64> = splits.iter().map(|s| s.to).collect();
        ends.sort_by(f64::total_cmp);
        let split_end = *ends.get(ends.len() / 2).ok_or(NotAForm::NoSeats)?;
        let ys: Vec<f64> = table.iter().map(|r| r.at).collect();
        let k = ys
            .iter()
            .position(|&y| near(y, split_end))
            .ok_or(NotAForm::NoFooter)?;
        // Abzug and Endergebnis below the splits' end, and nothing more.
        if k < 3 || ys.len() != k + 3 {
            return Err(NotAForm::NoFooter);
        }
        let span = |i: usize| (ys[i], ys[i + 1]);
        Ok(Rows {
            header: span(0),
            games: (1..k - 1).map(span).collect(),
            gesamt: span(k - 1),
            abzug: span(k),
            end: span(k + 1),
        })
    }
}

/// The player block above the table: rows ruled from the table's left
/// edge, and its seat columns.
struct PlayerBlock {
    rows: Vec<Span>,
    header: bool,
    seat_x: Vec<f64>,
    lines: Vec<[f64; 5]>,
}

impl PlayerBlock {
    fn of(
        ruling: &Ruling,
        left: f64,
        table_top: f64,
        table_seats: &[f64],
    ) -> Result<Self, NotAForm> {
        let seats_right = table_seats[table_seats.len() - 1];
        let mut above: Vec<&Rule> = ruling
            .horizontal
            .iter()
            .filter(|r| r.at < table_top - 0.5 && near(r.from, left) && r.to > seats_right - TOL)
            .collect();
        sorted_apart(&mut above);
        // The stack nearest the table, its rows no higher than 15 mm.
        let mut stack: Vec<&Rule> = Vec::new();
        for r in above.into_iter().rev() {
            match stack.last() {
                Some(last) if last.at - r.at > 15.0 => break,
                _ => stack.push(r),
            }
        }
        stack.reverse();
        if stack.len() < 3 {
            return Err(NotAForm::NoPlayerBlock);
        }
        let rows: Vec<Span> = stack.windows(2).map(|w| (w[0].at, w[1].at)).collect();
        let (top, bottom) = (stack[0].at, stack[stack.len() - 1].at);
        let mut xs: Vec<&Rule> = ruling
            .vertical
            .iter()
            .filter(|r| near(r.from, top) && near(r.to, bottom) && r.at > left - TOL)
            .collect();
        sorted_apart(&mut xs);
        let own: Vec<f64> = xs.iter().skip(1).map(|r| r.at).collect();
        let seat_x = if own.len() == table_seats.len() {
            own
        } else {
            table_seats.to_vec()
        };
        let mut lines: Vec<[f64; 5]> = stack.iter().map(|r| horizontal(r)).collect();
        lines.extend(xs.iter().map(|r| vertical(r)));
        Ok(PlayerBlock {
            header: rows.len() >= 3,
            rows,
            seat_x,
            lines,
        })
    }
}

/// Small closed boxes above the player block (round, table): two
/// horizontal lines alike, 4 to 20 mm apart, closed by two verticals.
fn round_and_table(ruling: &Ruling, block_top: f64) -> (Vec<[f64; 4]>, Vec<[f64; 5]>) {
    let short: Vec<&Rule> = ruling
        .horizontal
        .iter()
        .filter(|r| r.at < block_top - 1.0 && (6.0..=45.0).contains(&r.len()))
        .collect();
    let side = |x: f64, y0: f64, y1: f64| {
        ruling
            .vertical
            .iter()
            .find(|v| near(v.at, x) && near(v.from, y0) && near(v.to, y1))
    };
    let mut boxes = Vec::new();
    let mut lines = Vec::new();
    for a in &short {
        for b in &short {
            let h = b.at - a.at;
            if !(4.0..=20.0).contains(&h) || !near(a.from, b.from) || !near(a.to, b.to) {
                continue;
            }
            if let (Some(l), Some(r)) = (side(a.from, a.at, b.at), side(a.to, a.at, b.at)) {
                boxes.push([l.at, a.at, r.at - l.at, h]);
                lines.extend([horizontal(a), horizontal(b), vertical(l), vertical(r)]);
            }
        }
    }
    boxes.sort_by(|a, b| a[0].total_cmp(&b[0]));
    (boxes, lines)
}

/// The signature boxes below the table: a row ruled across the seats.
fn signature(ruling: &Ruling, table_bottom: f64, seat_x: &[f64]) -> Option<(Span, Vec<[f64; 5]>)> {
    let (x0, x1) = (seat_x[0], seat_x[seat_x.len() - 1]);
    let mut below: Vec<&Rule> = ruling
        .horizontal
        .iter()
        .filter(|r| r.at > table_bottom + 0.5 && near(r.from, x0) && near(r.to, x1))
        .collect();
    below.sort_by(|a, b| a.at.total_cmp(&b.at));
    let (top, bottom) = (below.first()?, below.get(1)?);
    if !(5.0..=30.0).contains(&(bottom.at - top.at)) {
        return None;
    }
    let mut lines = vec![horizontal(top), horizontal(bottom)];
    lines.extend(
        ruling
            .vertical
            .iter()
            .filter(|v| near(v.from, top.at) && near(v.to, bottom.at))
            .map(vertical),
    );
    Some(((top.at, bottom.at), lines))
}
