//! Storage: the memory under every component. `raw` is the crate's only
//! module with `unsafe` (type-erased arrays, a type's memory facts, the
//! link-time catalog's section); `numbers` gives every component type a
//! dense process-wide number. Nothing here knows what a component is
//! beyond its memory: the layers above name types by [`ErasedType`] and
//! by number.

pub(crate) mod numbers;
pub(crate) mod raw;

pub use raw::ErasedType;
