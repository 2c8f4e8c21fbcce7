//! A fast reader of one component's MessagePack, for the binary
//! snapshot's values: the part of `rmp-serde`'s reading that plain data
//! takes (numbers, strings, arrays, maps, options, structs as arrays),
//! read from a slice with no `std::io` in between. It visits exactly what
//! `rmp-serde` visits for those; anything else (enums, extensions, a
//! binary read as a sequence, text that is not UTF-8) and every error
//! stop it, and [`read`] reads the value again with `rmp-serde`, whose
//! answer (value or error) is the answer. So files read as they always
//! did, and a bad value fails with `rmp-serde`'s own message.

use serde::de::{self, DeserializeOwned, DeserializeSeed, Visitor};

/// Reads a `T` from the MessagePack at the start of `input` (what follows
/// is left, as `rmp_serde::from_slice` leaves it).
#[inline]
pub(crate) fn read<T: DeserializeOwned>(input: &[u8]) -> Result<T, rmp_serde::decode::Error> {
    let mut fast = Fast {
        rest: input,
        depth: 0,
    };
    match T::deserialize(&mut fast) {
        Ok(value) => Ok(value),
        Err(Miss) => rmp_serde::from_slice(input),
    }
}

/// The fast reader stopped: `rmp-serde` reads the value instead.
#[derive(Debug)]
pub(crate) struct Miss;

impl std::fmt::Display for Miss {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("not read by the fast MessagePack path")
    }
}

impl std::error::Error for Miss {}

impl de::Error for Miss {
    #[cold]
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        Miss
    }
}

/// Deeper than this, `rmp-serde` reads (and enforces its own limit).
const MAX_DEPTH: u32 = 256;

struct Fast<'de> {
    rest: &'de [u8],
    depth: u32,
}

impl<'de> Fast<'de> {
    #[inline(always)]
    fn byte(&mut self) -> Result<u8, Miss> {
        let (&b, rest) = self.rest.split_first().ok_or(Miss)?;
        self.rest = rest;
        Ok(b)
    }

    #[inline(always)]
    fn array<const N: usize>(&mut self) -> Result<[u8; N], Miss> {
        let (head, rest) = self.rest.split_first_chunk::<N>().ok_or(Miss)?;
        self.rest = rest;
        Ok(*head)
    }

    #[inline(always)]
    fn bytes(&mut self, len: usize) -> Result<&'de [u8], Miss> {
        if len > self.rest.len() {
            return Err(Miss);
        }
        let (data, rest) = self.rest.split_at(len);
        self.rest = rest;
        Ok(data)
    }

    #[inline(always)]
    fn len8(&mut self) -> Result<usize, Miss> {
        self.byte().map(usize::from)
    }

    #[inline(always)]
    fn len16(&mut self) -> Result<usize, Miss> {
        self.array().map(|b| usize::from(u16::from_be_bytes(b)))
    }

    #[inline(always)]
    fn len32(&mut self) -> Result<usize, Miss> {
        self.array().map(|b| u32::from_be_bytes(b) as usize)
    }

    /// The next value, whatever it is, as `rmp-serde`'s `any` visits it;
    /// a `bin` only where bytes are allowed (else `rmp-serde` reads it,
    /// as a sequence).
    #[inline]
    fn any<V: Visitor<'de>>(&mut self, v: V, allow_bytes: bool) -> Result<V::Value, Miss> {
        let m = self.byte()?;
        match m {
            0x00..=0x7f => v.visit_u8(m),
            0x80..=0x8f => self.map(v, usize::from(m & 0x0f)),
            0x90..=0x9f => self.seq(v, usize::from(m & 0x0f)),
            0xa0..=0xbf => self.str(v, usize::from(m & 0x1f)),
            0xc0 => v.visit_unit(),
            0xc2 => v.visit_bool(false),
            0xc3 => v.visit_bool(true),
            0xc4..=0xc6 if allow_bytes => {
                let len = match m {
                    0xc4 => self.len8()?,
                    0xc5 => self.len16()?,
                    _ => self.len32()?,
                };
                v.visit_borrowed_bytes(self.bytes(len)?)
            }
            0xca => v.visit_f32(f32::from_be_bytes(self.array()?)),
            0xcb => v.visit_f64(f64::from_be_bytes(self.array()?)),
            0xcc => v.visit_u8(self.byte()?),
            0xcd => v.visit_u16(u16::from_be_bytes(self.array()?)),
            0xce => v.visit_u32(u32::from_be_bytes(self.array()?)),
            0xcf => v.visit_u64(u64::from_be_bytes(self.array()?)),
            0xd0 => v.visit_i8(i8::from_be_bytes(self.array()?)),
            0xd1 => v.visit_i16(i16::from_be_bytes(self.array()?)),
            0xd2 => v.visit_i32(i32::from_be_bytes(self.array()?)),
            0xd3 => v.visit_i64(i64::from_be_bytes(self.array()?)),
            0xd9 => {
                let len = self.len8()?;
                self.str(v, len)
            }
            0xda => {
                let len = self.len16()?;
                self.str(v, len)
            }
            0xdb => {
                let len = self.len32()?;
                self.str(v, len)
            }
            0xdc => {
                let len = self.len16()?;
                self.seq(v, len)
            }
            0xdd => {
                let len = self.len32()?;
                self.seq(v, len)
            }
            0xde => {
                let len = self.len16()?;
                self.map(v, len)
            }
            0xdf => {
                let len = self.len32()?;
                self.map(v, len)
            }
            0xe0..=0xff => v.visit_i8(m as i8),
            // Extensions, `bin` as a sequence, the reserved marker.
            _ => Err(Miss),
        }
    }

    /// [`Fast::any`] out of line, for the markers a number or a text
    /// rarely has: in line, its whole match keeps the compiler from
    /// inlining a field's read into the struct that holds it, and every
    /// field then costs a call.
    #[cold]
    #[inline(never)]
    fn any_cold<V: Visitor<'de>>(&mut self, v: V) -> Result<V::Value, Miss> {
        self.any(v, true)
    }

    /// A struct, tuple or sequence: a short array (what MessagePack writes
    /// for one of up to 15 fields or items) read here, anything else by
    /// [`Fast::any`] out of line, so the struct's read stays small enough
    /// to be inlined where it is held.
    #[inline]
    fn array_like<V: Visitor<'de>>(&mut self, v: V) -> Result<V::Value, Miss> {
        match self.rest.split_first() {
            Some((&m @ 0x90..=0x9f, rest)) => {
                self.rest = rest;
                self.seq(v, usize::from(m & 0x0f))
            }
            _ => self.any_cold_no_bytes(v),
        }
    }

    /// [`Fast::any`] with no bytes allowed, out of line (see
    /// [`Fast::array_like`]).
    #[cold]
    #[inline(never)]
    fn any_cold_no_bytes<V: Visitor<'de>>(&mut self, v: V) -> Result<V::Value, Miss> {
        self.any(v, false)
    }

    #[inline]
    fn str<V: Visitor<'de>>(&mut self, v: V, len: usize) -> Result<V::Value, Miss> {
        let text = std::str::from_utf8(self.bytes(len)?).map_err(|_| Miss)?;
        v.visit_borrowed_str(text)
    }

    #[inline]
    fn seq<V: Visitor<'de>>(&mut self, v: V, len: usize) -> Result<V::Value, Miss> {
        self.nested(|de| {
            let mut seq = Items { de, left: len };
            let value = v.visit_seq(&mut seq)?;
            match seq.left {
                0 => Ok(value),
                _ => Err(Miss),
            }
        })
    }

    #[inline]
    fn map<V: Visitor<'de>>(&mut self, v: V, len: usize) -> Result<V::Value, Miss> {
        self.nested(|de| {
            let mut map = Items { de, left: len };
            let value = v.visit_map(&mut map)?;
            match map.left {
                0 => Ok(value),
                _ => Err(Miss),
            }
        })
    }

    #[inline(always)]
    fn nested<R>(&mut self, f: impl FnOnce(&mut Self) -> Result<R, Miss>) -> Result<R, Miss> {
        if self.depth >= MAX_DEPTH {
            return Err(Miss);
        }
        self.depth += 1;
        let read = f(self);
        self.depth -= 1;
        read
    }
}

/// The items of an array, or the pairs of a map, left to read.
struct Items<'a, 'de> {
    de: &'a mut Fast<'de>,
    left: usize,
}

impl<'de> de::SeqAccess<'de> for Items<'_, 'de> {
    type Error = Miss;

    #[inline]
    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Miss> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        seed.deserialize(&mut *self.de).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left)
    }
}

impl<'de> de::MapAccess<'de> for Items<'_, 'de> {
    type Error = Miss;

    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Miss> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        seed.deserialize(&mut *self.de).map(Some)
    }

    #[inline]
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Miss> {
        seed.deserialize(&mut *self.de)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left)
    }
}

/// Forwards each `deserialize_*` to [`Fast::any`], bytes allowed or not,
/// as `rmp-serde` does.
macro_rules! forward {
    ($allow:expr => $($name:ident)*) => {
        $(
            #[inline]
            fn $name<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Miss> {
                self.any(v, $allow)
            }
        )*
    };
}

/// Each `deserialize_*` of text: a short string (up to 31 bytes) read
/// here, anything else by [`Fast::any`] out of line.
macro_rules! texts {
    ($($name:ident)*) => {
        $(
            #[inline]
            fn $name<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Miss> {
                match self.rest.split_first() {
                    Some((&m @ 0xa0..=0xbf, rest)) => {
                        self.rest = rest;
                        self.str(v, usize::from(m & 0x1f))
                    }
                    _ => self.any_cold(v),
                }
            }
        )*
    };
}

/// Each `deserialize_*` of a number or a bool, by kind: `rmp-serde` reads
/// only numbers, bools (and nil) there, and fails on anything else. The
/// markers a value of the kind is usually written with are read in line,
/// each as `Fast::any` reads it; the rest by `Fast::any` out of line.
macro_rules! numbers {
    ($($kind:ident => $($name:ident)*;)*) => {
        $($(
            #[inline]
            fn $name<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Miss> {
                self.$kind(v)
            }
        )*)*
    };
}

impl<'de> Fast<'de> {
    /// A bool: `false` and `true` in line.
    #[inline(always)]
    fn boolean<V: Visitor<'de>>(&mut self, v: V) -> Result<V::Value, Miss> {
        match self.rest {
            [0xc2, rest @ ..] => {
                self.rest = rest;
                v.visit_bool(false)
            }
            [0xc3, rest @ ..] => {
                self.rest = rest;
                v.visit_bool(true)
            }
            _ => self.number_cold(v),
        }
    }

    /// A float: 32- and 64-bit ones and a small whole number in line.
    #[inline(always)]
    fn float<V: Visitor<'de>>(&mut self, v: V) -> Result<V::Value, Miss> {
        match *self.rest {
            [0xca, a, b, c, d, ref rest @ ..] => {
                self.rest = rest;
                v.visit_f32(f32::from_be_bytes([a, b, c, d]))
            }
            [0xcb, a, b, c, d, e, f, g, h, ref rest @ ..] => {
                self.rest = rest;
                v.visit_f64(f64::from_be_bytes([a, b, c, d, e, f, g, h]))
            }
            [m @ 0x00..=0x7f, ref rest @ ..] => {
                self.rest = rest;
                v.visit_u8(m)
            }
            _ => self.number_cold(v),
        }
    }

    /// An unsigned integer: up to 32 bits in line.
    #[inline(always)]
    fn uint<V: Visitor<'de>>(&mut self, v: V) -> Result<V::Value, Miss> {
        match *self.rest {
            [m @ 0x00..=0x7f, ref rest @ ..] => {
                self.rest = rest;
                v.visit_u8(m)
            }
            [0xcc, a, ref rest @ ..] => {
                self.rest = rest;
                v.visit_u8(a)
            }
            [0xcd, a, b, ref rest @ ..] => {
                self.rest = rest;
                v.visit_u16(u16::from_be_bytes([a, b]))
            }
            [0xce, a, b, c, d, ref rest @ ..] => {
                self.rest = rest;
                v.visit_u32(u32::from_be_bytes([a, b, c, d]))
            }
            _ => self.number_cold(v),
        }
    }

    /// A signed integer: negative ones up to 32 bits in line, and positive
    /// ones (written as unsigned) as [`Fast::uint`] reads them.
    #[inline(always)]
    fn int<V: Visitor<'de>>(&mut self, v: V) -> Result<V::Value, Miss> {
        match *self.rest {
            [m @ 0xe0..=0xff, ref rest @ ..] => {
                self.rest = rest;
                v.visit_i8(m as i8)
            }
            [0xd0, a, ref rest @ ..] => {
                self.rest = rest;
                v.visit_i8(a as i8)
            }
            [0xd1, a, b, ref rest @ ..] => {
                self.rest = rest;
                v.visit_i16(i16::from_be_bytes([a, b]))
            }
            [0xd2, a, b, c, d, ref rest @ ..] => {
                self.rest = rest;
                v.visit_i32(i32::from_be_bytes([a, b, c, d]))
            }
            _ => self.uint(v),
        }
    }

    /// A number or bool in a form not read in line: what `rmp-serde`
    /// accepts there goes to `Fast::any`, anything else to `rmp-serde`.
    #[inline(always)]
    fn number_cold<V: Visitor<'de>>(&mut self, v: V) -> Result<V::Value, Miss> {
        match self.rest.first() {
            Some(0xc0 | 0xc2 | 0xc3 | 0xca..=0xd3 | 0xe0..=0xff) => self.any_cold(v),
            _ => Err(Miss),
        }
    }
}

impl<'de> de::Deserializer<'de> for &mut Fast<'de> {
    type Error = Miss;

    forward!(true => deserialize_any deserialize_char deserialize_bytes deserialize_byte_buf
        deserialize_unit deserialize_map deserialize_identifier deserialize_ignored_any);
    texts!(deserialize_str deserialize_string);
    numbers!(
        boolean => deserialize_bool;
        float => deserialize_f32 deserialize_f64;
        uint => deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64;
        int => deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64;
    );

    #[inline]
    fn deserialize_seq<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Miss> {
        self.array_like(v)
    }

    #[inline]
    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Miss> {
        if self.rest.first() == Some(&0xc0) {
            self.rest = &self.rest[1..];
            v.visit_none()
        } else {
            v.visit_some(self)
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: V,
    ) -> Result<V::Value, Miss> {
        Err(Miss)
    }

    #[inline]
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        v: V,
    ) -> Result<V::Value, Miss> {
        // `rmp-serde`'s extension type goes to `rmp-serde`.
        if name == "_ExtStruct" {
            return Err(Miss);
        }
        v.visit_newtype_struct(self)
    }

    #[inline]
    fn deserialize_tuple<V: Visitor<'de>>(self, _: usize, v: V) -> Result<V::Value, Miss> {
        self.array_like(v)
    }

    #[inline]
    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: usize,
        v: V,
    ) -> Result<V::Value, Miss> {
        self.array_like(v)
    }

    #[inline]
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Miss> {
        self.array_like(v)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Miss> {
        Err(Miss)
    }

    fn is_human_readable(&self) -> bool {
        false
    }
}
