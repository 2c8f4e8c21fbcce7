//! The entity allocator: one slot per entity index, reused with a new
//! generation after despawn, each recording where the entity's components
//! live.

use super::{EntityId, EntityIndex, EntitySlot};

/// A number no other world in the process has, stamped on every id a world
/// hands out so that other worlds refuse it.
#[derive(Clone, Copy)]
struct WorldTag(u32);

impl Default for WorldTag {
    fn default() -> Self {
        static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(1);
        WorldTag(NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
    }
}

/// The slots of one world's entities.
#[derive(Default)]
pub(crate) struct Entities {
    tag: WorldTag,
    slots: Vec<EntitySlot>,
    free: Vec<EntityIndex>,
    live: usize,
    /// Each entity's parent in the scene graph (`u32::MAX`: none), kept in
    /// step by the scene layer so that queries can read up the tree;
    /// grown only when a link is made, so worlds without one pay nothing.
    parents: Vec<EntityIndex>,
}

impl Clone for Entities {
    fn clone(&self) -> Self {
        Entities {
            tag: self.tag,
            slots: self.slots.clone(),
            free: self.free.clone(),
            live: self.live,
            parents: self.parents.clone(),
        }
    }

    /// Reuses this one's buffers (a restore into the same world allocates
    /// nothing): what a derived `Clone` would not do.
    fn clone_from(&mut self, source: &Self) {
        self.tag = source.tag;
        self.slots.clone_from(&source.slots);
        self.free.clone_from(&source.free);
        self.live = source.live;
        self.parents.clone_from(&source.parents);
    }
}

impl Entities {
    /// Takes `other`'s slots, free list and links, keeping this world's
    /// tag: the ids this world handed out for those slots resolve again.
    pub fn restore_from(&mut self, other: &Entities) {
        let tag = self.tag;
        self.clone_from(other);
        self.tag = tag;
    }

    /// The world's tag, carried by every id it hands out.
    #[inline]
    pub fn tag(&self) -> u32 {
        self.tag.0
    }

    /// A slot for a new live entity, enabled, with no location yet: the
    /// caller enters it into a table.
    #[inline]
    pub fn alloc(&mut self) -> EntityIndex {
        self.live += 1;
        match self.free.pop() {
            Some(index) => {
                let slot = &mut self.slots[index.index()];
                slot.alive = true;
                slot.disabled = false;
                slot.killed = false;
                index
            }
            None => {
                let index = EntityIndex::from_index(self.slots.len());
                self.slots.push(EntitySlot {
                    alive: true,
                    ..EntitySlot::default()
                });
                index
            }
        }
    }

    /// The ids the next `n` calls of [`Entities::alloc`] hand out, in
    /// order (freed slots last freed first, then new ones).
    pub fn next_ids(&self, n: usize) -> Vec<EntityId> {
        let reused = self
            .free
            .iter()
            .rev()
            .take(n)
            .map(|&index| self.id_at(index));
        let fresh = (self.slots.len()..)
            .take(n.saturating_sub(self.free.len()))
            .map(|i| EntityId {
                world: self.tag.0,
                index: EntityIndex::from_index(i),
                generation: 0,
            });
        reused.chain(fresh).collect()
    }

    /// Makes the free slot `index` live under `generation`, slots up to it
    /// made first (free, generation 0, on no list): for a patch replaying a
    /// spawn at the slot its target world used. The caller enters it into a
    /// table.
    pub fn revive_at(&mut self, index: EntityIndex, generation: u32) {
        self.grow_to(index.index() + 1);
        if let Some(at) = self.free.iter().rposition(|&f| f == index) {
            self.free.remove(at);
        }
        let slot = &mut self.slots[index.index()];
        debug_assert!(!slot.alive, "a free slot");
        *slot = EntitySlot {
            generation,
            alive: true,
            ..EntitySlot::default()
        };
        self.live += 1;
    }

    /// Grows the slots to `count`, the new ones free with generation 0 and
    /// on no free list (the caller sets that).
    pub fn grow_to(&mut self, count: usize) {
        if self.slots.len() < count {
            self.slots.resize_with(count, EntitySlot::default);
        }
    }

    /// Sets the generation of the free slot `index`.
    pub fn set_generation(&mut self, index: EntityIndex, generation: u32) {
        self.slots[index.index()].generation = generation;
    }

    /// The free slots, the next one handed out last.
    pub fn free_list(&self) -> &[EntityIndex] {
        &self.free
    }

    /// Replaces the free list (every slot on it free).
    pub fn set_free_list(&mut self, free: Vec<EntityIndex>) {
        self.free = free;
    }

    /// Frees the slot of live entity `index`: its ids stop answering.
    pub fn free(&mut self, index: EntityIndex) {
        let slot = &mut self.slots[index.index()];
        slot.alive = false;
        slot.generation = slot.generation.wrapping_add(1);
        self.set_parent(index, None);
        self.free.push(index);
        self.live -= 1;
    }

    /// Makes room for `additional` more entities.
    pub fn reserve(&mut self, additional: usize) {
        let fresh = additional.saturating_sub(self.free.len());
        self.slots.reserve(fresh);
    }

    /// `true` when `id` names a live entity of this world.
    #[inline]
    pub fn contains(&self, id: EntityId) -> bool {
        self.get_live(id).is_some()
    }

    /// The slot `id` names, when it is a live entity of this world.
    #[inline]
    pub fn get_live(&self, id: EntityId) -> Option<&EntitySlot> {
        if id.world != self.tag.0 {
            return None;
        }
        self.slots
            .get(id.index.index())
            .filter(|slot| slot.alive && slot.generation == id.generation)
    }

    /// The parent link of an entity without a parent
    /// ([`Entities::parent_link`]).
    pub const NO_PARENT: EntityIndex = EntityIndex(u32::MAX);

    /// The parent link of entity `index`: [`Entities::NO_PARENT`] for none.
    #[inline]
    pub fn parent_link(&self, index: EntityIndex) -> EntityIndex {
        self.parents
            .get(index.index())
            .copied()
            .unwrap_or(Entities::NO_PARENT)
    }

    /// The parent of entity `index` in the scene graph.
    #[inline]
    pub fn parent(&self, index: EntityIndex) -> Option<EntityIndex> {
        self.parents
            .get(index.index())
            .copied()
            .filter(|p| p.0 != u32::MAX)
    }

    /// Makes room for the parent links of the first `slots` slots at once:
    /// a load links thousands of children, which would otherwise grow the
    /// links a slot at a time.
    pub fn reserve_parents(&mut self, slots: usize) {
        if self.parents.len() < slots {
            self.parents.resize(slots, Entities::NO_PARENT);
        }
    }

    /// Records the parent of entity `index` (the scene layer's link).
    pub fn set_parent(&mut self, index: EntityIndex, parent: Option<EntityIndex>) {
        let i = index.index();
        if parent.is_none() && i >= self.parents.len() {
            return;
        }
        if i >= self.parents.len() {
            self.parents.resize(i + 1, EntityIndex(u32::MAX));
        }
        self.parents[i] = parent.unwrap_or(EntityIndex(u32::MAX));
    }

    /// The slot of entity `index`.
    #[inline]
    pub fn slot(&self, index: EntityIndex) -> &EntitySlot {
        &self.slots[index.index()]
    }

    /// Mutable twin of [`Entities::slot`].
    #[inline]
    pub fn slot_mut(&mut self, index: EntityIndex) -> &mut EntitySlot {
        &mut self.slots[index.index()]
    }

    /// The id of the entity in slot `index` (live or not).
    #[inline]
    pub fn id_at(&self, index: EntityIndex) -> EntityId {
        EntityId {
            world: self.tag.0,
            index,
            generation: self.slots[index.index()].generation,
        }
    }

    /// Number of live entities.
    pub fn len(&self) -> usize {
        self.live
    }

    /// Every slot, live or free, by index.
    pub fn slots(&self) -> &[EntitySlot] {
        &self.slots
    }

    /// Whether the slots `range` are the same here and in `other` (every
    /// field): one pass of XORs with no branch, for a diff that walks a
    /// whole world's slots to find the few that changed.
    pub fn same_run(&self, other: &Entities, range: std::ops::Range<usize>) -> bool {
        let (Some(a), Some(b)) = (self.slots.get(range.clone()), other.slots.get(range)) else {
            return false;
        };
        let differ = a.iter().zip(b).fold(0u32, |acc, (x, y)| {
            let flags = |s: &EntitySlot| {
                u32::from(s.alive) | u32::from(s.disabled) << 1 | u32::from(s.killed) << 2
            };
            acc | (x.generation ^ y.generation)
                | (x.table.0 ^ y.table.0)
                | (x.row.0 ^ y.row.0)
                | (flags(x) ^ flags(y))
        });
        differ == 0
    }

    /// Number of slots, live or free: one past the highest index in use.
    pub fn slot_count(&self) -> usize {
        self.slots.len()
    }

    /// The ids of all live entities, in slot order.
    pub fn iter_ids(&self) -> impl Iterator<Item = EntityId> + '_ {
        self.slots
            .iter()
            .enumerate()
            .filter(|(_, slot)| slot.alive)
            .map(|(index, slot)| EntityId {
                world: self.tag.0,
                index: EntityIndex::from_index(index),
                generation: slot.generation,
            })
    }
}
