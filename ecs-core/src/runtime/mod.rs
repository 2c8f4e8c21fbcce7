//! The runtime layer: behaviours and their hooks, the `Context` a behaviour
//! sees, deferred commands, and typed messages.

pub(crate) mod behaviour;
pub(crate) mod context;
pub(crate) mod message;
