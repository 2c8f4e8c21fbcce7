//! Lifecycle hooks: the moments a component's behaviour hears about
//! (attached, detached, enabled, disabled, killed, revived), the one rule
//! for the order they fire in, and the entry points a behaviour type
//! registers. The runtime layer implements the entry points (it knows
//! behaviours and their `Context`); this layer decides when they run.

use crate::component::require::Requirements;
use crate::entity::{CompRef, EntityIndex, TypeIdx};
use crate::world::World;

/// A lifecycle moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Hook {
    Attach,
    Detach,
    Enable,
    Disable,
    Kill,
    Revive,
}

/// The type-erased entry points of one behaviour type, made by the runtime
/// layer for the derive and carried erased in the type's table. Each takes
/// the chain level at which the component holds the behaviour: 0 for a
/// type's own, one more per generation for one inherited from an ancestor
/// (run on the ancestor part the component embeds).
#[doc(hidden)]
pub struct BehaviourEntryPoints {
    /// Updates every component of a type; returns how many ran.
    pub(crate) update: fn(&mut World, TypeIdx, usize, f32) -> usize,
    /// Runs one hook on one component.
    pub(crate) hook: fn(&mut World, CompRef, usize, Hook),
}

/// A set of [`Hook`]s, one bit each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct HookSet(u8);

impl HookSet {
    /// Every hook: what a behaviour type hears.
    pub(crate) const ALL: HookSet = HookSet(0b11_1111);
    /// The hooks fired before a component is removed.
    pub(crate) const REMOVAL: HookSet = HookSet(1 << Hook::Detach as u8 | 1 << Hook::Disable as u8);

    /// The set holding only `hook`.
    pub(crate) const fn of(hook: Hook) -> HookSet {
        HookSet(1 << hook as u8)
    }

    /// Whether `hook` is in the set.
    #[inline]
    pub(crate) const fn has(self, hook: Hook) -> bool {
        self.0 & 1 << hook as u8 != 0
    }

    /// Whether the two sets share a hook.
    #[inline]
    pub(crate) const fn meets(self, other: HookSet) -> bool {
        self.0 & other.0 != 0
    }

    #[inline]
    pub(crate) const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The hooks in either set.
    pub(crate) const fn union(self, other: HookSet) -> HookSet {
        HookSet(self.0 | other.0)
    }
}

impl World {
    /// The hooks that do something on components of `ty`: every one for a
    /// behaviour type, else those a listener hears.
    #[inline]
    pub(crate) fn hooks_of(&self, ty: TypeIdx) -> HookSet {
        match self.storage().info(ty).has_hooks() {
            true => HookSet::ALL,
            false => self.hooks_heard(ty),
        }
    }

    /// The behaviour entry points of `ty` and the chain level they run at,
    /// when `ty` is (or inherits) a behaviour.
    pub(crate) fn behaviour_fns(
        &self,
        ty: TypeIdx,
    ) -> Option<(&'static BehaviourEntryPoints, usize)> {
        let own = self.storage.info(ty).vtable()?.behaviour?;
        let fns = own
            .record
            .downcast_ref()
            .expect("a behaviour's entry points are `BehaviourEntryPoints`");
        Some((fns, own.level))
    }

    /// Behaviour types in the order their first component was attached (a
    /// failed add attaches nothing, so it decides nothing).
    pub(crate) fn first_attached(&self) -> &[TypeIdx] {
        &self.first_attached
    }

    /// Fires `hook` on the component `comp` when its type is a behaviour.
    /// `on_enable` and `on_disable` bracket the time a component is enabled
    /// on an enabled entity, so they alternate: on a disabled entity a
    /// component gets neither when it is added, removed, enabled or
    /// disabled, and the entity's `set_enabled` fires them instead
    /// ([`World::fire_on_entity`]).
    pub(crate) fn fire(&mut self, comp: CompRef, hook: Hook) {
        if matches!(hook, Hook::Enable | Hook::Disable) && self.owner_disabled(comp) {
            return;
        }
        self.fire_always(comp, hook);
    }

    fn fire_always(&mut self, comp: CompRef, hook: Hook) {
        if let Some((fns, level)) = self.behaviour_fns(comp.ty) {
            if hook == Hook::Attach && !self.first_attached.contains(&comp.ty) {
                self.first_attached.push(comp.ty);
            }
            (fns.hook)(self, comp, level, hook);
        }
        if self.hooks_heard(comp.ty).has(hook) {
            self.hear(comp, hook);
        }
    }

    /// Whether the entity holding `comp` is disabled.
    fn owner_disabled(&self, comp: CompRef) -> bool {
        // A column taken out is running a hook or an update, which cannot
        // fire another on it anyway.
        if self.storage().try_column(comp.ty).is_none() {
            return false;
        }
        self.slot(self.owner_of(comp)).disabled
    }

    /// The entity holding `comp` (whose segment is in storage).
    pub(crate) fn owner_of(&self, comp: CompRef) -> EntityIndex {
        let table = self.storage().segment(comp.seg).table();
        self.storage().table(table).owners()[comp.row.index()]
    }

    /// The one rule for what fires after components are added, used by every
    /// path that adds them (`add`, bundles, `add_by_name`, blueprints, clones,
    /// loads): the entity's components from position `from` on were added by
    /// one operation, requirements appended after what required them (see
    /// `require.rs`); each gets `on_attach`, then `on_enable` if it is
    /// enabled, and each comes after the components of that operation that
    /// meet its requirements (Unity's `RequireComponent` order), otherwise in
    /// storage order.
    pub(crate) fn fire_added_hooks(&mut self, index: EntityIndex, from: usize) {
        if !self.layout_of(index)[from..]
            .iter()
            .any(|p| self.has_hooks(p.ty))
        {
            return;
        }
        // Hooks cannot add or remove components, so positions stay valid.
        // Without requirements among the new components, storage order is
        // the order: no list to build.
        let required = self.layout_of(index)[from..]
            .iter()
            .any(|p| self.storage().info(p.ty).has_requirements());
        if required {
            for pos in self.requirements_first(index, from) {
                self.fire_attached(index, pos);
            }
        } else {
            for pos in from..self.comp_count(index) {
                self.fire_attached(index, pos);
            }
        }
    }

    /// `on_attach`, then `on_enable` when it is enabled, on the entity's
    /// component at `pos`.
    fn fire_attached(&mut self, index: EntityIndex, pos: usize) {
        let c = self.comp_at(index, pos);
        self.fire_attached_comp(c);
    }

    /// `on_attach`, then `on_enable` when it is enabled, on `c`, each when
    /// someone hears it.
    pub(crate) fn fire_attached_comp(&mut self, c: CompRef) {
        self.fire_attached_on(self.owner_of(c), c);
    }

    /// [`World::fire_attached_comp`] for a component of entity `owner`.
    pub(crate) fn fire_attached_on(&mut self, owner: EntityIndex, c: CompRef) {
        if self.storage().info(c.ty).has_hooks() {
            self.fire(c, Hook::Attach);
            if self.comp_enabled(c) {
                self.fire(c, Hook::Enable);
            }
            return;
        }
        // No hooks of its own: straight to the listeners, for what they
        // hear (what `fire` would come to, without looking for hooks).
        let hooks = self.hooks_heard(c.ty);
        if hooks.has(Hook::Attach) {
            self.hear_on(owner, c.ty, Hook::Attach);
        }
        if hooks.has(Hook::Enable) && self.comp_enabled(c) && !self.owner_disabled(c) {
            self.hear_on(owner, c.ty, Hook::Enable);
        }
    }

    /// Whether `c` itself is enabled (its entity may not be).
    fn comp_enabled(&self, c: CompRef) -> bool {
        self.storage()
            .meta(c.ty, c.seg, c.row)
            .is_some_and(|meta| meta.is_enabled())
    }

    /// Positions `from..` of the entity's components, each after the
    /// positions (from `from` on) of the components that meet its
    /// requirements: the first component that is-a each required type, the
    /// one `require.rs` finds before adding a default.
    fn requirements_first(&self, index: EntityIndex, from: usize) -> Vec<usize> {
        /// Pushes `pos` after what meets its requirements, depth first.
        fn visit(
            world: &World,
            (index, from): (EntityIndex, usize),
            pos: usize,
            seen: &mut [bool],
            order: &mut Vec<usize>,
        ) {
            if std::mem::replace(&mut seen[pos - from], true) {
                return; // done, or in progress: two types requiring each other
            }
            let ty = world.layout_of(index)[pos].ty;
            if world.storage().info(ty).has_requirements() {
                let requirements = Requirements::of(world.vtable(ty));
                for key in requirements.keys() {
                    let met_by = world
                        .storage()
                        .types()
                        .index_of_id(key.type_id())
                        .and_then(|t| world.position_of(index, t));
                    if let Some(p) = met_by.filter(|&p| p >= from) {
                        visit(world, (index, from), p, seen, order);
                    }
                }
            }
            order.push(pos);
        }
        let count = self.comp_count(index);
        let mut seen = vec![false; count - from];
        let mut order = Vec::with_capacity(count - from);
        for pos in from..count {
            visit(self, (index, from), pos, &mut seen, &mut order);
        }
        order
    }

    /// Fires `on_disable` (when enabled) and `on_detach` on each component,
    /// in the order given, before they are removed.
    pub(crate) fn fire_removal_hooks(&mut self, comps: &[CompRef]) {
        for &c in comps {
            let hooks = self.hooks_of(c.ty);
            if hooks.has(Hook::Disable)
                && self
                    .storage()
                    .meta(c.ty, c.seg, c.row)
                    .is_some_and(|meta| meta.is_enabled())
            {
                self.fire(c, Hook::Disable);
            }
            if hooks.has(Hook::Detach) {
                self.fire(c, Hook::Detach);
            }
        }
    }

    /// Fires `hook` on each of the entity's components with hooks, in
    /// insertion order; with `enabled_only`, only on enabled components.
    pub(crate) fn fire_on_entity(&mut self, index: EntityIndex, hook: Hook, enabled_only: bool) {
        let comps: Vec<CompRef> = self.comps(index).collect();
        for c in comps {
            let enabled = self
                .storage()
                .meta(c.ty, c.seg, c.row)
                .is_some_and(|meta| meta.is_enabled());
            // The entity's own flag has just changed: this is the moment
            // `fire` leaves to it.
            if !enabled_only || enabled {
                self.fire_always(c, hook);
            }
        }
    }

    /// Whether components of `ty` have hooks, or a listener hears them.
    pub(crate) fn has_hooks(&self, ty: TypeIdx) -> bool {
        !self.hooks_of(ty).is_empty()
    }
}
