use ecs_core::prelude::*;

#[derive(Component)]
#[component(receives = TakeDamage)]
struct Health(u32);

fn main() {}
