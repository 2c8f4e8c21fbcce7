//! Listeners: closures an upper layer registers to hear a component type's
//! lifecycle hooks (a component is heard when its type is-a the listener's),
//! called after the component's own hook wherever that fires, in
//! registration order. The world keeps the closures and, by type index,
//! which listeners hear which hook, so a heard add finds and calls them
//! with no search and no downcast.

use std::any::TypeId;
use std::sync::{Mutex, PoisonError};

use crate::component::ComponentVTable;
use crate::entity::{CompRef, EntityIndex, TypeIdx};
use crate::table::Tick;
use crate::world::hooks::{Hook, HookSet};
use crate::world::World;
use crate::EntityId;

/// A listener's closure: called with the world, the entity and the type of
/// the component it hears.
pub(crate) type ListenerFn = Box<dyn FnMut(&mut World, EntityId, TypeIdx) + Send>;

/// The hooks a listener can hear, in [`Hook`] order: the lifecycle of a
/// component (an entity's kill and revive are not heard).
const HEARD_HOOKS: usize = 4;

/// One registered listener.
struct Listener {
    id: u64,
    /// The type whose components (its own and its derived types') it hears.
    key: TypeId,
    /// The hook it hears; `None` for one its layer calls itself
    /// ([`World::call_listener`]).
    hook: Option<Hook>,
    /// Taken out while it runs (the call gets the world, list included), so
    /// that a listener whose own work fires it again finds it gone and is
    /// skipped rather than re-entered. The mutex only makes the list
    /// `Sync`; it is never locked (`get_mut`).
    call: Mutex<Option<ListenerFn>>,
    /// Its layer's mark: for a listener without a hook, when it last heard.
    seen: Tick,
}

impl Listener {
    fn call_mut(&mut self) -> &mut Option<ListenerFn> {
        self.call.get_mut().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The world's listeners, in registration order.
#[derive(Default)]
pub(crate) struct Listeners {
    list: Vec<Listener>,
    next: u64,
    /// By type index: the hooks heard on components of the type and, per
    /// hook, the positions in `list` of the listeners that hear it. Worked
    /// out again when the list or the registered types change, or a
    /// snapshot is restored (which can give an index to another type).
    by_type: Vec<Heard>,
    /// Whether any listener hears a hook: while none does, no type is
    /// heard and `by_type` stays empty.
    any_hook: bool,
}

/// Who hears one type's components.
#[derive(Default)]
struct Heard {
    hooks: HookSet,
    at: [Vec<u32>; HEARD_HOOKS],
}

/// Puts a listener's closure back if its call panics (a call that returns
/// puts it back itself, in line: as a drop, the same work took twice the
/// instructions of the rest of a heard add).
struct PutBack<'w> {
    world: &'w mut World,
    at: usize,
    id: u64,
    call: Option<ListenerFn>,
}

impl PutBack<'_> {
    #[inline(always)]
    fn put_back(&mut self) {
        let Some(call) = self.call.take() else {
            return;
        };
        let list = &mut self.world.listeners.list;
        let id = self.id;
        let at = match list.get(self.at) {
            Some(l) if l.id == id => self.at,
            // The list changed while it ran (its commands were applied).
            _ => match list.iter().position(|l| l.id == id) {
                Some(at) => at,
                None => return,
            },
        };
        *list[at].call_mut() = Some(call);
    }
}

impl Drop for PutBack<'_> {
    fn drop(&mut self) {
        self.put_back();
    }
}

impl World {
    /// Registers a listener of `hook` (`None`: called by its layer only)
    /// on components that are-a the type `key`; returns its id. Paths that
    /// skip hooks for types without any (bundles, batches) take the
    /// checked path for the types it hears from now on.
    pub(crate) fn add_listener(
        &mut self,
        key: TypeId,
        hook: Option<Hook>,
        call: ListenerFn,
        seen: Tick,
    ) -> u64 {
        let listeners = &mut self.listeners;
        let id = listeners.next;
        listeners.next += 1;
        listeners.list.push(Listener {
            id,
            key,
            hook,
            call: Mutex::new(Some(call)),
            seen,
        });
        self.listeners_changed();
        id
    }

    /// Removes the listener `id`; `false` when there is none.
    pub(crate) fn remove_listener(&mut self, id: u64) -> bool {
        let before = self.listeners.list.len();
        self.listeners.list.retain(|l| l.id != id);
        let removed = self.listeners.list.len() != before;
        if removed {
            self.listeners_changed();
        }
        removed
    }

    fn listeners_changed(&mut self) {
        self.listeners.any_hook = self.listeners.list.iter().any(|l| l.hook.is_some());
        self.refresh_heard();
        self.forget_bundle_tables();
    }

    /// The listeners without a hook, each as its position, id, type and
    /// mark, in registration order.
    pub(crate) fn hookless_listeners(&self) -> Vec<(usize, u64, TypeId, Tick)> {
        let list = self.listeners.list.iter().enumerate();
        list.filter(|(_, l)| l.hook.is_none())
            .map(|(at, l)| (at, l.id, l.key, l.seen))
            .collect()
    }

    /// Sets the mark of the listener at position `at` when it is `id`.
    pub(crate) fn mark_listener(&mut self, (at, id): (usize, u64), seen: Tick) {
        if let Some(l) = self.listeners.list.get_mut(at).filter(|l| l.id == id) {
            l.seen = seen;
        }
    }

    /// Calls the listener at position `at` when it is `id` and not running
    /// already, on `entity`'s component of type `ty`.
    #[inline(always)]
    pub(crate) fn call_listener(&mut self, (at, id): (usize, u64), entity: EntityId, ty: TypeIdx) {
        let Some(listener) = self.listeners.list.get_mut(at).filter(|l| l.id == id) else {
            return;
        };
        let Some(call) = listener.call_mut().take() else {
            return;
        };
        let mut put_back = PutBack {
            world: self,
            at,
            id,
            call: Some(call),
        };
        let PutBack { world, call, .. } = &mut put_back;
        if let Some(call) = call {
            call(world, entity, ty);
        }
        put_back.put_back();
        // Put back already: the drop is for a call that panics.
        std::mem::forget(put_back);
    }

    /// Calls the listeners of `hook` on `comp`'s type, in registration
    /// order, each with the component's entity.
    pub(crate) fn hear(&mut self, comp: CompRef, hook: Hook) {
        self.hear_on(self.owner_of(comp), comp.ty, hook);
    }

    /// [`World::hear`] for a component of type `ty` on entity `owner`.
    #[inline(always)]
    pub(crate) fn hear_on(&mut self, owner: EntityIndex, ty: TypeIdx, hook: Hook) {
        let entity = self.id_at(owner);
        // By position, no list of calls built. Should a listener's work
        // change the list, the index is worked out again with it, and a
        // closure goes back to the listener of its id.
        let mut nth = 0;
        while let Some(&at) = self
            .listeners
            .by_type
            .get(ty.index())
            .and_then(|heard| heard.at.get(hook as usize)?.get(nth))
        {
            nth += 1;
            let at = at as usize;
            let Some(id) = self.listeners.list.get(at).map(|l| l.id) else {
                return;
            };
            self.call_listener((at, id), entity, ty);
        }
    }

    /// Works out again who hears each registered type: after the
    /// registered types or the listeners change.
    pub(crate) fn refresh_heard(&mut self) {
        self.listeners.by_type.clear();
        self.hear_new_types();
    }

    /// Works out who hears `ty`, just registered, and the types registered
    /// with it (its ancestors), the others unchanged: a registration costs
    /// its own types', not every type's. `ty` may be an ancestor known
    /// before, which only now has its description.
    pub(crate) fn hear_registered(&mut self, ty: TypeIdx) {
        self.hear_new_types();
        if self.listeners.any_hook {
            let heard = self.heard_for(ty);
            if let Some(slot) = self.listeners.by_type.get_mut(ty.index()) {
                *slot = heard;
            }
        }
    }

    /// Works out who hears the types past those already worked out.
    fn hear_new_types(&mut self) {
        if !self.listeners.any_hook {
            return;
        }
        for i in self.listeners.by_type.len()..self.storage.types().len() {
            let heard = self.heard_for(TypeIdx::from_index(i));
            self.listeners.by_type.push(heard);
        }
    }

    /// Who hears components of `ty` (no one before it has a description).
    fn heard_for(&self, ty: TypeIdx) -> Heard {
        match self.storage.info(ty).vtable() {
            Some(vtable) => self.listeners.heard_by(vtable),
            None => Heard::default(),
        }
    }

    /// The hooks a listener hears on components of `ty`.
    #[inline]
    pub(crate) fn hooks_heard(&self, ty: TypeIdx) -> HookSet {
        match self.listeners.by_type.get(ty.index()) {
            Some(heard) => heard.hooks,
            None => HookSet::default(),
        }
    }

    /// Whether a listener hears components of `ty`.
    #[inline]
    pub(crate) fn heard(&self, ty: TypeIdx) -> bool {
        !self.hooks_heard(ty).is_empty()
    }

    /// Whether a listener hears components of the type `vtable` describes.
    #[inline]
    pub(crate) fn heard_vtable(&self, vtable: &ComponentVTable) -> bool {
        self.listeners.any_hook && self.listeners.hear_any(vtable)
    }
}

impl Listeners {
    /// Whether a listener of a hook hears components of the type `vtable`
    /// describes.
    fn hear_any(&self, vtable: &ComponentVTable) -> bool {
        let chain = vtable.chain.keys();
        self.list
            .iter()
            .any(|l| l.hook.is_some() && chain.iter().any(|k| k.type_id() == l.key))
    }

    /// Who hears components of the type `vtable` describes: the listeners
    /// of a hook whose type is in its chain.
    fn heard_by(&self, vtable: &ComponentVTable) -> Heard {
        let chain = vtable.chain.keys();
        let mut heard = Heard::default();
        for (at, l) in self.list.iter().enumerate() {
            let Some(hook) = l.hook else { continue };
            if !chain.iter().any(|k| k.type_id() == l.key) {
                continue;
            }
            if let Some(positions) = heard.at.get_mut(hook as usize) {
                heard.hooks = heard.hooks.union(HookSet::of(hook));
                positions.push(at as u32);
            }
        }
        heard
    }
}
