use ecs_core::prelude::*;

#[derive(Component)]
struct Health(u32);

fn main() -> Result<(), Error> {
    let mut world = World::new();
    let id = world.spawn_with((Health(3),))?;
    // `entity` gives a read-only `EntityRef`: removing needs `entity_mut`.
    let _removed: Option<Health> = world.entity(id)?.remove::<Health>();
    Ok(())
}
