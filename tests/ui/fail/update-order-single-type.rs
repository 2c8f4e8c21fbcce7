use ecs_core::prelude::*;

#[derive(Component)]
#[component(behaviour)]
struct Velocity(f32);

impl Behaviour for Velocity {
    fn update(&mut self, _ctx: &mut Context<'_>, _dt: f32) {}
}

fn main() {
    let mut world = World::new();
    // One type is still a tuple: `(Velocity,)`.
    world.set_update_order::<Velocity>();
}
