use ecs_core::prelude::*;

#[derive(Default)]
struct Transform;

#[derive(Component)]
#[component(requires(Transform))]
struct Enemy;

fn main() {}
