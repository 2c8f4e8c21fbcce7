//! Entities assembled from type-erased values (blueprints, loaded worlds,
//! clones), checked in full before anything touches the world, then
//! spawned all at once.

use crate::component::ops::BoxedComponent;
use crate::entity::{EntityIndex, TypeIdx};
use crate::table::tables::Place;
use crate::world::World;
use crate::{EntityId, Error};

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

    /// Removes entities made by a failed spawn, newest first, without hooks
    /// (their attach hooks never ran).
    pub(crate) fn take_back(&mut self, created: &[EntityId]) {
        for &id in created.iter().rev() {
            self.take_out_one(id.index, false);
        }
        self.empty_trash();
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
    pub(crate) fn fire_spawn_hooks(&mut self, created: &[EntityId]) {
        for id in created {
            self.fire_added_hooks(id.index, 0);
        }
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

    /// Spawns an entity holding `components` (`(type, value, enabled)`, in
    /// order) straight into its final table, with its enabled, killed and
    /// layer state; no requirement is met and no hook fires yet. Nothing
    /// here can fail, so no row is ever left half filled.
    pub(crate) fn spawn_values(
        &mut self,
        components: Vec<(TypeIdx, BoxedComponent, bool)>,
        (enabled, killed): (bool, bool),
        layers: Option<u32>,
    ) -> EntityId {
        let types: Vec<TypeIdx> = components.iter().map(|c| c.0).collect();
        let table = self.table_for(&types);
        let id = self.spawn_in(table);
        self.storage
            .set_entity_state(&mut self.entities, id.index, !enabled, killed);
        if let Some(mask) = layers {
            self.set_layers_at(id.index, mask);
        }
        for (pos, (ty, value, enabled)) in components.into_iter().enumerate() {
            let seg = self.storage.table(table).layout()[pos].seg;
            self.push_boxed(Place { ty, seg }, value);
            if !enabled {
                self.disable_raw(id.index, pos);
            }
        }
        id
    }
}
