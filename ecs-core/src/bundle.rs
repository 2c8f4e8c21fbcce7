//! Spawning an entity with several components at once.

use crate::{Component, EntityId, Error, World};

/// A tuple of components spawned together by [`World::spawn_with`] and
/// [`World::spawn_batch`]; implemented for tuples of up to 16 components.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a bundle of components",
    label = "expected a tuple of components",
    note = "pass a tuple such as `(Position(0.0), Velocity(1.0))`; every element must `#[derive(Component)]`; a single component is written `(Health(3),)`"
)]
pub trait Bundle: Send + Sync + 'static {
    /// Makes room for `additional` more bundles in every column involved.
    fn reserve(world: &mut World, additional: usize);

    /// Adds every component to the entity in slot `index`, in tuple order.
    #[doc(hidden)]
    fn __insert(self, world: &mut World, index: u32) -> Result<(), Error>;
}

macro_rules! tuple_bundle {
    ($($name:ident),+) => {
        impl<$($name: Component),+> Bundle for ($($name,)+) {
            fn reserve(world: &mut World, additional: usize) {
                $(world.reserve::<$name>(additional);)+
            }

            #[allow(non_snake_case)]
            fn __insert(self, world: &mut World, index: u32) -> Result<(), Error> {
                let ($($name,)+) = self;
                $(world.insert(index, $name)?;)+
                Ok(())
            }
        }
    };
}

tuple_bundle!(A);
tuple_bundle!(A, B);
tuple_bundle!(A, B, C);
tuple_bundle!(A, B, C, D);
tuple_bundle!(A, B, C, D, E);
tuple_bundle!(A, B, C, D, E, F);
tuple_bundle!(A, B, C, D, E, F, G);
tuple_bundle!(A, B, C, D, E, F, G, H);
tuple_bundle!(A, B, C, D, E, F, G, H, I);
tuple_bundle!(A, B, C, D, E, F, G, H, I, J);
tuple_bundle!(A, B, C, D, E, F, G, H, I, J, K);
tuple_bundle!(A, B, C, D, E, F, G, H, I, J, K, L);
tuple_bundle!(A, B, C, D, E, F, G, H, I, J, K, L, M);
tuple_bundle!(A, B, C, D, E, F, G, H, I, J, K, L, M, N);
tuple_bundle!(A, B, C, D, E, F, G, H, I, J, K, L, M, N, O);
tuple_bundle!(A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P);

impl World {
    /// Spawns an entity holding every component of `bundle`, added in tuple
    /// order.
    ///
    /// # Errors
    /// [`Error::Duplicate`] when the bundle holds two components that are-a
    /// the same single type; then no entity is created.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Position(f32);
    /// #[derive(Component)]
    /// struct Velocity(f32);
    /// let mut world = World::new();
    /// let id = world.spawn_with((Position(0.0), Velocity(1.0)))?;
    /// assert!(world.entity(id)?.has::<Velocity>());
    /// assert!(world.spawn_with((Position(0.0), Position(1.0))).is_err());
    /// assert_eq!(world.len(), 1);
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn spawn_with<B: Bundle>(&mut self, bundle: B) -> Result<EntityId, Error> {
        let id = self.spawn();
        match bundle.__insert(self, id.index) {
            Ok(()) => Ok(id),
            Err(error) => {
                self.despawn(id).expect("the entity was just spawned");
                Err(error)
            }
        }
    }

    /// Spawns one entity per bundle, reserving storage up front from the
    /// iterator's size hint so columns are not over-allocated.
    ///
    /// # Errors
    /// As [`World::spawn_with`]; on error, every entity this call spawned is
    /// despawned again.
    pub fn spawn_batch<B, I>(&mut self, bundles: I) -> Result<Vec<EntityId>, Error>
    where
        B: Bundle,
        I: IntoIterator<Item = B>,
    {
        let bundles = bundles.into_iter();
        let additional = bundles.size_hint().0;
        self.reserve_entities(additional);
        B::reserve(self, additional);
        let mut ids = Vec::with_capacity(additional);
        for bundle in bundles {
            match self.spawn_with(bundle) {
                Ok(id) => ids.push(id),
                Err(error) => {
                    for id in ids {
                        self.despawn(id).expect("spawned by this call");
                    }
                    return Err(error);
                }
            }
        }
        Ok(ids)
    }
}
