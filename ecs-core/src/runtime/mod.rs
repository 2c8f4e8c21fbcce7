//! The runtime layer: behaviours and their hooks, the `Context` a behaviour
//! sees, deferred commands, and typed messages.

pub(crate) mod behaviour;
pub(crate) mod commands;
pub(crate) mod context;
pub(crate) mod message;

use crate::entity::TypeIdx;
use crate::Error;

/// What the runtime keeps in a world: the update order, commands waiting
/// to be applied, the errors of those applied and of failed
/// `Context::attempt`s, and whether an update or a flush is under way.
#[derive(Default)]
pub(crate) struct RuntimeState {
    /// Behaviour types named by `set_update_order`, first to last.
    update_order: Vec<TypeIdx>,
    /// Behaviour types in the order their first component was attached
    /// (a failed add attaches nothing, so it decides nothing).
    first_attached: Vec<TypeIdx>,
    commands: commands::Commands,
    command_errors: Vec<Error>,
    in_update: bool,
    flushing: bool,
}
