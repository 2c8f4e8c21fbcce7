//! Component search in the scene graph: Unity's `GetComponentInChildren`
//! and `GetComponentInParent`, and Lifish's recursive `getAllRecursive`.

use crate::entity::EntityIndex;
use crate::world::World;
use crate::{Component, EntityId, Error};

/// Which entities a tree search looks at.
///
/// ```
/// # use ecs_core::prelude::*;
/// #[derive(Component)]
/// struct Wheel(u8);
/// let mut world = World::new();
/// let car = world.spawn();
/// let wheel = world.spawn_with((Wheel(1),))?;
/// world.set_parent(wheel, car)?;
/// world.entity_mut(wheel)?.set_enabled(false);
/// let skip = TreeFilter { skip_disabled: true, ..TreeFilter::default() };
/// assert!(world.find_in_children::<Wheel>(car, skip)?.is_none());
/// assert!(world.find_in_children::<Wheel>(car, TreeFilter::ALL)?.is_some());
/// # Ok::<(), ecs_core::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TreeFilter {
    /// Skip entities disabled with `set_enabled(false)`, and their
    /// components (the search still walks through them to their children).
    pub skip_disabled: bool,
    /// Skip killed entities the same way.
    pub skip_killed: bool,
}

impl TreeFilter {
    /// Every entity.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Wheel(u8);
    /// let mut world = World::new();
    /// let wheel = world.spawn_with((Wheel(1),))?;
    /// world.entity_mut(wheel)?.kill();
    /// assert_eq!(TreeFilter::ALL, TreeFilter::default());
    /// assert!(world.find_in_children::<Wheel>(wheel, TreeFilter::ALL)?.is_some());
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub const ALL: TreeFilter = TreeFilter {
        skip_disabled: false,
        skip_killed: false,
    };
    /// Only enabled, living entities.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Wheel(u8);
    /// let mut world = World::new();
    /// let car = world.spawn();
    /// let wheel = world.spawn_with((Wheel(1),))?;
    /// world.set_parent(wheel, car)?;
    /// world.entity_mut(wheel)?.kill();
    /// assert!(world.find_in_children::<Wheel>(car, TreeFilter::ACTIVE)?.is_none());
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub const ACTIVE: TreeFilter = TreeFilter {
        skip_disabled: true,
        skip_killed: true,
    };

    fn admits(self, world: &World, index: EntityIndex) -> bool {
        let slot = &world.slot(index);
        let skipped = (self.skip_disabled && slot.disabled) || (self.skip_killed && slot.killed);
        !skipped
    }
}

impl World {
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
        self.check(id)?;
        let order = self.hierarchy().subtree(id.index);
        Ok(self.components_along(order, filter))
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
        self.check(id)?;
        let order: Vec<EntityIndex> = std::iter::once(id.index)
            .chain(self.hierarchy().ancestors(id.index))
            .collect();
        Ok(self.components_along(order, filter))
    }

    fn components_along<T: Component>(
        &self,
        order: Vec<EntityIndex>,
        filter: TreeFilter,
    ) -> impl Iterator<Item = (EntityId, &T)> + '_ {
        order
            .into_iter()
            .filter(move |&i| filter.admits(self, i))
            .flat_map(move |i| {
                let id = self.id_at(i);
                self.find_all::<T>(i).map(move |c| (id, c))
            })
    }
}
