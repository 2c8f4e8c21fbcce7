//! A serializer wrapper that keeps non-finite floats readable in JSON.

use serde::ser::{self, Serialize, Serializer};

/// What JSON cannot hold: NaN, and infinity of an `f64`. An `f32`
/// infinity is written as `±1e+39`, which reads back as an `f32` infinity
/// (and is what a too-large number in a file reads as), so a loaded world
/// always saves again.
const NOT_JSON: &str = "cannot be written as JSON";

/// Wraps a serializer so that every float it is given, at any depth, is
/// checked: see [`NOT_JSON`].
pub(crate) struct Guard<S>(pub S);

fn f32_json<S: Serializer>(s: S, v: f32) -> Result<S::Ok, S::Error> {
    if v.is_finite() {
        s.serialize_f32(v)
    } else if v.is_nan() {
        Err(ser::Error::custom(format!(
            "NaN {NOT_JSON} (it would read back as null); save it with the binary format, or keep NaN out of saved components"
        )))
    } else {
        s.serialize_f64(if v > 0.0 { 1e39 } else { -1e39 })
    }
}

fn f64_json<S: Serializer>(s: S, v: f64) -> Result<S::Ok, S::Error> {
    if v.is_finite() {
        s.serialize_f64(v)
    } else {
        let what = if v.is_nan() {
            "NaN"
        } else {
            "an infinite `f64`"
        };
        Err(ser::Error::custom(format!(
            "{what} {NOT_JSON} (it would read back as null); save it with the binary format, or keep it out of saved components"
        )))
    }
}

/// A value to be written through the guard.
struct Guarded<'a, T: ?Sized>(&'a T);

impl<T: ?Sized + Serialize> Serialize for Guarded<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(Guard(s))
    }
}

macro_rules! forward {
    ($($method:ident($($arg:ident: $ty:ty),*);)*) => {
        $(
            #[inline]
            fn $method(self, $($arg: $ty),*) -> Result<S::Ok, S::Error> {
                self.0.$method($($arg),*)
            }
        )*
    };
}

macro_rules! compound {
    ($trait:ident, $($method:ident($($arg:ident: $ty:ty),*);)*) => {
        impl<S: ser::$trait> ser::$trait for Guard<S> {
            type Ok = S::Ok;
            type Error = S::Error;
            $(
                #[inline]
                fn $method<T: ?Sized + Serialize>(&mut self, $($arg: $ty,)* value: &T) -> Result<(), S::Error> {
                    self.0.$method($($arg,)* &Guarded(value))
                }
            )*
            #[inline]
            fn end(self) -> Result<S::Ok, S::Error> {
                self.0.end()
            }
        }
    };
}

compound!(SerializeSeq, serialize_element(););
compound!(SerializeTuple, serialize_element(););
compound!(SerializeTupleStruct, serialize_field(););
compound!(SerializeTupleVariant, serialize_field(););
compound!(SerializeStruct, serialize_field(key: &'static str););
compound!(SerializeStructVariant, serialize_field(key: &'static str););

impl<S: ser::SerializeMap> ser::SerializeMap for Guard<S> {
    type Ok = S::Ok;
    type Error = S::Error;

    #[inline]
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<(), S::Error> {
        self.0.serialize_key(&Guarded(key))
    }

    #[inline]
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), S::Error> {
        self.0.serialize_value(&Guarded(value))
    }

    #[inline]
    fn end(self) -> Result<S::Ok, S::Error> {
        self.0.end()
    }
}

impl<S: Serializer> Serializer for Guard<S> {
    type Ok = S::Ok;
    type Error = S::Error;
    type SerializeSeq = Guard<S::SerializeSeq>;
    type SerializeTuple = Guard<S::SerializeTuple>;
    type SerializeTupleStruct = Guard<S::SerializeTupleStruct>;
    type SerializeTupleVariant = Guard<S::SerializeTupleVariant>;
    type SerializeMap = Guard<S::SerializeMap>;
    type SerializeStruct = Guard<S::SerializeStruct>;
    type SerializeStructVariant = Guard<S::SerializeStructVariant>;

    forward! {
        serialize_bool(v: bool);
        serialize_i8(v: i8);
        serialize_i16(v: i16);
        serialize_i32(v: i32);
        serialize_i64(v: i64);
        serialize_i128(v: i128);
        serialize_u8(v: u8);
        serialize_u16(v: u16);
        serialize_u32(v: u32);
        serialize_u64(v: u64);
        serialize_u128(v: u128);
        serialize_char(v: char);
        serialize_str(v: &str);
        serialize_bytes(v: &[u8]);
        serialize_none();
        serialize_unit();
        serialize_unit_struct(name: &'static str);
        serialize_unit_variant(name: &'static str, index: u32, variant: &'static str);
    }

    #[inline]
    fn serialize_f32(self, v: f32) -> Result<S::Ok, S::Error> {
        f32_json(self.0, v)
    }

    #[inline]
    fn serialize_f64(self, v: f64) -> Result<S::Ok, S::Error> {
        f64_json(self.0, v)
    }

    #[inline]
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<S::Ok, S::Error> {
        self.0.serialize_some(&Guarded(value))
    }

    #[inline]
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<S::Ok, S::Error> {
        self.0.serialize_newtype_struct(name, &Guarded(value))
    }

    #[inline]
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<S::Ok, S::Error> {
        self.0
            .serialize_newtype_variant(name, index, variant, &Guarded(value))
    }

    #[inline]
    fn serialize_seq(self, len: Option<usize>) -> Result<Self::SerializeSeq, S::Error> {
        self.0.serialize_seq(len).map(Guard)
    }

    #[inline]
    fn serialize_tuple(self, len: usize) -> Result<Self::SerializeTuple, S::Error> {
        self.0.serialize_tuple(len).map(Guard)
    }

    #[inline]
    fn serialize_tuple_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleStruct, S::Error> {
        self.0.serialize_tuple_struct(name, len).map(Guard)
    }

    #[inline]
    fn serialize_tuple_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleVariant, S::Error> {
        self.0
            .serialize_tuple_variant(name, index, variant, len)
            .map(Guard)
    }

    #[inline]
    fn serialize_map(self, len: Option<usize>) -> Result<Self::SerializeMap, S::Error> {
        self.0.serialize_map(len).map(Guard)
    }

    #[inline]
    fn serialize_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStruct, S::Error> {
        self.0.serialize_struct(name, len).map(Guard)
    }

    #[inline]
    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStructVariant, S::Error> {
        self.0
            .serialize_struct_variant(name, index, variant, len)
            .map(Guard)
    }

    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }
}
