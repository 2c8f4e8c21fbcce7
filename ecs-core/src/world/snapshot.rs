//! Snapshots: an in-memory copy of everything a world holds, to go back
//! to (rollback, undo) with the same ids and the same iteration order.

use crate::entity::{Entities, TypeIdx};
use crate::table::{CopyError, Storage};
use crate::world::extension::Extensions;
use crate::world::World;
use crate::Error;

/// A copy of a world taken by [`World::snapshot`], to give back with
/// [`World::restore`] (any number of times).
pub struct Snapshot {
    pub(crate) entities: Entities,
    pub(crate) storage: Storage,
    pub(crate) layers: Vec<u32>,
    pub(crate) first_attached: Vec<TypeIdx>,
    pub(crate) extensions: Extensions,
}

impl std::fmt::Debug for Snapshot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Snapshot")
            .field("entities", &self.entities.len())
            .finish_non_exhaustive()
    }
}

impl Snapshot {
    /// How many entities it holds.
    pub fn len(&self) -> usize {
        self.entities.len()
    }

    /// Whether it holds no entity.
    pub fn is_empty(&self) -> bool {
        self.entities.len() == 0
    }
}

fn copy_error(error: CopyError) -> Error {
    match error {
        CopyError::NotClone(name) => Error::Lacks {
            name,
            capability: "`Clone` (a snapshot clones every component)",
        },
        CopyError::Lent(running) => Error::SnapshotWhileRunning { running },
    }
}

impl World {
    /// A copy of everything the world holds: its entities with their ids,
    /// generations and free slots, every component (cloned, at the same
    /// place, so iteration order is kept) with its enabled state and change
    /// ticks, entity states (disabled, killed), layers, names, the
    /// hierarchy, the update order and the change clock.
    ///
    /// Not in it: resources (the program's services, such as assets and
    /// input, which a rollback keeps; keep simulated state in components),
    /// observers (they stay registered across a restore), commands waiting
    /// to be applied and kept command errors.
    ///
    /// # Errors
    /// [`Error::Lacks`] naming the first stored type without `Clone`;
    /// [`Error::SnapshotWhileRunning`] from inside a behaviour, hook or
    /// receiver, whose components are lent out.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component, Clone, Debug, PartialEq)]
    /// struct Position(f32);
    /// let mut world = World::new();
    /// let a = world.spawn_with((Position(0.0),))?;
    /// let frame = world.snapshot()?;
    /// world.entity_mut(a)?.get_mut::<Position>().unwrap().0 = 5.0;
    /// let b = world.spawn_with((Position(1.0),))?;
    /// world.restore(&frame)?;
    /// assert_eq!(world.entity(a)?.get::<Position>(), Some(&Position(0.0)));
    /// assert!(!world.contains(b));
    /// // The same slot and generation are handed out again.
    /// assert_eq!(world.spawn_with((Position(1.0),))?, b);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn snapshot(&self) -> Result<Snapshot, Error> {
        // A look: what is written from now on is later than the snapshot,
        // so a diff against it reads only the rows written since.
        self.storage.look();
        Ok(Snapshot {
            entities: self.entities.clone(),
            storage: self.storage.try_clone().map_err(copy_error)?,
            layers: self.layers.clone(),
            first_attached: self.first_attached.clone(),
            extensions: self.extensions.snapshot(),
        })
    }

    /// Makes the world what it was when `snapshot` was taken: the same
    /// entities under the same ids (ids this world handed out then resolve
    /// again; ids handed out since do not), the same components in the same
    /// iteration order, with their enabled states and change ticks, and the
    /// rest [`World::snapshot`] lists. No hook or observer runs, and nothing
    /// counts as added or changed that did not then. Resources and
    /// observers stay as they are; commands waiting to be applied are
    /// dropped. A snapshot of another world gives this world its contents
    /// (its ids stay this world's).
    ///
    /// Restoring into a world with the same tables and component types as
    /// the snapshot (the world it was taken from, in a rollback loop)
    /// copies into the world's own buffers: once they are large enough,
    /// a restore allocates nothing. The world then keeps a second buffer
    /// per component array, the one the old values were in, for the next
    /// restore. Otherwise the world's storage is replaced by a fresh copy.
    ///
    /// When a component's `Clone` panics, the panic goes on and the world
    /// is as it was before the restore (the clones made are dropped). When
    /// a `Drop` of an old value panics, the world is restored, the other
    /// old values are dropped, and then the panic goes on.
    ///
    /// # Errors
    /// [`Error::SnapshotWhileRunning`] from inside a behaviour, hook or
    /// receiver; the world is then left as it was.
    pub fn restore(&mut self, snapshot: &Snapshot) -> Result<(), Error> {
        if let Err(CopyError::Lent(running)) = self.storage.try_lent() {
            return Err(Error::SnapshotWhileRunning { running });
        }
        if !self.storage.same_shape(&snapshot.storage) {
            return self.restore_replacing(snapshot);
        }
        // The tables are the same, so plans and bundle tables stay valid.
        self.storage
            .restore_in_place(&snapshot.storage)
            .map_err(copy_error)?;
        self.restore_rest(snapshot);
        // The old values are dropped once the world is whole again.
        self.storage.drop_spares();
        Ok(())
    }

    /// [`World::restore`] into a storage of another shape: a fresh copy.
    fn restore_replacing(&mut self, snapshot: &Snapshot) -> Result<(), Error> {
        let storage = snapshot.storage.try_clone().map_err(copy_error)?;
        // The old values are dropped after the world is whole again, so a
        // panicking `Drop` cannot leave it half restored.
        let old = std::mem::replace(&mut self.storage, storage);
        self.restore_rest(snapshot);
        self.plans = crate::query::PlanCache::default();
        self.forget_bundle_tables();
        self.refresh_heard();
        drop(old);
        Ok(())
    }

    /// Everything but the storage, each copied into the world's buffers.
    fn restore_rest(&mut self, snapshot: &Snapshot) {
        self.entities.restore_from(&snapshot.entities);
        self.layers.clone_from(&snapshot.layers);
        self.first_attached.clone_from(&snapshot.first_attached);
        self.extensions.restore(&snapshot.extensions);
    }
}
