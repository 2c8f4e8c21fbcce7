//! Removing several components at once: every component that is-a `K`, or
//! everything an entity holds.

use crate::entity::{CompRef, EntityIndex};
use crate::world::World;
use crate::{Component, EntityMut};

impl World {
    /// Removes the components of the entity in slot `index` for which `pick`
    /// holds, last first; returns how many. Their detach hooks all run
    /// before anything is removed; user `Drop` code runs only after the
    /// world is consistent again.
    /// A table the entity leaves empty is given back at once when empty
    /// tables weigh enough (see [`World::reclaim_tables`]); the caller
    /// holds no table id.
    pub(crate) fn remove_where(
        &mut self,
        index: EntityIndex,
        mut pick: impl FnMut(&World, CompRef) -> bool,
    ) -> usize {
        let doomed: Vec<usize> = (0..self.comp_count(index))
            .rev()
            .filter(|&pos| pick(self, self.comp_at(index, pos)))
            .collect();
        self.fire_removal_hooks_at(index, &doomed);
        self.remove_positions(index, &doomed);
        self.reclaim_tables();
        doomed.len()
    }

    /// Fires the removal hooks of the entity's components at `doomed`, one
    /// component after another. When one panics, the components before it
    /// (already told they are disabled and detached) are removed before
    /// the panic goes on, so none stays attached after its `on_detach`;
    /// the one that panicked and those after it stay.
    pub(crate) fn fire_removal_hooks_at(&mut self, index: EntityIndex, doomed: &[usize]) {
        let mut done = 0;
        let fired = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            for &pos in doomed {
                // Hooks cannot move components (changes are deferred), so
                // positions hold while they run.
                let comp = self.comp_at(index, pos);
                self.fire_removal_hooks(&[comp]);
                done += 1;
            }
        }));
        if let Err(panic) = fired {
            self.remove_positions(index, &doomed[..done]);
            std::panic::resume_unwind(panic);
        }
    }

    /// Removes the entity's components at `positions`.
    fn remove_positions(&mut self, index: EntityIndex, positions: &[usize]) {
        let mut picked = vec![false; self.comp_count(index)];
        for &pos in positions {
            picked[pos] = true;
        }
        self.trash_where(index, |pos| picked[pos]);
        self.empty_trash();
    }
}

impl World {
    /// Removes the entity's components past the first `len`, newest first.
    pub(crate) fn truncate_components(&mut self, index: EntityIndex, len: usize) {
        self.trash_where(index, |pos| pos >= len);
        self.empty_trash();
    }
}

impl EntityMut<'_> {
    /// Removes every component that is-a `K` (derived types included);
    /// returns how many were removed.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// #[component(multiple)]
    /// struct Collider(f32);
    /// #[derive(Component)]
    /// #[component(multiple, parent = Collider)]
    /// struct Trigger(Collider);
    /// let mut world = World::new();
    /// let id = world.spawn_with((Collider(1.0), Trigger(Collider(2.0))))?;
    /// assert_eq!(world.entity_mut(id)?.remove_all::<Collider>(), 2);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn remove_all<K: Component>(&mut self) -> usize {
        let index = self.id().index;
        let world = self.world_mut();
        let Some(k) = world.type_idx::<K>() else {
            return 0;
        };
        world.remove_where(index, |w, c| w.storage.info(c.ty).is_a(c.ty, k))
    }

    /// Removes every component (Oddbox's `DetachAllComponents`); the entity
    /// stays alive. Returns how many were removed.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct A;
    /// #[derive(Component)]
    /// struct B;
    /// let mut world = World::new();
    /// let id = world.spawn_with((A, B))?;
    /// assert_eq!(world.entity_mut(id)?.detach_all(), 2);
    /// assert!(world.entity(id)?.is_empty());
    /// assert!(world.contains(id)); // the entity stays alive
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn detach_all(&mut self) -> usize {
        let index = self.id().index;
        self.world_mut().remove_where(index, |_, _| true)
    }
}
