//! The [`World`]: the entity table and the per-type component columns.

pub(crate) mod bundle;
pub(crate) mod entity_ref;
pub(crate) mod extension;
pub(crate) mod hooks;
pub(crate) mod instance;
pub(crate) mod listen;
pub(crate) mod lookup;
pub(crate) mod prepared;
pub(crate) mod query;
pub(crate) mod read_only;
pub(crate) mod removal;
mod replay;
pub(crate) mod require;
pub(crate) mod state;

mod changes;
mod layout;
mod resources;
pub(crate) mod snapshot;

use std::any::TypeId;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use crate::component::ComponentVTable;
use crate::entity::{CompRef, Entities, EntityIndex, TableId, TypeIdx};
use crate::table::{Meta, Storage, TypeIdHasher, EMPTY_TABLE};
use crate::{Component, EntityId, Error};

/// The layers an entity is on until [`EntityMut::set_layers`](crate::EntityMut::set_layers) says otherwise.
///
/// ```
/// # use ecs_core::prelude::*;
/// let mut world = World::new();
/// let id = world.spawn();
/// assert_eq!(world.entity(id)?.layers(), ecs_core::DEFAULT_LAYERS);
/// # Ok::<(), ecs_core::Error>(())
/// ```
pub const DEFAULT_LAYERS: u32 = 1;

/// A set of entities and their components.
///
/// Entities holding the same component types in the same order share a
/// table; each component type's column keeps one dense segment per table,
/// and an entity's components all sit at its row of its table. The entity
/// record is that `(table, row)` pair, and each table indexes the first
/// component that is-a each type, which is what makes `get`, `get_all` and
/// the is-a rule cheap.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Component)]
/// struct Health(u32);
///
/// let mut world = World::new();
/// let id = world.spawn();
/// world.entity_mut(id)?.add(Health(3))?;
/// assert_eq!(world.entity(id)?.get::<Health>().unwrap().0, 3);
/// world.despawn(id)?;
/// assert!(!world.contains(id));
/// # Ok::<(), ecs_core::Error>(())
/// ```
#[derive(Default)]
pub struct World {
    entities: Entities,
    storage: Storage,
    /// Layer masks by slot; slots past the end have the default layers, so a
    /// world that never sets a layer pays nothing for them.
    layers: Vec<u32>,
    /// Per bundle type: the table its entities start in, or `None` when the
    /// bundle needs the checked path (requirements, hooks, or a clash).
    bundle_tables: HashMap<TypeId, Option<TableId>, BuildHasherDefault<TypeIdHasher>>,
    resources: resources::Resources,
    /// The plans of the queries run on this world.
    plans: crate::query::PlanCache,
    /// Behaviour types in the order their first component was attached
    /// (a failed add attaches nothing, so it decides nothing).
    first_attached: Vec<TypeIdx>,
    /// The state of the layers above (the scene graph, names, the behaviour
    /// runtime), which this layer owns but does not know.
    extensions: extension::Extensions,
    /// Who hears about lifecycle moments beside a type's own hooks (the
    /// runtime's observers), and which types they watch.
    listeners: listen::Listeners,
}

impl World {
    /// An empty world.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let world = World::new();
    /// assert!(world.is_empty());
    /// assert_eq!(world.len(), 0);
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Creates an entity with no components; [`World::spawn_with`] creates
    /// one holding a tuple of components, `spawn_with((Health(3),))`.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let id = world.spawn();
    /// assert!(world.contains(id));
    /// assert!(world.entity(id)?.is_empty());
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    // The comment after `{` is on the line rustc quotes when `spawn` is
    // called with arguments ("this method takes 0 arguments"), so that
    // error names the method to call instead.
    #[rustfmt::skip]
    pub fn spawn(&mut self) -> EntityId { // to spawn with components: `spawn_with((Health(3),))`
        self.spawn_in(EMPTY_TABLE)
    }

    /// Makes room for `additional` more entities without reallocating.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// world.reserve_entities(100);
    /// assert!(world.is_empty()); // room is made, nothing is spawned
    /// let ids: Vec<EntityId> = (0..100).map(|_| world.spawn()).collect();
    /// assert_eq!(world.len(), ids.len());
    /// ```
    pub fn reserve_entities(&mut self, additional: usize) {
        self.entities.reserve(additional);
    }

    /// Makes room for `additional` more rows in `table`.
    pub(crate) fn reserve_table(&mut self, table: TableId, additional: usize) {
        self.storage.reserve_table(table, additional);
    }

    /// Despawns the live entity in slot `index`, whose children are gone;
    /// without `hooks` for taking back entities whose attach hooks never ran.
    pub(crate) fn despawn_one(&mut self, index: EntityIndex, hooks: bool) {
        self.take_out_one(index, hooks);
        self.storage.empty_trash();
    }

    /// [`World::despawn_one`] leaving the entity's values in the trash:
    /// for loops that despawn several entities, which empty the trash once
    /// all are gone, so a panicking `Drop` cannot stop the loop half way.
    pub(crate) fn take_out_one(&mut self, index: EntityIndex, hooks: bool) {
        // Rows move into the trash first; values are dropped only once the
        // world is consistent, so a panicking `Drop` cannot leave a
        // half-despawned entity behind.
        if hooks && self.comps(index).any(|c| self.has_hooks(c.ty)) {
            let doomed: Vec<usize> = (0..self.comp_count(index)).rev().collect();
            self.fire_removal_hooks_at(index, &doomed);
        }
        self.storage.remove_entity(&mut self.entities, index);
        self.entities.free(index);
        self.extensions.forget(index);
        if let Some(layers) = self.layers.get_mut(index.index()) {
            *layers = DEFAULT_LAYERS;
        }
    }

    /// `true` when `id` names a live entity of this world.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let id = world.spawn();
    /// assert!(world.contains(id));
    /// world.despawn(id)?;
    /// assert!(!world.contains(id));
    /// let reused = world.spawn(); // same slot, new generation
    /// assert!(world.contains(reused) && !world.contains(id));
    /// assert!(!World::new().contains(reused)); // another world refuses it
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    #[inline]
    pub fn contains(&self, id: EntityId) -> bool {
        self.entities.contains(id)
    }

    /// The id whose [`EntityId::to_bits`] is `bits`, as this world's (it
    /// may name a despawned entity: check with [`World::contains`]).
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let id = world.spawn();
    /// let bits = id.to_bits();
    /// assert_eq!(world.id_from_bits(bits), id);
    /// world.despawn(id)?;
    /// assert!(!world.contains(world.id_from_bits(bits)));
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    // The halves are cut apart on purpose: the inverse of `to_bits`.
    #[allow(clippy::cast_possible_truncation)]
    pub fn id_from_bits(&self, bits: u64) -> EntityId {
        EntityId {
            world: self.entities.tag(),
            index: EntityIndex(bits as u32),
            generation: (bits >> 32) as u32,
        }
    }

    pub(crate) fn tag(&self) -> u32 {
        self.entities.tag()
    }

    /// Number of live entities.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let a = world.spawn();
    /// world.spawn();
    /// assert_eq!(world.len(), 2);
    /// world.despawn(a)?;
    /// assert_eq!(world.len(), 1);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn len(&self) -> usize {
        self.entities.len()
    }

    /// `true` when no entity is alive.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// assert!(world.is_empty());
    /// let id = world.spawn();
    /// assert!(!world.is_empty());
    /// world.despawn(id)?;
    /// assert!(world.is_empty());
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.entities.len() == 0
    }

    /// How many tables the world holds, the empty layout's included: one
    /// per distinct sequence of component types an entity holds or held
    /// lately. Tables no entity uses are reclaimed, when an operation
    /// empties one, once they weigh (a table and its segments) more than
    /// those in use plus a small constant: the count and the memory stay
    /// within a constant factor of the layouts in use, however many came
    /// and went, and a world whose entities go gives their tables back.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Position(f32);
    /// #[derive(Component)]
    /// struct Velocity(f32);
    /// let mut world = World::new();
    /// assert_eq!(world.table_count(), 1); // the empty layout
    /// world.spawn_with((Position(0.0), Velocity(1.0)))?;
    /// world.spawn_with((Position(5.0), Velocity(2.0)))?; // same layout, same table
    /// assert_eq!(world.table_count(), 2);
    /// world.spawn_with((Velocity(1.0), Position(0.0)))?; // order counts
    /// assert_eq!(world.table_count(), 3);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn table_count(&self) -> usize {
        self.storage.table_count()
    }

    /// Iterates over the ids of all live entities, in slot order.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let a = world.spawn();
    /// let b = world.spawn();
    /// let c = world.spawn();
    /// world.despawn(b)?;
    /// assert_eq!(world.iter_ids().collect::<Vec<_>>(), [a, c]);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn iter_ids(&self) -> impl Iterator<Item = EntityId> + '_ {
        self.entities.iter_ids()
    }

    #[inline]
    pub(crate) fn check(&self, id: EntityId) -> Result<(), Error> {
        if self.contains(id) {
            Ok(())
        } else {
            Err(Error::NoSuchEntity(id))
        }
    }

    /// The id of the live entity in slot `index`.
    pub(crate) fn id_at(&self, index: EntityIndex) -> EntityId {
        self.entities.id_at(index)
    }

    #[inline]
    pub(crate) fn type_idx<T: Component>(&self) -> Option<TypeIdx> {
        self.storage.type_idx::<T>()
    }

    /// Registers `C` and its ancestors; returns `C`'s index. Gives `C` a column.
    #[inline]
    pub(crate) fn register<C: Component>(&mut self) -> TypeIdx {
        if let Some(ty) = self.storage.type_idx::<C>()
            && self.storage.try_column(ty).is_some()
        {
            return ty;
        }
        self.register_vtable(C::__VTABLE)
    }

    /// Registers the type `vtable` describes (and its ancestors): the one
    /// non-generic registration path, shared by typed calls and the
    /// by-name catalog.
    pub(crate) fn register_vtable(&mut self, vtable: &'static ComponentVTable) -> TypeIdx {
        if let Some(ty) = self.storage.registered(vtable) {
            return ty;
        }
        let mut requirements = crate::component::require::Requirements::default();
        (vtable.requirements)(&mut requirements);
        crate::component::catalog::note_stored(vtable);
        let ty = self.storage.register(vtable, !requirements.is_empty());
        self.hear_registered(ty);
        ty
    }

    /// The meta word (serial, disabled and started bits) of `comp`.
    ///
    /// # Panics
    /// When `comp`'s type is lent out (a behaviour of that type runs).
    pub(crate) fn meta_of(&self, comp: CompRef) -> Meta {
        self.storage
            .meta(comp.ty, comp.seg, comp.row)
            .expect("a component's type is in place when its meta word is read")
    }

    /// The description of a registered type.
    pub(crate) fn vtable(&self, ty: TypeIdx) -> &'static ComponentVTable {
        self.storage
            .info(ty)
            .vtable()
            .expect("a type with stored components was registered by its own type")
    }

    /// Takes the component at position `pos` of entity `index` (of
    /// concrete type `C`) out of the world, moving the entity's other
    /// components to the table without it.
    pub(crate) fn take_at<C: Component>(&mut self, index: EntityIndex, pos: usize) -> C {
        let comp = self.comp_at(index, pos);
        let to = self
            .storage
            .table_removing(self.entities.slot(index).table, pos);
        let value = self.storage.swap_remove::<C>(comp.seg, comp.row);
        self.relocate(index, to, Some(pos));
        value
    }
}

impl std::fmt::Debug for World {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("World")
            .field("entities", &self.entities.len())
            .field("component_types", &self.storage.types().len())
            .field("tables", &self.storage.table_count())
            .finish()
    }
}
