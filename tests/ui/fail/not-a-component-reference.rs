use ecs_core::prelude::*;

#[derive(Component)]
struct Health(u32);

fn main() {
    let mut world = World::new();
    let id = world.spawn();
    let health = Health(3);
    world.entity_mut(id).unwrap().add(&health).unwrap();
}
