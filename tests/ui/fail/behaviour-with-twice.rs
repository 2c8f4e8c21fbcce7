use ecs_core::prelude::*;

#[derive(Component)]
struct Position(f32);

#[derive(Component)]
struct Health(u32);

#[derive(Component)]
#[component(behaviour(with = Position, with = Health))]
struct Velocity(f32);

fn main() {}
