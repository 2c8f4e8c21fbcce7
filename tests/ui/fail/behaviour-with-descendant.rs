use ecs_core::prelude::*;
use ecs_core::UpdateWith;

// A behaviour is never handed a component that is-a its own type.
#[derive(Component)]
#[component(multiple, behaviour(with = AxisMoving))]
struct Moving {
    speed: f32,
}

#[derive(Component)]
#[component(parent = Moving, multiple)]
struct AxisMoving {
    base: Moving,
}

impl Behaviour for Moving {
    fn update(&mut self, _: &mut Context<'_>, _: f32) {}
}

impl UpdateWith<AxisMoving> for Moving {
    fn update_with(&mut self, _: &mut Context<'_>, _: &mut AxisMoving, _: f32) {}
}

fn main() {}
