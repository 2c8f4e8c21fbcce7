//! The type registry: every component type a world has seen, numbered
//! densely, with its is-a sets as bit sets so the is-a rule is one bit test.

use std::any::TypeId;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::component::ops::ComponentOps;
use crate::component::ComponentVTable;
use crate::entity::TypeIdx;
use crate::table::Meta;
use crate::{Component, ComponentKey};

/// Everything a world knows about one component type.
#[derive(Clone)]
pub(crate) struct TypeInfo {
    key: ComponentKey,
    multiple: bool,
    /// Strict ancestors, nearest first.
    ancestors: Box<[TypeIdx]>,
    /// Bit `t` is set when this type is-a type `t` (itself included).
    is_a_bits: Box<[u64]>,
    /// The serial the next component of exactly this type gets (wrapped
    /// into the serial bits by [`Meta::fresh`]).
    next_serial: u32,
    /// The type's own description, once the type itself (not only a type
    /// derived from it) has been registered.
    vtable: Option<&'static ComponentVTable>,
    /// Whether adding one also adds required components.
    has_requirements: bool,
}

impl TypeInfo {
    /// The type's key (its name and `TypeId`).
    pub fn key(&self) -> ComponentKey {
        self.key
    }

    /// Strict ancestors, nearest first.
    pub fn ancestors(&self) -> &[TypeIdx] {
        &self.ancestors
    }

    /// The is-a set: bit `t` is set when this type is-a type `t`.
    pub fn is_a_bits(&self) -> &[u64] {
        &self.is_a_bits
    }

    /// `true` when this type (index `own`) is `other` or derives from it:
    /// one bit test, since this check runs for every component an is-a
    /// lookup scans.
    #[inline]
    pub fn is_a(&self, own: TypeIdx, other: TypeIdx) -> bool {
        own == other || has_bit(&self.is_a_bits, other)
    }

    /// The type's own description; `None` while only a type derived from it
    /// has been registered.
    #[inline]
    pub fn vtable(&self) -> Option<&'static ComponentVTable> {
        self.vtable
    }

    /// Default / clone / serde / debug support.
    pub fn ops(&self) -> Option<&'static ComponentOps> {
        self.vtable.map(|v| v.ops)
    }

    /// Whether the type has lifecycle hooks (it is a behaviour).
    #[inline]
    pub fn has_hooks(&self) -> bool {
        self.vtable.is_some_and(|v| v.behaviour.is_some())
    }

    /// Whether adding one also adds required components.
    #[inline]
    pub fn has_requirements(&self) -> bool {
        self.has_requirements
    }

    /// Whether adding one is just a push: no requirements, no hooks.
    #[inline]
    pub fn is_plain(&self) -> bool {
        !self.has_requirements && !self.has_hooks()
    }
}

/// Whether bit `bit` is set.
#[inline]
pub(crate) fn has_bit(bits: &[u64], bit: TypeIdx) -> bool {
    bits.get(bit.index() / 64)
        .is_some_and(|word| word >> (bit.0 % 64) & 1 == 1)
}

/// Sets bit `bit`, growing the set as needed.
fn set_bit(bits: &mut Vec<u64>, bit: TypeIdx) {
    let word = bit.index() / 64;
    if bits.len() <= word {
        bits.resize(word + 1, 0);
    }
    bits[word] |= 1 << (bit.0 % 64);
}

/// The bit set of `own` and `ancestors` (all indices of the same world).
fn is_a_bits(own: TypeIdx, ancestors: &[TypeIdx]) -> Box<[u64]> {
    let mut bits = Vec::new();
    for &t in ancestors.iter().chain([&own]) {
        set_bit(&mut bits, t);
    }
    bits.into_boxed_slice()
}

/// `TypeId` is already a hash; feeding it through SipHash again only costs time.
#[derive(Default)]
pub(crate) struct TypeIdHasher(u64);

impl Hasher for TypeIdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 ^= n;
    }
}

/// A map keyed by `TypeId`, hashed with [`TypeIdHasher`].
type TypeMap<V> = HashMap<TypeId, V, BuildHasherDefault<TypeIdHasher>>;

/// Marks a type number with no entry in this world.
const NO_TYPE: TypeIdx = TypeIdx(u32::MAX);

/// Every component type of one world, indexed by [`TypeIdx`].
#[derive(Default, Clone)]
pub(crate) struct Types {
    infos: Vec<TypeInfo>,
    by_id: TypeMap<TypeIdx>,
    /// Index by process-wide type number ([`NO_TYPE`] when absent): the
    /// fast path of [`Types::index_of`].
    by_number: Vec<TypeIdx>,
}

impl Types {
    /// The index of `T`, if the world has seen it.
    #[inline]
    pub fn index_of<T: Component>(&self) -> Option<TypeIdx> {
        match T::__type_number() {
            Some(n) => self
                .by_number
                .get(n as usize)
                .copied()
                .filter(|&t| t != NO_TYPE),
            None => self.by_id.get(&TypeId::of::<T>()).copied(),
        }
    }

    /// [`Types::index_of`] for a lookup in a table's is-a index, which
    /// answers "none" for an index past its end: a type the world has not
    /// seen comes back as an index no table reaches, without a separate
    /// test on the hot path of `get`.
    #[inline(always)]
    pub fn table_key_of<T: Component>(&self) -> Option<TypeIdx> {
        match T::__type_number() {
            Some(n) => self.by_number.get(n as usize).copied(),
            None => self.by_id.get(&TypeId::of::<T>()).copied(),
        }
    }

    /// The index of the type with id `id`, if the world has seen it.
    pub fn index_of_id(&self, id: TypeId) -> Option<TypeIdx> {
        self.by_id.get(&id).copied()
    }

    /// The entry of type `ty`.
    #[inline]
    pub fn info(&self, ty: TypeIdx) -> &TypeInfo {
        &self.infos[ty.index()]
    }

    /// How many types the world has seen.
    pub fn len(&self) -> usize {
        self.infos.len()
    }

    /// Every type, by index.
    pub fn iter(&self) -> impl Iterator<Item = (TypeIdx, &TypeInfo)> {
        self.infos
            .iter()
            .enumerate()
            .map(|(ty, info)| (TypeIdx::from_index(ty), info))
    }

    /// The meta word of a new component of exactly type `ty`: the next
    /// serial, enabled, not started.
    #[inline]
    pub fn take_meta(&mut self, ty: TypeIdx) -> Meta {
        let info = &mut self.infos[ty.index()];
        let meta = Meta::fresh(info.next_serial);
        info.next_serial = meta.serial() + 1;
        meta
    }

    /// Whether `other` holds the same types at the same indices, each
    /// registered the same way: then everything but the serials is equal,
    /// and [`Types::take_serials`] makes the two equal.
    pub fn same_types(&self, other: &Types) -> bool {
        self.infos.len() == other.infos.len()
            && self.infos.iter().zip(&other.infos).all(|(a, b)| {
                a.key.type_id() == b.key.type_id()
                    && a.vtable.is_some() == b.vtable.is_some()
                    && a.has_requirements == b.has_requirements
            })
    }

    /// Takes `other`'s next serials, for a registry of the same types.
    pub fn take_serials(&mut self, other: &Types) {
        for (a, b) in self.infos.iter_mut().zip(&other.infos) {
            a.next_serial = b.next_serial;
        }
    }

    /// Enters the type `vtable` describes and its ancestors (ancestors
    /// first, so each one's own ancestors are known); returns its index.
    pub fn register(
        &mut self,
        vtable: &'static ComponentVTable,
        has_requirements: bool,
    ) -> TypeIdx {
        let keys = vtable.chain.keys();
        let flags = vtable.chain.multiple_flags();
        let mut indices: Vec<TypeIdx> = vec![TypeIdx(0); keys.len()];
        for level in (0..keys.len()).rev() {
            let key = keys[level];
            indices[level] = match self.by_id.get(&key.type_id()) {
                Some(&ty) => ty,
                None => self.push(key, flags[level], &indices[level + 1..]),
            };
        }
        let own = indices[0];
        let info = &mut self.infos[own.index()];
        info.vtable = Some(vtable);
        info.has_requirements = has_requirements;
        own
    }

    /// A new entry for `key`, whose ancestors are already entered.
    fn push(&mut self, key: ComponentKey, multiple: bool, ancestors: &[TypeIdx]) -> TypeIdx {
        let ty = TypeIdx::from_index(self.infos.len());
        self.infos.push(TypeInfo {
            key,
            multiple,
            ancestors: ancestors.into(),
            is_a_bits: is_a_bits(ty, ancestors),
            next_serial: 0,
            vtable: None,
            has_requirements: false,
        });
        self.by_id.insert(key.type_id(), ty);
        let number = crate::storage::numbers::number_of(key.type_id()) as usize;
        if self.by_number.len() <= number {
            self.by_number.resize(number + 1, NO_TYPE);
        }
        self.by_number[number] = ty;
        ty
    }

    /// The single rule for two components: the first single type in `a`'s
    /// chain (`a`, then its ancestors) that `b` is-a too, which one entity
    /// cannot hold both of. Every single-rule check (adding, bundles,
    /// blueprints, clones, loads) comes down to this.
    pub fn single_clash(&self, a: TypeIdx, b: TypeIdx) -> Option<TypeIdx> {
        self.singles(a).find(|&k| self.info(b).is_a(b, k))
    }

    /// The single types in `ty`'s chain (`ty`, then its ancestors): of
    /// each, an entity holds at most one component that is-a it.
    pub fn singles(&self, ty: TypeIdx) -> impl Iterator<Item = TypeIdx> + '_ {
        std::iter::once(ty)
            .chain(self.info(ty).ancestors.iter().copied())
            .filter(|&k| !self.info(k).multiple)
    }

    /// The chain level at which a component of type `ty` holds a `T`
    /// (whose index is `t`): 0 when `ty` is `T`.
    #[inline]
    pub fn level_of<T: 'static>(&self, ty: TypeIdx, t: TypeIdx) -> Option<usize> {
        if ty == t {
            return Some(0);
        }
        self.info(ty).vtable?.erased.level_of(TypeId::of::<T>())
    }
}
