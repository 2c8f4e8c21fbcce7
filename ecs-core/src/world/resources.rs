//! Resources: typed singletons a world owns beside its entities (a clock,
//! a score, settings), at most one value per type.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use crate::table::TypeIdHasher;
use crate::World;

/// A world's resources, one value per type, keyed by `TypeId`.
///
/// Resources are not components: they live outside the columns, so a
/// running behaviour can borrow one while its own column is lent out.
#[derive(Default)]
pub(crate) struct Resources {
    values: HashMap<TypeId, Box<dyn Any + Send + Sync>, BuildHasherDefault<TypeIdHasher>>,
}

impl Resources {
    fn insert<R: Send + Sync + 'static>(&mut self, resource: R) -> Option<R> {
        let old = self.values.insert(TypeId::of::<R>(), Box::new(resource))?;
        // Every value is stored under its own type's id, so this cannot miss.
        old.downcast().ok().map(|old| *old)
    }

    fn get<R: Send + Sync + 'static>(&self) -> Option<&R> {
        self.values.get(&TypeId::of::<R>())?.downcast_ref()
    }

    fn get_mut<R: Send + Sync + 'static>(&mut self) -> Option<&mut R> {
        self.values.get_mut(&TypeId::of::<R>())?.downcast_mut()
    }

    fn remove<R: Send + Sync + 'static>(&mut self) -> Option<R> {
        let old = self.values.remove(&TypeId::of::<R>())?;
        old.downcast().ok().map(|old| *old)
    }

    fn get_or_insert_with<R: Send + Sync + 'static>(&mut self, make: impl FnOnce() -> R) -> &mut R {
        // A vacant entry is filled only once `make` returns: if it panics,
        // nothing is stored.
        self.values
            .entry(TypeId::of::<R>())
            .or_insert_with(|| Box::new(make()))
            .downcast_mut()
            .expect("every value is stored under its own type's id")
    }

    fn contains<R: Send + Sync + 'static>(&self) -> bool {
        self.values.contains_key(&TypeId::of::<R>())
    }

    /// Every resource, with its type's id (in no particular order).
    pub(crate) fn iter(&self) -> impl Iterator<Item = (TypeId, &(dyn Any + Send + Sync))> {
        self.values.iter().map(|(&ty, value)| (ty, &**value))
    }

    /// Stores a value read by name; `ty` is its type's id.
    pub(crate) fn insert_boxed(&mut self, ty: TypeId, value: Box<dyn Any + Send + Sync>) {
        self.values.insert(ty, value);
    }
}

impl World {
    pub(crate) fn resources(&self) -> &Resources {
        &self.resources
    }

    pub(crate) fn resources_mut(&mut self) -> &mut Resources {
        &mut self.resources
    }

    /// Stores `resource` as the world's one value of type `R`, and returns
    /// the value it replaces. Any `'static + Send + Sync` type can be a
    /// resource; it needs no derive. A resource whose type derives
    /// `Component` (which gives it a name) and serde's traits is saved and
    /// loaded with the world (see [`World::save`]); others are not saved.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// struct Score(u32);
    /// let mut world = World::new();
    /// assert!(world.insert_resource(Score(1)).is_none());
    /// let old = world.insert_resource(Score(2));
    /// assert_eq!(old.map(|s| s.0), Some(1));
    /// assert_eq!(world.get_resource::<Score>().unwrap().0, 2);
    /// ```
    pub fn insert_resource<R: Send + Sync + 'static>(&mut self, resource: R) -> Option<R> {
        self.resources.insert(resource)
    }

    /// The resource of type `R`, if the world has one.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// struct Gravity(f32);
    /// let mut world = World::new();
    /// assert!(world.get_resource::<Gravity>().is_none());
    /// world.insert_resource(Gravity(-9.8));
    /// assert_eq!(world.get_resource::<Gravity>().unwrap().0, -9.8);
    /// ```
    pub fn get_resource<R: Send + Sync + 'static>(&self) -> Option<&R> {
        self.resources.get()
    }

    /// Mutable twin of [`World::get_resource`].
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// struct Score(u32);
    /// let mut world = World::new();
    /// world.insert_resource(Score(0));
    /// world.get_resource_mut::<Score>().unwrap().0 += 5;
    /// assert_eq!(world.get_resource::<Score>().unwrap().0, 5);
    /// ```
    pub fn get_resource_mut<R: Send + Sync + 'static>(&mut self) -> Option<&mut R> {
        self.resources.get_mut()
    }

    /// The resource of type `R`, inserted first from `make` when the world
    /// has none (`make` is not called otherwise).
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Default)]
    /// struct Frames(u64);
    /// let mut world = World::new();
    /// world.get_resource_or_insert_with(Frames::default).0 += 1;
    /// world.get_resource_or_insert_with(Frames::default).0 += 1;
    /// assert_eq!(world.get_resource::<Frames>().unwrap().0, 2);
    /// ```
    pub fn get_resource_or_insert_with<R: Send + Sync + 'static>(
        &mut self,
        make: impl FnOnce() -> R,
    ) -> &mut R {
        self.resources.get_or_insert_with(make)
    }

    /// Takes the resource of type `R` out of the world.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// struct Paused;
    /// let mut world = World::new();
    /// world.insert_resource(Paused);
    /// assert!(world.remove_resource::<Paused>().is_some());
    /// assert!(world.remove_resource::<Paused>().is_none());
    /// assert!(!world.contains_resource::<Paused>());
    /// ```
    pub fn remove_resource<R: Send + Sync + 'static>(&mut self) -> Option<R> {
        self.resources.remove()
    }

    /// Whether the world has a resource of type `R`.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// struct Paused;
    /// let mut world = World::new();
    /// assert!(!world.contains_resource::<Paused>());
    /// world.insert_resource(Paused);
    /// assert!(world.contains_resource::<Paused>());
    /// ```
    pub fn contains_resource<R: Send + Sync + 'static>(&self) -> bool {
        self.resources.contains::<R>()
    }
}
