use ecs_core::prelude::*;

#[derive(Component)]
struct Health(u32);

fn main() -> Result<(), Error> {
    let mut world = World::new();
    let id = world.spawn();
    // `entity` gives a read-only `EntityRef`: adding needs `entity_mut`.
    world.entity(id)?.add(Health(3))?;
    Ok(())
}
