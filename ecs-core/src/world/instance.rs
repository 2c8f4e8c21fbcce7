//! Instance ids, weak handles, and walking an entity's components.

use std::fmt;
use std::marker::PhantomData;

use crate::entity::{CompRef, EntityIndex, InstanceId, TypeIdx};
use crate::world::World;
use crate::{Component, ComponentKey, EntityId, EntityMut, EntityRef};

/// A weak, `Copy` reference to one component instance, seen as a `T`.
///
/// Resolve it through the world ([`World::resolve`]); it answers `None` once
/// the component is removed or its entity despawned, and never answers for a
/// component that later took the same storage slot.
///
/// ```
/// # use ecs_core::prelude::*;
/// #[derive(Component)]
/// #[component(multiple)]
/// struct Collider { radius: f32 }
///
/// let mut world = World::new();
/// let id = world.spawn_with((Collider { radius: 1.0 }, Collider { radius: 2.0 }))?;
/// let handles: Vec<Handle<Collider>> = world.entity(id)?.handles::<Collider>().collect();
/// assert_eq!(world.resolve(handles[1]).unwrap().radius, 2.0);
/// world.entity_mut(id)?.remove::<Collider>();          // removes the first one
/// assert!(world.resolve(handles[0]).is_none());
/// assert_eq!(world.resolve(handles[1]).unwrap().radius, 2.0);
/// # Ok::<(), ecs_core::Error>(())
/// ```
pub struct Handle<T> {
    entity: EntityId,
    instance: InstanceId,
    _marker: PhantomData<fn() -> T>,
}

impl<T> Handle<T> {
    /// The entity holding the component.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Health(u32);
    /// let mut world = World::new();
    /// let id = world.spawn_with((Health(3),))?;
    /// let handle = world.entity(id)?.handle::<Health>().unwrap();
    /// assert_eq!(handle.entity(), id);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn entity(self) -> EntityId {
        self.entity
    }

    /// The component's instance id.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Health(u32);
    /// let mut world = World::new();
    /// let id = world.spawn_with((Health(3),))?;
    /// let e = world.entity(id)?;
    /// let handle = e.handle::<Health>().unwrap();
    /// assert_eq!(e.get_by_instance::<Health>(handle.instance()).unwrap().0, 3);
    /// assert_eq!(Some(handle.instance()), e.components().next().map(|c| c.instance));
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn instance(self) -> InstanceId {
        self.instance
    }
}

impl<T> Clone for Handle<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Handle<T> {}
impl<T> PartialEq for Handle<T> {
    fn eq(&self, other: &Self) -> bool {
        self.entity == other.entity && self.instance == other.instance
    }
}
impl<T> Eq for Handle<T> {}
impl<T> std::hash::Hash for Handle<T> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (self.entity, self.instance).hash(state);
    }
}
impl<T: Component> fmt::Debug for Handle<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Handle<{}>({:?}, {:?})",
            T::NAME,
            self.entity,
            self.instance
        )
    }
}

/// One component of an entity, as listed by [`EntityRef::components`].
///
/// ```
/// # use ecs_core::prelude::*;
/// #[derive(Component, Debug)]
/// struct Health(u32);
/// let mut world = World::new();
/// let id = world.spawn_with((Health(3),))?;
/// world.entity_mut(id)?.disable::<Health>();
/// let e = world.entity(id)?;
/// let info: ecs_core::ComponentInfo<'_> = e.components().next().unwrap();
/// assert_eq!(info.key, ComponentKey::of::<Health>());
/// assert!(!info.enabled);
/// assert_eq!(format!("{:?}", info.value.unwrap()), "Health(3)");
/// assert_eq!(format!("{info:?}"), "Health(3) (disabled)");
/// # Ok::<(), ecs_core::Error>(())
/// ```
#[derive(Clone, Copy)]
pub struct ComponentInfo<'w> {
    /// The concrete type's key.
    pub key: ComponentKey,
    /// The instance id.
    pub instance: InstanceId,
    /// Whether the component is enabled.
    pub enabled: bool,
    /// The value as `Debug`, when its type implements `Debug` (non-generic
    /// types only; a generic type shows its name).
    pub value: Option<&'w dyn fmt::Debug>,
}

impl ComponentInfo<'_> {
    /// The concrete type's stable name.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// #[component(name = "hp")]
    /// struct Health(u32);
    /// let mut world = World::new();
    /// let id = world.spawn_with((Health(3),))?;
    /// assert_eq!(world.entity(id)?.components().next().unwrap().name(), "hp");
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn name(&self) -> &'static str {
        self.key.name()
    }
}

impl fmt::Debug for ComponentInfo<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.value {
            Some(value) => value.fmt(f)?,
            None => f.write_str(self.name())?,
        }
        if !self.enabled {
            f.write_str(" (disabled)")?;
        }
        Ok(())
    }
}

impl World {
    pub(crate) fn instance_of(&self, comp: CompRef) -> (InstanceId, bool) {
        let meta = self.meta_of(comp);
        let id = InstanceId {
            ty: comp.ty,
            serial: meta.serial(),
        };
        (id, meta.is_enabled())
    }

    /// The entry of the live entity's component with this instance id.
    pub(crate) fn comp_by_instance(
        &self,
        index: EntityIndex,
        instance: InstanceId,
    ) -> Option<(usize, CompRef)> {
        self.comps(index)
            .enumerate()
            .find(|(_, c)| c.ty == instance.ty && self.instance_of(*c).0 == instance)
    }

    /// The part that is-a `T` of one stored component.
    pub(crate) fn view<T: Component>(&self, comp: CompRef) -> Option<&T> {
        self.view_as(comp, self.type_idx::<T>()?)
    }

    /// Mutable twin of [`World::view`].
    pub(crate) fn view_mut<T: Component>(&mut self, comp: CompRef) -> Option<&mut T> {
        let t = self.type_idx::<T>()?;
        self.view_as_mut(comp, t)
    }

    /// [`World::view`] when the caller knows `t`, the index of `T`.
    #[inline]
    pub(crate) fn view_as<T: Component>(&self, comp: CompRef, t: TypeIdx) -> Option<&T> {
        self.storage.view_as(comp, t)
    }

    /// Mutable twin of [`World::view_as`].
    #[inline]
    pub(crate) fn view_as_mut<T: Component>(
        &mut self,
        comp: CompRef,
        t: TypeIdx,
    ) -> Option<&mut T> {
        self.storage.view_as_mut(comp, t)
    }

    /// The component a handle points at, while it lives.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Health(u32);
    /// let mut world = World::new();
    /// let id = world.spawn_with((Health(3),))?;
    /// let handle = world.entity(id)?.handle::<Health>().unwrap();
    /// assert_eq!(world.resolve(handle).unwrap().0, 3);
    /// world.despawn(id)?;
    /// assert!(world.resolve(handle).is_none());
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn resolve<T: Component>(&self, handle: Handle<T>) -> Option<&T> {
        self.check(handle.entity).ok()?;
        let (_, comp) = self.comp_by_instance(handle.entity.index, handle.instance)?;
        self.view(comp)
    }

    /// Mutable twin of [`World::resolve`].
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Health(u32);
    /// let mut world = World::new();
    /// let id = world.spawn_with((Health(3),))?;
    /// let handle = world.entity(id)?.handle::<Health>().unwrap();
    /// world.resolve_mut(handle).unwrap().0 = 7;
    /// assert_eq!(world.entity(id)?.get::<Health>().unwrap().0, 7);
    /// world.entity_mut(id)?.remove::<Health>();
    /// assert!(world.resolve_mut(handle).is_none());
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn resolve_mut<T: Component>(&mut self, handle: Handle<T>) -> Option<&mut T> {
        self.check(handle.entity).ok()?;
        let (_, comp) = self.comp_by_instance(handle.entity.index, handle.instance)?;
        self.view_mut(comp)
    }

    fn handles_of<T: Component>(&self, index: EntityIndex) -> impl Iterator<Item = Handle<T>> + '_ {
        let t = self.type_idx::<T>();
        let entity = self.id_at(index);
        self.comps(index)
            .filter(move |c| t.is_some_and(|t| self.storage.info(c.ty).is_a(c.ty, t)))
            .map(move |c| Handle {
                entity,
                instance: self.instance_of(c).0,
                _marker: PhantomData,
            })
    }

    fn component_infos(&self, index: EntityIndex) -> impl Iterator<Item = ComponentInfo<'_>> + '_ {
        self.comps(index).map(move |c| {
            let (instance, enabled) = self.instance_of(c);
            ComponentInfo {
                key: self.storage.info(c.ty).key(),
                instance,
                enabled,
                value: self.storage.debug(c.ty, c.seg, c.row),
            }
        })
    }
}

impl<'w> EntityRef<'w> {
    /// A weak handle to the first component that is-a `T`.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Moving { speed: f32 }
    /// #[derive(Component)]
    /// #[component(parent = Moving)]
    /// struct AxisMoving { base: Moving }
    /// let mut world = World::new();
    /// let id = world.spawn_with((AxisMoving { base: Moving { speed: 2.0 } },))?;
    /// let handle: Handle<Moving> = world.entity(id)?.handle::<Moving>().unwrap();
    /// assert_eq!(world.resolve(handle).unwrap().speed, 2.0);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn handle<T: Component>(&self) -> Option<Handle<T>> {
        self.handles::<T>().next()
    }

    /// Weak handles to every component that is-a `T`, in insertion order.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// #[component(multiple)]
    /// struct Collider { radius: f32 }
    /// let mut world = World::new();
    /// let id = world.spawn_with((Collider { radius: 1.0 }, Collider { radius: 2.0 }))?;
    /// let handles: Vec<Handle<Collider>> = world.entity(id)?.handles::<Collider>().collect();
    /// assert_eq!(handles.len(), 2);
    /// assert_eq!(world.resolve(handles[1]).unwrap().radius, 2.0);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn handles<T: Component>(&self) -> impl Iterator<Item = Handle<T>> + 'w {
        self.world().handles_of(self.id().index)
    }

    /// Every component, in insertion order, with its name, instance id,
    /// enabled flag and `Debug` value.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component, Debug)]
    /// struct Health(u32);
    /// #[derive(Component)]
    /// struct Opaque;
    /// let mut world = World::new();
    /// let id = world.spawn_with((Health(3), Opaque))?;
    /// let e = world.entity(id)?;
    /// let names: Vec<&str> = e.components().map(|c| c.name()).collect();
    /// assert_eq!(names, ["Health", "Opaque"]);
    /// assert_eq!(format!("{:?}", e.components().collect::<Vec<_>>()), "[Health(3), Opaque]");
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn components(&self) -> impl Iterator<Item = ComponentInfo<'w>> + 'w {
        self.world().component_infos(self.id().index)
    }

    /// The component with this instance id, seen as a `T`.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// #[component(multiple)]
    /// struct Tag(u8);
    /// let mut world = World::new();
    /// let id = world.spawn_with((Tag(1), Tag(2)))?;
    /// let e = world.entity(id)?;
    /// let second = e.components().nth(1).unwrap().instance;
    /// assert_eq!(e.get_by_instance::<Tag>(second).unwrap().0, 2);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn get_by_instance<T: Component>(&self, instance: InstanceId) -> Option<&'w T> {
        let world = self.world();
        let (_, comp) = world.comp_by_instance(self.id().index, instance)?;
        world.view(comp)
    }
}

impl EntityMut<'_> {
    /// A weak handle to the first component that is-a `T`.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Health(u32);
    /// let mut world = World::new();
    /// let id = world.spawn();
    /// let mut e = world.entity_mut(id)?;
    /// assert!(e.handle::<Health>().is_none());
    /// e.add(Health(3))?;
    /// let handle = e.handle::<Health>().unwrap();
    /// assert_eq!(world.resolve(handle).unwrap().0, 3);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn handle<T: Component>(&self) -> Option<Handle<T>> {
        self.as_ref().handle()
    }

    /// Every component, in insertion order; see [`EntityRef::components`].
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component, Debug)]
    /// struct Health(u32);
    /// let mut world = World::new();
    /// let id = world.spawn();
    /// let mut e = world.entity_mut(id)?;
    /// e.add(Health(3))?;
    /// assert_eq!(e.components().map(|c| c.name()).collect::<Vec<_>>(), ["Health"]);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn components(&self) -> impl Iterator<Item = ComponentInfo<'_>> + '_ {
        self.world().component_infos(self.id().index)
    }

    /// The component with this instance id, seen as a `T`.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// #[component(multiple)]
    /// struct Tag(u8);
    /// let mut world = World::new();
    /// let id = world.spawn_with((Tag(1), Tag(2)))?;
    /// let e = world.entity_mut(id)?;
    /// let first = e.components().next().unwrap().instance;
    /// assert_eq!(e.get_by_instance::<Tag>(first).unwrap().0, 1);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn get_by_instance<T: Component>(&self, instance: InstanceId) -> Option<&T> {
        let world = self.world();
        let (_, comp) = world.comp_by_instance(self.id().index, instance)?;
        world.view(comp)
    }

    /// Mutable twin of [`EntityMut::get_by_instance`].
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// #[component(multiple)]
    /// struct Tag(u8);
    /// let mut world = World::new();
    /// let id = world.spawn_with((Tag(1), Tag(2)))?;
    /// let mut e = world.entity_mut(id)?;
    /// let second = e.components().nth(1).unwrap().instance;
    /// e.get_by_instance_mut::<Tag>(second).unwrap().0 = 20;
    /// assert_eq!(e.get_all::<Tag>().map(|t| t.0).collect::<Vec<_>>(), [1, 20]);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn get_by_instance_mut<T: Component>(&mut self, instance: InstanceId) -> Option<&mut T> {
        let index = self.id().index;
        let world = self.world_mut();
        let (_, comp) = world.comp_by_instance(index, instance)?;
        world.view_mut(comp)
    }
}
