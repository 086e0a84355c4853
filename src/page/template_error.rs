//! A form template or rule set that cannot be used, told in the
//! supervisor's language: raised where a form or a rule set is read.

use std::path::PathBuf;

use crate::catalogue::{Lang, Tell, say};
use crate::page::unreadable::FileProblem;

/// A rule set or form template that cannot be used.
#[derive(Debug, thiserror::Error)]
#[error("{}", self.tell(Lang::En))]
pub enum TemplateError {
    Read {
        file: PathBuf,
        problem: FileProblem,
    },
    /// A file that is no JSON at all (a text, a picture named .json).
    NotJson {
        file: String,
        line: usize,
    },
    /// Names the file, the line (when known) and the field.
    Invalid {
        file: String,
        line: Option<usize>,
        field: String,
        message: String,
    },
    Unknown {
        what: TemplateKind,
        name: String,
        known: String,
    },
}

/// Which kind of template a name did not name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TemplateKind {
    Form,
    Rules,
}

impl Tell for TemplateError {
    fn tell(&self, lang: Lang) -> String {
        match self {
            TemplateError::Read { file, problem } => say(
                lang,
                "template-read",
                &[("file", &file.display()), ("problem", &problem.text(lang))],
            ),
            TemplateError::NotJson { file, line } => {
                say(lang, "template-not-json", &[("file", file), ("line", line)])
            }
            TemplateError::Invalid {
                file,
                line,
                field,
                message,
            } => {
                let line = line.map_or("?".to_string(), |l| l.to_string());
                let field = if field.is_empty() {
                    String::new()
                } else {
                    say(lang, "template-field", &[("field", field)])
                };
                say(
                    lang,
                    "template-invalid",
                    &[
                        ("file", file),
                        ("line", &line),
                        ("field", &field),
                        ("message", message),
                    ],
                )
            }
            TemplateError::Unknown { what, name, known } => {
                let what = match what {
                    TemplateKind::Form => say(lang, "what-form", &[]),
                    TemplateKind::Rules => say(lang, "what-rules", &[]),
                };
                say(
                    lang,
                    "template-unknown",
                    &[("what", &what), ("name", name), ("known", known)],
                )
            }
        }
    }
}
