//! Signposts on [`EntityRef`]: the writing methods of [`EntityMut`](crate::EntityMut) that
//! users reach for on the read-only handle. Each exists only so that the
//! call is a compile error naming the fix (`world.entity_mut(id)?`)
//! instead of rustc's "no method named `get_mut`", which suggests `get`
//! or a `std` trait. Its bound is a trait no type implements, so none of
//! them can be called; they are hidden from the docs. The bound names
//! only `EntityRef<'w>` (its lifetime keeps it from being trivially false),
//! so the error points at the method's name, not at its type argument.

use crate::world::entity_ref::EntityRef;
use crate::{Component, Error};

/// The bound of [`EntityRef::get_mut`]: never met.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`EntityRef` is read-only: it has no `get_mut`; call `world.entity_mut(id)?` for an `EntityMut`",
    label = "`get_mut` needs an `EntityMut`, not an `EntityRef`",
    note = "`world.entity(id)?` returns an `EntityRef`, which only reads (`get`, `get_all`, `has`); write `world.entity_mut(id)?` in its place for an `EntityMut`, which also writes, and keep `.get_mut::<...>()` as it is"
)]
pub trait GetMutNeedsEntityMut {
    /// Never called: no type implements the trait.
    // The signature mirrors `EntityMut::get_mut` for the reader; nothing
    // can ever hand out a `&mut` through it.
    #[allow(clippy::mut_from_ref)]
    fn get_mut<T>(&self) -> Option<&mut T>;
}

/// The bound of [`EntityRef::add`]: never met.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`EntityRef` is read-only: it has no `add`; call `world.entity_mut(id)?` for an `EntityMut`",
    label = "`add` needs an `EntityMut`, not an `EntityRef`",
    note = "`world.entity(id)?` returns an `EntityRef`, which only reads (`get`, `get_all`, `has`); write `world.entity_mut(id)?` in its place for an `EntityMut`, which also adds and removes, and keep `.add(...)` as it is"
)]
pub trait AddNeedsEntityMut {
    /// Never called: no type implements the trait.
    // As `get_mut` above: a signature no call can reach.
    #[allow(clippy::mut_from_ref)]
    fn add<C>(&self, component: C) -> Result<&mut C, Error>;
}

/// The bound of [`EntityRef::remove`]: never met.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`EntityRef` is read-only: it has no `remove`; call `world.entity_mut(id)?` for an `EntityMut`",
    label = "`remove` needs an `EntityMut`, not an `EntityRef`",
    note = "`world.entity(id)?` returns an `EntityRef`, which only reads (`get`, `get_all`, `has`); write `world.entity_mut(id)?` in its place for an `EntityMut`, which also adds and removes, and keep `.remove::<...>()` as it is"
)]
pub trait RemoveNeedsEntityMut {
    /// Never called: no type implements the trait.
    fn remove<T>(&self) -> Option<T>;
}

impl<'w> EntityRef<'w> {
    /// Not callable: a signpost to [`EntityMut::get_mut`](crate::EntityMut::get_mut),
    /// from [`World::entity_mut`](crate::World::entity_mut).
    #[doc(hidden)]
    pub fn get_mut<T: Component>(&self) -> Option<&mut T>
    where
        EntityRef<'w>: GetMutNeedsEntityMut,
    {
        <Self as GetMutNeedsEntityMut>::get_mut(self)
    }

    /// Not callable: a signpost to [`EntityMut::add`](crate::EntityMut::add),
    /// from [`World::entity_mut`](crate::World::entity_mut).
    #[doc(hidden)]
    pub fn add<C: Component>(&self, component: C) -> Result<&mut C, Error>
    where
        EntityRef<'w>: AddNeedsEntityMut,
    {
        <Self as AddNeedsEntityMut>::add(self, component)
    }

    /// Not callable: a signpost to [`EntityMut::remove`](crate::EntityMut::remove),
    /// from [`World::entity_mut`](crate::World::entity_mut).
    #[doc(hidden)]
    pub fn remove<T: Component>(&self) -> Option<T>
    where
        EntityRef<'w>: RemoveNeedsEntityMut,
    {
        <Self as RemoveNeedsEntityMut>::remove(self)
    }
}
