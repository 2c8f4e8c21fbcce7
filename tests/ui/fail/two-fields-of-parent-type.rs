use ecs_core::prelude::*;

#[derive(Component)]
struct Moving {
    speed: f32,
}

#[derive(Component)]
#[component(parent = Moving)]
struct Twin {
    left: Moving,
    right: Moving,
}

fn main() {}
