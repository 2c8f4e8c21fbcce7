//! The data layer: the by-name catalog, by-name operations, cloning,
//! blueprints, save/load and the inspector.

mod api;
pub(crate) mod blueprint;
pub(crate) mod catalog;
pub(crate) mod dynamic;
pub(crate) mod format;
pub(crate) mod inspect;
pub(crate) mod refs;
pub(crate) mod save;
pub(crate) mod variant;
