use ecs_core::prelude::*;
use ecs_core::UpdateWith;

// The typo is the only error: the derive still implements `Component` and
// the declarations of the other keys, so the uses and impls below do not add
// "`Health` is not a component" or "is not marked" errors.
#[derive(Component)]
#[component(nmae = "HP", behaviour(with = Position), receives(Heal))]
struct Health(u32);

#[derive(Component)]
struct Position(f32);

struct Heal(u32);

impl Behaviour for Health {
    fn update(&mut self, _: &mut Context<'_>, _: f32) {}
}

impl UpdateWith<Position> for Health {
    fn update_with(&mut self, _: &mut Context<'_>, _: &mut Position, _: f32) {}
}

impl Receive<Heal> for Health {
    fn receive(&mut self, _: &mut Context<'_>, heal: &Heal) {
        self.0 += heal.0;
    }
}

fn heal<C: Component>(_: &C) {}

fn main() {
    let mut world = World::new();
    let id = world.spawn();
    world.entity_mut(id).unwrap().add(Health(3)).unwrap();
    heal(&Health(1));
    let _ = Health::key_stack();
}
