//! Entity names: rename, find the first entity with a name, find all.

use std::collections::HashMap;

use crate::{EntityId, EntityMut, World};

/// Names by slot, and slots by name in the order they got the name.
#[derive(Default, Debug)]
pub(crate) struct Names {
    by_slot: HashMap<u32, Box<str>>,
    by_name: HashMap<Box<str>, Vec<u32>>,
}

impl Names {
    pub fn get(&self, index: u32) -> Option<&str> {
        self.by_slot.get(&index).map(|n| &**n)
    }

    /// Gives slot `index` the name, or none; a renamed entity goes to the
    /// end of its new name's list.
    pub fn set(&mut self, index: u32, name: Option<&str>) {
        if let Some(old) = self.by_slot.remove(&index) {
            if let Some(slots) = self.by_name.get_mut(&old) {
                slots.retain(|&s| s != index);
                if slots.is_empty() {
                    self.by_name.remove(&old);
                }
            }
        }
        if let Some(name) = name {
            self.by_slot.insert(index, name.into());
            // Many entities share a name (every copy of a blueprint): only
            // the first one pays for the key.
            match self.by_name.get_mut(name) {
                Some(slots) => slots.push(index),
                None => {
                    self.by_name.insert(name.into(), vec![index]);
                }
            }
        }
    }

    fn slots(&self, name: &str) -> &[u32] {
        self.by_name.get(name).map_or(&[], |v| v)
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
        self.names.slots(name).first().map(|&i| self.id_at(i))
    }

    /// Every entity named `name`, in the order they got the name.
    pub fn find_all_by_name<'a>(&'a self, name: &str) -> impl Iterator<Item = EntityId> + 'a {
        self.names.slots(name).iter().map(|&i| self.id_at(i))
    }
}

impl EntityMut<'_> {
    /// Renames the entity (`None` removes its name).
    pub fn set_name(&mut self, name: Option<&str>) {
        let index = self.id().index;
        self.world_mut().names.set(index, name);
    }
}
