//! The term that reads up the scene graph: the nearest ancestor's
//! component.

use std::marker::PhantomData;

use crate::entity::{Entities, EntityIndex, TableId};
use crate::query::term::{Generations, Slot, SlotKind, Term, TermInfo, UpMaps};
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

/// No table: a world has fewer than 2^32 (one a walk up has not read).
const NO_TABLE: TableId = TableId(u32::MAX);

/// The walk up of one [`Up`] term: the last answer, read on every row
/// (the term's lane is the rows' parent links, which each table keeps
/// beside its owners; siblings stored side by side share an answer, so a
/// row that has the last row's parent costs a load and a compare), and the
/// walker, called for a new parent.
#[doc(hidden)]
pub struct UpState<'w, T> {
    last_parent: EntityIndex,
    last_found: Option<&'w T>,
    walker: Walker<'w, T>,
}

/// What a walk up reads beside the map by table: the entity table, the
/// term's index (where it finds its map), and the values of the table a
/// walk read last, typed (ancestors of one kind share a table, so a new
/// parent costs its slot and an index).
struct Walker<'w, T> {
    entities: &'w Entities,
    term: usize,
    /// The table a walk read last ([`NO_TABLE`] before the first), and
    /// its values (none when it holds no `T`: a read of any row misses,
    /// so a new parent's read tests one thing, not two).
    seen: TableId,
    values: Strided<'w, T>,
}

impl<T> Clone for Walker<'_, T> {
    fn clone(&self) -> Self {
        Walker {
            values: self.values.clone(),
            ..*self
        }
    }
}

impl<T> Clone for UpState<'_, T> {
    fn clone(&self) -> Self {
        UpState {
            walker: self.walker.clone(),
            ..*self
        }
    }
}

impl<'w, T: Component> UpState<'w, T> {
    fn new(entities: &'w Entities, term: usize) -> Self {
        UpState {
            // No parent: no answer, which is what the last answer says.
            last_parent: Entities::NO_PARENT,
            last_found: None,
            walker: Walker {
                entities,
                term,
                seen: NO_TABLE,
                values: Strided::from_slice(&[]),
            },
        }
    }

    /// The nearest ancestor's component of an entity whose parent link is
    /// `parent`: the parent's, or its nearest ancestor's holding one.
    #[inline(always)]
    fn find(&mut self, parent: EntityIndex, ups: &UpMaps<'w>) -> Option<&'w T> {
        if parent != self.last_parent {
            // Siblings side by side are the case this term is built for;
            // told so, the compiler lays the same-parent row out as the
            // straight path (3% fewer instructions a row on a 1k x 9 tree).
            std::hint::cold_path();
            self.last_parent = parent;
            self.last_found = match self.walker.in_seen_table(parent) {
                Some(found) => Some(found),
                None => {
                    // Out of line and by value: the row loop's counters
                    // stay in registers only while no pointer into the
                    // walk's state leaves it.
                    let (found, walker) = walk(self.walker.clone(), parent, ups);
                    self.walker = walker;
                    found
                }
            };
        }
        self.last_found
    }
}

impl<'w, T: Component> Walker<'w, T> {
    /// The component of entity `at` when it is live, in the table a walk
    /// read last, and holds one: the common case of a new parent (parents
    /// of one kind share a table), with no call.
    #[inline(always)]
    fn in_seen_table(&self, at: EntityIndex) -> Option<&'w T> {
        let slot = self.entities.slots().get(at.index())?;
        if !slot.alive || self.seen != slot.table {
            return None;
        }
        self.values.get(slot.row.index())
    }
}

/// The component of `from` or its nearest ancestor holding one, and the
/// walker, its table read last. The walk is bounded by the number of
/// entities, so a broken link cannot make it loop.
#[inline(never)]
fn walk<'w, T: Component>(
    mut walker: Walker<'w, T>,
    from: EntityIndex,
    ups: &UpMaps<'w>,
) -> (Option<&'w T>, Walker<'w, T>) {
    let entities = walker.entities;
    let mut at = from;
    for _ in 0..entities.slot_count() {
        if at == Entities::NO_PARENT {
            break;
        }
        let slot = entities.slot(at);
        if slot.alive {
            if walker.seen != slot.table {
                walker.seen = slot.table;
                walker.values = match ups.of(walker.term).get(slot.table.index()) {
                    Some(&Some((segment, level))) => segment.iter_as::<T>(level),
                    _ => None,
                }
                .unwrap_or_else(|| Strided::from_slice(&[]));
            }
            let found = walker.values.get(slot.row.index());
            if found.is_some() {
                return (found, walker);
            }
        }
        match entities.parent(at) {
            Some(parent) => at = parent,
            None => break,
        }
    }
    (None, walker)
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
            links,
            entities,
            term,
        } = slot.kind
        else {
            return None;
        };
        Some((Strided::from_slice(links), UpState::new(entities, term)))
    }

    #[inline(always)]
    fn fetch<'w>(
        link: <Self::Lane<'w> as Lanes>::Item,
        state: &mut Self::State<'w>,
        ups: &UpMaps<'w>,
    ) -> Option<Self::Item<'w>> {
        Some(state.find(*link, ups))
    }

    #[inline(always)]
    fn fetch_fast<'w>(
        link: <Self::Lane<'w> as Lanes>::Item,
        state: &mut Self::State<'w>,
        ups: &UpMaps<'w>,
    ) -> Self::Item<'w> {
        state.find(*link, ups)
    }

    fn split<'w>(state: Self::State<'w>, _: usize) -> (Self::State<'w>, Self::State<'w>) {
        (state.clone(), state)
    }

    fn idle(ids: Generations<'_>) -> Self::State<'_> {
        // An idle walk has no rows, so it never asks for its map.
        UpState::new(ids.0, 0)
    }
}
