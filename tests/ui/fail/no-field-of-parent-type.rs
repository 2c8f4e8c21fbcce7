use ecs_core::prelude::*;

#[derive(Component)]
struct Moving {
    speed: f32,
}

#[derive(Component)]
#[component(parent = Moving)]
struct AxisMoving {
    speed: f32,
    vertical: bool,
}

#[derive(Component)]
#[component(parent = Moving)]
struct Unit;

fn main() {}
