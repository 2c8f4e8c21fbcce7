//! Working with components known only by name (blueprints, editors,
//! consoles) and cloning whole entities through their erased `Clone`.

use crate::component::catalog::component_type;
use crate::component::ops::lacking;
use crate::entity::{EntityIndex, TypeIdx};
use crate::scene::spawn::PreparedEntity;
use crate::world::instance::ComponentInfo;
use crate::world::World;
use crate::{EntityMut, EntityRef, Error};

/// The index of the component type called `name`, registering it.
fn type_by_name(world: &mut World, name: &str) -> Result<TypeIdx, Error> {
    let found = component_type(name)?;
    Ok(found.register(world))
}

/// The index of `name`'s type in `world`, if any component of it (or
/// derived from it) was ever added.
fn known_type_by_name(world: &World, name: &str) -> Result<Option<TypeIdx>, Error> {
    let found = component_type(name)?;
    Ok(world.storage().types().index_of_id(found.type_id()))
}

/// A copy of the entity (and with `deep`, its subtree) as values to
/// spawn, parents first; fails before anything is created when a
/// component lacks `Clone` (or its `clone` panics).
pub(crate) fn prepare_clone(
    world: &World,
    index: EntityIndex,
    deep: bool,
) -> Result<Vec<PreparedEntity>, Error> {
    let order = if deep {
        world.hierarchy().subtree(index)
    } else {
        vec![index]
    };
    // Where each entity of the subtree lands in the list; a parent is
    // listed before its children (`subtree` is depth-first, pre-order).
    let position: std::collections::HashMap<EntityIndex, usize> =
        order.iter().enumerate().map(|(at, &i)| (i, at)).collect();
    let mut list = Vec::with_capacity(order.len());
    for &entity in &order {
        let slot = &world.slot(entity);
        let mut prepared = PreparedEntity::new();
        prepared.name = world.name_of(entity).map(str::to_owned);
        prepared.enabled = !slot.disabled;
        prepared.killed = slot.killed;
        prepared.layers = Some(world.layers_of(entity));
        prepared.parent = match entity == index {
            true => None,
            false => world.hierarchy().parent(entity).map(|p| position[&p]),
        };
        for c in world.comps(entity) {
            let clone = world
                .ops(c.ty)
                .clone
                .map(|c| c.one)
                .ok_or_else(|| lacking(world.storage().info(c.ty).key().name(), "`Clone`"))?;
            let (_, enabled) = world.instance_of(c);
            let values = world.storage().segment(c.seg).values();
            prepared
                .components
                .push((c.ty, clone(values, c.row.index()), enabled));
        }
        list.push(prepared);
    }
    Ok(list)
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
    /// ```rust,standalone_crate
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
        let ty = type_by_name(world, name)?;
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
    /// ```rust,standalone_crate
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
        let Some(ty) = known_type_by_name(world, name)? else {
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
    /// ```rust,standalone_crate
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
    /// ```rust,standalone_crate
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
        let Some(t) = known_type_by_name(world, name)? else {
            return Ok(None);
        };
        let index = self.id().index;
        let Some(pos) = world.position_of(index, t) else {
            return Ok(None);
        };
        Ok(self.components().nth(pos))
    }
}
