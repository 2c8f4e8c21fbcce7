//! The scene graph: parent/child links between entities (as in Unity's
//! Transform hierarchy), and what changes them: linking without a cycle,
//! despawning a whole subtree. Children keep the order they were attached in.

use crate::entity::EntityIndex;
use crate::world::World;
use crate::{EntityId, EntityMut, EntityRef, Error};

const NO_PARENT: EntityIndex = EntityIndex(u32::MAX);

/// Where a parent's children sit in [`Hierarchy::pool`]: `len` of them
/// from `start`, with room for `cap`.
#[derive(Clone, Copy, Debug, Default)]
struct Span {
    start: u32,
    len: u32,
    cap: u32,
}

impl Span {
    fn range(self) -> std::ops::Range<usize> {
        self.start as usize..(self.start + self.len) as usize
    }
}

/// Links by entity slot; grown only when links are made, so worlds without a
/// hierarchy pay nothing for it.
///
/// Every child list lives in one buffer, each parent's at its own span:
/// a load or a tree spawn links a parent with one copy and no allocation
/// of its own, and a snapshot copies three arrays whatever the tree's
/// shape. A list that outgrows its room moves to the end of the buffer;
/// the room it leaves is reclaimed once it is half the buffer.
#[derive(Debug, Default)]
pub(crate) struct Hierarchy {
    /// By slot: the parent, or [`NO_PARENT`].
    parents: Vec<EntityIndex>,
    /// By slot: where the children are in `pool`.
    spans: Vec<Span>,
    pool: Vec<EntityIndex>,
    /// How many entries of `pool` no span holds.
    dead: usize,
    /// How many times a link was made or undone: equal counts of one
    /// history mean equal links (a diff skips comparing them).
    edits: u64,
}

impl Clone for Hierarchy {
    fn clone(&self) -> Self {
        Hierarchy {
            parents: self.parents.clone(),
            spans: self.spans.clone(),
            pool: self.pool.clone(),
            dead: self.dead,
            edits: self.edits,
        }
    }

    /// Reuses this one's buffers, so restoring a snapshot into its own
    /// world allocates nothing (a derived `clone_from` would clone afresh).
    fn clone_from(&mut self, source: &Self) {
        self.parents.clone_from(&source.parents);
        self.spans.clone_from(&source.spans);
        self.pool.clone_from(&source.pool);
        self.dead = source.dead;
        self.edits = source.edits;
    }
}

/// A position in the child-list buffer, which holds fewer entries than
/// 2^32 (at most twice the linked entities, which a world counts in 32
/// bits, before it is compacted).
fn at(n: usize) -> u32 {
    u32::try_from(n).expect("the child lists hold fewer than 2^32 entries")
}

impl Hierarchy {
    /// No links: what a world starts with.
    pub const fn new() -> Self {
        Hierarchy {
            parents: Vec::new(),
            spans: Vec::new(),
            pool: Vec::new(),
            dead: 0,
            edits: 0,
        }
    }

    /// How many times a link was made or undone (see `edits`).
    pub fn edits(&self) -> u64 {
        self.edits
    }

    pub fn parent(&self, index: EntityIndex) -> Option<EntityIndex> {
        let parent = *self.parents.get(index.index())?;
        (parent != NO_PARENT).then_some(parent)
    }

    pub fn children(&self, index: EntityIndex) -> &[EntityIndex] {
        self.spans
            .get(index.index())
            .map_or(&[], |span| &self.pool[span.range()])
    }

    /// Makes room for slots below `slots`.
    fn grow(&mut self, slots: usize) {
        if self.parents.len() < slots {
            self.parents.resize(slots, NO_PARENT);
            self.spans.resize(slots, Span::default());
        }
    }

    /// Unlinks `child` from its parent, if any.
    pub fn detach(&mut self, child: EntityIndex) {
        let Some(parent) = self.parent(child) else {
            return;
        };
        self.edits += 1;
        let span = &mut self.spans[parent.index()];
        let siblings = &mut self.pool[span.range()];
        // Searched from the end: despawning a subtree detaches children
        // last first, so the common case is the last child, constant time
        // where a scan from the front would make despawning a wide parent
        // quadratic.
        if let Some(at) = siblings.iter().rposition(|&c| c == child) {
            siblings.copy_within(at + 1.., at);
            span.len -= 1;
            if span.len == 0 {
                // An empty list gives its room back: parents come and go
                // (a slot's next entity may never have children).
                self.dead += span.cap as usize;
                *span = Span::default();
            }
        }
        self.parents[child.index()] = NO_PARENT;
    }

    /// Links `child` under `parent`, last among its children; the caller has
    /// ruled out cycles.
    pub(crate) fn attach(&mut self, child: EntityIndex, parent: EntityIndex) {
        self.detach(child);
        self.edits += 1;
        self.grow(child.index().max(parent.index()) + 1);
        self.parents[child.index()] = parent;
        let span = self.room_for_one(parent.index());
        self.pool[(span.start + span.len) as usize] = child;
        self.spans[parent.index()].len += 1;
    }

    /// The span of `parent`'s children once it has room for one more: at
    /// the end of the buffer it grows in place, elsewhere it moves there
    /// with twice the room.
    fn room_for_one(&mut self, parent: usize) -> Span {
        let span = self.spans[parent];
        if span.len < span.cap {
            return span;
        }
        let cap = at((span.cap as usize * 2).max(4));
        if span.start as usize + span.cap as usize == self.pool.len() && span.cap > 0 {
            self.pool
                .resize(span.start as usize + cap as usize, NO_PARENT);
        } else {
            self.compact_if_sparse();
            let span = self.spans[parent];
            let start = self.pool.len();
            self.pool.extend_from_within(span.range());
            self.pool.resize(start + cap as usize, NO_PARENT);
            self.dead += span.cap as usize;
            self.spans[parent].start = at(start);
        }
        self.spans[parent].cap = cap;
        self.spans[parent]
    }

    /// Packs the lists together, without room to spare, once the entries
    /// no list holds are half the buffer (amortised: as many entries were
    /// written since the last packing).
    fn compact_if_sparse(&mut self) {
        if self.dead < 64 || self.dead * 2 < self.pool.len() {
            return;
        }
        let mut pool = Vec::with_capacity(self.pool.len() - self.dead);
        for span in &mut self.spans {
            let start = at(pool.len());
            pool.extend_from_slice(&self.pool[span.range()]);
            *span = Span {
                start,
                len: span.len,
                cap: span.len,
            };
        }
        self.pool = pool;
        self.dead = 0;
    }

    /// Room for `children` more links, made at once (a load knows them).
    pub(crate) fn reserve(&mut self, slots: usize, children: usize) {
        self.grow(slots);
        self.pool.reserve(children);
    }

    /// Links fresh entities: each of `children` (none linked yet) under
    /// `parent` (which has none yet), in order. For loads and tree spawns,
    /// which link whole trees at a time.
    pub(crate) fn link_fresh(
        &mut self,
        parent: EntityIndex,
        children: &[EntityIndex],
        slots: usize,
    ) {
        self.grow(slots);
        self.edits += 1;
        self.compact_if_sparse();
        for &child in children {
            self.parents[child.index()] = parent;
        }
        let span = &mut self.spans[parent.index()];
        debug_assert_eq!(span.len, 0, "a fresh parent");
        self.dead += span.cap as usize;
        let start = at(self.pool.len());
        let len = at(children.len());
        *span = Span {
            start,
            len,
            cap: len,
        };
        self.pool.extend_from_slice(children);
    }

    /// `index` and its descendants, depth-first, parents before children,
    /// children in attach order.
    pub fn subtree(&self, index: EntityIndex) -> Vec<EntityIndex> {
        let mut out = Vec::new();
        let mut stack = vec![index];
        while let Some(i) = stack.pop() {
            out.push(i);
            stack.extend(self.children(i).iter().rev());
        }
        out
    }

    /// The parent, grandparent, ... of `index`.
    pub fn ancestors(&self, index: EntityIndex) -> impl Iterator<Item = EntityIndex> + '_ {
        std::iter::successors(self.parent(index), move |&i| self.parent(i))
    }
}

/// Mutable twin of [`World::hierarchy`].
#[inline]
pub(crate) fn hierarchy_mut(world: &mut World) -> &mut Hierarchy {
    world.extension_mut::<Hierarchy>()
}

/// [`World::set_parent`]: links `child` under `parent` unless that would
/// close a cycle.
pub(crate) fn set_parent(
    world: &mut World,
    child: EntityId,
    parent: EntityId,
) -> Result<(), Error> {
    world.check(child)?;
    world.check(parent)?;
    // A leaf cannot be its new parent's ancestor: building a tree
    // top-down costs no walk, and otherwise the walk is the parent's
    // depth.
    let cycle = child == parent
        || (!world.hierarchy().children(child.index).is_empty()
            && world
                .hierarchy()
                .ancestors(parent.index)
                .any(|a| a == child.index));
    if cycle {
        return Err(Error::HierarchyCycle { child, parent });
    }
    hierarchy_mut(world).attach(child.index, parent.index);
    world.set_parent_link(child.index, Some(parent.index));
    Ok(())
}

/// [`World::despawn`]: `id` and its subtree, children before parents.
pub(crate) fn despawn(world: &mut World, id: EntityId) -> Result<(), Error> {
    world.check(id)?;
    if world.hierarchy().children(id.index).is_empty() {
        world.despawn_one(id.index, true);
        world.reclaim_tables();
        return Ok(());
    }
    let subtree = world.hierarchy().subtree(id.index);
    for &index in subtree.iter().rev() {
        world.take_out_one(index, true);
    }
    // The whole subtree is gone before any of its values is dropped.
    world.empty_trash();
    world.reclaim_tables();
    Ok(())
}

impl<'w> EntityRef<'w> {
    /// The parent entity, if any.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let car = world.spawn();
    /// let wheel = world.spawn();
    /// world.set_parent(wheel, car)?;
    /// assert_eq!(world.entity(wheel)?.parent(), Some(car));
    /// assert_eq!(world.entity(car)?.parent(), None);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn parent(&self) -> Option<EntityId> {
        let world = self.world();
        world
            .hierarchy()
            .parent(self.id().index)
            .map(|i| world.id_at(i))
    }

    /// The children, in the order they were attached.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let car = world.spawn();
    /// let front = world.spawn();
    /// let back = world.spawn();
    /// world.set_parent(back, car)?;
    /// world.set_parent(front, car)?;
    /// assert_eq!(world.entity(car)?.children().collect::<Vec<_>>(), [back, front]);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn children(&self) -> impl Iterator<Item = EntityId> + 'w {
        let world = self.world();
        world
            .hierarchy()
            .children(self.id().index)
            .iter()
            .map(|&i| world.id_at(i))
    }

    /// Parent, grandparent, ..., up to the root.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let car = world.spawn();
    /// let wheel = world.spawn();
    /// let bolt = world.spawn();
    /// world.set_parent(wheel, car)?;
    /// world.set_parent(bolt, wheel)?;
    /// assert_eq!(world.entity(bolt)?.ancestors().collect::<Vec<_>>(), [wheel, car]);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn ancestors(&self) -> impl Iterator<Item = EntityId> + 'w {
        let world = self.world();
        world
            .hierarchy()
            .ancestors(self.id().index)
            .map(|i| world.id_at(i))
    }

    /// Every descendant, depth-first: a child, then its subtree, then the
    /// next child (pre-order, children in attach order); not the entity itself.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let car = world.spawn();
    /// let wheel = world.spawn();
    /// let bolt = world.spawn();
    /// let door = world.spawn();
    /// world.set_parent(wheel, car)?;
    /// world.set_parent(bolt, wheel)?;
    /// world.set_parent(door, car)?;
    /// let all: Vec<EntityId> = world.entity(car)?.descendants().collect();
    /// assert_eq!(all, [wheel, bolt, door]); // pre-order
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn descendants(&self) -> impl Iterator<Item = EntityId> + 'w {
        let world = self.world();
        world
            .hierarchy()
            .subtree(self.id().index)
            .into_iter()
            .skip(1)
            .map(|i| world.id_at(i))
    }
}

impl EntityMut<'_> {
    /// The parent entity, if any.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let car = world.spawn();
    /// let wheel = world.spawn();
    /// world.set_parent(wheel, car)?;
    /// assert_eq!(world.entity_mut(wheel)?.parent(), Some(car));
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn parent(&self) -> Option<EntityId> {
        self.as_ref().parent()
    }

    /// The children, in the order they were attached.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let car = world.spawn();
    /// let wheel = world.spawn();
    /// world.set_parent(wheel, car)?;
    /// assert_eq!(world.entity_mut(car)?.children(), [wheel]);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn children(&self) -> Vec<EntityId> {
        self.as_ref().children().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lists as plain vectors, by slot: what the buffer must agree with.
    struct Model {
        parents: Vec<Option<usize>>,
        children: Vec<Vec<usize>>,
    }

    impl Model {
        fn detach(&mut self, child: usize) {
            if let Some(parent) = self.parents[child].take() {
                self.children[parent].retain(|&c| c != child);
            }
        }

        fn agrees(&self, links: &Hierarchy) {
            for slot in 0..self.parents.len() {
                let index = EntityIndex(slot as u32);
                let parent = links.parent(index).map(EntityIndex::index);
                assert_eq!(parent, self.parents[slot], "parent of {slot}");
                let children: Vec<usize> =
                    links.children(index).iter().map(|c| c.index()).collect();
                assert_eq!(children, self.children[slot], "children of {slot}");
            }
        }
    }

    #[test]
    fn child_lists_in_one_buffer_agree_with_lists_of_their_own() {
        const SLOTS: usize = 200;
        let mut model = Model {
            parents: vec![None; SLOTS],
            children: vec![Vec::new(); SLOTS],
        };
        let mut links = Hierarchy::new();
        let mut next = crate::scene::numbers_below(0x2545_f491_4f6c_dd1du64);
        let mut snapshot = Hierarchy::new();
        for step in 0..20_000 {
            let (a, b) = (next(SLOTS), next(SLOTS));
            match next(10) {
                // Most links go to a few parents, so lists outgrow their
                // room and move, and the room they leave is reclaimed.
                0..=5 if a != b % 20 => {
                    let parent = b % 20;
                    links.attach(EntityIndex(a as u32), EntityIndex(parent as u32));
                    model.detach(a);
                    model.parents[a] = Some(parent);
                    model.children[parent].push(a);
                }
                6..=8 => {
                    links.detach(EntityIndex(a as u32));
                    model.detach(a);
                }
                9 if model.children[a].is_empty() => {
                    let fresh: Vec<usize> = (0..SLOTS)
                        .filter(|&c| c != a && model.parents[c].is_none())
                        .take(next(6))
                        .collect();
                    let indices: Vec<EntityIndex> =
                        fresh.iter().map(|&c| EntityIndex(c as u32)).collect();
                    links.link_fresh(EntityIndex(a as u32), &indices, SLOTS);
                    for &c in &fresh {
                        model.parents[c] = Some(a);
                    }
                    model.children[a] = fresh;
                }
                _ => {}
            }
            if step % 97 == 0 {
                model.agrees(&links);
                snapshot.clone_from(&links);
            }
        }
        // Whole families moving from parent to parent: each list grows
        // by moving, then empties, so the buffer is packed again.
        for round in 0..40 {
            let parent = 150 + round % 50;
            for child in 0..100 {
                links.attach(EntityIndex(child as u32), EntityIndex(parent as u32));
                model.detach(child);
                model.parents[child] = Some(parent);
                model.children[parent].push(child);
            }
            model.agrees(&links);
        }
        model.agrees(&links);
        model.agrees(&links.clone());
        // Lists keep the room they grew to (as a `Vec` keeps its
        // capacity); the room a moved list left is reclaimed.
        let room: usize = links.spans.iter().map(|s| s.cap as usize).sum();
        assert_eq!(links.pool.len(), room + links.dead);
        assert!(
            links.dead <= 2 * room + 64,
            "{} entries left behind beside {room} in lists",
            links.dead
        );
        links.clone_from(&snapshot);
        assert_eq!(links.pool.len(), snapshot.pool.len());
    }
}
