//! Diffs and patches: what changed in a world since a [`Snapshot`], as a
//! [`WorldPatch`] that replays it onto a world equal to that snapshot
//! (rollback netcode sending deltas, undo, a level saved as its blueprint
//! plus a patch).
//!
//! [`diff`](diff::diff) finds the changes through change tracking: a
//! component whose ticks say it was not written since the snapshot is not
//! read, a segment none of whose rows was written is passed over whole,
//! and a type none of whose components was enabled or disabled is not
//! looked at for that. Entities spawned and despawned, components added
//! and removed, flags, layers, names and links are found by one linear
//! compare of the entity slots (small integers) and of the name and link
//! tables. [`apply`](apply::apply) checks the whole patch against the
//! world and decodes every value before it changes anything. The two
//! encodings (`json`, `binary`) only encode: the patch itself is one
//! in-memory form.

use crate::component::ComponentVTable;
use crate::{Error, Snapshot, World};

mod apply;
mod binary;
mod diff;
mod json;
mod values;

/// The changes that turn a world equal to a [`Snapshot`] into the world
/// that was diffed against it: made by [`World::diff`], replayed by
/// [`World::apply_patch`], written with [`WorldPatch::to_json`] or
/// [`WorldPatch::to_binary`] and read back with [`WorldPatch::from_json`]
/// or [`WorldPatch::from_binary`].
///
/// It holds the entities despawned and spawned (at the same slot and
/// generation, so ids match), each changed entity's components removed
/// (by position), added (appended, in order, with their enabled state),
/// written (the new value) and enabled or disabled, its enabled/killed
/// flags and layers, the names given or taken, the parent links changed
/// (with the order of children), and the free slots with their
/// generations, so the next spawns hand out the same ids too.
///
/// Entity ids are the diffed world's own (index and generation): a patch
/// needs no remapping. Entity ids held inside component values are
/// written as they are ([`EntityId`](crate::EntityId)'s plain serde form),
/// so they name the right entities in the diffed world itself or a world
/// restored from it; in another world they keep the diffed world's tag.
#[derive(Clone, Default)]
pub struct WorldPatch {
    /// The target's slot count.
    pub(crate) slots: u32,
    /// The target's free list, when it differs from the snapshot's.
    pub(crate) free: Option<Vec<u32>>,
    /// Free slots of the target whose generation differs from the
    /// snapshot's: `(index, generation)`.
    pub(crate) dead: Vec<(u32, u32)>,
    pub(crate) despawned: Vec<Ent>,
    /// Entities spawned (whole) or changed, by slot.
    pub(crate) entities: Vec<EntityPatch>,
    /// Names given (or taken, `None`), in the order the target gave them.
    pub(crate) names: Vec<(Ent, Option<String>)>,
    /// Entities that had a parent and have none.
    pub(crate) orphans: Vec<Ent>,
    /// Parents whose list of children changed, with the new list.
    pub(crate) children: Vec<(Ent, Vec<Ent>)>,
}

/// An entity as the patch names it: slot and generation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Ent {
    pub(crate) index: u32,
    pub(crate) generation: u32,
}

/// A component type, by its description (written by name).
pub(crate) type Type = &'static ComponentVTable;

/// One entity's changes; a spawned entity's are all it holds.
#[derive(Clone)]
pub(crate) struct EntityPatch {
    pub(crate) id: Ent,
    pub(crate) spawned: bool,
    /// `(disabled, killed)` when they changed (always for a spawn).
    pub(crate) flags: Option<(bool, bool)>,
    pub(crate) layers: Option<u32>,
    /// Positions in the snapshot's layout, ascending.
    pub(crate) remove: Vec<(u32, Type)>,
    /// New values of kept components, by position in the snapshot's layout.
    pub(crate) set: Vec<(u32, Type, Value)>,
    /// Kept components whose enabled state flipped.
    pub(crate) enable: Vec<(u32, Type, bool)>,
    /// Components appended, in order: type, enabled, value.
    pub(crate) add: Vec<(Type, bool, Value)>,
}

impl EntityPatch {
    fn new(id: Ent, spawned: bool) -> Self {
        EntityPatch {
            id,
            spawned,
            flags: None,
            layers: None,
            remove: Vec::new(),
            set: Vec::new(),
            enable: Vec::new(),
            add: Vec::new(),
        }
    }

    fn is_empty(&self) -> bool {
        !self.spawned
            && self.flags.is_none()
            && self.layers.is_none()
            && self.remove.is_empty()
            && self.set.is_empty()
            && self.enable.is_empty()
            && self.add.is_empty()
    }
}

/// A component value in a patch.
#[derive(Clone, Debug)]
pub(crate) enum Value {
    /// The whole new value as MessagePack (what a diff and the binary
    /// form hold), with the old one where the diff compared them (for a
    /// JSON merge patch).
    Bin { new: Vec<u8>, old: Option<Vec<u8>> },
    /// The whole new value as JSON.
    Data(serde_json::Value),
    /// An RFC 7396 merge patch onto the value in place.
    Merge(serde_json::Value),
}

impl std::fmt::Debug for WorldPatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WorldPatch")
            .field("despawned", &self.despawned.len())
            .field(
                "spawned",
                &self.entities.iter().filter(|e| e.spawned).count(),
            )
            .field(
                "changed",
                &self.entities.iter().filter(|e| !e.spawned).count(),
            )
            .field("names", &self.names.len())
            .field("links", &(self.orphans.len() + self.children.len()))
            .finish_non_exhaustive()
    }
}

impl WorldPatch {
    /// Whether applying it changes nothing: the world diffed was equal to
    /// the snapshot (values written but equal count as unchanged).
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component, Clone, serde::Serialize, serde::Deserialize)]
    /// struct Position(f32);
    /// let mut world = World::new();
    /// let id = world.spawn_with((Position(1.0),))?;
    /// let frame = world.snapshot()?;
    /// world.entity_mut(id)?.get_mut::<Position>().unwrap().0 = 1.0; // written, not changed
    /// assert!(world.diff(&frame)?.is_empty());
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.free.is_none()
            && self.dead.is_empty()
            && self.despawned.is_empty()
            && self.entities.is_empty()
            && self.names.is_empty()
            && self.orphans.is_empty()
            && self.children.is_empty()
    }

    /// The patch as JSON (see the module docs of the format): a changed
    /// value as an RFC 7396 merge patch of the fields that changed, as
    /// blueprint variants use, or whole where a merge patch cannot say it
    /// (a field that became `null`); a spawned or added component whole.
    ///
    /// # Errors
    /// [`Error::NotSerializable`] or [`Error::Data`] when a value cannot
    /// be turned into JSON.
    ///
    /// ```rust,standalone_crate
    /// # use ecs_core::prelude::*;
    /// #[derive(Component, Clone, serde::Serialize, serde::Deserialize)]
    /// struct Health { hp: u32, max: u32 }
    /// let mut world = World::new();
    /// let id = world.spawn_with((Health { hp: 3, max: 3 },))?;
    /// let frame = world.snapshot()?;
    /// world.entity_mut(id)?.get_mut::<Health>().unwrap().hp = 1;
    /// let json = world.diff(&frame)?.to_json()?;
    /// assert!(json.contains(r#"{"at":0,"patch":{"hp":1},"type":"Health"}"#), "{json}");
    /// let back = WorldPatch::from_json(&json)?;
    /// world.restore(&frame)?;
    /// world.apply_patch(&back)?;
    /// assert_eq!(world.entity(id)?.get::<Health>().unwrap().hp, 1);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn to_json(&self) -> Result<String, Error> {
        json::write(self)
    }

    /// Reads a patch written by [`WorldPatch::to_json`] (or by hand).
    /// Component types are found by name, as blueprints find them.
    ///
    /// # Errors
    /// [`Error::Data`] naming the JSON path of the first thing that does
    /// not read; [`Error::UnknownComponent`] for a type name no component
    /// has. Values are read against their types when the patch is applied.
    pub fn from_json(json: &str) -> Result<WorldPatch, Error> {
        json::read(json)
    }

    /// The patch as MessagePack: each value is its type's own MessagePack,
    /// the rest positional (see the module docs of the format).
    ///
    /// # Errors
    /// [`Error::NotSerializable`] or [`Error::Data`] when a value read
    /// from JSON does not turn into its type.
    ///
    /// ```rust,standalone_crate
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let frame = world.snapshot()?;
    /// world.spawn_named("new");
    /// let bytes = world.diff(&frame)?.to_binary()?;
    /// let mut replica = World::new();
    /// replica.restore(&frame)?;
    /// replica.apply_patch(&WorldPatch::from_binary(&bytes)?)?;
    /// assert!(replica.find_by_name("new").is_some());
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn to_binary(&self) -> Result<Vec<u8>, Error> {
        binary::write(self)
    }

    /// Reads a patch written by [`WorldPatch::to_binary`].
    ///
    /// # Errors
    /// [`Error::Data`] naming the byte where the bytes stop being a patch;
    /// [`Error::UnknownComponent`] for a type name no component has.
    pub fn from_binary(bytes: &[u8]) -> Result<WorldPatch, Error> {
        binary::read(bytes)
    }
}

impl World {
    /// What changed in this world since `snapshot` was taken, as a
    /// [`WorldPatch`]: applied with [`World::apply_patch`] to a world
    /// equal to the snapshot, it makes that world equal to this one (same
    /// ids, components and values in each entity's order, enabled states,
    /// flags, layers, names, hierarchy; the next spawns hand out the same
    /// ids).
    ///
    /// When this world grew from the snapshot by ordinary changes (no
    /// [`World::restore`] since, other than of a snapshot taken after this
    /// one), change tracking says what to look at, and the cost follows
    /// what changed plus one linear compare of the entity slots: a
    /// component not written since is not read, one written is compared
    /// (written but equal gives no entry). Otherwise (a snapshot of
    /// another world, or a restore in between) every value is compared:
    /// the patch is the same, only slower.
    ///
    /// Values are compared and carried as MessagePack, so every component
    /// type the patch has to carry a value of needs `Serialize` and
    /// `Deserialize`; types marked `transient` are left out, as saves
    /// leave them out.
    ///
    /// # Errors
    /// [`Error::NotSerializable`] naming the types without serde support
    /// whose values changed; [`Error::SnapshotWhileRunning`] from inside a
    /// behaviour, hook or receiver; [`Error::Data`] when a value's
    /// `Serialize` fails.
    ///
    /// ```rust,standalone_crate
    /// # use ecs_core::prelude::*;
    /// #[derive(Component, Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
    /// struct Position { x: f32, y: f32 }
    /// let mut world = World::new();
    /// let a = world.spawn_with((Position { x: 0.0, y: 0.0 },))?;
    /// let frame = world.snapshot()?;
    ///
    /// world.entity_mut(a)?.get_mut::<Position>().unwrap().x = 5.0;
    /// let b = world.spawn_named("b");
    /// world.set_parent(b, a)?;
    /// let patch = world.diff(&frame)?;
    /// // Only the changed field travels, as a JSON merge patch.
    /// assert!(patch.to_json()?.contains(r#""patch":{"x":5.0}"#));
    ///
    /// let mut replica = World::new();
    /// replica.restore(&frame)?;
    /// replica.apply_patch(&WorldPatch::from_binary(&patch.to_binary()?)?)?;
    /// let a = replica.id_from_bits(a.to_bits());
    /// let b = replica.id_from_bits(b.to_bits());
    /// assert_eq!(replica.entity(a)?.get::<Position>(), Some(&Position { x: 5.0, y: 0.0 }));
    /// assert_eq!(replica.entity(b)?.name(), Some("b"));
    /// assert_eq!(replica.entity(b)?.parent(), Some(a));
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn diff(&self, snapshot: &Snapshot) -> Result<WorldPatch, Error> {
        diff::diff(self, snapshot)
    }

    /// Replays `patch` (from [`World::diff`]) onto this world, which
    /// should equal the snapshot the patch was diffed against.
    ///
    /// Applying behaves like ordinary changes for change tracking: values
    /// written count as changed, components and entities added count as
    /// added, so replicas see them through `changed_since`/`added_since`.
    /// Like [`World::restore`], it runs no hook and no observer's hook
    /// callback: the patch already holds what the diffed world's hooks
    /// did, so running them again would do it twice.
    ///
    /// # Errors
    /// [`Error::PatchMismatch`] when the world does not fit the patch (an
    /// entity it expects is missing or has another generation, a
    /// component is not at the position it names, a slot it spawns into
    /// is taken); [`Error::Data`] for a value that does not read;
    /// [`Error::HierarchyCycle`] for links that would close a cycle here;
    /// [`Error::SnapshotWhileRunning`] from inside a behaviour, hook or
    /// receiver. The whole patch is checked and every value decoded
    /// before anything changes, so on error the world is as it was.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let a = world.spawn();
    /// let frame = world.snapshot()?;
    /// world.despawn(a)?;
    /// let patch = world.diff(&frame)?;
    /// // The world is already past the snapshot: `a` is gone.
    /// assert!(matches!(world.apply_patch(&patch), Err(Error::PatchMismatch { .. })));
    /// world.restore(&frame)?;
    /// world.apply_patch(&patch)?;
    /// assert!(!world.contains(a));
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn apply_patch(&mut self, patch: &WorldPatch) -> Result<(), Error> {
        apply::apply(self, patch)
    }
}
