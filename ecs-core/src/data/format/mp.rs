//! The MessagePack pieces of the binary envelope (component data itself
//! goes through `mp_ser` and `mp_de`). The writers push the bytes `rmp`'s
//! would write (the smallest form of each length and number) straight
//! onto the `Vec`, and [`In`] reads every form `rmp`'s readers accept:
//! a save or load handles several per entity.

/// A length header: the fix form (`fix | len`) below `fix_end`, else the
/// 16-bit form (`m16`), else the 32-bit one (`m16 + 1`); `m8`, where the
/// kind has one, below 256.
#[inline(always)]
pub(crate) fn header(
    out: &mut Vec<u8>,
    len: usize,
    fix: u8,
    fix_end: usize,
    m8: Option<u8>,
    m16: u8,
) {
    if len < fix_end {
        out.push(fix | len as u8);
    } else if let (Some(m8), true) = (m8, len < 256) {
        out.extend_from_slice(&[m8, len as u8]);
    } else if len < 65536 {
        out.push(m16);
        out.extend_from_slice(&(len as u16).to_be_bytes());
    } else {
        out.push(m16 + 1);
        out.extend_from_slice(&(len as u32).to_be_bytes());
    }
}

#[inline]
pub fn array(out: &mut Vec<u8>, len: usize) {
    header(out, len, 0x90, 16, None, 0xdc);
}

#[inline]
pub fn string(out: &mut Vec<u8>, s: &str) {
    header(out, s.len(), 0xa0, 32, Some(0xd9), 0xda);
    out.extend_from_slice(s.as_bytes());
}

/// A number: the one-byte form inline (a save writes several small ones
/// per entity: name index, flags, layers, type codes), wider ones out of
/// line.
#[inline(always)]
pub fn uint(out: &mut Vec<u8>, n: u64) {
    match n {
        0..=0x7f => out.push(n as u8),
        _ => wide_uint(out, n),
    }
}

#[inline(never)]
fn wide_uint(out: &mut Vec<u8>, n: u64) {
    match n {
        0..=0x7f => out.push(n as u8),
        0x80..=0xff => out.extend_from_slice(&[0xcc, n as u8]),
        0x100..=0xffff => {
            out.push(0xcd);
            out.extend_from_slice(&(n as u16).to_be_bytes());
        }
        0x1_0000..=0xffff_ffff => {
            out.push(0xce);
            out.extend_from_slice(&(n as u32).to_be_bytes());
        }
        _ => {
            out.push(0xcf);
            out.extend_from_slice(&n.to_be_bytes());
        }
    }
}

#[inline]
pub fn nil(out: &mut Vec<u8>) {
    out.push(0xc0);
}

/// Starts a `bin 32` whose length is patched by [`end_bin`].
#[inline]
pub fn begin_bin(out: &mut Vec<u8>) -> usize {
    out.push(0xc6);
    out.extend_from_slice(&[0; 4]);
    out.len()
}

#[inline]
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

    #[cold]
    fn fail<T>(&self, what: &str) -> Result<T, String> {
        Err(format!("expected {what} at byte {}", self.offset()))
    }

    // The readers decode the few forms an envelope holds by hand, as the
    // writers above encode them: small enough to inline into a load's
    // per-entity loop in any build, where a call into `rmp`'s generic
    // readers is inlined or not as the code is split into units.

    /// The next byte.
    #[inline(always)]
    fn marker(&mut self) -> Option<u8> {
        let (&marker, rest) = self.rest.split_first()?;
        self.rest = rest;
        Some(marker)
    }

    /// The next `N` bytes.
    #[inline(always)]
    fn bytes<const N: usize>(&mut self) -> Option<[u8; N]> {
        let (head, rest) = self.rest.split_first_chunk::<N>()?;
        self.rest = rest;
        Some(*head)
    }

    /// A length after a header: `fix`'s marker (whose low bits below its
    /// limit hold the length), or one of `wide`'s markers for an 8-, 16-
    /// or 32-bit length.
    #[inline(always)]
    fn length(&mut self, fix: Option<(u8, u8)>, wide: [Option<u8>; 3]) -> Option<usize> {
        let marker = self.marker()?;
        if let Some((fix, limit)) = fix
            && marker & !(limit - 1) == fix
        {
            return Some(usize::from(marker & (limit - 1)));
        }
        let [m8, m16, m32] = wide;
        match Some(marker) {
            m if m == m8 => self.bytes().map(|b| usize::from(u8::from_be_bytes(b))),
            m if m == m16 => self.bytes().map(|b| usize::from(u16::from_be_bytes(b))),
            m if m == m32 => self.bytes().map(|b| u32::from_be_bytes(b) as usize),
            _ => None,
        }
    }

    /// A non-negative integer in any of MessagePack's integer forms.
    #[inline(always)]
    fn integer(&mut self) -> Option<u64> {
        Some(match self.marker()? {
            m @ 0x00..=0x7f => u64::from(m),
            0xcc => u64::from(u8::from_be_bytes(self.bytes()?)),
            0xcd => u64::from(u16::from_be_bytes(self.bytes()?)),
            0xce => u64::from(u32::from_be_bytes(self.bytes()?)),
            0xcf => u64::from_be_bytes(self.bytes()?),
            0xd0 => u64::try_from(i8::from_be_bytes(self.bytes()?)).ok()?,
            0xd1 => u64::try_from(i16::from_be_bytes(self.bytes()?)).ok()?,
            0xd2 => u64::try_from(i32::from_be_bytes(self.bytes()?)).ok()?,
            0xd3 => u64::try_from(i64::from_be_bytes(self.bytes()?)).ok()?,
            _ => return None,
        })
    }

    /// What `read` reads, or an error naming `what` at the byte where it
    /// was expected (nothing consumed).
    #[inline(always)]
    fn expect<T>(
        &mut self,
        what: &str,
        read: impl FnOnce(&mut Self) -> Option<T>,
    ) -> Result<T, String> {
        let start = self.rest;
        match read(self) {
            Some(value) => Ok(value),
            None => {
                self.rest = start;
                self.fail(what)
            }
        }
    }

    #[inline]
    pub fn array(&mut self, what: &str) -> Result<usize, String> {
        self.expect(what, |r| {
            r.length(Some((0x90, 16)), [None, Some(0xdc), Some(0xdd)])
        })
    }

    pub fn string(&mut self, what: &str) -> Result<&'a str, String> {
        let at = self.offset();
        let text = self.sized(what, |r| {
            r.length(Some((0xa0, 32)), [Some(0xd9), Some(0xda), Some(0xdb)])
        })?;
        std::str::from_utf8(text).map_err(|_| format!("{what} at byte {at} is not UTF-8"))
    }

    #[inline]
    pub fn uint(&mut self, what: &str) -> Result<u64, String> {
        self.expect(what, Self::integer)
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
    #[inline]
    pub fn bin(&mut self, what: &str) -> Result<&'a [u8], String> {
        self.sized(what, |r| {
            r.length(None, [Some(0xc4), Some(0xc5), Some(0xc6)])
        })
    }

    /// The bytes after a length header that `read_len` reads (a `str`'s
    /// or a `bin`'s).
    #[inline(always)]
    fn sized(
        &mut self,
        what: &str,
        read_len: impl FnOnce(&mut Self) -> Option<usize>,
    ) -> Result<&'a [u8], String> {
        let at = self.offset();
        let len = self.expect(what, read_len)?;
        let Some((data, rest)) = self.rest.split_at_checked(len) else {
            return Err(format!("{what} at byte {at} runs past the end"));
        };
        self.rest = rest;
        Ok(data)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every width the writers choose reads back, and `rmp` agrees on
    /// the bytes.
    #[test]
    fn each_form_reads_back_what_is_written() {
        for n in [
            0,
            0x7f,
            0x80,
            0xff,
            0x100,
            0xffff,
            0x1_0000,
            u32::MAX.into(),
            u64::MAX,
        ] {
            let mut out = Vec::new();
            uint(&mut out, n);
            let mut theirs = Vec::new();
            rmp::encode::write_uint(&mut theirs, n).unwrap();
            assert_eq!(out, theirs, "{n}");
            let mut r = In::new(&out);
            assert_eq!(r.uint("n"), Ok(n));
            assert!(r.rest.is_empty());
        }
        for len in [0, 15, 16, 31, 32, 255, 256, 65_535, 65_536] {
            let text = "x".repeat(len);
            let mut out = Vec::new();
            array(&mut out, len);
            string(&mut out, &text);
            let start = begin_bin(&mut out);
            out.extend_from_slice(text.as_bytes());
            end_bin(&mut out, start);
            let mut r = In::new(&out);
            assert_eq!(r.array("a"), Ok(len));
            assert_eq!(r.string("s"), Ok(text.as_str()));
            assert_eq!(r.bin("b"), Ok(text.as_bytes()));
            assert!(r.rest.is_empty());
        }
    }

    /// Signed forms holding a non-negative number are numbers too (other
    /// writers use them); the rest is refused where it starts, nothing
    /// consumed.
    #[test]
    fn wrong_forms_are_refused_where_they_start() {
        assert_eq!(In::new(&[0xd0, 5]).uint("n"), Ok(5));
        assert_eq!(In::new(&[0xd3, 0, 0, 0, 0, 0, 0, 1, 0]).uint("n"), Ok(256));
        for bytes in [&[0xff][..], &[0xd0, 0xfb], &[0xc0], &[0xcd, 1], &[]] {
            let mut r = In::new(bytes);
            assert_eq!(
                r.uint("a number"),
                Err("expected a number at byte 0".into())
            );
            assert_eq!(r.rest, bytes);
        }
        assert!(In::new(&[0xff]).bin("b").is_err());
        assert!(In::new(&[0xa1]).array("a").is_err());
        assert_eq!(
            In::new(&[0xc4, 3, 1]).bin("a value"),
            Err("a value at byte 0 runs past the end".into())
        );
        assert_eq!(
            In::new(&[0xa2, 0xff, 0xfe]).string("a name"),
            Err("a name at byte 0 is not UTF-8".into())
        );
    }
}
