//! Per-type iteration over the whole world: every component that is-a `T`.

use crate::entity::{Entities, EntityIndex};
use crate::query::{Query, QueryData, QueryMut, ReadOnlyQueryData};
use crate::table::{Meta, Row};
use crate::world::World;
use crate::{Component, EntityId, Error};

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
fn is_active_row(entities: &Entities, owner: EntityIndex, meta: Meta) -> bool {
    meta.is_enabled() && entities.slot(owner).is_active()
}

impl World {
    /// Every entity holding a component that is-a each required term's
    /// type, read-only: `Q` is a tuple of the read-only terms listed on
    /// [`Term`](crate::Term). Tables are visited in the order they were
    /// made, rows in storage order. Disabled components and
    /// disabled or killed entities are skipped unless
    /// [`Query::include_inactive`] is called.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Moving { speed: f32 }
    /// #[derive(Component)]
    /// #[component(parent = Moving)]
    /// struct AxisMoving { base: Moving, vertical: bool }
    /// let mut world = World::new();
    /// world.spawn_with((Moving { speed: 1.0 },))?;
    /// world.spawn_with((AxisMoving { base: Moving { speed: 2.0 }, vertical: true },))?;
    /// let total: f32 = world.query::<(&Moving,)>().iter().map(|(m,)| m.speed).sum();
    /// assert_eq!(world.query::<(&Moving,)>().count(), 2);
    /// assert_eq!(total, 3.0); // the AxisMoving is-a Moving
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn query<Q: ReadOnlyQueryData>(&self) -> Query<'_, Q> {
        Query::new(&self.entities, &self.storage, &self.plans)
    }

    /// Like [`World::query`], with the mutable [`Term`](crate::Term)s
    /// too. A tuple whose terms could hand out the same component twice,
    /// one of them mutably (`(&mut Position, &Position)`, or
    /// `(&mut Moving, &AxisMoving)` where `AxisMoving` is-a `Moving`), does
    /// not compile.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Position(f32);
    /// #[derive(Component)]
    /// struct Velocity(f32);
    /// #[derive(Component)]
    /// struct Frozen;
    /// let mut world = World::new();
    /// let a = world.spawn_with((Position(0.0), Velocity(1.0)))?;
    /// let b = world.spawn_with((Position(0.0), Velocity(1.0), Frozen))?;
    /// for (id, pos, vel) in world.query_mut::<(EntityId, &mut Position, &Velocity)>().without::<Frozen>() {
    ///     assert_eq!(id, a);
    ///     pos.0 += vel.0;
    /// }
    /// assert_eq!(world.entity(a)?.get::<Position>().unwrap().0, 1.0);
    /// assert_eq!(world.entity(b)?.get::<Position>().unwrap().0, 0.0);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    ///
    /// The loop borrows the world, so a structural change inside it
    /// (`world.despawn(id)`, `add`, `spawn`) does not compile. Queue the
    /// changes in a [`Commands`](crate::Commands) of your own (or collect
    /// the ids) and apply them after the loop: `?` on
    /// [`Commands::apply`](crate::Commands::apply) passes on every change
    /// that failed, as one [`Error::Commands`].
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Health(u32);
    /// #[derive(Component)]
    /// struct Poisoned;
    /// # fn main() -> Result<(), Error> {
    /// let mut world = World::new();
    /// let weak = world.spawn_with((Health(1), Poisoned))?;
    /// let strong = world.spawn_with((Health(5), Poisoned))?;
    /// let mut later = Commands::new();
    /// for (id, health) in world.query_mut::<(EntityId, &mut Health)>().with::<Poisoned>() {
    ///     health.0 -= 1;
    ///     if health.0 == 0 {
    ///         later.despawn(id); // `world.despawn(id)` here: the world is borrowed
    ///     } else {
    ///         later.remove::<Poisoned>(id);
    ///     }
    /// }
    /// later.apply(&mut world)?;
    /// assert!(!world.contains(weak));
    /// assert!(!world.entity(strong)?.has::<Poisoned>());
    /// # Ok(())
    /// # }
    /// ```
    ///
    /// # Panics
    /// Only for two terms naming the same instantiation of one generic
    /// component type (`(&mut Stat<Hp>, &Stat<Hp>)`), which a constant
    /// cannot tell from two different ones; every other conflict is a
    /// compile error.
    pub fn query_mut<Q: QueryData>(&mut self) -> QueryMut<'_, Q> {
        QueryMut::new(&self.entities, &mut self.storage, &mut self.plans)
    }

    /// The items of query `Q` for entity `id` alone: several components of
    /// one entity, some mutable, under the same rules as
    /// [`World::query_mut`] (is-a matching, the first match in insertion
    /// order, conflicting terms rejected at compile time), except that
    /// disabled components and entities are read too, as
    /// [`EntityRef::get`](crate::EntityRef::get) does.
    ///
    /// # Errors
    /// [`Error::NoSuchEntity`] when `id` is not alive;
    /// [`Error::MissingComponent`] naming the first required term the
    /// entity holds nothing for.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Position(f32);
    /// #[derive(Component)]
    /// struct Velocity(f32);
    /// let mut world = World::new();
    /// let id = world.spawn_with((Position(1.0), Velocity(2.0)))?;
    /// let (pos, vel) = world.query_one_mut::<(&mut Position, &Velocity)>(id)?;
    /// pos.0 += vel.0;
    /// assert_eq!(world.entity(id)?.get::<Position>().unwrap().0, 3.0);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn query_one_mut<Q: QueryData>(&mut self, id: EntityId) -> Result<Q::Item<'_>, Error> {
        crate::query::one_mut::<Q>(&self.entities, &mut self.storage, id)
    }

    /// Read-only twin of [`World::query_one_mut`].
    ///
    /// # Errors
    /// As [`World::query_one_mut`].
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Position(f32);
    /// #[derive(Component)]
    /// struct Velocity(f32);
    /// let mut world = World::new();
    /// let id = world.spawn_with((Position(1.0),))?;
    /// let (pos, vel) = world.query_one::<(&Position, Option<&Velocity>)>(id)?;
    /// assert_eq!((pos.0, vel.is_none()), (1.0, true));
    /// assert!(matches!(world.query_one::<(&Velocity,)>(id), Err(Error::MissingComponent { .. })));
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn query_one<Q: ReadOnlyQueryData>(&self, id: EntityId) -> Result<Q::Item<'_>, Error> {
        crate::query::one::<Q>(&self.entities, &self.storage, id)
    }
}
