//! Typed messages: send to one entity, broadcast down its subtree, or send
//! up to its ancestors (Unity's `SendMessage`, `BroadcastMessage`,
//! `SendMessageUpwards`), dispatched through tables the derive generates.

use std::any::{Any, TypeId};
use std::marker::PhantomData;

use crate::component::ops::Codec;
use crate::component::Capability;
use crate::entity::{CompRef, EntityIndex};
use crate::runtime::behaviour::with_segment_out;
use crate::runtime::commands::flush_commands;
use crate::runtime::context::Context;
use crate::runtime::runtime_mut;
use crate::world::World;
use crate::{Component, EntityId, Error};

/// Handles messages of type `M`. Declare it on the type too, with
/// `#[component(receives(M))]`: the derive builds the dispatch table from
/// that list, and a missing declaration or a missing impl is a compile
/// error.
///
/// Receivers are inherited per message type: a type declared `parent = P`
/// handles every message its nearest ancestor handles, on the part it
/// embeds, unless it lists that message type in its own `receives(..)`.
///
/// ```
/// # use ecs_core::prelude::*;
/// struct TakeDamage(u32);
///
/// #[derive(Component)]
/// #[component(receives(TakeDamage))]
/// struct Health(u32);
///
/// impl Receive<TakeDamage> for Health {
///     fn receive(&mut self, _ctx: &mut Context<'_>, hit: &TakeDamage) {
///         self.0 = self.0.saturating_sub(hit.0);
///     }
/// }
///
/// let mut world = World::new();
/// let id = world.spawn_with((Health(10),))?;
/// assert_eq!(world.send(id, &TakeDamage(3))?, 1);
/// assert_eq!(world.entity(id)?.get::<Health>().unwrap().0, 7);
/// # Ok::<(), ecs_core::Error>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` declares `receives({M})` but does not implement `Receive<{M}>`",
    label = "`{Self}` needs `impl Receive<{M}>`",
    note = "add `impl ecs_core::Receive<{M}> for {Self} {{ fn receive(&mut self, ctx: &mut ecs_core::Context<'_>, message: &{M}) {{ /* ... */ }} }}`, or remove `{M}` from `receives(...)`"
)]
pub trait Receive<M: 'static>: Component + DeclaresReceive<M> {
    /// Called once per delivery; `ctx` reaches the entity's other
    /// components under the same rules as `update`.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// struct Heal(u32);
    /// #[derive(Component)]
    /// struct MaxHp(u32);
    /// #[derive(Component)]
    /// #[component(receives(Heal))]
    /// struct Health(u32);
    /// impl Receive<Heal> for Health {
    ///     fn receive(&mut self, ctx: &mut Context<'_>, heal: &Heal) {
    ///         let max = ctx.get::<MaxHp>().map_or(u32::MAX, |m| m.0);
    ///         self.0 = (self.0 + heal.0).min(max);
    ///     }
    /// }
    /// let mut world = World::new();
    /// let id = world.spawn_with((MaxHp(10), Health(8)))?;
    /// world.send(id, &Heal(5))?;
    /// assert_eq!(world.entity(id)?.get::<Health>().unwrap().0, 10);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    fn receive(&mut self, ctx: &mut Context<'_>, message: &M);
}

/// Implemented by the derive for each type listed in `receives(...)`.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`{Self}` implements `Receive<{M}>` but does not declare it",
    label = "not listed in `receives(...)`",
    note = "add `{M}` to `#[component(receives(...))]` on `{Self}`, so the derive puts it in the dispatch table"
)]
pub trait DeclaresReceive<M> {}

/// The entry point delivering one message type to one component type.
#[doc(hidden)]
#[derive(Clone, Copy)]
pub struct ReceiverFn {
    deliver: fn(&mut World, EntityIndex, CompRef, usize, &dyn Any) -> bool,
    /// The chain level of the receiving part: 0 for the component's own
    /// receiver, more for an ancestor's it inherits.
    level: usize,
}

/// The receiver of `M` by `C`, made once per pair as a constant.
struct EntryPoint<C, M>(PhantomData<fn() -> (C, M)>);

impl<C: Receive<M>, M: 'static> EntryPoint<C, M> {
    const FN: &'static ReceiverFn = &ReceiverFn {
        deliver: deliver::<C, M>,
        level: 0,
    };
}

impl ReceiverFn {
    /// Delivers `M` to `C`, unless that component is disabled; `true` when
    /// it received. Erased, for `C`'s table.
    pub const fn of<C: Receive<M>, M: 'static>() -> Codec {
        EntryPoint::<C, M>::FN
    }

    /// The receiver a type's table names for a message type, run on the
    /// part at the chain level the table found it at.
    fn found(own: Capability) -> Self {
        let fns: &ReceiverFn = own
            .record
            .downcast_ref()
            .expect("a receiver's entry point is a `ReceiverFn`");
        ReceiverFn {
            level: own.level,
            ..*fns
        }
    }
}

fn deliver<C: Receive<M>, M: 'static>(
    world: &mut World,
    owner: EntityIndex,
    comp: CompRef,
    level: usize,
    message: &dyn Any,
) -> bool {
    let Some(message) = message.downcast_ref::<M>() else {
        return false;
    };
    with_segment_out(world, comp, |world, segment| {
        // Checked here, where the segment is typed: a disabled component
        // does not receive.
        if segment.meta(comp.row).is_none_or(|meta| !meta.is_enabled()) {
            return false;
        }
        let now = world.storage_mut().write_tick();
        let mut ctx = Context::new(world, owner, comp.ty);
        match segment.get_as_mut::<C>(comp.row, level, now) {
            Some(receiver) => {
                receiver.receive(&mut ctx, message);
                true
            }
            None => false,
        }
    })
    .unwrap_or(false)
}

/// [`World::send`]: `message` to `id` alone.
pub(crate) fn send<M: 'static>(
    world: &mut World,
    id: EntityId,
    message: &M,
) -> Result<usize, Error> {
    world.check(id)?;
    Ok(deliver_along(world, &[id.index], message))
}

/// [`World::broadcast`]: `message` to `id`, then its descendants, depth-first.
pub(crate) fn broadcast<M: 'static>(
    world: &mut World,
    id: EntityId,
    message: &M,
) -> Result<usize, Error> {
    world.check(id)?;
    let order = world.hierarchy().subtree(id.index);
    Ok(deliver_along(world, &order, message))
}

/// [`World::send_upwards`]: `message` to `id`, then its ancestors, nearest first.
pub(crate) fn send_upwards<M: 'static>(
    world: &mut World,
    id: EntityId,
    message: &M,
) -> Result<usize, Error> {
    world.check(id)?;
    let order: Vec<EntityIndex> = std::iter::once(id.index)
        .chain(world.hierarchy().ancestors(id.index))
        .collect();
    Ok(deliver_along(world, &order, message))
}

/// Delivers `message` to the entities of `order`, then applies the changes
/// the receivers queued.
fn deliver_along<M: 'static>(world: &mut World, order: &[EntityIndex], message: &M) -> usize {
    // One lookup per component type, not per component.
    let table: Vec<Option<ReceiverFn>> = world
        .storage()
        .types()
        .iter()
        .map(|(_, info)| {
            info.vtable()
                .and_then(|vt| vt.receiver_for(TypeId::of::<M>()))
                .map(ReceiverFn::found)
        })
        .collect();
    if table.iter().all(Option::is_none) {
        return 0;
    }
    let queued = runtime_mut(world).commands.len();
    let delivered = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        deliver_each(world, order, &table, message)
    }));
    match delivered {
        Ok(handled) => {
            flush_commands(world);
            handled
        }
        Err(panic) => {
            // As for a panicking update: changes queued by this send go.
            runtime_mut(world).commands.truncate(queued);
            std::panic::resume_unwind(panic)
        }
    }
}

/// Delivers `message` to every receiving component of the active entities
/// of `order`, through `table` (the receiver of each component type, by
/// type index); returns how many received it.
fn deliver_each<M: 'static>(
    world: &mut World,
    order: &[EntityIndex],
    table: &[Option<ReceiverFn>],
    message: &M,
) -> usize {
    let mut handled = 0;
    for &index in order {
        if !world.slot(index).is_active() {
            continue;
        }
        // Receivers cannot add or remove components (changes are
        // queued), so the entity stays at its row while we walk its layout.
        let slot = world.slot(index);
        let (at, row) = (slot.table, slot.row);
        for pos in 0..world.storage().table(at).layout().len() {
            let place = world.storage().table(at).layout()[pos];
            let c = CompRef {
                ty: place.ty,
                seg: place.seg,
                row,
            };
            let Some(receiver) = table[c.ty.index()] else {
                continue;
            };
            if (receiver.deliver)(world, index, c, receiver.level, message) {
                handled += 1;
            }
        }
    }
    handled
}
