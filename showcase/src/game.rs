//! The game: a world, the level being played, and one fixed-length frame
//! at a time. Behaviours see only their own entity, so the game writes
//! their [`Senses`] before the update and handles what spans entities
//! (explosions, collisions, the level's end) after it.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use ecs_core::prelude::*;
use ecs_core::BlueprintLibrary;

use crate::collide;
use crate::components::{
    AxisMoving, Bomb, Breakable, Dir, Explosion, Input, Journal, Level, Moving, Position, Senses,
    Sprite, Tint,
};
use crate::enemies::{Enemy, Runner, Tank, XorShift};
use crate::level::{self, data_dir, Arena, Dice, Library};
use crate::player::Player;

/// Seconds per frame: the game always steps by this much.
pub const DT: f32 = 0.05;

/// Frames a killed enemy stays on the map, drawn dead.
const CORPSE_FRAMES: u32 = 12;
/// Frames between losing a life and coming back.
const RESPAWN_FRAMES: u32 = 20;
/// Frames between clearing a level and the next one.
const CLEARED_FRAMES: u32 = 40;

/// What blocks a step, gathered once per frame.
#[derive(Debug, Clone, Default)]
pub struct Blocked {
    arena: Arena,
    solid: HashSet<Position>,
}

impl Blocked {
    /// Whether nothing can walk into `p`.
    pub fn at(&self, p: Position) -> bool {
        self.arena.is_wall(p) || self.solid.contains(&p)
    }

    /// Whether `p` is a wall (flames stop there).
    pub fn wall(&self, p: Position) -> bool {
        self.arena.is_wall(p)
    }
}

/// [`Blocked`] kept from frame to frame, rebuilt only when what blocks
/// may have changed: a crate written, a bomb added, or either moved since
/// the last build (the world's change ticks tell), one gone (an observer
/// of their removal raises `gone`), a bomb gone off (it stops blocking;
/// every bomb is written each frame as its fuse burns, so its change
/// ticks would not tell), or a new level.
struct BlockedCache {
    blocked: Blocked,
    /// The tick the cache was built at; `None`: build it at the next use.
    built: Option<Tick>,
    gone: Arc<AtomicBool>,
    /// How many times it was built.
    builds: u32,
}

impl BlockedCache {
    /// An empty cache, and the observers that tell it a crate or bomb went.
    fn watching(world: &mut World) -> Self {
        let gone = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&gone);
        world.observe::<Breakable>(ComponentEvent::Removed, move |_| {
            flag.store(true, Ordering::Relaxed);
        });
        let flag = Arc::clone(&gone);
        world.observe::<Bomb>(ComponentEvent::Removed, move |_| {
            flag.store(true, Ordering::Relaxed);
        });
        BlockedCache {
            blocked: Blocked::default(),
            built: None,
            gone,
            builds: 0,
        }
    }

    /// Whether the world holds a blocker that changed since `since`.
    fn changed(world: &World, since: Tick) -> bool {
        let any = |n: usize| n > 0;
        any(world
            .query::<(&Breakable,)>()
            .changed_since::<Breakable>(since)
            .count())
            || any(world.query::<(&Bomb,)>().added_since::<Bomb>(since).count())
            || any(world
                .query::<(&Position,)>()
                .with::<Breakable>()
                .changed_since::<Position>(since)
                .count())
            || any(world
                .query::<(&Position,)>()
                .with::<Bomb>()
                .changed_since::<Position>(since)
                .count())
    }
}

/// Where the game is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Playing a level.
    Playing,
    /// Every enemy is gone; the next level loads when the count reaches 0.
    Cleared {
        /// Frames left.
        left: u32,
    },
    /// No life left.
    GameOver,
    /// The last level is cleared.
    Won,
}

/// The game state around the world.
pub struct Game {
    /// Everything in play; the inspector looks at it.
    pub world: World,
    levels: Vec<String>,
    level_index: usize,
    root: EntityId,
    player: EntityId,
    seed: u64,
    phase: Phase,
    respawn_in: Option<u32>,
    frame: u32,
    blocked: BlockedCache,
}

/// What one frame did, for the caller's output.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Frame {
    /// Bombs that went off.
    pub explosions: usize,
    /// A new level was loaded.
    pub level_loaded: bool,
}

/// One cell of the picture: what is drawn there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cell {
    /// The headless character.
    pub glyph: char,
    /// Two terminal characters.
    pub art: [char; 2],
    /// Its colour.
    pub tint: Tint,
    /// Whether the thing there is dead.
    pub dead: bool,
}

impl Cell {
    const FLOOR: Cell = Cell {
        glyph: '.',
        art: [' ', ' '],
        tint: Tint::Gray,
        dead: false,
    };
    const WALL: Cell = Cell {
        glyph: '#',
        art: ['█', '█'],
        tint: Tint::White,
        dead: false,
    };

    /// Whether this is a wall tile.
    pub fn is_wall(&self) -> bool {
        self.glyph == '#'
    }
}

impl Game {
    /// A game of the showcase's levels (from `showcase/data/`), enemies and
    /// loot seeded by `seed`.
    pub fn new(seed: u64) -> Result<Game, Error> {
        let library = BlueprintLibrary::load_dir(data_dir())?;
        let levels = level::level_tags(&library);
        Game::with_levels(library, levels, seed)
    }

    /// A game of the given level tags (tests use levels of their own).
    pub fn with_levels(
        library: BlueprintLibrary,
        levels: Vec<String>,
        seed: u64,
    ) -> Result<Game, Error> {
        let mut world = World::new();
        // Decide, then move, then tick. `Soldier` inherits its behaviour,
        // so it is not a `Behaviour` itself and updates in its own slot,
        // after these: its decision is used on the next frame.
        world.set_update_order::<(Player, Enemy, Runner, Tank, AxisMoving, Bomb)>();
        world.insert_resource(Library(library));
        world.insert_resource(Journal::default());
        world.insert_resource(Dice(XorShift::new(seed, u64::MAX)));
        world.insert_resource(Input::default());
        let first = levels.first().cloned().ok_or_else(|| Error::Io {
            path: data_dir().display().to_string(),
            message: "no level blueprints (Level1, Level2, ...)".into(),
        })?;
        let loaded = level::load_level(&mut world, &first, seed, None)?;
        let player = level::spawn_at(&mut world, "Player", loaded.start, loaded.root)?;
        if let Some(p) = world.entity_mut(player)?.get_mut::<Player>() {
            p.spawn = loaded.start;
        }
        world.entity_mut(player)?.set_name(Some("player"));
        let blocked = BlockedCache::watching(&mut world);
        let mut game = Game {
            blocked,
            world,
            levels,
            level_index: 0,
            root: loaded.root,
            player,
            seed,
            phase: Phase::Playing,
            respawn_in: None,
            frame: 0,
        };
        game.log(format!("level 1: {}", game.level().title));
        Ok(game)
    }

    /// How many frames rebuilt the cells that block a step (the others
    /// found no crate or bomb changed).
    pub fn blocked_builds(&self) -> u32 {
        self.blocked.builds
    }

    /// The player's entity.
    pub fn player(&self) -> EntityId {
        self.player
    }

    /// The level root's entity.
    pub fn level_root(&self) -> EntityId {
        self.root
    }

    /// The level being played.
    pub fn level(&self) -> Level {
        let e = self.world.entity(self.root).expect("the level root lives");
        e.get::<Level>()
            .cloned()
            .expect("a level root holds a Level")
    }

    /// Where the game is.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Frames played.
    pub fn frame(&self) -> u32 {
        self.frame
    }

    /// The event log and score.
    pub fn journal(&self) -> &Journal {
        self.world
            .get_resource::<Journal>()
            .expect("inserted at start")
    }

    /// The player's component (lives, bombs, range).
    pub fn player_state(&self) -> Option<&Player> {
        self.world.entity(self.player).ok()?.get::<Player>()
    }

    /// The player's speed, asked as `Moving` (it holds an `AxisMoving`).
    pub fn player_speed(&self) -> f32 {
        let e = self.world.entity(self.player).ok();
        e.and_then(|e| e.get::<Moving>().map(|m| m.speed))
            .unwrap_or(0.0)
    }

    /// Enemies still in the fight (not killed).
    pub fn enemies_left(&self) -> usize {
        self.world.query::<(&Enemy,)>().into_iter().count()
    }

    fn log(&mut self, line: String) {
        let frame = self.frame;
        if let Some(j) = self.world.get_resource_mut::<Journal>() {
            j.events.push((frame, line));
        }
    }

    /// Plays one frame with the controller's `input`.
    pub fn step(&mut self, input: Input) -> Result<Frame, Error> {
        self.frame += 1;
        let frame = self.frame;
        if let Some(j) = self.world.get_resource_mut::<Journal>() {
            j.frame = frame;
        }
        self.world.insert_resource(input);
        let mut out = Frame::default();
        if matches!(self.phase, Phase::GameOver | Phase::Won) {
            return Ok(out);
        }
        self.sense();
        self.world.update(DT);
        out.explosions = self.detonate()?;
        collide::step(&mut self.world)?;
        self.world.apply_commands();
        self.remove_corpses()?;
        self.player_fate()?;
        match self.phase {
            Phase::Playing if self.enemies_left() == 0 => {
                self.log(format!("level {} cleared", self.level_index + 1));
                self.phase = Phase::Cleared {
                    left: CLEARED_FRAMES,
                };
            }
            Phase::Cleared { left: 0 } => out.level_loaded = self.next_level()?,
            Phase::Cleared { left } => self.phase = Phase::Cleared { left: left - 1 },
            _ => {}
        }
        for error in self.world.take_command_errors() {
            self.log(format!("error: {error}"));
        }
        Ok(out)
    }

    /// Loads the next level; after the last one the game is won.
    fn next_level(&mut self) -> Result<bool, Error> {
        if self.level_index + 1 >= self.levels.len() {
            self.phase = Phase::Won;
            self.log("every level cleared: you win".into());
            return Ok(false);
        }
        self.level_index += 1;
        // The player survives the level: out of the old tree, which goes
        // whole (bombs, flames and all), into the new one.
        self.world.clear_parent(self.player)?;
        self.world.despawn(self.root)?;
        let tag = self.levels[self.level_index].clone();
        let loaded = level::load_level(&mut self.world, &tag, self.seed, Some(self.player))?;
        self.root = loaded.root;
        self.blocked.built = None;
        let mut player = self.world.entity_mut(self.player)?;
        if player.is_dead() {
            player.revive();
        }
        if let Some(m) = player.get_mut::<AxisMoving>() {
            (m.dir, m.wish, m.progress) = (None, None, 0.0);
        }
        self.phase = Phase::Playing;
        self.respawn_in = None;
        let title = self.level().title;
        self.log(format!("level {}: {title}", self.level_index + 1));
        Ok(true)
    }

    /// A dead player with a life left comes back after a moment
    /// (`Player::on_revive` does the rest); with none left, the game is over.
    fn player_fate(&mut self) -> Result<(), Error> {
        let e = self.world.entity(self.player)?;
        if !e.is_dead() {
            self.respawn_in = None;
            return Ok(());
        }
        let lives = e.get::<Player>().map_or(0, |p| p.lives);
        if lives == 0 {
            if self.phase != Phase::GameOver {
                self.phase = Phase::GameOver;
                self.log("game over".into());
            }
            return Ok(());
        }
        match self.respawn_in {
            None => self.respawn_in = Some(RESPAWN_FRAMES),
            Some(0) => {
                self.respawn_in = None;
                self.world.entity_mut(self.player)?.revive();
                self.world.apply_commands();
            }
            Some(n) => self.respawn_in = Some(n - 1),
        }
        Ok(())
    }

    /// Enemies killed by a hit leave the map a moment later. (One killed
    /// from the inspector stays, dead, until revived.)
    fn remove_corpses(&mut self) -> Result<(), Error> {
        let now = self.frame;
        let gone: Vec<EntityId> = self
            .world
            .query::<(EntityId, &Enemy)>()
            .include_inactive()
            .into_iter()
            .filter(|(_, e)| e.died_at.is_some_and(|t| t + CORPSE_FRAMES <= now))
            .map(|(id, _)| id)
            .collect();
        for id in gone {
            if self.world.entity(id)?.is_dead() {
                self.world.despawn(id)?;
            }
        }
        Ok(())
    }

    /// Cells nothing can walk into: walls, crates and ticking bombs.
    pub fn blocked(&self) -> Blocked {
        let arena = self
            .world
            .get_resource::<Arena>()
            .cloned()
            .unwrap_or_default();
        let mut solid = HashSet::new();
        for (_, pos) in self.world.query::<(&Breakable, &Position)>() {
            solid.insert(*pos);
        }
        for (bomb, pos) in self.world.query::<(&Bomb, &Position)>() {
            if !bomb.exploded {
                solid.insert(*pos);
            }
        }
        Blocked { arena, solid }
    }

    /// Tells every mover (its `Senses` beside its `Position`) which
    /// neighbouring cells are free.
    fn sense(&mut self) {
        let cache = &mut self.blocked;
        let stale = match cache.built {
            None => true,
            Some(since) => {
                cache.gone.swap(false, Ordering::Relaxed)
                    | BlockedCache::changed(&self.world, since)
            }
        };
        if stale {
            self.blocked.built = Some(self.world.change_tick());
            self.blocked.gone.store(false, Ordering::Relaxed);
            self.blocked.builds += 1;
            self.blocked.blocked = self.blocked();
        }
        let blocked = &self.blocked.blocked;
        for (senses, here) in self.world.query_mut::<(&mut Senses, &Position)>() {
            senses.open = Dir::ALL.map(|d| !blocked.at(here.step(d)));
        }
    }

    /// Sets off the bombs whose fuse ran out: flames are spawned as the
    /// bomb's children, and the explosion is broadcast from the level root
    /// (crates burn, other bombs go off: this loops until none is left).
    fn detonate(&mut self) -> Result<usize, Error> {
        let mut count = 0;
        loop {
            let ripe: Vec<(EntityId, i32, Position)> = self
                .world
                .query::<(EntityId, &Bomb, &Position)>()
                .into_iter()
                .filter(|(_, b, _)| b.fuse <= 0.0 && !b.exploded)
                .map(|(id, b, at)| (id, b.range, *at))
                .collect();
            if ripe.is_empty() {
                return Ok(count);
            }
            for (bomb, range, at) in ripe {
                count += 1;
                let mut e = self.world.entity_mut(bomb)?;
                e.get_mut::<Bomb>().expect("a bomb").exploded = true;
                e.remove::<Sprite>(); // the flames show it now
                self.blocked.built = None; // a bomb gone off blocks no more
                let cells = self.flame_cells(at, range);
                for &cell in &cells {
                    level::spawn_at(&mut self.world, "Flame", cell, bomb)?;
                }
                self.world.broadcast(self.root, &Explosion { cells })?;
            }
        }
    }

    /// The bomb's cell and up to `range` cells each way; a wall stops the
    /// flames, a crate or another bomb burns and stops them.
    pub fn flame_cells(&self, at: Position, range: i32) -> Vec<Position> {
        let arena = self
            .world
            .get_resource::<Arena>()
            .expect("a level is loaded");
        let mut stoppers: Vec<Position> = Vec::new();
        for (_, pos) in self.world.query::<(&Breakable, &Position)>() {
            stoppers.push(*pos);
        }
        for (_, pos) in self.world.query::<(&Bomb, &Position)>() {
            stoppers.push(*pos);
        }
        let mut cells = vec![at];
        for dir in Dir::ALL {
            let mut p = at;
            for _ in 0..range {
                p = p.step(dir);
                if arena.is_wall(p) {
                    break;
                }
                cells.push(p);
                if stoppers.contains(&p) {
                    break;
                }
            }
        }
        cells
    }

    /// The picture: floor and walls, then every sprite by `z`; the dead
    /// show as `x`.
    pub fn cells(&self) -> Vec<Vec<Cell>> {
        let arena = self
            .world
            .get_resource::<Arena>()
            .expect("a level is loaded");
        let mut grid: Vec<Vec<Cell>> = (0..arena.height)
            .map(|y| {
                (0..arena.width)
                    .map(|x| {
                        if arena.is_wall(Position { x, y }) {
                            Cell::WALL
                        } else {
                            Cell::FLOOR
                        }
                    })
                    .collect()
            })
            .collect();
        let mut sprites: Vec<(u8, Position, Cell)> = Vec::new();
        for (id, sprite, pos) in self
            .world
            .query::<(EntityId, &Sprite, &Position)>()
            .include_inactive()
        {
            let Ok(e) = self.world.entity(id) else {
                continue;
            };
            // Drawn dead when killed; not drawn when it or its sprite is disabled.
            if !e.is_enabled() || e.get_filtered::<Sprite>(Filter::Enabled).is_none() {
                continue;
            }
            let dead = e.is_dead();
            let mut art = sprite.art.as_deref().unwrap_or("").chars();
            let cell = Cell {
                glyph: if dead { 'x' } else { sprite.glyph },
                art: [
                    if dead {
                        'x'
                    } else {
                        art.next().unwrap_or(sprite.glyph)
                    },
                    if dead { ' ' } else { art.next().unwrap_or(' ') },
                ],
                tint: if dead { Tint::Red } else { sprite.tint },
                dead,
            };
            let z = if dead { 4 } else { sprite.z };
            sprites.push((z, *pos, cell));
        }
        sprites.sort_by_key(|s| s.0);
        for (_, p, cell) in sprites {
            if let Some(slot) = grid
                .get_mut(p.y as usize)
                .and_then(|r| r.get_mut(p.x as usize))
            {
                *slot = cell;
            }
        }
        grid
    }

    /// The picture as text, one character per cell.
    pub fn render_text(&self) -> String {
        let mut out = String::new();
        for row in self.cells() {
            out.extend(row.iter().map(|c| c.glyph));
            out.push('\n');
        }
        out
    }
}
