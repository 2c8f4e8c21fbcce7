//! A tiny headless arena game in the spirit of Lifish (a Bomberman-like) that
//! tours the framework: JSON blueprints, a parent chain (`AxisMoving` is-a
//! `Moving`), several colliders per entity, behaviours updated in a declared
//! order, an explosion broadcast down the scene graph, weak handles kept
//! across frames, and kill/revive.
//!
//! Run with `cargo run --example showcase` (options: `--frames N`, default
//! 12, and `--seed S`, default 7, which drives the enemies).

use std::fmt::Write;
use std::path::Path;

use ecs_core::prelude::*;
use ecs_core::BlueprintLibrary;
use serde::{Deserialize, Serialize};

/// The level: `#` wall, `%` crate, `@` player, `s` soldier, `r` runner.
/// Walls are plain tiles; everything else becomes an entity.
const ARENA: &str = "\
#############
#@...s..%..r#
#.#.#%#.#.#.#
#..%%...%...#
#%#.#.#.#%#.#
#..s..%.....#
#.#%#.#.#.#.#
#...%..s..%.#
#############";

/// One frame is one time unit: speeds are in cells per frame.
const DT: f32 = 1.0;

// ---------------------------------------------------------------- components

#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
struct Position {
    x: i32,
    y: i32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
enum Dir {
    Up,
    Down,
    Left,
    Right,
}

impl Dir {
    const ALL: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];
}

impl Position {
    fn step(self, dir: Dir) -> Position {
        let (dx, dy) = [(0, -1), (0, 1), (-1, 0), (1, 0)][dir as usize];
        Position {
            x: self.x + dx,
            y: self.y + dy,
        }
    }
}

/// Anything that moves. Code that only cares about speed asks for this.
#[derive(Component, Debug, Clone, Serialize, Deserialize)]
struct Moving {
    speed: f32,
}

/// Moves along one axis at a time and always ends a step on a cell (Lifish's
/// AxisMoving). It is-a `Moving`, so `get::<Moving>()` finds it; in JSON the
/// parent is the `base` field. `requires(Senses)` gives its holder a
/// default `Senses`, blueprints included.
#[derive(Component, Debug, Clone, Serialize, Deserialize)]
#[component(parent = Moving, behaviour, requires(Senses))]
struct AxisMoving {
    base: Moving,
    #[serde(default)]
    dir: Option<Dir>,
    #[serde(skip)]
    progress: f32,
}

/// Which neighbouring cells are free, written by the game before each update
/// so behaviours never need to see the whole arena.
#[derive(Component, Debug, Clone, Default)]
struct Senses {
    open: [bool; 4],
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
enum Role {
    Body,  // what gets hurt
    Sight, // what an enemy notices the player with
    Fire,  // what hurts
}

/// An entity may hold several: enemies have a body and a wider sight.
#[derive(Component, Debug, Clone, Serialize, Deserialize)]
#[component(multiple)]
struct Collider {
    role: Role,
    radius: f32,
}

/// How to draw it; a higher `z` is drawn on top.
#[derive(Component, Debug, Clone, Serialize, Deserialize)]
struct Sprite {
    glyph: char,
    z: u8,
}

#[derive(Component, Debug, Clone, Serialize, Deserialize)]
#[component(receives(Explosion, Hit))]
struct Health {
    hp: u32,
    max: u32,
}

/// A crate: an explosion removes it for good.
#[derive(Component, Debug, Clone, Default, Serialize, Deserialize)]
#[component(receives(Explosion))]
struct Breakable;

/// Enemy brain: wander at random, chase the player once seen.
#[derive(Component, Debug, Clone, Serialize, Deserialize)]
#[component(behaviour)]
struct Ai {
    turn_percent: u64,
    #[serde(skip)]
    rng: XorShift,
    /// Where the player was seen this frame (set by the collision manager).
    #[serde(skip)]
    target: Option<Position>,
    #[serde(skip)]
    chasing: bool,
}

/// The player's controller: scripted orders, one per frame (`UDLR` move,
/// `B` drop a bomb, `.` wait), so every run plays the same.
#[derive(Component, Debug, Clone, Serialize, Deserialize)]
#[component(behaviour)]
struct Pilot {
    script: String,
    lives: u32,
    /// What a dropped bomb starts as.
    bomb: Bomb,
    #[serde(skip)]
    next: usize,
    #[serde(skip)]
    spawn: Position,
}

/// Ticks down to 0, when the game sets it off; then burns for a while and
/// despawns itself and (recursively) its flames.
#[derive(Component, Debug, Clone, Serialize, Deserialize)]
#[component(behaviour)]
struct Bomb {
    fuse: u32,
    range: i32,
    burn: u32,
    #[serde(skip)]
    exploded: bool,
}

/// On the arena root: reports sent upwards from anywhere below end here.
#[derive(Component, Debug, Default)]
#[component(receives(Report))]
struct Scoreboard {
    frame: u32,
    log: Vec<(u32, String)>,
}

// ------------------------------------------------------------------ messages

/// Broadcast from the arena root to its whole subtree when a bomb goes off.
struct Explosion {
    cells: Vec<Position>,
}

/// Sent to one entity touched by fire or by an enemy: who hit it.
struct Hit(String);

/// A line for the scoreboard's event log.
struct Report(String);

/// Queues a report: sending is a world operation, so it runs once the
/// current update or broadcast is over (and before a kill or despawn queued
/// after it).
fn report(ctx: &mut Context<'_>, line: String) {
    let me = ctx.id();
    let line = format!("{} {line}", ctx.name().unwrap_or("?"));
    ctx.commands()
        .run(move |world| world.send_upwards(me, &Report(line)).map(drop));
}

// ---------------------------------------------------------------- behaviours

impl Behaviour for AxisMoving {
    fn update(&mut self, ctx: &mut Context<'_>, dt: f32) {
        let open = ctx.get::<Senses>().map_or([false; 4], |s| s.open);
        let Some(dir) = self.dir.filter(|&d| open[d as usize]) else {
            self.progress = 0.0; // idle or blocked: wait on the cell
            return;
        };
        self.progress += self.base.speed * dt;
        if self.progress >= 1.0 {
            self.progress -= 1.0;
            if let Some(pos) = ctx.get_mut::<Position>() {
                *pos = pos.step(dir);
            }
        }
    }
}

impl Behaviour for Ai {
    fn update(&mut self, ctx: &mut Context<'_>, _: f32) {
        let open = ctx.get::<Senses>().map_or([false; 4], |s| s.open);
        let choices: Vec<Dir> = Dir::ALL.into_iter().filter(|&d| open[d as usize]).collect();
        let (Some(&here), Some(moving)) = (ctx.get::<Position>(), ctx.get::<AxisMoving>()) else {
            return;
        };
        let current = moving.dir.filter(|d| choices.contains(d));
        let target = self.target.take();
        if target.is_some() && !self.chasing {
            report(ctx, "spots the player and gives chase".into());
        }
        self.chasing = target.is_some();
        let dir = if let Some(t) = target {
            let distance = |d: &Dir| {
                let p = here.step(*d);
                (p.x - t.x).abs() + (p.y - t.y).abs()
            };
            choices.iter().copied().min_by_key(distance)
        } else if current.is_some() && self.rng.below(100) >= self.turn_percent {
            current
        } else if choices.is_empty() {
            None
        } else {
            Some(choices[self.rng.below(choices.len() as u64) as usize])
        };
        if let Some(moving) = ctx.get_mut::<AxisMoving>() {
            moving.dir = dir;
        }
    }
}

impl Behaviour for Pilot {
    fn update(&mut self, ctx: &mut Context<'_>, _: f32) {
        let order = self.script.chars().nth(self.next);
        self.next += 1;
        let dir = order.and_then(|c| "UDLR".find(c)).map(|i| Dir::ALL[i]);
        if let Some(moving) = ctx.get_mut::<AxisMoving>() {
            moving.dir = dir;
        }
        if let (Some('B'), Some(&at)) = (order, ctx.get::<Position>()) {
            report(ctx, format!("drops a bomb at ({},{})", at.x, at.y));
            let (me, bomb) = (ctx.id(), self.bomb.clone());
            // Spawning is structural, so it is queued. The bomb joins the
            // arena (our parent), where the explosion broadcast starts.
            ctx.commands().run(move |world| {
                let bomb = world.spawn_with((at, bomb, Sprite { glyph: 'o', z: 2 }))?;
                world.entity_mut(bomb)?.set_name(Some("bomb"));
                let arena = world.entity(me)?.parent();
                arena.map_or(Ok(()), |arena| world.set_parent(bomb, arena))
            });
        }
    }

    /// The game revives a dead player; the player puts itself back together.
    fn on_revive(&mut self, ctx: &mut Context<'_>) {
        self.lives -= 1;
        if let Some(pos) = ctx.get_mut::<Position>() {
            *pos = self.spawn;
        }
        if let Some(health) = ctx.get_mut::<Health>() {
            health.hp = health.max;
        }
        report(ctx, "respawns".into());
    }
}

impl Behaviour for Bomb {
    fn update(&mut self, ctx: &mut Context<'_>, _: f32) {
        if !self.exploded {
            self.fuse = self.fuse.saturating_sub(1);
        } else if self.burn > 1 {
            self.burn -= 1;
        } else {
            let me = ctx.id();
            ctx.commands().despawn(me); // the flames, our children, go too
        }
    }
}

// ------------------------------------------------------------------ receivers

impl Health {
    fn hurt(&mut self, ctx: &mut Context<'_>, by: &str) {
        self.hp = self.hp.saturating_sub(1);
        if self.hp == 0 {
            report(ctx, format!("killed by {by}"));
            let me = ctx.id();
            ctx.commands().kill(me); // dead, not despawned: it stays on the map
        }
    }
}

impl Receive<Explosion> for Health {
    fn receive(&mut self, ctx: &mut Context<'_>, boom: &Explosion) {
        if ctx
            .get::<Position>()
            .is_some_and(|p| boom.cells.contains(p))
        {
            self.hurt(ctx, "a bomb");
        }
    }
}

impl Receive<Hit> for Health {
    fn receive(&mut self, ctx: &mut Context<'_>, hit: &Hit) {
        self.hurt(ctx, &hit.0);
    }
}

impl Receive<Explosion> for Breakable {
    fn receive(&mut self, ctx: &mut Context<'_>, boom: &Explosion) {
        let Some(&at) = ctx.get::<Position>() else {
            return;
        };
        if boom.cells.contains(&at) {
            report(ctx, format!("at ({},{}) destroyed", at.x, at.y));
            let me = ctx.id();
            ctx.commands().despawn(me);
        }
    }
}

impl Receive<Report> for Scoreboard {
    fn receive(&mut self, _: &mut Context<'_>, report: &Report) {
        self.log.push((self.frame, report.0.clone()));
    }
}

// ----------------------------------------------------------------- the game

/// A tiny xorshift RNG: deterministic, no dependency.
#[derive(Debug, Clone, Copy, Default)]
struct XorShift(u64);

impl XorShift {
    /// One stream per enemy, scrambled (splitmix64) so that nearby seeds
    /// play differently from the first frame.
    fn new(seed: u64, stream: u64) -> Self {
        let mut z = (seed ^ (stream << 32)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        XorShift((z ^ (z >> 31)) | 1) // xorshift must never hold 0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// Keeps weak handles to colliders across frames (Lifish's collision manager
/// keeps `weak_ptr`s): it owns nothing, and forgets handles that no longer
/// resolve because their entity was despawned.
#[derive(Default)]
struct CollisionManager {
    tracked: Vec<Handle<Collider>>,
    forgotten: usize,
}

impl CollisionManager {
    fn track(&mut self, world: &World, id: EntityId) -> Result<(), Error> {
        self.tracked.extend(world.entity(id)?.handles::<Collider>());
        Ok(())
    }

    /// Fire or an enemy's body hurts a body it touches; an enemy whose sight
    /// touches the player's body chases the player.
    fn step(&mut self, world: &mut World) -> Result<(), Error> {
        let before = self.tracked.len();
        self.tracked.retain(|&h| world.resolve(h).is_some());
        self.forgotten += before - self.tracked.len();

        // (entity, role, radius, cell, is an enemy, is the player) of the living.
        let mut live = Vec::new();
        for &h in &self.tracked {
            let (e, c) = (world.entity(h.entity())?, world.resolve(h).expect("kept"));
            if let (false, Some(&at)) = (e.is_dead(), e.get::<Position>()) {
                let (enemy, player) = (e.has::<Ai>(), e.has::<Pilot>());
                live.push((e.id(), c.role, c.radius, at, enemy, player));
            }
        }
        let (mut hits, mut sightings) = (Vec::new(), Vec::new());
        for &(a, role_a, ra, pa, enemy, _) in &live {
            for &(b, role_b, rb, pb, _, player) in &live {
                let (dx, dy) = ((pa.x - pb.x) as f32, (pa.y - pb.y) as f32);
                if a == b || dx.hypot(dy) >= ra + rb || role_b != Role::Body {
                    continue;
                }
                match role_a {
                    Role::Fire => hits.push((b, "fire".to_owned())),
                    Role::Body if enemy && player => {
                        hits.push((b, world.entity(a)?.name().unwrap_or("?").to_owned()))
                    }
                    Role::Sight if enemy && player => sightings.push((a, pb)),
                    _ => {}
                }
            }
        }
        for (enemy, seen_at) in sightings {
            if let Some(ai) = world.entity_mut(enemy)?.get_mut::<Ai>() {
                ai.target = Some(seen_at);
            }
        }
        for (victim, by) in hits {
            world.send(victim, &Hit(by))?; // once killed, it ignores the rest
        }
        Ok(())
    }
}

struct Game {
    world: World,
    library: BlueprintLibrary,
    walls: Vec<Vec<bool>>,
    arena: EntityId,
    player: EntityId,
    scoreboard: Handle<Scoreboard>,
    colliders: CollisionManager,
}

impl Game {
    /// The arena is the root entity; under it, one entity per level
    /// character, made from the blueprint of its kind.
    fn new(seed: u64) -> Result<Game, Error> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/data/showcase");
        let mut world = World::new();
        // Decide, then move, then tick the bombs.
        world.set_update_order::<(Pilot, Ai, AxisMoving, Bomb)>();
        let arena = world.spawn_named("arena");
        world.entity_mut(arena)?.add(Scoreboard::default())?;
        let scoreboard = world
            .entity(arena)?
            .handle::<Scoreboard>()
            .expect("just added");
        let walls = ARENA.lines().map(|l| l.chars().map(|c| c == '#').collect());
        let mut game = Game {
            world,
            library: BlueprintLibrary::load_dir(dir)?,
            walls: walls.collect(),
            arena,
            player: arena,
            scoreboard,
            colliders: CollisionManager::default(),
        };
        let mut enemies = 0;
        for (y, line) in (0..).zip(ARENA.lines()) {
            for (x, glyph) in (0..).zip(line.chars()) {
                let kind = match glyph {
                    '%' => "Crate",
                    '@' => "Player",
                    's' => "Soldier",
                    'r' => "Runner",
                    _ => continue,
                };
                let id = game.spawn(kind, Position { x, y }, arena)?;
                let mut e = game.world.entity_mut(id)?;
                if let Some(ai) = e.get_mut::<Ai>() {
                    enemies += 1;
                    ai.rng = XorShift::new(seed, enemies);
                    e.set_name(Some(&format!("{}-{enemies}", kind.to_lowercase())));
                } else if let Some(pilot) = e.get_mut::<Pilot>() {
                    pilot.spawn = Position { x, y };
                    game.player = id;
                }
            }
        }
        Ok(game)
    }

    /// Spawns the blueprint `kind` at `at` as a child of `parent`.
    fn spawn(&mut self, kind: &str, at: Position, parent: EntityId) -> Result<EntityId, Error> {
        let blueprint = self.library.get(kind).ok_or_else(|| Error::Io {
            path: format!("examples/data/showcase/{}.json", kind.to_lowercase()),
            message: format!("no blueprint tagged `{kind}`"),
        })?;
        let id = self.world.spawn_blueprint(blueprint)?;
        self.world.entity_mut(id)?.add(at)?;
        self.world.set_parent(id, parent)?;
        self.colliders.track(&self.world, id)?;
        Ok(id)
    }

    fn scoreboard(&mut self) -> &mut Scoreboard {
        self.world
            .resolve_mut(self.scoreboard)
            .expect("the arena lives all game")
    }

    /// One frame; returns how many bombs went off. Behaviours see only their
    /// own entity, so the game writes their `Senses` before the update and
    /// handles what spans entities (explosions, collisions) after it.
    fn step(&mut self, frame: u32) -> Result<usize, Error> {
        self.scoreboard().frame = frame;
        // A dead player with a life left comes back; `Pilot::on_revive` does the rest.
        let mut player = self.world.entity_mut(self.player)?;
        if player.is_dead() && player.get::<Pilot>().is_some_and(|p| p.lives > 0) {
            player.revive();
        }
        self.sense()?;
        self.world.update(DT);
        let exploded = self.detonate()?;
        self.colliders.step(&mut self.world)?;
        Ok(exploded)
    }

    fn position(&self, id: EntityId) -> Option<Position> {
        self.world.entity(id).ok()?.get::<Position>().copied()
    }

    /// Where the entities holding a `T` that passes `keep` stand.
    fn cells<T: Component>(&self, keep: impl Fn(&T) -> bool) -> Vec<Position> {
        let ids = self
            .world
            .iter::<T>()
            .filter(|(_, c)| keep(c))
            .map(|(id, _)| id);
        ids.filter_map(|id| self.position(id)).collect()
    }

    /// Tells every mover (its `Senses` beside its `Position`) which
    /// neighbouring cells are free of walls, crates and ticking bombs.
    fn sense(&mut self) -> Result<usize, Error> {
        let mut blocked = self.walls.clone();
        let mut obstacles = self.cells::<Breakable>(|_| true);
        obstacles.extend(self.cells::<Bomb>(|b| !b.exploded));
        for at in obstacles {
            blocked[at.y as usize][at.x as usize] = true;
        }
        let mut sensed = 0;
        for (senses, here) in self.world.query_mut::<(&mut Senses, &Position)>() {
            senses.open = Dir::ALL.map(|d| {
                let p = here.step(d);
                !blocked[p.y as usize][p.x as usize]
            });
            sensed += 1;
        }
        Ok(sensed)
    }

    /// Sets off the bombs whose fuse ran out: flames are spawned as the
    /// bomb's children, and the explosion is broadcast from the arena root.
    fn detonate(&mut self) -> Result<usize, Error> {
        let ripe: Vec<(EntityId, i32)> = (self.world.iter::<Bomb>())
            .filter(|(_, b)| b.fuse == 0 && !b.exploded)
            .map(|(id, b)| (id, b.range))
            .collect();
        for &(bomb, range) in &ripe {
            let at = self.position(bomb).expect("bombs have a position");
            let mut e = self.world.entity_mut(bomb)?;
            e.get_mut::<Bomb>().expect("a bomb").exploded = true;
            e.remove::<Sprite>(); // the flames show it now
            let cells = self.flame_cells(at, range);
            for &cell in &cells {
                self.spawn("Flame", cell, bomb)?;
            }
            self.world.broadcast(self.arena, &Explosion { cells })?;
        }
        Ok(ripe.len())
    }

    /// The bomb's cell and up to `range` cells each way; a wall stops the
    /// flames, a crate burns and stops them.
    fn flame_cells(&self, at: Position, range: i32) -> Vec<Position> {
        let crates = self.cells::<Breakable>(|_| true);
        let mut cells = vec![at];
        for dir in Dir::ALL {
            let mut p = at;
            for _ in 0..range {
                p = p.step(dir);
                if self.walls[p.y as usize][p.x as usize] {
                    break;
                }
                cells.push(p);
                if crates.contains(&p) {
                    break;
                }
            }
        }
        cells
    }

    /// Draws the tiles, then every sprite by `z`; the dead show as `x`.
    fn render(&self, out: &mut impl Write) -> std::fmt::Result {
        let tile = |&wall: &bool| if wall { '#' } else { '.' };
        let rows = self.walls.iter().map(|row| row.iter().map(tile).collect());
        let mut grid: Vec<Vec<char>> = rows.collect();
        let mut sprites: Vec<(u8, Position, char)> = (self.world.iter::<Sprite>())
            .filter_map(|(id, s)| {
                let dead = self.world.entity(id).ok()?.is_dead();
                let (z, glyph) = if dead { (3, 'x') } else { (s.z, s.glyph) };
                Some((z, self.position(id)?, glyph))
            })
            .collect();
        sprites.sort_by_key(|s| s.0);
        for (_, p, glyph) in sprites {
            grid[p.y as usize][p.x as usize] = glyph;
        }
        for row in grid {
            writeln!(out, "  {}", row.into_iter().collect::<String>())?;
        }
        Ok(())
    }
}

type Outcome = Result<(), Box<dyn std::error::Error>>;

/// Plays `frames` frames with enemy AI seeded by `seed`, writing the cast,
/// each frame's events (with the arena drawn on frame 1, every 4th frame,
/// frames where a bomb goes off, and the last), then a summary.
pub fn run(frames: u32, seed: u64, out: &mut impl Write) -> Outcome {
    let mut game = Game::new(seed)?;
    writeln!(
        out,
        "seed {seed}, {frames} frames; the movers, from blueprints:"
    )?;
    for id in game.world.entity(game.arena)?.children() {
        let e = game.world.entity(id)?;
        // Asked as `Moving`: what the entity holds is an `AxisMoving`.
        if let Some(Moving { speed }) = e.get::<Moving>() {
            let name = e.name().unwrap_or("?");
            let roles: Vec<_> = e.get_all::<Collider>().map(|c| c.role).collect();
            writeln!(out, "  {name:<9} speed {speed}, colliders {roles:?}")?;
        }
    }
    // `Moving` is single, and the player's `AxisMoving` already is one.
    let mut player = game.world.entity_mut(game.player)?;
    if let Err(Error::Duplicate { existing, .. }) = player.add(Moving { speed: 9.0 }) {
        writeln!(
            out,
            "  a second Moving for the player: refused, it holds {existing}"
        )?;
    }
    for frame in 1..=frames {
        let forgotten = game.colliders.forgotten;
        let exploded = game.step(frame)?;
        let tracked = game.colliders.tracked.len();
        let dropped = game.colliders.forgotten - forgotten;
        writeln!(
            out,
            "\nframe {frame}: {tracked} collider handles, {dropped} dropped"
        )?;
        for (_, line) in game.scoreboard().log.iter().filter(|(f, _)| *f == frame) {
            writeln!(out, "  - {line}")?;
        }
        if frame == 1 || frame % 4 == 0 || exploded > 0 || frame == frames {
            game.render(out)?;
        }
    }
    summary(&mut game, out)
}

fn summary(game: &mut Game, out: &mut impl Write) -> Outcome {
    let world = &game.world;
    let dead = |id: &EntityId| world.entity(*id).is_ok_and(|e| e.is_dead());
    let enemies: Vec<EntityId> = world.iter::<Ai>().map(|(id, _)| id).collect();
    let killed = enemies.iter().filter(|id| dead(id)).count();
    let crates = ARENA.matches('%').count() - world.iter::<Breakable>().count();
    let all_dead = world.iter_ids().filter(dead).count();
    let alive = world.len() - all_dead;
    let lives: u32 = world.iter::<Pilot>().map(|(_, p)| p.lives).sum();
    writeln!(out, "\nSummary")?;
    writeln!(
        out,
        "  enemies killed:   {killed} of {} (dead, kept)",
        enemies.len()
    )?;
    writeln!(out, "  crates destroyed: {crates} (despawned)")?;
    writeln!(out, "  entities:         {alive} alive, {all_dead} dead")?;
    writeln!(out, "  player:           {lives} spare lives")?;
    writeln!(out, "  events:")?;
    for (frame, line) in &game.scoreboard().log {
        writeln!(out, "    {frame:>3}  {line}")?;
    }
    Ok(())
}

/// `--frames N` and `--seed S`, parsed by hand.
#[allow(dead_code)] // unused when tests/showcase.rs includes this file
fn parse_args() -> Result<(u32, u64), String> {
    let (mut frames, mut seed) = (12, 7);
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().unwrap_or_default();
        let bad = |_| format!("{flag} wants a number, got `{value}`");
        match flag.as_str() {
            "--frames" => frames = value.parse().map_err(bad)?,
            "--seed" => seed = value.parse().map_err(bad)?,
            _ => return Err("usage: showcase [--frames N] [--seed S]".into()),
        }
    }
    Ok((frames, seed))
}

#[allow(dead_code)] // unused when tests/showcase.rs includes this file
fn main() -> Outcome {
    let (frames, seed) = parse_args()?;
    let mut out = String::new();
    run(frames, seed, &mut out)?;
    print!("{out}");
    Ok(())
}
