//! Pairs of components on the same entity: the join every per-type update
//! needs (`Position += Velocity`). Entities of one table hold their
//! components at the same row of each of its segments, so a pair loop finds
//! `B`'s segment once per table and zips two slices.

use crate::entity::{Entities, EntityIndex, SegId};
use crate::storage::raw::{Strided, StridedMut};
use crate::storage::{Access, Picked, Segment, Table};
use crate::world::World;
use crate::{Component, ComponentKey, EntityId, Error};

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
        let plan = match (self.type_idx::<A>(), self.type_idx::<B>()) {
            (Some(a), Some(b)) => self.storage.pair_plan(a, b),
            _ => Vec::new(),
        };
        let wants: Vec<(SegId, Access)> = plan
            .iter()
            .flat_map(|step| [(step.a, Access::Mut), (step.b, Access::Shared)])
            .collect();
        let World {
            entities, storage, ..
        } = self;
        let (tables, picked) = storage.pick(&wants);
        let mut picked = picked.into_iter();
        let mut steps = Vec::with_capacity(plan.len());
        for step in &plan {
            let (Some(Picked::Mut(a)), Some(Picked::Shared(b))) = (picked.next(), picked.next())
            else {
                unreachable!("segments are picked as asked");
            };
            if let Some(b) = b.iter_as::<B>(step.level) {
                let owners = tables[step.table.index()].owners();
                steps.push(Walk {
                    data: a.values_mut::<A>().iter_mut(),
                    owners,
                    row: 0,
                    b,
                });
            }
        }
        Ok(PairsMut {
            steps: steps.into_iter(),
            current: None,
            entities,
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
        let mut visited = 0;
        for step in self.storage.pair_plan(a, b) {
            let (tables, mut picked) = self
                .storage
                .pick(&[(step.a, Access::Mut), (step.b, Access::Mut)]);
            let [Picked::Mut(own), Picked::Mut(bsegment)] = &mut picked[..] else {
                unreachable!("segments are picked as asked");
            };
            let pair_b = if step.level == 0 {
                PairB::Exact(bsegment.values_mut::<B>())
            } else {
                let Some(bs) = bsegment.iter_as_mut::<B>(step.level) else {
                    continue;
                };
                PairB::Derived(bs)
            };
            visited += visit(&tables[step.table.index()], own, pair_b);
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
    /// One walk per segment of `A` whose table holds a `B`.
    steps: std::vec::IntoIter<Walk<'w, A, B>>,
    /// The segment being walked.
    current: Option<Walk<'w, A, B>>,
    entities: &'w Entities,
}

struct Walk<'w, A, B> {
    data: std::slice::IterMut<'w, A>,
    owners: &'w [EntityIndex],
    row: usize,
    /// The part that is-a `B` of each row's component, in row order.
    b: Strided<'w, B>,
}

impl<'w, A: Component, B: Component> Iterator for PairsMut<'w, A, B> {
    type Item = (EntityId, &'w mut A, &'w B);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let Some(walk) = self.current.as_mut() else {
                self.current = Some(self.steps.next()?);
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
