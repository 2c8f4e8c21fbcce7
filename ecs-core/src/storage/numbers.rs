//! Process-wide dense numbers for component types, so a world finds a
//! type's table entry with an array index instead of hashing its `TypeId`.
//!
//! The derive gives every non-generic component a `static` cache of its
//! number; generic components, which cannot have a per-instantiation
//! static, fall back to each world's `TypeId` map.

use std::any::TypeId;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{LazyLock, RwLock};

static NUMBERS: LazyLock<RwLock<HashMap<TypeId, u32>>> = LazyLock::new(Default::default);

/// The process-wide number of a type: dense, starting at 0, stable for the
/// life of the process.
pub(crate) fn number_of(id: TypeId) -> u32 {
    if let Some(&n) = NUMBERS.read().unwrap_or_else(|e| e.into_inner()).get(&id) {
        return n;
    }
    let mut map = NUMBERS.write().unwrap_or_else(|e| e.into_inner());
    let next = u32::try_from(map.len()).expect("fewer than 2^32 component types");
    *map.entry(id).or_insert(next)
}

/// A type's cached number; lives in a `static` the derive generates.
#[doc(hidden)]
pub struct TypeNumberCell(AtomicU32);

const UNSET: u32 = u32::MAX;

impl TypeNumberCell {
    /// An empty cache, as a constant: what each type's `static` starts as.
    /// Read as a constant rather than through `new`, since rustc evaluates
    /// every `const fn` call in a `static`'s initialiser once per type.
    #[allow(clippy::declare_interior_mutable_const)] // copied into statics only
    pub const EMPTY: TypeNumberCell = TypeNumberCell::new();

    /// An empty cache.
    #[allow(clippy::new_without_default)]
    pub const fn new() -> Self {
        TypeNumberCell(AtomicU32::new(UNSET))
    }

    /// The number of `T`, computed on first use.
    #[inline]
    pub fn get<T: 'static>(&self) -> u32 {
        let n = self.0.load(Ordering::Relaxed);
        if n != UNSET {
            return n;
        }
        let n = number_of(TypeId::of::<T>());
        self.0.store(n, Ordering::Relaxed);
        n
    }
}
