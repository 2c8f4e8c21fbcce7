// A mutable term in a read-only query: `query_mut` is the one that writes.
use ecs_core::prelude::*;

#[derive(Component)]
struct Position(f32);

fn main() {
    let world = World::new();
    for (p,) in world.query::<(&mut Position,)>() {
        p.0 = 0.0;
    }
}
