use ecs_core::prelude::*;

#[derive(Component)]
#[component(behaviour())]
struct Velocity(f32);

fn main() {}
