//! Text decoding: by the SGF `CA` property, checked against the text, or
//! by detection where `CA` is missing or wrong, or as `--charset` forces.
//!
//! SGF text is bytes in the charset `CA` names (`FF[4]` default: ISO-8859-1).
//! Real files lie: many without `CA` are UTF-8, Chinese and Japanese
//! servers write GB2312/GBK or Shift-JIS without saying so, and some say
//! `CA[UTF-8]` over GBK bytes. `encoding_rs` decodes every charset the
//! WHATWG Encoding Standard knows (GB2312 is read as its superset GBK,
//! ISO-8859-1 as windows-1252, as browsers do); `chardetng` (Firefox's
//! detector) guesses one from the bytes where `CA` cannot be trusted.

use encoding_rs::{Encoding, UTF_8, WINDOWS_1252};
use std::borrow::Cow;

/// The charset a game's text is decoded with, and, when it is not simply
/// the one `CA` names, why (for `notes`).
#[derive(Debug, Clone)]
pub struct Charset {
    encoding: &'static Encoding,
    note: Option<String>,
}

/// The encoding `label` names (`CA` or `--charset`), if any: the WHATWG
/// labels, and `ISO8859_1` for `ISO-8859-1` as some writers spell it.
pub fn encoding_for(label: &[u8]) -> Option<&'static Encoding> {
    let label = label.trim_ascii();
    Encoding::for_label(label).or_else(|| {
        let dashed: Vec<u8> = label
            .iter()
            .map(|&c| if c == b'_' { b'-' } else { c })
            .collect();
        Encoding::for_label(&dashed)
    })
}

/// Fewer bytes outside ASCII than this make a detection uncertain (a
/// player's name of two Chinese characters is 4 bytes in GBK).
const FEW_BYTES: usize = 24;

impl Charset {
    /// Chooses the decoder for a game from its `CA` value (if any), the
    /// charset `--charset` forces (if any), and the game's text values
    /// (every property value, as written).
    pub fn choose<'t>(
        ca: Option<&[u8]>,
        forced: Option<&'static Encoding>,
        text: impl Iterator<Item = &'t [u8]> + Clone,
    ) -> Charset {
        if let Some(encoding) = forced {
            return Charset {
                encoding,
                note: None,
            };
        }
        let non_ascii = || text.clone().filter(|v| !v.is_ascii());
        let valid_in = |e: &'static Encoding| {
            non_ascii().all(|v| {
                e.decode_without_bom_handling_and_without_replacement(v)
                    .is_some()
            })
        };
        // The guess, and how it is said: from a few bytes it is uncertain.
        let detected = || {
            let mut d = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
            let mut high = 0usize;
            for v in non_ascii() {
                high += v.iter().filter(|b| !b.is_ascii()).count();
                d.feed(v, false);
            }
            d.feed(b"", true);
            let how = if high < FEW_BYTES {
                let bytes = if high == 1 { "byte" } else { "bytes" };
                format!("detected from {high} {bytes}, uncertain (--charset forces one)")
            } else {
                "detected".to_string()
            };
            (d.guess(None, chardetng::Utf8Detection::Allow), how)
        };
        let ca_text = ca.map(|c| String::from_utf8_lossy(c.trim_ascii()).into_owned());
        let chosen = |encoding, note: String| Charset {
            encoding,
            note: Some(note),
        };
        match (ca_text.as_deref(), ca.and_then(encoding_for)) {
            (None | Some(""), _) => {
                if valid_in(UTF_8) {
                    return Charset {
                        encoding: UTF_8,
                        note: None,
                    };
                }
                let (guess, how) = detected();
                chosen(
                    guess,
                    format!(
                        "no CA and the text is not UTF-8: read as {}, {how}",
                        guess.name()
                    ),
                )
            }
            (Some(ca), None) => {
                let (guess, how) = detected();
                chosen(
                    guess,
                    format!(
                        "CA[{ca}] is not a charset we know: read as {}, {how}",
                        guess.name()
                    ),
                )
            }
            (Some(ca), Some(declared)) => {
                // A single-byte charset reads any bytes: text that is
                // UTF-8 with non-ASCII characters is UTF-8 mislabelled.
                if declared.is_single_byte() && non_ascii().next().is_some() && valid_in(UTF_8) {
                    return chosen(
                        UTF_8,
                        format!("CA[{ca}] but the text is UTF-8: read as UTF-8"),
                    );
                }
                if valid_in(declared) {
                    return Charset {
                        encoding: declared,
                        note: None,
                    };
                }
                let (guess, how) = detected();
                if guess != declared && valid_in(guess) {
                    return chosen(
                        guess,
                        format!(
                            "CA[{ca}] but the text is not {}: read as {}, {how}",
                            declared.name(),
                            guess.name()
                        ),
                    );
                }
                chosen(
                    declared,
                    "text has bytes invalid in its CA charset: replaced".into(),
                )
            }
        }
    }

    /// Chooses by `CA` alone, as [`Charset::choose`] with no text to check.
    pub fn from_ca(ca: Option<&[u8]>) -> Charset {
        Charset::choose(ca, None, std::iter::empty())
    }

    /// The charset's name as the CSV reports it (`UTF-8`, `GBK`, `Shift_JIS`…).
    pub fn name(&self) -> &'static str {
        self.encoding.name()
    }

    /// How the charset was chosen, when it is not simply `CA`'s (or
    /// UTF-8 without `CA`).
    pub fn note(&self) -> Option<&str> {
        self.note.as_deref()
    }

    /// Decodes `bytes`; the text, and whether bytes invalid in the charset
    /// were replaced.
    pub fn decode<'b>(&self, bytes: &'b [u8]) -> (Cow<'b, str>, bool) {
        if self.encoding == WINDOWS_1252 || self.encoding == UTF_8 {
            if let Ok(s) = std::str::from_utf8(bytes) {
                if self.encoding == UTF_8 || bytes.is_ascii() {
                    return (Cow::Borrowed(s), false);
                }
            }
        }
        let (s, _, had_errors) = self.encoding.decode(bytes);
        (s, had_errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn choose(ca: Option<&[u8]>, text: &[&[u8]]) -> Charset {
        Charset::choose(ca, None, text.iter().copied())
    }

    #[test]
    fn decodes_declared_charsets() {
        let gb = choose(Some(b"GB2312"), &[&[0xba, 0xda, 0xca, 0xa4]]);
        assert_eq!(gb.name(), "GBK");
        assert_eq!(gb.decode(&[0xba, 0xda, 0xca, 0xa4]).0, "黑胜");
        assert_eq!(gb.note(), None);
        let sj = Charset::from_ca(Some(b"Shift_JIS"));
        assert_eq!(sj.decode(&[0x8d, 0x95]).0, "黒");
        assert_eq!(Charset::from_ca(Some(b"ISO8859_1")).name(), "windows-1252");
        let l1 = choose(Some(b"ISO-8859-1"), &[b"Jos\xe9"]);
        assert_eq!(l1.decode(b"Jos\xe9").0, "José");
        assert_eq!(l1.note(), None);
    }

    #[test]
    fn missing_or_wrong_ca_is_detected_and_said() {
        // Chinese text in GB2312 without CA (a Fox or Tygem export).
        let gb: &[&[u8]] = &[
            "柯洁".as_bytes(),
            "中国围棋协会第二十届名人战决赛".as_bytes(),
        ];
        let gb: Vec<Vec<u8>> = gb
            .iter()
            .map(|s| {
                encoding_rs::GBK
                    .encode(std::str::from_utf8(s).unwrap())
                    .0
                    .into_owned()
            })
            .collect();
        let text: Vec<&[u8]> = gb.iter().map(|v| &v[..]).collect();
        let none = choose(None, &text);
        assert_eq!(none.name(), "GBK");
        assert_eq!(none.decode(text[0]).0, "柯洁");
        assert_eq!(
            none.note(),
            Some("no CA and the text is not UTF-8: read as GBK, detected")
        );
        // The same bytes mislabelled UTF-8.
        let wrong = choose(Some(b"UTF-8"), &text);
        assert_eq!(wrong.decode(text[1]).0, "中国围棋协会第二十届名人战决赛");
        assert_eq!(
            wrong.note(),
            Some("CA[UTF-8] but the text is not UTF-8: read as GBK, detected")
        );
        // UTF-8 text labelled Latin-1.
        let utf8 = choose(Some(b"ISO-8859-1"), &["José".as_bytes()]);
        assert_eq!(utf8.decode("José".as_bytes()).0, "José");
        assert!(utf8.note().unwrap().contains("but the text is UTF-8"));
        // UTF-8 without CA needs no note.
        assert_eq!(choose(None, &["José".as_bytes()]).note(), None);
    }

    #[test]
    fn undeclared_latin1_and_unknown_labels() {
        let none = choose(None, &[b"Jos\xe9 Garc\xeda"]);
        assert_eq!(none.decode(b"Jos\xe9").0, "José");
        assert_eq!(
            none.note(),
            Some("no CA and the text is not UTF-8: read as windows-1252, detected from 2 bytes, uncertain (--charset forces one)")
        );
        let cs = choose(Some(b"klingon"), &[b"a b"]);
        assert!(cs
            .note()
            .unwrap()
            .starts_with("CA[klingon] is not a charset we know"));
    }

    #[test]
    fn forced_charset_wins() {
        let forced = Charset::choose(
            Some(b"UTF-8"),
            Some(encoding_rs::SHIFT_JIS),
            std::iter::empty(),
        );
        assert_eq!(forced.decode(&[0x8d, 0x95]).0, "黒");
        assert_eq!(forced.note(), None);
    }
}
