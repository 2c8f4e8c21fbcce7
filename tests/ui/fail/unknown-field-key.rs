use ecs_core::prelude::*;

#[derive(Component)]
struct Moving {
    speed: f32,
}

#[derive(Component)]
struct AxisMoving {
    #[component(parnet)]
    base: Moving,
    #[component(skip)]
    vertical: bool,
}

fn main() {}
