//! A first tour: a parent chain, multiple colliders, lookups through the
//! chain, and a duplicate refused with its error.
//!
//! Run with `cargo run --example showcase`.

use ecs_core::prelude::*;

#[derive(Component, Debug, Clone)]
struct Moving {
    speed: f32,
}

#[derive(Debug, Clone, Copy)]
enum Axis {
    X,
    Y,
}

/// Moves along one axis; is-a `Moving`.
#[derive(Component, Debug, Clone)]
#[component(parent = Moving)]
struct AxisMoving {
    base: Moving,
    axis: Axis,
}

/// Moves along one axis and slides to a halt; is-a `AxisMoving`, so is-a `Moving`.
#[derive(Component, Debug, Clone)]
#[component(parent = AxisMoving)]
struct Sliding(AxisMoving, f32);

#[derive(Component, Debug)]
#[component(multiple)]
struct Collider {
    radius: f32,
}

#[derive(Component, Debug)]
struct Health(u32);

#[derive(Component, Debug, Clone, Copy)]
struct Position {
    x: f32,
    y: f32,
}

fn main() -> Result<(), Error> {
    let mut world = World::new();

    let player = world.spawn_named("player");
    let mut e = world.entity_mut(player)?;
    e.add(Position { x: 0.0, y: 0.0 })?;
    e.add(AxisMoving {
        base: Moving { speed: 2.0 },
        axis: Axis::X,
    })?;
    e.add(Collider { radius: 1.0 })?;
    e.add(Collider { radius: 3.0 })?;
    e.add(Health(3))?;

    let crate_ = world.spawn_named("sliding crate");
    world.entity_mut(crate_)?.add(Sliding(
        AxisMoving {
            base: Moving { speed: 5.0 },
            axis: Axis::Y,
        },
        0.5,
    ))?;
    world.entity_mut(crate_)?.add(Position { x: 4.0, y: 4.0 })?;

    println!("key stack of Sliding: {:?}", Sliding::key_stack());
    for id in world.iter_ids().collect::<Vec<_>>() {
        let e = world.entity(id)?;
        let moving = e.get::<Moving>().expect("both entities move");
        let axis = e.get::<AxisMoving>().map(|a| a.axis);
        let radii: Vec<f32> = e.get_all::<Collider>().map(|c| c.radius).collect();
        println!(
            "{:<14} {:?}: Moving {{ speed: {} }} found through the parent chain, axis {:?}, friction {:?}, collider radii {:?}, health {:?}",
            e.name().unwrap_or("?"),
            id,
            moving.speed,
            axis,
            e.get::<Sliding>().map(|s| s.1),
            radii,
            e.get::<Health>().map(|h| h.0),
        );
    }

    // Three frames of movement: every Position with something that is-a Moving.
    for frame in 1..=3 {
        world.for_each_pair_mut(|pos: &mut Position, moving: &mut Moving| {
            pos.x += moving.speed;
            pos.y += moving.speed / 2.0;
        })?;
        for (id, pos) in world.iter::<Position>() {
            println!("frame {frame}: {id:?} at ({:.1}, {:.1})", pos.x, pos.y);
        }
    }

    println!("\nadding a second Moving to the player:");
    match world.entity_mut(player)?.add(Moving { speed: 1.0 }) {
        Ok(_) => println!("  unexpectedly accepted"),
        Err(error) => println!("  refused: {error}"),
    }

    let removed = world.entity_mut(player)?.remove::<AxisMoving>();
    println!(
        "\nremoved {removed:?}; the player now has Moving: {}",
        world.entity(player)?.has::<Moving>()
    );

    world.despawn(crate_)?;
    println!(
        "despawned the crate; its old id now answers: {:?}",
        world.entity(crate_).err()
    );
    println!("{} entity left: {:?}", world.len(), world.entity(player)?);
    Ok(())
}
