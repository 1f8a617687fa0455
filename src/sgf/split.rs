//! Splits a byte stream into its SGF game trees without holding more than one
//! tree in memory, so collections and huge files stream.
//!
//! The splitter only tracks brackets: `[`…`]` values (with `\` escapes) and
//! the depth of `(`…`)`. Bytes outside any tree are skipped, as SGF readers
//! do with text before the first `(`.

use std::io::{self, BufRead};

/// One top-level game tree, or why it could not be taken whole.
#[derive(Debug)]
pub enum Chunk {
    /// The tree's bytes, from its `(` to its `)`.
    Tree(Vec<u8>),
    /// The tree is larger than the limit; its bytes were skipped.
    TooLarge { bytes: u64, limit: u64 },
    /// The data ends inside this tree (unclosed `(` or `[`); the bytes read
    /// are kept so the error can say what was open.
    Truncated { inside_value: bool, bytes: u64 },
}

/// Where truncated data ends ([`Chunk::Truncated`]'s `inside_value`), in
/// words for an error.
pub fn where_truncated(inside_value: bool) -> &'static str {
    if inside_value {
        "the data ends inside a property value (a '[' is never closed)"
    } else {
        "the data ends before the game tree closes (a '(' is never closed)"
    }
}

/// What the splitter saw outside game trees; used to explain a file that
/// holds no tree at all.
#[derive(Debug, Default, Clone, Copy)]
pub struct Outside {
    pub bytes: u64,
    pub nul_bytes: u64,
}

/// Streams the game trees of `reader`, calling `each` for every chunk.
/// `each` returns `false` to stop early.
///
/// # Errors
/// Read errors from the underlying stream.
pub fn split_trees<R: BufRead>(
    mut reader: R,
    limit: u64,
    mut each: impl FnMut(Chunk) -> bool,
) -> io::Result<Outside> {
    let mut outside = Outside::default();
    let mut buf: Vec<u8> = Vec::new();
    let mut depth = 0usize;
    let mut in_value = false;
    let mut escaped = false;
    let mut size: u64 = 0;
    let mut oversize = false;
    loop {
        let data = match reader.fill_buf() {
            Ok(d) => d,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if data.is_empty() {
            break;
        }
        let n = data.len();
        let mut start = 0;
        for (i, &b) in data.iter().enumerate() {
            if depth == 0 {
                if b == b'(' {
                    depth = 1;
                    start = i;
                    size = 0;
                    oversize = false;
                    buf.clear();
                } else {
                    outside.bytes += 1;
                    if b == 0 {
                        outside.nul_bytes += 1;
                    }
                }
                continue;
            }
            if in_value {
                if escaped {
                    escaped = false;
                } else if b == b'\\' {
                    escaped = true;
                } else if b == b']' {
                    in_value = false;
                }
                continue;
            }
            match b {
                b'[' => in_value = true,
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        let piece = &data[start..=i];
                        size += piece.len() as u64;
                        let chunk = if oversize || size > limit {
                            Chunk::TooLarge { bytes: size, limit }
                        } else {
                            buf.extend_from_slice(piece);
                            Chunk::Tree(std::mem::take(&mut buf))
                        };
                        if !each(chunk) {
                            return Ok(outside);
                        }
                    }
                }
                _ => {}
            }
        }
        if depth > 0 {
            let piece = &data[start..];
            size += piece.len() as u64;
            if size > limit {
                oversize = true;
                buf = Vec::new();
            } else {
                buf.extend_from_slice(piece);
            }
        }
        reader.consume(n);
    }
    if depth > 0 {
        each(Chunk::Truncated {
            inside_value: in_value,
            bytes: size,
        });
    }
    Ok(outside)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(data: &[u8], limit: u64) -> Vec<String> {
        let mut out = Vec::new();
        // A tiny buffer makes trees straddle reads.
        let r = io::BufReader::with_capacity(3, data);
        split_trees(r, limit, |c| {
            out.push(match c {
                Chunk::Tree(b) => String::from_utf8(b).unwrap(),
                Chunk::TooLarge { bytes, .. } => format!("large {bytes}"),
                Chunk::Truncated {
                    inside_value,
                    bytes,
                } => format!("cut {inside_value} {bytes}"),
            });
            true
        })
        .unwrap();
        out
    }

    #[test]
    fn collection_with_brackets_in_values() {
        let got = split(b"junk (;C[a ) ( \\] b];B[aa](;W[bb]))\n(;B[cc])", 1 << 20);
        assert_eq!(got, ["(;C[a ) ( \\] b];B[aa](;W[bb]))", "(;B[cc])"]);
    }

    #[test]
    fn oversize_and_truncated() {
        let got = split(b"(;C[0123456789])(;B[aa])(;C[xx", 12);
        assert_eq!(got, ["large 16", "(;B[aa])", "cut true 6"]);
    }

    #[test]
    fn nothing_but_junk() {
        let mut n = 0;
        let o = split_trees(&b"\0\0binary"[..], 100, |_| {
            n += 1;
            true
        })
        .unwrap();
        assert_eq!((n, o.bytes, o.nul_bytes), (0, 8, 2));
    }
}
