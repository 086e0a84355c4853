//! `print`: one sheet per drawn table and round, on the rule set's form,
//! with the round, the table, each seat's number and name, and the table's
//! code printed on it, as a PDF at 300 dpi.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};

use aufsicht::Lang;
use aufsicht::catalogue::say;
use aufsicht::check::rules::{Family, RuleSet};
use aufsicht::night::tournament::roster::Roster;
use aufsicht::page::code::TableCode;
use aufsicht::page::form::FormTemplate;
use aufsicht::page::render::{PdfPages, render_printed};

use crate::common::{Told, load_rules, load_seating};

/// The resolution of the printed pages: the forms' own.
const DPI: f64 = aufsicht::page::code::PRINT_DPI;

/// The arguments of `print`.
#[derive(clap::Args)]
pub struct PrintArgs {
    /// Rule set id or the path of a rule file.
    #[arg(long)]
    pub rules: String,
    /// The seating `draw` wrote (CSV: round,table,seat,player).
    #[arg(long)]
    pub seating: PathBuf,
    /// The registered players (for their names).
    #[arg(long)]
    pub participants: PathBuf,
    /// Where the sheets go (PDF, one page per table and round).
    #[arg(long)]
    pub out: PathBuf,
    /// The form to print on (default: the rule set's game's built-in form).
    #[arg(long)]
    pub form: Option<String>,
    /// Print only this round.
    #[arg(long)]
    pub round: Option<u32>,
    /// The tournament's name; the code carries its tag, so sheets of
    /// another night are told apart.
    #[arg(long, default_value = "")]
    pub tournament: String,
}

pub fn run(a: PrintArgs, lang: Lang) -> Result<()> {
    let rules = load_rules(&a.rules, lang)?;
    let roster =
        Roster::load(&a.participants)
            .told(lang)
            .context(say(lang, "load-participants", &[]))?;
    let seating = load_seating(&a.seating, lang)?;
    let form = form_for(a.form.as_deref(), &rules, lang)?;
    let mut pdf = PdfPages::new();
    let mut printed = 0;
    for (r, tables) in seating.rounds.iter().enumerate() {
        let round = r as u32 + 1;
        if a.round.is_some_and(|only| only != round) {
            continue;
        }
        for (t, seats) in tables.iter().enumerate() {
            let code = TableCode::new(&a.tournament, &form.id, round, t as u32 + 1, seats.clone());
            let names = names_of(seats, &roster, &form, lang)?;
            pdf.add(&render_printed(&form, &code, &names, DPI), DPI);
            printed += 1;
        }
    }
    if printed == 0 {
        bail!(say(lang, "print-nothing", &[]));
    }
    aufsicht::night::files::write_whole(&a.out, &pdf.finish())
        .with_context(|| say(lang, "cannot-write", &[("path", &a.out.display())]))?;
    eprintln!(
        "aufsicht: {}",
        say(
            lang,
            "print-done",
            &[("sheets", &printed), ("path", &a.out.display())]
        )
    );
    Ok(())
}

/// The form named, or the first built-in form of the rule set's game.
fn form_for(name: Option<&str>, rules: &RuleSet, lang: Lang) -> Result<FormTemplate> {
    if let Some(name) = name {
        return FormTemplate::load(name)
            .told(lang)
            .context(say(lang, "load-form", &[]));
    }
    let game = match rules.family {
        Family::Schafkopf => "schafkopf",
        Family::Doppelkopf => "doppelkopf",
    };
    match FormTemplate::builtins()
        .into_iter()
        .find(|f| f.game == game)
    {
        Some(form) => Ok(form),
        None => bail!(say(lang, "load-form", &[])),
    }
}

/// Each seat's registered name; a seated number the list does not hold,
/// or a table with more seats than the form, is refused.
fn names_of(
    seats: &[String],
    roster: &Roster,
    form: &FormTemplate,
    lang: Lang,
) -> Result<Vec<String>> {
    if seats.len() > form.seats {
        bail!(say(
            lang,
            "print-too-many",
            &[
                ("seats", &seats.len()),
                ("form", &form.id),
                ("room", &form.seats)
            ]
        ));
    }
    seats
        .iter()
        .map(|n| match roster.person(n) {
            Some(p) => Ok(p.name.clone()),
            None => bail!(say(lang, "print-unknown", &[("number", n)])),
        })
        .collect()
}
