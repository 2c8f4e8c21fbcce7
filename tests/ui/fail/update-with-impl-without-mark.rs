use ecs_core::prelude::*;
use ecs_core::UpdateWith;

#[derive(Component)]
struct Position(f32);

#[derive(Component)]
#[component(behaviour)]
struct Velocity(f32);

impl Behaviour for Velocity {
    fn update(&mut self, _: &mut Context<'_>, _: f32) {}
}

impl UpdateWith<Position> for Velocity {
    fn update_with(&mut self, _: &mut Context<'_>, position: &mut Position, dt: f32) {
        position.0 += self.0 * dt;
    }
}

fn main() {}
