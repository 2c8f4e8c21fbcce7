//! Pairs of components on the same entity: the join every per-type update
//! needs (`Position += Velocity`).

use std::any::TypeId;
use std::marker::PhantomData;

use crate::entity::{EntitySlot, TypeIdx};
use crate::storage::{typed, typed_mut, Column, ErasedColumn};
use crate::world::{TypeInfo, World};
use crate::{Component, ComponentKey, EntityId, Error};

type Columns = [Option<Box<dyn ErasedColumn>>];

impl World {
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
        let world = self.tag();
        let World {
            entities,
            types,
            columns,
            ..
        } = self;
        let (Some(a), Some(b)) = (a, b) else {
            return Ok(PairsMut::empty(world, entities, types));
        };
        let (before, rest) = columns.split_at_mut(a as usize);
        let (own, after) = rest.split_first_mut().expect("index in range");
        let Some(own) = own.as_deref_mut() else {
            return Ok(PairsMut::empty(world, entities, types));
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
            world,
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

    /// Calls `f` with `A` and the first component that is-a `B`, both
    /// mutable, for every entity holding a component of exactly type `A` and
    /// one that is-a `B`; returns how many entities were visited. The
    /// fastest per-type loop: when the two columns line up (entities spawned
    /// alike) it is a plain zip of two slices. Use
    /// [`World::iter_pairs_mut`] when the entity ids are needed.
    ///
    /// # Errors
    /// [`Error::ConflictingAccess`] when `A` is-a `B` or `B` is-a `A`.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Position(f32);
    /// #[derive(Component)]
    /// struct Velocity(f32);
    /// let mut world = World::new();
    /// world.spawn_with((Position(1.0), Velocity(0.5)))?;
    /// let visited = world.for_each_pair_mut(|pos: &mut Position, vel: &mut Velocity| {
    ///     pos.0 += vel.0;
    ///     vel.0 *= 0.5;
    /// })?;
    /// assert_eq!(visited, 1);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn for_each_pair_mut<A, B, F>(&mut self, mut f: F) -> Result<usize, Error>
    where
        A: Component,
        B: Component,
        F: FnMut(&mut A, &mut B),
    {
        let Some(split) = self.split_pair::<A, B>()? else {
            return Ok(0);
        };
        let SplitPair {
            a_column,
            b_access,
            entities,
            types,
            b,
        } = split;
        let mut visited = 0;
        let len = a_column.data.len();
        let mut others = match b_access {
            BAccess::Search(others) => others,
            BAccess::Exact(None) => return Ok(0),
            BAccess::Exact(Some(b_column))
                if b_column.owners.get(..len) == Some(&a_column.owners) =>
            {
                // Rows line up: one comparison of the owner lists, then a zip.
                for (a, b) in a_column.data.iter_mut().zip(&mut b_column.data) {
                    f(a, b);
                }
                return Ok(len);
            }
            BAccess::Exact(Some(b_column)) => {
                let a_rows = a_column.data.iter_mut().zip(&a_column.owners);
                for (row, (a, &owner)) in a_rows.enumerate() {
                    let b_row = if b_column.owners.get(row) == Some(&owner) {
                        Some(row)
                    } else {
                        entities[owner as usize]
                            .components
                            .as_slice()
                            .iter()
                            .find(|c| c.ty == b)
                            .map(|c| c.row as usize)
                    };
                    if let Some(b_row) = b_row {
                        f(a, &mut b_column.data[b_row]);
                        visited += 1;
                    }
                }
                return Ok(visited);
            }
        };
        for (a, &owner) in a_column.data.iter_mut().zip(&a_column.owners) {
            let list = entities[owner as usize].components.as_slice();
            let Some(comp) = list.iter().find(|c| types[c.ty as usize].is_a(c.ty, b)) else {
                continue;
            };
            let Some(column) = others.column_mut(comp.ty) else {
                continue;
            };
            let found = if comp.ty == b {
                typed_mut::<B>(column).data.get_mut(comp.row as usize)
            } else {
                column
                    .upcast_mut(comp.row, TypeId::of::<B>())
                    .and_then(|any| any.downcast_mut::<B>())
            };
            if let Some(found) = found {
                f(a, found);
                visited += 1;
            }
        }
        Ok(visited)
    }

    /// [`World::for_each_pair_mut`] spread over the machine's cores.
    ///
    /// Runs in parallel when the rows of `A` and `B` line up (entities that
    /// were spawned alike, e.g. with [`World::spawn_batch`]) and no type
    /// derives from `B`; otherwise it runs on the calling thread. Entities
    /// are visited in an unspecified order.
    ///
    /// # Errors
    /// [`Error::ConflictingAccess`] when `A` is-a `B` or `B` is-a `A`.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Position(f32);
    /// #[derive(Component)]
    /// struct Velocity(f32);
    /// let mut world = World::new();
    /// world.spawn_batch((0..1000).map(|i| (Position(0.0), Velocity(i as f32))))?;
    /// let visited = world.par_for_each_pair_mut(|p: &mut Position, v: &mut Velocity| p.0 += v.0)?;
    /// assert_eq!(visited, 1000);
    /// assert_eq!(world.iter::<Position>().map(|(_, p)| p.0).sum::<f32>(), 499_500.0);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn par_for_each_pair_mut<A, B, F>(&mut self, f: F) -> Result<usize, Error>
    where
        A: Component,
        B: Component,
        F: Fn(&mut A, &mut B) + Sync,
    {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        {
            let Some(split) = self.split_pair::<A, B>()? else {
                return Ok(0);
            };
            let SplitPair {
                a_column, b_access, ..
            } = split;
            let b_exact = match b_access {
                BAccess::Exact(column) => column,
                BAccess::Search(_) => None,
            };
            let len = a_column.data.len();
            let aligned = b_exact
                .as_ref()
                .is_some_and(|b| b.owners.len() >= len && b.owners[..len] == a_column.owners[..]);
            if let (true, true, Some(b_column)) =
                (aligned, threads > 1 && len >= 2 * threads, b_exact)
            {
                let chunk = len.div_ceil(threads);
                let f = &f;
                std::thread::scope(|scope| {
                    let a_chunks = a_column.data.chunks_mut(chunk);
                    let b_chunks = b_column.data[..len].chunks_mut(chunk);
                    for (a, b) in a_chunks.zip(b_chunks) {
                        scope.spawn(move || {
                            for (a, b) in a.iter_mut().zip(b) {
                                f(a, b);
                            }
                        });
                    }
                });
                return Ok(len);
            }
        }
        self.for_each_pair_mut(f)
    }

    /// Borrows `A`'s column mutably beside everything needed to find `B`;
    /// `None` when either type has no components in this world.
    fn split_pair<A: Component, B: Component>(
        &mut self,
    ) -> Result<Option<SplitPair<'_, A, B>>, Error> {
        let conflict = A::is_derived_from(ComponentKey::of::<B>())
            || B::is_derived_from(ComponentKey::of::<A>());
        if conflict {
            return Err(Error::ConflictingAccess {
                first: A::NAME,
                second: B::NAME,
            });
        }
        let (Some(a), Some(b)) = (self.type_idx::<A>(), self.type_idx::<B>()) else {
            return Ok(None);
        };
        let World {
            entities,
            types,
            columns,
            ..
        } = self;
        let (before, rest) = columns.split_at_mut(a as usize);
        let (own, after) = rest.split_first_mut().expect("index in range");
        let Some(own) = own.as_deref_mut() else {
            return Ok(None);
        };
        let others = OtherColumns { before, after, a };
        let b_access = if types[b as usize].has_descendants {
            BAccess::Search(others)
        } else {
            BAccess::Exact(others.into_column(b).map(typed_mut::<B>))
        };
        Ok(Some(SplitPair {
            a_column: typed_mut::<A>(own),
            b_access,
            entities,
            types,
            b,
        }))
    }
}

/// `A`'s column borrowed mutably, every other column beside it.
struct SplitPair<'w, A, B> {
    a_column: &'w mut Column<A>,
    b_access: BAccess<'w, B>,
    entities: &'w [EntitySlot],
    types: &'w [TypeInfo],
    b: TypeIdx,
}

/// Where components that are-a `B` can be.
enum BAccess<'w, B> {
    /// No type derives from `B`: only `B`'s own column (if it has one).
    Exact(Option<&'w mut Column<B>>),
    /// Any column of a type derived from `B`.
    Search(OtherColumns<'w>),
}

/// Every column except `a`'s, which is borrowed elsewhere.
struct OtherColumns<'w> {
    before: &'w mut Columns,
    after: &'w mut Columns,
    a: TypeIdx,
}

impl<'w> OtherColumns<'w> {
    fn slot(&mut self, ty: TypeIdx) -> Option<&mut Option<Box<dyn ErasedColumn>>> {
        match ty.cmp(&self.a) {
            std::cmp::Ordering::Less => Some(&mut self.before[ty as usize]),
            std::cmp::Ordering::Equal => None,
            std::cmp::Ordering::Greater => Some(&mut self.after[(ty - self.a - 1) as usize]),
        }
    }

    fn column_mut(&mut self, ty: TypeIdx) -> Option<&mut dyn ErasedColumn> {
        self.slot(ty)?.as_deref_mut()
    }

    /// Gives up the other columns for `ty`'s alone, for the whole of `'w`.
    fn into_column(self, ty: TypeIdx) -> Option<&'w mut dyn ErasedColumn> {
        let slot = match ty.cmp(&self.a) {
            std::cmp::Ordering::Less => &mut self.before[ty as usize],
            std::cmp::Ordering::Equal => return None,
            std::cmp::Ordering::Greater => &mut self.after[(ty - self.a - 1) as usize],
        };
        slot.as_deref_mut()
    }
}

/// Iterator of [`World::iter_pairs_mut`].
///
/// ```
/// # use ecs_core::prelude::*;
/// #[derive(Component)]
/// struct Position(f32);
/// #[derive(Component)]
/// struct Velocity(f32);
/// let mut world = World::new();
/// let moving = world.spawn_with((Position(0.0), Velocity(2.0)))?;
/// world.spawn_with((Position(5.0),))?; // no Velocity: not visited
/// let pairs: ecs_core::PairsMut<'_, Position, Velocity> = world.iter_pairs_mut()?;
/// let visited: Vec<EntityId> = pairs.map(|(id, pos, vel)| { pos.0 += vel.0; id }).collect();
/// assert_eq!(visited, [moving]);
/// assert_eq!(world.entity(moving)?.get::<Position>().unwrap().0, 2.0);
/// # Ok::<(), ecs_core::Error>(())
/// ```
pub struct PairsMut<'w, A, B> {
    world: u32,
    owners: &'w [u32],
    data: std::slice::IterMut<'w, A>,
    row: usize,
    entities: &'w [EntitySlot],
    types: &'w [TypeInfo],
    before: &'w Columns,
    after: &'w Columns,
    a: TypeIdx,
    b: TypeIdx,
    /// The exact column of `B` when no type derives from `B`.
    b_aligned: Option<&'w crate::storage::Column<B>>,
    _marker: PhantomData<fn() -> B>,
}

impl<'w, A, B> PairsMut<'w, A, B> {
    fn empty(world: u32, entities: &'w [EntitySlot], types: &'w [TypeInfo]) -> Self {
        PairsMut {
            world,
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
                    world: self.world,
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
