//! `generate`: filled, scanned test sheets and their truth (a lab tool).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use clap::ValueEnum;
use rand::RngExt;

use aufsicht::catalogue::Tell;
use aufsicht::page::form::FormTemplate;
use aufsicht::{Lang, RuleSet};

use crate::hands::Library;
use crate::{edits, synth};

/// Which kinds of correction `generate` draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CorrectionKinds {
    Beside,
    Every,
}

/// The arguments of `generate`.
#[derive(clap::Args)]
pub struct GenerateArgs {
    #[arg(long)]
    pub rules: String,
    #[arg(long)]
    pub form: String,
    #[arg(long, default_value_t = 10)]
    pub count: usize,
    #[arg(long)]
    pub out: PathBuf,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Players at the table (Doppelkopf: 4 or 5).
    #[arg(long)]
    pub players: Option<usize>,
    #[arg(long, value_enum, default_value = "mixed")]
    pub capture: CaptureArg,
    #[arg(long, default_value_t = 200.0)]
    pub dpi: f64,
    #[arg(long, value_enum, default_value = "png")]
    pub format: Format,
    /// MNIST training digits (default: data/mnist, else the bundled subset).
    #[arg(long)]
    pub digits: Option<PathBuf>,
    /// Draw only the digits the model's training held back (measures the model fairly).
    #[arg(long)]
    pub held_back: bool,
    /// Share of sheets on which the writer makes one mistake (0..1).
    #[arg(long, default_value_t = 0.3)]
    pub writer_errors: f64,
    /// A Schreiber who slips their own way: on every sheet where this
    /// participant sits on seat 1, their Endergebnis is written --bias
    /// points above what the rows give (instead of any other mistake).
    #[arg(long)]
    pub biased_writer: Option<String>,
    /// With --biased-writer: the points each of their sheets gives them.
    #[arg(long, default_value_t = 5, requires = "biased_writer")]
    pub bias: i64,
    /// A whole night instead of --count sheets: this many players, drawn by
    /// `draw` into every round of the rule set (its participants.csv and
    /// seating.csv are written beside the scans).
    #[arg(long, conflicts_with = "seating")]
    pub night: Option<usize>,
    /// A night already drawn (the CSV `draw` writes): a sheet for every
    /// table of every round, its players seated as drawn.
    #[arg(long)]
    pub seating: Option<PathBuf>,
    /// Write on the sheets `print` makes: round, table and players printed
    /// with the table's code, not written by hand.
    #[arg(long)]
    pub printed: bool,
    /// Share of printed sheets whose code a coffee ring blots out: their
    /// round, table and players must be read from the print.
    #[arg(long, default_value_t = 0.0, requires = "printed")]
    pub codes_blotted: f64,
    /// Which writers: tidy (the sets the model was tuned on) or wide (sizes,
    /// pens, loose rings, overruns and continental digits of real paper).
    #[arg(long, value_enum, default_value = "tidy")]
    pub hands: HandsArg,
    /// Many hands: the sources a sheet's writer is drawn from, one a sheet.
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        default_value = "mnist,font,hershey,synth"
    )]
    pub hand_sources: Vec<crate::hands::Source>,
    /// Many hands: the families the nets learn from, or the ones held out
    /// of every training (to measure the reader on hands it never saw).
    #[arg(long, value_enum, default_value = "held-out")]
    pub families: crate::hands::Split,
    /// Many hands: how the fonts' and stroke fonts' glyphs are put on
    /// paper: `outline` as the training draws them, or `pressure` (their
    /// skeleton drawn again with a pen's pressure, skipping ink and a
    /// wave), for a held-out measure that does not share the training's look.
    #[arg(long, value_enum, default_value = "outline")]
    pub rendering: crate::hands::Rendering,
    /// Many hands: the fetched fonts (default: data/hands, which
    /// scripts/fetch-hands.sh fills).
    #[arg(long)]
    pub hands_dir: Option<PathBuf>,
    /// Share of sheets with one or two values struck through and rewritten
    /// (half of those rows initialled by the supervisor).
    #[arg(long, default_value_t = 0.0)]
    pub corrections: f64,
    /// Which corrections: `beside` (struck by one or two strokes, a cross or
    /// a zigzag, the new value beside) or `every` (also blacked out, the new
    /// value above, digits written over digits).
    #[arg(long, value_enum, default_value = "beside")]
    pub correction_kinds: CorrectionKinds,
    /// Share of sheets on which, after the sheet was written, someone puts
    /// a digit in front of one game value with another pen (the truth
    /// holds the new value and, under `later_edit`, where and what).
    #[arg(long, default_value_t = 0.0)]
    pub later_edits: f64,
    /// Scan in colour: the writer's pen black, blue or royal blue (a
    /// pencil grey), a later edit's pen another of them. A bilevel capture
    /// stays black and white.
    #[arg(long)]
    pub colour: bool,
    /// The colour the form is printed in (a club's own form); a colour
    /// is scanned in colour, as with --colour.
    #[arg(long, value_enum, default_value = "black")]
    pub print: crate::print_colour::PrintColour,
    /// Share of sheets scanned turned a quarter (landscape).
    #[arg(long, default_value_t = 0.0)]
    pub landscape: f64,
    /// Wide hands: the digit height range, in box heights (drawn towards its low end).
    #[arg(long, default_value = "0.5..1.4", value_parser = range)]
    pub digit_size: (f64, f64),
    /// Wide hands: the ring height range, in cell heights (drawn towards its low end).
    #[arg(long, default_value = "1.0..2.5", value_parser = range)]
    pub ring_height: (f64, f64),
    /// Wide hands: the writer's slant range in degrees, leaning forward
    /// where positive (real paper: -10..15; the default draws none).
    #[arg(long, default_value = "0..0", value_parser = slant_range, allow_hyphen_values = true)]
    pub slant: (f64, f64),
}

/// "LOW..HIGH", two numbers of degrees from -45 to 45, LOW at most HIGH.
fn slant_range(text: &str) -> Result<(f64, f64), String> {
    let parsed = text
        .split_once("..")
        .and_then(|(a, b)| Some((a.trim().parse::<f64>().ok()?, b.trim().parse::<f64>().ok()?)));
    match parsed {
        Some((lo, hi)) if -45.0 <= lo && lo <= hi && hi <= 45.0 => Ok((lo, hi)),
        _ => Err(format!(
            "{text}: give a range of degrees LOW..HIGH, for example -10..15"
        )),
    }
}

/// "LOW..HIGH", two positive numbers, LOW at most HIGH.
fn range(text: &str) -> Result<(f64, f64), String> {
    let parsed = text
        .split_once("..")
        .and_then(|(a, b)| Some((a.trim().parse::<f64>().ok()?, b.trim().parse::<f64>().ok()?)));
    match parsed {
        Some((lo, hi)) if lo > 0.0 && lo <= hi => Ok((lo, hi)),
        _ => Err(format!(
            "{text}: give a range LOW..HIGH, for example 0.5..1.4"
        )),
    }
}

#[derive(Clone, Copy, ValueEnum)]
pub enum HandsArg {
    Tidy,
    Wide,
    /// Tidy writers in hands of many sources (--hand-sources, --families).
    Many,
    /// Wide writers in hands of many sources.
    ManyWide,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum CaptureArg {
    Clean,
    Scanner,
    Phone,
    /// The office scanner in black-and-white mode.
    Bilevel,
    Mixed,
}

#[derive(Clone, Copy, ValueEnum, PartialEq)]
pub enum Format {
    Png,
    Jpg,
    Tif,
    Pdf,
}

pub fn run(a: GenerateArgs, lang: Lang) -> Result<()> {
    for (name, share) in [
        ("--writer-errors", a.writer_errors),
        ("--corrections", a.corrections),
        ("--landscape", a.landscape),
        ("--later-edits", a.later_edits),
    ] {
        if !(0.0..=1.0).contains(&share) {
            bail!("{name} is a share of the sheets: give a number from 0 to 1");
        }
    }
    if a.colour && a.format == Format::Pdf {
        bail!("colour scans are written as PNG, JPEG or TIFF: give --format png, jpg or tif");
    }
    let rules = RuleSet::load(&a.rules).context("cannot load the rule set (--rules)")?;
    let form = FormTemplate::load(&a.form).context("cannot load the form (--form)")?;
    let root = crate::repository();
    let digits = match &a.digits {
        Some(d) => synth::Digits::from_dir(d),
        None => synth::Digits::from_dir(&root.join("data/mnist"))
            .or_else(|_| synth::Digits::from_dir(&root.join("samples/digits"))),
    }
    .map_err(anyhow::Error::msg)?;
    let digits = if a.held_back {
        digits.last(aufsicht::read::cnn::HELD_BACK)
    } else {
        digits
    };
    let (scans, truths) = (a.out.join("scans"), a.out.join("truth"));
    std::fs::create_dir_all(&scans)?;
    std::fs::create_dir_all(&truths)?;
    let seating = night_tables(&a, &rules, lang)?;
    let count = if seating.is_empty() {
        a.count
    } else {
        seating.len()
    };
    let library = match a.hands {
        HandsArg::Many | HandsArg::ManyWide => Some(
            Library::load(
                &a.hands_dir
                    .clone()
                    .unwrap_or_else(|| root.join("data/hands")),
                &a.hand_sources,
                a.families,
                Some(digits.clone()),
            )
            .map_err(anyhow::Error::msg)?
            .rendered(a.rendering),
        ),
        _ => None,
    };
    let drawing = Drawing {
        rules: &rules,
        form: &form,
        digits: &digits,
        library: library.as_ref(),
        args: &a,
        lang,
        scans: &scans,
        truths: &truths,
    };
    for i in 0..count {
        drawing.sheet(i, seating.get(i))?;
    }
    eprintln!("aufsicht: {count} sheets in {}", scans.display());
    Ok(())
}

/// The Schreiber on seat 1 writes their own Endergebnis `bias` points
/// above what the rows give; the truth's description of it.
fn biased(sheet: &mut aufsicht::SheetResult, bias: i64) -> serde_json::Value {
    let Some(Some(e)) = sheet.endergebnis.first_mut() else {
        return serde_json::Value::Null;
    };
    *e += bias;
    serde_json::json!({"kind": "biased_writer", "seat": 1, "field": "endergebnis", "by": bias})
}

/// What every sheet of a `generate` run is drawn with.
struct Drawing<'a> {
    rules: &'a RuleSet,
    form: &'a FormTemplate,
    digits: &'a synth::Digits,
    library: Option<&'a Library>,
    args: &'a GenerateArgs,
    lang: Lang,
    scans: &'a Path,
    truths: &'a Path,
}

impl Drawing<'_> {
    /// Sheet `i` (at a night's `seat`, where the night is drawn): its scan
    /// and its truth.
    fn sheet(&self, i: usize, seat: Option<&(u32, u32, Vec<String>)>) -> Result<()> {
        let a = self.args;
        let mut rng = synth::rng(a.seed.wrapping_mul(1_000_003).wrapping_add(i as u64));
        let mut sheet = self.filled(i, seat, &mut rng);
        let drawn_mistake = rng.random_bool(a.writer_errors);
        let mistake = match &a.biased_writer {
            Some(writer) if sheet.players.first() == Some(&Some(writer.clone())) => {
                biased(&mut sheet, a.bias)
            }
            _ if drawn_mistake => synth::writer_error(&mut sheet, &mut rng),
            _ => serde_json::Value::Null,
        };
        // Drawn only when asked for, so the sets drawn without them stay as they were.
        let corrected = a.corrections > 0.0 && rng.random_bool(a.corrections);
        if corrected {
            synth::corrections(
                &mut sheet,
                a.correction_kinds == CorrectionKinds::Every,
                &mut rng,
            );
        }
        let hands = self.hands();
        let (mut page, drawn) = synth::draw(
            &sheet,
            self.form,
            self.digits,
            hands,
            a.printed,
            a.dpi,
            &mut rng,
        );
        // Drawn only when asked for, so the sets drawn without them stay as they were.
        if a.codes_blotted > 0.0 && rng.random_bool(a.codes_blotted) {
            synth::blot_code(&mut page, self.form, a.dpi);
        }
        let in_colour = a.colour || a.print != crate::print_colour::PrintColour::Black;
        let written = in_colour.then(|| page.clone());
        // Drawn only when asked for, so the sets drawn without them stay as they were.
        let edit = if a.later_edits > 0.0 && rng.random_bool(a.later_edits) {
            let pen = edits::other_pen(&mut rng);
            let (form, digits) = (self.form, self.digits);
            edits::later_edit(
                &mut sheet,
                &mut page,
                &drawn.blank,
                form,
                digits,
                a.dpi,
                pen,
                &mut rng,
            )
        } else {
            None
        };
        let colours = written
            .as_ref()
            .map(|_| pen_colours(&drawn.writer, &mut rng));
        let how = self.capture(i);
        let (image, mut facts) = match (&written, colours) {
            (Some(written), Some((writer, editor))) if how != synth::Capture::Bilevel => {
                let rgb = edits::in_colour(&drawn.blank, written, &page, (a.print, writer, editor));
                let (rgb, facts) = synth::capture_colour(&rgb, how, &mut rng);
                (Scan::Colour(rgb), facts)
            }
            _ => {
                let (grey, facts) = synth::capture(&page, how, &mut rng);
                (Scan::Grey(grey), facts)
            }
        };
        let image = if a.landscape > 0.0 && rng.random_bool(a.landscape) {
            let clockwise = rng.random_bool(0.5);
            facts["quarter_turns"] = serde_json::json!(if clockwise { 1 } else { 3 });
            image.turned(clockwise)
        } else {
            image
        };
        let (stem, file) = self.scan_file(i, seat);
        image
            .save(&file, a.dpi)
            .with_context(|| format!("cannot write {}", file.display()))?;
        let edit = edit.map(|e| e.facts(colours.map(|(_, editor)| editor)));
        let tidy = matches!(hands, synth::Hands::Tidy);
        let mut truth = aufsicht::verify(sheet, self.rules, self.lang)?;
        truth.source = Some(file.display().to_string());
        truth.extra.insert("capture".into(), facts);
        self.write_truth(truth, &stem, mistake, edit, colours, &drawn, tidy)
    }

    /// The hands the sheets are written in.
    fn hands(&self) -> synth::Hands<'_> {
        let a = self.args;
        let ranges = synth::WideRanges {
            size: a.digit_size,
            ring: a.ring_height,
            slant: a.slant,
        };
        match (a.hands, self.library) {
            (HandsArg::Wide, _) => synth::Hands::Wide(ranges),
            (HandsArg::Many, Some(library)) => synth::Hands::Many(None, library),
            (HandsArg::ManyWide, Some(library)) => synth::Hands::Many(Some(ranges), library),
            _ => synth::Hands::Tidy,
        }
    }

    /// Sheet `i`'s file name (its round and table where seated) and scan file.
    fn scan_file(&self, i: usize, seat: Option<&(u32, u32, Vec<String>)>) -> (String, PathBuf) {
        let stem = match seat {
            Some((round, table, _)) => format!("{}-r{round}-t{table:02}", self.rules.id),
            None => format!("{}-{:04}", self.rules.id, i + 1),
        };
        let ext = match self.args.format {
            Format::Png => "png",
            Format::Jpg => "jpg",
            Format::Tif => "tif",
            Format::Pdf => "pdf",
        };
        let file = self.scans.join(format!("{stem}.{ext}"));
        (stem, file)
    }

    /// Writes the sheet's truth with what was drawn on it: the writer's
    /// mistake, the later edit, the pens' colours, the dashes and, for
    /// hands other than the tidy ones, the writer.
    #[allow(clippy::too_many_arguments)]
    fn write_truth(
        &self,
        mut truth: aufsicht::SheetResult,
        stem: &str,
        mistake: serde_json::Value,
        edit: Option<serde_json::Value>,
        colours: Option<(edits::PenColour, edits::PenColour)>,
        drawn: &synth::Drawn,
        tidy: bool,
    ) -> Result<()> {
        if !mistake.is_null() {
            truth.extra.insert("writer_error".into(), mistake);
        }
        if let Some(edit) = edit {
            truth.extra.insert("later_edit".into(), edit);
        }
        if let Some((writer, _)) = colours {
            truth
                .extra
                .insert("writer_colour".into(), serde_json::json!(writer.name));
        }
        truth
            .extra
            .insert("form_rows".into(), serde_json::json!(self.form.games));
        truth.extra.insert(
            "dashes".into(),
            serde_json::json!(
                drawn
                    .dashes
                    .iter()
                    .map(|(r, s, c)| serde_json::json!([r, s, c]))
                    .collect::<Vec<_>>()
            ),
        );
        if !tidy {
            truth.extra.insert("writer".into(), drawn.writer.clone());
        }
        std::fs::write(
            self.truths.join(format!("{stem}.json")),
            truth.to_json_pretty() + "\n",
        )?;
        Ok(())
    }

    /// A random legal sheet for sheet `i`, seated as the night says.
    fn filled(
        &self,
        i: usize,
        seat: Option<&(u32, u32, Vec<String>)>,
        rng: &mut rand_chacha::ChaCha8Rng,
    ) -> aufsicht::SheetResult {
        let table = seat
            .map(|(_, _, ids)| ids.len())
            .or(self.args.players)
            .unwrap_or_else(|| {
                let sizes: Vec<usize> = self
                    .rules
                    .tables
                    .iter()
                    .map(|t| t.players)
                    .filter(|&p| p <= self.form.seats)
                    .collect();
                sizes.get(i % sizes.len().max(1)).copied().unwrap_or(4)
            });
        let mut sheet = synth::random_sheet(self.rules, self.form, table, rng);
        if let Some((round, table, ids)) = seat {
            sheet.round = Some(*round);
            sheet.table = Some(*table);
            for (slot, id) in sheet.players.iter_mut().zip(ids) {
                *slot = Some(id.clone());
            }
        }
        sheet
    }

    /// How sheet `i` is digitised.
    fn capture(&self, i: usize) -> synth::Capture {
        self.args.capture.nth(i)
    }
}

impl CaptureArg {
    /// How the `i`th page is digitised.
    pub fn nth(self, i: usize) -> synth::Capture {
        match self {
            CaptureArg::Clean => synth::Capture::Clean,
            CaptureArg::Scanner => synth::Capture::Scanner,
            CaptureArg::Phone => synth::Capture::Phone,
            CaptureArg::Bilevel => synth::Capture::Bilevel,
            CaptureArg::Mixed => [
                synth::Capture::Scanner,
                synth::Capture::Scanner,
                synth::Capture::Phone,
            ][i % 3],
        }
    }
}

/// A scan as drawn: grey, or in colour.
enum Scan {
    Grey(image::GrayImage),
    Colour(image::RgbImage),
}

impl Scan {
    /// Turned a quarter, clockwise or back.
    fn turned(self, clockwise: bool) -> Scan {
        use image::imageops::{rotate90, rotate270};
        match (self, clockwise) {
            (Scan::Grey(g), true) => Scan::Grey(rotate90(&g)),
            (Scan::Grey(g), false) => Scan::Grey(rotate270(&g)),
            (Scan::Colour(c), true) => Scan::Colour(rotate90(&c)),
            (Scan::Colour(c), false) => Scan::Colour(rotate270(&c)),
        }
    }

    fn save(&self, file: &Path, dpi: f64) -> Result<()> {
        match self {
            Scan::Grey(g) => aufsicht::page::render::save_page(g, file, dpi)?,
            Scan::Colour(c) => c.save(file)?,
        }
        Ok(())
    }
}

/// The writer's pen colour (a pencil is grey) and a later edit's, another.
fn pen_colours(
    writer: &serde_json::Value,
    rng: &mut rand_chacha::ChaCha8Rng,
) -> (edits::PenColour, edits::PenColour) {
    let pencil = writer["pen"]["grain"].as_f64().unwrap_or(0.0) > 0.0;
    let colours = edits::PEN_COLOURS;
    let own = if pencil {
        colours[0]
    } else {
        colours[rng.random_range(0..colours.len())]
    };
    let others: Vec<edits::PenColour> = colours.into_iter().filter(|c| *c != own).collect();
    (own, others[rng.random_range(0..others.len())])
}

/// The night's tables, each (round, table, its players in seat order):
/// from `--seating`, or drawn for `--night` players (whose list and
/// seating are written to `--out`); none without either.
fn night_tables(
    a: &GenerateArgs,
    rules: &RuleSet,
    lang: Lang,
) -> Result<Vec<(u32, u32, Vec<String>)>> {
    let seating = if let Some(path) = &a.seating {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read the seating {}", path.display()))?;
        aufsicht::night::tournament::seating::Seating::from_csv(&text)
            .map_err(|e| anyhow::anyhow!("{}: {}", path.display(), e.tell(lang)))?
    } else if let Some(players) = a.night {
        let numbers = night_numbers(players, a.seed);
        let allowed: Vec<usize> = rules.tables.iter().map(|t| t.players).collect();
        let seating = aufsicht::night::tournament::draw::draw(
            &numbers,
            &allowed,
            rules.rounds.max(1),
            a.seed,
        )
        .map_err(|e| anyhow::anyhow!(e.tell(lang)))?;
        let list: String = numbers
            .iter()
            .map(|n| format!("{n},Spieler {n}\n"))
            .collect();
        std::fs::write(
            a.out.join("participants.csv"),
            format!("number,name\n{list}"),
        )?;
        std::fs::write(a.out.join("seating.csv"), seating.to_csv())?;
        seating
    } else {
        return Ok(Vec::new());
    };
    Ok(seating
        .rounds
        .into_iter()
        .enumerate()
        .flat_map(|(r, tables)| {
            tables
                .into_iter()
                .enumerate()
                .map(move |(t, seats)| (r as u32 + 1, t as u32 + 1, seats))
        })
        .collect())
}

/// `players` distinct participant numbers (1 to 1999) drawn from `seed`.
fn night_numbers(players: usize, seed: u64) -> Vec<String> {
    let mut rng = synth::rng(seed ^ 0x5eed_2a11);
    let mut ids: Vec<u32> = Vec::new();
    while ids.len() < players.min(1999) {
        let id = rng.random_range(1..2000u32);
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    ids.iter().map(u32::to_string).collect()
}

#[cfg(test)]
mod tests {
    use super::{range, slant_range};

    #[test]
    fn a_slant_should_be_degrees_low_first_and_may_be_negative() {
        assert_eq!(slant_range("-10..15"), Ok((-10.0, 15.0)));
        assert_eq!(slant_range("0..0"), Ok((0.0, 0.0)));
        for bad in ["15..-10", "-50..0", "0..90", "a..b"] {
            assert!(slant_range(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_range_should_be_two_positive_numbers_low_first() {
        assert_eq!(range("0.5..0.85"), Ok((0.5, 0.85)));
        assert_eq!(range(" 1 .. 1 "), Ok((1.0, 1.0)));
        for bad in ["2..1", "0..1", "1.5", "a..b", "..2"] {
            assert!(range(bad).is_err(), "{bad}");
        }
    }
}
