use ecs_core::prelude::*;

fn main() {
    let mut world = World::new();
    let id = world.spawn();
    world.entity_mut(id).unwrap().add(2.5_f32).unwrap();
}
