//! Query terms: what one element of a query tuple reads, and its cursor
//! over one table's rows.

use std::marker::PhantomData;

use crate::entity::{Entities, EntityIndex};
use crate::storage::raw::{Lanes, Strided, StridedMut};
use crate::table::{Meta, Segment};
use crate::{Component, ComponentKey, EntityId};

/// How one term reads: which component type (`None` for [`EntityId`]),
/// whether mutably, and whether an entity must hold one to match.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct TermInfo {
    pub(crate) key: Option<ComponentKey>,
    pub(crate) chain: &'static [ComponentKey],
    pub(crate) mutable: bool,
    pub(crate) required: bool,
    /// Reads every component that is-a the type, not only the first.
    pub(crate) all: bool,
    /// Reads the nearest ancestor's component, not the entity's own.
    pub(crate) up: bool,
}

impl TermInfo {
    pub(crate) const fn of<T: Component>(mutable: bool, required: bool) -> Self {
        TermInfo {
            key: Some(ComponentKey::of::<T>()),
            chain: T::__VTABLE.chain.keys(),
            mutable,
            required,
            all: false,
            up: false,
        }
    }
}

/// What a term gets to read for one table.
#[doc(hidden)]
pub struct Slot<'w> {
    pub(crate) kind: SlotKind<'w>,
}

pub(crate) enum SlotKind<'w> {
    /// The table holds no component the term names.
    Missing,
    /// The segment holding the term's component, read at chain level
    /// `level`; with `check`, rows whose component is disabled are skipped.
    Shared {
        segment: &'w Segment,
        level: usize,
        check: bool,
    },
    Mut {
        segment: &'w mut Segment,
        level: usize,
        check: bool,
    },
    /// Every segment holding a component the term names, in layout order,
    /// for [`All`] terms.
    Many(Vec<SlotKind<'w>>),
    /// The table's owners, for [`EntityId`] terms.
    Owners {
        owners: &'w [EntityIndex],
        entities: &'w Entities,
    },
    /// The table's rows' parent links, for [`Up`](crate::Up) terms.
    Up {
        links: &'w [EntityIndex],
        entities: &'w Entities,
        /// The term's index in its query, where it finds its map in
        /// [`UpMaps`].
        term: usize,
    },
}

/// Per term of a query (by its index), for [`Up`](crate::Up) terms: by
/// table id, the segment holding the first component that is-a the term's
/// type, and its chain level.
///
/// A walk keeps the maps beside the terms' states, not in them, and hands
/// them to every row's fetch: a map owned by a term's state is carried
/// through the out-of-line code that opens tables, and its release code,
/// even on a path never taken, keeps a `for` loop's counters in memory.
#[doc(hidden)]
#[derive(Default)]
pub struct UpMaps<'w>(Vec<Option<UpMap<'w>>>);

/// One [`Up`](crate::Up) term's map: by table id, the segment and chain
/// level it reads there, `None` where the table holds none.
type UpMap<'w> = Vec<Option<(&'w Segment, usize)>>;

impl<'w> UpMaps<'w> {
    /// Term `term`'s map; empty when it has none yet.
    #[inline]
    pub(crate) fn of(&self, term: usize) -> &[Option<(&'w Segment, usize)>] {
        match self.0.get(term) {
            Some(Some(map)) => map,
            _ => &[],
        }
    }

    /// Whether term `term` has its map.
    pub(crate) fn has(&self, term: usize) -> bool {
        matches!(self.0.get(term), Some(Some(_)))
    }

    /// Sets term `term`'s map.
    pub(crate) fn set(&mut self, term: usize, map: UpMap<'w>) {
        if self.0.len() <= term {
            self.0.resize_with(term + 1, || None);
        }
        self.0[term] = Some(map);
    }
}

impl SlotKind<'_> {
    /// Whether rows read through this slot may be skipped.
    #[inline]
    pub(crate) fn checks(&self) -> bool {
        match self {
            SlotKind::Shared { check, .. } | SlotKind::Mut { check, .. } => *check,
            SlotKind::Many(kinds) => kinds.iter().any(SlotKind::checks),
            SlotKind::Missing | SlotKind::Owners { .. } | SlotKind::Up { .. } => false,
        }
    }
}

/// One element of a query tuple. The term kinds, for any component type
/// `T` (this table is their one list; other docs link here):
///
/// | Term | Yields, per entity | An entity holding no match | Read-only |
/// |---|---|---|---|
/// | `&T` | `&T`: its first component that is-a `T` | is left out | yes |
/// | `&mut T` | `&mut T`: the same component, mutably | is left out | no |
/// | `Option<&T>` | `Option<&T>`: the same component, if any | yields `None` | yes |
/// | `Option<&mut T>` | `Option<&mut T>`: the same, mutably | yields `None` | no |
/// | [`All<&T>`](All) | `Vec<&T>`: every component that is-a `T` | yields an empty `Vec` | yes |
/// | [`All<&mut T>`](All) | `Vec<&mut T>`: the same, mutably | yields an empty `Vec` | no |
/// | [`EntityId`] | `EntityId`: the entity's id | (every entity has one) | yes |
///
/// "First" and the `Vec`'s order are insertion order, as
/// [`EntityRef::get`](crate::EntityRef::get) reads. A disabled component
/// counts as no match unless the query calls
/// [`include_inactive`](crate::Query::include_inactive). Read-only terms
/// ([`ReadOnlyTerm`](crate::ReadOnlyTerm)) are what
/// [`World::query`](crate::World::query) takes;
/// [`World::query_mut`](crate::World::query_mut) takes every term.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a query term",
    label = "not a query term",
    note = "a term is `&T`, `&mut T`, `Option<&T>`, `Option<&mut T>`, `All<&T>`, `All<&mut T>` for a component type `T` (one with `#[derive(Component)]`), or `EntityId`"
)]
pub trait Term {
    /// What the term hands out for one entity.
    type Item<'w>;
    /// The array the term walks in step with the query's other terms.
    #[doc(hidden)]
    type Lane<'w>: Lanes + Send;
    /// What else the term needs per row: the meta words of a table where
    /// something is disabled, the entity table for ids.
    #[doc(hidden)]
    type State<'w>: Send;
    #[doc(hidden)]
    const INFO: TermInfo;
    #[doc(hidden)]
    fn open(slot: Slot<'_>) -> Option<(Self::Lane<'_>, Self::State<'_>)>;
    /// The row's item from its lane; `None` when the row's component is
    /// disabled (the entity is then skipped). Advances the state a row.
    #[doc(hidden)]
    fn fetch<'w>(
        lane: <Self::Lane<'w> as Lanes>::Item,
        state: &mut Self::State<'w>,
        ups: &UpMaps<'w>,
    ) -> Option<Self::Item<'w>>;
    /// [`Term::fetch`] for a table where nothing is disabled: no check.
    #[doc(hidden)]
    fn fetch_fast<'w>(
        lane: <Self::Lane<'w> as Lanes>::Item,
        state: &mut Self::State<'w>,
        ups: &UpMaps<'w>,
    ) -> Self::Item<'w>;
    #[doc(hidden)]
    fn split<'w>(state: Self::State<'w>, at: usize) -> (Self::State<'w>, Self::State<'w>);
    /// The state of a walk that has not started.
    #[doc(hidden)]
    fn idle(ids: Generations<'_>) -> Self::State<'_>;
}

/// The meta words of a segment's rows when disabled rows are skipped
/// (`None`: nothing is skipped).
#[doc(hidden)]
#[derive(Clone, Copy)]
pub struct Metas<'w>(Option<&'w [Meta]>);

/// Advances `metas` one row; `false` when that row is disabled.
#[inline(always)]
fn enabled(metas: &mut Metas<'_>) -> bool {
    match &mut metas.0 {
        None => true,
        Some(rest) => match rest.split_first() {
            Some((&meta, tail)) => {
                *rest = tail;
                meta.is_enabled()
            }
            None => false,
        },
    }
}

#[inline]
fn split_metas(metas: Metas<'_>, at: usize) -> (Metas<'_>, Metas<'_>) {
    match metas.0 {
        Some(m) => {
            let (a, b) = m.split_at(at.min(m.len()));
            (Metas(Some(a)), Metas(Some(b)))
        }
        None => (Metas(None), Metas(None)),
    }
}

/// A slot's segment read as `T`s, with its meta words when disabled rows
/// are skipped. Always in line, as are [`open_writes`] and the terms'
/// `open`: out of line, every table a walk opened passed its slot through
/// memory into a call (a one-term walk over 26 tables of 20 rows took 5%
/// more instructions in a `for` loop, 8% more in `for_each`).
#[inline(always)]
fn open_reads<T: Component>(slot: Slot<'_>) -> Option<(Strided<'_, T>, Metas<'_>)> {
    let (segment, level, check): (&Segment, _, _) = match slot.kind {
        SlotKind::Shared {
            segment,
            level,
            check,
        } => (segment, level, check),
        SlotKind::Mut {
            segment,
            level,
            check,
        } => (segment, level, check),
        SlotKind::Missing | SlotKind::Owners { .. } | SlotKind::Many(_) | SlotKind::Up { .. } => {
            return None
        }
    };
    Some((
        segment.iter_as::<T>(level)?,
        Metas(check.then(|| segment.metas())),
    ))
}

/// Mutable twin of [`open_reads`].
#[inline(always)]
fn open_writes<T: Component>(slot: Slot<'_>) -> Option<(StridedMut<'_, T>, Metas<'_>)> {
    let SlotKind::Mut {
        segment,
        level,
        check,
    } = slot.kind
    else {
        return None;
    };
    let (values, metas) = segment.values_as_meta_marked::<T>(level)?;
    Some((values, Metas(check.then_some(&*metas))))
}

/// The impls of `&T` and `&mut T`, which differ only in how they open.
macro_rules! required_term {
    ($term:ty, $lane:ident, $open:ident, $mutable:literal) => {
        impl<T: Component> Term for $term {
            type Item<'w> = <$lane<'w, T> as Lanes>::Item;
            type Lane<'w> = $lane<'w, T>;
            type State<'w> = Metas<'w>;
            const INFO: TermInfo = TermInfo::of::<T>($mutable, true);

            #[inline(always)]
            fn open(slot: Slot<'_>) -> Option<(Self::Lane<'_>, Metas<'_>)> {
                $open(slot)
            }

            #[inline(always)]
            fn fetch<'w>(
                value: <Self::Lane<'w> as Lanes>::Item,
                metas: &mut Self::State<'w>,
                _: &UpMaps<'w>,
            ) -> Option<Self::Item<'w>> {
                enabled(metas).then_some(value)
            }

            #[inline(always)]
            fn fetch_fast<'w>(
                value: <Self::Lane<'w> as Lanes>::Item,
                _: &mut Self::State<'w>,
                _: &UpMaps<'w>,
            ) -> Self::Item<'w> {
                value
            }

            fn split<'w>(metas: Self::State<'w>, at: usize) -> (Self::State<'w>, Self::State<'w>) {
                split_metas(metas, at)
            }

            fn idle(_: Generations<'_>) -> Metas<'_> {
                Metas(None)
            }
        }
    };
}

required_term!(&T, Strided, open_reads, false);
required_term!(&mut T, StridedMut, open_writes, true);

/// The impls of `Option<&T>` and `Option<&mut T>`: `None` where the table
/// holds no match or the row's match is disabled.
macro_rules! optional_term {
    ($term:ty, $lane:ident, $open:ident, $mutable:literal) => {
        impl<T: Component> Term for Option<$term> {
            type Item<'w> = Option<<$lane<'w, T> as Lanes>::Item>;
            type Lane<'w> = Option<$lane<'w, T>>;
            type State<'w> = Metas<'w>;
            const INFO: TermInfo = TermInfo::of::<T>($mutable, false);

            #[inline]
            fn open(slot: Slot<'_>) -> Option<(Self::Lane<'_>, Metas<'_>)> {
                Some(match $open(slot) {
                    Some((values, metas)) => (Some(values), metas),
                    None => (None, Metas(None)),
                })
            }

            #[inline(always)]
            fn fetch<'w>(
                value: <Self::Lane<'w> as Lanes>::Item,
                metas: &mut Self::State<'w>,
                _: &UpMaps<'w>,
            ) -> Option<Self::Item<'w>> {
                let enabled = enabled(metas);
                Some(value.filter(|_| enabled))
            }

            #[inline(always)]
            fn fetch_fast<'w>(
                value: <Self::Lane<'w> as Lanes>::Item,
                _: &mut Self::State<'w>,
                _: &UpMaps<'w>,
            ) -> Self::Item<'w> {
                value
            }

            fn split<'w>(metas: Self::State<'w>, at: usize) -> (Self::State<'w>, Self::State<'w>) {
                split_metas(metas, at)
            }

            fn idle(_: Generations<'_>) -> Metas<'_> {
                Metas(None)
            }
        }
    };
}

optional_term!(&T, Strided, open_reads, false);
optional_term!(&mut T, StridedMut, open_writes, true);

/// Where [`EntityId`] terms find each owner's generation.
#[doc(hidden)]
#[derive(Clone, Copy)]
pub struct Generations<'w>(pub(crate) &'w Entities);

impl Term for EntityId {
    type Item<'w> = EntityId;
    type Lane<'w> = Strided<'w, EntityIndex>;
    type State<'w> = Generations<'w>;
    const INFO: TermInfo = TermInfo {
        key: None,
        chain: &[],
        mutable: false,
        required: false,
        all: false,
        up: false,
    };

    fn open(slot: Slot<'_>) -> Option<(Self::Lane<'_>, Generations<'_>)> {
        let SlotKind::Owners { owners, entities } = slot.kind else {
            return None;
        };
        Some((Strided::from_slice(owners), Generations(entities)))
    }

    #[inline(always)]
    fn fetch<'w>(
        owner: <Self::Lane<'w> as Lanes>::Item,
        entities: &mut Self::State<'w>,
        _: &UpMaps<'w>,
    ) -> Option<Self::Item<'w>> {
        Some(entities.0.id_at(*owner))
    }

    #[inline(always)]
    fn fetch_fast<'w>(
        owner: <Self::Lane<'w> as Lanes>::Item,
        entities: &mut Self::State<'w>,
        _: &UpMaps<'w>,
    ) -> Self::Item<'w> {
        entities.0.id_at(*owner)
    }

    fn split<'w>(entities: Self::State<'w>, _: usize) -> (Self::State<'w>, Self::State<'w>) {
        (entities, entities)
    }

    fn idle(ids: Generations<'_>) -> Generations<'_> {
        ids
    }
}

/// A term that reads every component of the entity that is-a `T`, in
/// insertion order, not only the first: `All<&Collider>` yields a
/// `Vec<&Collider>`, `All<&mut Collider>` a `Vec<&mut Collider>` (empty when
/// the entity holds none; it does not make the entity required — add
/// `.with::<Collider>()` for that). The way to visit every `multiple`
/// component in one loop; it allocates the `Vec` per entity.
///
/// ```
/// # use ecs_core::prelude::*;
/// #[derive(Component)]
/// #[component(multiple)]
/// struct Collider { radius: f32 }
/// let mut world = World::new();
/// world.spawn_with((Collider { radius: 1.0 }, Collider { radius: 2.0 }))?;
/// for (all,) in world.query_mut::<(All<&mut Collider>,)>() {
///     for c in all {
///         c.radius *= 10.0;
///     }
/// }
/// let radii: Vec<f32> = world.query::<(All<&Collider>,)>().into_iter().flat_map(|(all,)| all).map(|c| c.radius).collect();
/// assert_eq!(radii, [10.0, 20.0]);
/// # Ok::<(), ecs_core::Error>(())
/// ```
pub struct All<T>(PhantomData<T>);

fn open_many<'w, C>(slot: Slot<'w>, open: impl Fn(Slot<'w>) -> Option<C>) -> Vec<C> {
    match slot.kind {
        SlotKind::Many(slots) => slots
            .into_iter()
            .filter_map(|kind| open(Slot { kind }))
            .collect(),
        _ => Vec::new(),
    }
}

/// The impls of `All<&T>` and `All<&mut T>`: they keep their own checked
/// walks (one per matching component), as many as the table has.
macro_rules! all_term {
    ($term:ty, $lane:ident, $open:ident, $mutable:literal) => {
        impl<T: Component> Term for All<$term> {
            type Item<'w> = Vec<<$lane<'w, T> as Iterator>::Item>;
            type Lane<'w> = ();
            type State<'w> = Vec<($lane<'w, T>, Metas<'w>)>;
            const INFO: TermInfo = TermInfo {
                all: true,
                ..TermInfo::of::<T>($mutable, false)
            };

            fn open(slot: Slot<'_>) -> Option<((), Self::State<'_>)> {
                Some(((), open_many(slot, $open)))
            }

            fn fetch<'w>(
                (): <Self::Lane<'w> as Lanes>::Item,
                walks: &mut Self::State<'w>,
                _: &UpMaps<'w>,
            ) -> Option<Self::Item<'w>> {
                Some(
                    walks
                        .iter_mut()
                        .filter_map(|(values, metas)| {
                            let value = values.next();
                            value.filter(|_| enabled(metas))
                        })
                        .collect(),
                )
            }

            fn fetch_fast<'w>(
                (): <Self::Lane<'w> as Lanes>::Item,
                walks: &mut Self::State<'w>,
                _: &UpMaps<'w>,
            ) -> Self::Item<'w> {
                walks
                    .iter_mut()
                    .filter_map(|(values, _)| values.next())
                    .collect()
            }

            fn split<'w>(walks: Self::State<'w>, at: usize) -> (Self::State<'w>, Self::State<'w>) {
                walks
                    .into_iter()
                    .map(|(values, metas)| {
                        let (va, vb) = values.split_at(at);
                        let (ma, mb) = split_metas(metas, at);
                        ((va, ma), (vb, mb))
                    })
                    .unzip()
            }

            fn idle(_: Generations<'_>) -> Self::State<'_> {
                Vec::new()
            }
        }
    };
}

all_term!(&T, Strided, open_reads, false);
all_term!(&mut T, StridedMut, open_writes, true);
