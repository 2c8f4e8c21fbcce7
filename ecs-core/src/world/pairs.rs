//! Pairs of components on the same entity: the join every per-type update
//! needs (`Position += Velocity`). Entities of one table hold their
//! components at the same row of each of its segments, so a pair loop finds
//! `B`'s segment once per table and zips two slices.

use std::marker::PhantomData;

use crate::entity::{Entities, EntityIndex, SegId, TypeIdx};
use crate::storage::raw::{Strided, StridedMut};
use crate::storage::{Others, Segment, Table, Types};
use crate::world::World;
use crate::{Component, ComponentKey, EntityId, Error};

/// Where a table keeps the first component that is-a `B`.
fn first_isa(table: &Table, types: &Types, b: TypeIdx) -> Option<(TypeIdx, SegId)> {
    table
        .layout()
        .iter()
        .find(|p| types.info(p.ty).is_a(p.ty, b))
        .map(|p| (p.ty, p.seg))
}

fn check_pair<A: Component, B: Component>() -> Result<(), Error> {
    let conflict =
        A::is_derived_from(ComponentKey::of::<B>()) || B::is_derived_from(ComponentKey::of::<A>());
    if conflict {
        return Err(Error::ConflictingAccess {
            first: A::NAME,
            second: B::NAME,
        });
    }
    Ok(())
}

impl World {
    /// Every entity holding a component of exactly type `A` and one that
    /// is-a `B`: yields `A` mutably and the first `B` of that entity.
    ///
    /// `B` is found once per table (entities holding the same component
    /// types share one), not once per entity.
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
        check_pair::<A, B>()?;
        let (a, b) = (self.type_idx::<A>(), self.type_idx::<B>());
        let World {
            entities, storage, ..
        } = self;
        let entities: &Entities = entities;
        let split = a.zip(b).and_then(|(a, _)| storage.split_column(a));
        let (Some(split), Some(b)) = (split, b) else {
            return Ok(PairsMut {
                segs: [].iter_mut(),
                current: None,
                entities,
                types: None,
                tables: &[],
                others: Others::none(),
                b: TypeIdx(0),
                _marker: PhantomData,
            });
        };
        let (types, tables) = (split.types, split.tables);
        let (own, others) = split.into_shared();
        Ok(PairsMut {
            segs: own.segments_mut().iter_mut(),
            current: None,
            entities,
            types: Some(types),
            tables,
            others,
            b,
            _marker: PhantomData,
        })
    }

    /// Calls `f` with `A` and the first component that is-a `B`, both
    /// mutable, for every entity holding a component of exactly type `A` and
    /// one that is-a `B`; returns how many entities were visited. The
    /// fastest per-type loop: for each table holding both, a plain zip of two
    /// slices. Use
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
        self.pair_segments::<A, B>(|_, seg, b| {
            let values = seg.values_mut::<A>();
            zip_pairs(values, b, &mut f);
            values.len()
        })
    }

    /// [`World::for_each_pair_mut`] spread over the machine's cores.
    ///
    /// Each table large enough to share out is split into one chunk per
    /// core, when the table holds exactly `B` (not a type derived from it)
    /// and only one `A`; the rest runs on the calling thread. Entities are
    /// visited in an unspecified order.
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
        let a = self.type_idx::<A>();
        self.pair_segments::<A, B>(|table, seg, b| {
            let single_a = table.layout().iter().filter(|p| Some(p.ty) == a).count() == 1;
            let values = seg.values_mut::<A>();
            match b {
                PairB::Exact(bs) if single_a && threads > 1 && values.len() >= 2 * threads => {
                    par_zip(values, bs, threads, &f);
                }
                b => zip_pairs(values, b, &mut |a, b| f(a, b)),
            }
            values.len()
        })
    }

    /// Calls `visit` once per segment of exactly `A` whose table holds a
    /// component that is-a `B`, with the table and where that `B` is; sums
    /// what `visit` returns (the pairs it visited).
    fn pair_segments<A: Component, B: Component>(
        &mut self,
        mut visit: impl FnMut(&Table, &mut Segment, PairB<'_, B>) -> usize,
    ) -> Result<usize, Error> {
        check_pair::<A, B>()?;
        let (Some(a), Some(b)) = (self.type_idx::<A>(), self.type_idx::<B>()) else {
            return Ok(0);
        };
        let Some(split) = self.storage.split_column(a) else {
            return Ok(0);
        };
        let (types, tables) = (split.types, split.tables);
        let (own, mut others) = split.into_parts();
        let mut visited = 0;
        for seg in own.segments_mut() {
            let table = &tables[seg.table().index()];
            let Some((bty, bseg)) = first_isa(table, types, b) else {
                continue;
            };
            let Some(column) = others.get_mut(bty) else {
                continue;
            };
            let bsegment = &mut column.segments_mut()[bseg.index()];
            let b = if bty == b {
                PairB::Exact(bsegment.values_mut::<B>())
            } else {
                let Some(level) = types.level_of::<B>(bty, b) else {
                    continue;
                };
                let Some(bs) = bsegment.iter_as_mut::<B>(level) else {
                    continue;
                };
                PairB::Derived(bs)
            };
            visited += visit(table, seg, b);
        }
        Ok(visited)
    }
}

/// Where one table keeps the `B` of each row, for a pair loop.
enum PairB<'c, B> {
    /// Exactly `B`: the segment's values, one per row.
    Exact(&'c mut [B]),
    /// A type derived from `B`: the part of each row that is-a `B`.
    Derived(StridedMut<'c, B>),
}

/// Calls `f` on each `A` and the `B` of the same row, on this thread.
fn zip_pairs<A, B>(values: &mut [A], b: PairB<'_, B>, f: &mut impl FnMut(&mut A, &mut B)) {
    match b {
        PairB::Exact(bs) => values
            .iter_mut()
            .zip(bs.iter_mut())
            .for_each(|(a, b)| f(a, b)),
        PairB::Derived(bs) => values.iter_mut().zip(bs).for_each(|(a, b)| f(a, b)),
    }
}

/// Calls `f` on each pair of `a` and `b` (equally long), one chunk per thread.
fn par_zip<A: Send, B: Send>(
    a: &mut [A],
    b: &mut [B],
    threads: usize,
    f: &(impl Fn(&mut A, &mut B) + Sync),
) {
    let chunk = a.len().div_ceil(threads);
    std::thread::scope(|scope| {
        for (a, b) in a.chunks_mut(chunk).zip(b.chunks_mut(chunk)) {
            scope.spawn(move || {
                for (a, b) in a.iter_mut().zip(b) {
                    f(a, b);
                }
            });
        }
    });
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
    segs: std::slice::IterMut<'w, Segment>,
    /// The segment being walked: its values, its table's owners and the row
    /// of the next value, with where `B` sits in that table.
    current: Option<Walk<'w, A, B>>,
    entities: &'w Entities,
    /// `None` when nothing can match (no `A` or no `B` in the world).
    types: Option<&'w Types>,
    tables: &'w [Table],
    others: Others<'w>,
    b: TypeIdx,
    _marker: PhantomData<fn() -> B>,
}

struct Walk<'w, A, B> {
    data: std::slice::IterMut<'w, A>,
    owners: &'w [EntityIndex],
    row: usize,
    /// The part that is-a `B` of each row's component, in row order.
    b: Strided<'w, B>,
}

impl<'w, A: Component, B: Component> PairsMut<'w, A, B> {
    fn source(&self, types: &Types, (bty, bseg): (TypeIdx, SegId)) -> Option<Strided<'w, B>> {
        let column = self.others.get(bty)?;
        let level = types.level_of::<B>(bty, self.b)?;
        column.segments()[bseg.index()].iter_as::<B>(level)
    }
}

impl<'w, A: Component, B: Component> Iterator for PairsMut<'w, A, B> {
    type Item = (EntityId, &'w mut A, &'w B);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let Some(walk) = self.current.as_mut() else {
                let seg = self.segs.next()?;
                let table = &self.tables[seg.table().index()];
                let types = self.types?;
                let source = first_isa(table, types, self.b).and_then(|b| self.source(types, b));
                if let Some(b) = source {
                    self.current = Some(Walk {
                        data: seg.values_mut::<A>().iter_mut(),
                        owners: table.owners(),
                        row: 0,
                        b,
                    });
                }
                continue;
            };
            let Some(a) = walk.data.next() else {
                self.current = None;
                continue;
            };
            let owner = walk.owners[walk.row];
            walk.row += 1;
            let b = walk.b.next();
            if let Some(b) = b {
                return Some((self.entities.id_at(owner), a, b));
            }
        }
    }
}
