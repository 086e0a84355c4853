//! Lists a club keeps in a spreadsheet (the participants, the members, a
//! seating edited by hand): read as Excel saves them on a German Windows,
//! in UTF-8 with or without its byte-order mark or in Windows-1252 ("CSV
//! (Trennzeichen-getrennt)"), with semicolons or tabs for commas and
//! CRLF line ends.

use std::path::Path;

/// The text of the file at `path`: UTF-8 (a byte-order mark dropped),
/// else Windows-1252, in which every byte is a character.
pub fn read_text(path: &Path) -> std::io::Result<String> {
    Ok(decode(std::fs::read(path)?))
}

fn decode(bytes: Vec<u8>) -> String {
    let bytes = match bytes.strip_prefix(b"\xEF\xBB\xBF") {
        Some(rest) => rest.to_vec(),
        None => bytes,
    };
    match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            let (text, _, _) = encoding_rs::WINDOWS_1252.decode(e.as_bytes());
            text.into_owned()
        }
    }
}

/// The header's separator: a comma, or the semicolon or tab a spreadsheet
/// in German writes.
pub fn delimiter_of(header: &str) -> u8 {
    // The last of equals wins: a comma where nothing separates.
    [b'\t', b';', b',']
        .into_iter()
        .max_by_key(|&d| header.bytes().filter(|&b| b == d).count())
        .unwrap_or(b',')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn excels_encodings_should_read_as_the_same_text() {
        assert_eq!(
            decode(b"\xEF\xBB\xBFnumber;name\r\n".to_vec()),
            "number;name\r\n"
        );
        assert_eq!(decode(b"7;M\xFCller\r\n".to_vec()), "7;Müller\r\n");
        assert_eq!(decode("7;Müller".as_bytes().to_vec()), "7;Müller");
    }

    #[test]
    fn the_separator_should_be_the_headers() {
        assert_eq!(delimiter_of("number;name;club"), b';');
        assert_eq!(delimiter_of("number,name"), b',');
        assert_eq!(delimiter_of("number\tname"), b'\t');
        assert_eq!(delimiter_of("number"), b',');
    }
}
