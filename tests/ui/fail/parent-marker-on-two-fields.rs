use ecs_core::prelude::*;

#[derive(Component)]
struct Moving {
    speed: f32,
}

#[derive(Component)]
struct Twin {
    #[component(parent)]
    left: Moving,
    #[component(parent)]
    right: Moving,
}

fn main() {}
