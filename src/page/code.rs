//! The code `print` puts on a drawn table's sheet: what it holds (a
//! [`TableCode`]), its drawing as a QR code, and its reading back from a
//! page (rqrr, pure Rust).
//!
//! The text is QR's alphanumeric set (digits, capitals, ` $%*+-./:`), so
//! the code stays small enough for the space beside the player block:
//! `AUFSICHT1/<tournament tag>/<form>/<round>/<table>/<n1>.<n2>...`, the
//! form's id in capitals and the tournament as the first 8 hex digits of
//! its name's SHA-256 (a name may hold any character; the tag tells one
//! night's sheets from another's).

use image::{GrayImage, Luma};
use sha2::{Digest, Sha256};

/// The first field of every code of this layout.
const MAGIC: &str = "AUFSICHT1";

/// What a printed sheet's code says about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableCode {
    /// [`TableCode::tag_of`] the tournament's name.
    pub tournament: String,
    /// The form's id (lower case, as the templates name it).
    pub form: String,
    pub round: u32,
    pub table: u32,
    /// The seated players' numbers, in seat order; an empty seat empty.
    pub players: Vec<String>,
}

impl TableCode {
    /// The tag a tournament's name is known by in codes.
    pub fn tag_of(tournament: &str) -> String {
        let hash = Sha256::digest(tournament.as_bytes());
        hash.iter().take(4).map(|b| format!("{b:02X}")).collect()
    }

    /// The code's text.
    pub fn to_text(&self) -> String {
        format!(
            "{MAGIC}/{}/{}/{}/{}/{}",
            self.tournament,
            self.form.to_ascii_uppercase(),
            self.round,
            self.table,
            self.players.join(".")
        )
    }

    /// A code's text read back; `None` for any other text.
    pub fn parse(text: &str) -> Option<TableCode> {
        let parts: Vec<&str> = text.trim().split('/').collect();
        let [MAGIC, tournament, form, round, table, players] = parts.as_slice() else {
            return None;
        };
        let number = |s: &&str| s.is_empty() || s.bytes().all(|b| b.is_ascii_digit());
        let players: Vec<String> = players.split('.').map(str::to_string).collect();
        if !players.iter().map(String::as_str).all(|p| number(&p)) {
            return None;
        }
        Some(TableCode {
            tournament: tournament.to_string(),
            form: form.to_ascii_lowercase(),
            round: round.parse().ok()?,
            table: table.parse().ok()?,
            players,
        })
    }

    /// The code as a QR symbol, `side` pixels square (its quiet zone
    /// inside), black on white; `None` where the text does not fit a QR
    /// code or the side is too small for its modules.
    pub fn draw(&self, side: u32) -> Option<GrayImage> {
        let code = qrcode::QrCode::with_error_correction_level(
            self.to_text().as_bytes(),
            qrcode::EcLevel::M,
        )
        .ok()?;
        let modules = code.width() as u32;
        let colors = code.to_colors();
        // Two modules of quiet zone on each side: the paper around the
        // code is blank beyond them.
        let cell = side / (modules + 4);
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

    /// The first code of this layout found in `image`.
    pub fn find(image: &GrayImage) -> Option<TableCode> {
        let mut prepared = rqrr::PreparedImage::prepare_from_greyscale(
            image.width() as usize,
            image.height() as usize,
            |x, y| image.get_pixel(x as u32, y as u32)[0],
        );
        prepared
            .detect_grids()
            .iter()
            .filter_map(|g| g.decode().ok())
            .find_map(|(_, text)| TableCode::parse(&text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> TableCode {
        TableCode {
            tournament: TableCode::tag_of("Merkur-Turnier 2026 (Moosach)"),
            form: "punkteliste-a4-32".into(),
            round: 2,
            table: 17,
            players: vec!["0417".into(), "1203".into(), "".into(), "99".into()],
        }
    }

    #[test]
    fn a_code_text_should_read_back_as_itself_and_nothing_else_should_read() {
        let code = example();
        let text = code.to_text();
        assert!(
            text.bytes()
                .all(|b| b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:".contains(&b)),
            "{text}"
        );
        assert_eq!(TableCode::parse(&text), Some(code));
        for other in [
            "",
            "https://example.org",
            "AUFSICHT1/AB/F/x/1/1.2",
            "AUFSICHT1/AB/F/1/1/1a.2",
        ] {
            assert_eq!(TableCode::parse(other), None, "{other}");
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
