use ecs_core::prelude::*;

#[derive(Component)]
struct Health(u32);

#[derive(Component)]
struct Mana(u32);

fn main() {
    let mut world = World::new();
    let id = world.spawn_with((Health(3), Mana(2))).unwrap();
    let entity = world.entity(id).unwrap();
    let _ = entity.get::<(Health, Mana)>();
}
