//! The scene layer's part of [`World`], all of it in this one block: names,
//! the hierarchy and despawning a whole subtree, and component searches
//! down and up the tree. A method whose body is more than a few lines
//! calls into the module it belongs to, so this file reads as the index.
//! Here too: the entity views' names and their `Debug`. The scene's state
//! (the hierarchy, the names) is kept in the world as extensions of this
//! layer.

use std::fmt;

use crate::entity::EntityIndex;
use crate::scene::hierarchy::{self, Hierarchy};
use crate::scene::names::Names;
use crate::scene::search::{self, TreeFilter};
use crate::world::extension::{restore_clone, Extension};
use crate::{Component, EntityId, EntityMut, EntityRef, Error, World};

/// What a world that never named an entity reads.
static NO_NAMES: Names = Names::new();
/// What a world that never linked two entities reads.
static NO_HIERARCHY: Hierarchy = Hierarchy::new();

impl Extension for Names {
    fn forget(&mut self, index: EntityIndex) {
        self.set(index, None);
    }

    fn snapshot(&self) -> Option<Box<dyn Extension>> {
        Some(Box::new(self.clone()))
    }

    fn in_snapshots(&self) -> bool {
        true
    }

    fn restore_from(&mut self, snapshot: &dyn Extension) -> bool {
        restore_clone(self, snapshot)
    }
}

impl Extension for Hierarchy {
    fn forget(&mut self, index: EntityIndex) {
        self.detach(index);
    }

    fn snapshot(&self) -> Option<Box<dyn Extension>> {
        Some(Box::new(self.clone()))
    }

    fn in_snapshots(&self) -> bool {
        true
    }

    fn restore_from(&mut self, snapshot: &dyn Extension) -> bool {
        restore_clone(self, snapshot)
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
        self.names().slots(name).next().map(|i| self.id_at(i))
    }

    /// Every entity named `name`, in the order they got the name.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let a = world.spawn_named("crate");
    /// world.spawn_named("barrel");
    /// let b = world.spawn_named("crate");
    /// assert_eq!(world.find_all_by_name("crate").collect::<Vec<_>>(), [a, b]);
    /// assert_eq!(world.find_all_by_name("chest").count(), 0);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn find_all_by_name<'a>(&'a self, name: &str) -> impl Iterator<Item = EntityId> + 'a {
        self.names().slots(name).map(|i| self.id_at(i))
    }

    /// Makes `parent` the parent of `child`; `child` becomes its last child.
    /// Reparenting moves the whole subtree.
    ///
    /// # Errors
    /// [`Error::NoSuchEntity`] for a dead id, [`Error::HierarchyCycle`] when
    /// `parent` is `child` or one of its descendants. Nothing changes then.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let car = world.spawn_named("car");
    /// let wheel = world.spawn_named("wheel");
    /// world.set_parent(wheel, car)?;
    /// assert_eq!(world.entity(wheel)?.parent(), Some(car));
    /// assert!(world.set_parent(car, wheel).is_err(), "a cycle");
    /// world.despawn(car)?;
    /// assert!(!world.contains(wheel), "despawn takes the subtree");
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn set_parent(&mut self, child: EntityId, parent: EntityId) -> Result<(), Error> {
        hierarchy::set_parent(self, child, parent)
    }

    /// Makes `child` a root again.
    ///
    /// # Errors
    /// [`Error::NoSuchEntity`] for a dead id.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let car = world.spawn();
    /// let wheel = world.spawn();
    /// world.set_parent(wheel, car)?;
    /// world.clear_parent(wheel)?;
    /// assert_eq!(world.entity(wheel)?.parent(), None);
    /// assert_eq!(world.roots().collect::<Vec<_>>(), [car, wheel]);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn clear_parent(&mut self, child: EntityId) -> Result<(), Error> {
        self.check(child)?;
        hierarchy::hierarchy_mut(self).detach(child.index);
        self.set_parent_link(child.index, None);
        Ok(())
    }

    /// Live entities without a parent, in slot order.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let car = world.spawn();
    /// let wheel = world.spawn();
    /// let tree = world.spawn();
    /// world.set_parent(wheel, car)?;
    /// assert_eq!(world.roots().collect::<Vec<_>>(), [car, tree]);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn roots(&self) -> impl Iterator<Item = EntityId> + '_ {
        let hierarchy = self.hierarchy();
        self.iter_ids()
            .filter(move |id| hierarchy.parent(id.index).is_none())
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
        hierarchy::despawn(self, id)
    }

    /// The first component that is-a `T` on `id` or below it: the entity
    /// itself first, then its descendants depth-first (Unity's order).
    ///
    /// # Errors
    /// [`Error::NoSuchEntity`] for a dead id.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Wheel(u8);
    /// let mut world = World::new();
    /// let car = world.spawn();
    /// let front = world.spawn_with((Wheel(1),))?;
    /// world.set_parent(front, car)?;
    /// let (holder, wheel) = world.find_in_children::<Wheel>(car, TreeFilter::ALL)?.unwrap();
    /// assert_eq!((holder, wheel.0), (front, 1));
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn find_in_children<T: Component>(
        &self,
        id: EntityId,
        filter: TreeFilter,
    ) -> Result<Option<(EntityId, &T)>, Error> {
        Ok(self.find_all_in_children(id, filter)?.next())
    }

    /// Every component that is-a `T` on `id` and its descendants, in the
    /// order of [`World::find_in_children`] (each entity's in insertion order).
    ///
    /// # Errors
    /// [`Error::NoSuchEntity`] for a dead id.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Wheel(u8);
    /// let mut world = World::new();
    /// let car = world.spawn();
    /// let front = world.spawn_with((Wheel(1),))?;
    /// let back = world.spawn_with((Wheel(2),))?;
    /// world.set_parent(front, car)?;
    /// world.set_parent(back, car)?;
    /// let found: Vec<(EntityId, u8)> = world
    ///     .find_all_in_children::<Wheel>(car, TreeFilter::ALL)?
    ///     .map(|(id, w)| (id, w.0))
    ///     .collect();
    /// assert_eq!(found, [(front, 1), (back, 2)]);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn find_all_in_children<T: Component>(
        &self,
        id: EntityId,
        filter: TreeFilter,
    ) -> Result<impl Iterator<Item = (EntityId, &T)> + '_, Error> {
        search::find_all_in_children(self, id, filter)
    }

    /// The first component that is-a `T` on `id` or above it: the entity
    /// itself first, then its parent, grandparent, ...
    ///
    /// # Errors
    /// [`Error::NoSuchEntity`] for a dead id.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Vehicle(&'static str);
    /// let mut world = World::new();
    /// let car = world.spawn_with((Vehicle("car"),))?;
    /// let wheel = world.spawn();
    /// world.set_parent(wheel, car)?;
    /// let (holder, vehicle) = world.find_in_parents::<Vehicle>(wheel, TreeFilter::ALL)?.unwrap();
    /// assert_eq!((holder, vehicle.0), (car, "car"));
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn find_in_parents<T: Component>(
        &self,
        id: EntityId,
        filter: TreeFilter,
    ) -> Result<Option<(EntityId, &T)>, Error> {
        Ok(self.find_all_in_parents(id, filter)?.next())
    }

    /// Every component that is-a `T` on `id` and its ancestors, nearest first.
    ///
    /// # Errors
    /// [`Error::NoSuchEntity`] for a dead id.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Tag(&'static str);
    /// let mut world = World::new();
    /// let car = world.spawn_with((Tag("car"),))?;
    /// let wheel = world.spawn_with((Tag("wheel"),))?;
    /// world.set_parent(wheel, car)?;
    /// let tags: Vec<&str> = world
    ///     .find_all_in_parents::<Tag>(wheel, TreeFilter::ALL)?
    ///     .map(|(_, t)| t.0)
    ///     .collect();
    /// assert_eq!(tags, ["wheel", "car"]); // nearest first
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn find_all_in_parents<T: Component>(
        &self,
        id: EntityId,
        filter: TreeFilter,
    ) -> Result<impl Iterator<Item = (EntityId, &T)> + '_, Error> {
        search::find_all_in_parents(self, id, filter)
    }

    // The state accessors below are read by the layers above too (runtime,
    // data), so they are `World` methods; `hierarchy_mut`, which only this
    // layer calls, is a function in hierarchy.rs.

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
