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
            ..RuntimeState::default()
        }))
    }

    fn in_snapshots(&self) -> bool {
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
