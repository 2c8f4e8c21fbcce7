use ecs_core::prelude::*;

#[derive(Component)]
struct Position(f32);

fn main() {
    let mut world = World::new();
    world.set_update_order::<(Position,)>();
}
