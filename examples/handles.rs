//! A collision manager that keeps weak handles to colliders across frames
//! (Lifish's `weak_ptr`), and sees them go away when an entity is despawned.
//!
//! Run with `cargo run --example handles`.

use ecs_core::prelude::*;

#[derive(Component, Debug)]
#[component(multiple)]
struct Collider {
    x: f32,
    radius: f32,
}

/// Keeps colliders between frames without owning them.
#[derive(Default)]
struct CollisionManager {
    tracked: Vec<Handle<Collider>>,
}

impl CollisionManager {
    fn track(&mut self, world: &World, id: EntityId) -> Result<(), Error> {
        self.tracked.extend(world.entity(id)?.handles::<Collider>());
        Ok(())
    }

    /// Pairs of overlapping colliders; forgets handles whose collider is gone.
    fn step(&mut self, world: &World) -> Vec<(EntityId, EntityId)> {
        self.tracked.retain(|h| world.resolve(*h).is_some());
        let mut hits = Vec::new();
        for (i, a) in self.tracked.iter().enumerate() {
            for b in &self.tracked[i + 1..] {
                let (ca, cb) = (world.resolve(*a).unwrap(), world.resolve(*b).unwrap());
                if a.entity() != b.entity() && (ca.x - cb.x).abs() < ca.radius + cb.radius {
                    hits.push((a.entity(), b.entity()));
                }
            }
        }
        hits
    }
}

fn main() -> Result<(), Error> {
    let mut world = World::new();
    let mut manager = CollisionManager::default();
    let player = world.spawn_with((
        Collider {
            x: 0.0,
            radius: 1.0,
        },
        Collider {
            x: 0.5,
            radius: 0.2,
        },
    ))?;
    let enemy = world.spawn_with((Collider {
        x: 1.5,
        radius: 1.0,
    },))?;
    manager.track(&world, player)?;
    manager.track(&world, enemy)?;
    println!(
        "frame 1: {} colliders tracked, hits {:?}",
        manager.tracked.len(),
        manager.step(&world)
    );

    let first = manager.tracked[0];
    world.resolve_mut(first).expect("alive").x = -5.0;
    println!("moved {first:?} away; hits {:?}", manager.step(&world));

    world.despawn(enemy)?;
    let hits = manager.step(&world);
    println!(
        "enemy despawned: {} colliders tracked, hits {hits:?}",
        manager.tracked.len()
    );
    Ok(())
}
