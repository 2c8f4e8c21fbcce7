//! The term that reads up the scene graph: the nearest ancestor's
//! component.

use std::marker::PhantomData;
use std::sync::Arc;

use crate::entity::{Entities, EntityIndex};
use crate::query::term::{Generations, Slot, SlotKind, Term, TermInfo, UpTables};
use crate::storage::raw::{Lanes, Strided};
use crate::Component;

/// A term that reads the nearest ancestor's component that is-a `T`: the
/// parent's, or the grandparent's when the parent holds none, and so on up
/// the scene graph ([`World::set_parent`](crate::World::set_parent)).
/// `Up<&Tower>` yields `Option<&Tower>`: `None` for an entity with no
/// ancestor holding one (it does not make the entity required). It reads
/// in place: siblings stored side by side share one walk up, and each
/// ancestor's component is found at its table's place, with no search.
///
/// The ancestor's component is read as
/// [`EntityRef::get`](crate::EntityRef::get) reads it (disabled or not).
/// A writing query may not also write a type related to `T` by is-a (the
/// ancestor could be the same kind of entity): that is a compile error,
/// as for any two terms that could alias.
///
/// ```
/// # use ecs_core::prelude::*;
/// #[derive(Component)]
/// struct Tower { range: f32 }
/// #[derive(Component)]
/// struct Turret { reach: f32 }
/// let mut world = World::new();
/// let tower = world.spawn_with((Tower { range: 8.0 },))?;
/// let turret = world.spawn_with((Turret { reach: 0.0 },))?;
/// world.set_parent(turret, tower)?;
/// for (turret, tower) in world.query_mut::<(&mut Turret, Up<&Tower>)>() {
///     turret.reach = tower.map_or(1.0, |t| t.range);
/// }
/// assert_eq!(world.entity(turret)?.get::<Turret>().unwrap().reach, 8.0);
/// # Ok::<(), ecs_core::Error>(())
/// ```
pub struct Up<T>(PhantomData<T>);

/// The walk up of one [`Up`] term: the entity table (parents, locations),
/// where components sit by table, and the last answer (siblings share it).
#[doc(hidden)]
pub struct UpState<'w, T> {
    entities: &'w Entities,
    by_table: UpTables<'w>,
    last: Option<(EntityIndex, Option<&'w T>)>,
}

impl<T> Clone for UpState<'_, T> {
    fn clone(&self) -> Self {
        UpState {
            entities: self.entities,
            by_table: Arc::clone(&self.by_table),
            last: self.last,
        }
    }
}

impl<'w, T: Component> UpState<'w, T> {
    /// The nearest ancestor's component of entity `owner`.
    #[inline]
    fn find(&mut self, owner: EntityIndex) -> Option<&'w T> {
        let parent = self.entities.parent(owner)?;
        if let Some((seen, found)) = self.last
            && seen == parent
        {
            return found;
        }
        let found = self.walk(parent);
        self.last = Some((parent, found));
        found
    }

    /// The component of `from` or its nearest ancestor holding one. The
    /// walk is bounded by the number of entities, so a broken link cannot
    /// make it loop.
    fn walk(&self, from: EntityIndex) -> Option<&'w T> {
        let mut at = Some(from);
        for _ in 0..self.entities.slot_count() {
            let index = at?;
            let slot = self.entities.slot(index);
            if slot.alive
                && let Some(Some((segment, level))) = self.by_table.get(slot.table.index())
                && let Some(value) = segment.get_as::<T>(slot.row, *level)
            {
                return Some(value);
            }
            at = self.entities.parent(index);
        }
        None
    }
}

impl<T: Component> Term for Up<&T> {
    type Item<'w> = Option<&'w T>;
    type Lane<'w> = Strided<'w, EntityIndex>;
    type State<'w> = UpState<'w, T>;
    const INFO: TermInfo = TermInfo {
        up: true,
        ..TermInfo::of::<T>(false, false)
    };

    fn open(slot: Slot<'_>) -> Option<(Self::Lane<'_>, Self::State<'_>)> {
        let SlotKind::Up {
            owners,
            entities,
            by_table,
        } = slot.kind
        else {
            return None;
        };
        let state = UpState {
            entities,
            by_table,
            last: None,
        };
        Some((Strided::from_slice(owners), state))
    }

    #[inline(always)]
    fn fetch<'w>(
        owner: <Self::Lane<'w> as Lanes>::Item,
        state: &mut Self::State<'w>,
    ) -> Option<Self::Item<'w>> {
        Some(state.find(*owner))
    }

    #[inline(always)]
    fn fetch_fast<'w>(
        owner: <Self::Lane<'w> as Lanes>::Item,
        state: &mut Self::State<'w>,
    ) -> Self::Item<'w> {
        state.find(*owner)
    }

    fn split<'w>(state: Self::State<'w>, _: usize) -> (Self::State<'w>, Self::State<'w>) {
        (state.clone(), state)
    }

    fn idle(ids: Generations<'_>) -> Self::State<'_> {
        UpState {
            entities: ids.0,
            by_table: Arc::from(Vec::new()),
            last: None,
        }
    }
}
