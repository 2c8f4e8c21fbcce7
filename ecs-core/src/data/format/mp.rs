//! The MessagePack pieces of the binary envelope (component data itself
//! goes through `mp_ser` and `mp_de`). The writers push the bytes `rmp`'s
//! would write (the smallest form of each length and number) straight
//! onto the `Vec`: a save writes several per entity.

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

#[inline]
pub fn uint(out: &mut Vec<u8>, n: u64) {
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
        let text = self.sized(what, rmp::decode::read_str_len)?;
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
        self.sized(what, rmp::decode::read_bin_len)
    }

    /// The bytes after a length header that `read_len` reads (a `str`'s
    /// or a `bin`'s).
    #[inline]
    fn sized<E>(
        &mut self,
        what: &str,
        read_len: impl FnOnce(&mut rmp::decode::Bytes<'a>) -> Result<u32, E>,
    ) -> Result<&'a [u8], String> {
        let at = self.offset();
        let len = match self.read(read_len) {
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
