use ecs_core::prelude::*;

#[derive(Component)]
struct Inventory {
    items: Vec<String>,
}

fn main() {
    let mut world = World::new();
    let a = world.spawn();
    let b = world.spawn();
    let inventory = Inventory { items: vec![] };
    world.entity_mut(a).unwrap().add(inventory).unwrap();
    world.entity_mut(b).unwrap().add(inventory).unwrap();
}
