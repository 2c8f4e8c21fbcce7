//! Several components of one entity at once, as a query reads them.

use crate::query::data::QueryData;
use crate::query::iter::Source;
use crate::query::plan::Plan;
use crate::query::{check_conflicts, ReadOnlyQueryData};
use crate::world::World;
use crate::{EntityId, Error};

impl World {
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
        check_conflicts::<Q>();
        let slot = self
            .entities()
            .get_live(id)
            .ok_or(Error::NoSuchEntity(id))?;
        let (table, row) = (slot.table, slot.row);
        let (entities, storage) = self.entities_and_storage_mut();
        let places = Plan::places_in(storage, Q::TERMS, table).map_err(|i| missing::<Q>(id, i))?;
        let many = Plan::many_in(storage, Q::TERMS, table);
        let mut wanted: Vec<_> = places
            .iter()
            .flatten()
            .chain(many.iter().flatten())
            .map(|&(seg, _)| seg)
            .collect();
        wanted.sort_unstable();
        wanted.dedup();
        let mut source = Source::new_mut(storage, &wanted);
        let rows = source
            .open::<Q>(table, &places, &many, entities, true)
            .ok_or_else(|| missing::<Q>(id, 0))?;
        let (_, mut rest) = rows.split(row.index());
        rest.next().ok_or_else(|| missing::<Q>(id, 0))
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
        let slot = self
            .entities()
            .get_live(id)
            .ok_or(Error::NoSuchEntity(id))?;
        let (table, row) = (slot.table, slot.row);
        let storage = self.storage();
        let places = Plan::places_in(storage, Q::TERMS, table).map_err(|i| missing::<Q>(id, i))?;
        let many = Plan::many_in(storage, Q::TERMS, table);
        let mut source = Source::shared(storage);
        let rows = source
            .open::<Q>(table, &places, &many, self.entities(), true)
            .ok_or_else(|| missing::<Q>(id, 0))?;
        let (_, mut rest) = rows.split(row.index());
        rest.next().ok_or_else(|| missing::<Q>(id, 0))
    }
}

fn missing<Q: QueryData>(entity: EntityId, term: usize) -> Error {
    Error::MissingComponent {
        entity,
        wanted: Q::TERMS[term].key.map_or("EntityId", |k| k.name()),
    }
}
