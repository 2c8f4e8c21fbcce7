//! Per-type iteration over the whole world: every component that is-a `T`,
//! and pairs of components on the same entity.

use std::any::TypeId;

use crate::entity::{EntitySlot, TypeIdx};
use crate::storage::{typed, typed_mut, ErasedColumn};
use crate::world::World;
use crate::{Component, EntityId};

impl World {
    /// Every component that is-a `T`, with its entity: first the column of
    /// `T` itself in storage order, then the columns of types derived from
    /// `T` in the order they were first added to this world.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Health(u32);
    /// let mut world = World::new();
    /// for hp in 1..=3 {
    ///     let id = world.spawn();
    ///     world.entity_mut(id)?.add(Health(hp))?;
    /// }
    /// assert_eq!(world.iter::<Health>().map(|(_, h)| h.0).sum::<u32>(), 6);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn iter<T: Component>(&self) -> impl Iterator<Item = (EntityId, &T)> + '_ {
        let t = self.type_idx::<T>();
        let exact = t
            .and_then(|t| self.columns[t as usize].as_deref())
            .map(|column| {
                let column = typed::<T>(column);
                column.owners.iter().zip(&column.data)
            })
            .into_iter()
            .flatten()
            .map(|(&owner, c)| (owner, c));
        let derived = self
            .derived_columns(t)
            .flat_map(|column| column.iter_upcast(TypeId::of::<T>()))
            .filter_map(|(owner, any)| Some((owner, any.downcast_ref::<T>()?)));
        exact
            .chain(derived)
            .map(|(owner, c)| (self.id_at(owner), c))
    }

    /// Mutable twin of [`World::iter`], in the same order.
    pub fn iter_mut<T: Component>(&mut self) -> impl Iterator<Item = (EntityId, &mut T)> + '_ {
        let t = self.type_idx::<T>();
        let World {
            entities,
            types,
            columns,
            ..
        } = self;
        let entities: &[EntitySlot] = entities;
        let mut exact = None;
        let mut derived = Vec::new();
        for (ty, column) in columns.iter_mut().enumerate() {
            let (Some(t), Some(column)) = (t, column.as_deref_mut()) else {
                continue;
            };
            if ty as TypeIdx == t {
                exact = Some(typed_mut::<T>(column));
            } else if types[ty].is_a(ty as TypeIdx, t) {
                derived.push(column);
            }
        }
        let exact = exact
            .into_iter()
            .flat_map(|column| column.owners.iter().copied().zip(&mut column.data));
        let derived = derived
            .into_iter()
            .flat_map(|column| column.iter_upcast_mut(TypeId::of::<T>()))
            .filter_map(|(owner, any)| Some((owner, any.downcast_mut::<T>()?)));
        exact.chain(derived).map(move |(owner, c)| {
            let id = EntityId {
                index: owner,
                generation: entities[owner as usize].generation,
            };
            (id, c)
        })
    }
}

impl World {
    /// Columns of every registered type strictly derived from `t`.
    fn derived_columns(&self, t: Option<TypeIdx>) -> impl Iterator<Item = &dyn ErasedColumn> {
        self.columns
            .iter()
            .enumerate()
            .filter_map(move |(ty, column)| {
                let t = t?;
                let derived = ty as TypeIdx != t && self.types[ty].is_a(ty as TypeIdx, t);
                derived.then_some(column.as_deref()).flatten()
            })
    }
}
