use ecs_core::prelude::*;

#[derive(Component)]
#[component(name = Collider)]
struct Collider {
    radius: f32,
}

#[derive(Component)]
#[component(name = 42)]
struct Sprite;

fn main() {}
