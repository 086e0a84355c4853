//! Why a page could not be read: every reason a supervisor is told, as
//! data, worded in German and English in one place.

use crate::catalogue::{Lang, say};

/// The reason a page has no reading. `Display` is the English wording.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unreadable {
    #[error("{}", self.text(Lang::En))]
    Open(#[source] FileProblem),
    /// The bytes are no image the decoders know, or a broken one.
    #[error("{}", self.text(Lang::En))]
    NotAnImage,
    /// The file holds no bytes at all (a transfer that broke off).
    #[error("{}", self.text(Lang::En))]
    EmptyFile,
    /// The image format is known but this variant is not supported.
    #[error("{}", self.text(Lang::En))]
    Unsupported(String),
    /// More pixels than any scan of a printed sheet has: refused before decoding.
    #[error("{}", self.text(Lang::En))]
    TooLarge { width: u64, height: u64 },
    #[error("{}", self.text(Lang::En))]
    TooSmall { width: u32, height: u32 },
    #[error("{}", self.text(Lang::En))]
    NotAPdf,
    #[error("{}", self.text(Lang::En))]
    PdfWithoutPages,
    #[error("{}", self.text(Lang::En))]
    PdfPageWithoutImage,
    /// A compressed stream would inflate past the limit (a decompression bomb).
    #[error("{}", self.text(Lang::En))]
    PdfStreamTooLarge { limit_mb: u64 },
    #[error("{}", self.text(Lang::En))]
    PdfImageBroken,
    /// A page after the first of a multi-page TIFF, which is not decoded.
    #[error("{}", self.text(Lang::En))]
    TiffPage { page: u32, pages: u32 },
    #[error("{}", self.text(Lang::En))]
    NoTable,
    /// A ruled table was found, but none of the form's lines on it.
    #[error("{}", self.text(Lang::En))]
    TableMismatch,
    #[error("{}", self.text(Lang::En))]
    OtherForm { form: String, percent: u32 },
    /// The ruled lines fit the form short of sure, and its print (title,
    /// row numbers) is nowhere where the form has it.
    #[error("{}", self.text(Lang::En))]
    OtherPrint { form: String, percent: u32 },
    /// A bug while reading (a panic caught), or a check that failed.
    #[error("{}", self.text(Lang::En))]
    Internal(String),
    /// A result the archive kept that cannot be read back (written by an
    /// older release, or damaged): set aside, its readings kept.
    #[error("{}", self.text(Lang::En))]
    SetAside(String),
}

/// Why a file could not be opened or read from the disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.text(Lang::En))]
pub enum FileProblem {
    NotFound,
    NoPermission,
    NameTooLong,
    DiskFull,
    ReadOnly,
    Other,
}

impl From<&std::io::Error> for FileProblem {
    fn from(e: &std::io::Error) -> Self {
        match e.kind() {
            std::io::ErrorKind::NotFound => FileProblem::NotFound,
            std::io::ErrorKind::PermissionDenied => FileProblem::NoPermission,
            std::io::ErrorKind::InvalidFilename => FileProblem::NameTooLong,
            std::io::ErrorKind::StorageFull | std::io::ErrorKind::QuotaExceeded => {
                FileProblem::DiskFull
            }
            std::io::ErrorKind::ReadOnlyFilesystem => FileProblem::ReadOnly,
            _ => FileProblem::Other,
        }
    }
}

impl FileProblem {
    pub fn text(self, lang: Lang) -> String {
        match self {
            FileProblem::NotFound => say(lang, "problem-not-found", &[]),
            FileProblem::NoPermission => say(lang, "problem-no-permission", &[]),
            FileProblem::NameTooLong => say(lang, "problem-name-too-long", &[]),
            FileProblem::DiskFull => say(lang, "problem-disk-full", &[]),
            FileProblem::ReadOnly => say(lang, "problem-read-only", &[]),
            FileProblem::Other => say(lang, "problem-other", &[]),
        }
    }
}

impl From<std::io::Error> for Unreadable {
    fn from(e: std::io::Error) -> Self {
        Unreadable::Open(FileProblem::from(&e))
    }
}

impl From<image::ImageError> for Unreadable {
    fn from(e: image::ImageError) -> Self {
        use image::ImageError as E;
        match e {
            // A decoder's read error is mostly a file cut short, not the disk.
            E::IoError(io) if FileProblem::from(&io) != FileProblem::Other => io.into(),
            E::Unsupported(u) => Unreadable::Unsupported(u.to_string()),
            E::Limits(_) => Unreadable::TooLarge {
                width: 0,
                height: 0,
            },
            _ => Unreadable::NotAnImage,
        }
    }
}

impl Unreadable {
    /// Could the file itself not be read from the disk (not a matter of its content)?
    pub fn is_file_problem(&self) -> bool {
        matches!(self, Unreadable::Open(_))
    }

    /// The reason as a supervisor reads it, without a closing full stop.
    pub fn text(&self, lang: Lang) -> String {
        use Unreadable::*;
        match self {
            Open(p) => p.text(lang),
            NotAnImage => say(lang, "unreadable-not-an-image", &[]),
            EmptyFile => say(lang, "unreadable-empty-file", &[]),
            Unsupported(what) => say(lang, "unreadable-unsupported", &[("what", what)]),
            TooLarge { width, height } => say(
                lang,
                "unreadable-too-large",
                &[("size", &size(*width, *height))],
            ),
            TooSmall { width, height } => say(
                lang,
                "unreadable-too-small",
                &[("width", width), ("height", height)],
            ),
            NotAPdf => say(lang, "unreadable-not-a-pdf", &[]),
            PdfWithoutPages => say(lang, "unreadable-pdf-without-pages", &[]),
            PdfPageWithoutImage => say(lang, "unreadable-pdf-page-without-image", &[]),
            PdfStreamTooLarge { limit_mb } => say(
                lang,
                "unreadable-pdf-stream-too-large",
                &[("limit", limit_mb)],
            ),
            PdfImageBroken => say(lang, "unreadable-pdf-image-broken", &[]),
            TiffPage { page, pages } => say(
                lang,
                "unreadable-tiff-page",
                &[("page", page), ("pages", pages)],
            ),
            NoTable => say(lang, "unreadable-no-table", &[]),
            TableMismatch => say(lang, "unreadable-table-mismatch", &[]),
            OtherForm { form, percent } => say(
                lang,
                "unreadable-other-form",
                &[("form", form), ("percent", percent)],
            ),
            OtherPrint { form, percent } => say(
                lang,
                "unreadable-other-print",
                &[("form", form), ("percent", percent)],
            ),
            Internal(what) => say(lang, "unreadable-internal", &[("what", what)]),
            SetAside(why) => say(lang, "unreadable-set-aside", &[("why", why)]),
        }
    }
}

/// Why a path below the inputs is not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PassedOver {
    /// A regular file that is no image or PDF.
    NotAScan,
    /// A FIFO, socket or device: opening it could wait forever.
    NotARegularFile(&'static str),
    /// A link (or hard link) to a file or folder read already: read once.
    Again,
    /// A folder or link that cannot be read from the disk.
    Unreadable(FileProblem),
}

impl PassedOver {
    /// Is something lost that the user must see to (not a mere note)?
    pub fn is_failure(&self) -> bool {
        matches!(self, PassedOver::Unreadable(_))
    }
}

impl PassedOver {
    /// What the supervisor is told of a path that was not read.
    pub fn text(&self, lang: Lang) -> String {
        use PassedOver::*;
        match self {
            NotAScan => say(lang, "passed-not-a-scan", &[]),
            NotARegularFile(what) => say(lang, "passed-not-a-regular-file", &[("what", what)]),
            Again => say(lang, "passed-again", &[]),
            Unreadable(p) => say(lang, "passed-unreadable", &[("problem", &p.text(lang))]),
        }
    }
}

fn size(width: u64, height: u64) -> String {
    if width == 0 || height == 0 {
        "?".into()
    } else {
        format!("{width}×{height} px")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_disk_error_should_be_told_in_the_supervisors_language() {
        let e = std::io::Error::from(std::io::ErrorKind::PermissionDenied);
        let why = Unreadable::from(e);
        assert!(why.is_file_problem());
        assert_eq!(why.text(Lang::De), "keine Leseberechtigung");
        assert_eq!(why.to_string(), "no permission to read it");
    }

    #[test]
    fn a_decoder_error_should_not_reach_a_german_message_in_english() {
        let broken = image::load_from_memory(b"\x89PNG\r\n\x1a\nbroken").unwrap_err();
        let why = Unreadable::from(broken);
        assert_eq!(why, Unreadable::NotAnImage);
        assert!(why.text(Lang::De).starts_with("kein lesbares Bild"));
    }
}
