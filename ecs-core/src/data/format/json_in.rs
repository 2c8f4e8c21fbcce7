//! A small JSON reader for the envelope of a saved world; component data
//! itself is read by serde_json.

use std::borrow::Cow;

/// A cursor over JSON text for the envelope of a saved world: objects,
/// arrays, strings, integers, booleans and `null`, with positions for
/// messages. Component data is handed to serde_json where it starts.
pub(crate) struct JsonIn<'a> {
    pub bytes: &'a [u8],
    pub pos: usize,
}

/// The bytes a string's raw run stops at: `"`, `\\` and the control
/// characters (one load per byte, not three comparisons).
static ENDS_RAW: [bool; 256] = {
    let mut ends = [false; 256];
    let mut b = 0;
    while b < 0x20 {
        ends[b] = true;
        b += 1;
    }
    ends[b'"' as usize] = true;
    ends[b'\\' as usize] = true;
    ends
};

/// Deepest nesting [`JsonIn::skip_value`] walks.
const SKIP_DEPTH: usize = 128;

/// The containers a skip is inside, innermost last, `true` for an object:
/// one bit each, [`SKIP_DEPTH`] at most, so that skipping allocates
/// nothing (a JSON load skips every component's data once).
#[derive(Default)]
struct OpenStack {
    bits: u128,
    len: usize,
}

impl OpenStack {
    #[inline]
    fn len(&self) -> usize {
        self.len
    }

    #[inline]
    fn push(&mut self, object: bool) {
        debug_assert!(self.len < SKIP_DEPTH, "checked by the caller");
        self.bits = self.bits << 1 | u128::from(object);
        self.len += 1;
    }

    #[inline]
    fn last(&self) -> Option<bool> {
        (self.len > 0).then_some(self.bits & 1 == 1)
    }

    #[inline]
    fn pop(&mut self) {
        self.bits >>= 1;
        self.len -= 1;
    }
}

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
        // Compact JSON has none: one comparison says so.
        if self.bytes.get(self.pos).is_some_and(|&b| b > b' ') {
            return;
        }
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
    #[inline]
    fn raw_string(&mut self) -> Result<Result<&'a [u8], usize>, String> {
        let start = self.pos;
        let body = &self.bytes[start + 1..];
        match body.iter().position(|&b| ENDS_RAW[usize::from(b)]) {
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
        let mut open = OpenStack::default();
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
                let Some(object) = open.last() else {
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
