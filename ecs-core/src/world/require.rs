//! Required components (`#[component(requires(Transform, Health))]`): adding
//! a component also adds the `Default` of each required type the entity
//! lacks.

use crate::entity::EntityIndex;
use crate::{Component, ComponentKey, Error, World};

/// Adds a default `R` to the entity in slot `index` unless it already holds
/// a component that is-a `R`.
type AddDefault = fn(&mut World, EntityIndex) -> Result<(), Error>;

/// The requirements of one component type, its own first, then its parent's.
///
/// Filled by code the derive generates; not built by hand.
#[doc(hidden)]
#[derive(Default)]
pub struct Requirements {
    list: Vec<(ComponentKey, AddDefault)>,
}

impl Requirements {
    /// Records that `R` is required (once, however often it is named).
    pub fn require<R: RequiredComponent>(&mut self) {
        let key = ComponentKey::of::<R>();
        if !self.list.iter().any(|(k, _)| *k == key) {
            self.list.push((key, add_default::<R>));
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The required types, in the order they are added.
    pub(crate) fn keys(&self) -> impl Iterator<Item = ComponentKey> + '_ {
        self.list.iter().map(|(key, _)| *key)
    }

    pub(crate) fn apply(&self, world: &mut World, index: EntityIndex) -> Result<(), Error> {
        self.list.iter().try_for_each(|(_, add)| add(world, index))
    }

    /// [`Requirements::apply`] for a component just added at position
    /// `before` of the entity's layout: when a requirement fails, or its
    /// `Default` panics, everything from `before` on is taken back, so the
    /// add is all or nothing.
    pub(crate) fn apply_or_take_back(
        &self,
        world: &mut World,
        index: EntityIndex,
        before: usize,
    ) -> Result<(), Error> {
        if self.is_empty() {
            return Ok(());
        }
        let result =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.apply(world, index)));
        match result {
            Ok(Ok(())) => Ok(()),
            Ok(Err(error)) => {
                world.truncate_components(index, before);
                Err(error)
            }
            Err(panic) => {
                world.truncate_components(index, before);
                std::panic::resume_unwind(panic)
            }
        }
    }
}

fn add_default<R: RequiredComponent>(world: &mut World, index: EntityIndex) -> Result<(), Error> {
    if world.find::<R>(index).is_none() {
        world.insert_inner(index, R::default())?;
    }
    Ok(())
}

/// A component that can be required: it has a `Default` to add.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be required: it is not a component with a `Default`",
    label = "required here",
    note = "a required component is added as its `Default`: derive `Component` and `Default` for `{Self}` (or implement `Default` by hand)"
)]
pub trait RequiredComponent: Component + Default {}

impl<T: Component + Default> RequiredComponent for T {}
