use ecs_core::prelude::*;

struct Moving {
    speed: f32,
}

#[derive(Component)]
#[component(parent = Moving)]
struct AxisMoving {
    base: Moving,
    vertical: bool,
}

fn main() {}
