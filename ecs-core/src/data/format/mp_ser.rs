//! A fast writer of one component's MessagePack, for the binary
//! snapshot's values: the bytes `rmp-serde` writes (its default
//! configuration: structs as arrays, the smallest encoding of each number
//! and length), straight into the output `Vec` with no `std::io` in
//! between, for plain data (numbers, strings, bytes, options, sequences
//! and maps of known length, structs, tuples, unit variants). Anything
//! else (other enum variants, extensions, 128-bit integers, unknown
//! lengths) and every error stop it, and [`write()`] writes the value again
//! with `rmp-serde`, over what the fast writer left: a file holds the same
//! bytes as before, and a failure is `rmp-serde`'s.

use serde::ser::{self, Impossible, Serialize};

use super::mp;
use super::mp_de::Miss;

/// Appends `value`'s MessagePack to `out`, as `rmp-serde` writes it.
#[inline]
pub(crate) fn write<T: Serialize + ?Sized>(
    value: &T,
    out: &mut Vec<u8>,
) -> Result<(), rmp_serde::encode::Error> {
    let start = out.len();
    match value.serialize(&mut Fast { out }) {
        Ok(()) => Ok(()),
        Err(Miss) => {
            out.truncate(start);
            value.serialize(&mut rmp_serde::Serializer::new(out))
        }
    }
}

impl ser::Error for Miss {
    #[cold]
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        Miss
    }
}

struct Fast<'o> {
    out: &'o mut Vec<u8>,
}

impl Fast<'_> {
    #[inline(always)]
    fn uint(&mut self, v: u64) {
        mp::uint(self.out, v);
    }

    #[inline(always)]
    fn sint(&mut self, v: i64) {
        let out = &mut *self.out;
        match v {
            0.. => mp::uint(out, v as u64),
            -32..=-1 => out.push(v as u8),
            -128..=-33 => out.extend_from_slice(&[0xd0, v as u8]),
            -32768..=-129 => {
                out.push(0xd1);
                out.extend_from_slice(&(v as i16).to_be_bytes());
            }
            -2147483648..=-32769 => {
                out.push(0xd2);
                out.extend_from_slice(&(v as i32).to_be_bytes());
            }
            _ => {
                out.push(0xd3);
                out.extend_from_slice(&v.to_be_bytes());
            }
        }
    }

    /// A length header (see [`mp::header`]); `rmp-serde` writes none past
    /// 32 bits.
    #[inline(always)]
    fn len(
        &mut self,
        len: usize,
        fix: u8,
        fix_end: usize,
        m8: Option<u8>,
        m16: u8,
    ) -> Result<(), Miss> {
        u32::try_from(len).map_err(|_| Miss)?;
        mp::header(self.out, len, fix, fix_end, m8, m16);
        Ok(())
    }

    #[inline(always)]
    fn array_len(&mut self, len: usize) -> Result<(), Miss> {
        self.len(len, 0x90, 16, None, 0xdc)
    }
}

impl<'a, 'o> ser::Serializer for &'a mut Fast<'o> {
    type Ok = ();
    type Error = Miss;
    type SerializeSeq = Self;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = Impossible<(), Miss>;
    type SerializeMap = Self;
    type SerializeStruct = Self;
    type SerializeStructVariant = Impossible<(), Miss>;

    fn is_human_readable(&self) -> bool {
        false
    }

    #[inline]
    fn serialize_bool(self, v: bool) -> Result<(), Miss> {
        self.out.push(if v { 0xc3 } else { 0xc2 });
        Ok(())
    }

    #[inline]
    fn serialize_i8(self, v: i8) -> Result<(), Miss> {
        self.sint(i64::from(v));
        Ok(())
    }

    #[inline]
    fn serialize_i16(self, v: i16) -> Result<(), Miss> {
        self.sint(i64::from(v));
        Ok(())
    }

    #[inline]
    fn serialize_i32(self, v: i32) -> Result<(), Miss> {
        self.sint(i64::from(v));
        Ok(())
    }

    #[inline]
    fn serialize_i64(self, v: i64) -> Result<(), Miss> {
        self.sint(v);
        Ok(())
    }

    #[inline]
    fn serialize_u8(self, v: u8) -> Result<(), Miss> {
        self.uint(u64::from(v));
        Ok(())
    }

    #[inline]
    fn serialize_u16(self, v: u16) -> Result<(), Miss> {
        self.uint(u64::from(v));
        Ok(())
    }

    #[inline]
    fn serialize_u32(self, v: u32) -> Result<(), Miss> {
        self.uint(u64::from(v));
        Ok(())
    }

    #[inline]
    fn serialize_u64(self, v: u64) -> Result<(), Miss> {
        self.uint(v);
        Ok(())
    }

    #[inline]
    fn serialize_f32(self, v: f32) -> Result<(), Miss> {
        self.out.push(0xca);
        self.out.extend_from_slice(&v.to_be_bytes());
        Ok(())
    }

    #[inline]
    fn serialize_f64(self, v: f64) -> Result<(), Miss> {
        self.out.push(0xcb);
        self.out.extend_from_slice(&v.to_be_bytes());
        Ok(())
    }

    #[inline]
    fn serialize_char(self, v: char) -> Result<(), Miss> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }

    #[inline]
    fn serialize_str(self, v: &str) -> Result<(), Miss> {
        self.len(v.len(), 0xa0, 32, Some(0xd9), 0xda)?;
        self.out.extend_from_slice(v.as_bytes());
        Ok(())
    }

    #[inline]
    fn serialize_bytes(self, v: &[u8]) -> Result<(), Miss> {
        self.len(v.len(), 0, 0, Some(0xc4), 0xc5)?;
        self.out.extend_from_slice(v);
        Ok(())
    }

    #[inline]
    fn serialize_none(self) -> Result<(), Miss> {
        self.out.push(0xc0);
        Ok(())
    }

    #[inline]
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Miss> {
        value.serialize(self)
    }

    #[inline]
    fn serialize_unit(self) -> Result<(), Miss> {
        self.out.push(0xc0);
        Ok(())
    }

    #[inline]
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Miss> {
        self.out.push(0x90);
        Ok(())
    }

    #[inline]
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<(), Miss> {
        self.serialize_str(variant)
    }

    #[inline]
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<(), Miss> {
        // `rmp-serde`'s extension type goes to `rmp-serde`.
        if name == "_ExtStruct" {
            return Err(Miss);
        }
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), Miss> {
        Err(Miss)
    }

    #[inline]
    fn serialize_seq(self, len: Option<usize>) -> Result<Self, Miss> {
        self.array_len(len.ok_or(Miss)?)?;
        Ok(self)
    }

    #[inline]
    fn serialize_tuple(self, len: usize) -> Result<Self, Miss> {
        self.array_len(len)?;
        Ok(self)
    }

    #[inline]
    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<Self, Miss> {
        self.array_len(len)?;
        Ok(self)
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Impossible<(), Miss>, Miss> {
        Err(Miss)
    }

    #[inline]
    fn serialize_map(self, len: Option<usize>) -> Result<Self, Miss> {
        self.len(len.ok_or(Miss)?, 0x80, 16, None, 0xde)?;
        Ok(self)
    }

    #[inline]
    fn serialize_struct(self, _: &'static str, len: usize) -> Result<Self, Miss> {
        self.array_len(len)?;
        Ok(self)
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Impossible<(), Miss>, Miss> {
        Err(Miss)
    }

    fn serialize_i128(self, _: i128) -> Result<(), Miss> {
        Err(Miss)
    }

    fn serialize_u128(self, _: u128) -> Result<(), Miss> {
        Err(Miss)
    }
}

/// The items of a sequence, tuple or struct, and the keys and values of
/// a map: each written as it comes (the length is written already).
macro_rules! items {
    ($($trait:ident :: $method:ident $(($key:ty))?;)*) => {
        $(
            impl ser::$trait for &mut Fast<'_> {
                type Ok = ();
                type Error = Miss;

                #[inline]
                fn $method<T: Serialize + ?Sized>(&mut self, $(_: $key,)? value: &T) -> Result<(), Miss> {
                    value.serialize(&mut **self)
                }

                #[inline]
                fn end(self) -> Result<(), Miss> {
                    Ok(())
                }
            }
        )*
    };
}

items! {
    SerializeSeq::serialize_element;
    SerializeTuple::serialize_element;
    SerializeTupleStruct::serialize_field;
    SerializeStruct::serialize_field(&'static str);
}

impl ser::SerializeMap for &mut Fast<'_> {
    type Ok = ();
    type Error = Miss;

    #[inline]
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Miss> {
        key.serialize(&mut **self)
    }

    #[inline]
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Miss> {
        value.serialize(&mut **self)
    }

    #[inline]
    fn end(self) -> Result<(), Miss> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde::{Deserialize, Serialize};

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Unit;

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Wrapper(u16);

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    enum Kind {
        Plain,
        Newtype(i32),
        Tuple(u8, f32),
        Struct { a: bool },
    }

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Everything {
        small: (u8, i8, u16, i16, u32, i32, u64, i64),
        floats: (f32, f64),
        text: Vec<String>,
        flags: Vec<bool>,
        maybe: Option<Option<u32>>,
        none: Option<String>,
        map: BTreeMap<String, i64>,
        unit: Unit,
        wrapper: Wrapper,
        kinds: Vec<Kind>,
        letter: char,
        pair: (i128, u128),
        #[serde(default, skip_serializing_if = "Option::is_none")]
        skipped: Option<u8>,
    }

    fn everything(n: i64) -> Everything {
        let text = [0, 1, 31, 32, 255, 256, 65_535, 65_536]
            .iter()
            .map(|&len| "é".repeat(len / 2) + &"x".repeat(len % 2))
            .collect();
        Everything {
            small: (
                255,
                -128,
                65_535,
                -32_768,
                u32::MAX,
                i32::MIN,
                u64::MAX,
                i64::MIN + n,
            ),
            floats: (1.5, -0.1),
            text,
            flags: vec![true; 20],
            maybe: Some(None),
            none: None,
            map: (0..n).map(|k| (format!("k{k}"), -k * 1000)).collect(),
            unit: Unit,
            wrapper: Wrapper(300),
            kinds: vec![
                Kind::Plain,
                Kind::Newtype(-40),
                Kind::Tuple(7, 2.0),
                Kind::Struct { a: true },
            ],
            letter: 'ß',
            pair: (-1, 1),
            skipped: None,
        }
    }

    /// The fast paths write the bytes `rmp-serde` writes and read back what
    /// it reads, on every kind of value (fast or fallen back).
    #[test]
    fn fast_messagepack_matches_rmp_serde() {
        for n in [0, 3, 20, 70_000] {
            let value = everything(n);
            let mut fast = vec![0xff];
            super::write(&value, &mut fast).unwrap();
            assert_eq!(fast[1..], rmp_serde::to_vec(&value).unwrap()[..], "n = {n}");
            let read: Everything = super::super::mp_de::read(&fast[1..]).unwrap();
            // (`Some(None)` reads back `None`, in `rmp-serde` too.)
            assert!(read == rmp_serde::from_slice::<Everything>(&fast[1..]).unwrap());
            assert!(read.maybe.is_none() && read.text == value.text && read.map == value.map);
        }
        for int in [
            0i64,
            1,
            127,
            128,
            255,
            256,
            -1,
            -32,
            -33,
            -128,
            -129,
            -32_768,
            -32_769,
            1 << 40,
        ] {
            let mut fast = Vec::new();
            super::write(&int, &mut fast).unwrap();
            assert_eq!(fast, rmp_serde::to_vec(&int).unwrap(), "{int}");
            assert_eq!(super::super::mp_de::read::<i64>(&fast).unwrap(), int);
        }
    }

    /// A struct written as a map (field names and values, as
    /// `rmp_serde::to_vec_named` writes it) and a tuple longer than a short
    /// array take the fast reader's way around its array fast path, and
    /// read what `rmp-serde` reads.
    #[test]
    fn fast_messagepack_reads_structs_as_maps_and_long_tuples() {
        let value = everything(3);
        let named = rmp_serde::to_vec_named(&value).unwrap();
        let read: Everything = super::super::mp_de::read(&named).unwrap();
        assert!(read == rmp_serde::from_slice::<Everything>(&named).unwrap());
        assert_eq!((read.text, read.map), (value.text, value.map));
        let long = (0u8..16).map(u32::from).collect::<Vec<_>>();
        let tuple: [u32; 16] = long.clone().try_into().unwrap();
        let bytes = rmp_serde::to_vec(&tuple).unwrap();
        assert_eq!(bytes[0], 0xdc, "sixteen items are a 16-bit array");
        let read: [u32; 16] = super::super::mp_de::read(&bytes).unwrap();
        assert_eq!(read.to_vec(), long);
    }

    /// Bad input fails as `rmp-serde` fails.
    #[test]
    fn fast_messagepack_fails_as_rmp_serde() {
        let good = rmp_serde::to_vec(&everything(2)).unwrap();
        for cut in [0, 1, 5, good.len() / 2, good.len() - 1] {
            let fast =
                super::super::mp_de::read::<Everything>(&good[..cut]).map_err(|e| e.to_string());
            let slow = rmp_serde::from_slice::<Everything>(&good[..cut]).map_err(|e| e.to_string());
            assert_eq!(fast.unwrap_err(), slow.unwrap_err());
        }
        let text = rmp_serde::to_vec(&"text").unwrap();
        let fast = super::super::mp_de::read::<u32>(&text).map_err(|e| e.to_string());
        assert_eq!(
            fast,
            rmp_serde::from_slice::<u32>(&text).map_err(|e| e.to_string())
        );
        let bytes = [0xc4, 2, 1, 2];
        let read = super::super::mp_de::read::<Vec<u8>>(&bytes).unwrap();
        assert_eq!(read, rmp_serde::from_slice::<Vec<u8>>(&bytes).unwrap());
    }
}
