//! The two save formats' plumbing: JSON written with a formatter that is
//! compact or pretty at run time (`json_out`), a guard that keeps
//! non-finite floats readable (`guard`), a small JSON reader for the
//! envelope (`json_in`; component data itself is read by serde_json), the
//! MessagePack envelope helpers (`mp`), and a fast reader and writer of
//! one value's MessagePack that fall back on `rmp-serde` (`mp_de`,
//! `mp_ser`).

mod guard;
mod json_in;
mod json_out;
pub(crate) mod mp;
pub(crate) mod mp_de;
pub(crate) mod mp_ser;

pub(crate) use guard::Guard;
pub(crate) use json_in::JsonIn;
pub(crate) use json_out::{Fmt, JsonOut};
