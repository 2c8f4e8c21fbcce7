use ecs_core::prelude::*;

#[derive(Component)]
struct Moving {
    speed: f32,
}

#[derive(Component)]
enum Motion {
    Walk(#[component(parent)] Moving),
    #[component(multiple)]
    Stand,
}

#[derive(Component)]
struct Collider {
    #[component(multiple)]
    radius: f32,
    #[component(parent = Moving)]
    base: Moving,
}

fn main() {}
