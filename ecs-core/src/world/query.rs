//! Per-type iteration over the whole world: every component that is-a `T`.

use crate::entity::{Entities, EntityIndex};
use crate::storage::{Row, DISABLED};
use crate::world::World;
use crate::{Component, EntityId};

impl World {
    /// Every component that is-a `T`, with its entity: first the column of
    /// `T` itself in storage order (table by table, in the order the tables
    /// were made; rows in insertion order until a removal moves the last
    /// row into the gap), then the columns of types derived from `T` in the
    /// order they were first added to this world. Disabled
    /// components and dead entities are included; see [`World::iter_active`].
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Health(u32);
    /// let mut world = World::new();
    /// for hp in 1..=3 {
    ///     world.spawn_with((Health(hp),))?;
    /// }
    /// assert_eq!(world.iter::<Health>().map(|(_, h)| h.0).sum::<u32>(), 6);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn iter<T: Component>(&self) -> impl Iterator<Item = (EntityId, &T)> + '_ {
        self.storage
            .rows::<T>()
            .map(|(owner, _, c)| (self.id_at(owner), c))
    }

    /// Like [`World::iter`], but only enabled components of active entities
    /// (alive, enabled, not killed): what an update sees.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Health(u32);
    /// let mut world = World::new();
    /// let alive = world.spawn_with((Health(1),))?;
    /// let dead = world.spawn_with((Health(2),))?;
    /// world.entity_mut(dead)?.kill();
    /// assert_eq!(world.iter::<Health>().count(), 2);
    /// assert_eq!(world.iter_active::<Health>().map(|(id, _)| id).collect::<Vec<_>>(), [alive]);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn iter_active<T: Component>(&self) -> impl Iterator<Item = (EntityId, &T)> + '_ {
        self.storage
            .rows::<T>()
            .filter(|&(owner, meta, _)| is_active_row(&self.entities, owner, meta))
            .map(|(owner, _, c)| (self.id_at(owner), c))
    }

    /// Mutable twin of [`World::iter`], in the same order.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Health(u32);
    /// let mut world = World::new();
    /// let a = world.spawn_with((Health(1),))?;
    /// world.spawn_with((Health(2),))?;
    /// for (id, health) in world.iter_mut::<Health>() {
    ///     if id == a {
    ///         health.0 = 10;
    ///     }
    /// }
    /// assert_eq!(world.iter::<Health>().map(|(_, h)| h.0).collect::<Vec<_>>(), [10, 2]);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn iter_mut<T: Component>(&mut self) -> impl Iterator<Item = (EntityId, &mut T)> + '_ {
        let (entities, rows) = self.rows_mut::<T>();
        rows.map(move |(owner, _, c)| (entities.id_at(owner), c))
    }

    /// Calls `f` on every component that is-a `T`, in [`World::iter`] order:
    /// the fastest whole-world loop over one type (no entity ids).
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Data(f32);
    /// let mut world = World::new();
    /// world.spawn_batch((0..3).map(|i| (Data(i as f32),)))?;
    /// world.for_each_mut(|d: &mut Data| d.0 *= 2.0);
    /// assert_eq!(world.iter::<Data>().map(|(_, d)| d.0).sum::<f32>(), 6.0);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn for_each_mut<T: Component>(&mut self, f: impl FnMut(&mut T)) {
        self.storage.for_each_mut(f);
    }

    /// Mutable twin of [`World::iter_active`].
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Health(u32);
    /// let mut world = World::new();
    /// world.spawn_with((Health(1),))?;
    /// let off = world.spawn_with((Health(1),))?;
    /// world.entity_mut(off)?.set_enabled(false);
    /// world.iter_active_mut::<Health>().for_each(|(_, h)| h.0 += 1);
    /// assert_eq!(world.iter::<Health>().map(|(_, h)| h.0).collect::<Vec<_>>(), [2, 1]);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn iter_active_mut<T: Component>(
        &mut self,
    ) -> impl Iterator<Item = (EntityId, &mut T)> + '_ {
        let (entities, rows) = self.rows_mut::<T>();
        rows.filter(move |&(owner, meta, _)| is_active_row(entities, owner, meta))
            .map(move |(owner, _, c)| (entities.id_at(owner), c))
    }

    /// Every row of `T` mutably, beside the entity table that names their
    /// owners.
    fn rows_mut<T: Component>(&mut self) -> (&Entities, impl Iterator<Item = Row<&mut T>> + '_) {
        (&self.entities, self.storage.rows_mut::<T>())
    }
}

/// What an update sees of a row: an enabled component of an active entity.
fn is_active_row(entities: &Entities, owner: EntityIndex, meta: u32) -> bool {
    meta & DISABLED == 0 && entities.slot(owner).is_active()
}
