//! Storage: type-erased columns, split into one segment per table.
//!
//! `raw` is the crate's only module with `unsafe`; everything here and
//! above it is safe code over [`raw::BlobVec`].

mod column;
pub(crate) mod raw;
pub(crate) mod table;

pub(crate) use column::{Column, Row, Segment, DISABLED, SERIAL_MASK, STARTED};
pub use raw::ErasedType;
