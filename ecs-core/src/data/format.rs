//! The two save formats' plumbing: JSON written with a formatter that is
//! compact or pretty at run time (one serializer type, so one copy of each
//! component's `Serialize` per format), a guard that keeps non-finite floats
//! readable, a small JSON reader for the envelope (component data itself is
//! read by serde_json), and the MessagePack envelope helpers.

use std::borrow::Cow;
use std::io;

use serde::ser::{self, Serialize, Serializer};
use serde_json::ser::Formatter;

// ------------------------------------------------------------------ JSON out

/// serde_json's compact output, or its pretty output (two-space indent)
/// starting at a given depth: decided at run time, so component data
/// written inside a pretty envelope lines up with it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fmt {
    pub pretty: bool,
    pub indent: usize,
    has_value: bool,
}

impl Fmt {
    pub fn new(pretty: bool, indent: usize) -> Self {
        Fmt {
            pretty,
            indent,
            has_value: false,
        }
    }

    fn newline<W: ?Sized + io::Write>(&self, w: &mut W) -> io::Result<()> {
        w.write_all(b"\n")?;
        for _ in 0..self.indent {
            w.write_all(b"  ")?;
        }
        Ok(())
    }
}

impl Formatter for Fmt {
    #[inline]
    fn begin_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.indent += 1;
        self.has_value = false;
        w.write_all(b"[")
    }

    #[inline]
    fn end_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.indent -= 1;
        if self.pretty && self.has_value {
            self.newline(w)?;
        }
        w.write_all(b"]")
    }

    #[inline]
    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        if !first {
            w.write_all(b",")?;
        }
        if self.pretty {
            self.newline(w)?;
        }
        Ok(())
    }

    #[inline]
    fn end_array_value<W: ?Sized + io::Write>(&mut self, _w: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    #[inline]
    fn begin_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.indent += 1;
        self.has_value = false;
        w.write_all(b"{")
    }

    #[inline]
    fn end_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.indent -= 1;
        if self.pretty && self.has_value {
            self.newline(w)?;
        }
        w.write_all(b"}")
    }

    #[inline]
    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.begin_array_value(w, first)
    }

    #[inline]
    fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(if self.pretty { b": " } else { b":" })
    }

    #[inline]
    fn end_object_value<W: ?Sized + io::Write>(&mut self, _w: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

/// Hand-written JSON for the envelope around component data, sharing the
/// formatter's layout.
pub(crate) struct JsonOut {
    pub out: Vec<u8>,
    pub fmt: Fmt,
}

impl JsonOut {
    pub fn new(pretty: bool, capacity: usize) -> Self {
        JsonOut {
            out: Vec::with_capacity(capacity),
            fmt: Fmt::new(pretty, 0),
        }
    }

    pub fn begin_object(&mut self) {
        let _ = self.fmt.begin_object(&mut self.out);
    }

    pub fn end_object(&mut self) {
        let _ = self.fmt.end_object(&mut self.out);
    }

    pub fn begin_array(&mut self) {
        let _ = self.fmt.begin_array(&mut self.out);
    }

    pub fn end_array(&mut self) {
        let _ = self.fmt.end_array(&mut self.out);
    }

    /// Starts the value of `key` (a plain ASCII identifier).
    pub fn key(&mut self, key: &str, first: bool) {
        let _ = self.fmt.begin_object_key(&mut self.out, first);
        self.out.push(b'"');
        self.out.extend_from_slice(key.as_bytes());
        self.out.push(b'"');
        let _ = self.fmt.begin_object_value(&mut self.out);
    }

    /// Ends the value of a key.
    pub fn end_value(&mut self) {
        self.fmt.has_value = true;
    }

    pub fn item(&mut self, first: bool) {
        let _ = self.fmt.begin_array_value(&mut self.out, first);
    }

    pub fn end_item(&mut self) {
        self.fmt.has_value = true;
    }

    pub fn string(&mut self, s: &str) {
        let mut ser = serde_json::Serializer::new(&mut self.out);
        let _ = ser.serialize_str(s);
    }

    pub fn u64(&mut self, n: u64) {
        use std::io::Write;
        let _ = write!(self.out, "{n}");
    }

    pub fn bool(&mut self, b: bool) {
        self.out
            .extend_from_slice(if b { b"true" } else { b"false" });
    }

    /// A serializer writing at the envelope's current depth.
    pub fn data_fmt(&self) -> Fmt {
        Fmt::new(self.fmt.pretty, self.fmt.indent)
    }
}

// ------------------------------------------------------------ float guard

/// What JSON cannot hold: NaN, and infinity of an `f64`. An `f32`
/// infinity is written as `±1e+39`, which reads back as an `f32` infinity
/// (and is what a too-large number in a file reads as), so a loaded world
/// always saves again.
pub(crate) const NOT_JSON: &str = "cannot be written as JSON";

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

// ------------------------------------------------------------------ JSON in

/// A cursor over JSON text for the envelope of a saved world: objects,
/// arrays, strings, integers, booleans and `null`, with positions for
/// messages. Component data is handed to serde_json where it starts.
pub(crate) struct JsonIn<'a> {
    pub bytes: &'a [u8],
    pub pos: usize,
}

/// Deepest nesting [`JsonIn::skip_value`] walks.
const SKIP_DEPTH: usize = 128;

impl<'a> JsonIn<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        JsonIn { bytes, pos: 0 }
    }

    /// `line L column C` of byte `pos`, for messages.
    pub fn where_(&self, pos: usize) -> String {
        let upto = &self.bytes[..pos.min(self.bytes.len())];
        let line = upto.iter().filter(|&&b| b == b'\n').count() + 1;
        let column = upto.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
        format!("line {line} column {column}")
    }

    fn fail<T>(&self, what: &str) -> Result<T, String> {
        let found = match self.bytes.get(self.pos) {
            None => "the end of the input".to_owned(),
            Some(b) if b.is_ascii_graphic() => format!("`{}`", *b as char),
            Some(b) => format!("byte 0x{b:02x}"),
        };
        Err(format!(
            "expected {what}, found {found} at {}",
            self.where_(self.pos)
        ))
    }

    #[inline]
    pub fn ws(&mut self) {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.bytes.get(self.pos) {
            self.pos += 1;
        }
    }

    #[inline]
    pub fn peek(&mut self) -> Option<u8> {
        self.ws();
        self.bytes.get(self.pos).copied()
    }

    fn eat(&mut self, b: u8, what: &str) -> Result<(), String> {
        if self.peek() == Some(b) {
            self.pos += 1;
            Ok(())
        } else {
            self.fail(what)
        }
    }

    pub fn begin_object(&mut self) -> Result<(), String> {
        self.eat(b'{', "an object")
    }

    pub fn begin_array(&mut self) -> Result<(), String> {
        self.eat(b'[', "an array")
    }

    /// The next key of an object, or `None` at its end: its raw bytes
    /// when it holds no escape (the keys this format knows are ASCII),
    /// else decoded.
    pub fn next_key(&mut self, first: &mut bool) -> Result<Option<Cow<'a, [u8]>>, String> {
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(None);
        }
        if !std::mem::take(first) {
            self.eat(b',', "`,` or `}`")?;
        }
        if self.peek() != Some(b'"') {
            return self.fail("a key in quotes");
        }
        let key = match self.raw_string()? {
            Ok(raw) => Cow::Borrowed(raw),
            Err(_) => Cow::Owned(self.string()?.into_owned().into_bytes()),
        };
        self.eat(b':', "`:`")?;
        Ok(Some(key))
    }

    /// The bytes of a string without escapes (not checked as UTF-8), or
    /// `Err(start)` when it has escapes (the cursor is left at its start).
    fn raw_string(&mut self) -> Result<Result<&'a [u8], usize>, String> {
        let start = self.pos;
        let body = &self.bytes[start + 1..];
        match body
            .iter()
            .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
        {
            Some(end) if body[end] == b'"' => {
                self.pos = start + 1 + end + 1;
                Ok(Ok(&body[..end]))
            }
            Some(end) if body[end] == b'\\' => {
                // The caller reads it with escapes.
                self.pos = start;
                Ok(Err(start))
            }
            Some(end) => {
                self.pos = start + 1 + end;
                self.fail("a string without control characters")
            }
            None => {
                self.pos = self.bytes.len();
                self.fail("the end of the string")
            }
        }
    }

    /// A string's raw bytes when it has no escapes, else decoded; for
    /// names looked up by bytes.
    pub fn string_bytes(&mut self) -> Result<Cow<'a, [u8]>, String> {
        if self.peek() != Some(b'"') {
            return self.fail("a string");
        }
        match self.raw_string()? {
            Ok(raw) => Ok(Cow::Borrowed(raw)),
            Err(_) => Ok(Cow::Owned(self.string()?.into_owned().into_bytes())),
        }
    }

    /// Whether an array has one more item (and moves to it).
    pub fn next_item(&mut self, first: &mut bool) -> Result<bool, String> {
        if self.peek() == Some(b']') {
            self.pos += 1;
            return Ok(false);
        }
        if !std::mem::take(first) {
            self.eat(b',', "`,` or `]`")?;
        }
        Ok(true)
    }

    pub fn string(&mut self) -> Result<Cow<'a, str>, String> {
        if self.peek() != Some(b'"') {
            return self.fail("a string");
        }
        let start = self.pos;
        if let Ok(raw) = self.raw_string()? {
            return std::str::from_utf8(raw)
                .map(Cow::Borrowed)
                .map_err(|_| format!("a string that is not UTF-8 at {}", self.where_(start)));
        }
        // Escaped: find the closing quote, then let serde_json decode.
        let mut i = start + 1;
        loop {
            match self.bytes.get(i) {
                None => {
                    self.pos = i;
                    return self.fail("the end of the string");
                }
                Some(b'"') => break,
                Some(b'\\') => i += 2,
                Some(_) => i += 1,
            }
        }
        let text = serde_json::from_slice::<String>(&self.bytes[start..=i])
            .map_err(|e| format!("a bad string at {}: {e}", self.where_(start)))?;
        self.pos = i + 1;
        Ok(Cow::Owned(text))
    }

    pub fn u64(&mut self, what: &str) -> Result<u64, String> {
        self.ws();
        let start = self.pos;
        let mut n: u64 = 0;
        while let Some(&b @ b'0'..=b'9') = self.bytes.get(self.pos) {
            n = match n
                .checked_mul(10)
                .and_then(|n| n.checked_add(u64::from(b - b'0')))
            {
                Some(n) => n,
                None => {
                    self.pos = start;
                    return self.fail(what);
                }
            };
            self.pos += 1;
        }
        let digits = self.pos - start;
        let ends = !matches!(
            self.bytes.get(self.pos),
            Some(b'.' | b'e' | b'E' | b'0'..=b'9')
        );
        if digits == 0 || !ends || (digits > 1 && self.bytes[start] == b'0') {
            self.pos = start;
            return self.fail(what);
        }
        Ok(n)
    }

    pub fn bool(&mut self) -> Result<bool, String> {
        self.ws();
        let rest = &self.bytes[self.pos..];
        if rest.starts_with(b"true") {
            self.pos += 4;
            Ok(true)
        } else if rest.starts_with(b"false") {
            self.pos += 5;
            Ok(false)
        } else {
            self.fail("true or false")
        }
    }

    /// Consumes a `null` if one comes next.
    pub fn null(&mut self) -> bool {
        self.ws();
        if self.bytes[self.pos..].starts_with(b"null") {
            self.pos += 4;
            true
        } else {
            false
        }
    }

    /// The input from the cursor on.
    pub fn rest(&mut self) -> &'a [u8] {
        self.ws();
        &self.bytes[self.pos..]
    }

    /// Moves past a string, escapes and all, without decoding it or
    /// checking its UTF-8 (whoever reads the value checks it).
    fn skip_string(&mut self) -> Result<(), String> {
        let mut i = self.pos + 1;
        loop {
            match self.bytes[i..]
                .iter()
                .position(|&b| b == b'"' || b == b'\\')
            {
                Some(at) if self.bytes[i + at] == b'"' => {
                    self.pos = i + at + 1;
                    return Ok(());
                }
                Some(at) => i += at + 2,
                None => {
                    self.pos = self.bytes.len();
                    return self.fail("the end of the string");
                }
            }
            if i > self.bytes.len() {
                self.pos = self.bytes.len();
                return self.fail("the end of the string");
            }
        }
    }

    /// A key and its `:` while skipping.
    fn key_in_skip(&mut self) -> Result<(), String> {
        if self.peek() != Some(b'"') {
            return self.fail("a key in quotes");
        }
        self.skip_string()?;
        self.eat(b':', "`:`")
    }

    /// Moves past one value of any kind, checking only its structure (a
    /// number's digits are not checked: the value is read again later).
    pub fn skip_value(&mut self) -> Result<(), String> {
        // Open containers: `true` for an object.
        let mut open: Vec<bool> = Vec::new();
        loop {
            match self.peek() {
                Some(c @ (b'{' | b'[')) => {
                    if open.len() >= SKIP_DEPTH {
                        return self.fail(&format!("nesting no deeper than {SKIP_DEPTH}"));
                    }
                    self.pos += 1;
                    let object = c == b'{';
                    if self.peek() == Some(if object { b'}' } else { b']' }) {
                        self.pos += 1;
                    } else {
                        open.push(object);
                        if object {
                            self.key_in_skip()?;
                        }
                        continue;
                    }
                }
                Some(b'"') => self.skip_string()?,
                Some(b't' | b'f') => {
                    self.bool()?;
                }
                Some(b'n') => {
                    if !self.null() {
                        return self.fail("a value");
                    }
                }
                Some(b'-' | b'0'..=b'9') => {
                    // Only the extent: whoever reads the value checks it.
                    while let Some(b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9') =
                        self.bytes.get(self.pos)
                    {
                        self.pos += 1;
                    }
                }
                _ => return self.fail("a value"),
            }
            // After a value: close containers, or move to the next item.
            loop {
                let Some(&object) = open.last() else {
                    return Ok(());
                };
                match self.peek() {
                    Some(b',') => {
                        self.pos += 1;
                        if object {
                            self.key_in_skip()?;
                        }
                        break;
                    }
                    Some(b'}') if object => {
                        self.pos += 1;
                        open.pop();
                    }
                    Some(b']') if !object => {
                        self.pos += 1;
                        open.pop();
                    }
                    _ => return self.fail("`,` or the end of a container"),
                }
            }
        }
    }
}

// ------------------------------------------------------------ MessagePack

/// The MessagePack pieces of the binary envelope.
pub(crate) mod mp {
    use rmp::encode;

    pub fn array(out: &mut Vec<u8>, len: usize) {
        let _ = encode::write_array_len(out, len as u32);
    }

    pub fn string(out: &mut Vec<u8>, s: &str) {
        let _ = encode::write_str(out, s);
    }

    pub fn uint(out: &mut Vec<u8>, n: u64) {
        let _ = encode::write_uint(out, n);
    }

    pub fn nil(out: &mut Vec<u8>) {
        let _ = encode::write_nil(out);
    }

    /// Starts a `bin 32` whose length is patched by [`end_bin`].
    pub fn begin_bin(out: &mut Vec<u8>) -> usize {
        out.push(0xc6);
        out.extend_from_slice(&[0; 4]);
        out.len()
    }

    pub fn end_bin(out: &mut [u8], start: usize) {
        let len = (out.len() - start) as u32;
        out[start - 4..start].copy_from_slice(&len.to_be_bytes());
    }

    /// A cursor over a MessagePack envelope.
    pub struct In<'a> {
        pub rest: &'a [u8],
        pub total: usize,
    }

    impl<'a> In<'a> {
        pub fn new(bytes: &'a [u8]) -> Self {
            In {
                rest: bytes,
                total: bytes.len(),
            }
        }

        pub fn offset(&self) -> usize {
            self.total - self.rest.len()
        }

        fn fail<T>(&self, what: &str) -> Result<T, String> {
            Err(format!("expected {what} at byte {}", self.offset()))
        }

        /// Runs one of `rmp`'s readers on the rest: through its slice
        /// reader, which does without `std::io`'s error machinery (a load
        /// reads several headers per entity).
        #[inline]
        fn read<T, E>(
            &mut self,
            f: impl FnOnce(&mut rmp::decode::Bytes<'a>) -> Result<T, E>,
        ) -> Result<T, E> {
            let mut bytes = rmp::decode::Bytes::new(self.rest);
            let read = f(&mut bytes);
            self.rest = bytes.remaining_slice();
            read
        }

        pub fn array(&mut self, what: &str) -> Result<usize, String> {
            match self.read(rmp::decode::read_array_len) {
                Ok(n) => Ok(n as usize),
                Err(_) => self.fail(what),
            }
        }

        pub fn string(&mut self, what: &str) -> Result<&'a str, String> {
            let at = self.offset();
            let len = match self.read(rmp::decode::read_str_len) {
                Ok(n) => n as usize,
                Err(_) => return self.fail(what),
            };
            if len > self.rest.len() {
                return Err(format!("{what} at byte {at} runs past the end"));
            }
            let (text, rest) = self.rest.split_at(len);
            self.rest = rest;
            std::str::from_utf8(text).map_err(|_| format!("{what} at byte {at} is not UTF-8"))
        }

        pub fn uint(&mut self, what: &str) -> Result<u64, String> {
            match self.read(rmp::decode::read_int::<u64, _>) {
                Ok(n) => Ok(n),
                Err(_) => self.fail(what),
            }
        }

        /// Consumes a nil if one comes next.
        pub fn nil(&mut self) -> bool {
            if self.rest.first() == Some(&0xc0) {
                self.rest = &self.rest[1..];
                true
            } else {
                false
            }
        }

        /// The bytes of a `bin`.
        pub fn bin(&mut self, what: &str) -> Result<&'a [u8], String> {
            let at = self.offset();
            let len = match self.read(rmp::decode::read_bin_len) {
                Ok(n) => n as usize,
                Err(_) => return self.fail(what),
            };
            if len > self.rest.len() {
                return Err(format!("{what} at byte {at} runs past the end"));
            }
            let (data, rest) = self.rest.split_at(len);
            self.rest = rest;
            Ok(data)
        }
    }
}
