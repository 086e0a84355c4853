//! The hall's papers from the draw: the table list (per round, each
//! table's players in seat order) and a slip per player (where they sit
//! in every round), as A4 pages for one PDF.

use ab_glyph::FontRef;
use image::{GrayImage, Luma};

use crate::catalogue::say;
use crate::check::messages::Lang;
use crate::night::tournament::roster::Roster;
use crate::night::tournament::seating::Seating;
use crate::page::form::Text;
use crate::page::render::{BOLD, REGULAR, draw_text_mm, mm_to_px, text_box_mm};
use crate::sheet::PlayerNo;

/// The pages' resolution: plain text, sharp enough printed.
pub const DPI: f64 = 200.0;

const PAGE_MM: [f64; 2] = [210.0, 297.0];

/// Lines of the table list a page holds (6 mm each from 20 mm down).
const LINES_A_PAGE: usize = 43;

/// Slips a page holds: 2 across, 8 down, each 95 × 34 mm.
const SLIPS: (usize, usize) = (2, 8);

/// Where the table list's seats start, and how far apart (mm): five
/// seats fit the page's width.
const SEAT_COLUMNS: (f64, f64) = (30.0, 35.0);

/// The width (mm) a seat's text may take on the table list: its column
/// less a gap to the next, so that no name runs into the next seat's.
const SEAT_WIDTH_MM: f64 = SEAT_COLUMNS.1 - 2.0;

/// The text size (mm of cap height) of the table list's lines.
const LINE_SIZE_MM: f64 = 2.4;

/// A line of the table list.
enum Line {
    Round(String),
    Table(String, Vec<String>),
}

/// The table list's pages: a heading per round, then a line per table,
/// its seats in columns.
pub fn table_list(seating: &Seating, roster: &Roster, title: &str, lang: Lang) -> Vec<GrayImage> {
    let mut lines: Vec<Line> = Vec::new();
    for (r, tables) in seating.rounds.iter().enumerate() {
        let round = [
            ("title", &title as &dyn std::fmt::Display),
            ("round", &(r + 1)),
        ];
        lines.push(Line::Round(say(lang, "hall-round", &round)));
        for (t, seats) in tables.iter().enumerate() {
            let label = format!("{} {}", say(lang, "hall-table", &[]), t + 1);
            let who = seats.iter().map(|n| cut_short(&named(n, roster))).collect();
            lines.push(Line::Table(label, who));
        }
    }
    lines
        .chunks(LINES_A_PAGE)
        .map(|chunk| {
            let mut page = blank();
            for (i, line) in chunk.iter().enumerate() {
                let y = 20.0 + 6.0 * i as f64;
                match line {
                    Line::Round(text) => write(&mut page, text, 12.0, y, 3.2, true),
                    Line::Table(label, seats) => {
                        write(&mut page, label, 12.0, y, LINE_SIZE_MM, true);
                        for (s, who) in seats.iter().enumerate() {
                            let x = SEAT_COLUMNS.0 + SEAT_COLUMNS.1 * s as f64;
                            write(&mut page, who, x, y, LINE_SIZE_MM, false);
                        }
                    }
                }
            }
            page
        })
        .collect()
}

/// `text`, cut to what a table list's seat column holds, measured in
/// the font it is printed in.
fn cut_short(text: &str) -> String {
    let width = |t: &str| {
        let printed = Text {
            text: t.to_string(),
            x: 0.0,
            y: 0.0,
            size: LINE_SIZE_MM,
            bold: false,
            anchor: None,
        };
        text_box_mm(&printed, 0.0)[2]
    };
    if width(text) <= SEAT_WIDTH_MM {
        return text.to_string();
    }
    let mut kept: Vec<char> = text.chars().collect();
    while !kept.is_empty() {
        kept.pop();
        let short = format!("{}…", kept.iter().collect::<String>().trim_end());
        if width(&short) <= SEAT_WIDTH_MM {
            return short;
        }
    }
    "…".to_string()
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
                let s = seats.iter().position(|p| PlayerNo::new(p) == *number)?;
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
    fn a_long_name_should_be_cut_short_to_its_column() {
        assert_eq!(cut_short("7 Anna"), "7 Anna");
        let long = cut_short("1234 Maximiliane Wilhelmine von Hohenzollern");
        assert!(
            long.starts_with("1234 Maximiliane") && long.ends_with('…'),
            "{long}"
        );
    }

    /// The printed width of `text` on the table list (mm).
    fn printed_mm(text: &str) -> f64 {
        let t = Text {
            text: text.to_string(),
            x: 0.0,
            y: 0.0,
            size: LINE_SIZE_MM,
            bold: false,
            anchor: None,
        };
        text_box_mm(&t, 0.0)[2]
    }

    #[test]
    fn a_wide_name_should_not_run_into_the_next_seat() {
        // 24 characters of wide letters: wider than the column as written.
        let wide = "0417 Niedermaier Walburga";
        assert!(printed_mm(wide) > SEAT_COLUMNS.1, "{}", printed_mm(wide));
        let cut = cut_short(wide);
        assert!(
            printed_mm(&cut) <= SEAT_WIDTH_MM,
            "{cut}: {}",
            printed_mm(&cut)
        );
        assert!(
            cut.starts_with("0417 Nieder") && cut.ends_with('…'),
            "{cut}"
        );
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
