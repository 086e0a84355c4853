//! The hall's papers from the draw: the table list (per round, each
//! table's players in seat order) and a slip per player (where they sit
//! in every round), as A4 pages for one PDF.

use ab_glyph::FontRef;
use image::{GrayImage, Luma};

use crate::catalogue::say;
use crate::check::messages::Lang;
use crate::night::roster::Roster;
use crate::night::seating::Seating;
use crate::page::form::Text;
use crate::page::render::{BOLD, REGULAR, draw_text_mm, mm_to_px};

/// The pages' resolution: plain text, sharp enough printed.
pub const DPI: f64 = 200.0;

const PAGE_MM: [f64; 2] = [210.0, 297.0];

/// Lines of the table list a page holds (6 mm each from 20 mm down).
const LINES_A_PAGE: usize = 43;

/// Slips a page holds: 2 across, 8 down, each 95 × 34 mm.
const SLIPS: (usize, usize) = (2, 8);

/// The table list's pages: a heading per round, then a line per table.
pub fn table_list(seating: &Seating, roster: &Roster, title: &str, lang: Lang) -> Vec<GrayImage> {
    let mut lines: Vec<(String, bool)> = Vec::new();
    for (r, tables) in seating.rounds.iter().enumerate() {
        lines.push((
            say(
                lang,
                "hall-round",
                &[("title", &title), ("round", &(r + 1))],
            ),
            true,
        ));
        for (t, seats) in tables.iter().enumerate() {
            let who: Vec<String> = seats.iter().map(|n| named(n, roster)).collect();
            lines.push((
                format!(
                    "{} {}: {}",
                    say(lang, "hall-table", &[]),
                    t + 1,
                    who.join(" · ")
                ),
                false,
            ));
        }
    }
    lines
        .chunks(LINES_A_PAGE)
        .map(|chunk| {
            let mut page = blank();
            for (i, (text, bold)) in chunk.iter().enumerate() {
                write(
                    &mut page,
                    text,
                    12.0,
                    20.0 + 6.0 * i as f64,
                    if *bold { 3.2 } else { 2.4 },
                    *bold,
                );
            }
            page
        })
        .collect()
}

/// A slip per registered player who is seated, in the list's order.
pub fn slips(seating: &Seating, roster: &Roster, title: &str, lang: Lang) -> Vec<GrayImage> {
    let per_page = SLIPS.0 * SLIPS.1;
    let seated: Vec<_> = roster
        .people
        .iter()
        .filter(|p| seats_of(seating, &p.number).iter().any(Option::is_some))
        .collect();
    seated
        .chunks(per_page)
        .map(|chunk| {
            let mut page = blank();
            for (i, person) in chunk.iter().enumerate() {
                let (x, y) = (
                    10.0 + 95.0 * (i % SLIPS.0) as f64,
                    12.0 + 34.0 * (i / SLIPS.0) as f64,
                );
                frame(&mut page, x, y, 90.0, 31.0);
                write(&mut page, title, x + 3.0, y + 4.5, 2.0, false);
                write(
                    &mut page,
                    &named(&person.number, roster),
                    x + 3.0,
                    y + 10.0,
                    3.0,
                    true,
                );
                for (r, at) in seats_of(seating, &person.number).iter().enumerate() {
                    let line = match at {
                        Some((t, s)) => say(
                            lang,
                            "hall-slip-seat",
                            &[("round", &(r + 1)), ("table", t), ("seat", s)],
                        ),
                        None => say(lang, "hall-slip-free", &[("round", &(r + 1))]),
                    };
                    write(
                        &mut page,
                        &line,
                        x + 3.0,
                        y + 16.0 + 4.5 * r as f64,
                        2.4,
                        false,
                    );
                }
            }
            page
        })
        .collect()
}

/// Per round, the player's table and seat (from 1).
fn seats_of(seating: &Seating, number: &str) -> Vec<Option<(usize, usize)>> {
    seating
        .rounds
        .iter()
        .map(|tables| {
            tables.iter().enumerate().find_map(|(t, seats)| {
                let s = seats
                    .iter()
                    .position(|p| crate::night::roster::same(p, number))?;
                Some((t + 1, s + 1))
            })
        })
        .collect()
}

fn named(number: &str, roster: &Roster) -> String {
    match roster
        .person(number)
        .map(|p| p.name.as_str())
        .filter(|n| !n.is_empty())
    {
        Some(name) => format!("{number} {name}"),
        None => number.to_string(),
    }
}

fn blank() -> GrayImage {
    let px = |mm: f64| mm_to_px(mm, DPI).round() as u32;
    GrayImage::from_pixel(px(PAGE_MM[0]), px(PAGE_MM[1]), Luma([255]))
}

fn write(page: &mut GrayImage, text: &str, x: f64, y: f64, size: f64, bold: bool) {
    let Ok(font) = FontRef::try_from_slice(if bold { BOLD } else { REGULAR }) else {
        return;
    };
    let t = Text {
        text: text.to_string(),
        x,
        y,
        size,
        bold,
        anchor: None,
    };
    draw_text_mm(page, &font, &t, DPI);
}

/// A thin rectangle to cut the slip out along.
fn frame(page: &mut GrayImage, x: f64, y: f64, w: f64, h: f64) {
    let px = |mm: f64| mm_to_px(mm, DPI).round() as u32;
    for i in px(x)..=px(x + w) {
        page.put_pixel(i, px(y), Luma([128]));
        page.put_pixel(i, px(y + h), Luma([128]));
    }
    for j in px(y)..=px(y + h) {
        page.put_pixel(px(x), j, Luma([128]));
        page.put_pixel(px(x + w), j, Luma([128]));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn night() -> (Seating, Roster) {
        let roster =
            Roster::parse("number,name\n1,Anna\n2,Ben\n3,Cem\n4,Dora\n5,Emil\n").expect("list");
        let t = |p: [&str; 4]| p.map(String::from).to_vec();
        let seating = Seating {
            rounds: vec![vec![t(["1", "2", "3", "4"])], vec![t(["4", "3", "2", "1"])]],
        };
        (seating, roster)
    }

    #[test]
    fn a_seated_player_should_find_every_round_on_the_slip() {
        let (seating, _) = night();
        assert_eq!(seats_of(&seating, "3"), [Some((1, 3)), Some((1, 2))]);
        assert_eq!(seats_of(&seating, "5"), [None, None]);
    }

    #[test]
    fn the_papers_should_have_a_page_each_and_ink_on_them() {
        let (seating, roster) = night();
        let list = table_list(&seating, &roster, "Merkur", Lang::De);
        let slips = slips(&seating, &roster, "Merkur", Lang::De);
        assert_eq!((list.len(), slips.len()), (1, 1));
        let dark = |p: &GrayImage| p.pixels().filter(|v| v[0] < 128).count();
        assert!(dark(&list[0]) > 1000 && dark(&slips[0]) > 1000);
    }
}
