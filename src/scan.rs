//! The scan pipeline for one page: locate the form, read every field, and
//! hand the values to the verifier.
//!
//! `GrayImage` → [`locate`] → [`AlignedSheet`] → [`read_sheet`] → `SheetResult` + `CellReadings` → `decode` → `verify`

use image::GrayImage;
use serde_json::Map;

use crate::cells::{self, CellImage, Mark};
use crate::check::flags::{Code, Flag};
use crate::check::messages::Lang;
use crate::decode::{self, CONFIDENT, CellReadings, Field, FieldReading};
use crate::page::align::{self, Alignment, MIN_FIT};
use crate::page::form::{Fields, FormTemplate, MmBox};
use crate::page::unreadable::Unreadable;
use crate::read::{DigitReader, Reading, TesseractReader};
use crate::sheet::{
    Cell, CellNotes, GameRow, Gesamt, Marks, Placement, SCHEMA, SheetNotes, SheetResult, Status,
};

/// A fit from which the other forms are not tried.
const SURE_FIT: f64 = 0.95;

/// A page with the form found on it.
pub struct AlignedSheet<'a> {
    pub page: &'a GrayImage,
    pub form: &'a FormTemplate,
    pub alignment: Alignment,
}

/// Finds which of `forms` is on the page and where. Never guesses: a page
/// that fits no form well enough is an error with the reason.
pub fn locate<'a>(
    page: &'a GrayImage,
    forms: &'a [FormTemplate],
) -> Result<AlignedSheet<'a>, Unreadable> {
    if page.width() < 200 || page.height() < 200 {
        return Err(Unreadable::TooSmall {
            width: page.width(),
            height: page.height(),
        });
    }
    let mut best: Option<(usize, Alignment)> = None;
    let mut why = Unreadable::NoTable;
    // Strong perspective bends the lines apart: then look along several slopes.
    for slopes in [&[0.0][..], &[-6.0, -3.0, 0.0, 3.0, 6.0][..]] {
        if best.as_ref().is_some_and(|b| b.1.fit >= MIN_FIT) {
            break;
        }
        let prep = align::prepare_with(page, slopes);
        for (i, form) in forms.iter().enumerate() {
            // Nearly every ruled line of a form in place: no other form fits better.
            if best.as_ref().is_some_and(|b| b.1.fit >= SURE_FIT) {
                break;
            }
            match align::align(&prep, form) {
                Ok(a) if best.as_ref().is_none_or(|b| a.fit > b.1.fit) => best = Some((i, a)),
                Ok(_) => {}
                Err(e) => why = e,
            }
        }
    }
    match best {
        Some((i, a)) if a.fit >= MIN_FIT => Ok(AlignedSheet {
            page,
            form: &forms[i],
            alignment: a,
        }),
        Some((i, a)) => Err(Unreadable::OtherForm {
            form: forms[i].id.clone(),
            percent: (a.fit * 100.0).round() as u32,
        }),
        None => Err(why),
    }
}

/// Reads the printed title and three printed row numbers through the
/// alignment: a second, independent check that the right form was found
/// where the ruled lines say. Returns (title as read, title matches, row numbers found).
pub fn confirm(sheet: &AlignedSheet, printed: &mut TesseractReader) -> (String, bool, usize) {
    let form = sheet.form;
    let mut title = String::new();
    if let Some(t) = form.texts.first() {
        let width = t.size * 0.75 * t.text.chars().count() as f64;
        let crop = cells::cut_with_margin(
            sheet.page,
            &sheet.alignment,
            [t.x - 1.0, t.y - t.size * 1.1, width + 2.0, t.size * 2.2],
            0.0,
        );
        // Print is read at half the cutting resolution: Tesseract is fastest
        // there (~22 ms a title against ~30 at full size and 22-45 ms at a
        // third, where it also misread "Turnier" on hB).
        let small = image::imageops::resize(
            &crop,
            crop.width() / 2,
            crop.height() / 2,
            image::imageops::FilterType::Triangle,
        );
        title = printed.read_line(&small).text;
    }
    let expected = form.title.clone().unwrap_or_default();
    let matches = similarity(&title, &expected) >= 0.7;
    let mut rows_found = 0;
    let rows = form.fields.game.len();
    for row in [1, rows / 2, rows] {
        let first = form.fields.game[row - 1][0].plus;
        let grid = form.grid();
        let bx = [grid[0], first[1], first[0] - grid[0], first[3]];
        let crop = cells::cut_with_margin(sheet.page, &sheet.alignment, bx, -0.7);
        let text: String = printed
            .read_line(&crop)
            .text
            .chars()
            .filter(char::is_ascii_digit)
            .collect();
        rows_found += usize::from(text == row.to_string());
    }
    (title, matches, rows_found)
}

/// Share of the expected text's letter pairs found in the read text.
fn similarity(read: &str, expected: &str) -> f64 {
    let norm = |s: &str| {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect::<Vec<_>>()
    };
    let (r, e) = (norm(read), norm(expected));
    if e.len() < 2 {
        return 0.0;
    }
    let pairs: Vec<(char, char)> = r.windows(2).map(|w| (w[0], w[1])).collect();
    let hits = e
        .windows(2)
        .filter(|w| pairs.contains(&(w[0], w[1])))
        .count();
    hits as f64 / (e.len() - 1) as f64
}

struct Reader<'r> {
    lang: Lang,
    sheet: &'r AlignedSheet<'r>,
    digits: &'r mut dyn DigitReader,
    flags: Vec<Flag>,
    readings: CellReadings,
    /// Number fields with ink, waiting to be read.
    pending: Vec<Pending>,
    /// The game fields found circled (once read: whose ring was no digits).
    ringed: std::collections::BTreeSet<Field>,
}

/// A number field with ink, waiting to be read with the sheet's others.
struct Pending {
    field: Field,
    digits: GrayImage,
    what: String,
    bx: MmBox,
    circle: bool,
    /// Of a circled field, its ink with the ring.
    unpeeled: Option<GrayImage>,
}

/// Whether a field found circled was digits and no ring: as drawn, ring
/// and all, its ink reads surely ([`RING_DRAWN_DIGITS`]) as more digits
/// than peeling left, or as two or more where peeling left a doubtful
/// reading (a "1" beside a round "0" is "10" as drawn, a "1" or scraps
/// once "peeled"; a circled 6 read with its ring is still a 6); or what
/// peeling left is scraps ([`RING_LEFT_SCRAPS`]).
fn ring_was_digits(peeled: &Reading, drawn: &Reading) -> bool {
    // A tight ring read with its digits changes one of them (a circled 24
    // reads "29"), which the peeled reading, as long and sure, outweighs.
    let digits_drawn = drawn.confidence >= RING_DRAWN_DIGITS
        && drawn.text != peeled.text
        && (drawn.text.len() > peeled.text.len()
            || (drawn.text.len() >= 2 && peeled.confidence < RING_LEFT_DOUBTFUL));
    // What peeling left reads as no number at all, the ink as drawn as
    // one: the "ring" was the digits' own strokes (a "12" whose 1 and
    // round 2 closed a ring), and peeling left scraps.
    let scraps_left = peeled.confidence < RING_LEFT_SCRAPS
        && drawn.confidence >= DRAWN_DISAGREES
        && drawn.text != peeled.text
        && drawn.text.len() >= peeled.text.len();
    digits_drawn || scraps_left
}

/// A circled field's ink as drawn reading at least this surely as more
/// digits than peeling left, or as two or more where peeling left a
/// reading below [`RING_LEFT_DOUBTFUL`], was digits (see
/// [`ring_was_digits`]). Asking for more digits at [`CONFIDENT`] and a
/// peeled reading below it kept the circles right (tA tB tP wB:
/// 100/100/99.97/99.91%). Rings found in game cells of
/// the tuning sets (tA tB tP wA wB wP) and two new development sets (dA
/// merkur, dB Doppelkopf, 100 sheets each, seed 801): of 50 found where
/// none was drawn (all a "10" or "12" whose round second digit looked like
/// a ring), this frees 47; of 6 868 found where one was drawn, it takes
/// none. At 0.99, 42 and none; without the condition on the peeled
/// reading, at 0.95 it took 4 drawn rings (a tight ring around "24" read
/// "29" as drawn).
const RING_DRAWN_DIGITS: f32 = 0.95;

/// See [`RING_DRAWN_DIGITS`].
const RING_LEFT_DOUBTFUL: f32 = 0.9;

/// Below this, what peeling a ring left is scraps, not the number a ring
/// holds, where the ink as drawn reads otherwise (at [`DRAWN_DISAGREES`])
/// with as many digits. Tuning sets (tA tB tP wA wB wP, 3 982
/// rings found around circled cells, 18 around cells not circled): below
/// 0.1 no circled cell and 3 not circled (each a false CIRCLE_NOT_SOLO);
/// below 0.2, 1 circled cell.
const RING_LEFT_SCRAPS: f32 = 0.1;

/// A circled field whose ink as drawn, ring and all, reads at least this
/// surely as another number than its peeled ink: either may be right, and
/// both count half. Tuning sets (tA tB tP wA wB wP, 2 962 circled cells
/// peeled and read surely): the ink as drawn read otherwise at 0.9 on 5 of
/// the 8 read wrong and 27 of the 2 954 read right; at 0.5 on 7 and 428.
const DRAWN_DISAGREES: f32 = 0.9;

/// Whether the reading of a circled field's ink as drawn puts its peeled
/// reading in doubt (see [`DRAWN_DISAGREES`]).
fn peeling_in_doubt(peeled: &Reading, drawn: &Reading) -> bool {
    drawn.confidence >= DRAWN_DISAGREES && drawn.text != peeled.text
}

/// A Teilnehmer-Nr. read at least this surely by the first net stands
/// where the second net reads it so too ([`SECOND_AGREES`]); nothing on
/// the sheet checks it, so a wrong one puts points on another player's
/// name unseen. Measured (docs/reading.md) on 7 140 numbers on 1 680
/// scanner sheets (dA dB tA tB wA wB eA eB fA1001 fB1001 fA1102 fB1102
/// sA1304 sB1304): the 7 read wrong without a flag were all read at
/// 0.991 or more by the first net (a 4 closed like a 9 or open like a 7,
/// a flat-footed 3 as 2), and none read at 0.97-0.99 was wrong; the
/// second net read two of the 7 below 0.95. The first net's bar at
/// [`CONFIDENT`] alone: 2.01 numbers a sheet asked about, 7 silent; at
/// 0.97 with the second's agreement: 1.84 and 5.
const NUMBER_SURE: f32 = 0.97;

/// See [`NUMBER_SURE`]: the second net's probability of the first's text.
const SECOND_AGREES: f32 = 0.95;

/// A field read with less than [`CONFIDENT`] is cut again this far aside
/// (mm; half a cutting pixel, so the page is resampled differently) and
/// read again: the reader's answer moves with where the cut falls, and the
/// mean over both cuts is steadier. Measured on the tuning sets (seed 601):
/// offsets of 0.03-0.07 mm gain alike, 0.1 mm (a whole pixel: the same
/// image shifted) nothing; a third cut (the other side) or four no more.
/// A third reading at a cut near the pen's core does add (see
/// `cells::INK_CUT_NEAR_CORE`).
const RECUT_MM: [(f64, f64); 1] = [(0.05, 0.05)];

impl Reader<'_> {
    /// A field's name in the supervisor's language.
    fn name(&self, de: String, en: String) -> String {
        match self.lang {
            Lang::De => de,
            Lang::En => en,
        }
    }

    fn cell(&self, bx: MmBox, circle: bool, sign: bool) -> CellImage {
        if cells::looks_blank(self.sheet.page, &self.sheet.alignment, bx) {
            return CellImage::blank();
        }
        let crop = cells::cut(self.sheet.page, &self.sheet.alignment, bx);
        cells::analyse(&crop, circle, sign)
    }

    /// The field's digits cut again at each of [`RECUT_MM`], and at a cut
    /// near the pen's core (those with ink).
    fn recuts(&self, bx: MmBox, circle: bool, sign: bool) -> impl Iterator<Item = GrayImage> {
        let crop = cells::cut(self.sheet.page, &self.sheet.alignment, bx);
        let close = cells::analyse_near_core(&crop, circle, sign);
        RECUT_MM
            .into_iter()
            .map(move |(dx, dy)| {
                let bx = [bx[0] + dx, bx[1] + dy, bx[2], bx[3]];
                let crop = cells::cut(self.sheet.page, &self.sheet.alignment, bx);
                cells::analyse(&crop, circle, sign)
            })
            .chain(std::iter::once(close))
            .filter_map(|c| (c.mark == Mark::Ink).then_some(c.digits))
    }

    /// A single field's reading, steadied as [`Reader::steady`] does.
    fn read_one(&mut self, digits: &GrayImage, bx: MmBox, sign: bool) -> Reading {
        let mut r = vec![self.digits.read(digits)];
        self.steady(&mut r, &[(bx, false, sign)]);
        r.pop().unwrap_or_else(Reading::none)
    }

    /// Each reading below [`CONFIDENT`] becomes the mean of it and its
    /// field's re-cuts' readings (`fields`: box, circle, sign; one a reading).
    fn steady(&mut self, readings: &mut [Reading], fields: &[(MmBox, bool, bool)]) {
        let recut: Vec<(usize, GrayImage)> = (0..readings.len())
            .filter(|&i| readings[i].confidence < CONFIDENT)
            .flat_map(|i| {
                let (bx, circle, sign) = fields[i];
                self.recuts(bx, circle, sign).map(move |d| (i, d))
            })
            .collect();
        let images: Vec<&GrayImage> = recut.iter().map(|r| &r.1).collect();
        let again = self.digits.read_batch(&images);
        let mut more: Vec<Vec<Reading>> = vec![Vec::new(); readings.len()];
        for ((i, _), r) in recut.iter().zip(again) {
            more[*i].push(r);
        }
        for (reading, extra) in readings.iter_mut().zip(more) {
            if !extra.is_empty() {
                let mut all = vec![reading.clone()];
                all.extend(extra);
                *reading = Reading::mean(&all);
            }
        }
    }

    fn uncertain(&mut self, seat: Option<usize>, field: &str, r: &Reading, what: &str) {
        let flag = decode::uncertain_flag(None, seat, field, r, what, None, self.lang);
        self.flags.push(flag);
    }

    /// A number field: its value as read, and the reading kept for decoding.
    /// A number field: its mark now; its digits are read with all the
    /// sheet's others in one batch ([`Reader::read_numbers`]).
    fn number(&mut self, bx: MmBox, circle: bool, field: Field, what: &str) -> CellImage {
        let mut c = self.cell(bx, circle, false);
        if c.mark == Mark::Ink {
            let digits = std::mem::replace(&mut c.digits, GrayImage::new(1, 1));
            if c.circled {
                self.ringed.insert(field);
            }
            self.pending.push(Pending {
                field,
                digits,
                what: what.to_string(),
                bx,
                circle,
                unpeeled: c.unpeeled.take(),
            });
        }
        c
    }

    /// Reads every pending number field at once: the values as read.
    fn read_numbers(&mut self) -> std::collections::BTreeMap<Field, u32> {
        let pending = std::mem::take(&mut self.pending);
        let images: Vec<&GrayImage> = pending.iter().map(|p| &p.digits).collect();
        let mut readings = self.digits.read_batch(&images);
        // Every circled field is read as drawn too, ring and all. A "ring"
        // whose ink as drawn reads surely, while what peeling it left does
        // not, was digits: a "1" beside a round "0" is no ring. Where the
        // ink as drawn reads surely as another number, the peeling is in
        // doubt (a 9 whose top ran along its ring lost it: "4").
        let ringed: Vec<(usize, &GrayImage)> = pending
            .iter()
            .enumerate()
            .filter_map(|(i, p)| Some((i, p.unpeeled.as_ref()?)))
            .collect();
        if !ringed.is_empty() {
            let drawn: Vec<&GrayImage> = ringed.iter().map(|&(_, img)| img).collect();
            let as_drawn = self.digits.read_batch(&drawn);
            for ((i, _), drawn) in ringed.into_iter().zip(as_drawn) {
                if ring_was_digits(&readings[i], &drawn) {
                    readings[i] = drawn;
                    self.ringed.remove(&pending[i].field);
                } else if peeling_in_doubt(&readings[i], &drawn) {
                    readings[i] = Reading::mean(&[readings[i].clone(), drawn]);
                }
            }
        }
        let fields: Vec<(MmBox, bool, bool)> =
            pending.iter().map(|p| (p.bx, p.circle, false)).collect();
        self.steady(&mut readings, &fields);
        let mut values = std::collections::BTreeMap::new();
        for (Pending { field, what, .. }, reading) in pending.into_iter().zip(readings) {
            if let Some(v) = reading.value() {
                values.insert(field, v);
            }
            self.readings.fields.push(FieldReading {
                field,
                reading,
                what,
            });
        }
        values
    }

    fn digits_text(
        &mut self,
        bx: MmBox,
        seat: Option<usize>,
        field: &str,
        what: &str,
    ) -> Option<String> {
        let c = self.cell(bx, false, false);
        if c.mark != Mark::Ink {
            return None;
        }
        let mut r = self.read_one(&c.digits, bx, false);
        if let Some(shown) = self.doubt_unchecked_number(&r, &c.digits) {
            self.uncertain(seat, field, &shown, what);
            r = shown;
        }
        (!r.text.is_empty()).then_some(r.text)
    }

    /// The reading a person is shown of a number nothing on the sheet
    /// checks (a Teilnehmer-Nr.), or `None` where it stands as read: read
    /// at [`CONFIDENT`] by a reader with one net; with two, at
    /// [`NUMBER_SURE`] by the first and its text at [`SECOND_AGREES`] by
    /// the second (else the person sees both nets' mean).
    fn doubt_unchecked_number(&mut self, r: &Reading, digits: &GrayImage) -> Option<Reading> {
        if r.text.is_empty() || r.confidence < NUMBER_SURE {
            return Some(r.clone());
        }
        let Some(second) = self
            .digits
            .second_opinion(&[digits])
            .and_then(|mut v| v.pop())
        else {
            return (r.confidence < CONFIDENT).then(|| r.clone());
        };
        let agrees = second
            .listed()
            .any(|(t, p)| *t == r.text && p >= SECOND_AGREES);
        (!agrees).then(|| Reading::mean(&[r.clone(), second]))
    }

    fn has_ink(&self, bx: MmBox, min_mm2: f64) -> bool {
        let c = self.cell(bx, false, false);
        c.mark != Mark::Empty
            && f64::from(c.ink_px) >= min_mm2 * cells::PX_PER_MM * cells::PX_PER_MM
    }
}

fn round2(v: f32) -> f64 {
    (f64::from(v) * 100.0).round() / 100.0
}

/// Reads every field of an aligned sheet into a sheet result (not yet
/// decoded or verified) and the readings of its number fields.
pub fn read_sheet(
    sheet: &AlignedSheet,
    digits: &mut dyn DigitReader,
    source: &str,
    page: u32,
    lang: Lang,
) -> (SheetResult, CellReadings) {
    let form = sheet.form;
    let f = &form.fields;
    let seats = form.seats;
    let mut r = Reader {
        lang,
        sheet,
        digits,
        flags: Vec::new(),
        readings: CellReadings::default(),
        pending: Vec::new(),
        ringed: Default::default(),
    };
    let what = r.name("Runde".into(), "Round".into());
    r.number(f.round, false, Field::Round, &what);
    let what = r.name("Tisch".into(), "Table".into());
    r.number(f.table, false, Field::Table, &what);
    let players = (0..seats)
        .map(|s| {
            r.digits_text(
                f.player_id[s],
                Some(s + 1),
                "player_id",
                &r.name(
                    format!("Platz {}: Teilnehmer-Nr.", s + 1),
                    format!("Seat {}: participant number", s + 1),
                ),
            )
        })
        .collect();

    let mut games = game_rows(&mut r, f, seats);

    for s in 0..seats {
        for (bx, minus, de, en) in [
            (f.gesamt[s].plus, false, "Plus", "plus"),
            (f.gesamt[s].minus, true, "Minus", "minus"),
        ] {
            let what = r.name(
                format!("Platz {}: Gesamt {de}", s + 1),
                format!("Seat {}: Gesamt {en}", s + 1),
            );
            r.number(bx, false, Field::Gesamt(s + 1, minus), &what);
        }
        let what = r.name(
            format!("Platz {}: Abzug", s + 1),
            format!("Seat {}: Abzug", s + 1),
        );
        r.number(f.abzug[s], false, Field::Abzug(s + 1), &what);
    }
    let values = r.read_numbers();
    let value = |field: Field| values.get(&field).copied();
    for g in &mut games {
        for (s, c) in g.cells.iter_mut().enumerate() {
            let (plus, minus) = (
                Field::Game(g.no, s + 1, false),
                Field::Game(g.no, s + 1, true),
            );
            c.plus = value(plus);
            c.minus = value(minus);
            c.circled = r.ringed.contains(&plus) || r.ringed.contains(&minus);
        }
    }
    let gesamt = (0..seats)
        .map(|s| {
            let plus = value(Field::Gesamt(s + 1, false));
            let minus = value(Field::Gesamt(s + 1, true));
            (plus.is_some() || minus.is_some()).then_some(Gesamt { plus, minus })
        })
        .collect();
    let abzug = (0..seats).map(|s| value(Field::Abzug(s + 1))).collect();
    let (round, table) = (value(Field::Round), value(Field::Table));
    let endergebnis = endergebnisse(&mut r, f, seats);
    let signatures = (0..seats).map(|s| r.has_ink(f.signature[s], 2.0)).collect();

    let sheet = SheetResult {
        schema: SCHEMA.into(),
        source: Some(source.to_string()),
        page: Some(page),
        form: Some(form.id.clone()),
        rules: None,
        status: Status::Ok,
        round,
        table,
        players,
        games,
        gesamt,
        abzug,
        endergebnis,
        signatures,
        flags: r.flags,
        notes: SheetNotes {
            alignment: Some(placement(&sheet.alignment)),
            reader: Some(r.digits.name().to_string()),
            ..SheetNotes::default()
        },
        extra: Map::new(),
    };
    (sheet, r.readings)
}

/// Every printed game row with writing on it; the cells' numbers are
/// queued for reading and filled in once read (a ring may turn out to be digits).
fn game_rows(r: &mut Reader<'_>, f: &Fields, seats: usize) -> Vec<GameRow> {
    let mut games = Vec::new();
    for (i, row) in f.game.iter().enumerate() {
        let no = i as u32 + 1;
        let mut cells = Vec::with_capacity(seats);
        let mut any = false;
        for (s, pm) in row.iter().enumerate() {
            let lang = r.lang;
            let what = |col: &str| match lang {
                Lang::De => format!("Spiel {no}, Platz {} {col}", s + 1),
                Lang::En => format!("Game {no}, seat {} {}", s + 1, col.to_lowercase()),
            };
            let pc = r.number(pm.plus, true, Field::Game(no, s + 1, false), &what("Plus"));
            let mc = r.number(pm.minus, true, Field::Game(no, s + 1, true), &what("Minus"));
            any |= pc.mark != Mark::Empty || mc.mark != Mark::Empty;
            // Values set once read: a ring may turn out to be digits.
            cells.push(Cell {
                notes: CellNotes {
                    marks: Some(Marks {
                        minus: mc.mark,
                        plus: pc.mark,
                    }),
                    ..CellNotes::default()
                },
                ..Cell::default()
            });
        }
        let initials = r.has_ink(f.initials[i], 0.6);
        if any || initials {
            games.push(GameRow {
                no,
                cells,
                initials,
                class: None,
                extra: Map::new(),
            });
        }
    }
    games
}

/// Each seat's Endergebnis with its sign; a missing sign is noted for decoding.
fn endergebnisse(r: &mut Reader<'_>, f: &Fields, seats: usize) -> Vec<Option<i64>> {
    (0..seats)
        .map(|s| {
            let c = r.cell(f.endergebnis[s], false, true);
            if c.mark != Mark::Ink {
                return None;
            }
            let reading = r.read_one(&c.digits, f.endergebnis[s], true);
            let value = reading.value().map(i64::from);
            let what = r.name(
                format!("Platz {}: Endergebnis", s + 1),
                format!("Seat {}: Endergebnis", s + 1),
            );
            match (value, c.sign) {
                // Without a sign only 0 is complete: a person looks, and
                // decoding gives the sign where the seat's Gesamt
                // difference is these digits (`decode::signless_flag`).
                (Some(v), sign) => {
                    if sign.is_none() && v != 0 {
                        r.readings.signless.push(s + 1);
                    }
                    let v = if sign == Some('-') { -v } else { v };
                    r.readings.fields.push(FieldReading {
                        field: Field::Endergebnis(s + 1),
                        reading,
                        what,
                    });
                    Some(v)
                }
                (None, _) => {
                    r.uncertain(Some(s + 1), "endergebnis", &reading, &what);
                    None
                }
            }
        })
        .collect()
}

/// Where the form lies on the image, stored with the result.
fn placement(a: &Alignment) -> Placement {
    Placement {
        fit: round2(a.fit as f32),
        quarter_turns: a.quarter_turns,
        residual_mm: round2(a.residual_mm as f32),
        row_numbers_read: None,
        title_matches: None,
        title_read: None,
        to_image: a.to_image.0.transpose().as_slice().to_vec(),
        upside_down: a.quarter_turns == 2,
    }
}

/// One page through the whole pipeline: locate the form, confirm it with the
/// printed text, read every field, verify. Never fails: a page that cannot
/// be read is an `unreadable` result that says why.
pub fn scan_page(
    page: &crate::page::input::Page,
    forms: &[FormTemplate],
    rules: &crate::check::rules::RuleSet,
    digits: &mut dyn DigitReader,
    printed: &mut TesseractReader,
    lang: Lang,
) -> SheetResult {
    let source = page.source.display().to_string();
    let seats = forms.first().map_or(4, |f| f.seats);
    let img = match &page.image {
        Ok(img) => img,
        Err(why) => return unreadable(&source, page.number, seats, why, lang),
    };
    let aligned = match locate(img, forms) {
        Ok(a) => a,
        Err(why) => return unreadable(&source, page.number, seats, &why, lang),
    };
    let (title, title_ok, rows) = confirm(&aligned, printed);
    let (mut read, readings) = read_sheet(&aligned, digits, &source, page.number, lang);
    if let Some(a) = &mut read.notes.alignment {
        a.title_read = Some(title);
        a.title_matches = Some(title_ok);
        a.row_numbers_read = Some(rows);
    }
    let decoded = decode::decode(read.clone(), &readings, rules, lang);
    let (mut read, mut readings) = (read, readings);
    let verified = crate::check::verify::verify(decoded, rules, lang).and_then(|sheet| {
        let asked =
            second_opinion_where_flagged(&sheet, &aligned, digits, &mut read, &mut readings);
        let unringed = rings_that_were_digits(&sheet, &aligned, digits, &mut read, &mut readings);
        let mut sheet = if asked || unringed {
            crate::check::verify::verify(decode::decode(read, &readings, rules, lang), rules, lang)?
        } else {
            sheet
        };
        if rings_on_second_look(&mut sheet, &aligned) {
            crate::check::verify::verify(sheet, rules, lang)
        } else {
            Ok(sheet)
        }
    });
    verified.unwrap_or_else(|e| {
        unreadable(
            &source,
            page.number,
            aligned.form.seats,
            &Unreadable::Internal(e.to_string()),
            lang,
        )
    })
}

/// Where the rule flags name a seat's footer (`GESAMT_MISMATCH`,
/// `ABZUG_MISMATCH`, `ENDERGEBNIS_MISMATCH`), each of its footer fields is
/// read again by the reader's second net ([`DigitReader::second_opinion`]),
/// and so is every uncircled game cell read unsure in a row flagged
/// `ROW_NOT_ZERO_SUM`; each reading becomes the mean of both. A number the
/// first net misread surely (a 4 drawn like a 9: "40" read "90" at 1.0)
/// is then unsure where the second reads it otherwise, and the sheet's
/// sums weigh it. Asked only where a flag stands: on every footer field,
/// the two nets' disagreements made about 0.2 uncertain cells more a sheet
/// (docs/reading.md). A circled cell's digits were read peeled or as drawn
/// ([`ring_was_digits`]), so it is left. True when any reading changed.
fn second_opinion_where_flagged(
    sheet: &SheetResult,
    aligned: &AlignedSheet,
    digits: &mut dyn DigitReader,
    read: &mut SheetResult,
    readings: &mut CellReadings,
) -> bool {
    let seats: std::collections::BTreeSet<usize> = sheet
        .flags
        .iter()
        .filter(|f| {
            matches!(
                f.code,
                Code::GesamtMismatch | Code::AbzugMismatch | Code::EndergebnisMismatch
            )
        })
        .filter_map(|f| f.seat)
        .collect();
    let rows: std::collections::BTreeSet<u32> = sheet
        .flags
        .iter()
        .filter(|f| f.code == Code::RowNotZeroSum)
        .filter_map(|f| f.row)
        .collect();
    let f = &aligned.form.fields;
    // (field, box, a game cell): the fields to ask about.
    let mut asked: Vec<(Field, MmBox, bool)> = Vec::new();
    for s in seats {
        let Some(i) = s.checked_sub(1) else { continue };
        let (Some(g), Some(&abzug), Some(&end)) =
            (f.gesamt.get(i), f.abzug.get(i), f.endergebnis.get(i))
        else {
            continue;
        };
        asked.extend([
            (Field::Gesamt(s, false), g.plus, false),
            (Field::Gesamt(s, true), g.minus, false),
            (Field::Abzug(s), abzug, false),
            (Field::Endergebnis(s), end, false),
        ]);
    }
    for no in rows {
        let Some(row) = (no as usize).checked_sub(1).and_then(|i| f.game.get(i)) else {
            continue;
        };
        for (s, pm) in row.iter().enumerate() {
            asked.push((Field::Game(no, s + 1, false), pm.plus, true));
            asked.push((Field::Game(no, s + 1, true), pm.minus, true));
        }
    }
    let mut fields = Vec::new();
    let mut images = Vec::new();
    for (field, bx, game) in asked {
        // A game cell read surely stays the first net's: where its row and
        // its Gesamt both contradict it, the doubt (`decode`) asks a
        // person whether it was misread or changed after the sum was
        // added up; a second opinion must not answer that by taking the
        // value the sums want. Only an unsure one is read again, as
        // [`Reader::steady`] reads it again at other cuts.
        let Some(fr) = readings.fields.iter().find(|fr| fr.field == field) else {
            continue;
        };
        if game && fr.reading.confidence >= CONFIDENT {
            continue;
        }
        let sign = matches!(field, Field::Endergebnis(_));
        let crop = cells::cut(aligned.page, &aligned.alignment, bx);
        let c = cells::analyse(&crop, game, sign);
        if c.mark == Mark::Ink && !c.circled {
            fields.push(field);
            images.push(c.digits);
        }
    }
    if fields.is_empty() {
        return false;
    }
    let images: Vec<&GrayImage> = images.iter().collect();
    let Some(second) = digits.second_opinion(&images) else {
        return false;
    };
    let mut changed = false;
    for (field, second) in fields.into_iter().zip(second) {
        changed |= weigh_second_opinion(read, readings, field, second);
    }
    changed
}

/// Makes `field`'s reading the mean of its reading and `second`, and the
/// value `read` holds for it the new best (an Endergebnis keeps its sign
/// as read); true when that changed the reading.
fn weigh_second_opinion(
    read: &mut SheetResult,
    readings: &mut CellReadings,
    field: Field,
    second: Reading,
) -> bool {
    let Some(fr) = readings.fields.iter_mut().find(|fr| fr.field == field) else {
        return false;
    };
    let mean = Reading::mean(&[fr.reading.clone(), second]);
    if mean == fr.reading {
        return false;
    }
    // The field holds the reader's best, as [`read_sheet`] sets it.
    let v = mean.value();
    match field {
        Field::Gesamt(s, m) => {
            let Some(Some(g)) = s.checked_sub(1).and_then(|i| read.gesamt.get_mut(i)) else {
                return false;
            };
            *(if m { &mut g.minus } else { &mut g.plus }) = v;
        }
        Field::Abzug(s) => {
            let Some(a) = s.checked_sub(1).and_then(|i| read.abzug.get_mut(i)) else {
                return false;
            };
            *a = v;
        }
        Field::Endergebnis(s) => {
            // A 0 read carries no sign to keep: it stays as first read.
            let Some(e) = s.checked_sub(1).and_then(|i| read.endergebnis.get_mut(i)) else {
                return false;
            };
            let Some(sign) = e.filter(|&e| e != 0).map(i64::signum) else {
                return false;
            };
            *e = v.map(|v| i64::from(v) * sign);
        }
        Field::Game(no, s, m) => {
            let Some(c) = s.checked_sub(1).and_then(|i| read.cell_mut(no, i)) else {
                return false;
            };
            *(if m { &mut c.minus } else { &mut c.plus }) = v;
        }
        _ => return false,
    }
    fr.reading = mean;
    true
}

/// Every game cell `flagged` flags `code`, with the box of the value it
/// holds in `values` and whether that is the minus column's: (game, seat
/// index from 0, box, minus).
fn flagged_values(
    flagged: &SheetResult,
    values: &SheetResult,
    aligned: &AlignedSheet,
    code: Code,
) -> Vec<(u32, usize, MmBox, bool)> {
    flagged
        .flags
        .iter()
        .filter(|f| f.code == code)
        .filter_map(|f| {
            let (no, s) = (f.row?, f.seat?.checked_sub(1)?);
            let boxes = (no as usize)
                .checked_sub(1)
                .and_then(|i| aligned.form.fields.game.get(i))
                .and_then(|row| row.get(s))?;
            let cell = values.games.iter().find(|g| g.no == no)?.cells.get(s)?;
            match (cell.plus, cell.minus) {
                (Some(_), _) => Some((no, s, boxes.plus, false)),
                (None, Some(_)) => Some((no, s, boxes.minus, true)),
                (None, None) => None,
            }
        })
        .collect()
}

/// Where `CIRCLE_NOT_SOLO` stands, a circled value whose ink as drawn,
/// ring and all, reads at least this surely as another number, with as
/// many digits or more, than what peeling the ring left: the "ring" was a
/// digit's own loop (a "9" peeled to a "1"). Measured on every value the
/// first look finds ringed in tA tB wA wB dA dB (`examples/ring_second_look … drawn`):
/// of 50 rings found where none is drawn, 41 read so at 0.99 (most freed
/// at the first look already, as more digits or scraps); of 5 517 drawn
/// rings, 3 (a tight ring around a "3", whose peeled ink read "2"); at
/// 0.95, 46 and 14; at 0.999, 29 and none.
const RING_FLAGGED_DRAWN: f32 = 0.99;

/// Looks again at every value flagged `CIRCLE_NOT_SOLO`: read peeled and as
/// drawn, a ring the ink as drawn reads surely otherwise
/// ([`RING_FLAGGED_DRAWN`]) was digits. The value and its reading in `read`
/// and `readings` become the ink as drawn, uncircled, marked
/// `ring_was_digits`; true when any did. Asked only where the flag
/// stands, because the rule lets a ring a writer drew around the wrong
/// value go as digits about once in 1 800 rings.
fn rings_that_were_digits(
    sheet: &SheetResult,
    aligned: &AlignedSheet,
    digits: &mut dyn DigitReader,
    read: &mut SheetResult,
    readings: &mut CellReadings,
) -> bool {
    let mut changed = false;
    for (no, s, bx, minus) in flagged_values(sheet, read, aligned, Code::CircleNotSolo) {
        let c = cells::analyse(
            &cells::cut(aligned.page, &aligned.alignment, bx),
            true,
            false,
        );
        let Some(unpeeled) = c.unpeeled.as_ref().filter(|_| c.circled) else {
            continue;
        };
        let [peeled, drawn] = <[Reading; 2]>::try_from(digits.read_batch(&[&c.digits, unpeeled]))
            .unwrap_or_else(|_| [Reading::none(), Reading::none()]);
        let was_digits = drawn.confidence >= RING_FLAGGED_DRAWN
            && drawn.text != peeled.text
            && drawn.text.len() >= peeled.text.len();
        let (Some(v), Some(cell)) = (drawn.value().filter(|_| was_digits), read.cell_mut(no, s))
        else {
            continue;
        };
        *(if minus {
            &mut cell.minus
        } else {
            &mut cell.plus
        }) = Some(v);
        cell.circled = false;
        cell.notes.ring_was_digits = true;
        let field = Field::Game(no, s + 1, minus);
        if let Some(fr) = readings.fields.iter_mut().find(|fr| fr.field == field) {
            fr.reading = drawn;
        }
        changed = true;
    }
    changed
}

/// Looks again for the ring of every soloist's value flagged
/// `SOLO_NOT_CIRCLED`, with [`cells::ring_searched`]: a tight ring run into
/// the next row's ink is missed at the first look. Where found, the cell
/// is circled and says so (`ring_second_look`); true when any was.
/// Asked only where the rules expect a ring, because looked at everywhere
/// the second look also finds rings in a few unringed values (22 of 40 303
/// on the tuning and development sets): a forgotten ring hides behind it
/// as rarely.
fn rings_on_second_look(sheet: &mut SheetResult, aligned: &AlignedSheet) -> bool {
    let mut found = false;
    for (no, s, bx, _) in flagged_values(sheet, sheet, aligned, Code::SoloNotCircled) {
        let Some(cell) = sheet.cell_mut(no, s) else {
            continue;
        };
        if cells::ring_searched(&cells::cut(aligned.page, &aligned.alignment, bx)) {
            cell.circled = true;
            cell.notes.ring_second_look = true;
            found = true;
        }
    }
    found
}

/// The result for a page that could not be read: nothing guessed.
pub fn unreadable(
    source: &str,
    page: u32,
    seats: usize,
    why: &Unreadable,
    lang: Lang,
) -> SheetResult {
    SheetResult {
        schema: SCHEMA.into(),
        source: Some(source.to_string()),
        page: Some(page),
        form: None,
        rules: None,
        status: Status::Unreadable,
        round: None,
        table: None,
        players: vec![None; seats],
        games: Vec::new(),
        gesamt: vec![None; seats],
        abzug: vec![None; seats],
        endergebnis: vec![None; seats],
        signatures: vec![false; seats],
        flags: vec![Flag {
            code: Code::SheetUnreadable,
            severity: Code::SheetUnreadable.severity(),
            row: None,
            seat: None,
            field: None,
            message: match lang {
                Lang::De => format!("Blatt nicht lesbar: {}.", why.text(lang)),
                Lang::En => format!("Sheet unreadable: {}.", why.text(lang)),
            },
            detail: Default::default(),
            extra: Map::new(),
        }],
        notes: SheetNotes::default(),
        extra: Map::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::read::reading;

    /// A blank merkur page with each `(row, seat, crop)` pasted where
    /// [`cells::cut`] cuts that seat's Plus field, read as `value`, and
    /// `SOLO_NOT_CIRCLED` raised on the rows in `flagged`.
    fn page_with_plus_cells(
        form: &FormTemplate,
        cells_at: &[(u32, usize, u32, &GrayImage)],
        flagged: &[(u32, usize)],
    ) -> (GrayImage, SheetResult) {
        let px = cells::PX_PER_MM;
        let mut page = GrayImage::from_pixel(2200, 3000, image::Luma([255]));
        let mut sheet = unreadable("test", 1, 4, &Unreadable::NoTable, Lang::De);
        sheet.flags.clear();
        for &(no, seat, value, crop) in cells_at {
            let bx = form.fields.game[no as usize - 1][seat].plus;
            let (x0, y0) = (((bx[0] - 1.2) * px).round(), ((bx[1] - 1.2) * px).round());
            image::imageops::replace(&mut page, crop, x0 as i64, y0 as i64);
            let mut cells = vec![
                Cell {
                    plus: None,
                    minus: None,
                    circled: false,
                    corrected: false,
                    ..Cell::default()
                };
                4
            ];
            cells[seat].plus = Some(value);
            match sheet.games.iter_mut().find(|g| g.no == no) {
                Some(g) => g.cells[seat].plus = Some(value),
                None => sheet.games.push(GameRow {
                    no,
                    cells,
                    initials: false,
                    class: None,
                    extra: Map::new(),
                }),
            }
        }
        for &(no, seat) in flagged {
            sheet.flags.push(Flag {
                code: Code::SoloNotCircled,
                severity: Code::SoloNotCircled.severity(),
                row: Some(no),
                seat: Some(seat + 1),
                field: None,
                message: String::new(),
                detail: Default::default(),
                extra: Map::new(),
            });
        }
        (page, sheet)
    }

    /// `page` as a scan of `form` at [`cells::PX_PER_MM`], unturned.
    fn aligned<'a>(page: &'a GrayImage, form: &'a FormTemplate) -> AlignedSheet<'a> {
        AlignedSheet {
            page,
            form,
            alignment: Alignment {
                to_image: crate::page::geometry::Homography::scale_translate(
                    cells::PX_PER_MM,
                    cells::PX_PER_MM,
                    0.0,
                    0.0,
                ),
                fit: 1.0,
                residual_mm: 0.0,
                quarter_turns: 0,
            },
        }
    }

    fn merkur_form(forms: &[FormTemplate]) -> &FormTemplate {
        forms
            .iter()
            .find(|f| f.id == "punkteliste-a4-32")
            .expect("the merkur form")
    }

    /// A reader whose second net says `says` of every cell, counting them.
    struct SecondSays(Reading, usize);

    impl DigitReader for SecondSays {
        fn name(&self) -> &str {
            "second says"
        }
        fn read(&mut self, _: &GrayImage) -> Reading {
            Reading::none()
        }
        fn second_opinion(&mut self, cells: &[&GrayImage]) -> Option<Vec<Reading>> {
            self.1 += cells.len();
            Some(vec![self.0.clone(); cells.len()])
        }
    }

    /// A reader whose first net reads every cell as `.0`, its second (if
    /// it has one) as `.1`.
    struct TwoNets(Reading, Option<Reading>);

    impl DigitReader for TwoNets {
        fn name(&self) -> &str {
            "two nets"
        }
        fn read(&mut self, _: &GrayImage) -> Reading {
            self.0.clone()
        }
        fn second_opinion(&mut self, cells: &[&GrayImage]) -> Option<Vec<Reading>> {
            Some(vec![self.1.clone()?; cells.len()])
        }
    }

    #[test]
    fn a_participant_number_should_stand_where_both_nets_read_it_surely() {
        let forms = FormTemplate::builtins();
        let form = merkur_form(&forms);
        let ink = cells::fixture("thirteen_should_be_no_ring_at_the_second_look.png");
        let mut page = GrayImage::from_pixel(2200, 3000, image::Luma([255]));
        let bx = form.fields.player_id[0];
        let at = |v: f64| ((v + 1.0) * cells::PX_PER_MM).round() as i64;
        image::imageops::replace(&mut page, &ink, at(bx[0]), at(bx[1]));
        let read = |first: Reading, second: Option<Reading>| {
            let mut nets = TwoNets(first, second);
            let (sheet, _) = read_sheet(&aligned(&page, form), &mut nets, "test", 1, Lang::De);
            let flags = sheet
                .flags
                .iter()
                .filter(|f| f.field.as_deref() == Some("player_id"))
                .count();
            (sheet.players[0].clone(), flags)
        };
        let nearly = reading("113", 0.98, &[("112", 0.02)]);
        let sure = reading("113", 0.995, &[("112", 0.005)]);
        // Read at 0.98 and the second net agrees: it stands.
        let agrees = reading("113", 0.99, &[]);
        assert_eq!(read(nearly.clone(), Some(agrees)), (Some("113".into()), 0));
        // With no second net to agree, 0.98 is not sure.
        assert_eq!(read(nearly, None), (Some("113".into()), 1));
        // Read surely, but the second net reads it "112": a person looks.
        let doubts = reading("112", 0.95, &[("113", 0.05)]);
        assert_eq!(read(sure.clone(), Some(doubts)), (Some("113".into()), 1));
        // Read below 0.97: a person looks, whatever the second says.
        let unsure = reading("113", 0.9, &[("112", 0.1)]);
        assert_eq!(read(unsure, Some(sure)).1, 1);
    }

    #[test]
    fn a_second_opinion_should_be_asked_of_a_flagged_rows_unsure_cells_only() {
        let forms = FormTemplate::builtins();
        let form = merkur_form(&forms);
        let thirteen = cells::fixture("thirteen_should_be_no_ring_at_the_second_look.png");
        let (page, mut sheet) =
            page_with_plus_cells(form, &[(19, 0, 13, &thirteen), (19, 3, 13, &thirteen)], &[]);
        sheet.flags.push(Flag {
            code: Code::RowNotZeroSum,
            severity: Code::RowNotZeroSum.severity(),
            row: Some(19),
            seat: None,
            field: None,
            message: String::new(),
            detail: Default::default(),
            extra: Map::new(),
        });
        let mut read = sheet.clone();
        let cell_reading = |seat: usize, r: Reading| FieldReading {
            field: Field::Game(19, seat, false),
            reading: r,
            what: String::new(),
        };
        let mut readings = CellReadings {
            fields: vec![
                cell_reading(1, reading("13", 0.999, &[("18", 0.001)])),
                cell_reading(4, reading("13", 0.6, &[("18", 0.4)])),
            ],
            ..Default::default()
        };
        let mut second = SecondSays(reading("18", 0.9, &[("13", 0.1)]), 0);
        let aligned = aligned(&page, form);
        assert!(second_opinion_where_flagged(
            &sheet,
            &aligned,
            &mut second,
            &mut read,
            &mut readings
        ));
        assert_eq!(second.1, 1, "the unsure cell only");
        assert_eq!(
            readings.fields[0].reading.text, "13",
            "the sure one as read"
        );
        assert_eq!(readings.fields[1].reading.text, "18");
        assert_eq!(read.cell_mut(19, 3).and_then(|c| c.plus), Some(18));
        assert_eq!(read.cell_mut(19, 0).and_then(|c| c.plus), Some(13));
    }

    #[test]
    fn a_solos_ring_missed_at_first_should_be_found_where_flagged_only() {
        let forms = FormTemplate::builtins();
        let form = merkur_form(&forms);
        let ring = cells::fixture(
            "tight_ring_run_into_the_next_rows_ink_should_be_found_at_the_second_look.png",
        );
        let thirteen = cells::fixture("thirteen_should_be_no_ring_at_the_second_look.png");
        // The ring in game 32 is flagged, the same ring in game 5 is not
        // (no rule asks for it there); the 13 is flagged but no ring.
        let (page, mut sheet) = page_with_plus_cells(
            form,
            &[(32, 0, 9, &ring), (5, 0, 9, &ring), (19, 3, 13, &thirteen)],
            &[(32, 0), (19, 3)],
        );
        assert!(rings_on_second_look(&mut sheet, &aligned(&page, form)));
        let cell =
            |no: u32, s: usize| &sheet.games.iter().find(|g| g.no == no).expect("row").cells[s];
        assert!(cell(32, 0).circled);
        assert!(cell(32, 0).notes.ring_second_look);
        assert!(!cell(5, 0).circled, "not flagged, not looked at");
        assert!(!cell(19, 3).circled);
    }

    #[test]
    fn a_loop_taken_for_a_ring_should_be_digits_where_circle_not_solo_stands_only() {
        let forms = FormTemplate::builtins();
        let form = forms
            .iter()
            .find(|f| f.id == "doko-a4-24x5")
            .expect("the Doppelkopf form");
        // wB doppelkopf-0025, game 8, Platz 2: a 9 whose round loop the
        // first look takes for a ring around a "1".
        let nine = cells::fixture(
            "nine_with_a_round_loop_should_be_digits_where_circle_not_solo_stands.png",
        );
        let (page, mut sheet) =
            page_with_plus_cells(form, &[(8, 1, 1, &nine), (3, 1, 1, &nine)], &[]);
        for no in [8, 3] {
            if let Some(c) = sheet.cell_mut(no, 1) {
                c.circled = true;
            }
        }
        sheet.flags.push(Flag {
            code: Code::CircleNotSolo,
            severity: Code::CircleNotSolo.severity(),
            row: Some(8),
            seat: Some(2),
            field: None,
            message: String::new(),
            detail: Default::default(),
            extra: Map::new(),
        });
        let mut read = sheet.clone();
        let mut readings = CellReadings {
            fields: [8, 3]
                .map(|no| FieldReading {
                    field: Field::Game(no, 2, false),
                    reading: reading("1", 0.92, &[]),
                    what: String::new(),
                })
                .to_vec(),
            ..Default::default()
        };
        let mut reader = crate::read::cnn::CnnReader::new().expect("model");
        // Cut where the crop was placed, pixel for pixel: half a pixel
        // off, the bilinear cut blurs it, and the first look sees no ring.
        let mut aligned = aligned(&page, form);
        aligned.alignment.to_image = crate::page::geometry::Homography::scale_translate(
            cells::PX_PER_MM,
            cells::PX_PER_MM,
            -0.5,
            -0.5,
        );
        assert!(rings_that_were_digits(
            &sheet,
            &aligned,
            &mut reader,
            &mut read,
            &mut readings
        ));
        let cell = read.cell_mut(8, 1).expect("game 8");
        assert_eq!((cell.plus, cell.circled), (Some(9), false));
        assert!(cell.notes.ring_was_digits);
        assert_eq!(readings.fields[0].reading.text, "9");
        // Not flagged: left as the first look saw it.
        let cell = read.cell_mut(3, 1).expect("game 3");
        assert_eq!((cell.plus, cell.circled), (Some(1), true));
        assert_eq!(readings.fields[1].reading.text, "1");
    }

    /// dA merkur-0082, Platz 2: the Endergebnis "+32" read "22" (34%),
    /// "32" (32%); the second net reads "32" (56%), "22" (42%).
    fn endergebnis_read_22(value: i64) -> (SheetResult, CellReadings) {
        let mut sheet = unreadable("test", 1, 4, &Unreadable::NoTable, Lang::De);
        sheet.endergebnis[1] = Some(value);
        sheet.gesamt[1] = Some(Gesamt {
            plus: Some(81),
            minus: Some(49),
        });
        let readings = CellReadings {
            fields: vec![
                FieldReading {
                    field: Field::Endergebnis(2),
                    reading: reading("22", 0.337, &[("32", 0.323), ("432", 0.275)]),
                    what: String::new(),
                },
                FieldReading {
                    field: Field::Gesamt(2, true),
                    reading: reading("49", 0.9998, &[("99", 0.0001)]),
                    what: String::new(),
                },
            ],
            ..Default::default()
        };
        (sheet, readings)
    }

    #[test]
    fn a_second_opinion_should_weigh_in_and_set_the_new_best_with_the_sign_as_read() {
        let (mut sheet, mut readings) = endergebnis_read_22(-22);
        let second = reading("32", 0.557, &[("22", 0.425), ("82", 0.011)]);
        assert!(weigh_second_opinion(
            &mut sheet,
            &mut readings,
            Field::Endergebnis(2),
            second
        ));
        let r = &readings.fields[0].reading;
        assert_eq!(r.text, "32");
        assert!((r.confidence - 0.44).abs() < 1e-6, "{}", r.confidence);
        assert_eq!(r.alternatives[0].0, "22");
        assert_eq!(sheet.endergebnis[1], Some(-32));
    }

    #[test]
    fn a_second_opinion_on_a_game_cell_should_set_its_new_best() {
        let mut sheet = unreadable("test", 1, 4, &Unreadable::NoTable, Lang::De);
        let cell = Cell {
            plus: Some(9),
            minus: None,
            circled: false,
            corrected: false,
            ..Cell::default()
        };
        sheet.games.push(GameRow {
            no: 24,
            cells: vec![cell; 4],
            initials: false,
            class: None,
            extra: Map::new(),
        });
        let field = Field::Game(24, 2, false);
        let mut readings = CellReadings {
            fields: vec![FieldReading {
                field,
                reading: reading("9", 0.6, &[("4", 0.4)]),
                what: String::new(),
            }],
            ..Default::default()
        };
        let second = reading("4", 0.9, &[("9", 0.1)]);
        assert!(weigh_second_opinion(
            &mut sheet,
            &mut readings,
            field,
            second
        ));
        assert_eq!(readings.fields[0].reading.text, "4");
        assert_eq!(sheet.games[0].cells[1].plus, Some(4));
        assert_eq!(sheet.games[0].cells[0].plus, Some(9), "the others stay");
    }

    #[test]
    fn a_second_opinion_that_agrees_should_change_nothing() {
        let (mut sheet, mut readings) = endergebnis_read_22(22);
        let same = readings.fields[1].reading.clone();
        assert!(!weigh_second_opinion(
            &mut sheet,
            &mut readings,
            Field::Gesamt(2, true),
            same
        ));
        assert_eq!(sheet.gesamt[1].as_ref().and_then(|g| g.minus), Some(49));
        // A field with no reading (an Endergebnis without its sign) is left.
        let any = reading("7", 0.9, &[]);
        assert!(!weigh_second_opinion(
            &mut sheet,
            &mut readings,
            Field::Abzug(2),
            any
        ));
    }

    #[test]
    fn a_second_opinion_on_an_endergebnis_read_0_should_leave_it() {
        let (mut sheet, mut readings) = endergebnis_read_22(0);
        let second = reading("32", 0.557, &[("22", 0.425)]);
        assert!(!weigh_second_opinion(
            &mut sheet,
            &mut readings,
            Field::Endergebnis(2),
            second
        ));
        assert_eq!(sheet.endergebnis[1], Some(0));
    }

    #[test]
    fn a_ring_should_be_digits_only_if_as_drawn_it_reads_surely_as_more_digits() {
        let one = reading("1", 0.6, &[("7", 0.3)]);
        let ten = reading("10", 0.995, &[]);
        assert!(ring_was_digits(&one, &ten));
        // Nor is the ring digits if as drawn it reads unsure,
        assert!(!ring_was_digits(&one, &reading("10", 0.9, &[])));
        // or the same number of digits (a circled 6 reads 6 with its ring).
        let six = reading("6", 0.5, &[("16", 0.4)]);
        assert!(!ring_was_digits(&six, &reading("6", 1.0, &[])));
    }

    #[test]
    fn a_ring_should_be_digits_where_as_drawn_two_read_and_peeled_fewer_or_doubtfully() {
        // A "12" whose round 2 looked like a ring: peeled, a sure "2".
        let two = reading("2", 0.994, &[]);
        assert!(ring_was_digits(&two, &reading("12", 0.96, &[])));
        // A "10": peeled, a doubtful "30".
        let thirty = reading("30", 0.4, &[("10", 0.3)]);
        assert!(ring_was_digits(&thirty, &reading("10", 0.993, &[])));
        // A tight ring around a 24 closes its 4 into a 9: as drawn "29",
        // peeled a "24" as long and not in doubt keeps the ring.
        let circled = reading("24", 0.979, &[("29", 0.02)]);
        assert!(!ring_was_digits(&circled, &reading("29", 0.988, &[])));
        // One digit as drawn is a ring's 0 or the digit it holds.
        assert!(!ring_was_digits(
            &reading("1", 0.5, &[]),
            &reading("9", 1.0, &[])
        ));
        // Unsure as drawn, the ring stays.
        assert!(!ring_was_digits(&two, &reading("12", 0.93, &[])));
    }

    #[test]
    fn a_ring_that_left_only_scraps_should_be_digits_where_as_drawn_they_read() {
        // A "12" taken for a ring: peeling left a dot and an arc.
        let scraps = reading("22", 0.02, &[("2", 0.01)]);
        assert!(ring_was_digits(&scraps, &reading("12", 0.95, &[])));
        // Not where as drawn it reads the same, or unsure, or shorter
        // (a circled 33 peeled badly still reads 33 with its ring).
        assert!(!ring_was_digits(&scraps, &reading("22", 1.0, &[])));
        assert!(!ring_was_digits(&scraps, &reading("12", 0.8, &[])));
        assert!(!ring_was_digits(&scraps, &reading("9", 1.0, &[])));
        // Nor where peeling left a number read as many digits, not in doubt.
        let as_long = reading("33", 0.92, &[("38", 0.07)]);
        assert!(!ring_was_digits(&as_long, &reading("38", 0.99, &[])));
    }

    #[test]
    fn a_peeled_reading_should_be_in_doubt_where_as_drawn_it_reads_surely_as_another() {
        // A circled 9 whose top ran along the ring: peeled, a sure "4".
        let four = reading("4", 0.996, &[("9", 0.004)]);
        let nine = reading("9", 0.95, &[("4", 0.03)]);
        assert!(peeling_in_doubt(&four, &nine));
        let both = Reading::mean(&[four.clone(), nine]);
        assert!(both.confidence < 0.6, "{both:?}");
        assert!(both.alternatives.iter().any(|(t, _)| t == "9"), "{both:?}");
        // As drawn the same number, or another read unsure: no doubt.
        assert!(!peeling_in_doubt(&four, &reading("4", 0.99, &[])));
        assert!(!peeling_in_doubt(&four, &reading("9", 0.6, &[("4", 0.3)])));
    }
}
