//! Collisions, Lifish style: a manager keeps weak handles to every collider
//! (it owns nothing, and forgets the handles that no longer resolve once
//! their entity is gone) and, each frame, tells the entities that touch.

use ecs_core::prelude::*;

use crate::components::{AxisMoving, Collect, Collider, Dir, Hit, Position, PowerUp, Role};
use crate::enemies::Enemy;
use crate::player::Player;

/// Weak handles to the colliders, as a world resource ([`crate::level::spawn_at`]
/// adds to it).
#[derive(Default, Debug)]
pub struct Colliders {
    tracked: Vec<Handle<Collider>>,
    forgotten: usize,
}

/// One collider that takes part this frame.
struct Live {
    id: EntityId,
    role: Role,
    radius: f32,
    at: (f32, f32),
    cell: Position,
    enemy: bool,
    player: bool,
    pickup: bool,
}

impl Colliders {
    /// Starts watching these colliders.
    pub fn track(&mut self, handles: impl IntoIterator<Item = Handle<Collider>>) {
        self.tracked.extend(handles);
    }

    /// Handles watched / handles dropped so far because their component went away.
    pub fn counts(&self) -> (usize, usize) {
        (self.tracked.len(), self.forgotten)
    }
}

/// Where an entity is, between cells while it steps.
fn centre(e: &EntityRef<'_>, cell: Position) -> (f32, f32) {
    let (mut x, mut y) = (cell.x as f32, cell.y as f32);
    if let Some(m) = e.get::<AxisMoving>() {
        if let Some(dir) = m.dir {
            let (dx, dy) = match dir {
                Dir::Up => (0.0, -1.0),
                Dir::Down => (0.0, 1.0),
                Dir::Left => (-1.0, 0.0),
                Dir::Right => (1.0, 0.0),
            };
            (x, y) = (x + dx * m.progress, y + dy * m.progress);
        }
    }
    (x, y)
}

/// One frame of collisions: fire hurts the bodies it touches, an enemy's
/// body hurts the player's, an enemy whose sight touches the player chases
/// it, and the player's body picks power-ups up. Disabled colliders and
/// inactive entities take no part.
pub fn step(world: &mut World) -> Result<(), Error> {
    let Some(mut colliders) = world.remove_resource::<Colliders>() else {
        return Ok(());
    };
    let before = colliders.tracked.len();
    colliders.tracked.retain(|&h| world.resolve(h).is_some());
    colliders.forgotten += before - colliders.tracked.len();

    let mut live = Vec::new();
    for &h in &colliders.tracked {
        let (e, c) = (world.entity(h.entity())?, world.resolve(h).expect("kept"));
        let enabled = e
            .components()
            .any(|i| i.instance == h.instance() && i.enabled);
        if let (true, true, Some(&cell)) = (enabled, e.is_active(), e.get::<Position>()) {
            live.push(Live {
                id: e.id(),
                role: c.role,
                radius: c.radius,
                at: centre(&e, cell),
                cell,
                enemy: e.has::<Enemy>(),
                player: e.has::<Player>(),
                pickup: e.has::<PowerUp>(),
            });
        }
    }
    world.insert_resource(colliders);

    let (mut hits, mut sightings, mut pickups) = (Vec::new(), Vec::new(), Vec::new());
    for a in &live {
        for b in &live {
            let (dx, dy) = (a.at.0 - b.at.0, a.at.1 - b.at.1);
            if a.id == b.id || dx.hypot(dy) >= a.radius + b.radius || b.role != Role::Body {
                continue;
            }
            match a.role {
                Role::Fire if !b.pickup => hits.push((b.id, "fire".to_owned())),
                Role::Body if a.enemy && b.player => {
                    let name = world.entity(a.id)?.name().unwrap_or("an enemy").to_owned();
                    hits.push((b.id, name));
                }
                Role::Sight if a.enemy && b.player => sightings.push((a.id, b.cell)),
                Role::Pickup if b.player => pickups.push((a.id, b.id)),
                _ => {}
            }
        }
    }
    for (enemy, seen_at) in sightings {
        if let Some(e) = world.entity_mut(enemy)?.get_mut::<Enemy>() {
            e.target = Some(seen_at);
        }
    }
    hits.sort_by_key(|(id, _)| id.to_bits());
    hits.dedup_by_key(|(id, _)| id.to_bits());
    for (victim, by) in hits {
        world.send(victim, &Hit(by))?; // once killed, it ignores the rest
    }
    for (item, player) in pickups {
        if world.contains(item) {
            let boost = world.entity(item)?.get::<PowerUp>().map(|p| p.boost);
            if let Some(boost) = boost {
                world.send(player, &Collect(boost))?;
                world.despawn(item)?;
            }
        }
    }
    Ok(())
}
