//! The scene layer's part of [`World`] and of the entity views: names,
//! and despawning a whole subtree. The scene's state (the hierarchy, the
//! names) is kept in the world as extensions of this layer.

use std::fmt;

use crate::entity::EntityIndex;
use crate::scene::hierarchy::Hierarchy;
use crate::scene::names::Names;
use crate::world::extension::Extension;
use crate::{EntityId, EntityMut, EntityRef, Error, World};

/// What a world that never named an entity reads.
static NO_NAMES: Names = Names::new();
/// What a world that never linked two entities reads.
static NO_HIERARCHY: Hierarchy = Hierarchy::new();

impl Extension for Names {
    fn forget(&mut self, index: EntityIndex) {
        self.set(index, None);
    }
}

impl Extension for Hierarchy {
    fn forget(&mut self, index: EntityIndex) {
        self.detach(index);
    }
}

impl World {
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
        self.names_mut().set(id.index, Some(name));
        id
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
        if self.hierarchy().children(id.index).is_empty() {
            self.despawn_one(id.index, true);
            self.reclaim_tables();
            return Ok(());
        }
        let subtree = self.hierarchy().subtree(id.index);
        for &index in subtree.iter().rev() {
            self.despawn_one(index, true);
        }
        self.reclaim_tables();
        Ok(())
    }

    /// The entity names.
    #[inline]
    pub(crate) fn names(&self) -> &Names {
        self.extension::<Names>().unwrap_or(&NO_NAMES)
    }

    /// Mutable twin of [`World::names`].
    #[inline]
    pub(crate) fn names_mut(&mut self) -> &mut Names {
        self.extension_mut::<Names>()
    }

    /// The parent-child links.
    #[inline]
    pub(crate) fn hierarchy(&self) -> &Hierarchy {
        self.extension::<Hierarchy>().unwrap_or(&NO_HIERARCHY)
    }

    /// Mutable twin of [`World::hierarchy`].
    #[inline]
    pub(crate) fn hierarchy_mut(&mut self) -> &mut Hierarchy {
        self.extension_mut::<Hierarchy>()
    }

    /// The name of the entity in slot `index`.
    pub(crate) fn name_of(&self, index: EntityIndex) -> Option<&str> {
        self.names().get(index)
    }
}

impl<'w> EntityRef<'w> {
    /// The entity's name, if it has one.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let named = world.spawn_named("door");
    /// let anonymous = world.spawn();
    /// assert_eq!(world.entity(named)?.name(), Some("door"));
    /// assert_eq!(world.entity(anonymous)?.name(), None);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn name(&self) -> Option<&'w str> {
        self.world().name_of(self.id().index)
    }
}

impl EntityMut<'_> {
    /// The entity's name, if it was spawned with one.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let id = world.spawn_named("door");
    /// let mut e = world.entity_mut(id)?;
    /// assert_eq!(e.name(), Some("door"));
    /// e.set_name(None);
    /// assert_eq!(e.name(), None);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn name(&self) -> Option<&str> {
        self.world().name_of(self.id().index)
    }
}

// The entity views print here, where the name is known.
impl fmt::Debug for EntityRef<'_> {
    /// Lists the components with their own `Debug` output where they have one.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let components: Vec<_> = self.components().collect();
        let mut s = f.debug_struct("Entity");
        s.field("id", &self.id());
        if let Some(name) = self.name() {
            s.field("name", &name);
        }
        if !self.is_enabled() {
            s.field("enabled", &false);
        }
        if self.is_dead() {
            s.field("dead", &true);
        }
        s.field("components", &components).finish()
    }
}

impl fmt::Debug for EntityMut<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.as_ref(), f)
    }
}
