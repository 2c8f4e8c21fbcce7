//! Per-type iteration over the whole world: every component that is-a `T`.

use crate::entity::{EntitySlot, TypeIdx};
use crate::storage::{Column, Row, DISABLED};
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
        self.rows::<T>().map(|(owner, _, c)| (self.id_at(owner), c))
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
        self.rows::<T>()
            .filter(|&(owner, meta, _)| {
                meta & DISABLED == 0 && self.entities[owner as usize].is_active()
            })
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
        let tag = self.tag();
        let (entities, rows) = self.rows_mut::<T>();
        rows.map(move |(owner, _, c)| (id_in(tag, entities, owner), c))
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
    pub fn for_each_mut<T: Component>(&mut self, mut f: impl FnMut(&mut T)) {
        let Some(t) = self.type_idx::<T>() else {
            return;
        };
        let World { types, columns, .. } = self;
        // Ancestors are registered before their descendants, so `T`'s own
        // column comes first, as in `iter`.
        for (ty, column) in columns.iter_mut().enumerate() {
            let Some(column) = column.as_mut() else {
                continue;
            };
            if ty as TypeIdx == t {
                for seg in &mut column.segs {
                    seg.values_mut::<T>().iter_mut().for_each(&mut f);
                }
            } else if types[ty].is_a(ty as TypeIdx, t) {
                if let Some(level) = column.level_of::<T>() {
                    column.values_as_mut::<T>(level).for_each(&mut f);
                }
            }
        }
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
        let tag = self.tag();
        let (entities, rows) = self.rows_mut::<T>();
        rows.filter(move |&(owner, meta, _)| {
            meta & DISABLED == 0 && entities[owner as usize].is_active()
        })
        .map(move |(owner, _, c)| (id_in(tag, entities, owner), c))
    }

    fn rows<T: Component>(&self) -> impl Iterator<Item = Row<&T>> + '_ {
        let t = self.type_idx::<T>();
        let exact = t
            .and_then(|t| self.columns[t as usize].as_ref())
            .map(|column| column.rows_as::<T>(&self.tables, 0))
            .into_iter()
            .flatten();
        let derived = self.derived_columns(t).flat_map(|column| {
            let level = column.level_of::<T>();
            level
                .map(|level| column.rows_as::<T>(&self.tables, level))
                .into_iter()
                .flatten()
        });
        exact.chain(derived)
    }

    fn rows_mut<T: Component>(
        &mut self,
    ) -> (&[EntitySlot], impl Iterator<Item = Row<&mut T>> + '_) {
        let t = self.type_idx::<T>();
        let World {
            entities,
            types,
            columns,
            tables,
            ..
        } = self;
        let tables: &[crate::storage::table::Table] = tables;
        let mut exact = None;
        let mut derived = Vec::new();
        for (ty, column) in columns.iter_mut().enumerate() {
            let (Some(t), Some(column)) = (t, column.as_mut()) else {
                continue;
            };
            if ty as TypeIdx == t {
                exact = Some(column);
            } else if types[ty].is_a(ty as TypeIdx, t) {
                if let Some(level) = column.level_of::<T>() {
                    derived.push((column, level));
                }
            }
        }
        let exact = exact
            .into_iter()
            .flat_map(|column| column.rows_as_mut::<T>(tables, 0));
        let derived = derived
            .into_iter()
            .flat_map(|(column, level)| column.rows_as_mut::<T>(tables, level));
        (entities, exact.chain(derived))
    }

    /// Columns of every registered type strictly derived from `t`.
    fn derived_columns(&self, t: Option<TypeIdx>) -> impl Iterator<Item = &Column> {
        self.columns
            .iter()
            .enumerate()
            .filter_map(move |(ty, column)| {
                let t = t?;
                let derived = ty as TypeIdx != t && self.types[ty].is_a(ty as TypeIdx, t);
                derived.then_some(column.as_ref()).flatten()
            })
    }
}

fn id_in(world: u32, entities: &[EntitySlot], index: u32) -> EntityId {
    EntityId {
        world,
        index,
        generation: entities[index as usize].generation,
    }
}
