use ecs_core::prelude::*;

#[derive(Component)]
#[component(name = "Collider", multiple)]
#[component(multiple, name = "Shape")]
struct Collider {
    radius: f32,
}

fn main() {}
