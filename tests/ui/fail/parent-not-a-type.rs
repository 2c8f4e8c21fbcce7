use ecs_core::prelude::*;

#[derive(Component)]
#[component(parent = 3)]
struct AxisMoving {
    speed: f32,
}

fn main() {}
