use ecs_core::prelude::*;

#[derive(Component)]
struct Velocity(f32);

impl Behaviour for Velocity {
    fn update(&mut self, _: &mut Context<'_>, _: f32) {}
}

fn main() {}
