//! Working with components known only by name (blueprints, editors,
//! consoles) and cloning whole entities through their erased `Clone`.

use crate::component::catalog::component_type;
use crate::component::ops::lacking;
use crate::entity::{EntityIndex, TypeIdx};
use crate::scene::spawn::{spawn_prepared, PreparedEntity};
use crate::world::instance::ComponentInfo;
use crate::world::prepared::Requirements;
use crate::world::World;
use crate::{EntityId, EntityMut, EntityRef, Error};

impl World {
    /// The index of the component type called `name`, registering it.
    fn type_by_name(&mut self, name: &str) -> Result<TypeIdx, Error> {
        let found = component_type(name)?;
        Ok(found.register(self))
    }

    /// The index of `name`'s type in this world, if any component of it (or
    /// derived from it) was ever added.
    fn known_type_by_name(&self, name: &str) -> Result<Option<TypeIdx>, Error> {
        let found = component_type(name)?;
        Ok(self.storage().types().index_of_id(found.type_id()))
    }

    /// A copy of the entity (and with `deep`, its subtree) as values to
    /// spawn, parents first; fails before anything is created when a
    /// component lacks `Clone` (or its `clone` panics).
    fn prepare_clone(&self, index: EntityIndex, deep: bool) -> Result<Vec<PreparedEntity>, Error> {
        let order = if deep {
            self.hierarchy().subtree(index)
        } else {
            vec![index]
        };
        // Where each entity of the subtree lands in the list; a parent is
        // listed before its children (`subtree` is depth-first, pre-order).
        let position: std::collections::HashMap<EntityIndex, usize> =
            order.iter().enumerate().map(|(at, &i)| (i, at)).collect();
        let mut list = Vec::with_capacity(order.len());
        for &entity in &order {
            let slot = &self.slot(entity);
            let mut prepared = PreparedEntity::new();
            prepared.name = self.name_of(entity).map(str::to_owned);
            prepared.enabled = !slot.disabled;
            prepared.killed = slot.killed;
            prepared.layers = Some(self.layers_of(entity));
            prepared.parent = match entity == index {
                true => None,
                false => self.hierarchy().parent(entity).map(|p| position[&p]),
            };
            for c in self.comps(entity) {
                let clone = self
                    .ops(c.ty)
                    .clone
                    .ok_or_else(|| lacking(self.storage().info(c.ty).key().name(), "`Clone`"))?;
                let (_, enabled) = self.instance_of(c);
                let values = self.storage().segment(c.seg).values();
                prepared
                    .components
                    .push((c.ty, clone(values, c.row.index()), enabled));
            }
            list.push(prepared);
        }
        Ok(list)
    }

    /// Clones an entity (Unity's `Instantiate`, Oddbox's `CloneTo`): a new
    /// root entity with a copy of every component, its name, layers and
    /// flags. Hooks fire on the copies as on fresh components.
    ///
    /// # Errors
    /// [`Error::NoSuchEntity`]; [`Error::Lacks`] naming the first component
    /// type that is not `Clone`, and then nothing is created.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component, Clone, Debug, PartialEq)]
    /// struct Health(u32);
    /// let mut world = World::new();
    /// let original = world.spawn_with((Health(3),))?;
    /// let copy = world.clone_entity(original)?;
    /// assert_eq!(world.entity(copy)?.get::<Health>(), Some(&Health(3)));
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn clone_entity(&mut self, id: EntityId) -> Result<EntityId, Error> {
        self.check(id)?;
        let prepared = self.prepare_clone(id.index, false)?;
        spawn_prepared(self, prepared, None, Requirements::Add)
    }

    /// Like [`World::clone_entity`], with the whole subtree (children in
    /// the same order).
    ///
    /// # Errors
    /// As [`World::clone_entity`], for any entity of the subtree.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component, Clone)]
    /// struct Wheel(u8);
    /// let mut world = World::new();
    /// let car = world.spawn_named("car");
    /// let wheel = world.spawn_with((Wheel(1),))?;
    /// world.set_parent(wheel, car)?;
    /// let copy = world.clone_tree(car)?;
    /// let copied_wheel = world.entity(copy)?.children().next().unwrap();
    /// assert_ne!(copied_wheel, wheel);
    /// assert_eq!(world.entity(copied_wheel)?.get::<Wheel>().unwrap().0, 1);
    /// assert_eq!(world.entity(copy)?.name(), Some("car"));
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn clone_tree(&mut self, id: EntityId) -> Result<EntityId, Error> {
        self.check(id)?;
        let prepared = self.prepare_clone(id.index, true)?;
        spawn_prepared(self, prepared, None, Requirements::Add)
    }
}

impl EntityMut<'_> {
    /// Adds the `Default` of the component type called `name` (plus its
    /// requirements, with hooks), as `add` would.
    ///
    /// # Errors
    /// [`Error::UnknownComponent`], [`Error::AmbiguousName`],
    /// [`Error::Lacks`] when the type has no `Default`, or
    /// [`Error::Duplicate`]; the entity is unchanged then.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component, Default)]
    /// #[component(name = "health")]
    /// struct Health(u32);
    /// let mut world = World::new();
    /// let id = world.spawn();
    /// world.entity_mut(id)?.add_by_name("health")?;
    /// assert!(world.entity(id)?.has::<Health>());
    /// assert!(world.entity_mut(id)?.add_by_name("helth").is_err());
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn add_by_name(&mut self, name: &str) -> Result<(), Error> {
        let index = self.id().index;
        let world = self.world_mut();
        let ty = world.type_by_name(name)?;
        let info_name = world.storage().info(ty).key().name();
        let default = world
            .ops(ty)
            .default
            .ok_or_else(|| lacking(info_name, "`Default`"))?;
        world.check_single_ty(index, ty, info_name)?;
        let before = world.comp_count(index);
        world.append_boxed(index, ty, default());
        let requirements = crate::component::require::Requirements::of(world.vtable(ty));
        world.apply_requirements_or_take_back(&requirements, index, before)?;
        world.fire_added_hooks(index, before);
        Ok(())
    }

    /// Removes the first component whose concrete type is called `name`;
    /// `Ok(false)` when the entity holds none.
    ///
    /// # Errors
    /// [`Error::UnknownComponent`] or [`Error::AmbiguousName`].
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// #[component(name = "health")]
    /// struct Health(u32);
    /// let mut world = World::new();
    /// let id = world.spawn_with((Health(3),))?;
    /// let mut e = world.entity_mut(id)?;
    /// assert_eq!(e.remove_by_name("health")?, true);
    /// assert_eq!(e.remove_by_name("health")?, false); // none left
    /// assert!(matches!(e.remove_by_name("helth"), Err(Error::UnknownComponent { .. })));
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn remove_by_name(&mut self, name: &str) -> Result<bool, Error> {
        let index = self.id().index;
        let world = self.world_mut();
        let Some(ty) = world.known_type_by_name(name)? else {
            return Ok(false);
        };
        let mut first = true;
        let removed = world.remove_where(index, |_, c| {
            let hit = first && c.ty == ty;
            first &= !hit;
            hit
        });
        Ok(removed > 0)
    }
}

impl<'w> EntityRef<'w> {
    /// Whether the entity holds a component that is-a the type called `name`.
    ///
    /// # Errors
    /// [`Error::UnknownComponent`] or [`Error::AmbiguousName`].
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Moving;
    /// #[derive(Component)]
    /// #[component(parent = Moving)]
    /// struct AxisMoving { base: Moving }
    /// let mut world = World::new();
    /// let id = world.spawn_with((AxisMoving { base: Moving },))?;
    /// assert!(world.entity(id)?.has_by_name("Moving")?); // is-a, by name
    /// assert!(world.entity(id)?.get::<Moving>().is_some());
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn has_by_name(&self, name: &str) -> Result<bool, Error> {
        Ok(self.get_by_name(name)?.is_some())
    }

    /// The first component that is-a the type called `name`: its name,
    /// instance id, enabled flag and `Debug` value.
    ///
    /// # Errors
    /// [`Error::UnknownComponent`] or [`Error::AmbiguousName`].
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component, Debug)]
    /// struct Health(u32);
    /// #[derive(Component)]
    /// struct Armor;
    /// let mut world = World::new();
    /// let id = world.spawn_with((Health(3),))?;
    /// world.spawn_with((Armor,))?; // makes `Armor` known to the world
    /// let e = world.entity(id)?;
    /// assert_eq!(format!("{:?}", e.get_by_name("Health")?.unwrap()), "Health(3)");
    /// assert!(e.get_by_name("Armor")?.is_none());
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn get_by_name(&self, name: &str) -> Result<Option<ComponentInfo<'w>>, Error> {
        let world = self.world();
        let Some(t) = world.known_type_by_name(name)? else {
            return Ok(None);
        };
        let index = self.id().index;
        let Some(pos) = world.position_of(index, t) else {
            return Ok(None);
        };
        Ok(self.components().nth(pos))
    }
}
