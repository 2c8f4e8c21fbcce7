use ecs_core::prelude::*;
use ecs_core::UpdateWith;

#[derive(Component)]
#[component(behaviour(with = Self))]
struct Velocity(f32);

impl Behaviour for Velocity {
    fn update(&mut self, _: &mut Context<'_>, _: f32) {}
}

impl UpdateWith<Velocity> for Velocity {
    fn update_with(&mut self, _: &mut Context<'_>, _: &mut Velocity, _: f32) {}
}

fn main() {}
