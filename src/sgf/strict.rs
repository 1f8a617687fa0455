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
    // sgf-parse builds each node as a child of the one before and drops the
    // tree recursively: its stack grows with the nodes along a line of play.
    let depth = nesting(bytes);
    if depth > MAX_DEPTH {
        return format!(
            "not checked: {depth} nodes or variations nested in one line of play, \
             over the {MAX_DEPTH} that the strict reader is given stack for"
        );
    }
    if depth <= INLINE_DEPTH {
        return check_text(text);
    }
    // A deep tree: check it on a thread with a stack for its depth.
    let stack = (depth as usize).saturating_mul(STACK_PER_LEVEL) + (1 << 20);
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .name("recount-sgf-check".into())
            .stack_size(stack)
            .spawn_scoped(s, || check_text(text))
            .ok()
            .and_then(|h| h.join().ok())
            .unwrap_or_else(|| "not checked: the strict reader could not be run".into())
    })
}

/// Nesting the worker's stack takes without a thread of its own.
const INLINE_DEPTH: u64 = 2_000;
/// Deepest line checked (about 128 MiB of stack at [`STACK_PER_LEVEL`]).
const MAX_DEPTH: u64 = 500_000;
/// Stack bytes sgf-parse takes per nested node (64 measured in a release
/// build), with a margin.
const STACK_PER_LEVEL: usize = 256;

/// An upper bound of how deep sgf-parse nests the tree: the nodes (`;`)
/// and variations (`(`) outside property values.
fn nesting(bytes: &[u8]) -> u64 {
    let mut n = 0u64;
    let mut in_value = false;
    let mut escaped = false;
    for &b in bytes {
        if in_value {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b']') => in_value = false,
                _ => {}
            }
        } else {
            match b {
                b'[' => in_value = true,
                b';' | b'(' => n += 1,
                _ => {}
            }
        }
    }
    n
}

fn check_text(text: &str) -> String {
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

    #[test]
    fn deep_trees_do_not_overflow_the_stack() {
        // Run on a small stack, as a worker's: the deep check has its own.
        std::thread::Builder::new()
            .stack_size(256 << 10)
            .spawn(|| {
                let n = 100_000;
                let nested = format!("(;GM[1]{}{})", "(;B[aa]".repeat(n), ")".repeat(n));
                assert_eq!(check(nested.as_bytes()), "ok");
                let long = format!("(;GM[1]{})", ";B[aa]".repeat(n));
                assert_eq!(check(long.as_bytes()), "ok");
                let too_deep = format!("(;{})", ";".repeat(MAX_DEPTH as usize + 1));
                assert!(check(too_deep.as_bytes()).starts_with("not checked: 500003 nodes"));
                assert_eq!(nesting(b"(;C[;(\\];]\\];B[aa])"), 3);
            })
            .unwrap()
            .join()
            .unwrap();
    }
}
