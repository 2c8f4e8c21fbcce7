//! Borrowed views of one entity: [`EntityRef`] reads, [`EntityMut`] writes.

use crate::entity::{RowId, TableId};
use crate::table::{ChangeKind, Tick};

use crate::world::World;
use crate::{Component, EntityId, Error};

/// Read access to one live entity, from [`World::entity`].
///
/// ```
/// # use ecs_core::prelude::*;
/// #[derive(Component)]
/// struct Health(u32);
/// let mut world = World::new();
/// let id = world.spawn_with((Health(3),))?;
/// let e: EntityRef<'_> = world.entity(id)?;
/// assert_eq!(e.id(), id);
/// assert_eq!(e.get::<Health>().unwrap().0, 3);
/// # Ok::<(), ecs_core::Error>(())
/// ```
#[derive(Clone, Copy)]
pub struct EntityRef<'w> {
    world: &'w World,
    id: EntityId,
    /// Where the entity's components are: fixed while the world is
    /// borrowed, so each lookup skips the entity table.
    table: TableId,
    row: RowId,
}

/// Read-write access to one live entity, from [`World::entity_mut`].
///
/// ```
/// # use ecs_core::prelude::*;
/// #[derive(Component)]
/// struct Health(u32);
/// let mut world = World::new();
/// let id = world.spawn();
/// let mut e: EntityMut<'_> = world.entity_mut(id)?;
/// e.add(Health(3))?;
/// e.get_mut::<Health>().unwrap().0 = 5;
/// assert_eq!(world.entity(id)?.get::<Health>().unwrap().0, 5);
/// # Ok::<(), ecs_core::Error>(())
/// ```
pub struct EntityMut<'w> {
    world: &'w mut World,
    id: EntityId,
}

impl<'w> EntityRef<'w> {
    pub(crate) fn new(world: &'w World, id: EntityId, table: TableId, row: RowId) -> Self {
        EntityRef {
            world,
            id,
            table,
            row,
        }
    }

    /// The entity's id.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let id = world.spawn();
    /// assert_eq!(world.entity(id)?.id(), id);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn id(&self) -> EntityId {
        self.id
    }

    /// The world the entity lives in.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let id = world.spawn();
    /// let e = world.entity(id)?;
    /// assert!(e.world().contains(e.id()));
    /// assert_eq!(e.world().len(), 1);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn world(&self) -> &'w World {
        self.world
    }

    /// The first component that is-a `T`, in insertion order.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Moving { speed: f32 }
    /// #[derive(Component)]
    /// #[component(parent = Moving)]
    /// struct AxisMoving { base: Moving }
    ///
    /// let mut world = World::new();
    /// let id = world.spawn();
    /// world.entity_mut(id)?.add(AxisMoving { base: Moving { speed: 2.0 } })?;
    /// assert_eq!(world.entity(id)?.get::<Moving>().unwrap().speed, 2.0);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    #[inline]
    pub fn get<T: Component>(&self) -> Option<&'w T> {
        self.world.storage().find_at::<T>(self.table, self.row)
    }

    /// Every component that is-a `T`, in insertion order.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// #[component(multiple)]
    /// struct Collider { radius: f32 }
    /// #[derive(Component)]
    /// #[component(parent = Collider)]
    /// struct Trigger { base: Collider }
    /// let mut world = World::new();
    /// let id = world.spawn();
    /// let mut e = world.entity_mut(id)?;
    /// e.add(Collider { radius: 1.0 })?;
    /// e.add(Trigger { base: Collider { radius: 2.0 } })?;
    /// let radii: Vec<f32> = world.entity(id)?.get_all::<Collider>().map(|c| c.radius).collect();
    /// assert_eq!(radii, [1.0, 2.0]); // the Trigger is-a Collider
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn get_all<T: Component>(&self) -> impl Iterator<Item = &'w T> + 'w {
        self.world.storage().find_all_at(self.table, self.row)
    }

    /// `true` when the entity holds a component that is-a `T`.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Moving { speed: f32 }
    /// #[derive(Component)]
    /// #[component(parent = Moving)]
    /// struct AxisMoving { base: Moving }
    /// let mut world = World::new();
    /// let id = world.spawn_with((Moving { speed: 1.0 },))?;
    /// let e = world.entity(id)?;
    /// assert!(e.has::<Moving>());
    /// assert!(!e.has::<AxisMoving>()); // a Moving is not an AxisMoving
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn has<T: Component>(&self) -> bool {
        self.get::<T>().is_some()
    }

    /// Whether a component that is-a `T` was added, replaced or handed out
    /// mutably after `since` (a tick from
    /// [`World::change_tick`](crate::World::change_tick)); for a
    /// `multiple` type, any one of them.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Health(u32);
    /// let mut world = World::new();
    /// let id = world.spawn_with((Health(3),))?;
    /// let seen = world.change_tick();
    /// assert!(!world.entity(id)?.changed_since::<Health>(seen));
    /// world.entity_mut(id)?.get_mut::<Health>().unwrap().0 = 2;
    /// assert!(world.entity(id)?.changed_since::<Health>(seen));
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn changed_since<T: Component>(&self, since: Tick) -> bool {
        let storage = self.world.storage();
        storage.any_after::<T>(self.table, self.row, ChangeKind::Changed, since)
    }

    /// Whether a component that is-a `T` was attached after `since`.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Health(u32);
    /// #[derive(Component)]
    /// struct Shield;
    /// let mut world = World::new();
    /// let id = world.spawn_with((Health(3),))?;
    /// let seen = world.change_tick();
    /// world.entity_mut(id)?.add(Shield)?;
    /// let e = world.entity(id)?;
    /// assert!(e.added_since::<Shield>(seen) && !e.added_since::<Health>(seen));
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn added_since<T: Component>(&self, since: Tick) -> bool {
        let storage = self.world.storage();
        storage.any_after::<T>(self.table, self.row, ChangeKind::Added, since)
    }

    /// Number of components on the entity.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct A;
    /// #[derive(Component)]
    /// struct B;
    /// let mut world = World::new();
    /// let id = world.spawn_with((A, B))?;
    /// assert_eq!(world.entity(id)?.len(), 2);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn len(&self) -> usize {
        self.world.comp_count(self.id.index)
    }

    /// `true` when the entity holds no component.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct A;
    /// let mut world = World::new();
    /// let id = world.spawn();
    /// assert!(world.entity(id)?.is_empty());
    /// world.entity_mut(id)?.add(A)?;
    /// assert!(!world.entity(id)?.is_empty());
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl<'w> EntityMut<'w> {
    pub(crate) fn new(world: &'w mut World, id: EntityId) -> Self {
        EntityMut { world, id }
    }

    /// A read-only view of the same entity.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Health(u32);
    /// fn total(e: EntityRef<'_>) -> u32 { e.get::<Health>().map_or(0, |h| h.0) }
    /// let mut world = World::new();
    /// let id = world.spawn();
    /// let mut e = world.entity_mut(id)?;
    /// e.add(Health(3))?;
    /// assert_eq!(total(e.as_ref()), 3);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn as_ref(&self) -> EntityRef<'_> {
        let slot = self.world.slot(self.id.index);
        EntityRef::new(self.world, self.id, slot.table, slot.row)
    }

    /// The entity's id.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let id = world.spawn();
    /// assert_eq!(world.entity_mut(id)?.id(), id);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn id(&self) -> EntityId {
        self.id
    }

    /// The first component that is-a `T`, in insertion order.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Moving { speed: f32 }
    /// #[derive(Component)]
    /// #[component(parent = Moving)]
    /// struct AxisMoving { base: Moving }
    /// let mut world = World::new();
    /// let id = world.spawn();
    /// let mut e = world.entity_mut(id)?;
    /// e.add(AxisMoving { base: Moving { speed: 2.0 } })?;
    /// assert_eq!(e.get::<Moving>().unwrap().speed, 2.0);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    #[inline]
    pub fn get<T: Component>(&self) -> Option<&T> {
        self.world.find::<T>(self.id.index)
    }

    /// Mutable access to the first component that is-a `T`.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Moving { speed: f32 }
    /// #[derive(Component)]
    /// #[component(parent = Moving)]
    /// struct AxisMoving { base: Moving }
    /// let mut world = World::new();
    /// let id = world.spawn();
    /// let mut e = world.entity_mut(id)?;
    /// e.add(AxisMoving { base: Moving { speed: 2.0 } })?;
    /// e.get_mut::<Moving>().unwrap().speed = 4.0; // through the parent chain
    /// assert_eq!(e.get::<AxisMoving>().unwrap().base.speed, 4.0);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    #[inline]
    pub fn get_mut<T: Component>(&mut self) -> Option<&mut T> {
        self.world.find_mut::<T>(self.id.index)
    }

    /// Every component that is-a `T`, in insertion order.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// #[component(multiple)]
    /// struct Collider { radius: f32 }
    /// let mut world = World::new();
    /// let id = world.spawn();
    /// let mut e = world.entity_mut(id)?;
    /// e.add(Collider { radius: 1.0 })?;
    /// e.add(Collider { radius: 3.0 })?;
    /// assert_eq!(e.get_all::<Collider>().map(|c| c.radius).sum::<f32>(), 4.0);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn get_all<T: Component>(&self) -> impl Iterator<Item = &T> + '_ {
        self.world.find_all::<T>(self.id.index)
    }

    /// Every component that is-a `T`, mutably, in insertion order.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// #[component(multiple)]
    /// struct Collider { radius: f32 }
    /// let mut world = World::new();
    /// let id = world.spawn();
    /// let mut e = world.entity_mut(id)?;
    /// e.add(Collider { radius: 1.0 })?;
    /// e.add(Collider { radius: 3.0 })?;
    /// e.get_all_mut::<Collider>().for_each(|c| c.radius *= 2.0);
    /// assert_eq!(e.get_all::<Collider>().map(|c| c.radius).collect::<Vec<_>>(), [2.0, 6.0]);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn get_all_mut<T: Component>(&mut self) -> impl Iterator<Item = &mut T> + '_ {
        self.world.find_all_mut::<T>(self.id.index).into_iter()
    }

    /// `true` when the entity holds a component that is-a `T`.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Health(u32);
    /// let mut world = World::new();
    /// let id = world.spawn();
    /// let mut e = world.entity_mut(id)?;
    /// assert!(!e.has::<Health>());
    /// e.add(Health(1))?;
    /// assert!(e.has::<Health>());
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn has<T: Component>(&self) -> bool {
        self.get::<T>().is_some()
    }

    /// Number of components on the entity.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Health(u32);
    /// let mut world = World::new();
    /// let id = world.spawn();
    /// let mut e = world.entity_mut(id)?;
    /// e.add(Health(1))?;
    /// assert_eq!(e.len(), 1);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn len(&self) -> usize {
        self.as_ref().len()
    }

    /// `true` when the entity holds no component.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Health(u32);
    /// let mut world = World::new();
    /// let id = world.spawn_with((Health(1),))?;
    /// let mut e = world.entity_mut(id)?;
    /// assert!(!e.is_empty());
    /// e.remove::<Health>();
    /// assert!(e.is_empty());
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Adds a component and returns it.
    ///
    /// # Errors
    /// [`Error::Duplicate`] when the entity already holds a component that
    /// is-a some single type that `C` also is-a (for example a second
    /// `AxisMoving` when `Moving` is single); the entity is left unchanged.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Health(u32);
    ///
    /// let mut world = World::new();
    /// let id = world.spawn();
    /// let mut e = world.entity_mut(id)?;
    /// e.add(Health(3))?.0 += 1;
    /// assert_eq!(e.get::<Health>().unwrap().0, 4);
    /// assert!(matches!(e.add(Health(1)), Err(Error::Duplicate { .. })));
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn add<C: Component>(&mut self, component: C) -> Result<&mut C, Error> {
        self.world.reclaim_tables();
        self.world.insert(self.id.index, component)
    }

    /// Removes and returns the first component whose concrete type is exactly
    /// `T` (a derived type is not removed by asking for its parent).
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Moving { speed: f32 }
    /// #[derive(Component)]
    /// #[component(parent = Moving)]
    /// struct AxisMoving { base: Moving }
    /// let mut world = World::new();
    /// let id = world.spawn_with((AxisMoving { base: Moving { speed: 2.0 } },))?;
    /// let mut e = world.entity_mut(id)?;
    /// assert!(e.remove::<Moving>().is_none()); // exact type only
    /// assert_eq!(e.remove::<AxisMoving>().unwrap().base.speed, 2.0);
    /// assert!(e.is_empty());
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn remove<T: Component>(&mut self) -> Option<T> {
        self.world.reclaim_tables();
        let removed = self.world.remove_exact::<T>(self.id.index);
        // The table the entity left may have emptied: given back now, not
        // at some later call, once empty tables weigh enough.
        self.world.reclaim_tables();
        removed
    }

    /// The world the entity lives in.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let a = world.spawn_named("a");
    /// let e = world.entity_mut(a)?;
    /// assert_eq!(e.world().find_by_name("a"), Some(a));
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn world(&self) -> &World {
        self.world
    }

    pub(crate) fn world_mut(&mut self) -> &mut World {
        self.world
    }
}

impl World {
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
        match self.entities.get_live(id) {
            Some(slot) => Ok(EntityRef::new(self, id, slot.table, slot.row)),
            None => Err(Error::NoSuchEntity(id)),
        }
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
}
