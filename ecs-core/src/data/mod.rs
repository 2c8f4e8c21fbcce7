//! The data layer: codecs, by-name operations, cloning, blueprints,
//! save/load and the inspector.

mod api;
pub(crate) mod blueprint;
pub(crate) mod codec;
pub(crate) mod dynamic;
pub(crate) mod format;
pub(crate) mod inspect;
pub(crate) mod patch;
pub(crate) mod refs;
pub(crate) mod save;
pub(crate) mod variant;

impl crate::ComponentType {
    /// Registers the type in `world` (its ancestors too) and gives its
    /// index there.
    pub(crate) fn register(&self, world: &mut crate::World) -> crate::entity::TypeIdx {
        world.register_vtable(self.vtable())
    }
}

#[cfg(all(test, not(feature = "catalog")))]
mod tests {
    use crate::prelude::*;

    #[derive(Component, Default)]
    struct Lonely;

    #[derive(Component, Default)]
    struct Called;

    /// Without the link-time catalog a type is found by name once a world
    /// stored one, or once registered.
    #[test]
    fn a_type_is_found_by_name_once_stored_or_registered() {
        assert!(matches!(
            crate::component_type("Lonely"),
            Err(Error::UnknownComponent { .. })
        ));
        let mut world = World::new();
        world.spawn_with((Lonely,)).unwrap();
        assert_eq!(crate::component_type("Lonely").unwrap().name(), "Lonely");
        assert!(crate::component_type("Called").is_err());
        crate::register::<Called>();
        let id = world.spawn();
        world.entity_mut(id).unwrap().add_by_name("Called").unwrap();
        assert!(world.entity(id).unwrap().has::<Called>());
    }
}
