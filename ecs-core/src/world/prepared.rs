//! Entities assembled from type-erased values (blueprints, loaded worlds,
//! clones), checked in full before anything touches the world, then
//! spawned all at once.

use crate::component::ops::BoxedComponent;
use crate::entity::{EntityIndex, TypeIdx};
use crate::table::tables::Place;
use crate::world::World;
use crate::{EntityId, Error};

/// One entity to spawn, with its subtree.
pub(crate) struct PreparedEntity {
    pub name: Option<String>,
    pub enabled: bool,
    pub killed: bool,
    pub layers: Option<u32>,
    /// `(type, value, enabled)` in insertion order.
    pub components: Vec<(TypeIdx, BoxedComponent, bool)>,
    /// The position of its parent in the list being spawned, which comes
    /// before it (`None` for the list's root).
    pub parent: Option<usize>,
}

impl PreparedEntity {
    pub fn new() -> Self {
        PreparedEntity {
            name: None,
            enabled: true,
            killed: false,
            layers: None,
            components: Vec::new(),
            parent: None,
        }
    }
}

/// One entity of a loaded world, read and checked: its components are the
/// next `len` values of the load's list, in its table's order.
pub(crate) struct LoadedEntity {
    /// The name, interned in the world being loaded.
    pub name: Option<u32>,
    pub enabled: bool,
    pub killed: bool,
    pub layers: Option<u32>,
    pub table: crate::entity::TableId,
    pub len: usize,
}

impl Default for LoadedEntity {
    /// Enabled, alive, unnamed, default layers, no components yet: what a
    /// saved entity is when the file leaves a field out.
    fn default() -> Self {
        LoadedEntity {
            name: None,
            enabled: true,
            killed: false,
            layers: None,
            table: crate::entity::TableId::default(),
            len: 0,
        }
    }
}

/// Whether a spawn from prepared values adds the requirements its
/// components lack.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Requirements {
    /// A copy or a new entity: add what the components require.
    Add,
}

impl World {
    /// Where two of `types` (one entity's components, in order) are-a the
    /// same single type: `(earlier, later, that type)`, for the first
    /// `later` that clashes and the first `earlier` it clashes with.
    /// Linear in the number of components (times the chain depth): a
    /// blueprint may list tens of thousands of `multiple` components.
    pub(crate) fn single_rule_clash(&self, types: &[TypeIdx]) -> Option<(usize, usize, TypeIdx)> {
        let registry = self.storage().types();
        // The first component holding each single type in its chain.
        let mut first: std::collections::HashMap<TypeIdx, usize> = std::collections::HashMap::new();
        for (j, &b) in types.iter().enumerate() {
            if let Some(i) = registry
                .singles(b)
                .filter_map(|k| first.get(&k).copied())
                .min()
            {
                let k = self
                    .single_clash(types[i], b)
                    .expect("two components sharing a single type clash");
                return Some((i, j, k));
            }
            for k in registry.singles(b) {
                first.entry(k).or_insert(j);
            }
        }
        None
    }

    /// [`World::single_rule_clash`] as data errors report it: the index of
    /// the later component of the clashing pair, and a message naming both
    /// and saying what to change. One wording for blueprints and saves.
    pub(crate) fn single_rule_message(&self, types: &[TypeIdx]) -> Option<(usize, String)> {
        let (first, second, single) = self.single_rule_clash(types)?;
        let name = |ty: TypeIdx| self.storage().info(ty).key().name();
        let (a, b, k) = (name(types[first]), name(types[second]), name(single));
        let message = if a == b && b == k {
            format!("`{b}` is listed twice (also at components[{first}]) and it is single: an entity holds at most one; remove one, or mark `{b}` `#[component(multiple)]`")
        } else {
            format!("`{b}` and `{a}` (at components[{first}]) are both a `{k}`, and `{k}` is single: an entity holds at most one; remove one of them")
        };
        Some((second, message))
    }

    /// Spawns `prepared`, a tree listed parents first, its root first
    /// (checked by the caller against the single rule): every component
    /// first, then the requirements they lack, then the attach and enable
    /// hooks, entity by entity, parents first. On error (a requirement
    /// clashing with a listed component) nothing is left. A flat list, not
    /// nested values, so that neither spawning nor dropping a tree of any
    /// depth recurses.
    pub(crate) fn spawn_prepared(
        &mut self,
        prepared: Vec<PreparedEntity>,
        parent: Option<EntityId>,
        requirements: Requirements,
    ) -> Result<EntityId, Error> {
        let mut created: Vec<EntityId> = Vec::with_capacity(prepared.len());
        for node in prepared {
            let under = match node.parent {
                Some(at) => Some(created[at]),
                None => parent,
            };
            let id = self.spawn_node(node);
            if let Some(under) = under {
                // A fresh entity has no children, so it cannot close a cycle.
                self.hierarchy_mut().attach(id.index, under.index);
            }
            created.push(id);
        }
        let root = *created.first().expect("a prepared tree has a root");
        match requirements {
            Requirements::Add => self.finish_spawn(&created)?,
        }
        Ok(root)
    }

    /// Enters one loaded entity into its table, with its flags and layers
    /// but no components yet: the caller pushes one value onto each of the
    /// table's segments next. Returns its slot.
    pub(crate) fn spawn_loaded_entity(&mut self, e: &LoadedEntity) -> EntityIndex {
        let id = self.spawn_in(e.table);
        if !e.enabled || e.killed {
            self.storage
                .set_entity_state(&mut self.entities, id.index, !e.enabled, e.killed);
        }
        if let Some(mask) = e.layers {
            self.set_layers_at(id.index, mask);
        }
        id.index
    }

    /// Sets the flags and layers of a loaded entity already in its table
    /// (a file may list them after its components).
    pub(crate) fn set_loaded_state(&mut self, index: EntityIndex, e: &LoadedEntity) {
        self.storage
            .set_entity_state(&mut self.entities, index, !e.enabled, e.killed);
        if let Some(mask) = e.layers {
            self.set_layers_at(index, mask);
        }
    }

    /// Completes a load once every entity is in (slot `p` for entity `p`):
    /// links `children` (saved ids, checked by the caller: in range, one
    /// parent each, no cycle), names the entities in `name_order` (saved
    /// ids) or file order, then fires the attach and enable hooks in
    /// `tree_order` (parents first). Returns the ids in file order.
    pub(crate) fn finish_loaded(
        &mut self,
        entities: &[LoadedEntity],
        children: &[Vec<u32>],
        tree_order: &[u32],
        name_order: Option<Vec<u32>>,
    ) -> Vec<EntityId> {
        let created: Vec<EntityId> = (0..entities.len())
            .map(|i| self.id_at(EntityIndex::from_index(i)))
            .collect();
        let mut linked = Vec::new();
        for (parent, list) in children.iter().enumerate() {
            if list.is_empty() {
                continue;
            }
            linked.clear();
            linked.extend(list.iter().map(|&child| created[child as usize].index));
            let slots = created.len();
            self.hierarchy_mut()
                .link_fresh(created[parent].index, &linked, slots);
        }
        // Room for every name at once: thousands of entities share a few
        // names, and growing each list entity by entity dominated naming.
        // Hooks and requirements belong to types, so each table is asked
        // once rather than each entity's every component. One pass for both.
        let mut counts = vec![0; self.names().interned()];
        let mut named = false;
        let mut seen = vec![false; self.storage().table_slots()];
        let mut plain = true;
        for e in entities {
            if let Some(name) = e.name {
                counts[name as usize] += 1;
                named = true;
            }
            if !std::mem::replace(&mut seen[e.table.index()], true) {
                let layout = self.storage().table(e.table).layout();
                plain &= layout.iter().all(|place| self.is_plain_ty(place.ty));
            }
        }
        if named {
            self.names_mut().reserve_all(&counts, created.len());
        }
        let give = |world: &mut World, at: usize| {
            if let Some(name) = entities[at].name {
                world.names_mut().give(created[at].index, name);
            }
        };
        match name_order {
            Some(order) => order.into_iter().for_each(|at| give(self, at as usize)),
            None => (0..entities.len()).for_each(|at| give(self, at)),
        }
        if !plain {
            let in_tree_order: Vec<EntityId> =
                tree_order.iter().map(|&i| created[i as usize]).collect();
            self.fire_spawn_hooks(&in_tree_order);
        }
        created
    }

    /// Removes entities made by a failed spawn, newest first, without hooks
    /// (their attach hooks never ran).
    pub(crate) fn take_back(&mut self, created: &[EntityId]) {
        for &id in created.iter().rev() {
            self.despawn_one(id.index, false);
        }
    }

    /// The second half of every spawn from data: adds missing required
    /// components, then fires attach and enable hooks, entity by entity in
    /// `created` order. On error everything in `created` is taken back.
    pub(crate) fn finish_spawn(&mut self, created: &[EntityId]) -> Result<(), Error> {
        let plain =
            |world: &World, id: &EntityId| world.comps(id.index).all(|c| world.is_plain_ty(c.ty));
        // A requirement's `Default` is user code: if it panics, what this
        // spawn made goes too, as it does when a requirement clashes.
        let added = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            for id in created {
                if !plain(self, id) {
                    self.add_requirements(id.index)?;
                }
            }
            Ok(())
        }));
        match added {
            Ok(Ok(())) => {}
            Ok(Err(error)) => {
                self.take_back(created);
                return Err(error);
            }
            Err(panic) => {
                self.take_back(created);
                std::panic::resume_unwind(panic);
            }
        }
        self.fire_spawn_hooks(created);
        Ok(())
    }

    /// The attach and enable hooks of freshly spawned entities, entity by
    /// entity in `created` order.
    fn fire_spawn_hooks(&mut self, created: &[EntityId]) {
        for id in created {
            self.fire_added_hooks(id.index, 0);
        }
    }

    fn spawn_node(&mut self, prepared: PreparedEntity) -> EntityId {
        let types: Vec<TypeIdx> = prepared.components.iter().map(|c| c.0).collect();
        let table = self.table_for(&types);
        let id = self.spawn_in(table);
        if let Some(name) = &prepared.name {
            self.names.set(id.index, Some(name));
        }
        self.storage.set_entity_state(
            &mut self.entities,
            id.index,
            !prepared.enabled,
            prepared.killed,
        );
        if let Some(mask) = prepared.layers {
            self.set_layers_at(id.index, mask);
        }
        // Straight into the entity's final table: nothing here can fail,
        // so no row is ever left half filled.
        for (pos, (ty, value, enabled)) in prepared.components.into_iter().enumerate() {
            let seg = self.storage.table(table).layout()[pos].seg;
            self.push_boxed(Place { ty, seg }, value);
            if !enabled {
                self.disable_raw(id.index, pos);
            }
        }
        id
    }

    /// Disables the entity's component at `pos` without firing hooks (it
    /// is not attached yet).
    pub(crate) fn disable_raw(&mut self, index: EntityIndex, pos: usize) {
        let comp = self.comp_at(index, pos);
        self.storage.set_disabled(comp.seg, comp.row, true);
    }

    /// Adds the `Default` of every requirement the entity's components
    /// have and it lacks.
    fn add_requirements(&mut self, index: EntityIndex) -> Result<(), Error> {
        let types: Vec<TypeIdx> = self.comps(index).map(|c| c.ty).collect();
        for ty in types {
            let requirements = crate::component::require::Requirements::of(self.vtable(ty));
            self.apply_requirements(&requirements, index)?;
        }
        Ok(())
    }
}
