use ecs_core::prelude::*;
use ecs_core::UpdateWith;

#[derive(Component)]
#[component(multiple)]
struct Moving {
    speed: f32,
}

// A behaviour is never handed a component it is-a, even a `multiple` one.
#[derive(Component)]
#[component(parent = Moving, multiple, behaviour(with = Moving))]
struct AxisMoving {
    base: Moving,
}

impl Behaviour for AxisMoving {
    fn update(&mut self, _: &mut Context<'_>, _: f32) {}
}

impl UpdateWith<Moving> for AxisMoving {
    fn update_with(&mut self, _: &mut Context<'_>, _: &mut Moving, _: f32) {}
}

fn main() {}
