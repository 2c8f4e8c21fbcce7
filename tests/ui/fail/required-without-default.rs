use ecs_core::prelude::*;

#[derive(Component)]
struct Health(u32);

#[derive(Component)]
#[component(requires(Health))]
struct Enemy;

fn main() {}
