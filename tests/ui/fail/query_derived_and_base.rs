// A mutable base-type term and a shared derived-type term: an `AxisMoving`
// is-a `Moving`, so both could hand out the same component.
use ecs_core::prelude::*;

#[derive(Component)]
struct Moving {
    speed: f32,
}

#[derive(Component)]
#[component(parent = Moving)]
struct AxisMoving {
    base: Moving,
    vertical: bool,
}

fn main() {
    let mut world = World::new();
    for (moving, axis) in world.query_mut::<(&mut Moving, &AxisMoving)>() {
        moving.speed = if axis.vertical { 1.0 } else { 0.0 };
    }
}
