//! The footer decided seat by seat: Gesamt Plus and Minus with their
//! columns, the Abzug and the Endergebnis together; and the round number.

use super::*;

/// The footer, seat by seat: its Gesamt Plus and Minus are decided
/// together with their columns, the Abzug (the smaller) and the
/// Endergebnis (the difference) as read. A reading stands where all of
/// that makes it overwhelmingly likely; else a person checks it, with the
/// sheet's most likely value as the suggestion.
pub(super) fn footer_flags(
    sheet: &mut SheetResult,
    ev: &Evidence,
    cols: &Columns,
    rows: &BTreeMap<Field, Decoded>,
) -> Vec<Flag> {
    let mut footer: Vec<&FieldReading> = ev
        .readings
        .fields
        .iter()
        .filter(|f| {
            !matches!(f.field, Field::Game(..)) && (is_uncertain(f) || ev.signless(f.field))
        })
        .collect();
    footer.sort_by_key(|f| f.field);
    let mut joints: BTreeMap<usize, Option<SeatFooter>> = BTreeMap::new();
    let mut flags = Vec::new();
    let settled = super::witness::Settled {
        cells: &|f: Field| rows.get(&f).is_none_or(|d| d.posterior >= ACCEPT),
        gesamt: &|s: usize, m: bool| cols.confirms.contains_key(&(s, m)),
    };
    for fr in footer {
        // Its doubt shared by another of the seat's fields: one witness.
        let alike = super::witness::footer_shares_doubt(ev, fr.field, &settled);
        // The column's whole distribution of sums confirmed it already.
        if let Field::Gesamt(s, m) = fr.field
            && cols.confirms.contains_key(&(s, m))
            && !alike
        {
            continue;
        }
        let d = weighed(sheet, ev, cols, &mut joints, fr);
        if ev.signless(fr.field) {
            flags.push(signless_flag(sheet, fr, d.as_ref(), ev.lang));
        } else if let Some(flag) = footer_flag(sheet, fr, d.as_ref(), alike, ev.lang) {
            flags.push(flag);
        }
    }
    flags
}

/// What the rest of the sheet makes of a footer field: a round number is
/// one of the night's rounds, a Gesamt, Abzug or Endergebnis is weighed
/// with its seat's footer; a table number has nothing to check it.
fn weighed(
    sheet: &SheetResult,
    ev: &Evidence,
    cols: &Columns,
    joints: &mut BTreeMap<usize, Option<SeatFooter>>,
    fr: &FieldReading,
) -> Option<Decoded> {
    let field = fr.field;
    match field {
        Field::Round => Some(round_reading(&candidates(&fr.reading), ev.rules.rounds)),
        Field::Gesamt(s, _) | Field::Abzug(s) | Field::Endergebnis(s) => joints
            .entry(s)
            .or_insert_with(|| {
                let sign = sheet
                    .endergebnis
                    .get(s - 1)
                    .copied()
                    .flatten()
                    .filter(|_| !ev.signless(Field::Endergebnis(s)));
                SeatFooter::decide(s, &ev.by_field, &cols.sums, sign, &is_uncertain)
            })
            .as_ref()
            .map(|joint| joint.ranked(field)),
        _ => None,
    }
}

/// The flag of a footer field whose reading does not stand ([`ACCEPT`];
/// never where its doubt is `alike` another of its seat's,
/// [`super::witness::footer_shares_doubt`]).
/// The sheet's value is taken where it is overwhelmingly likely
/// ([`TAKE_FOOTER`]) and not what was read; the flag stays, so a person
/// still checks it.
fn footer_flag(
    sheet: &mut SheetResult,
    fr: &FieldReading,
    d: Option<&Decoded>,
    alike: bool,
    lang: Lang,
) -> Option<Flag> {
    let read = fr.reading.value().map(i64::from);
    let stands = !alike
        && read.is_some_and(|r| {
            d.is_some_and(|d| d.ranked.iter().any(|&(v, p)| v == r && p >= ACCEPT))
        });
    if stands {
        return None;
    }
    let (row, seat, name) = fr.field.locator();
    let mut flag = uncertain_flag(row, seat, name, &fr.reading, &fr.what, d, lang);
    let best = d
        .filter(|d| d.posterior >= TAKE_FOOTER)
        .and_then(|d| d.value)
        .filter(|v| Some(*v) != read);
    if let Some(v) = best
        && matches!(
            fr.field,
            Field::Gesamt(..) | Field::Abzug(_) | Field::Endergebnis(_)
        )
        && set_footer(sheet, fr.field, v)
    {
        flag.detail.taken = true;
        flag.message = taken_message(&fr.what, &fr.reading, v, lang);
    }
    Some(flag)
}

/// Sets a footer field to `v` (an Endergebnis keeps its sign as read; one
/// read 0 takes its Gesamt's difference's, where that is `v`); false where
/// the field holds nothing to set.
pub(super) fn set_footer(sheet: &mut SheetResult, field: Field, v: i64) -> bool {
    let Ok(digits) = u32::try_from(v) else {
        return false;
    };
    let slot = |s: usize| s.checked_sub(1);
    let target = match field {
        Field::Gesamt(s, m) => match slot(s).and_then(|i| sheet.gesamt.get_mut(i)) {
            Some(Some(g)) if m => &mut g.minus,
            Some(Some(g)) => &mut g.plus,
            _ => return false,
        },
        Field::Abzug(s) => match slot(s).and_then(|i| sheet.abzug.get_mut(i)) {
            Some(a) => a,
            None => return false,
        },
        Field::Endergebnis(s) => {
            // A 0 read kept no sign: the Gesamt's difference gives it.
            let difference = slot(s).and_then(|i| signed_by_difference(sheet, i, v));
            return match slot(s).and_then(|i| sheet.endergebnis.get_mut(i)) {
                Some(Some(e)) if *e != 0 => {
                    *e = if *e < 0 { -v } else { v };
                    true
                }
                Some(Some(e)) => match difference {
                    Some(d) => {
                        *e = d;
                        true
                    }
                    None => false,
                },
                _ => false,
            };
        }
        _ => return false,
    };
    if target.is_none() {
        return false;
    }
    *target = Some(digits);
    true
}

/// Seat index `i`'s Gesamt Plus minus Minus, where its digits are `v`:
/// the sign an Endergebnis of digits `v` read without one takes.
pub(super) fn signed_by_difference(sheet: &SheetResult, i: usize, v: i64) -> Option<i64> {
    let g = sheet.gesamt.get(i).copied().flatten()?;
    let difference = i64::from(g.plus?) - i64::from(g.minus?);
    (difference.abs() == v).then_some(difference)
}

/// The flag of an Endergebnis read without a sign: always a person's to
/// check. Where its digits (as read, or as decoding takes them) are the
/// seat's Gesamt Plus minus Minus, the value takes that difference's sign
/// (a minus lost in the scan: "-4" read "4"), marked taken; else it stays
/// as read, positive.
pub(super) fn signless_flag(
    sheet: &mut SheetResult,
    fr: &FieldReading,
    d: Option<&Decoded>,
    lang: Lang,
) -> Flag {
    let (_, seat, name) = fr.field.locator();
    let mut flag = uncertain_flag(None, seat, name, &fr.reading, &fr.what, d, lang);
    let Some(i) = seat.and_then(|s| s.checked_sub(1)) else {
        return flag;
    };
    let read = fr.reading.value().map(i64::from);
    let digits = d
        .filter(|d| d.posterior >= TAKE_FOOTER)
        .and_then(|d| d.value)
        .or(read.filter(|_| fr.reading.confidence >= CONFIDENT));
    let difference = digits.and_then(|v| signed_by_difference(sheet, i, v));
    if let (Some(diff), Some(e)) = (difference, sheet.endergebnis.get_mut(i))
        && *e != Some(diff)
    {
        *e = Some(diff);
        flag.detail.taken = true;
        flag.message = taken_message(&fr.what, &fr.reading, diff, lang);
    }
    flag
}

/// The message of a footer field whose value the sheet decided over what
/// was read.
pub(super) fn taken_message(what: &str, r: &Reading, v: i64, lang: Lang) -> String {
    let shown = if r.text.is_empty() { "?" } else { &r.text };
    say(
        lang,
        "uncertain-taken",
        &[
            ("what", &what),
            ("read", &shown),
            ("percent", &percent(r.confidence * 100.0)),
            ("value", &v),
        ],
    )
}

/// A round number's reading weighed by the rule set's rounds (1 to
/// `rounds`): a number beyond them is the writer's mistake.
pub(super) fn round_reading(read: &[(i64, f64)], rounds: u32) -> Decoded {
    let mut ranked: Vec<(i64, f64)> = (1..=i64::from(rounds))
        .map(|v| (v, prob(read, v)))
        .collect();
    let listed: f64 = ranked.iter().map(|v| v.1).sum();
    let all = listed + WRITER_ERROR * (1.0 - listed).max(0.0);
    ranked.iter_mut().for_each(|v| v.1 /= all);
    Decoded::from_ranked(ranked)
}

/// One seat's footer decided jointly: every pair of Gesamt Plus and Minus
/// values worth weighing, with its posterior given both Gesamt readings,
/// their columns' sums, and the Abzug and Endergebnis as read.
pub(super) struct SeatFooter {
    pairs: Vec<((i64, i64), f64)>,
    /// Both Gesamt fields were read (else the Abzug and Endergebnis get
    /// no suggestion).
    complete: bool,
    /// The readings of Gesamt Plus and Minus, Abzug and Endergebnis (digits).
    gesamt: [Vec<(i64, f64)>; 2],
    abzug: Vec<(i64, f64)>,
    endergebnis: Vec<(i64, f64)>,
    /// The Endergebnis's sign as read.
    sign: Option<i64>,
    /// The Abzug and Endergebnis (digits) worked out from the columns'
    /// likeliest sums: a writer who slipped in a Gesamt works them out
    /// from the sums, not from the Gesamt as written, and so they differ
    /// from the Gesamt's by no usual slip.
    from_columns: Option<(i64, i64)>,
}

impl SeatFooter {
    /// `None` where nothing can be weighed. A Gesamt not read at all
    /// (an empty field) leaves the other to its reading and column alone.
    pub(super) fn decide(
        s: usize,
        by_field: &BTreeMap<Field, &FieldReading>,
        column_sums: &ColumnSums,
        endergebnis: Option<i64>,
        uncertain: &dyn Fn(&FieldReading) -> bool,
    ) -> Option<Self> {
        let read = |f: Field| by_field.get(&f).map(|fr| candidates(&fr.reading));
        let seat = SeatReadings {
            s,
            gesamt: [false, true].map(|m| by_field.get(&Field::Gesamt(s, m)).copied()),
            column_sums,
            abzug: read(Field::Abzug(s)).unwrap_or_default(),
            endergebnis: read(Field::Endergebnis(s)).unwrap_or_default(),
            // A 0 read has no sign, whatever sign stood before it: the digits
            // it may be (a "+40" read "0", "40" next) keep either.
            sign: endergebnis.filter(|&e| e != 0).map(i64::signum),
            uncertain,
        };
        let complete = seat.gesamt.iter().all(Option::is_some);
        let sides: [Vec<(i64, f64)>; 2] = std::array::from_fn(|i| seat.side(i));
        let from_columns = match (seat.likely(false).first(), seat.likely(true).first()) {
            (Some(&p), Some(&m)) => Some((p.min(m), (p - m).abs())),
            _ => None,
        };
        let mut pairs = Vec::new();
        for &(p, wp) in &sides[0] {
            for &(m, wm) in &sides[1] {
                let w = if complete {
                    seat.weigh_by_the_rest(wp * wm, p, m, from_columns)
                } else {
                    wp * wm
                };
                pairs.push(((p, m), w));
            }
        }
        let total: f64 = pairs.iter().map(|p| p.1).sum();
        if total <= 0.0 {
            return None;
        }
        pairs.iter_mut().for_each(|p| p.1 /= total);
        let gesamt = seat
            .gesamt
            .map(|fr| fr.map(|fr| candidates(&fr.reading)).unwrap_or_default());
        Some(SeatFooter {
            pairs,
            complete,
            gesamt,
            abzug: seat.abzug,
            endergebnis: seat.endergebnis,
            sign: seat.sign,
            from_columns,
        })
    }

    /// A footer field's values, best first, each with the probability that
    /// it is what the writer wrote there.
    pub(super) fn ranked(&self, field: Field) -> Decoded {
        let mut marginal: BTreeMap<i64, f64> = BTreeMap::new();
        let derived = matches!(field, Field::Abzug(_) | Field::Endergebnis(_));
        for &((p, m), w) in self.pairs.iter().filter(|_| self.complete || !derived) {
            let v = match field {
                Field::Gesamt(_, false) => p,
                Field::Gesamt(_, true) => m,
                Field::Abzug(_) => p.min(m),
                // A difference of the other sign is not the reading's value.
                Field::Endergebnis(_)
                    if self.sign.is_some_and(|g| p != m && g != (p - m).signum()) =>
                {
                    -1
                }
                Field::Endergebnis(_) => (p - m).abs(),
                _ => continue,
            };
            *marginal.entry(v).or_default() += w;
        }
        // An Abzug or Endergebnis is the pair's value only if the writer
        // wrote it right: the share of its fit that its reading gives.
        // So is a Gesamt's: a value only the rest of the footer supports
        // (its Abzug and Endergebnis may well rest on a column the writer
        // added up right, and a Gesamt written wrong) is no suggestion the
        // rule flags may be judged by.
        let (own, usual) = match field {
            Field::Gesamt(_, m) => (Some(&self.gesamt[usize::from(m)]), None),
            Field::Abzug(_) => (Some(&self.abzug), self.from_columns.map(|c| c.0)),
            Field::Endergebnis(_) => (Some(&self.endergebnis), self.from_columns.map(|c| c.1)),
            _ => (None, None),
        };
        let mut ranked: Vec<(i64, f64)> = marginal
            .into_iter()
            .map(|(v, q)| match own {
                Some(c) if !c.is_empty() => {
                    let worked = usual
                        .filter(|&u| u != v)
                        .map_or(0.0, |u| WORKED_FROM_COLUMNS * prob(c, u));
                    (v, q * prob(c, v) / (fits_but(c, v, usual) + worked))
                }
                _ => (v, q),
            })
            .collect();
        ranked.retain(|v| v.0 >= 0);
        Decoded::from_ranked(ranked)
    }
}

/// What one seat's footer was read as, and its columns' sums.
struct SeatReadings<'a> {
    s: usize,
    /// Gesamt Plus and Minus as read, where read.
    gesamt: [Option<&'a FieldReading>; 2],
    column_sums: &'a ColumnSums,
    abzug: Vec<(i64, f64)>,
    /// The Endergebnis's digits as read.
    endergebnis: Vec<(i64, f64)>,
    sign: Option<i64>,
    uncertain: &'a dyn Fn(&FieldReading) -> bool,
}

impl SeatReadings<'_> {
    fn sums(&self, m: bool) -> Vec<(i64, f64)> {
        self.column_sums
            .get(&(self.s, m))
            .map(|t| t.iter().map(|(&v, &p)| (v, p)).collect())
            .unwrap_or_default()
    }

    /// A column's sums, likeliest first.
    fn likely(&self, m: bool) -> Vec<i64> {
        let mut sums = self.sums(m);
        sums.sort_by(|a, b| b.1.total_cmp(&a.1));
        sums.into_iter().map(|v| v.0).collect()
    }

    /// What a Gesamt most likely is: as read where read surely, else its
    /// reading's and its column's two likeliest values.
    fn base(&self, i: usize) -> Vec<i64> {
        match self.gesamt[i] {
            None => Vec::new(),
            Some(fr) if !(self.uncertain)(fr) => candidates(&fr.reading)
                .iter()
                .take(1)
                .map(|v| v.0)
                .collect(),
            Some(fr) => {
                let mut b: Vec<i64> = candidates(&fr.reading)
                    .iter()
                    .take(2)
                    .map(|v| v.0)
                    .collect();
                b.extend(self.likely(i == 1).into_iter().take(2));
                b
            }
        }
    }

    /// A Gesamt's values worth weighing, with their weight: as read where
    /// read surely; else what its reading, its column, the Abzug and the
    /// Endergebnis (from the other Gesamt) offer, each weighed by its
    /// reading and its column. A Gesamt not read at all is a placeholder
    /// that the Abzug and Endergebnis are not weighed by.
    fn side(&self, i: usize) -> Vec<(i64, f64)> {
        let m = i == 1;
        let Some(fr) = self.gesamt[i] else {
            return vec![(0, 1.0)];
        };
        let c = candidates(&fr.reading);
        if !(self.uncertain)(fr) {
            return c.iter().take(1).map(|&(v, _)| (v, 1.0)).collect();
        }
        // The Endergebnis links the two: plus = minus + it.
        let e_values: Vec<i64> = self
            .endergebnis
            .iter()
            .take(3)
            .map(|&(e, _)| self.sign.unwrap_or(1) * e)
            .collect();
        let mut values: Vec<i64> = c.iter().map(|v| v.0).collect();
        values.extend(self.likely(m).into_iter().take(6));
        values.extend(self.abzug.iter().take(3).map(|v| v.0));
        for o in self.base(1 - i) {
            values.extend(e_values.iter().map(|&e| if m { o - e } else { o + e }));
        }
        let sums = self.sums(m);
        let mut seen = HashSet::new();
        values
            .into_iter()
            .filter(|&v| v >= 0 && seen.insert(v))
            .map(|v| {
                let in_column = listed(&sums, v);
                (v, prob(&c, v) * or_slip(&sums, v, in_column, None))
            })
            .collect()
    }

    /// Weight `w` of Gesamt `p` and `m` times how well the Abzug and
    /// Endergebnis as read fit them (a slip from the columns' likeliest
    /// sums, `from_columns`, is usual).
    fn weigh_by_the_rest(
        &self,
        mut w: f64,
        p: i64,
        m: i64,
        from_columns: Option<(i64, i64)>,
    ) -> f64 {
        if !self.abzug.is_empty() {
            w *= fits_but(&self.abzug, p.min(m), from_columns.map(|c| c.0));
        }
        if !self.endergebnis.is_empty() {
            let e = p - m;
            w *= if self.sign.is_none_or(|g| e == 0 || g == e.signum()) {
                fits_but(&self.endergebnis, e.abs(), from_columns.map(|c| c.1))
            } else {
                WRITER_ERROR
            };
        }
        w
    }
}
