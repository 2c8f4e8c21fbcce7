use ecs_core::prelude::*;

#[derive(Component, Default)]
struct Moving {
    speed: f32,
}

#[derive(Component)]
#[component(parent = Moving, requires(Moving))]
struct AxisMoving {
    base: Moving,
}

fn main() {}
