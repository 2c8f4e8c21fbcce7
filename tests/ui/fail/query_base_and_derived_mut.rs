// A shared base-type term and a mutable derived-type term.
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
    for (moving, axis) in world.query_mut::<(&Moving, &mut AxisMoving)>() {
        axis.vertical = moving.speed > 0.0;
    }
}
