use ecs_core::prelude::*;

#[derive(Component, Default)]
struct Moving {
    speed: f32,
}

#[derive(Component, Default)]
#[component(parent = Moving)]
struct AxisMoving {
    base: Moving,
}

// `Moving` is the grandparent: every `Diagonal` already is-a `Moving`.
#[derive(Component)]
#[component(parent = AxisMoving, requires(Moving))]
struct Diagonal {
    base: AxisMoving,
}

fn main() {}
