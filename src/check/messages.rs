//! Flag messages in the supervisor's language. Codes stay English; the
//! sentence is German by default, English on request.

use std::str::FromStr;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Lang {
    #[default]
    De,
    En,
}

impl FromStr for Lang {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "de" | "deutsch" | "german" => Ok(Lang::De),
            "en" | "english" | "englisch" => Ok(Lang::En),
            other => Err(format!("unknown language \"{other}\": use de or en")),
        }
    }
}

/// The facts a message speaks about.
#[derive(Debug, Clone)]
pub enum Msg {
    RowNotZeroSum {
        row: u32,
        sum: i64,
    },
    RowIllegalValues {
        row: u32,
        values: String,
    },
    RowSeatBoth {
        row: u32,
        seat: usize,
    },
    RowSeatEmpty {
        row: u32,
        seat: usize,
    },
    FirstGameRestricted {
        row: u32,
        game: String,
    },
    ToutNotInitialled {
        row: u32,
        game: String,
    },
    CorrectionNotInitialled {
        row: u32,
        seat: usize,
    },
    SoloNotCircled {
        row: u32,
        seat: usize,
        game: String,
    },
    CircleNotSolo {
        row: u32,
        seat: usize,
    },
    GesamtMismatch {
        seat: usize,
        plus: bool,
        written: Option<u32>,
        sum: u64,
    },
    AbzugMismatch {
        seat: usize,
        written: Option<u32>,
        expected: u64,
    },
    EndergebnisMismatch {
        seat: usize,
        written: Option<i64>,
        expected: i64,
    },
    EndergebnisNotZero {
        sum: i64,
    },
    GameCount {
        counted: u32,
        expected: u32,
        players: usize,
    },
    PflichtsoloMissing {
        seat: usize,
    },
    SignatureMissing {
        seat: usize,
    },
    PlayerIdMissing {
        seat: usize,
    },
}

fn opt<T: ToString>(v: Option<T>, lang: Lang) -> String {
    v.map_or_else(
        || match lang {
            Lang::De => "nichts".to_string(),
            Lang::En => "nothing".to_string(),
        },
        |v| v.to_string(),
    )
}

fn signed(v: i64) -> String {
    if v > 0 {
        format!("+{v}")
    } else {
        v.to_string()
    }
}

impl Msg {
    pub fn text(&self, lang: Lang) -> String {
        use Msg::*;
        match (lang, self) {
            (Lang::De, RowNotZeroSum { row, sum }) => {
                format!("Spiel {row}: die Zeile ergibt {} statt 0.", signed(*sum))
            }
            (Lang::En, RowNotZeroSum { row, sum }) => {
                format!(
                    "Game {row}: the row adds up to {} instead of 0.",
                    signed(*sum)
                )
            }
            (Lang::De, RowIllegalValues { row, values }) => {
                format!("Spiel {row}: {values} passt zu keinem Spiel des Tarifs.")
            }
            (Lang::En, RowIllegalValues { row, values }) => {
                format!("Game {row}: {values} fits no game of the tariff.")
            }
            (Lang::De, RowSeatBoth { row, seat }) => {
                format!("Spiel {row}: bei Platz {seat} stehen Plus und Minus.")
            }
            (Lang::En, RowSeatBoth { row, seat }) => {
                format!("Game {row}: seat {seat} has both a plus and a minus value.")
            }
            (Lang::De, RowSeatEmpty { row, seat }) => {
                format!("Spiel {row}: bei Platz {seat} fehlt der Eintrag.")
            }
            (Lang::En, RowSeatEmpty { row, seat }) => {
                format!("Game {row}: seat {seat} has no value.")
            }
            (Lang::De, FirstGameRestricted { row, game }) => {
                format!("Spiel {row}: {game} ist im ersten Spiel einer Runde nicht erlaubt.")
            }
            (Lang::En, FirstGameRestricted { row, game }) => {
                format!("Game {row}: {game} is not allowed in the first game of a round.")
            }
            (Lang::De, ToutNotInitialled { row, game }) => {
                format!("Spiel {row}: {game} ohne Abzeichnung der Aufsicht.")
            }
            (Lang::En, ToutNotInitialled { row, game }) => {
                format!("Game {row}: {game} without the supervisor's initials.")
            }
            (Lang::De, CorrectionNotInitialled { row, seat }) => {
                format!("Spiel {row}: Änderung bei Platz {seat} ohne Abzeichnung der Aufsicht.")
            }
            (Lang::En, CorrectionNotInitialled { row, seat }) => {
                format!("Game {row}: correction at seat {seat} without the supervisor's initials.")
            }
            (Lang::De, SoloNotCircled { row, seat, game }) => {
                format!("Spiel {row}: {game} von Platz {seat} ist nicht eingekreist.")
            }
            (Lang::En, SoloNotCircled { row, seat, game }) => {
                format!("Game {row}: the {game} of seat {seat} is not circled.")
            }
            (Lang::De, CircleNotSolo { row, seat }) => {
                format!("Spiel {row}: Kreis bei Platz {seat}, aber Platz {seat} spielt kein Solo.")
            }
            (Lang::En, CircleNotSolo { row, seat }) => {
                format!("Game {row}: seat {seat} is circled but played no solo.")
            }
            (
                Lang::De,
                GesamtMismatch {
                    seat,
                    plus,
                    written,
                    sum,
                },
            ) => format!(
                "Platz {seat}: Gesamt {} ist {}, die Spalte ergibt {sum}.",
                if *plus { "Plus" } else { "Minus" },
                opt(*written, lang)
            ),
            (
                Lang::En,
                GesamtMismatch {
                    seat,
                    plus,
                    written,
                    sum,
                },
            ) => format!(
                "Seat {seat}: Gesamt {} is {}, the column adds up to {sum}.",
                if *plus { "plus" } else { "minus" },
                opt(*written, lang)
            ),
            (
                Lang::De,
                AbzugMismatch {
                    seat,
                    written,
                    expected,
                },
            ) => format!(
                "Platz {seat}: Abzug ist {}, die kleinere Gesamtsumme ist {expected}.",
                opt(*written, lang)
            ),
            (
                Lang::En,
                AbzugMismatch {
                    seat,
                    written,
                    expected,
                },
            ) => format!(
                "Seat {seat}: Abzug is {}, the smaller Gesamt is {expected}.",
                opt(*written, lang)
            ),
            (
                Lang::De,
                EndergebnisMismatch {
                    seat,
                    written,
                    expected,
                },
            ) => format!(
                "Platz {seat}: Endergebnis ist {}, Plus minus Minus ergibt {}.",
                opt(written.map(signed), lang),
                signed(*expected)
            ),
            (
                Lang::En,
                EndergebnisMismatch {
                    seat,
                    written,
                    expected,
                },
            ) => format!(
                "Seat {seat}: Endergebnis is {}, plus minus minus gives {}.",
                opt(written.map(signed), lang),
                signed(*expected)
            ),
            (Lang::De, EndergebnisNotZero { sum }) => {
                format!(
                    "Die Endergebnisse ergeben zusammen {} statt 0.",
                    signed(*sum)
                )
            }
            (Lang::En, EndergebnisNotZero { sum }) => {
                format!(
                    "The Endergebnis values add up to {} instead of 0.",
                    signed(*sum)
                )
            }
            (
                Lang::De,
                GameCount {
                    counted,
                    expected,
                    players,
                },
            ) => format!(
                "{counted} Spiele eingetragen, an einem {players}er-Tisch sind es {expected}."
            ),
            (
                Lang::En,
                GameCount {
                    counted,
                    expected,
                    players,
                },
            ) => format!("{counted} games written; a table of {players} plays {expected}."),
            (Lang::De, PflichtsoloMissing { seat }) => {
                format!("Platz {seat} hat in dieser Runde kein Solo gespielt (Pflichtsolo).")
            }
            (Lang::En, PflichtsoloMissing { seat }) => {
                format!("Seat {seat} played no solo this round (Pflichtsolo).")
            }
            (Lang::De, SignatureMissing { seat }) => {
                format!("Platz {seat} hat nicht unterschrieben.")
            }
            (Lang::En, SignatureMissing { seat }) => format!("No signature for seat {seat}."),
            (Lang::De, PlayerIdMissing { seat }) => {
                format!("Platz {seat}: die Teilnehmer-Nr. fehlt.")
            }
            (Lang::En, PlayerIdMissing { seat }) => {
                format!("Seat {seat}: the participant number is missing.")
            }
        }
    }
}

/// Row values as a supervisor writes them: "+6 / -2 / -2 / -2".
pub fn row_values(values: &[Option<i64>]) -> String {
    values
        .iter()
        .map(|v| v.map_or("–".to_string(), signed))
        .collect::<Vec<_>>()
        .join(" / ")
}
