//! What a patch needs to replay another world's changes exactly: entities
//! placed at the slot and generation the other world gave them, free slots
//! and their generations, and entity flags set without hooks.

use crate::entity::EntityIndex;
use crate::table::EMPTY_TABLE;
use crate::world::World;
use crate::Snapshot;

impl World {
    /// Whether this world grew from `snapshot` by tracked changes alone,
    /// so its change ticks say what changed since (see
    /// `Extensions::grew_from`).
    pub(crate) fn grew_from(&self, snapshot: &Snapshot) -> bool {
        self.extensions.grew_from(&snapshot.extensions)
    }

    /// The free slots, the next one handed out last.
    pub(crate) fn free_slots(&self) -> &[EntityIndex] {
        self.entities.free_list()
    }

    /// Makes the free slot `index` a live entity with no component under
    /// `generation` (growing the slots to reach it).
    pub(crate) fn replay_spawn(&mut self, index: EntityIndex, generation: u32) {
        self.entities.revive_at(index, generation);
        self.storage
            .enter_table(&mut self.entities, index, EMPTY_TABLE);
    }

    /// Grows the slots to `count` (new ones free, on no list until
    /// [`World::replay_free`]).
    pub(crate) fn replay_slot_count(&mut self, count: usize) {
        self.entities.grow_to(count);
    }

    /// Sets the generation of the free slot `index`.
    pub(crate) fn replay_generation(&mut self, index: EntityIndex, generation: u32) {
        self.entities.set_generation(index, generation);
    }

    /// Replaces the free list.
    pub(crate) fn replay_free(&mut self, free: Vec<EntityIndex>) {
        self.entities.set_free_list(free);
    }

    /// Sets entity `index`'s disabled and killed flags, running no hook.
    pub(crate) fn replay_flags(&mut self, index: EntityIndex, disabled: bool, killed: bool) {
        self.storage
            .set_entity_state(&mut self.entities, index, disabled, killed);
    }
}

#[cfg(test)]
mod tests {
    use crate::World;

    /// Change ticks say what changed since a snapshot only along the
    /// world's own history: a restore starts a new one, which still leads
    /// back through the snapshot restored and those before it.
    #[test]
    fn a_world_grows_from_its_snapshots_until_a_restore_goes_elsewhere() {
        let mut world = World::new();
        let early = world.snapshot().unwrap();
        world.spawn();
        let late = world.snapshot().unwrap();
        assert!(world.grew_from(&early) && world.grew_from(&late));
        world.restore(&late).unwrap();
        assert!(world.grew_from(&early) && world.grew_from(&late));
        world.restore(&early).unwrap();
        assert!(world.grew_from(&early));
        assert!(!world.grew_from(&late), "late is not in this world's past");
        let other = World::new().snapshot().unwrap();
        assert!(!world.grew_from(&other));
    }
}
