//! Generational entity ids and the per-entity record.

use std::fmt;

mod entities;

pub(crate) use entities::Entities;

/// Names one entity of one [`World`](crate::World).
///
/// An id is an index plus a generation: when an entity is despawned its slot
/// may be reused, but with a new generation, so the old id never answers again.
/// It also carries its world's tag, so another world refuses it.
///
/// ```
/// # use ecs_core::prelude::*;
/// let mut world = World::new();
/// let old = world.spawn();
/// world.despawn(old)?;
/// let new = world.spawn(); // the slot is reused...
/// assert_eq!(new.index(), old.index());
/// assert_ne!(new, old); // ...with a new generation
/// assert!(matches!(world.entity(old), Err(Error::NoSuchEntity(_))));
/// # Ok::<(), ecs_core::Error>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EntityId {
    pub(crate) world: u32,
    pub(crate) index: EntityIndex,
    pub(crate) generation: u32,
}

impl EntityId {
    /// The slot index; unique among live entities, reused after despawn.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let a = world.spawn();
    /// let b = world.spawn();
    /// assert_eq!((a.index(), b.index()), (0, 1));
    /// world.despawn(a)?;
    /// assert_eq!(world.spawn().index(), 0); // reused
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub const fn index(self) -> u32 {
        self.index.0
    }

    /// How many times the slot had been reused when this id was handed out.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let a = world.spawn();
    /// assert_eq!(a.generation(), 0);
    /// world.despawn(a)?;
    /// assert_eq!(world.spawn().generation(), 1);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub const fn generation(self) -> u32 {
        self.generation
    }

    /// Packs index and generation into one `u64` (generation in the high
    /// half): unique among the ids one world hands out. Turn it back into an
    /// id with [`World::id_from_bits`](crate::World::id_from_bits).
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let a = world.spawn();
    /// world.despawn(a)?;
    /// let b = world.spawn();
    /// assert_eq!(b.to_bits(), (1 << 32) | 0); // generation 1, index 0
    /// assert_eq!(world.id_from_bits(b.to_bits()), b);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub const fn to_bits(self) -> u64 {
        ((self.generation as u64) << 32) | self.index.0 as u64
    }
}

impl fmt::Debug for EntityId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}v{}", self.index.0, self.generation)
    }
}

impl fmt::Display for EntityId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// Defines a `u32` index newtype: one per kind of index, so a table id is
/// never passed where a row is expected.
macro_rules! index_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[doc(hidden)]
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(pub(crate) u32);

        impl $name {
            /// The index as a `usize`, for indexing a `Vec`.
            #[inline(always)]
            pub(crate) const fn index(self) -> usize {
                self.0 as usize
            }

            /// The index of the `n`th element of a `Vec`.
            ///
            /// # Panics
            /// When `n` does not fit in 32 bits: no world holds that many.
            #[inline]
            pub(crate) fn from_index(n: usize) -> Self {
                $name(u32::try_from(n).expect(concat!("fewer than 2^32 ", stringify!($name), "s")))
            }
        }
    };
}

index_type!(
    /// Index of an entity's slot: unique among live entities, reused (with
    /// a new generation) after despawn.
    EntityIndex
);
index_type!(
    /// Index of a component type inside one world's type registry.
    TypeIdx
);
index_type!(
    /// Index of a table (one per sequence of component types).
    TableId
);
index_type!(
    /// Index of a segment inside one column (one per table holding the type).
    SegId
);
index_type!(
    /// Index of a row inside a table and each of its segments.
    RowId
);

/// Where one component of an entity lives: its concrete type, the segment of
/// that type's column that belongs to the entity's table, and the entity's
/// row in that table. Computed from the entity's slot on demand; valid until
/// the entity's structure changes (a component added or removed moves every
/// component of the entity to another table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[doc(hidden)]
pub struct CompRef {
    pub(crate) ty: TypeIdx,
    pub(crate) seg: SegId,
    pub(crate) row: RowId,
}

/// One slot of the entity table.
///
/// An entity's components live in one table (see [`crate::table::tables`]): the
/// slot only says which table and which row, so bookkeeping costs the same
/// 16 bytes however many components the entity holds.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct EntitySlot {
    pub generation: u32,
    /// The entity's table (its component layout).
    pub table: TableId,
    /// The entity's row in that table, shared by all its components.
    pub row: RowId,
    pub alive: bool,
    /// Disabled as a whole: skipped by updates and active-only lookups.
    pub disabled: bool,
    /// Killed: keeps its components but is skipped like a disabled entity
    /// until revived.
    pub killed: bool,
}

impl EntitySlot {
    /// Alive, enabled and not killed: what updates and active lookups see.
    pub fn is_active(&self) -> bool {
        self.alive && !self.disabled && !self.killed
    }
}

/// Names one component instance of one world, unique for the world's lifetime.
///
/// Made of the concrete type's index in the world and a serial counted per
/// type (2^30 instances of one type before serials repeat).
///
/// ```
/// # use ecs_core::prelude::*;
/// #[derive(Component)]
/// #[component(multiple)]
/// struct Tag(u8);
/// let mut world = World::new();
/// let id = world.spawn_with((Tag(1), Tag(2)))?;
/// let ids: Vec<InstanceId> = world.entity(id)?.components().map(|c| c.instance).collect();
/// assert_ne!(ids[0], ids[1]);
/// assert_eq!(world.entity(id)?.get_by_instance::<Tag>(ids[1]).unwrap().0, 2);
/// # Ok::<(), ecs_core::Error>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct InstanceId {
    pub(crate) ty: TypeIdx,
    pub(crate) serial: u32,
}

impl InstanceId {
    /// Packs the id into one `u64`.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// #[component(multiple)]
    /// struct Tag;
    /// let mut world = World::new();
    /// let id = world.spawn_with((Tag, Tag))?;
    /// let bits: Vec<u64> = world.entity(id)?.components().map(|c| c.instance.to_bits()).collect();
    /// assert_ne!(bits[0], bits[1]);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub const fn to_bits(self) -> u64 {
        ((self.ty.0 as u64) << 32) | self.serial as u64
    }
}

impl fmt::Debug for InstanceId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}.{}", self.ty.0, self.serial)
    }
}
