use ecs_core::prelude::*;

#[derive(Component)]
#[component(name = "")]
struct Collider {
    radius: f32,
}

fn main() {}
