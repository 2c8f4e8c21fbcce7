use ecs_core::prelude::*;

#[derive(Component)]
#[component(behaviour = true)]
struct Velocity(f32);

fn main() {}
