use ecs_core::prelude::*;

#[derive(Component)]
#[component(name = "Health ")]
struct Health(u32);

fn main() {}
