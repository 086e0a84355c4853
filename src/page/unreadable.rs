//! Why a page could not be read: every reason a supervisor is told, as
//! data, worded in German and English in one place.

use crate::check::messages::Lang;

/// The reason a page has no reading. `Display` is the English wording.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unreadable {
    #[error("{}", self.text(Lang::En))]
    Open(#[source] FileProblem),
    /// The bytes are no image the decoders know, or a broken one.
    #[error("{}", self.text(Lang::En))]
    NotAnImage,
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
    /// A bug while reading (a panic caught), or a check that failed.
    #[error("{}", self.text(Lang::En))]
    Internal(String),
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
    pub fn text(self, lang: Lang) -> &'static str {
        match (lang, self) {
            (Lang::En, FileProblem::NotFound) => "file not found",
            (Lang::En, FileProblem::NoPermission) => "no permission to read it",
            (Lang::En, FileProblem::NameTooLong) => "the file name is too long for the file system",
            (Lang::En, FileProblem::DiskFull) => "the disk is full",
            (Lang::En, FileProblem::ReadOnly) => "the disk is read-only",
            (Lang::En, FileProblem::Other) => "the disk reports an error",
            (Lang::De, FileProblem::NotFound) => "Datei nicht gefunden",
            (Lang::De, FileProblem::NoPermission) => "keine Leseberechtigung",
            (Lang::De, FileProblem::NameTooLong) => "der Dateiname ist für das Dateisystem zu lang",
            (Lang::De, FileProblem::DiskFull) => "das Laufwerk ist voll",
            (Lang::De, FileProblem::ReadOnly) => "das Laufwerk ist schreibgeschützt",
            (Lang::De, FileProblem::Other) => "das Laufwerk meldet einen Fehler",
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
        match (lang, self) {
            (_, Open(p)) => p.text(lang).to_string(),
            (Lang::De, NotAnImage) => {
                "kein lesbares Bild (beschädigt oder unbekanntes Format)".into()
            }
            (Lang::En, NotAnImage) => "not a readable image (broken, or an unknown format)".into(),
            (Lang::De, Unsupported(_)) => {
                "diese Bildart wird nicht unterstützt; bitte als PNG, JPEG, TIFF oder PDF scannen"
                    .into()
            }
            (Lang::En, Unsupported(what)) => {
                format!(
                    "this kind of image is not supported ({what}); scan to PNG, JPEG, TIFF or PDF"
                )
            }
            (Lang::De, TooLarge { width, height }) => format!(
                "das Bild ist zu groß ({}); ein Scan mit 300 dpi genügt",
                size(*width, *height)
            ),
            (Lang::En, TooLarge { width, height }) => format!(
                "the image is too large ({}); a scan at 300 dpi is enough",
                size(*width, *height)
            ),
            (Lang::De, TooSmall { width, height }) => {
                format!("das Bild hat nur {width}×{height} Pixel")
            }
            (Lang::En, TooSmall { width, height }) => {
                format!("the image is only {width}×{height} pixels")
            }
            (Lang::De, NotAPdf) => "kein lesbares PDF".into(),
            (Lang::En, NotAPdf) => "not a readable PDF".into(),
            (Lang::De, PdfWithoutPages) => "das PDF hat keine Seiten".into(),
            (Lang::En, PdfWithoutPages) => "the PDF has no pages".into(),
            (Lang::De, PdfPageWithoutImage) => "die PDF-Seite enthält kein gescanntes Bild".into(),
            (Lang::En, PdfPageWithoutImage) => "the PDF page holds no scanned image".into(),
            (Lang::De, PdfStreamTooLarge { limit_mb }) => format!(
                "die Bilddaten im PDF würden entpackt mehr als {limit_mb} MB belegen (beschädigt oder kein Scan)"
            ),
            (Lang::En, PdfStreamTooLarge { limit_mb }) => format!(
                "the image data in the PDF would unpack to more than {limit_mb} MB (broken, or not a scan)"
            ),
            (Lang::De, PdfImageBroken) => "das Bild im PDF ist beschädigt".into(),
            (Lang::En, PdfImageBroken) => "the image in the PDF is broken".into(),
            (Lang::De, TiffPage { page, pages }) => format!(
                "Seite {page} von {pages} einer mehrseitigen TIFF-Datei wird nicht gelesen: als PDF oder eine Datei je Seite scannen"
            ),
            (Lang::En, TiffPage { page, pages }) => format!(
                "page {page} of {pages} of a multi-page TIFF is not read: scan to PDF or one file per page"
            ),
            (Lang::De, NoTable) => "keine linierte Tabelle auf der Seite gefunden".into(),
            (Lang::En, NoTable) => "no ruled table found on the page".into(),
            (Lang::De, TableMismatch) => "die linierte Tabelle passt nicht zum Formular".into(),
            (Lang::En, TableMismatch) => "the ruled table does not match the form".into(),
            (Lang::De, OtherForm { form, percent }) => format!(
                "die Seite passt nicht zum Formular {form} (nur {percent}% seiner Linien gefunden)"
            ),
            (Lang::En, OtherForm { form, percent }) => format!(
                "the page does not match the form {form} (only {percent}% of its ruled lines found)"
            ),
            (Lang::De, Internal(what)) => {
                format!("interner Fehler beim Lesen ({what}), bitte mit dieser Datei melden")
            }
            (Lang::En, Internal(what)) => {
                format!("internal error while reading ({what}), please report it with this file")
            }
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
        match (lang, self) {
            (Lang::De, NotAScan) => "übersprungen (kein Bild und kein PDF)".into(),
            (Lang::En, NotAScan) => "skipped (not an image or PDF)".into(),
            (Lang::De, NotARegularFile(what)) => {
                format!("übersprungen (keine gewöhnliche Datei, sondern {what})")
            }
            (Lang::En, NotARegularFile(what)) => {
                format!("skipped (not a regular file but a {what})")
            }
            (Lang::De, Again) => "übersprungen (Verweis auf schon Gelesenes)".into(),
            (Lang::En, Again) => "skipped (a link to what was read already)".into(),
            (Lang::De, Unreadable(p)) => format!("nicht gelesen: {}", p.text(lang)),
            (Lang::En, Unreadable(p)) => format!("not read: {}", p.text(lang)),
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
