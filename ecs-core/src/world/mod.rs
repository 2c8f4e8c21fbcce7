//! The [`World`]: the entity table and the per-type component columns.

pub(crate) mod bundle;
pub(crate) mod entity_ref;
pub(crate) mod instance;
pub(crate) mod lookup;
pub(crate) mod pairs;
pub(crate) mod prepared;
pub(crate) mod query;
pub(crate) mod removal;
pub(crate) mod require;
pub(crate) mod state;

use std::any::TypeId;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::component::ComponentVTable;
use crate::entity::{CompRef, EntitySlot, TypeIdx};
use crate::storage::table::{Tables, EMPTY_TABLE};
use crate::storage::Column;
use crate::{Component, ComponentKey, EntityId, EntityMut, EntityRef, Error};

/// Everything the world knows about one component type.
pub(crate) struct TypeInfo {
    pub key: ComponentKey,
    pub multiple: bool,
    /// Strict ancestors, nearest first.
    pub ancestors: Box<[TypeIdx]>,
    /// Bit `t` is set when this type is-a type `t` (itself included).
    pub is_a_bits: Box<[u64]>,
    /// Bit `d` is set when type `d` is-a this type (itself included): what
    /// an is-a lookup for this type tests each scanned component against.
    pub descendant_bits: Vec<u64>,
    /// The serial the next component of exactly this type gets.
    pub next_serial: u32,
    /// Entry points when the type is a behaviour.
    pub behaviour: Option<crate::runtime::behaviour::BehaviourFns>,
    /// The type's own description, once the type itself (not only a type
    /// derived from it) has been registered.
    pub vtable: Option<&'static ComponentVTable>,
    /// Set once the type itself (not only a descendant) is registered.
    pub ops: Option<crate::component::ops::ComponentOps>,
    /// Whether adding one also adds required components.
    pub has_requirements: bool,
}

impl TypeInfo {
    /// The serial for a new component of exactly this type.
    #[inline]
    pub fn take_serial(&mut self) -> u32 {
        let serial = self.next_serial;
        self.next_serial = serial.wrapping_add(1) & crate::storage::SERIAL_MASK;
        serial
    }

    /// `true` when this type is `other` or derives from it: one bit test,
    /// since this check runs for every component an is-a lookup scans.
    #[inline]
    pub fn is_a(&self, own: TypeIdx, other: TypeIdx) -> bool {
        own == other || has_bit(&self.is_a_bits, other)
    }
}

/// Sets bit `bit`, growing the set as needed.
fn set_bit(bits: &mut Vec<u64>, bit: TypeIdx) {
    let word = bit as usize / 64;
    if bits.len() <= word {
        bits.resize(word + 1, 0);
    }
    bits[word] |= 1 << (bit % 64);
}

/// Whether bit `bit` is set.
#[inline]
pub(crate) fn has_bit(bits: &[u64], bit: TypeIdx) -> bool {
    bits.get(bit as usize / 64)
        .is_some_and(|word| word >> (bit % 64) & 1 == 1)
}

/// The bit set of `own` and `ancestors` (all indices of the same world).
fn is_a_bits(own: TypeIdx, ancestors: &[TypeIdx]) -> Box<[u64]> {
    let top = ancestors.iter().copied().chain([own]).max().unwrap_or(own) as usize;
    let mut bits = vec![0u64; top / 64 + 1];
    for &t in ancestors.iter().chain([&own]) {
        bits[t as usize / 64] |= 1 << (t % 64);
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

/// A number no other world in the process has, stamped on every id this
/// world hands out so that other worlds refuse it.
pub(crate) struct WorldTag(pub u32);

impl Default for WorldTag {
    fn default() -> Self {
        static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(1);
        WorldTag(NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
    }
}

/// Marks a type number with no entry in this world.
const NO_TYPE: TypeIdx = TypeIdx::MAX;

pub(crate) type TypeMap = HashMap<TypeId, TypeIdx, BuildHasherDefault<TypeIdHasher>>;

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
    tag: WorldTag,
    pub(crate) entities: Vec<EntitySlot>,
    free: Vec<u32>,
    live: usize,
    pub(crate) names: crate::scene::names::Names,
    pub(crate) hierarchy: crate::scene::hierarchy::Hierarchy,
    /// Layer masks by slot; slots past the end have the default layers, so a
    /// world that never sets a layer pays nothing for them.
    pub(crate) layers: Vec<u32>,
    pub(crate) types: Vec<TypeInfo>,
    /// Parallel to `types`; present once a component of exactly that type was
    /// added. Kept apart so one column can be borrowed mutably while the type
    /// table and the other columns are read.
    pub(crate) columns: Vec<Option<Column>>,
    /// Entities grouped by the sequence of component types they hold.
    pub(crate) tables: Tables,
    /// Per bundle type: the table its entities start in, or `None` when the
    /// bundle needs the checked path (requirements, hooks, or a clash).
    pub(crate) bundle_tables: HashMap<TypeId, Option<u32>, BuildHasherDefault<TypeIdHasher>>,
    pub(crate) type_index: TypeMap,
    /// Index in `types` by process-wide type number ([`NO_TYPE`] when
    /// absent): the fast path of `type_idx`.
    by_number: Vec<TypeIdx>,
    /// Behaviour types named by `set_update_order`, first to last.
    pub(crate) update_order: Vec<TypeIdx>,
    pub(crate) commands: crate::runtime::context::Commands,
    pub(crate) command_errors: Vec<Error>,
    pub(crate) in_update: bool,
    pub(crate) flushing: bool,
    /// Columns whose trash holds values to drop (see [`World::empty_trash`]).
    pub(crate) trashed: Vec<TypeIdx>,
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

    /// Creates an entity with no components.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let id = world.spawn();
    /// assert!(world.contains(id));
    /// assert!(world.entity(id)?.is_empty());
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn spawn(&mut self) -> EntityId {
        self.spawn_in(EMPTY_TABLE)
    }

    /// Spawns an entity straight into `table`; the caller pushes one value
    /// onto each of the table's segments.
    #[inline]
    pub(crate) fn spawn_in(&mut self, table: u32) -> EntityId {
        self.live += 1;
        let index = match self.free.pop() {
            Some(index) => {
                let slot = &mut self.entities[index as usize];
                slot.alive = true;
                slot.disabled = false;
                slot.killed = false;
                index
            }
            None => {
                let index =
                    u32::try_from(self.entities.len()).expect("more than u32::MAX entities");
                self.entities.push(EntitySlot {
                    alive: true,
                    ..EntitySlot::default()
                });
                index
            }
        };
        self.enter_table(index, table);
        EntityId {
            world: self.tag.0,
            index,
            generation: self.entities[index as usize].generation,
        }
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
        let fresh = additional.saturating_sub(self.free.len());
        self.entities.reserve(fresh);
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
    pub(crate) fn reserve_table(&mut self, table: u32, additional: usize) {
        let World {
            tables, columns, ..
        } = self;
        for place in tables[table as usize].layout.iter() {
            if let Some(column) = columns[place.ty as usize].as_mut() {
                column.reserve(place.seg, additional);
            }
        }
        self.tables.reserve_owners(table, additional);
    }

    /// Removes an entity and its whole subtree, children before parents
    /// (post-order), dropping each entity's components last added first.
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
            return Ok(());
        }
        let subtree = self.hierarchy.subtree(id.index);
        for &index in subtree.iter().rev() {
            self.despawn_one(index, true);
        }
        Ok(())
    }

    /// Despawns the live entity in slot `index`, whose children are gone;
    /// without `hooks` for taking back entities whose attach hooks never ran.
    pub(crate) fn despawn_one(&mut self, index: u32, hooks: bool) {
        // Rows move into the trash first; values are dropped only once the
        // world is consistent, so a panicking `Drop` cannot leave a
        // half-despawned entity behind.
        if hooks && self.comps(index).any(|c| self.has_hooks(c.ty)) {
            let doomed: Vec<CompRef> = self.comps(index).rev().collect();
            self.fire_removal_hooks(&doomed);
        }
        self.trash_rows_of(index, |_| true);
        self.leave_table(index);
        let slot = &mut self.entities[index as usize];
        slot.alive = false;
        slot.generation = slot.generation.wrapping_add(1);
        self.free.push(index);
        self.names.set(index, None);
        self.hierarchy.detach(index);
        if let Some(layers) = self.layers.get_mut(index as usize) {
            *layers = crate::DEFAULT_LAYERS;
        }
        self.live -= 1;
        self.empty_trash();
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
        id.world == self.tag.0
            && self
                .entities
                .get(id.index as usize)
                .is_some_and(|slot| slot.alive && slot.generation == id.generation)
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
    pub fn id_from_bits(&self, bits: u64) -> EntityId {
        EntityId {
            world: self.tag.0,
            index: bits as u32,
            generation: (bits >> 32) as u32,
        }
    }

    pub(crate) fn tag(&self) -> u32 {
        self.tag.0
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
        self.live
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
        self.live == 0
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
        self.check(id)?;
        Ok(EntityRef::new(self, id))
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
        self.entities
            .iter()
            .enumerate()
            .filter(|(_, slot)| slot.alive)
            .map(|(index, slot)| EntityId {
                world: self.tag.0,
                index: index as u32,
                generation: slot.generation,
            })
    }

    #[inline]
    pub(crate) fn check(&self, id: EntityId) -> Result<(), Error> {
        if self.contains(id) {
            Ok(())
        } else {
            Err(Error::NoSuchEntity(id))
        }
    }

    pub(crate) fn name_of(&self, index: u32) -> Option<&str> {
        self.names.get(index)
    }

    /// The id of the live entity in slot `index`.
    pub(crate) fn id_at(&self, index: u32) -> EntityId {
        EntityId {
            world: self.tag.0,
            index,
            generation: self.entities[index as usize].generation,
        }
    }

    #[inline]
    pub(crate) fn type_idx<T: Component>(&self) -> Option<TypeIdx> {
        match T::__type_number() {
            Some(n) => self
                .by_number
                .get(n as usize)
                .copied()
                .filter(|&t| t != NO_TYPE),
            None => self.type_index.get(&TypeId::of::<T>()).copied(),
        }
    }

    /// Registers `C` and its ancestors; returns `C`'s index. Gives `C` a column.
    #[inline]
    pub(crate) fn register<C: Component>(&mut self) -> TypeIdx {
        if let Some(ty) = self.type_idx::<C>() {
            if self.columns[ty as usize].is_some() {
                return ty;
            }
        }
        self.register_vtable(C::__VTABLE)
    }

    /// Registers the type `vtable` describes (and its ancestors): the one
    /// non-generic registration path, shared by typed calls and the
    /// by-name catalog.
    pub(crate) fn register_vtable(&mut self, vtable: &'static ComponentVTable) -> TypeIdx {
        if let Some(&ty) = self.type_index.get(&vtable.type_id()) {
            if self.columns[ty as usize].is_some() {
                return ty;
            }
        }
        let keys = vtable.chain.keys();
        let flags = vtable.chain.multiple_flags();
        // Ancestors first, so each one's own ancestors are already known.
        let mut indices: Vec<TypeIdx> = vec![0; keys.len()];
        for level in (0..keys.len()).rev() {
            let key = keys[level];
            indices[level] = match self.type_index.get(&key.type_id()) {
                Some(&ty) => ty,
                None => {
                    let ty = self.types.len() as TypeIdx;
                    self.types.push(TypeInfo {
                        key,
                        multiple: flags[level],
                        ancestors: indices[level + 1..].into(),
                        is_a_bits: is_a_bits(ty, &indices[level + 1..]),
                        descendant_bits: Vec::new(),
                        next_serial: 0,
                        vtable: None,
                        behaviour: None,
                        ops: None,
                        has_requirements: false,
                    });
                    self.columns.push(None);
                    self.type_index.insert(key.type_id(), ty);
                    let number = crate::component::registry::number_of(key.type_id()) as usize;
                    if self.by_number.len() <= number {
                        self.by_number.resize(number + 1, NO_TYPE);
                    }
                    self.by_number[number] = ty;
                    ty
                }
            };
        }
        for (level, &ty) in indices.iter().enumerate() {
            for &ancestor in &indices[level..] {
                set_bit(&mut self.types[ancestor as usize].descendant_bits, ty);
            }
        }
        let own = indices[0];
        let mut requirements = crate::world::require::Requirements::default();
        (vtable.requirements)(&mut requirements);
        let info = &mut self.types[own as usize];
        info.vtable = Some(vtable);
        info.behaviour = vtable.behaviour;
        info.ops = Some(vtable.ops);
        info.has_requirements = !requirements.is_empty();
        self.columns[own as usize] = Some(Column::new(vtable));
        own
    }

    /// The column of a registered type.
    #[inline]
    pub(crate) fn column(&self, ty: TypeIdx) -> &Column {
        self.columns[ty as usize]
            .as_ref()
            .expect("a type with stored components has a column")
    }

    /// Mutable twin of [`World::column`].
    #[inline]
    pub(crate) fn column_mut(&mut self, ty: TypeIdx) -> &mut Column {
        self.columns[ty as usize]
            .as_mut()
            .expect("a type with stored components has a column")
    }

    /// The description of a registered type.
    pub(crate) fn vtable(&self, ty: TypeIdx) -> &'static ComponentVTable {
        self.types[ty as usize]
            .vtable
            .expect("a type with stored components was registered by its own type")
    }

    /// Drops the values waiting in the columns' trash: called once the world
    /// is consistent again, so a panicking `Drop` cannot leave it half
    /// updated.
    pub(crate) fn empty_trash(&mut self) {
        // `pop` keeps the buffer's capacity: no allocation per removal.
        while let Some(ty) = self.trashed.pop() {
            if let Some(column) = self.columns[ty as usize].as_mut() {
                column.empty_trash();
            }
        }
    }

    /// Takes the component at position `pos` of entity `index` (of
    /// concrete type `C`) out of the world, moving the entity's other
    /// components to the table without it.
    pub(crate) fn take_at<C: Component>(&mut self, index: u32, pos: usize) -> C {
        let comp = self.comp_at(index, pos);
        let to = self.table_removing(self.entities[index as usize].table, pos);
        let value = self
            .column_mut(comp.ty)
            .swap_remove::<C>(comp.seg, comp.row);
        self.relocate(index, to, Some(pos));
        value
    }
}

impl std::fmt::Debug for World {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("World")
            .field("entities", &self.live)
            .field("component_types", &self.types.len())
            .field("tables", &self.tables.len())
            .finish()
    }
}
