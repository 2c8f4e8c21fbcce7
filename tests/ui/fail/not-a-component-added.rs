use ecs_core::prelude::*;

struct Health(u32);

fn main() {
    let mut world = World::new();
    let id = world.spawn();
    world.entity_mut(id).unwrap().add(Health(3)).unwrap();
}
