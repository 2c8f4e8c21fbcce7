//! A blueprint read from any text: parsing and spawning never panic, a
//! failed spawn leaves the world exactly as it was, and a world with what
//! was spawned still answers consistently and round-trips through a save.

#![no_main]

use ecs_core::prelude::*;
use ecs_core::Blueprint;
use ecs_fuzz::{check, AxisMoving, Moving, Tag};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(blueprint) = Blueprint::from_json(text) else {
        return;
    };
    let mut world = World::new();
    let holder = world.spawn_named("holder");
    world
        .entity_mut(holder)
        .unwrap()
        .add(AxisMoving {
            base: Moving { speed: 3 },
            vertical: true,
        })
        .unwrap();
    world.entity_mut(holder).unwrap().add(Tag(1)).unwrap();
    let before = world.save_json().unwrap();
    match world.spawn_blueprint(&blueprint) {
        Ok(id) => assert!(world.contains(id)),
        Err(_) => assert_eq!(
            world.save_json().unwrap(),
            before,
            "a failed spawn changes nothing"
        ),
    }
    world.apply_commands();
    check(&world);
});
