use ecs_core::prelude::*;

// The typo is the only error: the derive still implements `Component`, so
// the uses below do not add "`Health` is not a component" errors.
#[derive(Component)]
#[component(nmae = "HP")]
struct Health(u32);

fn heal<C: Component>(_: &C) {}

fn main() {
    let mut world = World::new();
    let id = world.spawn();
    world.entity_mut(id).unwrap().add(Health(3)).unwrap();
    heal(&Health(1));
    let _ = Health::key_stack();
}
