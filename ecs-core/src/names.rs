//! Entity names: rename, find the first entity with a name, find all.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use crate::{EntityId, EntityMut, World};

/// Names by slot, and slots by name in the order they got the name.
///
/// Many entities often share a name (every copy of a blueprint), so the text
/// is shared, and each name keeps its slots ordered by when they got it:
/// renaming or despawning one of ten thousand "crate"s is a logarithmic
/// step, not a scan.
#[derive(Default, Debug)]
pub(crate) struct Names {
    by_slot: HashMap<u32, (Arc<str>, u64)>,
    by_name: HashMap<Arc<str>, BTreeMap<u64, u32>>,
    next: u64,
}

impl Names {
    pub fn get(&self, index: u32) -> Option<&str> {
        self.by_slot.get(&index).map(|(n, _)| &**n)
    }

    /// Gives slot `index` the name, or none; a renamed entity goes to the
    /// end of its new name's list.
    pub fn set(&mut self, index: u32, name: Option<&str>) {
        if let Some((old, order)) = self.by_slot.remove(&index) {
            if let Some(slots) = self.by_name.get_mut(&old) {
                slots.remove(&order);
                if slots.is_empty() {
                    self.by_name.remove(&old);
                }
            }
        }
        let Some(name) = name else {
            return;
        };
        let order = self.next;
        self.next += 1;
        let shared = match self.by_name.get_key_value(name) {
            Some((shared, _)) => Arc::clone(shared),
            None => Arc::from(name),
        };
        self.by_name
            .entry(Arc::clone(&shared))
            .or_default()
            .insert(order, index);
        self.by_slot.insert(index, (shared, order));
    }

    fn slots(&self, name: &str) -> impl Iterator<Item = u32> + '_ {
        self.by_name
            .get(name)
            .into_iter()
            .flat_map(|m| m.values().copied())
    }
}

impl World {
    /// The entity that has carried `name` the longest, if any.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let a = world.spawn_named("crate");
    /// let b = world.spawn_named("crate");
    /// assert_eq!(world.find_by_name("crate"), Some(a));
    /// assert_eq!(world.find_all_by_name("crate").collect::<Vec<_>>(), [a, b]);
    /// world.entity_mut(a)?.set_name(Some("box"));
    /// assert_eq!(world.find_by_name("crate"), Some(b));
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn find_by_name(&self, name: &str) -> Option<EntityId> {
        self.names.slots(name).next().map(|i| self.id_at(i))
    }

    /// Every entity named `name`, in the order they got the name.
    pub fn find_all_by_name<'a>(&'a self, name: &str) -> impl Iterator<Item = EntityId> + 'a {
        self.names.slots(name).map(|i| self.id_at(i))
    }
}

impl EntityMut<'_> {
    /// Renames the entity (`None` removes its name).
    pub fn set_name(&mut self, name: Option<&str>) {
        let index = self.id().index;
        self.world_mut().names.set(index, name);
    }
}
