//! State an upper layer keeps in a world (the scene graph, names, the
//! behaviour runtime's queue): the world owns it, drops it with itself and
//! tells it when an entity goes, but does not know what it is, so the
//! world layer never names a layer above it.

use std::any::{Any, TypeId};

use crate::entity::EntityIndex;
use crate::world::World;

/// One upper layer's state in a world. Made on first use, from `Default`.
pub(crate) trait Extension: Any + Send + Sync {
    /// The entity in slot `index` was despawned: drop what is kept about it.
    fn forget(&mut self, index: EntityIndex);

    /// How much work user code has queued here so far (hooks queue
    /// commands), for [`Extension::roll_back`].
    fn queued(&self) -> usize {
        0
    }

    /// An operation that ran user code failed and was taken back: drop the
    /// work queued since [`Extension::queued`] said `queued`.
    fn roll_back(&mut self, queued: usize) {
        let _ = queued;
    }

    /// A copy for a snapshot of the world; `None` for state that is not
    /// part of what the world holds (observers) and stays as it is when a
    /// snapshot is restored.
    fn snapshot(&self) -> Option<Box<dyn Extension>> {
        None
    }

    /// Whether [`Extension::snapshot`] gives a copy (and a restore
    /// replaces this state).
    fn in_snapshots(&self) -> bool {
        false
    }

    /// Makes this state what `snapshot` (a copy [`Extension::snapshot`]
    /// gave) stands for, in place, reusing this state's memory; `false`
    /// when it cannot, and the restore then puts a fresh copy in its place.
    fn restore_from(&mut self, snapshot: &dyn Extension) -> bool {
        let _ = snapshot;
        false
    }
}

/// [`Extension::restore_from`] for state whose copy is a plain clone:
/// `clone_from` the snapshot's copy when it is an `E`.
pub(crate) fn restore_clone<E: Extension + Clone>(this: &mut E, snapshot: &dyn Extension) -> bool {
    let snapshot: &dyn Any = snapshot;
    match snapshot.downcast_ref::<E>() {
        Some(copy) => {
            this.clone_from(copy);
            true
        }
        None => false,
    }
}

/// What each extension had queued when an operation began.
pub(crate) struct Checkpoint(Vec<(TypeId, usize)>);

/// The extensions of one world, at most one of each type; a handful, so a
/// scan of their `TypeId`s is as fast as any map.
#[derive(Default)]
pub(crate) struct Extensions {
    slots: Vec<(TypeId, Box<dyn Extension>)>,
}

impl Extensions {
    /// What each extension has queued now.
    pub(crate) fn checkpoint(&self) -> Checkpoint {
        Checkpoint(
            self.slots
                .iter()
                .map(|(id, extension)| (*id, extension.queued()))
                .collect(),
        )
    }

    /// Drops the work queued since `checkpoint`, in extensions made since
    /// then too (they had queued nothing).
    pub(crate) fn roll_back(&mut self, checkpoint: &Checkpoint) {
        for (id, extension) in &mut self.slots {
            let queued = checkpoint
                .0
                .iter()
                .find(|(had, _)| had == id)
                .map_or(0, |&(_, queued)| queued);
            extension.roll_back(queued);
        }
    }

    /// Copies of every extension that is part of a snapshot.
    pub(crate) fn snapshot(&self) -> Extensions {
        Extensions {
            slots: self
                .slots
                .iter()
                .filter_map(|(id, e)| Some((*id, e.snapshot()?)))
                .collect(),
        }
    }

    /// Takes `snapshot`'s extensions (copied again, so it can be restored
    /// more than once), keeping those that are not part of snapshots.
    /// State this world already has is restored in place, so a restore
    /// into the world the snapshot was taken from allocates nothing.
    pub(crate) fn restore(&mut self, snapshot: &Extensions) {
        self.slots.retain_mut(|(id, extension)| {
            !extension.in_snapshots()
                || (snapshot.slots.iter())
                    .find(|(copied, _)| copied == id)
                    .is_some_and(|(_, copy)| extension.restore_from(&**copy))
        });
        for (id, copy) in &snapshot.slots {
            if self.slots.iter().any(|(have, _)| have == id) {
                continue;
            }
            if let Some(copy) = copy.snapshot() {
                self.slots.push((*id, copy));
            }
        }
    }

    /// Tells every extension that the entity in slot `index` is gone.
    pub(crate) fn forget(&mut self, index: EntityIndex) {
        for (_, extension) in &mut self.slots {
            extension.forget(index);
        }
    }
}

impl World {
    /// The world's `E`, if anything made it yet.
    #[inline]
    pub(crate) fn extension<E: Extension>(&self) -> Option<&E> {
        let (_, found) = self
            .extensions
            .slots
            .iter()
            .find(|(id, _)| *id == TypeId::of::<E>())?;
        let found: &dyn Any = &**found;
        found.downcast_ref()
    }

    /// The world's `E`, made from `Default` on first use.
    #[inline]
    pub(crate) fn extension_mut<E: Extension + Default>(&mut self) -> &mut E {
        let slots = &mut self.extensions.slots;
        let at = match slots.iter().position(|(id, _)| *id == TypeId::of::<E>()) {
            Some(at) => at,
            None => {
                slots.push((TypeId::of::<E>(), Box::new(E::default())));
                slots.len() - 1
            }
        };
        let found: &mut dyn Any = &mut *slots[at].1;
        found
            .downcast_mut()
            .expect("an extension is kept under its own type's id")
    }
}
