//! `draw`: every round's tables and seats for the registered players, as
//! the seating CSV the night's other commands read.

use std::path::PathBuf;

use anyhow::{Context, Result};

use aufsicht::Lang;
use aufsicht::catalogue::say;
use aufsicht::night::tournament::draw::draw;
use aufsicht::night::tournament::roster::Roster;

use crate::common::{Told, load_rules};

/// The arguments of `draw`.
#[derive(clap::Args)]
pub struct DrawArgs {
    /// Rule set id or the path of a rule file (its rounds and table sizes).
    #[arg(long)]
    pub rules: String,
    /// The registered players: a CSV with the columns number and name
    /// (further columns are kept), or one number per line.
    #[arg(long)]
    pub participants: PathBuf,
    /// Where the seating goes (CSV: round,table,seat,player).
    #[arg(long)]
    pub out: PathBuf,
    /// How many rounds to draw (default: the rule set's).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=20))]
    pub rounds: Option<u32>,
    /// The same seed gives the same draw (default: a new one, printed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Also write the hall's papers (PDF): the table list of every round and
    /// a slip per player with their table and seat in each round.
    #[arg(long)]
    pub hall: Option<PathBuf>,
    /// The tournament's name, as the hall's papers head it.
    #[arg(long, default_value = "")]
    pub tournament: String,
}

pub fn run(a: DrawArgs, lang: Lang) -> Result<()> {
    let rules = load_rules(&a.rules, lang)?;
    let roster =
        Roster::load(&a.participants)
            .told(lang)
            .context(say(lang, "load-participants", &[]))?;
    let numbers: Vec<String> = roster.people.iter().map(|p| p.number.clone()).collect();
    let allowed: Vec<usize> = rules.tables.iter().map(|t| t.players).collect();
    let rounds = a.rounds.unwrap_or(rules.rounds);
    let seed = a.seed.unwrap_or_else(new_seed);
    let seating = draw(&numbers, &allowed, rounds, seed).told(lang)?;
    aufsicht::night::files::write_whole(&a.out, seating.to_csv().as_bytes())
        .with_context(|| say(lang, "draw-write", &[("path", &a.out.display())]))?;
    if let Some(hall) = &a.hall {
        let mut pdf = aufsicht::page::render::PdfPages::new();
        let hall_dpi = aufsicht::night::tournament::hall::DPI;
        let list =
            aufsicht::night::tournament::hall::table_list(&seating, &roster, &a.tournament, lang);
        let slips =
            aufsicht::night::tournament::hall::slips(&seating, &roster, &a.tournament, lang);
        for page in list.iter().chain(&slips) {
            pdf.add(page, hall_dpi);
        }
        aufsicht::night::files::write_whole(hall, &pdf.finish())
            .with_context(|| say(lang, "hall-write", &[("path", &hall.display())]))?;
    }
    let tables = seating.rounds.first().map_or(0, Vec::len);
    let fives = seating
        .rounds
        .first()
        .map_or(0, |r| r.iter().filter(|t| t.len() == 5).count());
    let done = say(
        lang,
        "draw-done",
        &[
            ("players", &numbers.len()),
            ("rounds", &rounds),
            ("tables", &tables),
            ("fives", &fives),
        ],
    );
    let repeats = match seating.repeats() {
        0 => say(lang, "draw-no-repeats", &[]),
        n => say(lang, "draw-repeats", &[("repeats", &n)]),
    };
    let seed = say(lang, "draw-seed", &[("seed", &seed)]);
    eprintln!("aufsicht: {done}; {repeats}; {seed}");
    Ok(())
}

/// A seed from the clock, for a draw nobody asked to repeat (it is printed,
/// so it can be).
fn new_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64 % 1_000_000)
}
