//! Observers: closures a world calls when a component that is-a a type is
//! added, removed, enabled or disabled (right after the component's own
//! hook), or was changed (when the world delivers changes).

use std::any::TypeId;
use std::sync::{Arc, Mutex, TryLockError};

use crate::entity::{CompRef, EntityIndex, TypeIdx};
use crate::runtime::context::Context;
use crate::table::{ChangeKind, Tick};
use crate::world::extension::Extension;
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
    fn of(hook: Hook) -> Option<ComponentEvent> {
        match hook {
            Hook::Attach => Some(ComponentEvent::Added),
            Hook::Detach => Some(ComponentEvent::Removed),
            Hook::Enable => Some(ComponentEvent::Enabled),
            Hook::Disable => Some(ComponentEvent::Disabled),
            Hook::Kill | Hook::Revive => None,
        }
    }
}

/// Names an observer, to remove it with
/// [`World::unobserve`](crate::World::unobserve).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ObserverId(u64);

/// An observer's closure: shared so that a call does not hold the list,
/// locked so that an observer whose own work fires it again is skipped
/// rather than re-entered.
type ObserverFn = Arc<Mutex<Box<dyn FnMut(&mut Context<'_>) + Send>>>;

struct Observer {
    id: u64,
    key: TypeId,
    event: ComponentEvent,
    call: ObserverFn,
    /// For [`ComponentEvent::Changed`]: the tick of its last delivery.
    seen: Tick,
}

/// The observers of one world, in registration order.
#[derive(Default)]
pub(crate) struct Observers {
    list: Vec<Observer>,
    next: u64,
}

impl Extension for Observers {
    fn forget(&mut self, _: EntityIndex) {}
}

/// Registers an observer (see [`World::observe`]).
pub(crate) fn observe(
    world: &mut World,
    key: TypeId,
    event: ComponentEvent,
    call: Box<dyn FnMut(&mut Context<'_>) + Send>,
) -> ObserverId {
    let seen = world.change_tick();
    let observers = world.extension_mut::<Observers>();
    let id = observers.next;
    observers.next += 1;
    observers.list.push(Observer {
        id,
        key,
        event,
        call: Arc::new(Mutex::new(call)),
        seen,
    });
    listen(world);
    ObserverId(id)
}

/// Removes an observer; `false` when there is none of that id.
pub(crate) fn unobserve(world: &mut World, id: ObserverId) -> bool {
    let observers = world.extension_mut::<Observers>();
    let before = observers.list.len();
    observers.list.retain(|o| o.id != id.0);
    let removed = observers.list.len() != before;
    listen(world);
    removed
}

/// Tells the world layer which types the lifecycle observers hear.
fn listen(world: &mut World) {
    let mut keys: Vec<TypeId> = world
        .extension::<Observers>()
        .into_iter()
        .flat_map(|o| &o.list)
        .filter(|o| o.event != ComponentEvent::Changed)
        .map(|o| o.key)
        .collect();
    keys.sort_unstable();
    keys.dedup();
    world.set_listeners(heard, keys);
}

/// Calls the observers of `hook`'s event whose type the component is-a, in
/// registration order, each with a context on the component's entity.
fn heard(world: &mut World, comp: CompRef, hook: Hook) {
    let Some(event) = ComponentEvent::of(hook) else {
        return;
    };
    let chain = world.vtable(comp.ty).chain.keys();
    let hears = |o: &&Observer| o.event == event && chain.iter().any(|k| k.type_id() == o.key);
    let list = world
        .extension::<Observers>()
        .map_or(&[][..], |o| &o.list[..]);
    // One observer is the common case: no list of calls to build.
    let (first, more) = {
        let mut heard = list.iter().filter(hears);
        (
            heard.next().map(|o| Arc::clone(&o.call)),
            heard.next().is_some(),
        )
    };
    let Some(first) = first else { return };
    let rest: Vec<ObserverFn> = match more {
        true => list
            .iter()
            .filter(hears)
            .skip(1)
            .map(|o| Arc::clone(&o.call))
            .collect(),
        false => Vec::new(),
    };
    let table = world.storage().segment(comp.seg).table();
    let owner = world.storage().table(table).owners()[comp.row.index()];
    let id = world.id_at(owner);
    run(world, id, comp.ty, &first);
    for call in rest {
        run(world, id, comp.ty, &call);
    }
}

/// Runs one observer on one entity, unless it is running already.
fn run(world: &mut World, id: EntityId, ty: TypeIdx, call: &ObserverFn) {
    let mut call = match call.try_lock() {
        Ok(call) => call,
        // A panic in an earlier call leaves the closure as it was.
        Err(TryLockError::Poisoned(poisoned)) => poisoned.into_inner(),
        Err(TryLockError::WouldBlock) => return,
    };
    let mut ctx = Context::with_id(world, id, ty);
    (call)(&mut ctx);
}

/// Delivers [`ComponentEvent::Changed`] to each such observer: every entity holding
/// a component that is-a its type changed since its last delivery.
pub(crate) fn deliver_changes(world: &mut World) {
    let due: Vec<(usize, TypeId, Tick)> = world
        .extension::<Observers>()
        .into_iter()
        .flat_map(|o| o.list.iter().enumerate())
        .filter(|(_, o)| o.event == ComponentEvent::Changed)
        .map(|(i, o)| (i, o.key, o.seen))
        .collect();
    for (at, key, seen) in due {
        let now = world.change_tick();
        let Some(ty) = world.storage().types().index_of_id(key) else {
            continue;
        };
        let ids: Vec<EntityId> = world
            .storage()
            .owners_after(ty, ChangeKind::Changed, seen)
            .into_iter()
            .map(|owner| world.id_at(owner))
            .collect();
        let Some(observer) = world.extension_mut::<Observers>().list.get_mut(at) else {
            continue;
        };
        observer.seen = now;
        let call = Arc::clone(&observer.call);
        for id in ids {
            // An earlier call may have despawned it.
            if world.contains(id) {
                run(world, id, ty, &call);
            }
        }
    }
}
