use ecs_core::prelude::*;

#[derive(Component, Default)]
struct Transform;

#[derive(Component)]
#[component(requires = Transform)]
struct Enemy;

#[derive(Component)]
#[component(requires())]
struct Boss;

fn main() {}
