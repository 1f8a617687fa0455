//! Tolerant, zero-copy SGF reader: one game tree's bytes in, its main line out.
//!
//! Real archives hold SGF from `FF[1]` to `FF[4]`, written by many programs. This
//! reader accepts what a careful human would: long `FF[1]`–`FF[3]` property names
//! (`AddBlack` is `AB`), lower-case names (`b[pd]`), whitespace anywhere
//! between tokens, and stray characters outside values (counted, skipped).
//! It follows the main line (first child at each branch) and counts the
//! variations it leaves. Values stay as raw bytes; text is decoded later by
//! [`crate::sgf::charset`] once the game's `CA` is known.

use std::fmt;

/// A property identifier, normalised to upper case (at most 12 letters kept).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Ident {
    bytes: [u8; 12],
    len: u8,
}

impl Ident {
    /// Builds an identifier from the letters as written. Following `FF[3]`,
    /// lower-case letters in a mixed name are dropped (`AddBlack` → `AB`);
    /// a name written all in lower case (`b`, `ab`) is upper-cased.
    pub fn from_written(letters: &[u8]) -> Ident {
        let has_upper = letters.iter().any(u8::is_ascii_uppercase);
        let mut id = Ident {
            bytes: [0; 12],
            len: 0,
        };
        for &c in letters {
            let c = if has_upper {
                if !c.is_ascii_uppercase() {
                    continue;
                }
                c
            } else {
                c.to_ascii_uppercase()
            };
            if (id.len as usize) < id.bytes.len() {
                id.bytes[id.len as usize] = c;
                id.len += 1;
            }
        }
        id
    }

    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len as usize]
    }

    pub fn is(&self, name: &str) -> bool {
        self.as_bytes() == name.as_bytes()
    }
}

impl fmt::Debug for Ident {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&String::from_utf8_lossy(self.as_bytes()))
    }
}

/// One property of a node: its identifier and the range of its values in
/// [`Tree::values`].
#[derive(Clone, Debug)]
pub struct Prop {
    pub ident: Ident,
    pub first_value: u32,
    pub value_count: u32,
}

/// The main line of one game tree, stored flat to keep parsing cheap.
#[derive(Debug, Default)]
pub struct Tree<'a> {
    /// Every property of every main-line node, in order.
    pub props: Vec<Prop>,
    /// Where each node's properties start in `props`.
    pub node_starts: Vec<u32>,
    /// Raw value bytes (between `[` and `]`, escapes kept).
    pub values: Vec<&'a [u8]>,
    /// Branches not on the main line.
    pub variations_ignored: u32,
    /// Characters outside values that are not SGF syntax, skipped.
    pub stray_bytes: u32,
}

impl<'a> Tree<'a> {
    pub fn node_count(&self) -> usize {
        self.node_starts.len()
    }

    /// The properties of node `i` (0 = root).
    pub fn node(&self, i: usize) -> &[Prop] {
        let start = self.node_starts[i] as usize;
        let end = self
            .node_starts
            .get(i + 1)
            .map_or(self.props.len(), |&e| e as usize);
        &self.props[start..end]
    }

    pub fn prop_values(&self, p: &Prop) -> &[&'a [u8]] {
        let s = p.first_value as usize;
        &self.values[s..s + p.value_count as usize]
    }

    /// First value of the first property `name` in node `i`.
    pub fn get(&self, i: usize, name: &str) -> Option<&'a [u8]> {
        self.node(i)
            .iter()
            .find(|p| p.ident.is(name))
            .and_then(|p| self.prop_values(p).first().copied())
    }
}

/// Why a game tree could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SgfError {
    /// `(` not followed by a node (`;`).
    NoNode { offset: usize },
    /// The bytes end inside a value or before the tree's closing `)`.
    Truncated { what: &'static str, offset: usize },
}

impl fmt::Display for SgfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SgfError::NoNode { offset } => write!(
                f,
                "not an SGF game tree: '(' at byte {offset} is not followed by a node ';'"
            ),
            SgfError::Truncated { what, offset } => write!(
                f,
                "truncated SGF: the data ends inside {what} (opened at byte {offset})"
            ),
        }
    }
}

impl std::error::Error for SgfError {}

struct Cursor<'a> {
    b: &'a [u8],
    i: usize,
    stray: u32,
}

impl<'a> Cursor<'a> {
    fn skip_ws(&mut self) {
        while self.i < self.b.len() && self.b[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_ws();
        self.b.get(self.i).copied()
    }

    /// Reads one `[...]` value; the cursor is on `[`.
    fn value(&mut self) -> Result<&'a [u8], SgfError> {
        let open = self.i;
        self.i += 1;
        let start = self.i;
        while self.i < self.b.len() {
            match self.b[self.i] {
                b'\\' => self.i += 2,
                b']' => {
                    let v = &self.b[start..self.i];
                    self.i += 1;
                    return Ok(v);
                }
                _ => self.i += 1,
            }
        }
        Err(SgfError::Truncated {
            what: "a property value '['",
            offset: open,
        })
    }

    /// Skips a whole subtree; the cursor is on `(`.
    fn skip_tree(&mut self) -> Result<(), SgfError> {
        let open = self.i;
        let mut depth = 0usize;
        while self.i < self.b.len() {
            match self.b[self.i] {
                b'[' => {
                    self.value()?;
                    continue;
                }
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        self.i += 1;
                        return Ok(());
                    }
                }
                _ => {}
            }
            self.i += 1;
        }
        Err(SgfError::Truncated {
            what: "a variation '('",
            offset: open,
        })
    }
}

/// Parses one game tree (the bytes from its `(` to its `)`) and keeps its
/// main line.
///
/// # Errors
/// [`SgfError`] when the bytes hold no node or end early.
///
/// # Examples
/// ```
/// let t = recount::sgf::reader::parse_tree(b"(;GM[1]SZ[9];B[ee](;W[cc])(;W[gg]))").unwrap();
/// assert_eq!(t.node_count(), 3);
/// assert_eq!(t.variations_ignored, 1);
/// assert_eq!(t.get(2, "W"), Some(&b"cc"[..]));
/// ```
pub fn parse_tree(bytes: &[u8]) -> Result<Tree<'_>, SgfError> {
    let mut c = Cursor {
        b: bytes,
        i: 0,
        stray: 0,
    };
    let mut t = Tree::default();
    // Find the opening parenthesis.
    while c.i < bytes.len() && bytes[c.i] != b'(' {
        c.i += 1;
    }
    let open = c.i;
    if c.i >= bytes.len() {
        return Err(SgfError::NoNode { offset: 0 });
    }
    c.i += 1;
    if c.peek() != Some(b';') {
        return Err(SgfError::NoNode { offset: open });
    }
    let mut letters: Vec<u8> = Vec::with_capacity(16);
    // Walk the main line: each node sequence, then the first child subtree;
    // when a branch closes, its later siblings are variations and skipped.
    let mut depth = 1usize;
    loop {
        match c.peek() {
            None => {
                return Err(SgfError::Truncated {
                    what: "the game tree '('",
                    offset: open,
                });
            }
            Some(b';') => {
                c.i += 1;
                t.node_starts.push(t.props.len() as u32);
            }
            Some(b'(') => {
                c.i += 1;
                depth += 1;
            }
            Some(b')') => {
                c.i += 1;
                depth -= 1;
                if depth == 0 {
                    break;
                }
                while c.peek() == Some(b'(') {
                    c.skip_tree()?;
                    t.variations_ignored += 1;
                }
            }
            Some(ch) if ch.is_ascii_alphabetic() => {
                letters.clear();
                while c.i < bytes.len() && bytes[c.i].is_ascii_alphabetic() {
                    letters.push(bytes[c.i]);
                    c.i += 1;
                }
                let ident = Ident::from_written(&letters);
                let first_value = t.values.len() as u32;
                while c.peek() == Some(b'[') {
                    let v = c.value()?;
                    t.values.push(v);
                }
                let value_count = t.values.len() as u32 - first_value;
                if value_count > 0 && ident.len > 0 {
                    t.props.push(Prop {
                        ident,
                        first_value,
                        value_count,
                    });
                }
            }
            Some(b'[') => {
                // A value with no property name: skip it.
                c.value()?;
                c.stray += 1;
            }
            Some(_) => {
                c.i += 1;
                c.stray += 1;
            }
        }
    }
    t.stray_bytes = c.stray;
    Ok(t)
}

/// Decodes SGF text escapes: `\` keeps the next character, `\` + newline is a
/// soft line break (removed).
pub fn unescape(raw: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    if !raw.contains(&b'\\') {
        return std::borrow::Cow::Borrowed(raw);
    }
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        if raw[i] == b'\\' && i + 1 < raw.len() {
            i += 1;
            if raw[i] == b'\n' || raw[i] == b'\r' {
                // Soft line break: drop it (and a CRLF pair).
                if i + 1 < raw.len() && raw[i] == b'\r' && raw[i + 1] == b'\n' {
                    i += 1;
                }
            } else {
                out.push(raw[i]);
            }
        } else if raw[i] != b'\\' {
            out.push(raw[i]);
        }
        i += 1;
    }
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn main_line_and_variations() {
        let t = parse_tree(b"(;SZ[9];B[aa](;W[bb];B[cc](;W[dd])(;W[ee]))(;W[ff]))").unwrap();
        let moves: Vec<_> = (1..t.node_count())
            .map(|i| t.node(i)[0].ident)
            .map(|id| format!("{id:?}"))
            .collect();
        assert_eq!(moves, ["B", "W", "B", "W"]);
        assert_eq!(t.get(4, "W"), Some(&b"dd"[..]));
        assert_eq!(t.variations_ignored, 2);
    }

    #[test]
    fn old_style_names_and_whitespace() {
        let t = parse_tree(b"( ;\n GaMe[1] AddBlack [aa] [bb]\r\n; b [cc] )").unwrap();
        let root = t.node(0);
        assert!(root[0].ident.is("GM"));
        assert!(root[1].ident.is("AB"));
        assert_eq!(t.prop_values(&root[1]).len(), 2);
        assert_eq!(t.get(1, "B"), Some(&b"cc"[..]));
    }

    #[test]
    fn escapes_inside_values() {
        let t = parse_tree(br"(;C[a \] b \\];B[aa])").unwrap();
        assert_eq!(t.get(0, "C"), Some(&br"a \] b \\"[..]));
        assert_eq!(&*unescape(br"a \] b \\"), b"a ] b \\");
        assert_eq!(t.get(1, "B"), Some(&b"aa"[..]));
    }

    #[test]
    fn truncated_and_not_sgf() {
        assert!(matches!(
            parse_tree(b"(;B[aa];W[b"),
            Err(SgfError::Truncated {
                what: "a property value '['",
                ..
            })
        ));
        assert!(matches!(
            parse_tree(b"(;B[aa];W[bb]"),
            Err(SgfError::Truncated { .. })
        ));
        assert!(matches!(
            parse_tree(b"(hello)"),
            Err(SgfError::NoNode { .. })
        ));
        assert!(matches!(
            parse_tree(b"garbage"),
            Err(SgfError::NoNode { .. })
        ));
    }

    #[test]
    fn stray_bytes_are_counted() {
        let t = parse_tree(b"(;B[aa] 12 ;W[bb])").unwrap();
        assert_eq!(t.node_count(), 2);
        assert_eq!(t.stray_bytes, 2);
    }
}
