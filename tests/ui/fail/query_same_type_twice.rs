// A query that reads a component type mutably and shares it again.
use ecs_core::prelude::*;

#[derive(Component)]
struct Position(f32);

fn main() {
    let mut world = World::new();
    for (a, b) in world.query_mut::<(&mut Position, &Position)>() {
        a.0 = b.0;
    }
}
