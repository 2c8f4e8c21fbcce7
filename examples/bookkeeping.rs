//! Entity bookkeeping: instance ids, names, layers, enable/disable,
//! kill/revive, required components, remove-all.
//!
//! Run with `cargo run --example bookkeeping`.

use ecs_core::prelude::*;

#[derive(Component, Debug, Default)]
struct Transform {
    x: i32,
    y: i32,
}

#[derive(Component, Debug)]
struct Health(u32);

impl Default for Health {
    fn default() -> Self {
        Health(3)
    }
}

/// Every enemy needs a place and a life: they are added if missing.
#[derive(Component, Debug)]
#[component(requires(Transform, Health))]
struct Enemy;

#[derive(Component, Debug)]
#[component(multiple)]
struct Sprite(&'static str);

const WORLD_LAYER: u32 = 1;
const UI_LAYER: u32 = 1 << 4;

fn main() -> Result<(), Error> {
    let mut world = World::new();
    let goblin = world.spawn_named("goblin");
    world.entity_mut(goblin)?.add(Enemy)?;
    world.entity_mut(goblin)?.add(Sprite("body"))?;
    world.entity_mut(goblin)?.add(Sprite("hat"))?;
    let hud = world.spawn_named("hud");
    world.entity_mut(hud)?.set_layers(UI_LAYER);

    println!("{:?}", world.entity(goblin)?);
    for info in world.entity(goblin)?.components() {
        println!(
            "  {:<10} id {:?} enabled {}",
            info.name(),
            info.instance,
            info.enabled
        );
    }

    let hat = world
        .entity(goblin)?
        .components()
        .last()
        .expect("has components")
        .instance;
    world.entity_mut(goblin)?.set_instance_enabled(hat, false)?;
    let visible: Vec<&str> = world
        .entity(goblin)?
        .get_all_filtered::<Sprite>(Filter::Enabled)
        .map(|s| s.0)
        .collect();
    println!("visible sprites after hiding the hat: {visible:?}");

    println!(
        "on the world layer: {:?}",
        world.iter_in_layers(WORLD_LAYER).collect::<Vec<_>>()
    );
    println!(
        "on the UI layer:    {:?}",
        world.iter_in_layers(UI_LAYER).collect::<Vec<_>>()
    );

    world.entity_mut(goblin)?.kill();
    println!(
        "killed: dead {} / still holds Health {:?} / active healths {}",
        world.entity(goblin)?.is_dead(),
        world.entity(goblin)?.get::<Health>().map(|h| h.0),
        world.iter_active::<Health>().count()
    );
    world.entity_mut(goblin)?.revive();
    println!(
        "revived: active healths {}",
        world.iter_active::<Health>().count()
    );

    world.entity_mut(goblin)?.set_name(Some("hobgoblin"));
    println!(
        "find_by_name(\"hobgoblin\") = {:?}",
        world.find_by_name("hobgoblin")
    );
    let removed = world.entity_mut(goblin)?.remove_all::<Sprite>();
    println!("removed {removed} sprites; now {:?}", world.entity(goblin)?);
    let t = world.entity(goblin)?.get::<Transform>().map(|t| (t.x, t.y));
    println!("transform {t:?}");
    Ok(())
}
