//! The two save formats' plumbing: JSON written with a formatter that is
//! compact or pretty at run time (`json_out`), a guard that keeps
//! non-finite floats readable (`guard`), a small JSON reader for the
//! envelope (`json_in`; component data itself is read by serde_json), and
//! the MessagePack envelope helpers (`mp`).

mod guard;
mod json_in;
mod json_out;
pub(crate) mod mp;

pub(crate) use guard::Guard;
pub(crate) use json_in::JsonIn;
pub(crate) use json_out::{Fmt, JsonOut};
