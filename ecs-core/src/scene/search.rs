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

/// [`World::find_all_in_children`]: `id` and its descendants, in pre-order.
pub(crate) fn find_all_in_children<T: Component>(
    world: &World,
    id: EntityId,
    filter: TreeFilter,
) -> Result<impl Iterator<Item = (EntityId, &T)> + '_, Error> {
    world.check(id)?;
    let order = world.hierarchy().subtree(id.index);
    Ok(components_along(world, order, filter))
}

/// [`World::find_all_in_parents`]: `id` and its ancestors, nearest first.
pub(crate) fn find_all_in_parents<T: Component>(
    world: &World,
    id: EntityId,
    filter: TreeFilter,
) -> Result<impl Iterator<Item = (EntityId, &T)> + '_, Error> {
    world.check(id)?;
    let order: Vec<EntityIndex> = std::iter::once(id.index)
        .chain(world.hierarchy().ancestors(id.index))
        .collect();
    Ok(components_along(world, order, filter))
}

/// Every component that is-a `T` on the entities of `order` that `filter`
/// admits, entity by entity, each entity's in insertion order.
fn components_along<T: Component>(
    world: &World,
    order: Vec<EntityIndex>,
    filter: TreeFilter,
) -> impl Iterator<Item = (EntityId, &T)> + '_ {
    order
        .into_iter()
        .filter(move |&i| filter.admits(world, i))
        .flat_map(move |i| {
            let id = world.id_at(i);
            world.find_all::<T>(i).map(move |c| (id, c))
        })
}
