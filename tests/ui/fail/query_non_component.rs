// A term whose type is not a component.
use ecs_core::prelude::*;

fn main() {
    let world = World::new();
    for (x,) in world.query::<(&f32,)>() {
        let _ = x;
    }
}
