use ecs_core::prelude::*;

#[derive(Component)]
struct Position(f32);

#[derive(Component)]
#[component(behaviour(wiht = Position))]
struct Velocity(f32);

fn main() {}
