//! The MessagePack pieces of the binary envelope: component data itself
//! goes through `rmp-serde`.

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
