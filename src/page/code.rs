//! The code `print` puts on a drawn table's sheet: what it holds (a
//! [`TableCode`]), its drawing as a QR code, and its reading back from a
//! page (rqrr, pure Rust).
//!
//! The text is digits only, so QR's numeric mode packs it into a version 2
//! symbol (25 modules), whose modules stay large enough for a phone photo
//! in the space beside the player block: `1`, the tournament's tag (6
//! digits), the form's tag (4), the round (2), the table (3), then each
//! seat's number as its length (1 digit, 0 for an empty seat) and its
//! digits. A tag is a name's SHA-256 read as a number, its last digits:
//! it tells one night's or form's sheets from another's.

use image::{GrayImage, Luma};
use sha2::{Digest, Sha256};

/// The resolution `print` draws its pages at: a symbol's module size
/// follows from it ([`TableCode::draw`] takes whole pixels a module).
pub const PRINT_DPI: f64 = 300.0;

/// The first digit of every code of this layout.
const LAYOUT: char = '1';

/// Digits of a tournament's and of a form's tag.
const TOURNAMENT_DIGITS: usize = 6;
const FORM_DIGITS: usize = 4;

/// What a printed sheet's code says about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableCode {
    /// The tag of the tournament's name ([`TableCode::tournament_tag`]).
    pub tournament: String,
    /// The tag of the form's id ([`TableCode::form_tag`]).
    pub form: String,
    pub round: u32,
    pub table: u32,
    /// The seated players' numbers, in seat order; an empty seat empty.
    pub players: Vec<String>,
}

impl TableCode {
    /// The code of a table: the tournament's and form's names made tags.
    pub fn new(tournament: &str, form: &str, round: u32, table: u32, players: Vec<String>) -> Self {
        TableCode {
            tournament: Self::tournament_tag(tournament),
            form: Self::form_tag(form),
            round,
            table,
            players,
        }
    }

    pub fn tournament_tag(name: &str) -> String {
        tag(name, TOURNAMENT_DIGITS)
    }

    pub fn form_tag(id: &str) -> String {
        tag(id, FORM_DIGITS)
    }

    /// The code's text; `None` where a number does not fit its digits.
    pub fn to_text(&self) -> Option<String> {
        let mut text = format!(
            "{LAYOUT}{}{}{:02}{:03}",
            self.tournament, self.form, self.round, self.table
        );
        for p in &self.players {
            if p.len() > 9 || !p.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            text.push_str(&format!("{}{p}", p.len()));
        }
        let fits = self.round < 100 && self.table < 1000;
        let tags = self.tournament.len() == TOURNAMENT_DIGITS && self.form.len() == FORM_DIGITS;
        (fits && tags).then_some(text)
    }

    /// A code's text read back; `None` for any other text.
    pub fn parse(text: &str) -> Option<TableCode> {
        let rest = text.strip_prefix(LAYOUT)?;
        if !rest.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let mut at = 0;
        let mut take = |n: usize| {
            let s = rest.get(at..at + n)?;
            at += n;
            Some(s.to_string())
        };
        let tournament = take(TOURNAMENT_DIGITS)?;
        let form = take(FORM_DIGITS)?;
        let round = take(2)?.parse().ok()?;
        let table = take(3)?.parse().ok()?;
        let mut players = Vec::new();
        while let Some(len) = take(1) {
            players.push(take(len.parse().ok()?)?);
        }
        // A table of nobody is no table.
        (!players.is_empty()).then_some(TableCode {
            tournament,
            form,
            round,
            table,
            players,
        })
    }

    /// The code as a QR symbol, `side` pixels square (its quiet zone
    /// inside), black on white; `None` where the text does not fit a QR
    /// code or the side is too small for its modules.
    pub fn draw(&self, side: u32) -> Option<GrayImage> {
        let code = qrcode::QrCode::with_error_correction_level(
            self.to_text()?.as_bytes(),
            qrcode::EcLevel::M,
        )
        .ok()?;
        let modules = code.width() as u32;
        let colors = code.to_colors();
        let cell = module_px(side, modules);
        if cell == 0 {
            return None;
        }
        let offset = (side - cell * modules) / 2;
        Some(GrayImage::from_fn(side, side, |x, y| {
            let (mx, my) = (x.checked_sub(offset), y.checked_sub(offset));
            let dark = match (mx.map(|v| v / cell), my.map(|v| v / cell)) {
                (Some(mx), Some(my)) if mx < modules && my < modules => {
                    colors[(my * modules + mx) as usize] == qrcode::Color::Dark
                }
                _ => false,
            };
            Luma([if dark { 0 } else { 255 }])
        }))
    }

    /// The first code of this layout found in `image`, as it is or, where
    /// a soft scan hides it from the detector's own thresholds, black and
    /// white at its Otsu level.
    pub fn find(image: &GrayImage) -> Option<TableCode> {
        FoundCode::on(image).map(|f| f.code)
    }
}

/// The side (mm) of a symbol of `modules` that `print` draws into a
/// square of `box_side` mm: whole pixels a module at [`PRINT_DPI`], one
/// module of quiet zone each side; the symbol centred in the square.
pub fn printed_symbol_side(box_side: f64, modules: usize) -> f64 {
    let side_px = (box_side * PRINT_DPI / 25.4).round() as u32;
    let modules = u32::try_from(modules).unwrap_or(u32::MAX);
    f64::from(module_px(side_px, modules) * modules) * 25.4 / PRINT_DPI
}

/// Whole pixels a module in a square of `side` px: one module of quiet
/// zone on each side (the paper around the code is blank beyond it), and
/// the modules as large as the square lets.
fn module_px(side: u32, modules: u32) -> u32 {
    side / modules.saturating_add(2)
}

/// A code found on a page: what it says and where its symbol lies.
#[derive(Debug, Clone, PartialEq)]
pub struct FoundCode {
    pub code: TableCode,
    /// The symbol's corners in image px, in its own reading order:
    /// top-left, top-right, bottom-right, bottom-left of the module grid.
    pub corners: [(f64, f64); 4],
    /// Modules on a side (21 for version 1, 25 for version 2, ...).
    pub modules: usize,
}

impl FoundCode {
    /// [`TableCode::find`], keeping where the symbol was.
    pub fn on(image: &GrayImage) -> Option<FoundCode> {
        Self::on_as_is(image).or_else(|| {
            let level = imageproc::contrast::otsu_level(image);
            let binary = imageproc::contrast::threshold(
                image,
                level,
                imageproc::contrast::ThresholdType::Binary,
            );
            Self::on_as_is(&binary)
        })
    }

    fn on_as_is(image: &GrayImage) -> Option<FoundCode> {
        let mut prepared = rqrr::PreparedImage::prepare_from_greyscale(
            image.width() as usize,
            image.height() as usize,
            |x, y| image.get_pixel(x as u32, y as u32)[0],
        );
        prepared.detect_grids().iter().find_map(|g| {
            let (meta, text) = g.decode().ok()?;
            let code = TableCode::parse(&text)?;
            let modules = 17 + 4 * meta.version.0;
            let bounds = g.bounds.map(|p| (f64::from(p.x), f64::from(p.y)));
            // The detector's bounds lie one module beyond the last one
            // (its grid runs to size + 1): the symbol's own corners are
            // that share in from the first.
            let f = modules as f64 / (modules as f64 + 1.0);
            let at = |u: f64, v: f64| {
                let [tl, tr, br, bl] = bounds;
                let top = (tl.0 + (tr.0 - tl.0) * u, tl.1 + (tr.1 - tl.1) * u);
                let bottom = (bl.0 + (br.0 - bl.0) * u, bl.1 + (br.1 - bl.1) * u);
                (
                    top.0 + (bottom.0 - top.0) * v,
                    top.1 + (bottom.1 - top.1) * v,
                )
            };
            Some(FoundCode {
                code,
                corners: [at(0.0, 0.0), at(f, 0.0), at(f, f), at(0.0, f)],
                modules,
            })
        })
    }
}

/// The last `digits` digits of `name`'s SHA-256 read as a number.
fn tag(name: &str, digits: usize) -> String {
    let hash = Sha256::digest(name.as_bytes());
    let n = hash
        .iter()
        .take(8)
        .fold(0u64, |a, &b| a << 8 | u64::from(b));
    let full = format!("{n:020}");
    full[full.len() - digits..].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> TableCode {
        let players = ["0417", "1203", "", "99", "123456"]
            .map(String::from)
            .to_vec();
        TableCode::new(
            "Merkur-Turnier 2026 (Moosach)",
            "punkteliste-a4-32",
            2,
            17,
            players,
        )
    }

    #[test]
    fn a_code_text_should_read_back_as_itself_and_nothing_else_should_read() {
        let code = example();
        let text = code.to_text().expect("fits");
        assert!(text.bytes().all(|b| b.is_ascii_digit()), "{text}");
        assert_eq!(TableCode::parse(&text), Some(code));
        for other in [
            "",
            "https://example.org",
            "2123",
            "1123456123401017",
            "112345612340101741",
        ] {
            assert_eq!(TableCode::parse(other), None, "{other}");
        }
        assert_ne!(
            TableCode::form_tag("punkteliste-a4-32"),
            TableCode::form_tag("doko-a4-24x5")
        );
    }

    #[test]
    fn a_code_of_five_seats_should_fit_a_version_2_symbol() {
        let players = ["1001", "1002", "1003", "1004", "1005"]
            .map(String::from)
            .to_vec();
        let text = TableCode::new("x", "doko-a4-24x5", 3, 105, players)
            .to_text()
            .expect("fits");
        let code = qrcode::QrCode::with_error_correction_level(text.as_bytes(), qrcode::EcLevel::M)
            .expect("encodes");
        assert_eq!(code.width(), 25, "{text}");
    }

    #[test]
    fn a_found_code_should_say_where_its_modules_lie() {
        let code = example();
        let symbol = code.draw(200).expect("drawn");
        let mut page = GrayImage::from_pixel(600, 400, Luma([255]));
        image::imageops::overlay(&mut page, &symbol, 350, 100);
        // A version 2 symbol of 25 modules at 7 px, 12 px inside its square.
        let found = FoundCode::on(&page).expect("found");
        assert_eq!(found.modules, 25);
        let (lo, hi) = (350.0 + 12.0, 350.0 + 12.0 + 175.0);
        let (top, bottom) = (100.0 + 12.0, 100.0 + 12.0 + 175.0);
        let expected = [(lo, top), (hi, top), (hi, bottom), (lo, bottom)];
        for (got, want) in found.corners.iter().zip(expected) {
            let off = (got.0 - want.0).hypot(got.1 - want.1);
            assert!(off <= 3.5, "{:?} against {expected:?}", found.corners);
        }
    }

    #[test]
    fn a_drawn_code_should_be_found_again_on_a_page() {
        let code = example();
        // 17 mm at 300 dpi, pasted on a larger white page.
        let symbol = code.draw(200).expect("drawn");
        let mut page = GrayImage::from_pixel(600, 400, Luma([255]));
        image::imageops::overlay(&mut page, &symbol, 350, 100);
        assert_eq!(TableCode::find(&page), Some(code));
        assert_eq!(
            TableCode::find(&GrayImage::from_pixel(300, 300, Luma([255]))),
            None
        );
    }
}
