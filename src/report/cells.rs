//! Rows as cells: the longest text of a row (cheap, no allocation), and
//! its cells with long text cut ([`super::cap_cell`]), formatted exactly
//! as the `csv` crate formats them.

use serde::ser::{self, Impossible, Serialize, Serializer};
use std::fmt;

/// No row fails to serialize into cells; maps (which `csv` rejects too)
/// are the only error.
#[derive(Debug)]
pub struct Unsupported(String);

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Unsupported {}

impl ser::Error for Unsupported {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Unsupported(msg.to_string())
    }
}

/// Walks a row's fields: with `cells` off, only measures the longest
/// text; with it on, also collects every cell.
#[derive(Default)]
pub struct Cells {
    pub longest: usize,
    pub collect: bool,
    pub cells: Vec<Vec<u8>>,
}

impl Cells {
    fn text(&mut self, t: &str) {
        self.longest = self.longest.max(t.len());
        if self.collect {
            self.cells.push(super::cap_cell(t).as_bytes().to_vec());
        }
    }

    /// A scalar, formatted by `csv` itself (no quoting: the writer quotes
    /// the cell later, like any other).
    fn scalar<T: Serialize + ?Sized>(&mut self, v: &T) {
        if self.collect {
            let mut w = csv::WriterBuilder::new()
                .has_headers(false)
                .quote_style(csv::QuoteStyle::Never)
                .terminator(csv::Terminator::Any(b'\n'))
                .from_writer(Vec::new());
            w.serialize(v).expect("a scalar serializes");
            let mut b = w.into_inner().expect("writing to memory cannot fail");
            b.pop();
            self.cells.push(b);
        }
    }

    fn raw(&mut self, b: &[u8]) {
        self.longest = self.longest.max(b.len());
        if self.collect {
            self.cells.push(b.to_vec());
        }
    }
}

macro_rules! scalars {
    ($($f:ident: $t:ty),*) => {
        $(fn $f(self, v: $t) -> Result<(), Unsupported> {
            self.scalar(&v);
            Ok(())
        })*
    };
}

impl Serializer for &mut Cells {
    type Ok = ();
    type Error = Unsupported;
    type SerializeSeq = Self;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = Self;
    type SerializeMap = Impossible<(), Unsupported>;
    type SerializeStruct = Self;
    type SerializeStructVariant = Self;

    scalars!(serialize_bool: bool, serialize_i8: i8, serialize_i16: i16, serialize_i32: i32,
        serialize_i64: i64, serialize_i128: i128, serialize_u8: u8, serialize_u16: u16,
        serialize_u32: u32, serialize_u64: u64, serialize_u128: u128, serialize_f32: f32,
        serialize_f64: f64);

    fn serialize_char(self, v: char) -> Result<(), Unsupported> {
        self.text(v.encode_utf8(&mut [0; 4]));
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result<(), Unsupported> {
        self.text(v);
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), Unsupported> {
        match std::str::from_utf8(v) {
            Ok(t) => self.text(t),
            Err(_) => self.raw(&v[..v.len().min(super::MAX_CELL)]),
        }
        Ok(())
    }
    fn serialize_none(self) -> Result<(), Unsupported> {
        self.raw(b"");
        Ok(())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<(), Unsupported> {
        v.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Unsupported> {
        self.raw(b"");
        Ok(())
    }
    fn serialize_unit_struct(self, name: &'static str) -> Result<(), Unsupported> {
        self.text(name);
        Ok(())
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<(), Unsupported> {
        self.text(variant);
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        v: &T,
    ) -> Result<(), Unsupported> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        v: &T,
    ) -> Result<(), Unsupported> {
        v.serialize(self)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self, Unsupported> {
        Ok(self)
    }
    fn serialize_tuple(self, _: usize) -> Result<Self, Unsupported> {
        Ok(self)
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self, Unsupported> {
        Ok(self)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self, Unsupported> {
        Ok(self)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, Unsupported> {
        Err(Unsupported("a map is not a CSV row".into()))
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self, Unsupported> {
        Ok(self)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self, Unsupported> {
        Ok(self)
    }
}

macro_rules! compound {
    ($($tr:ident :: $f:ident),*) => {
        $(impl ser::$tr for &mut Cells {
            type Ok = ();
            type Error = Unsupported;
            fn $f<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Unsupported> {
                v.serialize(&mut **self)
            }
            fn end(self) -> Result<(), Unsupported> {
                Ok(())
            }
        })*
    };
}

compound!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

macro_rules! named {
    ($($tr:ident),*) => {
        $(impl ser::$tr for &mut Cells {
            type Ok = ();
            type Error = Unsupported;
            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                _: &'static str,
                v: &T,
            ) -> Result<(), Unsupported> {
                v.serialize(&mut **self)
            }
            fn end(self) -> Result<(), Unsupported> {
                Ok(())
            }
        })*
    };
}

named!(SerializeStruct, SerializeStructVariant);
