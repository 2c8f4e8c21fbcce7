//! JSON written with a formatter that is compact or pretty at run time:
//! one serializer type, so one copy of each component's `Serialize` per
//! format.

use std::io;

use serde::ser::Serializer;
use serde_json::ser::Formatter;

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

    #[inline]
    pub fn begin_object(&mut self) {
        let _ = self.fmt.begin_object(&mut self.out);
    }

    #[inline]
    pub fn end_object(&mut self) {
        let _ = self.fmt.end_object(&mut self.out);
    }

    #[inline]
    pub fn begin_array(&mut self) {
        let _ = self.fmt.begin_array(&mut self.out);
    }

    #[inline]
    pub fn end_array(&mut self) {
        let _ = self.fmt.end_array(&mut self.out);
    }

    /// Starts the value of `key` (a plain ASCII identifier).
    #[inline]
    pub fn key(&mut self, key: &str, first: bool) {
        let _ = self.fmt.begin_object_key(&mut self.out, first);
        self.out.push(b'"');
        self.out.extend_from_slice(key.as_bytes());
        self.out.push(b'"');
        let _ = self.fmt.begin_object_value(&mut self.out);
    }

    /// Ends the value of a key.
    #[inline]
    pub fn end_value(&mut self) {
        self.fmt.has_value = true;
    }

    #[inline]
    pub fn item(&mut self, first: bool) {
        let _ = self.fmt.begin_array_value(&mut self.out, first);
    }

    #[inline]
    pub fn end_item(&mut self) {
        self.fmt.has_value = true;
    }

    #[inline]
    pub fn string(&mut self, s: &str) {
        let mut ser = serde_json::Serializer::new(&mut self.out);
        let _ = ser.serialize_str(s);
    }

    /// A number, through serde_json's integer writer (`write!` goes
    /// through the formatting machinery: several times the instructions,
    /// and branches the processor mispredicts, for a save's many ids).
    #[inline]
    pub fn u64(&mut self, n: u64) {
        let mut ser = serde_json::Serializer::new(&mut self.out);
        let _ = ser.serialize_u64(n);
    }

    #[inline]
    pub fn bool(&mut self, b: bool) {
        self.out
            .extend_from_slice(if b { b"true" } else { b"false" });
    }

    /// A serializer writing at the envelope's current depth.
    #[inline]
    pub fn data_fmt(&self) -> Fmt {
        Fmt::new(self.fmt.pretty, self.fmt.indent)
    }
}

// ------------------------------------------------------------ float guard
