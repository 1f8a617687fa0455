//! The reports' column types, taken from the row types' field types: what
//! a Parquet report stores each column as. [`typed_row!`] declares a row
//! struct and lists its fields' [`Kind`]s in field order, so a column
//! added to a row type is typed with it.

use crate::go::audit::Verdict;
use crate::go::dead::DeadSource;
use crate::go::endgame::position::ZoneStatus;
use crate::go::record::result::EndKind;
use crate::go::rules::RulesSource;
use crate::ingest::Stage;

/// A column's type. Every column may be empty (null); text written as
/// an empty cell is null too.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Text,
    /// Any integer type, stored as a signed 64-bit integer.
    Int,
    Float32,
    Float64,
    Bool,
}

/// The kind of a row field's type; `Option<T>` is `T`'s.
pub trait Column {
    const KIND: Kind;
}

macro_rules! kind_of {
    ($kind:ident: $($t:ty),*) => {
        $(impl Column for $t {
            const KIND: Kind = Kind::$kind;
        })*
    };
}

kind_of!(Text: String, &str, Verdict, DeadSource, ZoneStatus, EndKind, RulesSource, Stage);
kind_of!(Int: u8, u16, u32, u64, usize, i8, i16, i32, i64);
kind_of!(Float32: f32);
kind_of!(Float64: f64);
kind_of!(Bool: bool);

impl<T: Column> Column for Option<T> {
    const KIND: Kind = T::KIND;
}

/// A row type whose columns are typed: its fields' kinds in field order.
pub trait Typed {
    const KINDS: &'static [Kind];
}

/// Declares a row struct (named fields, all `pub`) and its [`Typed`]
/// impl.
macro_rules! typed_row {
    (
        $(#[$meta:meta])*
        pub struct $name:ident $(<$lt:lifetime>)? {
            $($(#[$fmeta:meta])* pub $field:ident: $ty:ty),* $(,)?
        }
    ) => {
        $(#[$meta])*
        pub struct $name $(<$lt>)? {
            $($(#[$fmeta])* pub $field: $ty),*
        }

        impl $(<$lt>)? $crate::report::columns::Typed for $name $(<$lt>)? {
            const KINDS: &'static [$crate::report::columns::Kind] =
                &[$(<$ty as $crate::report::columns::Column>::KIND),*];
        }
    };
}

pub(crate) use typed_row;
