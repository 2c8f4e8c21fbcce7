//! The runtime layer: behaviours and their hooks, the `Context` a behaviour
//! sees, deferred commands, and typed messages. Its `World` methods are all
//! in `api.rs`.

mod api;
pub(crate) mod behaviour;
pub(crate) mod commands;
pub(crate) mod context;
pub(crate) mod message;
pub(crate) mod observe;

use crate::entity::TypeIdx;
use crate::world::World;
use crate::Error;

/// The errors kept for [`World::take_command_errors`](crate::World::take_command_errors):
/// the oldest [`ErrorLog::KEPT`], and a count of those past it, so a world
/// whose errors nobody takes stays the size it was.
#[derive(Default)]
pub(crate) struct ErrorLog {
    kept: Vec<Error>,
    dropped: u64,
}

impl ErrorLog {
    /// How many errors are kept between two takes.
    pub const KEPT: usize = 1024;

    pub fn push(&mut self, error: Error) {
        if self.kept.len() < Self::KEPT {
            self.kept.push(error);
        } else {
            self.dropped += 1;
        }
    }

    /// The errors kept, then [`Error::ErrorsDropped`] when some were not.
    pub fn take(&mut self) -> Vec<Error> {
        let mut errors = std::mem::take(&mut self.kept);
        if self.dropped > 0 {
            errors.push(Error::ErrorsDropped {
                count: std::mem::take(&mut self.dropped),
            });
        }
        errors
    }
}

/// What the runtime keeps in a world: the update order, commands waiting
/// to be applied, the errors of those applied and of failed
/// `Context::attempt`s, and whether an update or a flush is under way.
#[derive(Default)]
pub(crate) struct RuntimeState {
    /// Behaviour types named by `set_update_order`, first to last.
    update_order: Vec<TypeIdx>,
    commands: commands::Commands,
    command_errors: ErrorLog,
    in_update: bool,
    flushing: bool,
    /// By behaviour type: the tick its last update started at, and the one
    /// before (what [`Context::last_update`](crate::Context::last_update)
    /// answers).
    update_ticks: Vec<(TypeIdx, crate::Tick, crate::Tick)>,
}

impl RuntimeState {
    /// Records that `ty`'s update starts at `now`.
    pub(crate) fn start_update(&mut self, ty: TypeIdx, now: crate::Tick) {
        match self.update_ticks.iter_mut().find(|(t, ..)| *t == ty) {
            Some((_, started, previous)) => {
                *previous = *started;
                *started = now;
            }
            None => self.update_ticks.push((ty, now, crate::Tick::default())),
        }
    }

    /// The tick `ty`'s previous update started at ([`Tick::default`] before
    /// its second).
    ///
    /// [`Tick::default`]: crate::Tick::default
    pub(crate) fn previous_update(&self, ty: TypeIdx) -> crate::Tick {
        self.update_ticks
            .iter()
            .find(|(t, ..)| *t == ty)
            .map_or(crate::Tick::default(), |&(_, _, previous)| previous)
    }
}

impl crate::world::extension::Extension for RuntimeState {
    fn forget(&mut self, _: crate::entity::EntityIndex) {}

    fn queued(&self) -> usize {
        self.commands.len()
    }

    fn roll_back(&mut self, queued: usize) {
        self.commands.truncate(queued);
    }

    /// The update order; queued commands and kept errors are not part of a
    /// snapshot (a restored world has none).
    fn snapshot(&self) -> Option<Box<dyn crate::world::extension::Extension>> {
        Some(Box::new(RuntimeState {
            update_order: self.update_order.clone(),
            update_ticks: self.update_ticks.clone(),
            ..RuntimeState::default()
        }))
    }

    fn in_snapshots(&self) -> bool {
        true
    }

    /// As a fresh copy would be: the update order and ticks taken, no
    /// command waiting and no error kept, no update or flush under way.
    fn restore_from(&mut self, snapshot: &dyn crate::world::extension::Extension) -> bool {
        let snapshot: &dyn std::any::Any = snapshot;
        let Some(copy) = snapshot.downcast_ref::<RuntimeState>() else {
            return false;
        };
        self.update_order.clone_from(&copy.update_order);
        self.update_ticks.clone_from(&copy.update_ticks);
        self.commands.truncate(0);
        self.command_errors.kept.clear();
        self.command_errors.dropped = 0;
        self.in_update = false;
        self.flushing = false;
        true
    }
}

/// The behaviour runtime's state, when anything made it yet.
#[inline]
pub(crate) fn runtime(world: &World) -> Option<&RuntimeState> {
    world.extension::<RuntimeState>()
}

/// The behaviour runtime's state: update order, command queue.
#[inline]
pub(crate) fn runtime_mut(world: &mut World) -> &mut RuntimeState {
    world.extension_mut::<RuntimeState>()
}
