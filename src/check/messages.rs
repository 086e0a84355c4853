//! Flag messages in the supervisor's language. Codes stay English; the
//! sentence is German by default, English on request, worded in the
//! catalogue (`templates/messages`).

pub use crate::catalogue::Lang;
use crate::catalogue::say;

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
        /// The value struck out and the one written, where both are known.
        change: Option<(u32, u32)>,
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

fn signed(v: i64) -> String {
    if v > 0 {
        format!("+{v}")
    } else {
        v.to_string()
    }
}

impl Msg {
    /// The sentence, worded in the catalogue (`flag-*`).
    pub fn text(&self, lang: Lang) -> String {
        use Msg::*;
        match self {
            RowNotZeroSum { row, sum } => say(
                lang,
                "flag-row-not-zero-sum",
                &[("row", row), ("sum", &signed(*sum))],
            ),
            RowIllegalValues { row, values } => say(
                lang,
                "flag-row-illegal-values",
                &[("row", row), ("values", values)],
            ),
            RowSeatBoth { row, seat } => {
                say(lang, "flag-row-seat-both", &[("row", row), ("seat", seat)])
            }
            RowSeatEmpty { row, seat } => {
                say(lang, "flag-row-seat-empty", &[("row", row), ("seat", seat)])
            }
            FirstGameRestricted { row, game } => say(
                lang,
                "flag-first-game-restricted",
                &[("row", row), ("game", game)],
            ),
            ToutNotInitialled { row, game } => say(
                lang,
                "flag-tout-not-initialled",
                &[("row", row), ("game", game)],
            ),
            CorrectionNotInitialled {
                row,
                seat,
                change: None,
            } => say(
                lang,
                "flag-correction-not-initialled",
                &[("row", row), ("seat", seat)],
            ),
            CorrectionNotInitialled {
                row,
                seat,
                change: Some((was, now)),
            } => say(
                lang,
                "flag-correction-not-initialled-struck",
                &[("row", row), ("seat", seat), ("was", was), ("now", now)],
            ),
            SoloNotCircled { row, seat, game } => say(
                lang,
                "flag-solo-not-circled",
                &[("row", row), ("seat", seat), ("game", game)],
            ),
            CircleNotSolo { row, seat } => say(
                lang,
                "flag-circle-not-solo",
                &[("row", row), ("seat", seat)],
            ),
            footer => footer.footer_text(lang),
        }
    }

    /// The text of a finding about a seat's footer or the whole sheet.
    fn footer_text(&self, lang: Lang) -> String {
        use Msg::*;
        let written = |v: Option<String>| v.unwrap_or_else(|| say(lang, "flag-nothing", &[]));
        let column = |plus: bool| if plus { "plus" } else { "minus" };
        match self {
            GesamtMismatch {
                seat,
                plus,
                written: w,
                sum,
            } => say(
                lang,
                "flag-gesamt-mismatch",
                &[
                    ("seat", seat),
                    ("column", &column(*plus)),
                    ("written", &written(w.map(|v| v.to_string()))),
                    ("sum", sum),
                ],
            ),
            AbzugMismatch {
                seat,
                written: w,
                expected,
            } => say(
                lang,
                "flag-abzug-mismatch",
                &[
                    ("seat", seat),
                    ("written", &written(w.map(|v| v.to_string()))),
                    ("expected", expected),
                ],
            ),
            EndergebnisMismatch {
                seat,
                written: w,
                expected,
            } => say(
                lang,
                "flag-endergebnis-mismatch",
                &[
                    ("seat", seat),
                    ("written", &written(w.map(signed))),
                    ("expected", &signed(*expected)),
                ],
            ),
            EndergebnisNotZero { sum } => {
                say(lang, "flag-endergebnis-not-zero", &[("sum", &signed(*sum))])
            }
            GameCount {
                counted,
                expected,
                players,
            } => say(
                lang,
                "flag-game-count",
                &[
                    ("counted", counted),
                    ("expected", expected),
                    ("players", players),
                ],
            ),
            PflichtsoloMissing { seat } => say(lang, "flag-pflichtsolo-missing", &[("seat", seat)]),
            SignatureMissing { seat } => say(lang, "flag-signature-missing", &[("seat", seat)]),
            PlayerIdMissing { seat } => say(lang, "flag-player-id-missing", &[("seat", seat)]),
            row => unreachable!("a row's finding is said by text: {row:?}"),
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
