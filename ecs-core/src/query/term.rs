//! Query terms: what one element of a query tuple reads, and its cursor
//! over one table's rows.

use std::marker::PhantomData;

use crate::entity::{Entities, EntityIndex};
use crate::storage::raw::{Strided, StridedMut};
use crate::storage::{Segment, DISABLED};
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
}

impl TermInfo {
    const fn of<T: Component>(mutable: bool, required: bool) -> Self {
        TermInfo {
            key: Some(ComponentKey::of::<T>()),
            chain: T::__VTABLE.chain.keys(),
            mutable,
            required,
            all: false,
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
}

impl SlotKind<'_> {
    /// Whether rows read through this slot may be skipped.
    pub(crate) fn checks(&self) -> bool {
        match self {
            SlotKind::Shared { check, .. } | SlotKind::Mut { check, .. } => *check,
            SlotKind::Many(kinds) => kinds.iter().any(SlotKind::checks),
            SlotKind::Missing | SlotKind::Owners { .. } => false,
        }
    }
}

/// One element of a query tuple: `&T`, `&mut T`, `Option<&T>`,
/// `Option<&mut T>` (for any component `T`) or [`EntityId`].
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a query term",
    label = "not a query term",
    note = "a term is `&T`, `&mut T`, `Option<&T>`, `Option<&mut T>`, `All<&T>`, `All<&mut T>` for a component type `T` (one with `#[derive(Component)]`), or `EntityId`"
)]
///
/// `&T` matches an entity's first component that is-a `T`, in insertion
/// order, as [`EntityRef::get`](crate::EntityRef::get) does.
pub trait Term {
    /// What the term hands out for one entity.
    type Item<'w>;
    #[doc(hidden)]
    type Cursor<'w>: Send;
    #[doc(hidden)]
    const INFO: TermInfo;
    #[doc(hidden)]
    fn cursor(slot: Slot<'_>) -> Option<Self::Cursor<'_>>;
    /// Advances one row; `None` when the row's component is disabled (the
    /// entity is then skipped).
    #[doc(hidden)]
    fn fetch<'w>(cursor: &mut Self::Cursor<'w>) -> Option<Self::Item<'w>>;
    /// [`Term::fetch`] for a table where nothing is disabled: no check.
    #[doc(hidden)]
    fn fetch_fast<'w>(cursor: &mut Self::Cursor<'w>) -> Option<Self::Item<'w>>;
    #[doc(hidden)]
    fn split<'w>(cursor: Self::Cursor<'w>, at: usize) -> (Self::Cursor<'w>, Self::Cursor<'w>);
}

/// The rows of one segment as shared `T`s, with their meta words when
/// disabled rows are skipped.
#[doc(hidden)]
pub struct Reads<'w, T> {
    values: Strided<'w, T>,
    metas: Option<&'w [u32]>,
}

/// Mutable twin of [`Reads`].
#[doc(hidden)]
pub struct Writes<'w, T> {
    values: StridedMut<'w, T>,
    metas: Option<&'w [u32]>,
}

/// Advances `metas` one row; `false` when that row is disabled.
#[inline(always)]
fn enabled(metas: &mut Option<&[u32]>) -> bool {
    match metas {
        None => true,
        Some(rest) => match rest.split_first() {
            Some((&meta, tail)) => {
                *rest = tail;
                meta & DISABLED == 0
            }
            None => false,
        },
    }
}

type Metas<'w> = Option<&'w [u32]>;

fn split_metas(metas: Metas<'_>, at: usize) -> (Metas<'_>, Metas<'_>) {
    match metas {
        Some(m) => {
            let (a, b) = m.split_at(at.min(m.len()));
            (Some(a), Some(b))
        }
        None => (None, None),
    }
}

impl<'w, T: Component> Reads<'w, T> {
    fn open(slot: Slot<'w>) -> Option<Self> {
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
            SlotKind::Missing | SlotKind::Owners { .. } | SlotKind::Many(_) => return None,
        };
        Some(Reads {
            values: segment.iter_as::<T>(level)?,
            metas: check.then(|| segment.metas()),
        })
    }

    #[inline(always)]
    fn next(&mut self) -> Option<&'w T> {
        let value = self.values.next();
        if enabled(&mut self.metas) {
            value
        } else {
            None
        }
    }

    #[inline(always)]
    fn next_fast(&mut self) -> Option<&'w T> {
        self.values.next()
    }

    fn split(self, at: usize) -> (Self, Self) {
        let (a, b) = self.values.split_at(at);
        let (ma, mb) = split_metas(self.metas, at);
        (
            Reads {
                values: a,
                metas: ma,
            },
            Reads {
                values: b,
                metas: mb,
            },
        )
    }
}

impl<'w, T: Component> Writes<'w, T> {
    fn open(slot: Slot<'w>) -> Option<Self> {
        let SlotKind::Mut {
            segment,
            level,
            check,
        } = slot.kind
        else {
            return None;
        };
        let (values, metas) = segment.iter_meta_mut::<T>(level)?;
        Some(Writes {
            values,
            metas: check.then_some(metas),
        })
    }

    #[inline(always)]
    fn next(&mut self) -> Option<&'w mut T> {
        let value = self.values.next();
        if enabled(&mut self.metas) {
            value
        } else {
            None
        }
    }

    #[inline(always)]
    fn next_fast(&mut self) -> Option<&'w mut T> {
        self.values.next()
    }

    fn split(self, at: usize) -> (Self, Self) {
        let (a, b) = self.values.split_at(at);
        let (ma, mb) = split_metas(self.metas, at);
        (
            Writes {
                values: a,
                metas: ma,
            },
            Writes {
                values: b,
                metas: mb,
            },
        )
    }
}

impl<T: Component> Term for &T {
    type Item<'w> = &'w T;
    type Cursor<'w> = Reads<'w, T>;
    const INFO: TermInfo = TermInfo::of::<T>(false, true);

    fn cursor(slot: Slot<'_>) -> Option<Self::Cursor<'_>> {
        Reads::open(slot)
    }

    #[inline(always)]
    fn fetch<'w>(cursor: &mut Self::Cursor<'w>) -> Option<&'w T> {
        cursor.next()
    }

    #[inline(always)]
    fn fetch_fast<'w>(cursor: &mut Self::Cursor<'w>) -> Option<&'w T> {
        cursor.next_fast()
    }

    fn split<'w>(cursor: Self::Cursor<'w>, at: usize) -> (Self::Cursor<'w>, Self::Cursor<'w>) {
        cursor.split(at)
    }
}

impl<T: Component> Term for &mut T {
    type Item<'w> = &'w mut T;
    type Cursor<'w> = Writes<'w, T>;
    const INFO: TermInfo = TermInfo::of::<T>(true, true);

    fn cursor(slot: Slot<'_>) -> Option<Self::Cursor<'_>> {
        Writes::open(slot)
    }

    #[inline(always)]
    fn fetch<'w>(cursor: &mut Self::Cursor<'w>) -> Option<&'w mut T> {
        cursor.next()
    }

    #[inline(always)]
    fn fetch_fast<'w>(cursor: &mut Self::Cursor<'w>) -> Option<&'w mut T> {
        cursor.next_fast()
    }

    fn split<'w>(cursor: Self::Cursor<'w>, at: usize) -> (Self::Cursor<'w>, Self::Cursor<'w>) {
        cursor.split(at)
    }
}

impl<T: Component> Term for Option<&T> {
    type Item<'w> = Option<&'w T>;
    type Cursor<'w> = Option<Reads<'w, T>>;
    const INFO: TermInfo = TermInfo::of::<T>(false, false);

    fn cursor(slot: Slot<'_>) -> Option<Self::Cursor<'_>> {
        Some(Reads::open(slot))
    }

    #[inline(always)]
    fn fetch<'w>(cursor: &mut Self::Cursor<'w>) -> Option<Option<&'w T>> {
        Some(cursor.as_mut().and_then(Reads::next))
    }

    #[inline(always)]
    fn fetch_fast<'w>(cursor: &mut Self::Cursor<'w>) -> Option<Option<&'w T>> {
        Some(cursor.as_mut().and_then(Reads::next_fast))
    }

    fn split<'w>(cursor: Self::Cursor<'w>, at: usize) -> (Self::Cursor<'w>, Self::Cursor<'w>) {
        match cursor {
            Some(c) => {
                let (a, b) = c.split(at);
                (Some(a), Some(b))
            }
            None => (None, None),
        }
    }
}

impl<T: Component> Term for Option<&mut T> {
    type Item<'w> = Option<&'w mut T>;
    type Cursor<'w> = Option<Writes<'w, T>>;
    const INFO: TermInfo = TermInfo::of::<T>(true, false);

    fn cursor(slot: Slot<'_>) -> Option<Self::Cursor<'_>> {
        Some(Writes::open(slot))
    }

    #[inline(always)]
    fn fetch<'w>(cursor: &mut Self::Cursor<'w>) -> Option<Option<&'w mut T>> {
        Some(cursor.as_mut().and_then(Writes::next))
    }

    #[inline(always)]
    fn fetch_fast<'w>(cursor: &mut Self::Cursor<'w>) -> Option<Option<&'w mut T>> {
        Some(cursor.as_mut().and_then(Writes::next_fast))
    }

    fn split<'w>(cursor: Self::Cursor<'w>, at: usize) -> (Self::Cursor<'w>, Self::Cursor<'w>) {
        match cursor {
            Some(c) => {
                let (a, b) = c.split(at);
                (Some(a), Some(b))
            }
            None => (None, None),
        }
    }
}

/// The owners of a table's rows, as ids.
#[doc(hidden)]
pub struct Ids<'w> {
    owners: &'w [EntityIndex],
    entities: &'w Entities,
}

impl Term for EntityId {
    type Item<'w> = EntityId;
    type Cursor<'w> = Ids<'w>;
    const INFO: TermInfo = TermInfo {
        key: None,
        chain: &[],
        mutable: false,
        required: false,
        all: false,
    };

    fn cursor(slot: Slot<'_>) -> Option<Self::Cursor<'_>> {
        let SlotKind::Owners { owners, entities } = slot.kind else {
            return None;
        };
        Some(Ids { owners, entities })
    }

    #[inline(always)]
    fn fetch<'w>(cursor: &mut Self::Cursor<'w>) -> Option<Self::Item<'w>> {
        let (&owner, rest) = cursor.owners.split_first()?;
        cursor.owners = rest;
        Some(cursor.entities.id_at(owner))
    }

    #[inline(always)]
    fn fetch_fast<'w>(cursor: &mut Self::Cursor<'w>) -> Option<Self::Item<'w>> {
        Self::fetch(cursor)
    }

    fn split<'w>(cursor: Self::Cursor<'w>, at: usize) -> (Self::Cursor<'w>, Self::Cursor<'w>) {
        let (a, b) = cursor.owners.split_at(at.min(cursor.owners.len()));
        (
            Ids {
                owners: a,
                ..cursor
            },
            Ids {
                owners: b,
                ..cursor
            },
        )
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

fn open_many<'w, C>(slot: Slot<'w>, open: impl Fn(Slot<'w>) -> Option<C>) -> Option<Vec<C>> {
    match slot.kind {
        SlotKind::Many(slots) => Some(
            slots
                .into_iter()
                .filter_map(|kind| open(Slot { kind }))
                .collect(),
        ),
        _ => Some(Vec::new()),
    }
}

impl<T: Component> Term for All<&T> {
    type Item<'w> = Vec<&'w T>;
    type Cursor<'w> = Vec<Reads<'w, T>>;
    const INFO: TermInfo = TermInfo {
        all: true,
        ..TermInfo::of::<T>(false, false)
    };

    fn cursor(slot: Slot<'_>) -> Option<Self::Cursor<'_>> {
        open_many(slot, Reads::open)
    }

    fn fetch<'w>(cursor: &mut Self::Cursor<'w>) -> Option<Vec<&'w T>> {
        Some(cursor.iter_mut().filter_map(Reads::next).collect())
    }

    fn fetch_fast<'w>(cursor: &mut Self::Cursor<'w>) -> Option<Vec<&'w T>> {
        Self::fetch(cursor)
    }

    fn split<'w>(cursor: Self::Cursor<'w>, at: usize) -> (Self::Cursor<'w>, Self::Cursor<'w>) {
        cursor.into_iter().map(|c| c.split(at)).unzip()
    }
}

impl<T: Component> Term for All<&mut T> {
    type Item<'w> = Vec<&'w mut T>;
    type Cursor<'w> = Vec<Writes<'w, T>>;
    const INFO: TermInfo = TermInfo {
        all: true,
        ..TermInfo::of::<T>(true, false)
    };

    fn cursor(slot: Slot<'_>) -> Option<Self::Cursor<'_>> {
        open_many(slot, Writes::open)
    }

    fn fetch<'w>(cursor: &mut Self::Cursor<'w>) -> Option<Vec<&'w mut T>> {
        Some(cursor.iter_mut().filter_map(Writes::next).collect())
    }

    fn fetch_fast<'w>(cursor: &mut Self::Cursor<'w>) -> Option<Vec<&'w mut T>> {
        Self::fetch(cursor)
    }

    fn split<'w>(cursor: Self::Cursor<'w>, at: usize) -> (Self::Cursor<'w>, Self::Cursor<'w>) {
        cursor.into_iter().map(|c| c.split(at)).unzip()
    }
}
