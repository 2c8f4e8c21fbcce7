use ecs_core::prelude::*;

#[derive(Component)]
struct Moving {
    speed: f32,
}

#[derive(Component)]
#[component(parent = Moving, multiple)]
struct AxisMoving {
    base: Moving,
    vertical: bool,
}

fn main() {}
