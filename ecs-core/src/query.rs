//! Per-type iteration over the whole world: every component that is-a `T`,
//! and pairs of components on the same entity.

use std::any::TypeId;
use std::marker::PhantomData;

use crate::entity::{EntitySlot, TypeIdx};
use crate::storage::{typed, typed_mut, ErasedColumn};
use crate::world::{TypeInfo, World};
use crate::{Component, EntityId, Error};

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

    /// Every entity holding a component of exactly type `A` and one that
    /// is-a `B`: yields `A` mutably and the first `B` of that entity.
    ///
    /// When both columns were filled in the same entity order (entities
    /// spawned alike), rows line up and the lookup of `B` is one comparison.
    ///
    /// # Errors
    /// [`Error::ConflictingAccess`] when `A` is-a `B` or `B` is-a `A`: the
    /// same component could be handed out twice.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Position(f32);
    /// #[derive(Component)]
    /// struct Velocity(f32);
    /// let mut world = World::new();
    /// let id = world.spawn();
    /// let mut e = world.entity_mut(id)?;
    /// e.add(Position(1.0))?;
    /// e.add(Velocity(0.5))?;
    /// for (_, pos, vel) in world.iter_pairs_mut::<Position, Velocity>()? {
    ///     pos.0 += vel.0;
    /// }
    /// assert_eq!(world.entity(id)?.get::<Position>().unwrap().0, 1.5);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn iter_pairs_mut<A: Component, B: Component>(
        &mut self,
    ) -> Result<PairsMut<'_, A, B>, Error> {
        let conflict = A::is_derived_from(crate::ComponentKey::of::<B>())
            || B::is_derived_from(crate::ComponentKey::of::<A>());
        if conflict {
            return Err(Error::ConflictingAccess {
                first: A::NAME,
                second: B::NAME,
            });
        }
        let (a, b) = (self.type_idx::<A>(), self.type_idx::<B>());
        let World {
            entities,
            types,
            columns,
            ..
        } = self;
        let (Some(a), Some(b)) = (a, b) else {
            return Ok(PairsMut::empty(entities, types));
        };
        let (before, rest) = columns.split_at_mut(a as usize);
        let (own, after) = rest.split_first_mut().expect("index in range");
        let Some(own) = own.as_deref_mut() else {
            return Ok(PairsMut::empty(entities, types));
        };
        let own = typed_mut::<A>(own);
        let b_exact = match b.cmp(&a) {
            std::cmp::Ordering::Less => before[b as usize].as_deref(),
            _ => after[(b - a - 1) as usize].as_deref(),
        };
        let b_aligned = (!types[b as usize].has_descendants)
            .then_some(b_exact)
            .flatten()
            .map(typed::<B>);
        Ok(PairsMut {
            owners: &own.owners,
            data: own.data.iter_mut(),
            row: 0,
            entities,
            types,
            before,
            after,
            a,
            b,
            b_aligned,
            _marker: PhantomData,
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

/// Iterator of [`World::iter_pairs_mut`].
pub struct PairsMut<'w, A, B> {
    owners: &'w [u32],
    data: std::slice::IterMut<'w, A>,
    row: usize,
    entities: &'w [EntitySlot],
    types: &'w [TypeInfo],
    before: &'w [Option<Box<dyn ErasedColumn>>],
    after: &'w [Option<Box<dyn ErasedColumn>>],
    a: TypeIdx,
    b: TypeIdx,
    /// The exact column of `B` when no type derives from `B`.
    b_aligned: Option<&'w crate::storage::Column<B>>,
    _marker: PhantomData<fn() -> B>,
}

impl<'w, A, B> PairsMut<'w, A, B> {
    fn empty(entities: &'w [EntitySlot], types: &'w [TypeInfo]) -> Self {
        PairsMut {
            owners: &[],
            data: [].iter_mut(),
            row: 0,
            entities,
            types,
            before: &[],
            after: &[],
            a: 0,
            b: 0,
            b_aligned: None,
            _marker: PhantomData,
        }
    }
}

impl<'w, A: Component, B: Component> PairsMut<'w, A, B> {
    fn column(&self, ty: TypeIdx) -> Option<&'w dyn ErasedColumn> {
        match ty.cmp(&self.a) {
            std::cmp::Ordering::Less => self.before[ty as usize].as_deref(),
            std::cmp::Ordering::Equal => None,
            std::cmp::Ordering::Greater => self.after[(ty - self.a - 1) as usize].as_deref(),
        }
    }

    /// The first component of entity `owner` that is-a `B`.
    fn lookup_b(&self, owner: u32, row: usize) -> Option<&'w B> {
        if let Some(column) = self.b_aligned {
            if column.owners.get(row) == Some(&owner) {
                return column.data.get(row);
            }
        }
        let list = self.entities[owner as usize].components.as_slice();
        let comp = list
            .iter()
            .find(|c| self.types[c.ty as usize].is_a(c.ty, self.b))?;
        let column = self.column(comp.ty)?;
        if comp.ty == self.b {
            typed::<B>(column).data.get(comp.row as usize)
        } else {
            column
                .upcast_ref(comp.row, TypeId::of::<B>())?
                .downcast_ref::<B>()
        }
    }
}

impl<'w, A: Component, B: Component> Iterator for PairsMut<'w, A, B> {
    type Item = (EntityId, &'w mut A, &'w B);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let a = self.data.next()?;
            let row = self.row;
            self.row += 1;
            let owner = self.owners[row];
            if let Some(b) = self.lookup_b(owner, row) {
                let id = EntityId {
                    index: owner,
                    generation: self.entities[owner as usize].generation,
                };
                return Some((id, a, b));
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, self.data.size_hint().1)
    }
}
