//! Entity references in saved data: `EntityId`'s own serde impls consult a
//! thread-local context that a save, a load or a blueprint spawn sets for
//! the time it reads or writes component data, so an id held anywhere in a
//! component (a field, a `Vec`, an `Option`, a map) is remapped with no
//! attribute and no registration.
//!
//! - Saving writes an id as the saved id of the entity it names: its
//!   position in the file. An id of no saved entity (despawned, or of
//!   another world) is an [`Error::DanglingEntity`](crate::Error::DanglingEntity) naming where it was
//!   found, or `null` with [`Dangling::Null`] (an `Option<EntityId>` reads
//!   it back as `None`).
//! - Loading numbers entities in file order, so the entity at position `p`
//!   is known before any component data is read; an id past the last
//!   entity is an [`Error::UnknownEntity`](crate::Error::UnknownEntity), naming the type and the field
//!   that holds it (found by reading that one value again, in a
//!   [`RefContext::Seek`], once the load has failed).
//! - A blueprint's data names the entities of its own tree by local id:
//!   `0` is the blueprint's entity, then its children depth-first.
//! - Outside these (a network message, an editor's selection, a replay
//!   file: any serde data of the program's own), an id is written as it
//!   is, `[bits, world]` ([`EntityId::to_bits`] and the world's tag), and
//!   read back as it was written: the same id, which names the same entity
//!   while it lives; a stale one is an [`Error::NoSuchEntity`](crate::Error::NoSuchEntity) when used.
//!
//! ```
//! # use ecs_core::prelude::*;
//! #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
//! struct Selection { picked: Vec<EntityId> }
//! let mut world = World::new();
//! let a = world.spawn();
//! let b = world.spawn();
//! let json = serde_json::to_string(&Selection { picked: vec![a, b] }).unwrap();
//! let back: Selection = serde_json::from_str(&json).unwrap();
//! assert_eq!(back.picked, [a, b]);
//! world.despawn(b)?;
//! assert_eq!(world.entity(back.picked[1]).err(), Some(Error::NoSuchEntity(b)));
//! # Ok::<(), ecs_core::Error>(())
//! ```

use std::cell::{Cell, RefCell};

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::entity::EntityIndex;
use crate::EntityId;

/// What a save does with an id that names no saved entity.
///
/// ```rust,standalone_crate
/// # use ecs_core::prelude::*;
/// use ecs_core::{Dangling, SaveOptions};
/// #[derive(Component, serde::Serialize, serde::Deserialize)]
/// struct Target(Option<EntityId>);
/// let mut world = World::new();
/// let gone = world.spawn();
/// world.spawn_with((Target(Some(gone)),))?;
/// world.despawn(gone)?;
/// assert!(matches!(world.save_json(), Err(Error::DanglingEntity { .. })));
/// let options = SaveOptions { dangling: Dangling::Null, ..SaveOptions::default() };
/// let loaded = World::load(&world.save(options)?)?.world;
/// let (target,) = loaded.query::<(&Target,)>().iter().next().unwrap();
/// assert_eq!(target.0, None);
/// # Ok::<(), ecs_core::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Dangling {
    /// Refuse to save: [`Error::DanglingEntity`](crate::Error::DanglingEntity).
    #[default]
    Error,
    /// Write `null`: an `Option<EntityId>` loads as `None`; a bare
    /// `EntityId` refuses to load.
    Null,
}

/// New ids of a loaded world's entities, by saved id (the entity's
/// position in the file, which is what saved references hold).
///
/// ```
/// # use ecs_core::prelude::*;
/// let mut world = World::new();
/// let a = world.spawn_named("a");
/// let b = world.spawn_named("b");
/// let order = world.save_order(); // the old ids, by saved id
/// let loaded = World::load(world.save_json()?.as_bytes())?;
/// let b_now = loaded.ids.get(1).unwrap();
/// assert_eq!(loaded.world.entity(b_now)?.name(), Some("b"));
/// let by_old = loaded.ids.by_old(&order);
/// assert_eq!(by_old[&a], loaded.world.find_by_name("a").unwrap());
/// assert_eq!(by_old[&b], b_now);
/// # Ok::<(), ecs_core::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IdMap {
    new: Vec<EntityId>,
}

impl IdMap {
    pub(crate) fn new(new: Vec<EntityId>) -> Self {
        IdMap { new }
    }

    /// The new id of the entity saved as `saved`.
    pub fn get(&self, saved: u32) -> Option<EntityId> {
        self.new.get(saved as usize).copied()
    }

    /// How many entities were loaded.
    pub fn len(&self) -> usize {
        self.new.len()
    }

    /// Whether no entity was loaded.
    pub fn is_empty(&self) -> bool {
        self.new.is_empty()
    }

    /// `(saved id, new id)` pairs, in file order.
    pub fn iter(&self) -> impl Iterator<Item = (u32, EntityId)> + '_ {
        self.new
            .iter()
            .enumerate()
            .map(|(saved, &id)| (saved as u32, id))
    }

    /// Old id to new id, given the saving world's
    /// [`World::save_order`](crate::World::save_order) (taken before it
    /// changed): for a program that kept ids across a save and a load.
    pub fn by_old(&self, old_order: &[EntityId]) -> std::collections::HashMap<EntityId, EntityId> {
        old_order
            .iter()
            .copied()
            .zip(self.new.iter().copied())
            .collect()
    }
}

/// How ids read and written now are translated.
pub(crate) enum RefContext {
    /// A save: `(generation, saved id)` by slot, `u32::MAX` for no entity.
    Save {
        tag: u32,
        by_slot: Vec<(u32, u32)>,
        dangling: Dangling,
        /// The first dangling id found.
        found: Option<EntityId>,
    },
    /// A load into a fresh world: saved id `p` is slot `p`, generation 0.
    /// The largest saved id read is kept in [`load_max`].
    Load { tag: u32 },
    /// A failed load reading one value again to find where it holds
    /// saved id `sought` (past the file's last entity): ids read as in a
    /// load (without counting), and reading or writing the id `sought`
    /// names fails, so a path-tracking reader or writer stops at it.
    /// `None` seeks nothing: the value reads back as it loaded.
    Seek { tag: u32, sought: Option<u64> },
    /// A blueprint: local ids to the ids of the entities being spawned
    /// (or, with no ids, only checked against `count`).
    Local {
        ids: Vec<EntityId>,
        count: usize,
        /// Whether any id was read.
        seen: bool,
    },
}

thread_local! {
    static CONTEXT: RefCell<Option<RefContext>> = const { RefCell::new(None) };
    /// One more than the largest saved id a load has read (0: none): a
    /// plain cell, so a loader can look at it after every value cheaply.
    static LOAD_MAX: Cell<u64> = const { Cell::new(0) };
}

/// The largest saved id read since [`reset_load_max`].
pub(crate) fn load_max() -> Option<u64> {
    LOAD_MAX.with(|m| m.get().checked_sub(1))
}

/// Starts counting for a load; returns the count it replaces, for
/// [`restore_load_max`].
pub(crate) fn reset_load_max() -> u64 {
    LOAD_MAX.with(|m| m.replace(0))
}

/// Where the count of [`load_max`] stands, for [`restore_load_max`] to
/// take back the references of values a load reads again.
pub(crate) fn load_mark() -> u64 {
    LOAD_MAX.with(Cell::get)
}

pub(crate) fn restore_load_max(previous: u64) {
    LOAD_MAX.with(|m| m.set(previous));
}

/// Runs `f` with `context` in force; returns what `f` returned and the
/// context as `f` left it. The context in force before comes back even if
/// `f` panics.
pub(crate) fn with_context<R>(context: RefContext, f: impl FnOnce() -> R) -> (R, RefContext) {
    struct Restore(Option<Option<RefContext>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            if let Some(previous) = self.0.take() {
                CONTEXT.with(|c| *c.borrow_mut() = previous);
            }
        }
    }
    let previous = CONTEXT.with(|c| c.borrow_mut().replace(context));
    let mut restore = Restore(Some(previous));
    let out = f();
    let previous = restore.0.take().expect("restored once");
    let context = CONTEXT.with(|c| std::mem::replace(&mut *c.borrow_mut(), previous));
    (out, context.expect("the context set above"))
}

/// Runs `f` on the context in force, if any.
pub(crate) fn peek<R>(f: impl FnOnce(&mut RefContext) -> R) -> Option<R> {
    CONTEXT.with(|c| c.borrow_mut().as_mut().map(f))
}

/// The message a dangling id fails a component's `Serialize` with.
pub(crate) const DANGLING: &str = "refers to an entity that is not saved";

/// The message the id a [`RefContext::Seek`] seeks fails with.
const SOUGHT: &str = "the entity sought";

impl Serialize for EntityId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        enum Out {
            Saved(u32),
            Null,
            Dangling,
            Sought,
            AsIs,
        }
        let out = CONTEXT.with(|c| match &mut *c.borrow_mut() {
            Some(RefContext::Save {
                tag,
                by_slot,
                dangling,
                found,
            }) => {
                let saved = (self.world == *tag)
                    .then(|| by_slot.get(self.index.index()))
                    .flatten()
                    .filter(|&&(generation, saved)| {
                        generation == self.generation && saved != u32::MAX
                    })
                    .map(|&(_, saved)| saved);
                match (saved, *dangling) {
                    (Some(saved), _) => Out::Saved(saved),
                    (None, Dangling::Null) => Out::Null,
                    (None, Dangling::Error) => {
                        found.get_or_insert(*self);
                        Out::Dangling
                    }
                }
            }
            Some(RefContext::Seek { tag, sought }) if self.world == *tag => {
                match *sought == Some(u64::from(self.index.0)) {
                    true => Out::Sought,
                    false => Out::Saved(self.index.0),
                }
            }
            _ => Out::AsIs,
        });
        match out {
            Out::Saved(saved) => s.serialize_u32(saved),
            Out::Null => s.serialize_none(),
            Out::Dangling => Err(serde::ser::Error::custom(format!("{self:?} {DANGLING}"))),
            Out::Sought => Err(serde::ser::Error::custom(SOUGHT)),
            Out::AsIs => {
                use serde::ser::SerializeTuple;
                let mut t = s.serialize_tuple(2)?;
                t.serialize_element(&self.to_bits())?;
                t.serialize_element(&self.world)?;
                t.end()
            }
        }
    }
}

struct SavedId;

impl Visitor<'_> for SavedId {
    type Value = u64;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an entity's saved id (a non-negative integer)")
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<u64, E> {
        Ok(v)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<u64, E> {
        u64::try_from(v).map_err(|_| E::invalid_value(de::Unexpected::Signed(v), &self))
    }
}

/// An id read as it was written outside a save: `[bits, world]`.
struct AsIs;

impl<'de> Visitor<'de> for AsIs {
    type Value = EntityId;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an entity id as written outside a save: `[bits, world]`")
    }

    // The halves are cut apart on purpose: the inverse of `to_bits`.
    #[allow(clippy::cast_possible_truncation)]
    fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<EntityId, A::Error> {
        let bits: u64 = seq
            .next_element()?
            .ok_or_else(|| de::Error::invalid_length(0, &self))?;
        let world: u32 = seq
            .next_element()?
            .ok_or_else(|| de::Error::invalid_length(1, &self))?;
        if seq.next_element::<de::IgnoredAny>()?.is_some() {
            return Err(de::Error::invalid_length(3, &self));
        }
        Ok(EntityId {
            world,
            index: EntityIndex(bits as u32),
            generation: (bits >> 32) as u32,
        })
    }
}

impl<'de> Deserialize<'de> for EntityId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let remapped = CONTEXT.with(|c| {
            matches!(
                *c.borrow(),
                Some(RefContext::Load { .. } | RefContext::Local { .. } | RefContext::Seek { .. })
            )
        });
        if !remapped {
            return d.deserialize_tuple(2, AsIs);
        }
        let saved = d.deserialize_u64(SavedId)?;
        resolve(saved).map_err(de::Error::custom)
    }
}

/// The id saved id `saved` names in the load or blueprint spawn in force.
fn resolve(saved: u64) -> Result<EntityId, String> {
    CONTEXT.with(|c| match &mut *c.borrow_mut() {
        Some(RefContext::Load { tag }) => {
            let index = u32::try_from(saved)
                .ok()
                .filter(|&i| i < u32::MAX)
                .ok_or_else(|| format!("entity {saved} is past any file's last entity"))?;
            LOAD_MAX.with(|m| m.set(m.get().max(saved + 1)));
            Ok(EntityId {
                world: *tag,
                index: EntityIndex(index),
                generation: 0,
            })
        }
        Some(RefContext::Seek { tag, sought }) => {
            if *sought == Some(saved) {
                return Err(SOUGHT.to_owned());
            }
            // The value read before: its ids fit.
            Ok(EntityId {
                world: *tag,
                index: EntityIndex(u32::try_from(saved).map_err(|_| SOUGHT.to_owned())?),
                generation: 0,
            })
        }
        Some(RefContext::Local { ids, count, seen }) => {
            *seen = true;
            if saved >= *count as u64 {
                return Err(format!(
                    "entity {saved} is not in this blueprint's tree, which has {count} (0 is the blueprint's own entity, then its children depth-first)"
                ));
            }
            // A check without a world reads placeholders.
            Ok(ids.get(saved as usize).copied().unwrap_or(EntityId {
                world: 0,
                index: EntityIndex(saved as u32),
                generation: 0,
            }))
        }
        // Not reached: outside these an id is read as it was written.
        Some(RefContext::Save { .. }) | None => {
            Err("an EntityId is remapped only by a world load or a blueprint spawn".to_owned())
        }
    })
}
