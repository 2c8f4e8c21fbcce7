//! Levels from JSON blueprints. A level file is a blueprint whose root holds
//! a [`Level`] component: the map, and a legend naming the blueprint each
//! map character spawns. Everything else (crates, enemies, bombs, flames,
//! power-ups, the player) is a blueprint of its own in the same folder.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use ecs_core::prelude::*;
use ecs_core::BlueprintLibrary;

use crate::collide::Colliders;
use crate::components::{Level, Position};
use crate::enemies::{Enemy, XorShift};
use crate::player::Player;

/// The blueprints, as a world resource, so queued commands can spawn from them.
pub struct Library(pub BlueprintLibrary);

/// The game's dice for loot, as a world resource (seeded: runs replay).
pub struct Dice(pub XorShift);

/// The walls of the level being played, as a world resource.
#[derive(Debug, Clone, Default)]
pub struct Arena {
    /// Columns.
    pub width: i32,
    /// Rows.
    pub height: i32,
    walls: Vec<Vec<bool>>,
}

impl Arena {
    /// The walls of a map: `#` is a wall, as is anything off the map.
    pub fn from_map(map: &[String]) -> Arena {
        let walls: Vec<Vec<bool>> = map
            .iter()
            .map(|row| row.chars().map(|c| c == '#').collect())
            .collect();
        Arena {
            width: walls.iter().map(Vec::len).max().unwrap_or(0) as i32,
            height: walls.len() as i32,
            walls,
        }
    }

    /// Whether `p` is a wall (or off the map).
    pub fn is_wall(&self, p: Position) -> bool {
        if p.x < 0 || p.y < 0 {
            return true;
        }
        let row = self.walls.get(p.y as usize);
        row.and_then(|r| r.get(p.x as usize))
            .copied()
            .unwrap_or(true)
    }
}

/// The folder of the showcase's blueprints.
pub fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data")
}

/// The level tags in play order: `Level1`, `Level2`, ... as many as the
/// library has.
pub fn level_tags(library: &BlueprintLibrary) -> Vec<String> {
    (1..)
        .map(|n| format!("Level{n}"))
        .take_while(|tag| library.get(tag).is_some())
        .collect()
}

/// Spawns the blueprint `tag` on cell `at` as a child of `parent`, and
/// hands its colliders to the collision step.
pub fn spawn_at(
    world: &mut World,
    tag: &str,
    at: Position,
    parent: EntityId,
) -> Result<EntityId, Error> {
    let id = world.spawn_blueprint(&library_blueprint(world, tag, "blueprint")?)?;
    world.entity_mut(id)?.add(at)?;
    world.set_parent(id, parent)?;
    let handles: Vec<_> = world.entity(id)?.handles().collect();
    world
        .get_resource_or_insert_with(Colliders::default)
        .track(handles);
    Ok(id)
}

/// The blueprint tagged `tag` in the world's [`Library`]; `what` names it
/// in the error when there is none.
fn library_blueprint(world: &World, tag: &str, what: &str) -> Result<Blueprint, Error> {
    world
        .get_resource::<Library>()
        .and_then(|l| l.0.get(tag))
        .cloned()
        .ok_or_else(|| Error::Io {
            path: data_dir().display().to_string(),
            message: format!("no {what} tagged `{tag}`"),
        })
}

/// What [`load_level`] made.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// The level's root entity.
    pub root: EntityId,
    /// The player's start.
    pub start: Position,
}

/// Spawns the level blueprint `tag` and, under its root, one entity per
/// map character the legend names; moves the player (if any) under it to
/// its start. Enemies get their random streams from `seed`.
pub fn load_level(
    world: &mut World,
    tag: &str,
    seed: u64,
    player: Option<EntityId>,
) -> Result<Loaded, Error> {
    let root = world.spawn_blueprint(&library_blueprint(world, tag, "level")?)?;
    let level = world
        .entity(root)?
        .get::<Level>()
        .cloned()
        .ok_or_else(|| Error::Data {
            path: format!("{tag}: components"),
            message: "a level blueprint's root needs a `Level` component".into(),
        })?;
    world.insert_resource(Arena::from_map(&level.map));
    let mut start = Position { x: 1, y: 1 };
    let mut counts: BTreeMap<String, u32> = BTreeMap::new();
    for (y, row) in (0..).zip(&level.map) {
        for (x, glyph) in (0..).zip(row.chars()) {
            let at = Position { x, y };
            if glyph == '@' {
                start = at;
                continue;
            }
            let Some(kind) = level.legend.get(&glyph.to_string()) else {
                continue;
            };
            let id = spawn_at(world, kind, at, root)?;
            let mut e = world.entity_mut(id)?;
            if let Some(enemy) = e.get_mut::<Enemy>() {
                let n = counts.entry(kind.clone()).or_default();
                *n += 1;
                let stream = u64::from(level.number) << 16 | (x as u64) << 8 | y as u64;
                enemy.rng = XorShift::new(seed, stream);
                e.set_name(Some(&format!("{}-{n}", kind.to_lowercase())));
            }
        }
    }
    if let Some(player) = player {
        world.set_parent(player, root)?;
        let mut e = world.entity_mut(player)?;
        if let Some(p) = e.get_mut::<Player>() {
            p.spawn = start;
        }
        if let Some(pos) = e.get_mut::<Position>() {
            *pos = start;
        }
    }
    Ok(Loaded { root, start })
}
