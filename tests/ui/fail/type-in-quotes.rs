use ecs_core::prelude::*;

#[derive(Component, Default)]
struct Moving {
    speed: f32,
}

#[derive(Component)]
#[component(parent = "Moving")]
struct AxisMoving {
    base: Moving,
}

#[derive(Component)]
#[component(requires("Moving"), behaviour(with = "Moving"))]
struct Enemy;

fn main() {}
