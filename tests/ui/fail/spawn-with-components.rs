use ecs_core::prelude::*;

#[derive(Component)]
struct Health(u32);

fn main() {
    let mut world = World::new();
    world.spawn((Health(1),));
}
