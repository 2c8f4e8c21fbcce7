//! Observers: closures a world calls when a component that is-a a type is
//! added, removed, enabled or disabled (right after the component's own
//! hook), or was changed (when the world delivers changes).

use std::any::TypeId;

use crate::entity::TypeIdx;
use crate::runtime::context::Context;
use crate::table::ChangeKind;
use crate::world::hooks::Hook;
use crate::world::World;
use crate::EntityId;

/// What an observer hears about. See
/// [`World::observe`](crate::World::observe).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ComponentEvent {
    /// A component was attached (after its `on_attach`).
    Added,
    /// A component is about to be detached (after its `on_detach`; it is
    /// still there to read).
    Removed,
    /// A component was enabled on an enabled entity, or its entity was
    /// enabled (after `on_enable`).
    Enabled,
    /// A component was disabled on an enabled entity, or its entity was
    /// disabled (after `on_disable`).
    Disabled,
    /// A component was handed out mutably (see
    /// [`World::change_tick`](crate::World::change_tick) for what counts)
    /// since the observer last heard: delivered when a
    /// [`World::update`](crate::World::update) ends and on
    /// [`World::deliver_changes`](crate::World::deliver_changes), once per
    /// entity.
    Changed,
}

impl ComponentEvent {
    /// The hook this event is heard after; `None` for `Changed`.
    fn hook(self) -> Option<Hook> {
        match self {
            ComponentEvent::Added => Some(Hook::Attach),
            ComponentEvent::Removed => Some(Hook::Detach),
            ComponentEvent::Enabled => Some(Hook::Enable),
            ComponentEvent::Disabled => Some(Hook::Disable),
            ComponentEvent::Changed => None,
        }
    }
}

/// Names an observer, to remove it with
/// [`World::unobserve`](crate::World::unobserve).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ObserverId(u64);

/// Registers an observer (see [`World::observe`]): the world layer keeps
/// it as a listener of the event's hook (none for
/// [`ComponentEvent::Changed`], delivered here), whose closure gives the
/// observer a context on the entity.
pub(crate) fn observe(
    world: &mut World,
    key: TypeId,
    event: ComponentEvent,
    mut observer: impl FnMut(&mut Context<'_>) + Send + 'static,
) -> ObserverId {
    let seen = world.change_tick();
    let call = Box::new(move |world: &mut World, id: EntityId, ty: TypeIdx| {
        observer(&mut Context::with_id(world, id, ty));
    });
    ObserverId(world.add_listener(key, event.hook(), call, seen))
}

/// Removes an observer; `false` when there is none of that id.
pub(crate) fn unobserve(world: &mut World, id: ObserverId) -> bool {
    world.remove_listener(id.0)
}

/// Delivers [`ComponentEvent::Changed`] to each such observer: every entity
/// holding a component that is-a its type changed since its last delivery.
pub(crate) fn deliver_changes(world: &mut World) {
    for (at, id, key, seen) in world.hookless_listeners() {
        let now = world.change_tick();
        let Some(ty) = world.storage().types().index_of_id(key) else {
            continue;
        };
        let entities: Vec<EntityId> = world
            .storage()
            .owners_after(ty, ChangeKind::Changed, seen)
            .into_iter()
            .map(|owner| world.id_at(owner))
            .collect();
        world.mark_listener((at, id), now);
        for entity in entities {
            // An earlier call may have despawned it.
            if world.contains(entity) {
                world.call_listener((at, id), entity, ty);
            }
        }
    }
}
