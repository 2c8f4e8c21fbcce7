//! What `#[component(requires(Transform, Health))]` declares: the types a
//! component needs beside it, each with a way to make its `Default`. The
//! world layer enforces them when a component is added.

use crate::component::ops::BoxedComponent;
use crate::component::ComponentVTable;
use crate::{Component, ComponentKey};

/// One required type: its table, and its `Default` boxed.
#[derive(Clone, Copy)]
pub(crate) struct Required {
    pub(crate) vtable: &'static ComponentVTable,
    pub(crate) make: fn() -> BoxedComponent,
}

/// The requirements of one component type, its own first, then its parent's.
///
/// Filled by code the derive generates; not built by hand.
#[doc(hidden)]
#[derive(Default)]
pub struct Requirements {
    list: Vec<Required>,
}

impl Requirements {
    /// The requirements `vtable` declares, its ancestors' included.
    pub(crate) fn of(vtable: &'static ComponentVTable) -> Self {
        let mut requirements = Requirements::default();
        vtable.add_requirements(&mut requirements);
        requirements
    }

    /// Records that `R` is required (once, however often it is named).
    pub fn require<R: RequiredComponent>(&mut self) {
        let key = ComponentKey::of::<R>();
        if !self.keys().any(|k| k == key) {
            self.list.push(Required {
                vtable: R::__VTABLE,
                make: make_default::<R>,
            });
        }
    }

    /// Whether nothing is required.
    pub(crate) fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The required types' keys, in the order they are met.
    pub(crate) fn keys(&self) -> impl Iterator<Item = ComponentKey> + '_ {
        self.list.iter().map(|r| r.vtable.keys()[0])
    }

    /// The required types, in the order they are met.
    pub(crate) fn iter(&self) -> impl Iterator<Item = Required> + '_ {
        self.list.iter().copied()
    }
}

fn make_default<R: RequiredComponent>() -> BoxedComponent {
    Box::new(R::default())
}

/// A component that can be required: it has a `Default` to add.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be required: it is not a component with a `Default`",
    label = "required here",
    note = "a required component is added as its `Default`: derive `Component` and `Default` for `{Self}` (or implement `Default` by hand)"
)]
pub trait RequiredComponent: Component + Default {}

impl<T: Component + Default> RequiredComponent for T {}
