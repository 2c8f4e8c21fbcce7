//! A user crate that forbids `unsafe` can still derive components: the
//! generated code (and the name catalog's link-time registration) does not
//! trip the lint.
#![forbid(unsafe_code)]

use ecs_core::prelude::*;

#[derive(Component, Debug, Default)]
struct Health(u32);

fn main() {
    let mut world = World::new();
    let id = world.spawn();
    world.entity_mut(id).unwrap().add_by_name("Health").unwrap();
    assert_eq!(world.entity(id).unwrap().get::<Health>().map(|h| h.0), Some(0));
}
