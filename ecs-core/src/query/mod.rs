//! Queries: every entity holding a set of components, joined table by
//! table. A term reads the first component that is-a its type, so a query
//! over `&Moving` visits entities holding an `AxisMoving`.
//!
//! By default a query skips disabled components (an entity whose matched
//! component is disabled is left out; an `Option` term yields `None`) and
//! disabled or killed entities, as [`World::update`](crate::World::update) does;
//! [`QueryMut::include_inactive`] visits them too.

mod cache;
mod data;
mod iter;
mod one;
mod par;
mod plan;
mod row_filter;
mod rows;
mod runs;
mod source;
mod term;
mod up;

use std::marker::PhantomData;

pub use data::QueryData;
pub use iter::QueryIter;
pub use term::{All, Term};
pub use up::Up;

use crate::entity::Entities;
use crate::table::Storage;
use crate::table::{ChangeKind, Tick};
use crate::Component;
use iter::Walk;
use plan::{Filters, Watch};
use source::Source;

pub(crate) use cache::PlanCache;
pub(crate) use one::{one, one_mut};

/// A [`QueryData`] whose terms only read (the read-only kinds in
/// [`Term`]'s table): what [`World::query`](crate::World::query) takes.
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
impl<T: Component> ReadOnlyTerm for Up<&T> {}

macro_rules! read_only {
    ($($name:ident / $var:ident),+) => {
        impl<$($name: ReadOnlyTerm),+> ReadOnlyQueryData for ($($name,)+) {}
    };
}
for_each_tuple!(read_only);

/// A read-only query over a world: see [`World::query`](crate::World::query).
pub struct Query<'w, Q> {
    entities: &'w Entities,
    storage: &'w Storage,
    plans: &'w PlanCache,
    filters: Filters,
    since: Vec<Watch>,
    child_of: Option<crate::EntityId>,
    _data: PhantomData<fn() -> Q>,
}

/// A query that may write: see [`World::query_mut`](crate::World::query_mut).
pub struct QueryMut<'w, Q> {
    entities: &'w Entities,
    storage: &'w mut Storage,
    plans: &'w mut PlanCache,
    filters: Filters,
    since: Vec<Watch>,
    child_of: Option<crate::EntityId>,
    _data: PhantomData<fn() -> Q>,
}

impl<'w, Q: ReadOnlyQueryData> Query<'w, Q> {
    /// A query over the world made of these parts, with no filter yet.
    pub(crate) fn new(entities: &'w Entities, storage: &'w Storage, plans: &'w PlanCache) -> Self {
        Query {
            entities,
            storage,
            plans,
            filters: Filters::default(),
            since: Vec::new(),
            child_of: None,
            _data: PhantomData,
        }
    }
}

impl<'w, Q: QueryData> QueryMut<'w, Q> {
    /// A writing query over the world made of these parts, with no filter
    /// yet; panics when two terms could hand out one component twice.
    pub(crate) fn new(
        entities: &'w Entities,
        storage: &'w mut Storage,
        plans: &'w mut PlanCache,
    ) -> Self {
        check_conflicts::<Q>();
        QueryMut {
            entities,
            storage,
            plans,
            filters: Filters::default(),
            since: Vec::new(),
            child_of: None,
            _data: PhantomData,
        }
    }
}

macro_rules! filters {
    ($ty:ident) => {
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

        /// Only entities holding a component that is-a `T` which was
        /// added, replaced or handed out mutably after `since` (a tick from
        /// [`World::change_tick`](crate::World::change_tick)). For a
        /// `multiple` type, any one of the entity's components counts. A
        /// table where nothing is-a `T` changed since is passed over
        /// without reading its rows.
        ///
        /// ```
        /// # use ecs_core::prelude::*;
        /// #[derive(Component)]
        /// struct Position(f32);
        /// let mut world = World::new();
        /// let a = world.spawn_with((Position(0.0),))?;
        /// let b = world.spawn_with((Position(0.0),))?;
        /// let seen = world.change_tick();
        /// world.entity_mut(b)?.get_mut::<Position>().unwrap().0 = 5.0;
        /// let moved: Vec<EntityId> = world
        ///     .query::<(EntityId, &Position)>()
        ///     .changed_since::<Position>(seen)
        ///     .into_iter()
        ///     .map(|(id, _)| id)
        ///     .collect();
        /// assert_eq!(moved, [b]);
        /// # let _ = a;
        /// # Ok::<(), ecs_core::Error>(())
        /// ```
        #[must_use]
        pub fn changed_since<T: Component>(self, since: Tick) -> Self {
            self.watch::<T>(ChangeKind::Changed, since)
        }

        /// Only entities holding a component that is-a `T` which was
        /// attached after `since`; as
        #[doc = concat!("[`changed_since`](", stringify!($ty), "::changed_since)")]
        /// otherwise.
        #[must_use]
        pub fn added_since<T: Component>(self, since: Tick) -> Self {
            self.watch::<T>(ChangeKind::Added, since)
        }

        /// Only the children of `parent` in the scene graph
        /// ([`World::set_parent`](crate::World::set_parent)); none when
        /// `parent` is despawned. Each table's rows are checked by their
        /// parent link, with no lookup of the parent.
        ///
        /// ```
        /// # use ecs_core::prelude::*;
        /// #[derive(Component)]
        /// struct Wheel(u32);
        /// let mut world = World::new();
        /// let car = world.spawn();
        /// let a = world.spawn_with((Wheel(1),))?;
        /// world.spawn_with((Wheel(2),))?;
        /// world.set_parent(a, car)?;
        /// let mine: Vec<u32> = world.query::<(&Wheel,)>().child_of(car).into_iter().map(|(w,)| w.0).collect();
        /// assert_eq!(mine, [1]);
        /// # Ok::<(), ecs_core::Error>(())
        /// ```
        #[must_use]
        pub fn child_of(mut self, parent: crate::EntityId) -> Self {
            self.child_of = Some(parent);
            self
        }

        fn watch<T: Component>(mut self, kind: ChangeKind, since: Tick) -> Self {
            self.filters
                .changes
                .push((std::any::TypeId::of::<T>(), kind));
            self.since.push((kind, since));
            self
        }
    };
}

impl<'w, Q: ReadOnlyQueryData> Query<'w, Q> {
    filters!(Query);

    /// The matching entities' items; a shared query can be walked any
    /// number of times.
    pub fn iter(&self) -> QueryIter<'w, Q> {
        let plan = self.plans.plan(self.storage, Q::TERMS, &self.filters);
        QueryIter::new(
            plan,
            Source::shared(self.storage),
            self.entities,
            self.filters.inactive,
            Walk::new(self.since.clone(), self.child_of, self.entities),
        )
    }

    /// Calls `f` with every matching entity's items.
    pub fn for_each(self, f: impl FnMut(Q::Item<'w>)) {
        self.iter().for_each(f);
    }

    /// How many entities match: the number of items
    /// [`iter`](Query::iter) yields, filters and `include_inactive`
    /// included.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Health(u32);
    /// #[derive(Component)]
    /// struct Boss;
    /// let mut world = World::new();
    /// world.spawn_with((Health(3),))?;
    /// world.spawn_with((Health(9), Boss))?;
    /// let asleep = world.spawn_with((Health(1),))?;
    /// world.entity_mut(asleep)?.kill();
    /// assert_eq!(world.query::<(&Health,)>().count(), 2);
    /// assert_eq!(world.query::<(&Health,)>().without::<Boss>().count(), 1);
    /// assert_eq!(world.query::<(&Health,)>().include_inactive().count(), 3);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn count(&self) -> usize {
        self.iter().count()
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
    filters!(QueryMut);

    /// Calls `f` with every matching entity's items.
    pub fn for_each(self, f: impl FnMut(Q::Item<'w>)) {
        self.into_iter().for_each(f);
    }

    /// The matching entities' items, borrowed from the query: the same
    /// items as `for .. in query`, and the query can be walked again
    /// afterwards (`for .. in &mut query` says the same).
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Health(u32);
    /// let mut world = World::new();
    /// world.spawn_with((Health(1),))?;
    /// world.spawn_with((Health(2),))?;
    /// let mut query = world.query_mut::<(&mut Health,)>();
    /// query.iter().for_each(|(health,)| health.0 *= 10);
    /// let total: u32 = query.iter().map(|(health,)| health.0).sum();
    /// assert_eq!(total, 30);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn iter(&mut self) -> QueryIter<'_, Q> {
        let rest = (&self.filters, &self.since[..], self.child_of);
        walk_mut(self.entities, self.storage, self.plans, rest)
    }

    /// How many entities match, as [`Query::count`].
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Health(u32);
    /// #[derive(Component)]
    /// struct Frozen;
    /// let mut world = World::new();
    /// world.spawn_with((Health(1),))?;
    /// world.spawn_with((Health(2), Frozen))?;
    /// assert_eq!(world.query_mut::<(&mut Health,)>().without::<Frozen>().count(), 1);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn count(&mut self) -> usize {
        self.iter().count()
    }
}

impl<'w, Q: QueryData> IntoIterator for QueryMut<'w, Q> {
    type Item = Q::Item<'w>;
    type IntoIter = QueryIter<'w, Q>;
    fn into_iter(self) -> QueryIter<'w, Q> {
        let rest = (&self.filters, &self.since[..], self.child_of);
        walk_mut(self.entities, self.storage, self.plans, rest)
    }
}

impl<'q, Q: QueryData> IntoIterator for &'q mut QueryMut<'_, Q> {
    type Item = Q::Item<'q>;
    type IntoIter = QueryIter<'q, Q>;
    fn into_iter(self) -> QueryIter<'q, Q> {
        self.iter()
    }
}

/// The walk of a writing query over the parts it borrows (`filters`, the
/// change filters' ticks and the parent whose children it keeps): what
/// [`QueryMut::iter`] and its `into_iter` share.
fn walk_mut<'a, Q: QueryData>(
    entities: &'a Entities,
    storage: &'a mut Storage,
    plans: &mut PlanCache,
    (filters, since, child_of): (&Filters, &[Watch], Option<crate::EntityId>),
) -> QueryIter<'a, Q> {
    let plan = plans.plan_mut(storage, Q::TERMS, filters);
    let source = Source::new_mut(storage, plan.segments());
    let walk = Walk::new(since.to_vec(), child_of, entities);
    QueryIter::new(plan, source, entities, filters.inactive, walk)
}

/// Rejects a query whose terms could hand out one component twice, one of
/// them mutably: at compile time (evaluating [`QueryData::CHECKED`]), and at
/// run time for two instantiations of one generic component type.
pub(crate) fn check_conflicts<Q: QueryData>() {
    #[allow(clippy::let_unit_value)]
    let () = Q::CHECKED;
    if const { data::needs_runtime_check(Q::TERMS) }
        && let Some((i, j)) = data::runtime_conflict(Q::TERMS)
    {
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
