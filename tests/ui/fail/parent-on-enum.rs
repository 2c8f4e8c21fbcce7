use ecs_core::prelude::*;

#[derive(Component)]
struct Moving {
    speed: f32,
}

#[derive(Component)]
#[component(parent = Moving)]
enum Motion {
    Walk(Moving),
    Stand,
}

fn main() {}
