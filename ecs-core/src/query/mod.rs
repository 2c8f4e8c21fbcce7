//! Queries: every entity holding a set of components, joined table by
//! table. A term reads the first component that is-a its type, so a query
//! over `&Moving` visits entities holding an `AxisMoving`.
//!
//! By default a query skips disabled components (an entity whose matched
//! component is disabled is left out; an `Option` term yields `None`) and
//! disabled or killed entities, as [`World::update`] does;
//! [`QueryMut::include_inactive`] visits them too.

mod cache;
mod data;
mod iter;
mod one;
mod par;
mod plan;
mod term;

use std::marker::PhantomData;

pub use data::QueryData;
pub use iter::QueryIter;
pub use term::{All, Term};

use crate::world::World;
use crate::Component;
use iter::Source;
use plan::Filters;

pub(crate) use cache::PlanCache;

/// A [`QueryData`] whose terms only read (`&T`, `Option<&T>`, `EntityId`):
/// what [`World::query`] takes.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a read-only query",
    label = "expected a tuple of read-only terms, such as `(&Position,)`",
    note = "a query is a tuple of 1 to 16 terms, even for one term: `(&T,)`; `World::query` takes `&T`, `Option<&T>`, `All<&T>` and `EntityId` terms, and `query_mut` also `&mut T` ones"
)]
pub trait ReadOnlyQueryData: QueryData {}

/// A [`Term`] that only reads.
#[diagnostic::on_unimplemented(
    message = "`{Self}` writes, and `World::query` only reads",
    label = "a mutable term in a read-only query",
    note = "call `query_mut` for a query with `&mut T` terms, or write this term `&T`"
)]
pub trait ReadOnlyTerm: Term {}

impl<T: Component> ReadOnlyTerm for &T {}
impl<T: Component> ReadOnlyTerm for Option<&T> {}
impl ReadOnlyTerm for crate::EntityId {}
impl<T: Component> ReadOnlyTerm for All<&T> {}

macro_rules! read_only {
    ($($name:ident / $var:ident),+) => {
        impl<$($name: ReadOnlyTerm),+> ReadOnlyQueryData for ($($name,)+) {}
    };
}
for_each_tuple!(read_only);

/// A read-only query over a world: see [`World::query`].
pub struct Query<'w, Q> {
    world: &'w World,
    filters: Filters,
    _data: PhantomData<fn() -> Q>,
}

/// A query that may write: see [`World::query_mut`].
pub struct QueryMut<'w, Q> {
    world: &'w mut World,
    filters: Filters,
    _data: PhantomData<fn() -> Q>,
}

macro_rules! filters {
    () => {
        /// Only entities that also hold a component that is-a `T`
        /// (enabled or not).
        #[must_use]
        pub fn with<T: Component>(mut self) -> Self {
            self.filters.with.push(std::any::TypeId::of::<T>());
            self
        }

        /// Only entities that hold no component that is-a `T`.
        #[must_use]
        pub fn without<T: Component>(mut self) -> Self {
            self.filters.without.push(std::any::TypeId::of::<T>());
            self
        }

        /// Also visit disabled components and disabled or killed entities,
        /// which a query skips by default.
        #[must_use]
        pub fn include_inactive(mut self) -> Self {
            self.filters.inactive = true;
            self
        }
    };
}

impl<'w, Q: ReadOnlyQueryData> Query<'w, Q> {
    filters!();

    /// The matching entities' items; a shared query can be walked any
    /// number of times.
    pub fn iter(&self) -> QueryIter<'w, Q> {
        let storage = self.world.storage();
        let plan = self.world.plans().plan(storage, Q::TERMS, &self.filters);
        QueryIter::new(
            plan,
            Source::shared(storage),
            self.world.entities(),
            self.filters.inactive,
        )
    }

    /// Calls `f` with every matching entity's items.
    pub fn for_each(self, f: impl FnMut(Q::Item<'w>)) {
        self.iter().for_each(f);
    }
}

impl<'w, Q: ReadOnlyQueryData> IntoIterator for Query<'w, Q> {
    type Item = Q::Item<'w>;
    type IntoIter = QueryIter<'w, Q>;
    fn into_iter(self) -> QueryIter<'w, Q> {
        self.iter()
    }
}

impl<'w, Q: ReadOnlyQueryData> IntoIterator for &Query<'w, Q> {
    type Item = Q::Item<'w>;
    type IntoIter = QueryIter<'w, Q>;
    fn into_iter(self) -> QueryIter<'w, Q> {
        self.iter()
    }
}

impl<'w, Q: QueryData> QueryMut<'w, Q> {
    filters!();

    /// Calls `f` with every matching entity's items.
    pub fn for_each(self, f: impl FnMut(Q::Item<'w>)) {
        self.into_iter().for_each(f);
    }
}

impl<'w, Q: QueryData> IntoIterator for QueryMut<'w, Q> {
    type Item = Q::Item<'w>;
    type IntoIter = QueryIter<'w, Q>;
    fn into_iter(self) -> QueryIter<'w, Q> {
        let (entities, storage, plans) = self.world.query_parts_mut();
        let plan = plans.plan_mut(storage, Q::TERMS, &self.filters);
        let source = Source::new_mut(storage, plan.segments());
        QueryIter::new(plan, source, entities, self.filters.inactive)
    }
}

impl World {
    /// Every entity holding a component that is-a each required term's
    /// type, read-only: `Q` is a tuple of `&T`, `Option<&T>` and
    /// [`EntityId`](crate::EntityId) terms. Tables are visited in the order
    /// they were made, rows in storage order. Disabled components and
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
    /// let total: f32 = world.query::<(&Moving,)>().into_iter().map(|(m,)| m.speed).sum();
    /// assert_eq!(total, 3.0); // the AxisMoving is-a Moving
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn query<Q: ReadOnlyQueryData>(&self) -> Query<'_, Q> {
        Query {
            world: self,
            filters: Filters::default(),
            _data: PhantomData,
        }
    }

    /// Like [`World::query`], with `&mut T` and `Option<&mut T>` terms
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
    /// # Panics
    /// Only for two terms naming the same instantiation of one generic
    /// component type (`(&mut Stat<Hp>, &Stat<Hp>)`), which a constant
    /// cannot tell from two different ones; every other conflict is a
    /// compile error.
    pub fn query_mut<Q: QueryData>(&mut self) -> QueryMut<'_, Q> {
        check_conflicts::<Q>();
        QueryMut {
            world: self,
            filters: Filters::default(),
            _data: PhantomData,
        }
    }
}

/// Rejects a query whose terms could hand out one component twice, one of
/// them mutably: at compile time (evaluating [`QueryData::CHECKED`]), and at
/// run time for two instantiations of one generic component type.
pub(crate) fn check_conflicts<Q: QueryData>() {
    #[allow(clippy::let_unit_value)]
    let () = Q::CHECKED;
    if data::needs_runtime_check(Q::TERMS) {
        if let Some((i, j)) = data::runtime_conflict(Q::TERMS) {
            let name = |k: usize| Q::TERMS[k].key.map_or("EntityId", |key| key.name());
            panic!(
                "this query could hand out one component twice, once mutably: terms {i} \
                 (`{}`) and {j} (`{}`) are the same instantiation of a generic component; \
                 make both terms shared, or read one of them in a second query",
                name(i),
                name(j)
            );
        }
    }
}
