//! Text decoding by the SGF `CA` property.
//!
//! SGF text is bytes in the charset `CA` names (`FF[4]` default: ISO-8859-1).
//! Real files lie: many without `CA` are UTF-8, and Chinese and Japanese
//! servers write GB2312/GBK or Shift-JIS. `encoding_rs` decodes every charset
//! the WHATWG Encoding Standard knows (GB2312 is read as its superset GBK,
//! ISO-8859-1 as windows-1252, as browsers do).

use encoding_rs::{Encoding, UTF_8, WINDOWS_1252};
use std::borrow::Cow;

/// The charset a game's text is decoded with, and how it was chosen.
#[derive(Debug, Clone, Copy)]
pub struct Charset {
    encoding: &'static Encoding,
    /// `CA` named a charset we know.
    declared: bool,
    /// `CA` named something no decoder knows.
    unknown_label: bool,
}

impl Charset {
    /// Chooses the decoder for a game from its `CA` value (if any).
    pub fn from_ca(ca: Option<&[u8]>) -> Charset {
        match ca.map(|v| v.trim_ascii()) {
            None | Some([]) => Charset {
                encoding: UTF_8,
                declared: false,
                unknown_label: false,
            },
            // Some writers spell ISO-8859-1 as `ISO8859_1`.
            Some(label) => match Encoding::for_label(label).or_else(|| {
                let dashed: Vec<u8> = label
                    .iter()
                    .map(|&c| if c == b'_' { b'-' } else { c })
                    .collect();
                Encoding::for_label(&dashed)
            }) {
                Some(encoding) => Charset {
                    encoding,
                    declared: true,
                    unknown_label: false,
                },
                None => Charset {
                    encoding: UTF_8,
                    declared: false,
                    unknown_label: true,
                },
            },
        }
    }

    /// The charset's name as the CSV reports it (`UTF-8`, `GBK`, `Shift_JIS`…).
    pub fn name(&self) -> &'static str {
        self.encoding.name()
    }

    /// Decodes `bytes`; returns the text and, when bytes were not valid in the
    /// chosen charset, a note saying what was done about it.
    pub fn decode<'b>(&self, bytes: &'b [u8]) -> (Cow<'b, str>, Option<&'static str>) {
        if self.encoding == UTF_8 {
            if let Ok(s) = std::str::from_utf8(bytes) {
                return (Cow::Borrowed(s), None);
            }
            if self.unknown_label {
                let (s, _, _) = UTF_8.decode(bytes);
                return (
                    s,
                    Some("unknown CA charset: read as UTF-8, invalid bytes replaced"),
                );
            }
            if !self.declared {
                // No CA and not UTF-8: FF[4]'s default charset is Latin-1.
                let (s, _, _) = WINDOWS_1252.decode(bytes);
                return (
                    s,
                    Some("text is not UTF-8 and CA is absent: read as Latin-1"),
                );
            }
        }
        let (s, _, had_errors) = self.encoding.decode(bytes);
        let note = had_errors.then_some("text has bytes invalid in its CA charset: replaced");
        (s, note)
    }

    /// Whether a label was given but unknown (for the notes column).
    pub fn unknown_label(&self) -> bool {
        self.unknown_label
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_declared_charsets() {
        let gb = Charset::from_ca(Some(b"GB2312"));
        assert_eq!(gb.name(), "GBK");
        assert_eq!(gb.decode(&[0xba, 0xda, 0xca, 0xa4]).0, "黑胜");
        let sj = Charset::from_ca(Some(b"Shift_JIS"));
        assert_eq!(sj.decode(&[0x8d, 0x95]).0, "黒");
        assert_eq!(Charset::from_ca(Some(b"ISO8859_1")).name(), "windows-1252");
        let l1 = Charset::from_ca(Some(b"ISO-8859-1"));
        assert_eq!(l1.decode(b"Jos\xe9").0, "José");
    }

    #[test]
    fn undeclared_falls_back_to_latin1_and_says_so() {
        let none = Charset::from_ca(None);
        assert_eq!(
            none.decode("José".as_bytes()),
            (Cow::Borrowed("José"), None)
        );
        let (s, note) = none.decode(b"Jos\xe9");
        assert_eq!(s, "José");
        assert!(note.unwrap().contains("Latin-1"));
    }

    #[test]
    fn unknown_label_replaces() {
        let cs = Charset::from_ca(Some(b"klingon"));
        assert!(cs.unknown_label());
        let (s, note) = cs.decode(b"a\xffb");
        assert_eq!(s, "a\u{fffd}b");
        assert!(note.is_some());
    }
}
