// A single term not wrapped in a tuple.
use ecs_core::prelude::*;

#[derive(Component)]
struct Position(f32);

fn main() {
    let world = World::new();
    for p in world.query::<&Position>() {
        let _ = p;
    }
}
