//! The likelihoods decoding weighs: how a column's sum, a footer value
//! and a row's reading fit a value, and how writers slip.

use super::*;

/// How likely an open cell of a column holds `value`, given its row
/// (`own.ranked`), the column's other open cells (however they are read)
/// and its surely read cells (`fixed`), and how well each sum fits the
/// Gesamt's reading (`fit`).
pub(super) fn column_marginal(
    fixed: i64,
    others: &[&Decoded],
    own: &Decoded,
    value: i64,
    fit: &dyn Fn(i64) -> f64,
) -> f64 {
    let mut sums: BTreeMap<i64, f64> = BTreeMap::from([(fixed, 1.0)]);
    for o in others {
        let mut next: BTreeMap<i64, f64> = BTreeMap::new();
        for &(v, q) in o.ranked.iter().take(WEIGHED) {
            for (sum, p) in &sums {
                *next.entry(sum + v).or_default() += p * q;
            }
        }
        sums = next;
    }
    let (mut as_value, mut all) = (0.0, 0.0);
    for &(v, q) in own.ranked.iter().take(WEIGHED) {
        let m = q * sums.iter().map(|(sum, p)| p * fit(sum + v)).sum::<f64>();
        all += m;
        if v == value {
            as_value += m;
        }
    }
    if all > 0.0 { as_value / all } else { 0.0 }
}

/// Whether the rest of a seat's footer, each field read at even odds or
/// more (as the Gesamt itself must be, [`REPLACE_GESAMT_SUPPORT`]),
/// confirms `sum` as the Gesamt the writer wrote for the column (seat `s`,
/// `minus`) where the Gesamt was read otherwise: the Endergebnis is the
/// difference of `sum` and the other Gesamt (sign included), or the Abzug
/// is `sum` and `sum` the smaller. The writer worked both out from the Gesamt written,
/// so a game value written wrong is in them too; only a misread cell
/// leaves them agreeing with another sum than the one read.
pub(super) fn footer_confirms(
    by_field: &BTreeMap<Field, &FieldReading>,
    sheet: &SheetResult,
    s: usize,
    minus: bool,
    sum: i64,
) -> bool {
    let sure = |f: Field| {
        by_field
            .get(&f)
            .filter(|fr| fr.reading.confidence >= REPLACE_GESAMT_SUPPORT)
            .and_then(|fr| fr.reading.value())
            .map(i64::from)
    };
    let Some(other) = sure(Field::Gesamt(s, !minus)) else {
        return false;
    };
    let (plus, minus_total) = if minus { (other, sum) } else { (sum, other) };
    let signed = sheet.endergebnis.get(s - 1).copied().flatten();
    let by_endergebnis = sure(Field::Endergebnis(s))
        .is_some_and(|digits| signed.is_some_and(|e| e.abs() == digits && e == plus - minus_total));
    let by_abzug = sum < other && sure(Field::Abzug(s)) == Some(sum);
    by_endergebnis || by_abzug
}

/// Whether a cell's row leaves `v` a likely value: its best, or, where
/// the image shows it too (`read`), at least [`ROW_ALLOWS`].
pub(super) fn row_allows(d: &Decoded, read: Option<&FieldReading>, v: i64) -> bool {
    let seen = read.is_some_and(|fr| listed(&candidates(&fr.reading), v) >= IMAGE_SHOWS);
    d.value == Some(v) || (seen && listed(&d.ranked, v) >= ROW_ALLOWS)
}

/// Whether `v` keeps every digit the reader saw in a cell's ink: no
/// fewer digits than its best reading. The row and the Gesamt were written
/// before any later edit, so they agree with what the paper said before
/// it: a "1" put in front of a "1" reads "11", and the arithmetic wants
/// "1". A value that drops a stroke group the reader took for a digit is
/// never taken silently; it stays a person's suggestion.
pub(super) fn keeps_the_ink(read: Option<&FieldReading>, v: i64) -> bool {
    let seen = read.map_or(0, |fr| {
        fr.reading.text.chars().filter(char::is_ascii_digit).count()
    });
    v.unsigned_abs().to_string().len() >= seen
}

/// The probability a list of values gives `v`, 0 where it does not list it.
pub(super) fn listed(values: &[(i64, f64)], v: i64) -> f64 {
    values.iter().find(|x| x.0 == v).map_or(0.0, |x| x.1)
}

/// How likely its row and the reader must make a value for the column to
/// take a cell to it ([`REPLACE`]) where the row likes another one a
/// little better: a Doppelkopf row is legal with "15" as with "16", so
/// only the reader weighs them, and the column with its Gesamt read surely
/// decides. A value the image does not show ([`IMAGE_SHOWS`]) stays a
/// suggestion. Tuning sets: 122 → 120 wrong cells (185 → 187
/// cells taken so, all right), uncertain cells 2.95 → 2.94 a sheet;
/// false flags, silent errors and recall unchanged. Without the image's
/// share 116 (191, all right), but a value no reading shows is the
/// arithmetic's, not the writer's, and stays a suggestion.
pub(super) const ROW_ALLOWS: f64 = 0.2;

/// How likely the reader itself must make a value for [`row_allows`].
pub(super) const IMAGE_SHOWS: f64 = 0.01;

/// Each column's (seat, minus) distribution of sums.
pub(super) type ColumnSums = BTreeMap<(usize, bool), BTreeMap<i64, f64>>;

/// How well a reading fits a value the sheet's arithmetic gives: its
/// probability, or the writer's own slip to a value the reader saw.
pub(super) fn fits(c: &[(i64, f64)], v: i64) -> f64 {
    fits_but(c, v, None)
}

/// How likely a writer whose Gesamt is off its column worked out the
/// Abzug or Endergebnis from the column's sum rather than from the Gesamt
/// as written: no knowledge either way. Where the reader sees that value,
/// the Gesamt's is no likely suggestion for the field (held-out hQ
/// doppelkopf-0018: Gesamt Minus written 62 over a column of 72, Abzug 66
/// read at 57%, "62" at 5%, was taken as 62).
pub(super) const WORKED_FROM_COLUMNS: f64 = 0.5;

/// How much rarer than a writer's usual slip ([`slip`]) is one by any
/// other amount; also the weight of what a reading leaves unlisted.
/// Tuning sets (tA tB tP wA wB wP, 250 sheets): false flags
/// 45 → 29 at 0.2 (and at 0.1; 30 at 0.3, 39 at 0.5), wrong cells 77 → 58
/// (19 footer values taken right, none wrong), recall 353/357 kept; at 0.1
/// and below one writer's Gesamt slip is lost (351/357).
/// Weighing the unlisted rest as a usual slip instead: 39.
pub(super) const ODD_SLIP: f64 = 0.2;

/// How a writer's slip between `written` and `due` (what the arithmetic
/// gives; either way round) weighs against [`WRITER_ERROR`]: people slip a
/// digit by one (±1, ±10, ±100), a tariff step (±2, ±5), or swap two
/// digits; a misreading is as likely to land anywhere a digit's shape
/// allows (a 5 read 3 makes 54 of 34), so the reader's doubt is weighed
/// against the slips a hand makes, not against every other number.
pub(super) fn slip(written: i64, due: i64) -> f64 {
    let usual =
        matches!((written - due).abs(), 1 | 2 | 5 | 10 | 100) || swapped_digits(written, due);
    if usual { 1.0 } else { ODD_SLIP }
}

/// True when `a` is `b` with two neighbouring digits swapped (54 for 45).
pub(super) fn swapped_digits(a: i64, b: i64) -> bool {
    // Swapped digits keep the value modulo 9: most pairs are told apart
    // without writing them out (the column's sums weigh thousands a sheet).
    if a == b || (a - b) % 9 != 0 {
        return false;
    }
    let (a, b) = (a.to_string().into_bytes(), b.to_string().into_bytes());
    let differ: Vec<usize> = (0..a.len().min(b.len()))
        .filter(|&i| a[i] != b[i])
        .collect();
    a.len() == b.len()
        && differ.len() == 2
        && differ[1] == differ[0] + 1
        && a[differ[0]] == b[differ[1]]
        && a[differ[1]] == b[differ[0]]
}

/// [`fits`], where writing `usual` instead of `v` is a usual slip too.
pub(super) fn fits_but(c: &[(i64, f64)], v: i64, usual: Option<i64>) -> f64 {
    or_slip(c, v, prob(c, v), usual)
}

/// The chance of `v`, `p_v` as `values` (a distribution, maybe cut short)
/// give it, or else of the writer's slip from one of the others to it (to
/// `usual` a usual slip whatever its amount); the mass `values` do not
/// list slips by an odd amount.
pub(super) fn or_slip(values: &[(i64, f64)], v: i64, p_v: f64, usual: Option<i64>) -> f64 {
    let listed: f64 = values.iter().map(|o| o.1).sum();
    let slips: f64 = values
        .iter()
        .filter(|o| o.0 != v)
        .map(|o| {
            let weight = if Some(o.0) == usual {
                1.0
            } else {
                slip(v, o.0)
            };
            o.1 * weight
        })
        .sum();
    p_v + WRITER_ERROR * (slips + (1.0 - listed).max(0.0) * ODD_SLIP)
}
