use ecs_core::prelude::*;

#[derive(Component)]
struct Moving {
    speed: f32,
}

#[derive(Component)]
struct Jumping {
    height: f32,
}

#[derive(Component)]
#[component(parent = Moving)]
struct Hopper {
    #[component(parent)]
    base: Jumping,
}

fn main() {}
