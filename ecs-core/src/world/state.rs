//! Enable/disable, kill/revive and layers: flags that change what lookups and
//! updates see without adding or removing anything.

use crate::entity::InstanceId;
use crate::entity::{CompRef, EntityIndex, TypeIdx};
use crate::table::Meta;
use crate::world::hooks::Hook;
use crate::world::{World, DEFAULT_LAYERS};
use crate::{Component, EntityId, EntityMut, EntityRef, Error};

/// Which components a filtered lookup accepts, by their enabled flag.
///
/// ```
/// # use ecs_core::prelude::*;
/// #[derive(Component)]
/// #[component(multiple)]
/// struct Light(u8);
/// let mut world = World::new();
/// let id = world.spawn_with((Light(1), Light(2)))?;
/// let mut e = world.entity_mut(id)?;
/// let first = e.components().next().unwrap().instance;
/// e.set_instance_enabled(first, false)?;
/// let e = world.entity(id)?;
/// assert_eq!(e.get_filtered::<Light>(Filter::Enabled).unwrap().0, 2);
/// assert_eq!(e.get_filtered::<Light>(Filter::Disabled).unwrap().0, 1);
/// assert_eq!(e.get_filtered::<Light>(Filter::Any).unwrap().0, 1);
/// assert_eq!(Filter::default(), Filter::Any);
/// # Ok::<(), ecs_core::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Filter {
    /// Enabled components only.
    Enabled,
    /// Disabled components only.
    Disabled,
    /// Both (what plain `get` does).
    #[default]
    Any,
}

impl Filter {
    fn accepts(self, meta: Meta) -> bool {
        match self {
            Filter::Enabled => meta.is_enabled(),
            Filter::Disabled => !meta.is_enabled(),
            Filter::Any => true,
        }
    }
}

impl World {
    /// Entries of the entity's components that are-a `t` and pass `filter`.
    fn matching(
        &self,
        index: EntityIndex,
        t: Option<TypeIdx>,
        filter: Filter,
    ) -> impl Iterator<Item = CompRef> + '_ {
        self.comps(index)
            .filter(move |c| t.is_some_and(|t| self.storage.info(c.ty).is_a(c.ty, t)))
            .filter(move |&c| filter.accepts(self.meta_of(c)))
    }

    /// Sets the disabled bit of every component of the entity that is-a `T`.
    fn set_all_disabled<T: Component>(&mut self, index: EntityIndex, disabled: bool) -> usize {
        let comps: Vec<CompRef> = self
            .matching(index, self.type_idx::<T>(), Filter::Any)
            .collect();
        // Every bit first, then the hooks: a hook that panics stops the
        // hooks after it, not the change, which is kept whole.
        let changed: Vec<CompRef> = comps
            .into_iter()
            .filter(|c| self.storage.set_disabled(c.seg, c.row, disabled))
            .collect();
        let hook = if disabled {
            Hook::Disable
        } else {
            Hook::Enable
        };
        for &comp in &changed {
            self.fire(comp, hook);
        }
        changed.len()
    }

    /// Sets one component's disabled bit and, when it changed, fires
    /// `on_enable`/`on_disable` through [`World::fire`] (which leaves them to
    /// the entity's own `set_enabled` while the entity is disabled); returns
    /// whether it changed.
    pub(crate) fn set_comp_disabled(&mut self, comp: CompRef, disabled: bool) -> bool {
        let changed = self.storage.set_disabled(comp.seg, comp.row, disabled);
        if changed {
            let hook = if disabled {
                Hook::Disable
            } else {
                Hook::Enable
            };
            self.fire(comp, hook);
        }
        changed
    }

    /// Entities whose layers share a bit with `mask`, in slot order.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// const UI: u32 = 1 << 5;
    /// let mut world = World::new();
    /// let plain = world.spawn();
    /// let hud = world.spawn();
    /// world.entity_mut(hud)?.set_layers(UI);
    /// assert_eq!(world.iter_in_layers(UI).collect::<Vec<_>>(), [hud]);
    /// assert_eq!(world.iter_in_layers(ecs_core::DEFAULT_LAYERS).collect::<Vec<_>>(), [plain]);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn iter_in_layers(&self, mask: u32) -> impl Iterator<Item = EntityId> + '_ {
        self.iter_ids()
            .filter(move |id| self.layers_of(id.index) & mask != 0)
    }

    pub(crate) fn set_layers_at(&mut self, index: EntityIndex, mask: u32) {
        let index = index.index();
        if self.layers.len() <= index {
            self.layers.resize(index + 1, DEFAULT_LAYERS);
        }
        self.layers[index] = mask;
    }

    /// The layer masks set so far, by slot (slots past the end have the
    /// default layers).
    pub(crate) fn layer_masks(&self) -> &[u32] {
        &self.layers
    }

    pub(crate) fn layers_of(&self, index: EntityIndex) -> u32 {
        self.layers
            .get(index.index())
            .copied()
            .unwrap_or(DEFAULT_LAYERS)
    }
}

impl<'w> EntityRef<'w> {
    /// The first component that is-a `T` and passes `filter`.
    ///
    /// Plain [`get`](EntityRef::get) is `get_filtered(Filter::Any)`: like
    /// Unity's `GetComponent`, it returns disabled components too.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Sprite;
    /// let mut world = World::new();
    /// let id = world.spawn_with((Sprite,))?;
    /// world.entity_mut(id)?.disable::<Sprite>();
    /// let e = world.entity(id)?;
    /// assert!(e.get_filtered::<Sprite>(Filter::Enabled).is_none());
    /// assert!(e.get_filtered::<Sprite>(Filter::Any).is_some());
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn get_filtered<T: Component>(&self, filter: Filter) -> Option<&'w T> {
        let world = self.world();
        let comp = world
            .matching(self.id().index, world.type_idx::<T>(), filter)
            .next()?;
        world.view(comp)
    }

    /// Every component that is-a `T` and passes `filter`, in insertion order.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// #[component(multiple)]
    /// struct Light(u8);
    /// let mut world = World::new();
    /// let id = world.spawn_with((Light(1), Light(2), Light(3)))?;
    /// let mut e = world.entity_mut(id)?;
    /// let second = e.components().nth(1).unwrap().instance;
    /// e.set_instance_enabled(second, false)?;
    /// let e = world.entity(id)?;
    /// let on: Vec<u8> = e.get_all_filtered::<Light>(Filter::Enabled).map(|l| l.0).collect();
    /// assert_eq!(on, [1, 3]);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn get_all_filtered<T: Component>(
        &self,
        filter: Filter,
    ) -> impl Iterator<Item = &'w T> + 'w {
        let world = self.world();
        world
            .matching(self.id().index, world.type_idx::<T>(), filter)
            .filter_map(move |c| world.view(c))
    }

    /// Whether the entity itself is enabled.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let id = world.spawn();
    /// assert!(world.entity(id)?.is_enabled());
    /// world.entity_mut(id)?.set_enabled(false);
    /// assert!(!world.entity(id)?.is_enabled());
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn is_enabled(&self) -> bool {
        !self.world().slot(self.id().index).disabled
    }

    /// Whether the entity was killed (and not revived).
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let id = world.spawn();
    /// world.entity_mut(id)?.kill();
    /// assert!(world.entity(id)?.is_dead());
    /// assert!(world.contains(id)); // killed, not despawned
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn is_dead(&self) -> bool {
        self.world().slot(self.id().index).killed
    }

    /// Alive, enabled and not killed: what updates see.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let id = world.spawn();
    /// assert!(world.entity(id)?.is_active());
    /// world.entity_mut(id)?.set_enabled(false);
    /// assert!(!world.entity(id)?.is_active());
    /// world.entity_mut(id)?.set_enabled(true);
    /// world.entity_mut(id)?.kill();
    /// assert!(!world.entity(id)?.is_active());
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn is_active(&self) -> bool {
        self.world().slot(self.id().index).is_active()
    }

    /// The entity's layer mask.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let id = world.spawn();
    /// world.entity_mut(id)?.set_layers(0b110);
    /// assert_eq!(world.entity(id)?.layers(), 0b110);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn layers(&self) -> u32 {
        self.world().layers_of(self.id().index)
    }
}

impl EntityMut<'_> {
    /// The first component that is-a `T` and passes `filter`.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Sprite;
    /// let mut world = World::new();
    /// let id = world.spawn_with((Sprite,))?;
    /// let mut e = world.entity_mut(id)?;
    /// assert!(e.get_filtered::<Sprite>(Filter::Enabled).is_some());
    /// e.disable::<Sprite>();
    /// assert!(e.get_filtered::<Sprite>(Filter::Enabled).is_none());
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn get_filtered<T: Component>(&self, filter: Filter) -> Option<&T> {
        self.as_ref().get_filtered(filter)
    }

    /// Mutable twin of [`EntityMut::get_filtered`].
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// #[component(multiple)]
    /// struct Light(u8);
    /// let mut world = World::new();
    /// let id = world.spawn_with((Light(1), Light(2)))?;
    /// let mut e = world.entity_mut(id)?;
    /// let first = e.components().next().unwrap().instance;
    /// e.set_instance_enabled(first, false)?;
    /// e.get_filtered_mut::<Light>(Filter::Disabled).unwrap().0 = 10;
    /// assert_eq!(e.get_all::<Light>().map(|l| l.0).collect::<Vec<_>>(), [10, 2]);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn get_filtered_mut<T: Component>(&mut self, filter: Filter) -> Option<&mut T> {
        let index = self.id().index;
        let world = self.world_mut();
        let comp = world
            .matching(index, world.type_idx::<T>(), filter)
            .next()?;
        world.view_mut(comp)
    }

    /// Enables every component that is-a `T`; returns how many changed.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Sprite;
    /// let mut world = World::new();
    /// let id = world.spawn_with((Sprite,))?;
    /// let mut e = world.entity_mut(id)?;
    /// assert_eq!(e.enable::<Sprite>(), 0); // already enabled
    /// e.disable::<Sprite>();
    /// assert_eq!(e.enable::<Sprite>(), 1);
    /// assert!(e.get_filtered::<Sprite>(Filter::Enabled).is_some());
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn enable<T: Component>(&mut self) -> usize {
        let index = self.id().index;
        self.world_mut().set_all_disabled::<T>(index, false)
    }

    /// Disables every component that is-a `T`; returns how many changed.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Sprite;
    /// let mut world = World::new();
    /// let id = world.spawn_with((Sprite,))?;
    /// let mut e = world.entity_mut(id)?;
    /// assert_eq!(e.disable::<Sprite>(), 1);
    /// assert!(e.get::<Sprite>().is_some(), "plain get still sees it");
    /// assert!(e.get_filtered::<Sprite>(Filter::Enabled).is_none());
    /// assert!(e.get_filtered::<Sprite>(Filter::Disabled).is_some());
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn disable<T: Component>(&mut self) -> usize {
        let index = self.id().index;
        self.world_mut().set_all_disabled::<T>(index, true)
    }

    /// Enables or disables one component instance; `Ok(true)` when it changed.
    ///
    /// # Errors
    /// [`Error::NoSuchInstance`] when the entity holds no component with this id.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// #[component(multiple)]
    /// struct Light(u8);
    /// let mut world = World::new();
    /// let id = world.spawn_with((Light(1), Light(2)))?;
    /// let mut e = world.entity_mut(id)?;
    /// let second = e.components().nth(1).unwrap().instance;
    /// assert_eq!(e.set_instance_enabled(second, false)?, true);
    /// assert_eq!(e.set_instance_enabled(second, false)?, false); // no change
    /// assert_eq!(e.as_ref().get_all_filtered::<Light>(Filter::Enabled).count(), 1);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn set_instance_enabled(
        &mut self,
        instance: InstanceId,
        enabled: bool,
    ) -> Result<bool, Error> {
        let entity = self.id();
        let world = self.world_mut();
        let (_, comp) = world
            .comp_by_instance(entity.index, instance)
            .ok_or(Error::NoSuchInstance { entity, instance })?;
        Ok(world.set_comp_disabled(comp, !enabled))
    }

    /// Enables or disables the entity as a whole; when that changes it,
    /// `on_enable`/`on_disable` fire on its enabled components.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// #[component(behaviour)]
    /// struct Timer(f32);
    /// impl Behaviour for Timer {
    ///     fn update(&mut self, _ctx: &mut Context<'_>, dt: f32) {
    ///         self.0 += dt;
    ///     }
    /// }
    /// let mut world = World::new();
    /// let id = world.spawn_with((Timer(0.0),))?;
    /// world.entity_mut(id)?.set_enabled(false);
    /// assert_eq!(world.update(1.0), 0); // disabled entities are skipped
    /// world.entity_mut(id)?.set_enabled(true);
    /// assert_eq!(world.update(1.0), 1);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn set_enabled(&mut self, enabled: bool) {
        let index = self.id().index;
        let world = self.world_mut();
        let slot = world.entities.slot(index);
        if slot.disabled != enabled {
            return;
        }
        let killed = slot.killed;
        world
            .storage
            .set_entity_state(&mut world.entities, index, !enabled, killed);
        let hook = if enabled { Hook::Enable } else { Hook::Disable };
        world.fire_on_entity(index, hook, true);
    }

    /// Whether the entity itself is enabled.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let id = world.spawn();
    /// let mut e = world.entity_mut(id)?;
    /// e.set_enabled(false);
    /// assert!(!e.is_enabled());
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn is_enabled(&self) -> bool {
        self.as_ref().is_enabled()
    }

    /// Kills the entity: it keeps its components but updates and active
    /// lookups skip it until [`EntityMut::revive`]. Distinct from despawn.
    /// Fires `on_kill` on its components (once: killing a dead entity does
    /// nothing).
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Health(u32);
    /// let mut world = World::new();
    /// let id = world.spawn_with((Health(0),))?;
    /// let mut e = world.entity_mut(id)?;
    /// e.kill();
    /// assert!(e.is_dead());
    /// assert!(e.has::<Health>()); // components are kept
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn kill(&mut self) {
        self.set_killed(true);
    }

    /// Undoes [`EntityMut::kill`], firing `on_revive`.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let id = world.spawn();
    /// let mut e = world.entity_mut(id)?;
    /// e.kill();
    /// e.revive();
    /// assert!(!e.is_dead());
    /// assert!(world.entity(id)?.is_active());
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn revive(&mut self) {
        self.set_killed(false);
    }

    fn set_killed(&mut self, killed: bool) {
        let index = self.id().index;
        let world = self.world_mut();
        let slot = world.entities.slot(index);
        if slot.killed == killed {
            return;
        }
        let disabled = slot.disabled;
        world
            .storage
            .set_entity_state(&mut world.entities, index, disabled, killed);
        let hook = if killed { Hook::Kill } else { Hook::Revive };
        world.fire_on_entity(index, hook, false);
    }

    /// Whether the entity was killed (and not revived).
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let id = world.spawn();
    /// let mut e = world.entity_mut(id)?;
    /// assert!(!e.is_dead());
    /// e.kill();
    /// assert!(e.is_dead());
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn is_dead(&self) -> bool {
        self.as_ref().is_dead()
    }

    /// The entity's layer mask.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let id = world.spawn();
    /// let mut e = world.entity_mut(id)?;
    /// assert_eq!(e.layers(), ecs_core::DEFAULT_LAYERS);
    /// e.set_layers(0b100);
    /// assert_eq!(e.layers(), 0b100);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn layers(&self) -> u32 {
        self.as_ref().layers()
    }

    /// Replaces the entity's layer mask.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// const ENEMIES: u32 = 1 << 2;
    /// let mut world = World::new();
    /// let id = world.spawn();
    /// world.entity_mut(id)?.set_layers(ENEMIES | ecs_core::DEFAULT_LAYERS);
    /// assert_eq!(world.iter_in_layers(ENEMIES).collect::<Vec<_>>(), [id]);
    /// assert_eq!(world.entity(id)?.layers() & ENEMIES, ENEMIES);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn set_layers(&mut self, mask: u32) {
        let index = self.id().index;
        self.world_mut().set_layers_at(index, mask);
    }
}
