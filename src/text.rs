//! Text helpers shared by the readers and the reports.

/// Text for a CSV cell on one line: line breaks and other control
/// characters become spaces, so every record stays on one line.
pub fn single_line(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// What a caught panic said (its payload, when it is text), for the error
/// row or message that stands in for it.
pub fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_default()
}

/// The civil (proleptic Gregorian) date `(year, month, day)` of a day
/// counted from 1970-01-01 (Howard Hinnant's `civil_from_days`), for the
/// readers whose files give dates as day or second counts.
pub fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// A file or member name as one line of text that tells names apart:
/// valid UTF-8 is kept, except that a backslash is written `\\`, a line
/// break, tab or carriage return `\n`, `\t`, `\r`, and any other control
/// character `\xNN` (or `\u{NNNN}` above `\x7F`); each byte that is not
/// valid UTF-8 is written `\xNN`. Two different names never give the same
/// text, and a name without those characters is unchanged.
///
/// # Examples
/// ```
/// use recount::text::escape_name;
/// assert_eq!(escape_name(b"KGS/game 1.sgf"), "KGS/game 1.sgf");
/// assert_eq!(escape_name(b"a\nb\\c\x01.sgf"), r"a\nb\\c\x01.sgf");
/// assert_eq!(escape_name(b"latin1-\xe9.sgf"), r"latin1-\xE9.sgf");
/// ```
pub fn escape_name(bytes: &[u8]) -> String {
    use std::fmt::Write;
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\\' => out.push_str("\\\\"),
                '\n' => out.push_str("\\n"),
                '\t' => out.push_str("\\t"),
                '\r' => out.push_str("\\r"),
                c if c.is_control() && (c as u32) < 0x80 => {
                    let _ = write!(out, "\\x{:02X}", c as u32);
                }
                c if c.is_control() => {
                    let _ = write!(out, "\\u{{{:04X}}}", c as u32);
                }
                c => out.push(c),
            }
        }
        for b in chunk.invalid() {
            let _ = write!(out, "\\x{b:02X}");
        }
    }
    out
}

/// [`escape_name`] of a path, from its bytes as the system gives them.
pub fn escape_path(path: &std::path::Path) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        escape_name(path.as_os_str().as_bytes())
    }
    #[cfg(not(unix))]
    {
        escape_name(path.to_string_lossy().as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaped_names_are_one_line_and_distinct() {
        let names: [&[u8]; 6] = [
            b"a\\x0A.sgf",
            b"a\n.sgf",
            b"a\\n.sgf",
            b"a\xe9.sgf",
            b"a\xe8.sgf",
            "a\u{85}é.sgf".as_bytes(),
        ];
        let escaped: Vec<String> = names.iter().map(|n| escape_name(n)).collect();
        assert!(escaped.iter().all(|e| !e.chars().any(char::is_control)));
        let mut d = escaped.clone();
        d.sort();
        d.dedup();
        assert_eq!(d.len(), names.len(), "{escaped:?}");
        assert_eq!(escaped[5], "a\\u{0085}é.sgf");
    }
}
