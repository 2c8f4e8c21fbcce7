//! The [`World`]: the entity table and the per-type component columns.

pub(crate) mod bundle;
pub(crate) mod entity_ref;
pub(crate) mod hooks;
pub(crate) mod instance;
pub(crate) mod lookup;
pub(crate) mod prepared;
pub(crate) mod query;
pub(crate) mod removal;
pub(crate) mod require;
pub(crate) mod state;

mod layout;
mod resources;

use std::any::TypeId;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use crate::component::ComponentVTable;
use crate::entity::{CompRef, Entities, EntityIndex, TableId, TypeIdx};
use crate::table::{Storage, TypeIdHasher, EMPTY_TABLE};
use crate::{Component, EntityId, EntityMut, EntityRef, Error};

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
    names: crate::scene::names::Names,
    hierarchy: crate::scene::hierarchy::Hierarchy,
    /// Layer masks by slot; slots past the end have the default layers, so a
    /// world that never sets a layer pays nothing for them.
    layers: Vec<u32>,
    /// Per bundle type: the table its entities start in, or `None` when the
    /// bundle needs the checked path (requirements, hooks, or a clash).
    bundle_tables: HashMap<TypeId, Option<TableId>, BuildHasherDefault<TypeIdHasher>>,
    runtime: crate::runtime::RuntimeState,
    resources: resources::Resources,
    /// The plans of the queries run on this world.
    plans: crate::query::PlanCache,
    /// Behaviour types in the order their first component was attached
    /// (a failed add attaches nothing, so it decides nothing).
    first_attached: Vec<TypeIdx>,
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

    /// Creates an entity with a name (names need not be unique).
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let id = world.spawn_named("player");
    /// assert_eq!(world.entity(id)?.name(), Some("player"));
    /// assert_eq!(world.find_by_name("player"), Some(id));
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn spawn_named(&mut self, name: &str) -> EntityId {
        let id = self.spawn();
        self.names.set(id.index, Some(name));
        id
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

    /// Makes room for `additional` more entities spawned with bundle `B`
    /// (their table and each of its segments grow once).
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Position(f32);
    /// let mut world = World::new();
    /// world.reserve::<(Position,)>(100);
    /// assert!(world.is_empty()); // room is made, nothing is spawned
    /// let ids = world.spawn_batch((0..100).map(|i| (Position(i as f32),)))?;
    /// assert_eq!(world.entity(ids[99])?.get::<Position>().unwrap().0, 99.0);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn reserve<B: crate::Bundle>(&mut self, additional: usize) {
        let mut types = Vec::new();
        B::__plan(self, &mut types);
        let table = self.table_for(&types);
        self.reserve_table(table, additional);
    }

    /// Makes room for `additional` more rows in `table`.
    pub(crate) fn reserve_table(&mut self, table: TableId, additional: usize) {
        self.storage.reserve_table(table, additional);
    }

    /// Removes an entity and its whole subtree, children before parents (in
    /// reverse pre-order: the last child's subtree first), dropping each
    /// entity's components last added first.
    /// Each component's `on_disable`/`on_detach` hooks run before it goes.
    ///
    /// # Errors
    /// [`Error::NoSuchEntity`] when `id` is not alive in this world.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let parent = world.spawn();
    /// let child = world.spawn();
    /// world.set_parent(child, parent)?;
    /// world.despawn(parent)?;
    /// assert!(!world.contains(child)); // the whole subtree goes
    /// assert!(matches!(world.despawn(parent), Err(Error::NoSuchEntity(_))));
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn despawn(&mut self, id: EntityId) -> Result<(), Error> {
        self.check(id)?;
        if self.hierarchy.children(id.index).is_empty() {
            self.despawn_one(id.index, true);
            self.reclaim_tables();
            return Ok(());
        }
        let subtree = self.hierarchy.subtree(id.index);
        for &index in subtree.iter().rev() {
            self.despawn_one(index, true);
        }
        self.reclaim_tables();
        Ok(())
    }

    /// Despawns the live entity in slot `index`, whose children are gone;
    /// without `hooks` for taking back entities whose attach hooks never ran.
    pub(crate) fn despawn_one(&mut self, index: EntityIndex, hooks: bool) {
        // Rows move into the trash first; values are dropped only once the
        // world is consistent, so a panicking `Drop` cannot leave a
        // half-despawned entity behind.
        if hooks && self.comps(index).any(|c| self.has_hooks(c.ty)) {
            let doomed: Vec<usize> = (0..self.comp_count(index)).rev().collect();
            self.fire_removal_hooks_at(index, &doomed);
        }
        self.storage.remove_entity(&mut self.entities, index);
        self.entities.free(index);
        self.names.set(index, None);
        self.hierarchy.detach(index);
        if let Some(layers) = self.layers.get_mut(index.index()) {
            *layers = crate::DEFAULT_LAYERS;
        }
        self.storage.empty_trash();
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
    /// lately. Tables no entity uses are reclaimed once more of them than
    /// in use have piled up (and at least 64), so the count stays within a
    /// constant factor of the layouts in use, however many came and went.
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

    /// Read access to one entity.
    ///
    /// # Errors
    /// [`Error::NoSuchEntity`] when `id` is not alive in this world.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Health(u32);
    /// let mut world = World::new();
    /// let id = world.spawn_with((Health(3),))?;
    /// assert_eq!(world.entity(id)?.get::<Health>().unwrap().0, 3);
    /// world.despawn(id)?;
    /// assert!(matches!(world.entity(id), Err(Error::NoSuchEntity(_))));
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    #[inline]
    pub fn entity(&self, id: EntityId) -> Result<EntityRef<'_>, Error> {
        match self.entities.get_live(id) {
            Some(slot) => Ok(EntityRef::new(self, id, slot.table, slot.row)),
            None => Err(Error::NoSuchEntity(id)),
        }
    }

    /// Read-write access to one entity.
    ///
    /// # Errors
    /// [`Error::NoSuchEntity`] when `id` is not alive in this world.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Health(u32);
    /// let mut world = World::new();
    /// let id = world.spawn();
    /// world.entity_mut(id)?.add(Health(3))?;
    /// world.entity_mut(id)?.get_mut::<Health>().unwrap().0 -= 1;
    /// assert_eq!(world.entity(id)?.get::<Health>().unwrap().0, 2);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn entity_mut(&mut self, id: EntityId) -> Result<EntityMut<'_>, Error> {
        self.check(id)?;
        Ok(EntityMut::new(self, id))
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

    pub(crate) fn name_of(&self, index: EntityIndex) -> Option<&str> {
        self.names.get(index)
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
        if let Some(ty) = self.storage.type_idx::<C>() {
            if self.storage.try_column(ty).is_some() {
                return ty;
            }
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
        self.storage.register(vtable, !requirements.is_empty())
    }

    /// The meta word (serial, disabled and started bits) of `comp`.
    ///
    /// # Panics
    /// When `comp`'s type is lent out (a behaviour of that type runs).
    pub(crate) fn meta_of(&self, comp: CompRef) -> u32 {
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
