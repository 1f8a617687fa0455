//! A second opinion on a game tree from the `sgf-parse` crate, which reads
//! SGF `FF[4]` strictly. recount's own reader is tolerant on purpose (and fast
//! enough for whole archives); `--check-sgf` adds this check to say which
//! records a strict reader would refuse, for archive clean-up.

use sgf_parse::{go::Prop, parse, GameTree};

/// The verdict on one game tree's bytes: `ok`, or what is wrong.
///
/// # Examples
/// ```
/// use recount::sgf::strict::check;
/// assert_eq!(check(b"(;GM[1]SZ[9];B[ee])"), "ok");
/// assert!(check(b"(;GM[1]SZ[9];B[ee]").starts_with("rejected"));
/// ```
pub fn check(bytes: &[u8]) -> String {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return "not checked: not UTF-8 (sgf-parse reads UTF-8 text only)".into();
    };
    let trees = match parse(text) {
        Ok(t) => t,
        Err(e) => return format!("rejected: {e}"),
    };
    let mut invalid = 0;
    let mut first = String::new();
    for tree in &trees {
        let GameTree::GoGame(root) = tree else {
            continue;
        };
        for node in root.main_variation() {
            for prop in node.properties() {
                if let Prop::Invalid(id, values) = prop {
                    if invalid == 0 {
                        first = format!("{id}[{}]", values.join("]["));
                    }
                    invalid += 1;
                }
            }
        }
    }
    match invalid {
        0 => "ok".into(),
        n => format!("{n} invalid property value(s), first {first}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts() {
        assert_eq!(check(b"(;FF[4]GM[1]SZ[19];B[pd];W[])"), "ok");
        assert!(check(b"(;GM[1]KM[six];B[pd])")
            .starts_with("1 invalid property value(s), first KM[six]"));
        assert!(check(b"(;GM[1];B[pd]").starts_with("rejected: "));
        assert!(check(b"(;PB[\xff])").starts_with("not checked"));
    }
}
