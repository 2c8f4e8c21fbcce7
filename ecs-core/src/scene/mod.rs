//! The scene layer: the parent/child hierarchy, entity names, and searches
//! over the tree. Its `World` methods are all in `api.rs`.

mod api;
pub(crate) mod hierarchy;
pub(crate) mod names;
pub(crate) mod search;
pub(crate) mod spawn;
