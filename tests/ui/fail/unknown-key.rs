use ecs_core::prelude::*;

#[derive(Component)]
#[component(mutliple)]
struct Collider {
    radius: f32,
}

#[derive(Component)]
#[component(colour = "red")]
struct Sprite;

fn main() {}
