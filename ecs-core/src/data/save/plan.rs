//! What a save writes, gathered once before any format writes a byte: the
//! entities in saved order, the update order, the resources, the naming
//! order, and the saved id of every slot (for the references components
//! hold).

use std::any::TypeId;

use crate::component::catalog::{component_type, component_type_of};
use crate::data::codec::{SerializeFns, Stored};
use crate::data::refs::{Dangling, RefContext};
use crate::entity::EntityIndex;
use crate::world::World;
use crate::{EntityId, Error};

/// What a save writes, gathered once for every format.
pub(super) struct Plan {
    /// Entities in saved order: the saved id of `order[i]` is `i`.
    pub(super) order: Vec<EntityId>,
    /// Behaviour type names in update order.
    pub(super) update_order: Vec<&'static str>,
    /// `(name, writers, type)` of each saved resource, by name.
    pub(super) resources: Vec<(&'static str, SerializeFns, TypeId)>,
    /// Saved ids in naming order, when it differs from file order.
    pub(super) name_order: Option<Vec<u32>>,
    /// Saved id by slot (`u32::MAX` for a slot that is not saved).
    pub(super) saved_id: Vec<u32>,
}

impl Plan {
    /// The plan of saving `world`.
    pub(super) fn of(world: &World) -> Plan {
        let order = save_order(world);
        let mut saved_id = vec![u32::MAX; world.entities().slot_count()];
        for (saved, id) in order.iter().enumerate() {
            saved_id[id.index.index()] = saved as u32;
        }
        Plan {
            name_order: name_order(world, &order),
            order,
            saved_id,
            update_order: saved_update_order(world),
            resources: saved_resources(world),
        }
    }

    /// The reference context of this save: the saved id of every slot,
    /// checked against the slot's generation as each id is written.
    pub(super) fn ref_context(&self, world: &World, dangling: Dangling) -> RefContext {
        let by_slot = self
            .saved_id
            .iter()
            .enumerate()
            .map(|(slot, &saved)| {
                let index = EntityIndex::from_index(slot);
                (world.entities().slot(index).generation, saved)
            })
            .collect();
        RefContext::Save {
            tag: world.entities().tag(),
            by_slot,
            dangling,
            found: None,
        }
    }
}

/// The live entities in the order a save lists them: each root in slot
/// order, then its subtree depth-first (see `World::save_order`).
pub(crate) fn save_order(world: &World) -> Vec<EntityId> {
    let mut order = Vec::with_capacity(world.len());
    // The hierarchy's own depth-first walk, by one stack for every root
    // (a world of many roots allocates once).
    let mut stack = Vec::new();
    let hierarchy = world.hierarchy();
    for root in world.roots() {
        order.push(root);
        stack.extend(hierarchy.children(root.index).iter().rev());
        while let Some(index) = stack.pop() {
            order.push(world.id_at(index));
            stack.extend(hierarchy.children(index).iter().rev());
        }
    }
    order
}

/// The names of the behaviour types in update order, for a loaded world
/// to update them in the same order (types the catalog cannot find by
/// name, such as generic ones, are left out: they fall back to the order
/// they are first added in).
fn saved_update_order(world: &World) -> Vec<&'static str> {
    world
        .effective_update_order()
        .into_iter()
        .filter_map(|ty| {
            let key = world.storage().info(ty).key();
            let found = component_type(key.name()).ok()?;
            (found.type_id() == key.type_id()).then_some(key.name())
        })
        .collect()
}

/// The resources a save writes, by name: those whose type is a derived
/// component that can be written and read back.
fn saved_resources(world: &World) -> Vec<(&'static str, SerializeFns, TypeId)> {
    let mut resources: Vec<_> = world
        .resources()
        .iter()
        .filter_map(|(ty, _)| {
            let found = component_type_of(ty)?;
            let ops = found.ops();
            ops.deserialize?;
            Some((found.name(), *crate::data::codec::serialize_fns(ops)?, ty))
        })
        .collect();
    resources.sort_unstable_by_key(|r| r.0);
    resources
}

/// The saved ids of the named entities in the order they were named, when
/// that is not file order. Naming order matters among entities that share
/// a name (`find_by_name` answers the first named), so it is kept, but
/// written only when a file-order load would not restore it.
fn name_order(world: &World, order: &[EntityId]) -> Option<Vec<u32>> {
    let names = world.names();
    let named = || {
        order
            .iter()
            .enumerate()
            .filter_map(|(saved, id)| Some((names.order_of(id.index)?, saved as u32)))
    };
    // Checked before anything is gathered: file order is the usual case.
    let mut last = None;
    let in_file_order = named().all(|(at, _)| last.replace(at).is_none_or(|before| before < at));
    (!in_file_order).then(|| {
        let mut named: Vec<(u64, u32)> = named().collect();
        named.sort_unstable();
        named.iter().map(|&(_, saved)| saved).collect()
    })
}

/// The resource of type `ty`, which the plan found present.
pub(super) fn resource_value(world: &World, ty: TypeId) -> Stored<'_> {
    let value = world
        .resources()
        .iter()
        .find(|&(t, _)| t == ty)
        .map(|(_, v)| v)
        .expect("a planned resource is present");
    Stored::Any(value)
}

/// The component types a save met that lack serde support: the save
/// writes on to find them all, then fails naming each once.
#[derive(Default)]
pub(super) struct Missing(Vec<&'static str>);

impl Missing {
    pub(super) fn add(&mut self, name: &'static str) {
        if !self.0.contains(&name) {
            self.0.push(name);
        }
    }

    pub(super) fn check(mut self) -> Result<(), Error> {
        if self.0.is_empty() {
            return Ok(());
        }
        self.0.sort_unstable();
        Err(Error::NotSerializable { names: self.0 })
    }
}
