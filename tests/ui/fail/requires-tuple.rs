use ecs_core::prelude::*;

#[derive(Component, Default)]
struct Transform;

#[derive(Component, Default)]
struct Health(u32);

#[derive(Component)]
#[component(requires((Transform, Health)))]
struct Enemy;

fn main() {}
