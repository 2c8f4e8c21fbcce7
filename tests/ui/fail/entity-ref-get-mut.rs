use ecs_core::prelude::*;

#[derive(Component)]
struct Health(u32);

fn main() -> Result<(), Error> {
    let mut world = World::new();
    let id = world.spawn_with((Health(3),))?;
    // `entity` gives a read-only `EntityRef`: writing needs `entity_mut`.
    world.entity(id)?.get_mut::<Health>().unwrap().0 -= 1;
    Ok(())
}
