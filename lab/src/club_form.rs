//! Club forms: Punktelisten laid out the many ways clubs print their own
//! (margins, column widths, row heights, 20–40 rows, 4 or 5 seats, a title
//! and labels of their own, with or without a Wohnort row), drawn as form
//! templates. The product learns a form from its blank; these are the
//! truth it is held against.
//!
//! The shipped forms are two such layouts ([`Layout::punkteliste`],
//! [`Layout::doko`]).

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

use aufsicht::page::form::FormTemplate;

/// Ruled line widths in mm: thin inside a block, thick around blocks and
/// between seats.
const THICK: f64 = 0.5;
const THIN: f64 = 0.2;

/// Layouts drawn from these seeds on are held out: no test and no choice
/// in the learning looks at them; only `evaluate` reports on them.
pub const HELD_OUT_SEEDS: u64 = 1000;

/// The printed words of a form (a club's may differ from the shipped).
#[derive(Debug, Clone)]
pub struct Words {
    pub title: String,
    pub round: String,
    pub table: String,
    pub players: String,
    pub player_id: String,
    pub name: String,
    pub home: String,
    pub number: String,
    pub check: String,
    pub gesamt: String,
    pub abzug: String,
    pub end: String,
    pub signature: String,
}

/// Where everything of a form lies, in mm.
#[derive(Debug, Clone)]
pub struct Layout {
    pub id: String,
    pub game: &'static str,
    pub seats: usize,
    pub games: usize,
    /// The game table's left edge, the label column's right, and the
    /// table's right edge (the Aufs. column ends there).
    pub left: f64,
    pub label_right: f64,
    pub seat_w: f64,
    pub aufs_w: f64,
    pub grid_top: f64,
    pub head_h: f64,
    pub row_h: f64,
    pub footer_h: f64,
    /// The player block: its top, its rows' height, and whether it has a
    /// Wohnort row below the name.
    pub block_top: f64,
    pub block_row_h: f64,
    pub home_row: bool,
    /// The round and table boxes: their top, width and height, and the
    /// table box's right edge.
    pub box_top: f64,
    pub box_w: f64,
    pub box_h: f64,
    pub boxes_right: f64,
    pub signature_gap: f64,
    pub signature_h: f64,
    pub title_size: f64,
    pub words: Words,
}

impl Words {
    fn shipped(title: &str) -> Self {
        Words {
            title: title.into(),
            round: "Runde".into(),
            table: "Tisch".into(),
            players: "Spieler".into(),
            player_id: "Teilnehmer-Nr.".into(),
            name: "Name".into(),
            home: "Wohnort".into(),
            number: "Nr.".into(),
            check: "Aufs.".into(),
            gesamt: "Gesamt".into(),
            abzug: "Abzug".into(),
            end: "Endergebnis".into(),
            signature: "Unterschrift".into(),
        }
    }

    fn drawn(rng: &mut ChaCha8Rng, game: &str) -> Self {
        let mut pick = |options: &[&str]| options[rng.random_range(0..options.len())].to_string();
        let club = pick(&[
            "SK Eichenau",
            "Schafkopffreunde Au",
            "Trumpf Ass Moosach",
            "Kartlerverein Erding",
            "DK-Runde Gilching",
        ]);
        let kind = if game == "schafkopf" {
            pick(&["Schafkopfrennen", "Schafkopf-Turnier", "Preisschafkopf"])
        } else {
            pick(&["Doppelkopf-Turnier", "Doko-Abend"])
        };
        Words {
            title: format!("{club} - {kind}"),
            round: pick(&["Runde", "Durchgang"]),
            table: "Tisch".into(),
            players: "Spieler".into(),
            player_id: pick(&["Teilnehmer-Nr.", "Startnummer", "Spieler-Nr."]),
            name: "Name".into(),
            home: pick(&["Wohnort", "Verein"]),
            number: pick(&["Nr.", "Spiel"]),
            check: pick(&["Aufs.", "Aufsicht"]),
            gesamt: pick(&["Gesamt", "Summe"]),
            abzug: "Abzug".into(),
            end: pick(&["Endergebnis", "Ergebnis"]),
            signature: pick(&["Unterschrift", "Unterschriften"]),
        }
    }
}

impl Layout {
    /// The shipped Schafkopf form, `punkteliste-a4-32`.
    pub fn punkteliste() -> Self {
        Self::shipped("punkteliste-a4-32", "schafkopf", 4, 32, 38.5, 6.0)
    }

    /// The shipped Doppelkopf form, `doko-a4-24x5`.
    pub fn doko() -> Self {
        Self::shipped("doko-a4-24x5", "doppelkopf", 5, 24, 30.8, 7.5)
    }

    fn shipped(
        id: &str,
        game: &'static str,
        seats: usize,
        games: usize,
        seat_w: f64,
        row_h: f64,
    ) -> Self {
        let title = if game == "schafkopf" {
            "Schafkopf-Turnier - Punkteliste"
        } else {
            "Doppelkopf-Turnier - Punkteliste"
        };
        Layout {
            id: id.into(),
            game,
            seats,
            games,
            left: 12.0,
            label_right: 32.0,
            seat_w,
            aufs_w: 12.0,
            grid_top: 57.0,
            head_h: 6.0,
            row_h,
            footer_h: 7.0,
            block_top: 26.0,
            block_row_h: 7.0,
            home_row: true,
            box_top: 14.0,
            box_w: 14.0,
            box_h: 8.0,
            boxes_right: 196.0,
            signature_gap: 3.0,
            signature_h: 12.0,
            title_size: 5.0,
            words: Words::shipped(title),
        }
    }

    /// The shipped rule set a sheet on this form is played by.
    pub fn rules(&self) -> &'static str {
        match (self.game, self.games) {
            ("doppelkopf", _) => "doppelkopf",
            (_, 30 | 31) => "turnier30",
            _ => "merkur",
        }
    }

    /// A club's layout drawn from `seed` (from [`HELD_OUT_SEEDS`] on, a
    /// held-out one).
    pub fn drawn(seed: u64) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed_f0f0);
        let seats = if rng.random_bool(0.5) { 4 } else { 5 };
        let game = if seats == 5 || rng.random_bool(0.3) {
            "doppelkopf"
        } else {
            "schafkopf"
        };
        // Enough rows for the rule sets' games: Schafkopf 30 or 32, Doppelkopf 16 or 20.
        let games = rng.random_range(if game == "schafkopf" {
            30..=40
        } else {
            20..=40
        });
        let left = rng.random_range(8.0..20.0f64).round();
        let right = 210.0 - rng.random_range(8.0..20.0f64).round();
        let label_w = rng.random_range(12.0..24.0f64).round();
        let aufs_w = rng.random_range(9.0..15.0f64).round();
        let seat_w = round_to((right - left - label_w - aufs_w) / seats as f64, 0.1);
        let box_top = rng.random_range(9.0..15.0f64).round();
        let box_h = rng.random_range(7.0..10.0f64).round();
        let block_top = box_top + box_h + rng.random_range(3.0..6.0f64).round();
        let block_row_h = rng.random_range(6.0..8.5f64).round();
        let home_row = rng.random_bool(0.5);
        let block_rows = if home_row { 4.0 } else { 3.0 };
        let grid_top = block_top + block_rows * block_row_h + rng.random_range(2.0..6.0f64).round();
        let head_h = rng.random_range(5.0..8.0f64).round();
        let footer_h = rng.random_range(6.0..8.0f64).round();
        let signature_gap = rng.random_range(2.0..5.0f64).round();
        let signature_h = rng.random_range(8.0..14.0f64).round();
        let bottom = 297.0 - rng.random_range(6.0..12.0f64);
        let room = bottom - grid_top - head_h - 3.0 * footer_h - signature_gap - signature_h;
        let row_h = round_to((room / games as f64).min(9.0), 0.1);
        Layout {
            id: format!("club-{seed}"),
            game,
            seats,
            games,
            left,
            label_right: left + label_w,
            seat_w,
            aufs_w,
            grid_top,
            head_h,
            row_h,
            footer_h,
            block_top,
            block_row_h,
            home_row,
            box_top,
            box_w: rng.random_range(12.0..18.0f64).round(),
            box_h,
            boxes_right: right - rng.random_range(0.0..4.0f64).round(),
            signature_gap,
            signature_h,
            title_size: rng.random_range(4.0..6.0f64).round(),
            words: Words::drawn(&mut rng, game),
        }
    }

    /// The left edge of every seat's column, and the right edge of the last.
    pub fn seat_x(&self) -> Vec<f64> {
        (0..=self.seats)
            .map(|s| round_to(self.label_right + s as f64 * self.seat_w, 0.01))
            .collect()
    }

    fn rows_y(&self) -> Vec<f64> {
        let first = self.grid_top + self.head_h;
        (0..self.games)
            .map(|r| round_to(first + r as f64 * self.row_h, 0.01))
            .collect()
    }

    fn footer_y(&self) -> [f64; 4] {
        let ges = round_to(
            self.grid_top + self.head_h + self.games as f64 * self.row_h,
            0.01,
        );
        [0.0, 1.0, 2.0, 3.0].map(|k| round_to(ges + k * self.footer_h, 0.01))
    }

    fn right(&self) -> f64 {
        self.seat_x()[self.seats] + self.aufs_w
    }

    /// The round and table boxes, left to right.
    fn boxes(&self) -> [[f64; 4]; 2] {
        let table_x = self.boxes_right - self.box_w;
        let round_x = table_x - self.box_w - 18.0;
        [round_x, table_x].map(|x| [x, self.box_top, self.box_w, self.box_h])
    }

    /// The form as a template: fields, ruled lines, title and labels.
    pub fn template(&self) -> FormTemplate {
        let json = self.json();
        FormTemplate::from_json(&self.id, &json.to_string())
            .expect("a drawn layout is a valid form")
    }

    /// The template's JSON (what a club's file holds).
    pub fn json(&self) -> Value {
        let seat_x = self.seat_x();
        let half = self.seat_w / 2.0;
        let block_y = |k: f64| round_to(self.block_top + k * self.block_row_h, 0.01);
        let pm = |x: f64, y: f64, h: f64| json!({"plus": [x, y, round_to(half, 0.01), h], "minus": [round_to(x + half, 0.01), y, round_to(half, 0.01), h]});
        let seat_boxes = |y: f64, h: f64| -> Vec<Value> {
            seat_x[..self.seats]
                .iter()
                .map(|&x| json!([x, y, self.seat_w, h]))
                .collect()
        };
        let [ges, abz, end, bottom] = self.footer_y();
        let aufs_x = seat_x[self.seats];
        let [round, table] = self.boxes();
        let sig_top = bottom + self.signature_gap;
        json!({
            "id": self.id,
            "game": self.game,
            "page_mm": [210.0, 297.0],
            "seats": self.seats,
            "games": self.games,
            "title": self.words.title,
            "fields": {
                "round": round,
                "table": table,
                "player_id": seat_boxes(block_y(1.0), self.block_row_h),
                "player_name": seat_boxes(block_y(2.0), self.block_row_h),
                "game": self.rows_y().iter().map(|&y| seat_x[..self.seats].iter().map(|&x| pm(x, y, self.row_h)).collect::<Vec<_>>()).collect::<Vec<_>>(),
                "initials": self.rows_y().iter().map(|&y| json!([aufs_x, y, self.aufs_w, self.row_h])).collect::<Vec<_>>(),
                "gesamt": seat_x[..self.seats].iter().map(|&x| pm(x, ges, self.footer_h)).collect::<Vec<_>>(),
                "abzug": seat_boxes(abz, self.footer_h),
                "endergebnis": seat_boxes(end, self.footer_h),
                "signature": seat_boxes(sig_top, self.signature_h),
            },
            "grid": [self.left, self.grid_top, round_to(self.right() - self.left, 0.01), round_to(bottom - self.grid_top, 0.01)],
            "lines": self.lines(),
            "texts": self.texts(),
        })
    }

    fn lines(&self) -> Vec<[f64; 5]> {
        let seat_x = self.seat_x();
        let (left, right, block_right) = (self.left, self.right(), seat_x[self.seats]);
        let mut lines = Vec::new();
        let mut h = |y: f64, x1: f64, x2: f64, w: f64| lines.push([x1, y, x2, y, w]);
        for [x, y, w, bh] in self.boxes() {
            h(y, x, x + w, THIN);
            h(y + bh, x, x + w, THIN);
        }
        let block_rows = if self.home_row { 4 } else { 3 };
        let block_bottom = self.block_top + block_rows as f64 * self.block_row_h;
        h(self.block_top, left, block_right, THICK);
        for k in 1..block_rows {
            h(
                self.block_top + k as f64 * self.block_row_h,
                left,
                block_right,
                THIN,
            );
        }
        h(block_bottom, left, block_right, THICK);
        let [ges, abz, end, bottom] = self.footer_y();
        h(self.grid_top, left, right, THICK);
        let rows = self.rows_y();
        h(rows[0], left, right, THICK);
        for &y in &rows[1..] {
            h(y, left, right, THIN);
        }
        h(ges, left, right, THICK);
        h(abz, left, right, THIN);
        h(end, left, right, THIN);
        h(bottom, left, right, THICK);
        let sig_top = bottom + self.signature_gap;
        h(sig_top, seat_x[0], block_right, THIN);
        h(sig_top + self.signature_h, seat_x[0], block_right, THIN);
        let mut v = |x: f64, y1: f64, y2: f64, w: f64| lines.push([x, y1, x, y2, w]);
        for [x, y, w, bh] in self.boxes() {
            v(x, y, y + bh, THIN);
            v(x + w, y, y + bh, THIN);
        }
        for &x in [left, self.label_right].iter().chain(&seat_x[1..]) {
            v(x, self.block_top, block_bottom, THICK);
        }
        for &x in [left, self.label_right]
            .iter()
            .chain(&seat_x[1..])
            .chain(&[right])
        {
            v(x, self.grid_top, bottom, THICK);
        }
        for &x in &seat_x[..self.seats] {
            v(
                round_to(x + self.seat_w / 2.0, 0.01),
                self.grid_top,
                abz,
                THIN,
            );
        }
        for &x in &seat_x {
            v(x, sig_top, sig_top + self.signature_h, THICK);
        }
        lines.iter().map(|l| l.map(|c| round_to(c, 0.01))).collect()
    }

    fn texts(&self) -> Vec<Value> {
        let w = &self.words;
        let seat_x = self.seat_x();
        let [round, table] = self.boxes();
        // A label in the label column, as large as it fits there.
        let room = self.label_right - self.left - 2.0;
        let label = |text: &str, x: f64, y: f64, size: f64| json!({"text": text, "x": x, "y": y, "size": fitted(text, room, size, false).0});
        let centred = |text: &str, x: f64, y: f64, size: f64, bold: bool| json!({"text": text, "x": round_to(x, 0.01), "y": round_to(y, 0.01), "size": size, "bold": bold, "anchor": "center"});
        let box_mid = self.box_top + self.box_h / 2.0;
        // The title ends 4 mm before the round box's label begins.
        let round_label = round[0] - 2.0 - fitted(&w.round, f64::MAX, 3.4, false).1;
        let (title_size, _) = fitted(
            &w.title,
            round_label - 4.0 - self.left,
            self.title_size,
            true,
        );
        let mut texts = vec![
            json!({"text": w.title, "x": self.left, "y": round_to(box_mid - 0.6, 0.01), "size": title_size, "bold": true}),
            json!({"text": w.round, "x": round[0] - 2.0, "y": box_mid, "size": 3.4, "anchor": "right"}),
            json!({"text": w.table, "x": table[0] - 2.0, "y": box_mid, "size": 3.4, "anchor": "right"}),
        ];
        let mid = |k: f64| round_to(self.block_top + (k + 0.5) * self.block_row_h, 0.01);
        let mut block = vec![
            (w.players.as_str(), mid(0.0)),
            (&w.player_id, mid(1.0)),
            (&w.name, mid(2.0)),
        ];
        if self.home_row {
            block.push((&w.home, mid(3.0)));
        }
        for (text, y) in block {
            texts.push(label(text, self.left + 1.0, y, 2.0));
        }
        for s in 0..self.seats {
            let x = (seat_x[s] + seat_x[s + 1]) / 2.0;
            texts.push(centred(
                &format!("{} {}", w.players, s + 1),
                x,
                mid(0.0),
                3.2,
                true,
            ));
        }
        let head_y = self.grid_top + self.head_h / 2.0;
        texts.push(centred(
            &w.number,
            (self.left + self.label_right) / 2.0,
            head_y,
            3.0,
            true,
        ));
        for &x in &seat_x[..self.seats] {
            let q = self.seat_w / 4.0;
            texts.push(centred("+", x + q, head_y, 4.0, true));
            texts.push(centred("-", x + 3.0 * q, head_y, 4.0, true));
        }
        texts.push(centred(
            &w.check,
            seat_x[self.seats] + self.aufs_w / 2.0,
            head_y,
            2.4,
            false,
        ));
        for (i, y) in self.rows_y().iter().enumerate() {
            texts.push(centred(
                &(i + 1).to_string(),
                (self.left + self.label_right) / 2.0,
                y + self.row_h / 2.0,
                3.0,
                false,
            ));
        }
        let [ges, abz, end, bottom] = self.footer_y();
        for (text, y) in [(&w.gesamt, ges), (&w.abzug, abz), (&w.end, end)] {
            let mut t = label(
                text,
                self.left + 1.0,
                round_to(y + self.footer_h / 2.0, 0.01),
                2.4,
            );
            t["bold"] = json!(true);
            texts.push(t);
        }
        let sig_mid = bottom + self.signature_gap + self.signature_h / 2.0;
        texts.push(label(
            &w.signature,
            self.left + 1.0,
            round_to(sig_mid, 0.01),
            2.4,
        ));
        texts
    }
}

/// The cap height (mm) at which `text` fits in `room` mm, at most `size`,
/// and its width then: the forms' sans print is about 0.78 of its cap
/// height a letter (0.86 bold).
fn fitted(text: &str, room: f64, size: f64, bold: bool) -> (f64, f64) {
    let per_mm = text.chars().count() as f64 * if bold { 0.86 } else { 0.78 };
    let size = round_to(size.min(room / per_mm), 0.1);
    (size, size * per_mm)
}

fn round_to(v: f64, step: f64) -> f64 {
    (v / step).round() * step
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shipped templates are two layouts: every field box the same.
    #[test]
    fn the_shipped_forms_should_be_two_layouts() {
        for layout in [Layout::punkteliste(), Layout::doko()] {
            let drawn = layout.template();
            let shipped = FormTemplate::load(&layout.id).expect("shipped");
            let (a, b) = (drawn.named_boxes(), shipped.named_boxes());
            assert_eq!(a.len(), b.len(), "{}", layout.id);
            for ((name, x), (_, y)) in a.iter().zip(&b) {
                let off = x
                    .iter()
                    .zip(y)
                    .map(|(p, q)| (p - q).abs())
                    .fold(0.0, f64::max);
                assert!(off < 0.02, "{} {name}: {x:?} against {y:?}", layout.id);
            }
            assert_eq!(drawn.grid(), shipped.grid(), "{}", layout.id);
        }
    }

    #[test]
    fn drawn_layouts_should_fit_the_page_and_vary() {
        let layouts: Vec<Layout> = (1..=40).map(Layout::drawn).collect();
        for l in &layouts {
            let form = l.template();
            let bottom = form.fields.signature[0][1] + form.fields.signature[0][3];
            assert!(bottom < 293.0, "{}: ends at {bottom}", l.id);
        }
        let seats: std::collections::BTreeSet<usize> = layouts.iter().map(|l| l.seats).collect();
        let homes = layouts.iter().filter(|l| l.home_row).count();
        assert_eq!(seats.len(), 2);
        assert!((5..35).contains(&homes), "{homes} of 40 with a Wohnort row");
        assert!(layouts.iter().any(|l| l.games <= 24) && layouts.iter().any(|l| l.games >= 36));
    }
}
