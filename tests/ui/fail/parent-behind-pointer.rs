use ecs_core::prelude::*;

#[derive(Component)]
struct Moving {
    speed: f32,
}

#[derive(Component)]
#[component(parent = Moving)]
struct AxisMoving {
    base: Box<Moving>,
}

#[derive(Component)]
struct Jumping {
    #[component(parent)]
    base: Option<Moving>,
}

fn main() {}
