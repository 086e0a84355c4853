//! Every field of an aligned sheet read: marks, digits in one batch per
//! sheet, rings, signs and signatures.

use super::*;

pub(super) struct Reader<'r> {
    pub(super) lang: Lang,
    pub(super) sheet: &'r AlignedSheet<'r>,
    pub(super) digits: &'r mut dyn DigitReader,
    pub(super) flags: Vec<Flag>,
    pub(super) readings: CellReadings,
    /// Number fields with ink, waiting to be read.
    pub(super) pending: Vec<Pending>,
    /// The game fields found circled (once read: whose ring was no digits).
    pub(super) ringed: std::collections::BTreeSet<Field>,
    /// The game fields found corrected: the ink struck out, until read;
    /// then the value struck out, as read.
    pub(super) struck: std::collections::BTreeMap<Field, GrayImage>,
    pub(super) struck_values: std::collections::BTreeMap<Field, Option<u32>>,
    /// The header's print does not lie where the form puts it
    /// ([`HeaderPrint::fits`]): its boxes may hold another field's ink, so
    /// every header value is asked.
    pub(super) header_off: bool,
}

/// A number field with ink, waiting to be read with the sheet's others.
pub(super) struct Pending {
    pub(super) field: Field,
    pub(super) digits: GrayImage,
    pub(super) what: String,
    pub(super) bx: MmBox,
    pub(super) circle: bool,
    /// Of a circled field, its ink with the ring.
    pub(super) unpeeled: Option<GrayImage>,
    /// Whether a value was found struck out in it (its re-cuts leave it out too).
    pub(super) corrected: bool,
}

/// A field as it is cut again ([`Reader::steady`]): its box, whether a
/// ring and a sign are looked for, and whether a value was found struck
/// out in it (its re-cuts leave that out too).
#[derive(Debug, Clone, Copy)]
pub(super) struct Cut {
    pub(super) bx: MmBox,
    pub(super) circle: bool,
    pub(super) sign: bool,
    pub(super) corrected: bool,
}

/// Whether a field found circled was digits and no ring: as drawn, ring
/// and all, its ink reads surely ([`RING_DRAWN_DIGITS`]) as more digits
/// than peeling left, or as two or more where peeling left a doubtful
/// reading (a "1" beside a round "0" is "10" as drawn, a "1" or scraps
/// once "peeled"; a circled 6 read with its ring is still a 6); or what
/// peeling left is scraps ([`RING_LEFT_SCRAPS`]).
pub(super) fn ring_was_digits(peeled: &Reading, drawn: &Reading) -> bool {
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
pub(super) const RING_DRAWN_DIGITS: f32 = 0.95;

/// See [`RING_DRAWN_DIGITS`].
pub(super) const RING_LEFT_DOUBTFUL: f32 = 0.9;

/// Below this, what peeling a ring left is scraps, not the number a ring
/// holds, where the ink as drawn reads otherwise (at [`DRAWN_DISAGREES`])
/// with as many digits. Tuning sets (tA tB tP wA wB wP, 3 982
/// rings found around circled cells, 18 around cells not circled): below
/// 0.1 no circled cell and 3 not circled (each a false CIRCLE_NOT_SOLO);
/// below 0.2, 1 circled cell.
pub(super) const RING_LEFT_SCRAPS: f32 = 0.1;

/// A circled field whose ink as drawn, ring and all, reads at least this
/// surely as another number than its peeled ink: either may be right, and
/// both count half. Tuning sets (tA tB tP wA wB wP, 2 962 circled cells
/// peeled and read surely): the ink as drawn read otherwise at 0.9 on 5 of
/// the 8 read wrong and 27 of the 2 954 read right; at 0.5 on 7 and 428.
pub(super) const DRAWN_DISAGREES: f32 = 0.9;

/// Whether the reading of a circled field's ink as drawn puts its peeled
/// reading in doubt (see [`DRAWN_DISAGREES`]).
pub(super) fn peeling_in_doubt(peeled: &Reading, drawn: &Reading) -> bool {
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
pub(super) const NUMBER_SURE: f32 = 0.97;

/// See [`NUMBER_SURE`]: the second net's probability of the first's text.
pub(super) const SECOND_AGREES: f32 = 0.95;

/// A field read with less than [`CONFIDENT`] is cut again this far aside
/// (mm; half a cutting pixel, so the page is resampled differently) and
/// read again: the reader's answer moves with where the cut falls, and the
/// mean over both cuts is steadier. Measured on the tuning sets (seed 601):
/// offsets of 0.03-0.07 mm gain alike, 0.1 mm (a whole pixel: the same
/// image shifted) nothing; a third cut (the other side) or four no more.
/// A third reading at a cut near the pen's core does add (see
/// `cells::INK_CUT_NEAR_CORE`).
pub(super) const RECUT_MM: [(f64, f64); 1] = [(0.05, 0.05)];

impl Reader<'_> {
    fn cell(&self, bx: MmBox, circle: bool, sign: bool) -> CellImage {
        if cells::looks_blank(self.sheet.page, &self.sheet.alignment, bx) {
            return CellImage::blank();
        }
        let crop = cells::cut(self.sheet.page, &self.sheet.alignment, bx);
        cells::analyse(&crop, circle, sign)
    }

    /// The field's digits cut again at each of [`RECUT_MM`], and at a cut
    /// near the pen's core (those with ink).
    fn recuts(&self, cut: Cut) -> impl Iterator<Item = GrayImage> {
        let Cut {
            bx,
            circle,
            sign,
            corrected,
        } = cut;
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
            .filter(|c| c.mark == Mark::Ink)
            .filter_map(move |c| super::struck::writing_of(c.digits, corrected))
    }

    /// A single field's reading, steadied as [`Reader::steady`] does.
    fn read_one(&mut self, digits: &GrayImage, bx: MmBox, sign: bool) -> Reading {
        let mut r = vec![self.digits.read(digits)];
        let cut = Cut {
            bx,
            circle: false,
            sign,
            corrected: false,
        };
        self.steady(&mut r, &[cut]);
        r.pop().unwrap_or_else(Reading::none)
    }

    /// Each reading below [`CONFIDENT`] becomes the mean of it and its
    /// field's re-cuts' readings (`fields`: one a reading).
    fn steady(&mut self, readings: &mut [Reading], fields: &[Cut]) {
        let recut: Vec<(usize, GrayImage)> = (0..readings.len())
            .filter(|&i| readings[i].confidence < CONFIDENT)
            .flat_map(|i| self.recuts(fields[i]).map(move |d| (i, d)))
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

    /// A number field: its mark now; its digits are read with all the
    /// sheet's others in one batch ([`Reader::read_numbers`]).
    fn number(&mut self, bx: MmBox, circle: bool, field: Field, what: &str) -> CellImage {
        let mut c = self.cell(bx, circle, false);
        if c.mark == Mark::Ink && c.across_side && matches!(field, Field::Game(..)) {
            self.readings.across_side.push(field);
        }
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
                corrected: false,
            });
        }
        c
    }

    /// Reads every pending number field at once: the values as read.
    fn read_numbers(&mut self) -> std::collections::BTreeMap<Field, u32> {
        let mut pending = std::mem::take(&mut self.pending);
        let unsure = self.find_corrections(&mut pending);
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
        let fields: Vec<Cut> = pending
            .iter()
            .map(|p| Cut {
                bx: p.bx,
                circle: p.circle,
                sign: false,
                corrected: p.corrected,
            })
            .collect();
        self.steady(&mut readings, &fields);
        // Digits written over digits, or ink half struck: whatever they
        // read as, a person looks.
        for &i in &unsure {
            readings[i] = Reading::mean(&[readings[i].clone(), Reading::none()]);
        }
        for (p, r) in pending.iter().zip(readings.iter_mut()) {
            if matches!(p.field, Field::Round | Field::Table) {
                *r = self.header_reading(r, &p.digits, p.bx);
            }
        }
        self.read_struck();
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

    /// The game fields among `pending` that hold a correction
    /// ([`super::struck`]): parted ones keep only their writing, their
    /// struck ink waits to be read; gives the indices of those written
    /// over or half struck, whose readings a person must look at.
    ///
    /// A strike across a value can be taken for a ring: a ringed field is
    /// asked with its "ring", and where its ink parts into a struck value
    /// and writing, the ring was the strike and the field is not circled.
    /// Any other finding leaves a ringed field as it is.
    fn find_corrections(&mut self, pending: &mut [Pending]) -> Vec<usize> {
        let games: Vec<(usize, bool)> = (0..pending.len())
            .filter(|&i| matches!(pending[i].field, Field::Game(..)))
            .map(|i| (i, self.ringed.contains(&pending[i].field)))
            .filter(|&(i, ringed)| !ringed || pending[i].unpeeled.is_some())
            .collect();
        let inks: Vec<&GrayImage> = (games.iter())
            .map(|&(i, ringed)| match (ringed, &pending[i].unpeeled) {
                (true, Some(with_ring)) => with_ring,
                _ => &pending[i].digits,
            })
            .collect();
        let found = super::struck::find(&inks);
        let mut unsure = Vec::new();
        for ((i, ringed), found) in games.into_iter().zip(found) {
            let p = &mut pending[i];
            if ringed {
                if !matches!(found, Some(super::struck::Found::Parted { .. })) {
                    continue;
                }
                p.unpeeled = None;
                self.ringed.remove(&p.field);
            }
            p.corrected = match found {
                Some(super::struck::Found::Parted { writing, struck }) => {
                    p.digits = writing;
                    self.struck.insert(p.field, struck);
                    true
                }
                Some(super::struck::Found::Over) => {
                    self.struck_values.insert(p.field, None);
                    unsure.push(i);
                    true
                }
                Some(super::struck::Found::Doubt) => {
                    unsure.push(i);
                    false
                }
                None => false,
            };
        }
        unsure
    }

    /// The values struck out, each read as it is (strike and all): a
    /// reading below [`super::struck::STRUCK_READ`] gives none.
    fn read_struck(&mut self) {
        let struck = std::mem::take(&mut self.struck);
        let images: Vec<&GrayImage> = struck.values().collect();
        let readings = self.digits.read_batch(&images);
        for (field, r) in struck.keys().zip(readings) {
            let value = r
                .value()
                .filter(|_| r.confidence >= super::struck::STRUCK_READ);
            self.struck_values.insert(*field, value);
        }
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
        if self.header_off || self.loses_ink(&r, &c.digits, bx) {
            r = Reading::mean(&[r, Reading::none()]);
        }
        if let Some(shown) = self.doubt_unchecked_number(&r, &c.digits) {
            self.uncertain(seat, field, &shown, what);
            r = shown;
        }
        (!r.text.is_empty()).then_some(r.text)
    }

    /// A round or table number as it stands for decoding. Nothing on the
    /// sheet adds it up, so it stands as read only where its ink holds no
    /// more digits than were read ([`Self::loses_ink`]) and both nets read
    /// it so ([`Self::doubt_unchecked_number`]); otherwise its reading is
    /// halved (a person looks).
    fn header_reading(&mut self, r: &Reading, digits: &GrayImage, bx: MmBox) -> Reading {
        if self.header_off || self.loses_ink(r, digits, bx) {
            return Reading::mean(&[r.clone(), Reading::none()]);
        }
        self.doubt_unchecked_number(r, digits)
            .unwrap_or_else(|| r.clone())
    }

    /// Whether a number's ink holds more pieces than its reading has
    /// digits ([`fewer_digits_than_ink`]), at the digits' cut or at the
    /// paper's shade, where a stroke drawn lighter than the rest stays.
    fn loses_ink(&self, r: &Reading, digits: &GrayImage, bx: MmBox) -> bool {
        if fewer_digits_than_ink(r, digits) {
            return true;
        }
        let crop = cells::cut(self.sheet.page, &self.sheet.alignment, bx);
        let shaded = cells::analyse_shaded(&crop);
        shaded.mark == Mark::Ink && fewer_digits_than_ink(r, &shaded.digits)
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

    /// A header field's name as a person reads it, saying why it is
    /// asked where the header's print is not where the form puts it.
    fn header_field(&self, what: String) -> String {
        if self.header_off {
            say(self.lang, "field-header-off", &[("what", &what)])
        } else {
            what
        }
    }

    fn has_ink(&self, bx: MmBox, min_mm2: f64) -> bool {
        let c = self.cell(bx, false, false);
        c.mark != Mark::Empty
            && f64::from(c.ink_px) >= min_mm2 * cells::PX_PER_MM * cells::PX_PER_MM
    }
}

/// Whether a reading has fewer digits than its ink has pieces (each at
/// least one digit, [`crate::read::cnn::segment`]): a digit was lost, a
/// "148" read "48".
fn fewer_digits_than_ink(r: &Reading, digits: &GrayImage) -> bool {
    let read = r.text.chars().filter(char::is_ascii_digit).count();
    crate::read::cnn::segment(digits).len() > read
}

pub(super) fn round2(v: f32) -> f64 {
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
        struck: Default::default(),
        struck_values: Default::default(),
        header_off: sheet.header_off,
    };
    let what = r.header_field(say(r.lang, "field-round", &[]));
    r.number(f.round, false, Field::Round, &what);
    let what = r.header_field(say(r.lang, "field-table", &[]));
    r.number(f.table, false, Field::Table, &what);
    let players = (0..seats)
        .map(|s| {
            let what = r.header_field(say(r.lang, "field-player-id", &[("seat", &(s + 1))]));
            r.digits_text(f.player_id[s], Some(s + 1), "player_id", &what)
        })
        .collect();

    let mut games = game_rows(&mut r, f, seats);

    queue_gesamt_and_abzug(&mut r, f, seats);
    let values = r.read_numbers();
    let value = |field: Field| values.get(&field).copied();
    fill_game_cells(&mut games, &values, &r.ringed, &r.struck_values);
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
            form_sha256: Some(form.content_sha256()),
            ..SheetNotes::default()
        },
        extra: Map::new(),
    };
    (sheet, r.readings)
}

/// Each seat's Gesamt and Abzug queued for reading.
fn queue_gesamt_and_abzug(r: &mut Reader<'_>, f: &Fields, seats: usize) {
    for s in 0..seats {
        for (bx, minus, column) in [
            (f.gesamt[s].plus, false, "plus"),
            (f.gesamt[s].minus, true, "minus"),
        ] {
            let what = say(
                r.lang,
                "field-gesamt",
                &[("seat", &(s + 1)), ("column", &column)],
            );
            r.number(bx, false, Field::Gesamt(s + 1, minus), &what);
        }
        let what = say(r.lang, "field-abzug", &[("seat", &(s + 1))]);
        r.number(f.abzug[s], false, Field::Abzug(s + 1), &what);
    }
}

/// The game cells' values as read, their rings, and the values found
/// struck out (the cell corrected).
fn fill_game_cells(
    games: &mut [GameRow],
    values: &std::collections::BTreeMap<Field, u32>,
    ringed: &std::collections::BTreeSet<Field>,
    struck: &std::collections::BTreeMap<Field, Option<u32>>,
) {
    for g in games {
        for (s, c) in g.cells.iter_mut().enumerate() {
            let (plus, minus) = (
                Field::Game(g.no, s + 1, false),
                Field::Game(g.no, s + 1, true),
            );
            c.plus = values.get(&plus).copied();
            c.minus = values.get(&minus).copied();
            c.circled = ringed.contains(&plus) || ringed.contains(&minus);
            for (field, minus) in [(plus, false), (minus, true)] {
                if let Some(&value) = struck.get(&field) {
                    c.corrected = true;
                    c.notes.struck = Some(crate::sheet::notes::Struck { minus, value });
                }
            }
        }
    }
}

/// Every printed game row with writing on it; the cells' numbers are
/// queued for reading and filled in once read (a ring may turn out to be digits).
pub(super) fn game_rows(r: &mut Reader<'_>, f: &Fields, seats: usize) -> Vec<GameRow> {
    let mut games = Vec::new();
    for (i, row) in f.game.iter().enumerate() {
        let no = i as u32 + 1;
        let mut cells = Vec::with_capacity(seats);
        let mut any = false;
        for (s, pm) in row.iter().enumerate() {
            let lang = r.lang;
            let what = |column: &str| {
                let seat = s + 1;
                say(
                    lang,
                    "field-game",
                    &[("row", &no), ("seat", &seat), ("column", &column)],
                )
            };
            let pc = r.number(pm.plus, true, Field::Game(no, s + 1, false), &what("plus"));
            let mc = r.number(pm.minus, true, Field::Game(no, s + 1, true), &what("minus"));
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
pub(super) fn endergebnisse(r: &mut Reader<'_>, f: &Fields, seats: usize) -> Vec<Option<i64>> {
    (0..seats)
        .map(|s| {
            let c = r.cell(f.endergebnis[s], false, true);
            if c.mark != Mark::Ink {
                return None;
            }
            let reading = r.read_one(&c.digits, f.endergebnis[s], true);
            let value = reading.value().map(i64::from);
            let what = say(r.lang, "field-endergebnis", &[("seat", &(s + 1))]);
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
pub(super) fn placement(a: &Alignment) -> Placement {
    Placement {
        fit: round2(a.fit as f32),
        quarter_turns: a.quarter_turns,
        residual_mm: round2(a.residual_mm as f32),
        row_numbers_read: None,
        title_matches: None,
        title_read: None,
        header_off: false,
        thin_lines_lost: a.thin_lines_lost,
        to_image: a.to_image.0.transpose().as_slice().to_vec(),
        upside_down: a.quarter_turns == 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::reading;

    /// Ink of `digits` upright strokes 40 px high, 24 px apart.
    fn strokes(digits: u32) -> GrayImage {
        GrayImage::from_fn(24 * digits + 8, 56, |x, y| {
            let stroke = (8..48).contains(&y) && x % 24 >= 8 && x % 24 < 14;
            image::Luma([if stroke { 0 } else { 255 }])
        })
    }

    #[test]
    fn a_number_read_with_a_digit_fewer_than_its_ink_should_be_told() {
        assert!(fewer_digits_than_ink(
            &reading("48", 0.999, &[]),
            &strokes(3)
        ));
        assert!(!fewer_digits_than_ink(
            &reading("148", 0.999, &[]),
            &strokes(3)
        ));
        assert!(!fewer_digits_than_ink(
            &reading("11", 0.999, &[]),
            &strokes(2)
        ));
    }
}
