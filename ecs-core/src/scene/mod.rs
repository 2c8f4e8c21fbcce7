//! The scene layer: the parent/child hierarchy, entity names, and searches
//! over the tree. Its `World` methods are all in `api.rs`.

mod api;
pub(crate) mod hierarchy;
pub(crate) mod names;
pub(crate) mod search;
pub(crate) mod spawn;

/// A small seeded generator for the model tests of this layer's stores:
/// each call gives a number below `n`, the same sequence for one seed.
#[cfg(test)]
pub(crate) fn numbers_below(mut seed: u64) -> impl FnMut(usize) -> usize {
    move |n| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    }
}
