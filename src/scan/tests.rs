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
            thin_lines_lost: false,
        },
        header_lines: None,
        header_off: false,
        labels_by_ink: None,
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

/// A reader that reads the cells it is given as its readings, in turn.
struct InTurn(std::collections::VecDeque<Reading>);

impl DigitReader for InTurn {
    fn name(&self) -> &str {
        "in turn"
    }
    fn read(&mut self, _: &GrayImage) -> Reading {
        self.0.pop_front().expect("a reading left")
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
    let cell = |no: u32, s: usize| &sheet.games.iter().find(|g| g.no == no).expect("row").cells[s];
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
    let nine =
        cells::fixture("nine_with_a_round_loop_should_be_digits_where_circle_not_solo_stands.png");
    let (page, mut sheet) = page_with_plus_cells(form, &[(8, 1, 1, &nine), (3, 1, 1, &nine)], &[]);
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
    // What the nets make of the flagged cell: peeled, a doubtful "1"; as
    // drawn, ring and all, surely a "9".
    let mut reader = InTurn(vec![reading("1", 0.9, &[]), reading("9", 0.995, &[])].into());
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

#[test]
fn a_printed_sheet_whose_lines_are_lost_should_be_placed_by_its_code() {
    use crate::page::code::TableCode;
    let forms = FormTemplate::builtins();
    let form = merkur_form(&forms);
    let players = ["11", "12", "13", "14"].map(String::from).to_vec();
    let code = TableCode::new("Test", &form.id, 1, 3, players);
    // Printed as `print` prints, scanned at 150 dpi.
    let dpi = 150.0;
    let print_dpi = crate::page::code::PRINT_DPI;
    let printed = crate::page::render::render_printed(form, &code, &[], print_dpi);
    let (pw, ph) = printed.dimensions();
    let scanned = |side: u32| (f64::from(side) * dpi / print_dpi).round() as u32;
    let printed = image::imageops::resize(
        &printed,
        scanned(pw),
        scanned(ph),
        image::imageops::FilterType::Triangle,
    );
    let px = dpi / 25.4;
    // Every ruled line and every printed word lost; the code alone is left.
    let [x, y, side, _] = form.code_box();
    let (x0, y0, w) = ((x - 1.0) * px, (y - 1.0) * px, (side + 2.0) * px);
    let (width, height) = printed.dimensions();
    let mut page = GrayImage::from_pixel(width, height, image::Luma([255]));
    let code_only = image::imageops::crop_imm(&printed, x0 as u32, y0 as u32, w as u32, w as u32);
    image::imageops::replace(&mut page, &code_only.to_image(), x0 as i64, y0 as i64);
    let blank = GrayImage::from_pixel(width, height, image::Luma([255]));
    assert!(
        locate(&blank, &forms).is_err(),
        "no lines, no code: unreadable"
    );
    for turned in [false, true] {
        let page = if turned {
            image::imageops::rotate180(&page)
        } else {
            page.clone()
        };
        let aligned = locate(&page, &forms).expect("placed by its code");
        assert_eq!(aligned.form.id, form.id);
        assert_eq!(aligned.alignment.quarter_turns, if turned { 2 } else { 0 });
        let [gx, gy, gw, gh] = form.grid();
        for corner in [(gx, gy), (gx + gw, gy + gh)] {
            let (tx, ty) = (corner.0 * px, corner.1 * px);
            let truth = if turned {
                (f64::from(width) - tx, f64::from(height) - ty)
            } else {
                (tx, ty)
            };
            let at = aligned.alignment.to_image.apply(corner);
            let off_mm = (at.0 - truth.0).hypot(at.1 - truth.1) / px;
            assert!(
                off_mm <= 2.0,
                "{corner:?} {off_mm:.2} mm off (turned: {turned})"
            );
        }
    }
}

#[test]
fn a_form_should_be_confirmed_by_its_print_without_reading_letters() {
    let forms = FormTemplate::builtins();
    let form = merkur_form(&forms);
    let page = crate::page::render::render_form(form, cells::PX_PER_MM * 25.4);
    let mut font = crate::read::font::FontDigits::new();
    let confirmed = confirm(&aligned(&page, form), &mut font);
    assert_eq!(
        confirmed.title_read, None,
        "the font reader reads no letters"
    );
    assert!(confirmed.title_matches);
    assert_eq!(confirmed.row_numbers_read, 3);
    // A foreign form's title printed where this form's stands.
    let mut other = form.clone();
    other.texts[0].text = "Kegelabend im Vereinsheim".into();
    let foreign = crate::page::render::render_form(&other, cells::PX_PER_MM * 25.4);
    let confirmed = confirm(&aligned(&foreign, form), &mut font);
    assert!(!confirmed.title_matches);
    assert_eq!(confirmed.row_numbers_read, 3);
    assert!(!confirmed.denies(form), "the row numbers are the form's");
}

#[test]
fn a_form_should_be_denied_only_by_all_the_print_it_has() {
    let forms = FormTemplate::builtins();
    let form = merkur_form(&forms);
    assert!(form.prints_row_numbers());
    let seen = |title_matches, row_numbers_read| Confirmation {
        title_read: None,
        title_matches,
        row_numbers_read,
        header: HeaderPrint::default(),
    };
    assert!(seen(false, 0).denies(form));
    assert!(!seen(true, 0).denies(form));
    assert!(!seen(false, 1).denies(form));
    // A form that prints no row numbers is not denied by its title alone.
    let mut bare = form.clone();
    bare.texts.retain(|t| t.text.parse::<u32>().is_err());
    assert!(!bare.prints_row_numbers());
    assert!(!seen(false, 0).denies(&bare));
}

/// A look-alike of `form` named `id`: its title at the foot of the page,
/// its game rows and their numbers six rows lower, so that other rows'
/// numbers (or none) stand where it prints its first, middle and last.
fn look_alike(form: &FormTemplate, id: &str) -> FormTemplate {
    let mut look_alike = form.clone();
    look_alike.id = id.into();
    look_alike.texts[0].y = 290.0;
    for game in look_alike.fields.game.iter_mut().flatten() {
        game.plus[1] += 40.0;
        game.minus[1] += 40.0;
    }
    for t in look_alike
        .texts
        .iter_mut()
        .filter(|t| t.text.parse::<u32>().is_ok())
    {
        t.y += 40.0;
    }
    look_alike
}

/// Among forms fitting a page short of sure, the best whose print denies
/// it gives way to the next, whose print is there.
#[test]
fn a_form_whose_print_denies_the_page_should_give_way_to_the_next() {
    let forms = FormTemplate::builtins();
    let form = merkur_form(&forms);
    let page = crate::page::render::render_form(form, cells::PX_PER_MM * 25.4);
    let look_alike = look_alike(form, "look-alike");
    assert!(look_alike.prints_row_numbers());
    let short = |form| {
        let mut a = aligned(&page, form);
        a.alignment.fit = 0.9;
        a
    };
    let mut better = short(&look_alike);
    better.alignment.fit = 0.92;
    let mut font = crate::read::font::FontDigits::new();
    let (chosen, confirmed) =
        first_not_denied(vec![better, short(form)], &mut font).expect("the form's print is there");
    assert_eq!(chosen.form.id, form.id);
    assert_eq!(confirmed.row_numbers_read, 3);
    let alone = first_not_denied(vec![short(&look_alike)], &mut font).err();
    assert!(
        matches!(&alone, Some(Unreadable::OtherPrint { form, percent: 90 }) if form == "look-alike"),
        "{alone:?}"
    );
}

/// A black-and-white page at 150 dpi whose thin lines the threshold took
/// whole is located by its thick ones, and its result says so.
#[test]
fn a_page_that_lost_its_thin_lines_is_located_and_says_so() {
    let forms = FormTemplate::builtins();
    let form = merkur_form(&forms);
    let mut thick = form.clone();
    thick.lines.retain(|l| l[4] >= 0.35);
    let page = crate::page::render::render_form(&thick, 150.0);
    let found = locate(&page, &forms).expect("located");
    assert_eq!(found.form.id, form.id);
    assert!(found.alignment.thin_lines_lost);
    let json = serde_json::to_value(fields::placement(&found.alignment)).expect("json");
    assert_eq!(json["thin_lines_lost"], true);
    let drawn = crate::page::render::render_form(form, 150.0);
    let whole = locate(&drawn, &forms).expect("located");
    assert!(!whole.alignment.thin_lines_lost);
    let json = serde_json::to_value(fields::placement(&whole.alignment)).expect("json");
    assert!(json.get("thin_lines_lost").is_none());
}

/// A page found by its thick lines alone fits them wholly, yet that fit
/// never makes the form sure: a print that denies it still refuses it.
#[test]
fn a_fit_by_the_thick_lines_alone_is_not_sure_against_the_print() {
    let forms = FormTemplate::builtins();
    let form = merkur_form(&forms);
    let page = crate::page::render::render_form(form, cells::PX_PER_MM * 25.4);
    let other = look_alike(form, "other");
    let mut font = crate::read::font::FontDigits::new();
    for (lost, refused) in [(false, false), (true, true)] {
        let mut a = aligned(&page, &other);
        a.alignment.thin_lines_lost = lost;
        let why = first_not_denied(vec![a], &mut font).err();
        assert_eq!(
            matches!(&why, Some(Unreadable::OtherPrint { form, percent: 100 }) if form == "other"),
            refused,
            "thin lines lost: {lost}, {why:?}"
        );
    }
}

/// A reader whose hand, tuned on what it is taught, says `.0` of every
/// cell asked; it keeps the values it was taught and counts the cells.
struct OwnHand(Reading, Vec<u32>, usize);

impl DigitReader for OwnHand {
    fn name(&self) -> &str {
        "own hand"
    }
    fn read(&mut self, _: &GrayImage) -> Reading {
        Reading::none()
    }
    fn adapted_opinion(
        &mut self,
        taught: &[(&GrayImage, u32)],
        cells: &[&GrayImage],
    ) -> Option<Vec<Reading>> {
        self.1 = taught.iter().map(|(_, v)| *v).collect();
        self.2 += cells.len();
        Some(vec![self.0.clone(); cells.len()])
    }
}

#[test]
fn the_writers_own_hand_should_be_taught_by_confirmed_cells_and_asked_of_doubted_ones() {
    let forms = FormTemplate::builtins();
    let form = merkur_form(&forms);
    let thirteen = cells::fixture("thirteen_should_be_no_ring_at_the_second_look.png");
    // Row 19 in doubt, row 20 confirmed, row 21 in a column whose Gesamt disagrees.
    let at = [
        (19, 0, 13, &thirteen),
        (20, 1, 13, &thirteen),
        (21, 2, 18, &thirteen),
    ];
    let (page, mut sheet) = page_with_plus_cells(form, &at, &[]);
    let flag = |code: Code, row: Option<u32>, seat: usize| Flag {
        code,
        severity: code.severity(),
        row,
        seat: Some(seat),
        field: Some("plus".into()),
        message: String::new(),
        detail: Default::default(),
        extra: Map::new(),
    };
    // Every column's Gesamt written: only a sure one that agrees confirms.
    let written = Some(crate::sheet::Gesamt {
        plus: Some(13),
        minus: Some(0),
    });
    sheet.gesamt = vec![written; 4];
    sheet.flags.push(flag(Code::CellUncertain, Some(19), 1));
    sheet.flags.push(flag(Code::GesamtMismatch, None, 3));
    sheet.flags.push(flag(Code::CellUncertain, Some(22), 4));
    let mut read = sheet.clone();
    let cell_reading = |no: u32, seat: usize, r: Reading| FieldReading {
        field: Field::Game(no, seat, false),
        reading: r,
        what: String::new(),
    };
    let mut readings = CellReadings {
        fields: vec![
            cell_reading(19, 1, reading("13", 0.6, &[("18", 0.4)])),
            cell_reading(20, 2, reading("13", 0.999, &[])),
            cell_reading(21, 3, reading("18", 0.999, &[])),
            cell_reading(22, 4, reading("13", 0.6, &[("3", 0.4)])),
        ],
        ..Default::default()
    };
    let mut own = OwnHand(reading("18", 0.9, &[("13", 0.1)]), Vec::new(), 0);
    let aligned = aligned(&page, form);
    let hand = Hand {
        digits: &mut own,
        answers: &[],
    };
    assert!(own_hand_where_uncertain(
        &sheet,
        &aligned,
        hand,
        &mut read,
        &mut readings
    ));
    assert_eq!(own.1, vec![13], "taught by the confirmed cell only");
    assert_eq!(own.2, 1, "asked of the cell in doubt of a digit only");
    assert_eq!(readings.fields[0].reading.text, "18");
    assert_eq!(read.cell_mut(19, 0).and_then(|c| c.plus), Some(18));
    assert_eq!(readings.fields[2].reading.text, "18", "left as read");
    assert!(readings.fields[0].reading.confidence < CONFIDENT);
}

/// One writer, one witness: a cell in doubt stays short of sure however
/// sure the writer's own glyphs make the tuned reading, and a column whose
/// Gesamt is itself in doubt, or not written, teaches nothing.
#[test]
fn the_writers_own_hand_should_never_make_a_doubted_cell_sure_by_itself() {
    let forms = FormTemplate::builtins();
    let form = merkur_form(&forms);
    let thirteen = cells::fixture("thirteen_should_be_no_ring_at_the_second_look.png");
    let at = [
        (19, 0, 18, &thirteen),
        (20, 1, 13, &thirteen),
        (21, 2, 13, &thirteen),
    ];
    let (page, mut sheet) = page_with_plus_cells(form, &at, &[]);
    let gesamt = |plus: Option<u32>| {
        Some(crate::sheet::Gesamt {
            plus,
            minus: Some(0),
        })
    };
    // Seat 2's Gesamt is read in doubt, seat 3's not written.
    sheet.gesamt = vec![
        gesamt(Some(18)),
        gesamt(Some(13)),
        gesamt(None),
        gesamt(Some(0)),
    ];
    sheet.flags.push(doubt(Some(19), 1));
    sheet.flags.push(doubt(None, 2));
    let mut read = sheet.clone();
    let cell_reading = |no: u32, seat: usize, r: Reading| FieldReading {
        field: Field::Game(no, seat, false),
        reading: r,
        what: String::new(),
    };
    let mut readings = CellReadings {
        fields: vec![
            cell_reading(19, 1, reading("18", 0.95, &[("13", 0.05)])),
            cell_reading(20, 2, reading("13", 0.999, &[])),
            cell_reading(21, 3, reading("13", 0.999, &[])),
        ],
        ..Default::default()
    };
    let mut own = OwnHand(reading("18", 0.999, &[("13", 0.001)]), Vec::new(), 0);
    let aligned = aligned(&page, form);
    let hand = Hand {
        digits: &mut own,
        answers: &[],
    };
    own_hand_where_uncertain(&sheet, &aligned, hand, &mut read, &mut readings);
    assert!(own.1.is_empty(), "taught by {:?}", own.1);
    let after = &readings.fields[0].reading;
    assert_eq!(after.text, "18");
    assert!(
        after.confidence < CONFIDENT,
        "lifted to {}",
        after.confidence
    );
}

/// Sixteen game values of seat 2 a sheet's sums confirm (rows 1-16, each
/// the fixture's 13, the seat's Gesamt written), beside `more` cells.
fn page_with_a_confirmed_hand<'a>(
    form: &FormTemplate,
    thirteen: &'a GrayImage,
    more: &[(u32, usize, u32, &'a GrayImage)],
) -> (GrayImage, SheetResult) {
    let mut at: Vec<(u32, usize, u32, &GrayImage)> =
        (1..=16).map(|no| (no, 1, 13, thirteen)).collect();
    at.extend_from_slice(more);
    let (page, mut sheet) = page_with_plus_cells(form, &at, &[]);
    let written = Some(crate::sheet::Gesamt {
        plus: Some(16 * 13),
        minus: Some(0),
    });
    sheet.gesamt = vec![written; 4];
    (page, sheet)
}

/// A person's answer about the hand is a witness from outside: taught
/// beside the sheet's confirmed glyphs, it may make a doubted cell sure.
#[test]
fn an_answer_about_the_hand_should_make_a_doubted_game_cell_sure() {
    let forms = FormTemplate::builtins();
    let form = merkur_form(&forms);
    let thirteen = cells::fixture("thirteen_should_be_no_ring_at_the_second_look.png");
    let (page, mut sheet) = page_with_a_confirmed_hand(form, &thirteen, &[(19, 0, 18, &thirteen)]);
    sheet.flags.push(doubt(Some(19), 1));
    let first = || CellReadings {
        fields: vec![FieldReading {
            field: Field::Game(19, 1, false),
            reading: reading("18", 0.95, &[("13", 0.05)]),
            what: String::new(),
        }],
        ..Default::default()
    };
    let aligned = aligned(&page, form);
    let answers = [(thirteen.clone(), 13)];
    for (given, sure) in [(&answers[..], true), (&[][..], false)] {
        let mut own = OwnHand(reading("18", 0.999, &[("13", 0.001)]), Vec::new(), 0);
        let (mut read, mut readings) = (sheet.clone(), first());
        let hand = Hand {
            digits: &mut own,
            answers: given,
        };
        own_hand_where_uncertain(&sheet, &aligned, hand, &mut read, &mut readings);
        let taught = 16 + 8 * given.len();
        assert_eq!(
            own.1,
            vec![13; taught],
            "taught by the hand and the answer, weighed"
        );
        let confidence = readings.fields[0].reading.confidence;
        assert_eq!(
            confidence >= CONFIDENT,
            sure,
            "answered {}: {confidence}",
            given.len()
        );
    }
}

/// A footer value in doubt that the reader tuned to an answer reads
/// otherwise, not surely by itself, stays as first read: taking it could
/// make the footer agree with its rows through a doubtful glyph and heal a
/// writer's mistake there without a word. Read so surely, it is taken.
#[test]
fn an_answer_should_not_change_a_footer_value_unless_the_tuned_reading_is_sure() {
    let forms = FormTemplate::builtins();
    let form = merkur_form(&forms);
    let thirteen = cells::fixture("thirteen_should_be_no_ring_at_the_second_look.png");
    let (mut page, mut sheet) = page_with_a_confirmed_hand(form, &thirteen, &[]);
    let bx = form.fields.gesamt[0].plus;
    let px = cells::PX_PER_MM;
    let (x0, y0) = (((bx[0] - 1.2) * px).round(), ((bx[1] - 1.2) * px).round());
    image::imageops::replace(&mut page, &thirteen, x0 as i64, y0 as i64);
    sheet.gesamt[0] = Some(crate::sheet::Gesamt {
        plus: Some(13),
        minus: None,
    });
    sheet.flags.push(doubt(None, 1));
    let first = || CellReadings {
        fields: vec![FieldReading {
            field: Field::Gesamt(1, false),
            reading: reading("13", 0.6, &[("18", 0.4)]),
            what: String::new(),
        }],
        ..Default::default()
    };
    let aligned = aligned(&page, form);
    let answers = [(thirteen.clone(), 13)];
    for (tuned, read_as) in [(0.8, "13"), (0.999, "18")] {
        let mut own = OwnHand(reading("18", tuned, &[("13", 1.0 - tuned)]), Vec::new(), 0);
        let (mut read, mut readings) = (sheet.clone(), first());
        let hand = Hand {
            digits: &mut own,
            answers: &answers,
        };
        own_hand_where_uncertain(&sheet, &aligned, hand, &mut read, &mut readings);
        assert_eq!(own.2, 1, "the footer value was asked about");
        assert_eq!(readings.fields[0].reading.text, read_as, "tuned at {tuned}");
    }
}

/// `form` with its header (the texts, boxes and lines above its game
/// table, the title among them) `dy` mm lower, its Wohnort row given up:
/// a club's form learnt from a blank without that row, whose game table
/// is the shipped one's.
fn header_moved(form: &FormTemplate, dy: f64) -> FormTemplate {
    let mut moved = form.clone();
    moved.id = "header-moved".into();
    let top = form.grid()[1];
    moved.texts.retain(|t| t.text != "Wohnort");
    for t in moved.texts.iter_mut().filter(|t| t.y < top) {
        t.y += dy;
    }
    moved
        .lines
        .retain(|l| l[1].max(l[3]) >= top - 0.5 || l[1].max(l[3]) + dy < top - 0.5);
    for l in moved
        .lines
        .iter_mut()
        .filter(|l| l[1].max(l[3]) < top - 0.5)
    {
        l[1] += dy;
        l[3] += dy;
    }
    let f = &mut moved.fields;
    for bx in [&mut f.round, &mut f.table]
        .into_iter()
        .chain(f.player_id.iter_mut())
        .chain(f.player_name.iter_mut())
    {
        bx[1] += dy;
    }
    moved
}

/// A sheet laid under a form whose game table fits and whose header lies
/// a row lower: its labels are not there, so its header is not the
/// form's, and the form whose header is there is chosen though it fits
/// worse.
#[test]
fn a_header_a_row_off_should_not_fit_and_the_form_whose_header_is_there_be_chosen() {
    let forms = FormTemplate::builtins();
    let form = merkur_form(&forms);
    let page = crate::page::render::render_form(form, cells::PX_PER_MM * 25.4);
    let moved = header_moved(form, 7.0);
    let own = header_print(&aligned(&page, form));
    assert_eq!((own.labels, own.labels_found), (10, 10), "{own:?}");
    assert!(own.fits());
    let off = header_print(&aligned(&page, &moved));
    assert_eq!(off.labels, 9);
    assert!(!off.fits(), "{off:?}");
    let mut better = aligned(&page, &moved);
    better.alignment.fit = 0.99;
    let mut worse = aligned(&page, form);
    worse.alignment.fit = 0.9;
    let mut font = crate::read::font::FontDigits::new();
    let (chosen, confirmed) =
        first_not_denied(vec![better, worse], &mut font).expect("a form is not denied");
    assert_eq!(chosen.form.id, form.id);
    assert!(confirmed.header.fits());
    // Alone, the look-alike is taken, its header values asked.
    let (alone, confirmed) =
        first_not_denied(vec![aligned(&page, &moved)], &mut font).expect("not denied");
    assert_eq!(alone.form.id, "header-moved");
    assert!(!confirmed.header.fits());
}

/// Upright strokes 4 mm high and 0.5 mm wide, 2.5 mm apart, each in its
/// grey on white: the ink of a number with as many digits.
fn strokes_in(greys: &[u8]) -> GrayImage {
    let px = cells::PX_PER_MM;
    let (w, h) = ((2.5 * px) as u32 * greys.len() as u32, (4.0 * px) as u32);
    GrayImage::from_fn(w, h, |x, _| {
        let (i, at) = ((x / (2.5 * px) as u32) as usize, x % (2.5 * px) as u32);
        image::Luma([if at < (0.5 * px) as u32 {
            greys[i]
        } else {
            255
        }])
    })
}

/// A blank merkur page with `ink` 3 mm from `bx`'s left, 1.5 mm from its top.
fn page_with_ink_in(bx: crate::page::form::MmBox, ink: &GrayImage) -> GrayImage {
    let mut page = GrayImage::from_pixel(2200, 3000, image::Luma([255]));
    let at = |v: f64| (v * cells::PX_PER_MM).round() as i64;
    image::imageops::replace(&mut page, ink, at(bx[0] + 3.0), at(bx[1] + 1.5));
    page
}

#[test]
fn a_participant_number_read_without_its_faint_leading_digit_should_be_asked() {
    let forms = FormTemplate::builtins();
    let form = merkur_form(&forms);
    let flags = |greys: &[u8]| {
        let page = page_with_ink_in(form.fields.player_id[0], &strokes_in(greys));
        // Both nets read "48" surely: only the ink tells a digit was lost.
        let mut nets = TwoNets(reading("48", 0.995, &[]), Some(reading("48", 0.99, &[])));
        let (sheet, _) = read_sheet(&aligned(&page, form), &mut nets, "test", 1, Lang::De);
        (sheet.flags.iter())
            .filter(|f| f.field.as_deref() == Some("player_id"))
            .count()
    };
    assert_eq!(flags(&[20, 20]), 0, "two digits of ink, two read");
    assert_eq!(flags(&[20, 20, 20]), 1, "three of ink, two read");
    // A 1 drawn at grey 170 beside digits at 20 is lost at the digits'
    // cut; at the paper's shade it is ink.
    assert_eq!(flags(&[170, 20, 20]), 1, "a faint leading digit");
}

#[test]
fn a_round_or_table_the_second_net_reads_otherwise_should_be_asked() {
    let forms = FormTemplate::builtins();
    let form = merkur_form(&forms);
    let read = |field: Field, first: Reading, second: Reading| {
        let bx = match field {
            Field::Round => form.fields.round,
            _ => form.fields.table,
        };
        let digits = first.text.len();
        let page = page_with_ink_in(bx, &strokes_in(&vec![20; digits]));
        let mut nets = TwoNets(first, Some(second));
        let (_, readings) = read_sheet(&aligned(&page, form), &mut nets, "test", 1, Lang::De);
        let r = (readings.fields.iter())
            .find(|r| r.field == field)
            .expect("the field read");
        r.reading.confidence >= crate::decode::CONFIDENT
    };
    // A 3 the first net reads surely as 2, the second as 3.
    let (two, three) = (reading("2", 0.995, &[]), reading("3", 0.97, &[("2", 0.03)]));
    assert!(
        !read(Field::Round, two.clone(), three.clone()),
        "the round asked"
    );
    assert!(
        read(Field::Round, two.clone(), two.clone()),
        "both read 2: it stands"
    );
    let (t27, t37) = (
        reading("27", 0.995, &[]),
        reading("37", 0.96, &[("27", 0.04)]),
    );
    assert!(!read(Field::Table, t27.clone(), t37), "the table asked");
    assert!(
        read(Field::Table, t27.clone(), t27),
        "both read 27: it stands"
    );
}

#[cfg(feature = "tesseract")]
#[test]
fn tesseract_should_read_a_title_only_where_its_ink_is_not_the_forms() {
    let forms = FormTemplate::builtins();
    let form = merkur_form(&forms);
    let mut tesseract = crate::read::print_reader().expect("Tesseract");
    let page = crate::page::render::render_form(form, cells::PX_PER_MM * 25.4);
    let own = confirm(&aligned(&page, form), tesseract.as_mut());
    assert!(own.title_matches);
    assert_eq!(
        own.title_read, None,
        "the form's own title is settled by its ink"
    );
    let mut other = form.clone();
    other.texts[0].text = "Kegelabend im Vereinsheim".into();
    let foreign = crate::page::render::render_form(&other, cells::PX_PER_MM * 25.4);
    let read = confirm(&aligned(&foreign, form), tesseract.as_mut());
    assert!(!read.title_matches);
    let text = read.title_read.expect("a title not the form's is read");
    assert!(text.contains("Vereinsheim"), "{text}");
}

/// A plus value of `seat` in doubt (`row`: a game row, none: the Gesamt).
fn doubt(row: Option<u32>, seat: usize) -> Flag {
    Flag {
        code: Code::CellUncertain,
        severity: Code::CellUncertain.severity(),
        row,
        seat: Some(seat),
        field: Some("plus".into()),
        message: String::new(),
        detail: Default::default(),
        extra: Map::new(),
    }
}
