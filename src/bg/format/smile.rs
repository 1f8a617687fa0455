//! A decoder for SMILE, the binary JSON of the Jackson library (FasterXML's
//! published "Smile format specification"), as BGBlitz writes its `.bgf`
//! matches: the header `:)\n` and a flags byte (version in the high four
//! bits, raw binary, shared string values, shared property names), then
//! one value.
//!
//! Every length is checked against the bytes left before anything is
//! allocated, nesting is capped at [`MAX_DEPTH`] and the decoded tree at
//! [`MAX_DECODED`] bytes (a one-byte back-reference can stand for a
//! 65-byte string), so no input makes the decoder recurse or allocate
//! without bound. Errors name the byte offset where decoding stopped.

use std::fmt;

/// Deepest nesting of arrays and objects accepted (a BGBlitz match nests
/// about six deep).
pub const MAX_DEPTH: usize = 64;
/// Most bytes the decoded tree may take (its values and strings).
pub const MAX_DECODED: usize = 256 << 20;
/// The shared name and value tables hold this many entries; the next one
/// starts them again from empty, as Jackson does.
const SHARED: usize = 1024;

/// A decoded JSON value. Objects keep their keys in the order written.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Bytes(Vec<u8>),
    Array(Vec<Value>),
    Object(Vec<(String, Value)>),
}

impl Value {
    /// The value of `key` in an object (the first one written).
    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Object(fields) => fields.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// An integer, or a float with no fraction.
    pub fn as_i64(&self) -> Option<i64> {
        match *self {
            Value::Int(v) => Some(v),
            Value::Float(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => Some(f as i64),
            _ => None,
        }
    }

    pub fn as_f64(&self) -> Option<f64> {
        match *self {
            Value::Int(v) => Some(v as f64),
            Value::Float(f) => Some(f),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match *self {
            Value::Bool(b) => Some(b),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&[Value]> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The value as a JSON type's name, for messages.
    pub fn kind(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Int(_) | Value::Float(_) => "a number",
            Value::Str(_) => "a string",
            Value::Bytes(_) => "binary data",
            Value::Array(_) => "an array",
            Value::Object(_) => "an object",
        }
    }
}

/// Why decoding stopped, and at which byte of the SMILE data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SmileError {
    pub offset: usize,
    pub why: String,
}

impl fmt::Display for SmileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SMILE byte {}: {}", self.offset, self.why)
    }
}

/// Decodes SMILE data: the header and one value (an end-of-content marker
/// `0xFF` after it is skipped). Returns the value and the offset where it
/// ended, so the caller can tell whether bytes follow.
///
/// # Errors
/// No `:)\n` header or a version other than 0, a reserved token, a
/// back-reference to a shared name or value not seen, data that ends
/// inside a value, text that is not UTF-8, nesting over [`MAX_DEPTH`] or a
/// tree over [`MAX_DECODED`] bytes.
///
/// # Examples
/// ```
/// use recount::bg::format::smile::{decode, Value};
/// // {"a": 1}: object, short ASCII key "a", small int 1, end object.
/// let (v, end) = decode(b":)\n\x01\xfa\x80a\xc2\xfb").unwrap();
/// assert_eq!(v.get("a"), Some(&Value::Int(1)));
/// assert_eq!(end, 9);
/// ```
pub fn decode(bytes: &[u8]) -> Result<(Value, usize), SmileError> {
    decode_within(bytes, MAX_DECODED)
}

/// [`decode`] with `budget` bytes the tree may take.
fn decode_within(bytes: &[u8], budget: usize) -> Result<(Value, usize), SmileError> {
    if !bytes.starts_with(b":)\n") || bytes.len() < 4 {
        return Err(SmileError {
            offset: 0,
            why: "no SMILE header (':)' and a newline, then a flags byte)".into(),
        });
    }
    let flags = bytes[3];
    if flags >> 4 != 0 {
        return Err(SmileError {
            offset: 3,
            why: format!("SMILE version {} (only version 0 is known)", flags >> 4),
        });
    }
    let mut d = Decoder {
        b: bytes,
        at: 4,
        names: (flags & 1 != 0).then(Vec::new),
        values: (flags & 2 != 0).then(Vec::new),
        budget,
    };
    if d.at == bytes.len() {
        return Err(d.fail(4, "no value after the header"));
    }
    let v = d.value(0)?;
    if d.b.get(d.at) == Some(&0xFF) {
        d.at += 1;
    }
    Ok((v, d.at))
}

struct Decoder<'a> {
    b: &'a [u8],
    at: usize,
    /// Shared property names and string values, when the header enables
    /// them.
    names: Option<Vec<String>>,
    values: Option<Vec<String>>,
    budget: usize,
}

type Res<T> = Result<T, SmileError>;

impl<'a> Decoder<'a> {
    fn fail(&self, offset: usize, why: impl Into<String>) -> SmileError {
        SmileError {
            offset,
            why: why.into(),
        }
    }

    fn byte(&mut self) -> Res<u8> {
        let b = *self
            .b
            .get(self.at)
            .ok_or_else(|| self.fail(self.at, "the data ends inside a value"))?;
        self.at += 1;
        Ok(b)
    }

    /// The next `n` bytes, when that many are left.
    fn take(&mut self, n: usize) -> Res<&'a [u8]> {
        let left = self.b.len() - self.at;
        if n > left {
            return Err(self.fail(
                self.at,
                format!("a length of {n} bytes, but only {left} are left"),
            ));
        }
        let s = &self.b[self.at..self.at + n];
        self.at += n;
        Ok(s)
    }

    /// Counts `n` bytes of the decoded tree against the budget.
    fn spend(&mut self, n: usize) -> Res<()> {
        self.budget = self.budget.checked_sub(n).ok_or_else(|| {
            self.fail(
                self.at,
                format!("decodes to more than {} MiB", MAX_DECODED >> 20),
            )
        })?;
        Ok(())
    }

    fn text(&mut self, n: usize) -> Res<String> {
        let start = self.at;
        let raw = self.take(n)?;
        self.spend(n)?;
        String::from_utf8(raw.to_vec()).map_err(|_| self.fail(start, "text that is not UTF-8"))
    }

    /// Text up to the end-of-string marker `0xFC` (long strings and names).
    fn terminated(&mut self) -> Res<String> {
        let start = self.at;
        let Some(len) = self.b[start..].iter().position(|&b| b == 0xFC) else {
            return Err(self.fail(start, "a long string without its end marker (0xFC)"));
        };
        let s = self.text(len)?;
        self.at += 1;
        Ok(s)
    }

    /// An unsigned variable-length integer: 7 bits a byte, the last byte
    /// marked by its high bit and holding 6 bits.
    fn vint(&mut self, max_bytes: usize) -> Res<u64> {
        let start = self.at;
        let mut v: u64 = 0;
        for _ in 0..max_bytes {
            let b = self.byte()?;
            let (bits, data) = if b & 0x80 != 0 {
                (6, u64::from(b & 0x3F))
            } else {
                (7, u64::from(b))
            };
            if v >> (64 - bits) != 0 {
                return Err(self.fail(start, "a variable-length integer over 64 bits"));
            }
            v = (v << bits) | data;
            if b & 0x80 != 0 {
                return Ok(v);
            }
        }
        Err(self.fail(
            start,
            format!("a variable-length integer longer than {max_bytes} bytes"),
        ))
    }

    /// `n` bits in groups of 7, the first group holding what is left over.
    fn seven_bit_number(&mut self, groups: usize) -> Res<u64> {
        let start = self.at;
        let raw = self.take(groups)?;
        if raw.iter().any(|b| b & 0x80 != 0) {
            return Err(self.fail(start, "a number's 7-bit group with its high bit set"));
        }
        Ok(raw
            .iter()
            .fold(0u64, |v, &b| v.wrapping_shl(7) | u64::from(b)))
    }

    /// Bytes in SMILE's 7-bit "safe" binary encoding: their count, then 8
    /// bytes for each 7, and `n + 1` bytes for the last `n`.
    fn seven_bit_bytes(&mut self) -> Res<Vec<u8>> {
        let start = self.at;
        let n = usize::try_from(self.vint(10)?).unwrap_or(usize::MAX);
        let encoded = (n / 7)
            .checked_mul(8)
            .and_then(|e| e.checked_add(if n % 7 > 0 { n % 7 + 1 } else { 0 }))
            .filter(|&e| e <= self.b.len() - self.at)
            .ok_or_else(|| {
                self.fail(
                    start,
                    format!("{n} bytes of binary data: more than the data holds"),
                )
            })?;
        self.spend(n)?;
        let raw = self.take(encoded)?;
        let mut out = Vec::with_capacity(n);
        let mut chunks = raw.chunks(8);
        for chunk in chunks.by_ref().take(n / 7) {
            let v = chunk
                .iter()
                .fold(0u64, |v, &b| (v << 7) | u64::from(b & 0x7F));
            out.extend((0..7).rev().map(|k| (v >> (8 * k)) as u8));
        }
        let r = n % 7;
        if let Some(tail) = chunks.next().filter(|_| r > 0) {
            let v = tail[..r]
                .iter()
                .fold(0u64, |v, &b| (v << 7) | u64::from(b & 0x7F));
            let v = (v << r) | u64::from(tail[r] & ((1 << r) - 1));
            out.extend((0..r).rev().map(|k| (v >> (8 * k)) as u8));
        }
        Ok(out)
    }

    /// A string value of `n` bytes, added to the shared values.
    fn short_string(&mut self, n: usize) -> Res<Value> {
        let s = self.text(n)?;
        if let Some(values) = self.values.as_mut() {
            share(values, s.clone());
        }
        Ok(Value::Str(s))
    }

    fn shared_value(&mut self, index: usize, at: usize) -> Res<Value> {
        self.back_reference(false, index, at).map(Value::Str)
    }

    /// Entry `index` of the shared names (`names`) or string values, for
    /// the token at `at`.
    fn back_reference(&mut self, names: bool, index: usize, at: usize) -> Res<String> {
        let (table, what) = if names {
            (&self.names, ("property name", "name"))
        } else {
            (&self.values, ("string value", "value"))
        };
        let s = match table {
            None => {
                return Err(self.fail(
                    at,
                    format!("a shared {}, but the header does not enable them", what.0),
                ))
            }
            Some(t) => t.get(index).cloned().ok_or_else(|| {
                self.fail(
                    at,
                    format!(
                        "a back-reference to shared {} {index}, only {} seen",
                        what.1,
                        t.len()
                    ),
                )
            })?,
        };
        self.spend(s.len())?;
        Ok(s)
    }

    fn value(&mut self, depth: usize) -> Res<Value> {
        let at = self.at;
        let t = self.byte()?;
        self.spend(std::mem::size_of::<Value>())?;
        let v = match t {
            0x01..=0x1F => return self.shared_value(usize::from(t) - 1, at),
            0x20 => Value::Str(String::new()),
            0x21 => Value::Null,
            0x22 => Value::Bool(false),
            0x23 => Value::Bool(true),
            0x24 => Value::Int(zigzag(self.vint(5)?)),
            0x25 => Value::Int(zigzag(self.vint(10)?)),
            0x26 => big_integer(&self.seven_bit_bytes()?),
            0x28 => Value::Float(f64::from(f32::from_bits(self.seven_bit_number(5)? as u32))),
            0x29 => Value::Float(f64::from_bits(self.seven_bit_number(10)?)),
            0x2A => {
                let scale = zigzag(self.vint(5)?);
                let unscaled = big_integer(&self.seven_bit_bytes()?);
                let u = unscaled.as_f64().unwrap_or(f64::NAN);
                Value::Float(u * 10f64.powi(-(scale.clamp(-400, 400) as i32)))
            }
            0x40..=0x5F => return self.short_string(usize::from(t & 0x1F) + 1),
            0x60..=0x7F => return self.short_string(usize::from(t & 0x1F) + 33),
            0x80..=0x9F => return self.short_string(usize::from(t & 0x1F) + 2),
            0xA0..=0xBF => return self.short_string(usize::from(t & 0x1F) + 34),
            0xC0..=0xDF => Value::Int(zigzag(u64::from(t & 0x1F))),
            0xE0 | 0xE4 => Value::Str(self.terminated()?),
            0xE8 => Value::Bytes(self.seven_bit_bytes()?),
            0xEC..=0xEF => {
                let low = self.byte()?;
                return self.shared_value(usize::from(t & 0x03) << 8 | usize::from(low), at);
            }
            0xF8 => {
                let depth = self.deeper(depth, at)?;
                let mut items = Vec::new();
                loop {
                    if self.b.get(self.at) == Some(&0xF9) {
                        self.at += 1;
                        break;
                    }
                    items.push(self.value(depth)?);
                }
                Value::Array(items)
            }
            0xFA => {
                let depth = self.deeper(depth, at)?;
                let mut fields = Vec::new();
                loop {
                    let key_at = self.at;
                    let k = self.byte()?;
                    if k == 0xFB {
                        break;
                    }
                    let key = self.key(k, key_at)?;
                    fields.push((key, self.value(depth)?));
                }
                Value::Object(fields)
            }
            0xFD => {
                let n = usize::try_from(self.vint(10)?).unwrap_or(usize::MAX);
                self.spend(n.min(self.b.len()))?;
                Value::Bytes(self.take(n)?.to_vec())
            }
            _ => {
                return Err(self.fail(at, format!("token 0x{t:02X} is not a value")));
            }
        };
        Ok(v)
    }

    fn deeper(&self, depth: usize, at: usize) -> Res<usize> {
        if depth >= MAX_DEPTH {
            return Err(self.fail(at, format!("nested deeper than {MAX_DEPTH}")));
        }
        Ok(depth + 1)
    }

    /// A property name, from its token `t` at `at`.
    fn key(&mut self, t: u8, at: usize) -> Res<String> {
        let name = match t {
            0x20 => return Ok(String::new()),
            0x30..=0x33 => {
                let low = self.byte()?;
                return self.shared_name(usize::from(t & 0x03) << 8 | usize::from(low), at);
            }
            0x34 => self.terminated()?,
            0x40..=0x7F => return self.shared_name(usize::from(t & 0x3F), at),
            0x80..=0xBF => self.text(usize::from(t & 0x3F) + 1)?,
            0xC0..=0xF7 => self.text(usize::from(t & 0x3F) + 2)?,
            _ => {
                return Err(self.fail(at, format!("token 0x{t:02X} is not a property name")));
            }
        };
        if let Some(names) = self.names.as_mut() {
            share(names, name.clone());
        }
        Ok(name)
    }

    fn shared_name(&mut self, index: usize, at: usize) -> Res<String> {
        self.back_reference(true, index, at)
    }
}

/// Adds to a shared table, which starts again from empty when full.
fn share(table: &mut Vec<String>, s: String) {
    if table.len() >= SHARED {
        table.clear();
    }
    table.push(s);
}

fn zigzag(n: u64) -> i64 {
    (n >> 1) as i64 ^ -((n & 1) as i64)
}

/// A big-endian two's-complement integer: exact up to 64 bits, else the
/// nearest float.
fn big_integer(b: &[u8]) -> Value {
    let negative = b.first().is_some_and(|&x| x & 0x80 != 0);
    if b.len() <= 8 {
        let fill = if negative { u64::MAX } else { 0 };
        let v = b.iter().fold(fill, |v, &x| (v << 8) | u64::from(x));
        return Value::Int(v as i64);
    }
    let mag = b.iter().fold(0f64, |v, &x| v * 256.0 + f64::from(x));
    Value::Float(if negative {
        mag - 256f64.powi(b.len() as i32)
    } else {
        mag
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(flags: u8, body: &[u8]) -> Vec<u8> {
        [&b":)\n"[..], &[flags], body].concat()
    }

    fn one(flags: u8, body: &[u8]) -> Value {
        decode(&doc(flags, body)).unwrap().0
    }

    fn err(flags: u8, body: &[u8]) -> SmileError {
        decode(&doc(flags, body)).unwrap_err()
    }

    #[test]
    fn literals_and_small_ints() {
        assert_eq!(one(0, &[0x21]), Value::Null);
        assert_eq!(one(0, &[0x22]), Value::Bool(false));
        assert_eq!(one(0, &[0x23]), Value::Bool(true));
        assert_eq!(one(0, &[0x20]), Value::Str(String::new()));
        // Zigzag in five bits: 0, -1, 1, ... -16, 15.
        assert_eq!(one(0, &[0xC0]), Value::Int(0));
        assert_eq!(one(0, &[0xC1]), Value::Int(-1));
        assert_eq!(one(0, &[0xC2]), Value::Int(1));
        assert_eq!(one(0, &[0xDF]), Value::Int(-16));
        assert_eq!(one(0, &[0xDE]), Value::Int(15));
    }

    #[test]
    fn variable_length_integers() {
        // 100 zigzagged is 200 = 0b11_001000: 0x03, then 0x80 | 0x08.
        assert_eq!(one(0, &[0x24, 0x03, 0x88]), Value::Int(100));
        // -1000 zigzagged is 1999 = 31 << 6 | 15.
        assert_eq!(one(0, &[0x24, 0x1F, 0x8F]), Value::Int(-1000));
        assert_eq!(one(0, &[0x25, 0x1F, 0x8F]), Value::Int(-1000));
        // i64::MAX zigzagged is u64::MAX - 1: 1 + 9 * 7 bits... too many
        // for five bytes of an int32 token.
        let e = err(0, &[0x24, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0xBF]);
        assert!(e.why.contains("longer than 5 bytes"), "{e}");
        let e = err(0, &[0x24, 0x03]);
        assert!(e.why.contains("ends inside"), "{e}");
    }

    #[test]
    fn floats_in_seven_bit_groups() {
        let enc = |bits: u64, n: usize| -> Vec<u8> {
            (0..n)
                .rev()
                .map(|k| ((bits >> (7 * k)) & 0x7F) as u8)
                .collect()
        };
        let d = 0.247f64;
        let mut b = vec![0x29];
        b.extend(enc(d.to_bits(), 10));
        assert_eq!(one(0, &b), Value::Float(d));
        let f = -1.5f32;
        let mut b = vec![0x28];
        b.extend(enc(u64::from(f.to_bits()), 5));
        assert_eq!(one(0, &b), Value::Float(-1.5));
        b[2] |= 0x80;
        assert!(err(0, &b).why.contains("high bit"));
    }

    #[test]
    fn strings_of_each_class() {
        assert_eq!(one(0, b"\x40a"), Value::Str("a".into()));
        let s33 = "x".repeat(33);
        assert_eq!(
            one(0, &[&[0x60][..], s33.as_bytes()].concat()),
            Value::Str(s33)
        );
        // Tiny Unicode: 2 + low bits bytes ("é" is two).
        assert_eq!(one(0, &[0x80, 0xC3, 0xA9]), Value::Str("é".into()));
        let long = "y".repeat(100);
        assert_eq!(
            one(0, &[&[0xE0][..], long.as_bytes(), &[0xFC]].concat()),
            Value::Str(long)
        );
        assert!(err(0, b"\xE0abc").why.contains("end marker"));
        assert!(err(0, b"\x45ab").why.contains("only 2 are left"));
        assert!(err(0, b"\x80\xff\xfe").why.contains("UTF-8"));
    }

    #[test]
    fn shared_names_and_values_are_back_referenced() {
        // [{"type":"amove"},{"type":"amove"}] with both tables on: the
        // second object names key 0 (0x40) and value 0 (0x01).
        let body = b"\xf8\xfa\x83type\x44amove\xfb\xfa\x40\x01\xfb\xf9";
        let v = one(3, body);
        let a = v.as_array().unwrap();
        assert_eq!(a.len(), 2);
        assert_eq!(a[0], a[1]);
        assert_eq!(a[1].get("type").and_then(Value::as_str), Some("amove"));
        // Without sharing enabled the references are errors.
        assert!(err(0, body).why.contains("does not enable"));
        // A reference past the table.
        let e = err(3, b"\xfa\x41\x01\xfb");
        assert!(e.why.contains("shared name 1, only 0 seen"), "{e}");
        assert_eq!(e.offset, 5);
        // Long (10-bit) references.
        let v = one(3, b"\xf8\x40z\xec\x00\xf9");
        assert_eq!(
            v,
            Value::Array(vec![Value::Str("z".into()), Value::Str("z".into())])
        );
        let v = one(1, b"\xfa\x80k\x21\x30\x00\x22\xfb");
        assert_eq!(
            v,
            Value::Object(vec![
                ("k".into(), Value::Null),
                ("k".into(), Value::Bool(false))
            ])
        );
    }

    #[test]
    fn the_shared_table_starts_again_when_full() {
        let mut t = Vec::new();
        for i in 0..SHARED {
            share(&mut t, i.to_string());
        }
        share(&mut t, "new".into());
        assert_eq!(t, vec!["new".to_string()]);
    }

    #[test]
    fn binary_and_big_numbers() {
        // Seven bytes 0x01..0x07 in 7-bit groups, then one more byte 0xFF
        // (two groups: 7 bits, then 1).
        let raw: Vec<u8> = (1..=8).map(|i| if i == 8 { 0xFF } else { i }).collect();
        let bits = raw[..7].iter().fold(0u64, |v, &b| (v << 8) | u64::from(b));
        let mut b = vec![0xE8, 0x88];
        b.extend((0..8).rev().map(|k| ((bits >> (7 * k)) & 0x7F) as u8));
        b.extend([0x7F, 0x01]);
        assert_eq!(one(0, &b), Value::Bytes(raw));
        // BigInteger -2 (one byte 0xFE: groups 0x7F, 0x00).
        assert_eq!(one(0, &[0x26, 0x81, 0x7F, 0x00]), Value::Int(-2));
        // A count larger than the data: an error, nothing allocated.
        let e = err(0, &[0xE8, 0x3F, 0x7F, 0x7F, 0x7F, 0xBF, 0x00]);
        assert!(e.why.contains("more than the data holds"), "{e}");
        let e = err(0, &[0xFD, 0x3F, 0x7F, 0x7F, 0xBF, 0x00]);
        assert!(e.why.contains("only 1 are left"), "{e}");
    }

    #[test]
    fn bad_headers_tokens_and_nesting() {
        assert!(decode(b"{}").unwrap_err().why.contains("no SMILE header"));
        assert!(decode(b":)\n\x10\x21")
            .unwrap_err()
            .why
            .contains("version 1"));
        assert!(decode(b":)\n\x00").unwrap_err().why.contains("no value"));
        let e = err(0, &[0xF0]);
        assert_eq!((e.offset, e.why.as_str()), (4, "token 0xF0 is not a value"));
        assert!(err(0, &[0x00]).why.contains("not a value"));
        assert!(err(0, &[0xFA, 0x21]).why.contains("not a property name"));
        let deep = [vec![0xF8; MAX_DEPTH + 1], vec![0xF9; MAX_DEPTH + 1]].concat();
        assert!(err(0, &deep).why.contains("nested deeper"));
        let ok = [vec![0xF8; MAX_DEPTH], vec![0xF9; MAX_DEPTH]].concat();
        assert!(decode(&doc(0, &ok)).is_ok());
        // The end marker after the value is skipped; other bytes are left.
        assert_eq!(decode(&doc(0, &[0x21, 0xFF])).unwrap().1, 6);
        assert_eq!(decode(&doc(0, &[0x21, 0x21])).unwrap().1, 5);
    }

    #[test]
    fn the_budget_caps_what_back_references_expand_to() {
        // A 40-byte shared value referenced 1,000 times.
        let mut body = vec![0xF8, 0x67];
        body.extend([b'v'; 40]);
        body.extend([0x01; 1000]);
        body.push(0xF9);
        let d = doc(2, &body);
        assert!(decode(&d).is_ok());
        let e = decode_within(&d, 20_000).unwrap_err();
        assert!(e.why.contains("decodes to more than"), "{e}");
    }
}
