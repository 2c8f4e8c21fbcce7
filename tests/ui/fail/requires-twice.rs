use ecs_core::prelude::*;

#[derive(Component, Default)]
struct Transform;

#[derive(Component)]
#[component(requires(Transform, Transform))]
struct Enemy;

fn main() {}
