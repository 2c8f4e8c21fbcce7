//! The game's components (the enemies have their own module) and the
//! messages they exchange. Everything a blueprint mentions derives
//! `Deserialize`; fields the game fills in at run time are `serde(skip)`.

use std::collections::BTreeMap;

use ecs_core::prelude::*;
use serde::{Deserialize, Serialize};

/// A cell of the arena.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Default, Hash, Serialize, Deserialize)]
pub struct Position {
    /// Column, from 0 at the left wall.
    pub x: i32,
    /// Row, from 0 at the top wall.
    pub y: i32,
}

/// A direction on the grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Dir {
    /// Towards row 0.
    Up,
    /// Away from row 0.
    Down,
    /// Towards column 0.
    Left,
    /// Away from column 0.
    Right,
}

impl Dir {
    /// The four, in the order `Senses::open` lists them.
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

    /// The direction back.
    pub fn reverse(self) -> Dir {
        match self {
            Dir::Up => Dir::Down,
            Dir::Down => Dir::Up,
            Dir::Left => Dir::Right,
            Dir::Right => Dir::Left,
        }
    }
}

impl Position {
    /// The neighbouring cell in `dir`.
    pub fn step(self, dir: Dir) -> Position {
        let (dx, dy) = [(0, -1), (0, 1), (-1, 0), (1, 0)][dir as usize];
        Position {
            x: self.x + dx,
            y: self.y + dy,
        }
    }

    /// Steps on the grid between two cells.
    pub fn manhattan(self, other: Position) -> i32 {
        (self.x - other.x).abs() + (self.y - other.y).abs()
    }
}

/// Anything that moves, at `speed` cells per second. Code that only cares
/// about speed (a power-up, the status line) asks for this.
#[derive(Component, Debug, Clone, Serialize, Deserialize)]
pub struct Moving {
    /// Cells per second.
    pub speed: f32,
}

/// Moves along one axis at a time and always ends a step on a cell
/// (Lifish's `AxisMoving`). It is-a [`Moving`], so `get::<Moving>()` finds
/// it; in JSON the parent is the `base` field. `requires(Senses)` gives
/// every holder the [`Senses`] it steers by, blueprints included.
#[derive(Component, Debug, Clone, Serialize, Deserialize)]
#[component(parent = Moving, behaviour, requires(Senses))]
pub struct AxisMoving {
    /// The `Moving` part: the speed.
    pub base: Moving,
    /// Where its brain wants to go; read when the mover stands on a cell.
    #[serde(skip)]
    pub wish: Option<Dir>,
    /// The step under way, if any.
    #[serde(skip)]
    pub dir: Option<Dir>,
    /// How far into the step, from 0 to 1.
    #[serde(skip)]
    pub progress: f32,
}

impl AxisMoving {
    /// Whether it stands on a cell (no step under way).
    pub fn on_cell(&self) -> bool {
        self.dir.is_none()
    }
}

/// Which neighbouring cells are free, written by the game before each update
/// so behaviours never need to see the whole arena.
#[derive(Component, Debug, Clone, Default)]
pub struct Senses {
    /// Free or not, by [`Dir::ALL`] order.
    pub open: [bool; 4],
}

/// What a collider does when it touches another.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Role {
    /// What gets hurt.
    Body,
    /// What an enemy notices the player with.
    Sight,
    /// What hurts.
    Fire,
    /// What the player picks up.
    Pickup,
}

/// An entity may hold several: enemies have a body and a wider sight.
#[derive(Component, Debug, Clone, Serialize, Deserialize)]
#[component(multiple)]
pub struct Collider {
    /// What it does.
    pub role: Role,
    /// In cells.
    pub radius: f32,
}

/// A colour a sprite may have, by name in JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Tint {
    /// Plain.
    White,
    /// The player.
    Yellow,
    /// Fire, danger.
    Red,
    /// Crates.
    Brown,
    /// Soldiers.
    Green,
    /// Runners.
    Magenta,
    /// Tanks.
    Blue,
    /// Power-ups.
    Cyan,
    /// Bombs.
    Gray,
}

/// How to draw it: one character in text frames, two cells wide in the
/// terminal (`art`), a higher `z` on top.
#[derive(Component, Debug, Clone, Serialize, Deserialize)]
pub struct Sprite {
    /// The character in headless frames (ASCII).
    pub glyph: char,
    /// Two characters for the terminal (defaults to the glyph and a space).
    #[serde(default)]
    pub art: Option<String>,
    /// Its colour.
    pub tint: Tint,
    /// Drawing order.
    pub z: u8,
}

/// A crate: an explosion removes it for good, and it may leave a power-up.
#[derive(Component, Debug, Clone, Default, Serialize, Deserialize)]
#[component(receives(Explosion))]
pub struct Breakable {
    /// The chance, in percent, that a power-up is inside.
    pub drop_percent: u32,
}

/// What a power-up improves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Boost {
    /// One more cell of flame each way.
    Range,
    /// One more bomb at a time.
    Bombs,
    /// Faster feet.
    Speed,
}

/// A power-up lying in the arena; the player's body picks it up.
#[derive(Component, Debug, Clone, Serialize, Deserialize)]
pub struct PowerUp {
    /// What it gives.
    pub boost: Boost,
}

/// A bomb: ticks down, then the game sets it off; then it burns for a
/// while and despawns itself and (with it) its flames, its children.
#[derive(Component, Debug, Clone, Serialize, Deserialize)]
#[component(behaviour, receives(Explosion))]
pub struct Bomb {
    /// Seconds before it goes off.
    pub fuse: f32,
    /// Cells of flame each way.
    pub range: i32,
    /// Seconds its flames burn.
    pub burn: f32,
    /// Whether it went off (and now burns).
    #[serde(skip)]
    pub exploded: bool,
    /// Who dropped it (their bomb count goes back up when it is gone).
    #[serde(skip)]
    pub owner: Option<EntityId>,
}

/// The level's root: its map and title. Reports sent upwards from anywhere
/// below end here, on their way to the [`Journal`] resource.
#[derive(Component, Debug, Clone, Serialize, Deserialize)]
#[component(receives(Report))]
pub struct Level {
    /// 1, 2, 3...
    pub number: u32,
    /// Shown in the status line.
    pub title: String,
    /// Rows of the map: `#` wall, `@` the player's start, `.` floor, and
    /// the characters of the legend.
    pub map: Vec<String>,
    /// Which blueprint each map character spawns (`"%": "Crate"`).
    pub legend: BTreeMap<String, String>,
}

// ------------------------------------------------------------------ messages

/// Broadcast from the level root to its whole subtree when a bomb goes off.
pub struct Explosion {
    /// The cells the flames cover.
    pub cells: Vec<Position>,
}

/// Sent to one entity touched by fire or by an enemy: who hit it.
pub struct Hit(pub String);

/// Sent to the player when it walks onto a power-up.
pub struct Collect(pub Boost);

/// A line for the journal, sent upwards to the level root.
pub struct Report(pub String);

/// Queues a report from a behaviour or receiver: sending is a world
/// operation, so it runs once the current update or broadcast is over.
pub fn report(ctx: &mut Context<'_>, line: String) {
    let me = ctx.id();
    let line = format!("{} {line}", ctx.name().unwrap_or("?"));
    ctx.commands()
        .run(move |world| world.send_upwards(me, &Report(line)).map(drop));
}

/// The game's event log and score, a world resource: it outlives levels.
#[derive(Debug, Default, Clone)]
pub struct Journal {
    /// The frame now being played.
    pub frame: u32,
    /// (frame, line), oldest first.
    pub events: Vec<(u32, String)>,
    /// Points so far.
    pub score: u32,
}

impl Receive<Report> for Level {
    fn receive(&mut self, ctx: &mut Context<'_>, report: &Report) {
        if let Some(journal) = ctx.resource_mut::<Journal>() {
            let frame = journal.frame;
            journal.events.push((frame, report.0.clone()));
        }
    }
}

/// What the player's controller asks for this frame: written into the world
/// as a resource by the keyboard or by the AI, read by [`Player`](crate::player::Player).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Input {
    /// The direction held, if any.
    pub wish: Option<Dir>,
    /// Drop a bomb now.
    pub bomb: bool,
}
