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
    /// Where the world's history stands, for diffs against snapshots.
    lineage: Lineage,
}

/// Which snapshots a world's state grew from by tracked changes alone, so
/// that a diff may trust change ticks: a world's history is a number that
/// changes on every restore (which replaces ticks wholesale); a snapshot
/// keeps the history it was taken in and a serial (the process counts
/// snapshots), and a restored world remembers the histories it branched
/// from, with the serial of the snapshot it branched at.
#[derive(Clone, Debug)]
struct Lineage {
    history: u64,
    /// The snapshot's serial (0 for a world).
    serial: u64,
    /// `(history, serial)`: the world's state at that snapshot, and so at
    /// every earlier one of that history, is an ancestor of this one.
    /// The last [`MAX_BRANCHES`] only: an older ancestor is diffed in full.
    branches: Vec<(u64, u64)>,
}

const MAX_BRANCHES: usize = 16;

/// A number no other history or snapshot of the process has.
fn fresh() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

impl Default for Lineage {
    fn default() -> Self {
        Lineage {
            history: fresh(),
            serial: 0,
            branches: Vec::new(),
        }
    }
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
            lineage: Lineage {
                serial: fresh(),
                ..self.lineage.clone()
            },
        }
    }

    /// Whether the world holding these extensions grew from the state
    /// `snapshot` (whose extensions these are) copied by tracked changes
    /// only, with no restore in between that does not lead back through
    /// it: then the change ticks say what changed since.
    pub(crate) fn grew_from(&self, snapshot: &Extensions) -> bool {
        let taken = &snapshot.lineage;
        taken.serial != 0
            && (taken.history == self.lineage.history
                || self
                    .lineage
                    .branches
                    .iter()
                    .any(|&(history, serial)| history == taken.history && taken.serial <= serial))
    }

    /// The extension `E`, if these hold one.
    pub(crate) fn get<E: Extension>(&self) -> Option<&E> {
        let (_, found) = self.slots.iter().find(|(id, _)| *id == TypeId::of::<E>())?;
        let found: &dyn Any = &**found;
        found.downcast_ref()
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
        let taken = &snapshot.lineage;
        let lineage = &mut self.lineage;
        // Room for the most branches kept, once: a rollback loop's
        // restores then allocate nothing here.
        lineage
            .branches
            .reserve_exact((MAX_BRANCHES + 1).saturating_sub(lineage.branches.len()));
        lineage.branches.clone_from(&taken.branches);
        lineage.branches.push((taken.history, taken.serial));
        if lineage.branches.len() > MAX_BRANCHES {
            lineage.branches.remove(0);
        }
        lineage.history = fresh();
        lineage.serial = 0;
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
        self.extensions.get()
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
