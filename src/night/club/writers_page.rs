//! The Schreiber's ledger as one self-contained page: flagged Schreiber
//! first, each with their errors' evidence; the words say what the
//! numbers say ("auffällig", never more). The desk links each error to
//! its sheet's audit (crops and trail); the file written by `audit
//! --writers` stands alone.

use crate::catalogue::say;
use crate::check::messages::Lang;
use crate::html::{DOCTYPE, Markup, compiled_in, html};
use crate::night::ledger::{Evidence, Writer};
use crate::night::tournament::checks::round_and_table;
use crate::night::tournament::names::Names;

/// What the page says around the ledger: its title, the players' names
/// where a list gives them, and the seat taken as the Schreiber's
/// (where tables name no other).
pub struct Ledger<'a> {
    pub title: &'a str,
    pub names: &'a Names,
    pub writer_seat: usize,
}

const STYLE: &str = "body{font-family:sans-serif;margin:1.5em}table{border-collapse:collapse;margin:.5em 0}\
td,th{border:1px solid #bbb;padding:2px 6px;text-align:right}th{background:#eee}\
td.text,th.text{text-align:left}.flagged{background:#fff3c4}\
section{page-break-inside:avoid;border-top:2px solid #444;margin-top:1.5em}\
@media print{a{color:inherit;text-decoration:none}}";

/// The page: `title` over every Schreiber's line and each one's errors;
/// `link` gives the address of an error's sheet, where there is one.
pub fn page(
    writers: &[Writer],
    ledger: &Ledger,
    link: &dyn Fn(&Evidence) -> Option<String>,
    lang: Lang,
) -> String {
    let t = |id: &str| say(lang, id, &[]);
    let title = ledger.title;
    let seat = say(lang, "writers-page-seat", &[("seat", &ledger.writer_seat)]);
    html! {
        (DOCTYPE)
        html lang=(lang.code()) {
            head { meta charset="utf-8"; title { (title) } style { (compiled_in(STYLE)) } }
            body {
                h1 { (title) }
                p { (seat) }
                p { (t("writers-page-help")) }
                (summary(writers, ledger.names, lang))
                @for w in writers.iter().filter(|w| w.errors > 0) {
                    section id={ "writer-" (w.player) } {
                        h2 { (say(lang, "writers-page-writer", &[("player", &named(&w.player, ledger.names))])) }
                        p { (verdict(w, lang)) }
                        (evidence(&w.evidence, link, lang))
                    }
                }
            }
        }
    }
    .into_string()
}

/// The number, the list's name after it where it gives one.
fn named(player: &str, names: &Names) -> String {
    match names.get(player) {
        Some(name) => format!("{player} {name}"),
        None => player.to_string(),
    }
}

/// One line a Schreiber, flagged ones first (the ledger's order).
fn summary(writers: &[Writer], names: &Names, lang: Lang) -> Markup {
    let t = |id: &str| say(lang, id, &[]);
    html! {
        table id="writers" {
            tr {
                th class="text" { (t("writers-col-player")) }
                th { (t("writers-col-sheets")) }
                th { (t("writers-col-errors")) }
                th { (t("writers-col-favouring")) }
                th { (t("writers-col-self")) }
                th { (t("writers-col-partners")) }
                th { (t("writers-col-others")) }
                th { "p" }
                th class="text" { (t("writers-col-flagged")) }
            }
            @for w in writers {
                tr class=[w.flagged.then_some("flagged")] data-player=(w.player) {
                    td class="text" { (named(&w.player, names)) }
                    td { (w.sheets) }
                    td { (w.errors) }
                    td { (w.favouring_self) }
                    td { (format!("{:+}", w.to_self)) }
                    td { (format!("{:+}", w.to_partners)) }
                    td { (format!("{:+}", w.against_others)) }
                    td { (decimal(w.p, lang)) }
                    td class="text" {
                        @if w.flagged { (t("writers-flagged-word")) } @else { (t("writers-unflagged-word")) }
                    }
                }
            }
        }
    }
}

/// The name a person reads for an error's sheet: its round and table.
fn sheet_label(e: &Evidence, lang: Lang) -> String {
    round_and_table(e.round, e.table, lang).unwrap_or_else(|| e.sheet.clone())
}

/// What the numbers say of one Schreiber, the chance in words.
pub fn verdict(w: &Writer, lang: Lang) -> String {
    let points = format!("{:+}", w.to_self);
    let p = decimal(w.p, lang);
    let args: [(&str, &dyn std::fmt::Display); 5] = [
        ("player", &w.player),
        ("favouring", &w.favouring_self),
        ("errors", &w.errors),
        ("points", &points),
        ("p", &p),
    ];
    let id = if w.flagged {
        "writers-flagged"
    } else {
        "writers-not-flagged"
    };
    format!("{}. {}", say(lang, id, &args), chance(w.p, lang))
}

/// A chance said as a person grasps it: "so einseitig nur etwa 1 von
/// 5.000 Mal durch Zufall", the count rounded to two digits.
pub fn chance(p: f64, lang: Lang) -> String {
    if p.is_nan() || p > 0.2 {
        return say(lang, "writers-chance-often", &[]);
    }
    // Beyond a million the count says nothing more (and p may be 0).
    if p < 1e-6 {
        let n = crate::catalogue::thousands(lang, 1_000_000);
        return say(lang, "writers-chance-rarer", &[("n", &n)]);
    }
    let once_in = 1.0 / p;
    let magnitude = 10f64.powi((once_in.log10().floor() as i32 - 1).max(0));
    let rounded = ((once_in / magnitude).round() * magnitude) as u64;
    let n = crate::catalogue::thousands(lang, rounded);
    say(lang, "writers-chance", &[("n", &n)])
}

fn evidence(list: &[Evidence], link: &dyn Fn(&Evidence) -> Option<String>, lang: Lang) -> Markup {
    let t = |id: &str| say(lang, id, &[]);
    html! {
        table class="evidence" {
            tr {
                th class="text" { (t("writers-col-night")) }
                th class="text" { (t("writers-col-sheet")) }
                th { (t("writers-col-round")) }
                th { (t("writers-col-table")) }
                th { (t("writers-col-seat")) }
                th { (t("writers-col-written")) }
                th { (t("writers-col-computed")) }
                th { (t("writers-col-moved")) }
            }
            @for e in list {
                tr {
                    td class="text" { (e.night) }
                    td class="text" title=(e.sheet) {
                        @match link(e) {
                            Some(href) => a href=(href) { (sheet_label(e, lang)) },
                            None => (sheet_label(e, lang)),
                        }
                    }
                    td { (e.round.map(|r| r.to_string()).unwrap_or_default()) }
                    td { (e.table.map(|r| r.to_string()).unwrap_or_default()) }
                    td { (e.seat) }
                    td { (format!("{:+}", e.written)) }
                    td { (format!("{:+}", e.computed)) }
                    td { (format!("{:+}", e.written - e.computed)) }
                }
            }
        }
    }
}

/// A chance to four places, as the language writes a decimal.
fn decimal(p: f64, lang: Lang) -> String {
    crate::catalogue::decimal(lang, p, 4)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn writer(player: &str, errors: usize, favouring: usize, p: f64) -> Writer {
        Writer {
            player: player.into(),
            sheets: 6,
            errors,
            to_self: 32,
            to_partners: 0,
            against_others: 0,
            favouring_self: favouring,
            p,
            flagged: p < 0.01 && errors >= 3,
            evidence: Vec::new(),
        }
    }

    #[test]
    fn the_page_should_say_what_the_numbers_say_and_never_more() {
        let mut names = Names::default();
        names.name_if_unnamed("7", "Huber Sepp");
        let ledger = Ledger {
            title: "Saison",
            names: &names,
            writer_seat: 1,
        };
        let page = page(
            &[writer("7", 6, 6, 0.000244), writer("21", 1, 0, 1.0)],
            &ledger,
            &|_| None,
            Lang::De,
        );
        for said in [
            "7 Huber Sepp",
            "nur etwa 1 von 4.100 Mal durch Zufall",
            "unauffällig",
            "Platz 1",
        ] {
            assert!(page.contains(said), "{said} in {page}");
        }
        assert!(
            page.contains("auffällig: 6 von 6 Fehlern zu eigenen Gunsten, +32 Punkte (p = 0,0002)"),
            "{page}"
        );
        for word in ["Betrug", "betr", "writers-"] {
            assert!(!page.contains(word), "{word} in {page}");
        }
        assert!(
            page.contains(r#"class="flagged" data-player="7""#),
            "{page}"
        );
    }
}
