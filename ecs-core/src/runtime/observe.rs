//! Observers: closures a world calls when a component that is-a a type is
//! added, removed, enabled or disabled (right after the component's own
//! hook), or was changed (when the world delivers changes).

use std::any::TypeId;
use std::sync::{Mutex, PoisonError};

use crate::component::ComponentKey;
use crate::entity::{CompRef, TypeIdx};
use crate::runtime::context::Context;
use crate::table::{ChangeKind, Tick};
use crate::world::hooks::{Hook, HookSet};
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

/// An observer's closure: taken out of the list while it runs (the call
/// gets the world, list included), so that an observer whose own work
/// fires it again finds it gone and is skipped rather than re-entered.
/// The mutex only makes the list `Sync`; it is never locked (`get_mut`).
type ObserverFn = Mutex<Option<ObserverCall>>;

/// An observer's closure.
type ObserverCall = Box<dyn FnMut(&mut Context<'_>) + Send>;

struct Observer {
    id: u64,
    key: TypeId,
    event: ComponentEvent,
    call: ObserverFn,
    /// For [`ComponentEvent::Changed`]: the tick of its last delivery.
    seen: Tick,
}

impl Observer {
    /// The closure's place.
    fn call_mut(&mut self) -> &mut Option<ObserverCall> {
        self.call.get_mut().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The observers of one world, in registration order.
#[derive(Default)]
pub(crate) struct Observers {
    list: Vec<Observer>,
    next: u64,
    /// By type index: per lifecycle event (in [`Hook`] order), the
    /// positions in `list` of the observers that hear a component of that
    /// type, worked out at the type's first heard event, so that an add
    /// asks an index rather than every observer and the type's chain.
    /// Emptied when the world's [`World::heard_epoch`] moves, which it does
    /// whenever the list changes (each change hands the world its
    /// listeners again), types are registered or a snapshot is restored.
    heard_by: Vec<Option<HeardBy>>,
    /// The world's [`World::heard_epoch`] when `heard_by` was last emptied.
    epoch: u64,
}

/// Per lifecycle event, the positions of the observers that hear it.
type HeardBy = [Vec<u32>; 4];

impl Observers {
    /// The observer at position `at`, its closure taken out.
    #[inline]
    fn take(&mut self, at: Option<u32>, more: bool) -> Option<Next> {
        let at = at? as usize;
        let observer = self.list.get_mut(at)?;
        Some(Next {
            at,
            id: observer.id,
            call: observer.call_mut().take(),
            more,
        })
    }

    /// Works out which observers hear components of `ty`, whose chain of
    /// type ids (its own first) is `chain`.
    #[cold]
    #[inline(never)]
    fn learn(&mut self, ty: TypeIdx, chain: &[ComponentKey]) -> &HeardBy {
        let mut by: HeardBy = Default::default();
        for (at, o) in self.list.iter().enumerate() {
            let Some(hook) = o.event.hook() else { continue };
            if chain.iter().any(|k| k.type_id() == o.key) {
                by[hook as usize].push(at as u32);
            }
        }
        if self.heard_by.len() <= ty.index() {
            self.heard_by.resize_with(ty.index() + 1, || None);
        }
        self.heard_by[ty.index()].insert(by)
    }
}

/// Registers an observer (see [`World::observe`]).
pub(crate) fn observe(
    world: &mut World,
    key: TypeId,
    event: ComponentEvent,
    call: ObserverCall,
) -> ObserverId {
    let seen = world.change_tick();
    let observers = world.listener_state_mut::<Observers>();
    let id = observers.next;
    observers.next += 1;
    observers.list.push(Observer {
        id,
        key,
        event,
        call: Mutex::new(Some(call)),
        seen,
    });
    listen(world);
    ObserverId(id)
}

/// Removes an observer; `false` when there is none of that id.
pub(crate) fn unobserve(world: &mut World, id: ObserverId) -> bool {
    let observers = world.listener_state_mut::<Observers>();
    let before = observers.list.len();
    observers.list.retain(|o| o.id != id.0);
    let removed = observers.list.len() != before;
    listen(world);
    removed
}

/// Tells the world layer which types the lifecycle observers hear, and
/// which hooks on each.
fn listen(world: &mut World) {
    let mut keys: Vec<(TypeId, HookSet)> = Vec::new();
    let observers = world.listener_state::<Observers>().into_iter();
    for o in observers.flat_map(|o| &o.list) {
        let Some(hook) = o.event.hook() else { continue };
        match keys.iter_mut().find(|(key, _)| *key == o.key) {
            Some((_, hooks)) => *hooks = hooks.union(HookSet::of(hook)),
            None => keys.push((o.key, HookSet::of(hook))),
        }
    }
    world.set_listeners(heard, keys);
}

/// Calls the observers of `hook`'s event whose type the component is-a, in
/// registration order, each with a context on the component's entity.
fn heard(world: &mut World, comp: CompRef, hook: Hook) {
    if ComponentEvent::of(hook).is_none() {
        return;
    }
    let table = world.storage().segment(comp.seg).table();
    let id = world.id_at(world.storage().table(table).owners()[comp.row.index()]);
    // By position, no list of calls built: observers cannot be added or
    // removed while one runs (that takes the world), and the closure goes
    // back to the observer of its id.
    let mut nth = 0;
    loop {
        let Some(next) = take_next(world, comp.ty, hook, nth) else {
            return;
        };
        if let Some(call) = next.call {
            run(world, (next.at, next.id), id, comp.ty, call);
        }
        if !next.more {
            return;
        }
        nth += 1;
    }
}

/// An observer found by [`take_next`].
struct Next {
    at: usize,
    id: u64,
    /// Its closure, taken out; `None` while it runs already.
    call: Option<ObserverCall>,
    /// Whether an observer after it hears too.
    more: bool,
}

/// The `nth` observer that hears `hook` on a component of `ty`, with its
/// closure taken out.
#[inline]
fn take_next(world: &mut World, ty: TypeIdx, hook: Hook, nth: usize) -> Option<Next> {
    let epoch = world.heard_epoch();
    let observers = world.listener_state_mut::<Observers>();
    if observers.epoch == epoch
        && let Some(Some(heard)) = observers.heard_by.get(ty.index())
    {
        let heard = &heard[hook as usize];
        return observers.take(heard.get(nth).copied(), nth + 1 < heard.len());
    }
    learn_then_take(world, ty, hook, nth)
}

/// [`take_next`] for a type whose observers are not worked out yet.
#[cold]
#[inline(never)]
fn learn_then_take(world: &mut World, ty: TypeIdx, hook: Hook, nth: usize) -> Option<Next> {
    let epoch = world.heard_epoch();
    let chain = world.vtable(ty).chain.keys();
    let observers = world.listener_state_mut::<Observers>();
    if observers.epoch != epoch {
        observers.heard_by.clear();
        observers.epoch = epoch;
    }
    let heard = &observers.learn(ty, chain)[hook as usize];
    let (at, more) = (heard.get(nth).copied(), nth + 1 < heard.len());
    observers.take(at, more)
}

/// Puts an observer's closure back when its call ends, a panic included
/// (a panic leaves the closure as it was).
struct PutBack<'w> {
    world: &'w mut World,
    at: usize,
    observer: u64,
    call: Option<ObserverCall>,
}

impl Drop for PutBack<'_> {
    #[inline]
    fn drop(&mut self) {
        let list = &mut self.world.listener_state_mut::<Observers>().list;
        let observer = self.observer;
        let at = match list.get(self.at) {
            Some(o) if o.id == observer => Some(self.at),
            _ => list.iter().position(|o| o.id == observer),
        };
        if let Some(at) = at {
            *list[at].call_mut() = self.call.take();
        }
    }
}

/// Runs the closure `call` taken out of the observer at position `at` of
/// id `observer` on one entity, and puts it back.
#[inline]
fn run(
    world: &mut World,
    (at, observer): (usize, u64),
    id: EntityId,
    ty: TypeIdx,
    call: ObserverCall,
) {
    let mut put_back = PutBack {
        world,
        at,
        observer,
        call: Some(call),
    };
    let PutBack { world, call, .. } = &mut put_back;
    if let Some(call) = call {
        call(&mut Context::with_id(world, id, ty));
    }
}

/// Delivers [`ComponentEvent::Changed`] to each such observer: every entity holding
/// a component that is-a its type changed since its last delivery.
pub(crate) fn deliver_changes(world: &mut World) {
    let due: Vec<(usize, TypeId, Tick)> = world
        .listener_state::<Observers>()
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
        let Some(observer) = world.listener_state_mut::<Observers>().list.get_mut(at) else {
            continue;
        };
        observer.seen = now;
        for id in ids {
            // An earlier call may have despawned it.
            if !world.contains(id) {
                continue;
            }
            let observers = world.listener_state_mut::<Observers>();
            let Some(observer) = observers.list.get_mut(at) else {
                continue;
            };
            let observer_id = observer.id;
            let Some(call) = observer.call_mut().take() else {
                continue;
            };
            run(world, (at, observer_id), id, ty, call);
        }
    }
}
