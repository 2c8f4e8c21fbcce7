//! The enemies: one base type and its kinds, told apart by inheritance.
//!
//! | type | is-a | behaviour | `Hit` receiver |
//! |---|---|---|---|
//! | [`Enemy`] | – | patrol, chase the player once seen | dies, scores its points |
//! | [`Soldier`] | `Enemy` | inherited | inherited |
//! | [`Runner`] | `Enemy` | its own: sprints while chasing, then runs `Enemy`'s | inherited |
//! | [`Tank`] | `Enemy` | its own: its shield wears off, then `Enemy`'s | its own: armour takes the first hits, then `Enemy`'s |
//!
//! The game asks for `Enemy` wherever it does not care which kind it has
//! (`get::<Enemy>()`, `query::<(&Enemy,)>()`): the is-a rule finds every kind.

use ecs_core::prelude::*;
use serde::{Deserialize, Serialize};

use crate::components::{report, AxisMoving, Dir, Hit, Journal, Position, Senses};

/// A tiny xorshift RNG: deterministic, no dependency.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct XorShift(pub u64);

impl Default for XorShift {
    fn default() -> Self {
        XorShift::new(0, 0)
    }
}

impl XorShift {
    /// One stream per use, scrambled (splitmix64) so that nearby seeds play
    /// differently from the first frame.
    pub fn new(seed: u64, stream: u64) -> Self {
        let mut z = (seed ^ (stream << 32)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        XorShift((z ^ (z >> 31)) | 1) // xorshift must never hold 0
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// Every enemy is-a `Enemy`: it wanders, turning at random, and chases the
/// player once its sight collider touches the player's body.
#[derive(Component, Debug, Clone, Serialize, Deserialize)]
#[component(behaviour, receives(Hit))]
pub struct Enemy {
    /// Score for killing it.
    pub points: u32,
    /// The chance, in percent, that it turns at a crossing while patrolling.
    pub turn_percent: u64,
    /// Its own random stream (seeded by the game).
    #[serde(skip)]
    pub rng: XorShift,
    /// Where the player was seen this frame (set by the collision step).
    #[serde(skip)]
    pub target: Option<Position>,
    /// Whether it is after the player.
    #[serde(skip)]
    pub chasing: bool,
    /// The frame it was killed by a hit; the game removes it a little later.
    #[serde(skip)]
    pub died_at: Option<u32>,
}

impl Behaviour for Enemy {
    /// Decides where to go next, on each cell it reaches.
    fn update(&mut self, ctx: &mut Context<'_>, _dt: f32) {
        let (Some(moving), Some(&here)) = (ctx.get::<AxisMoving>(), ctx.get::<Position>()) else {
            return;
        };
        if !moving.on_cell() {
            return;
        }
        let last = moving.wish;
        let open = ctx.get::<Senses>().map_or([false; 4], |s| s.open);
        let choices: Vec<Dir> = Dir::ALL.into_iter().filter(|&d| open[d as usize]).collect();
        let target = self.target.take();
        if target.is_some() && !self.chasing {
            report(ctx, "spots the player".into());
        }
        self.chasing = target.is_some();
        let wish = if let Some(t) = target {
            choices
                .iter()
                .copied()
                .min_by_key(|&d| here.step(d).manhattan(t))
        } else {
            self.patrol(last, &choices)
        };
        if let Some(moving) = ctx.get_mut::<AxisMoving>() {
            moving.wish = wish;
        }
    }

    fn on_revive(&mut self, _ctx: &mut Context<'_>) {
        self.died_at = None;
    }
}

impl Enemy {
    /// Keeps going, turning now and then; never straight back unless cornered.
    fn patrol(&mut self, last: Option<Dir>, choices: &[Dir]) -> Option<Dir> {
        let ahead = last.filter(|d| choices.contains(d));
        if ahead.is_some() && self.rng.below(100) >= self.turn_percent {
            return ahead;
        }
        let forward: Vec<Dir> = choices
            .iter()
            .copied()
            .filter(|&d| Some(d.reverse()) != last || choices.len() == 1)
            .collect();
        if forward.is_empty() {
            return None;
        }
        Some(forward[self.rng.below(forward.len() as u64) as usize])
    }
}

impl Receive<Hit> for Enemy {
    /// One hit kills: the enemy is killed (it stays, drawn dead, until the
    /// game removes it) and its points go to the score.
    fn receive(&mut self, ctx: &mut Context<'_>, hit: &Hit) {
        let frame = ctx.resource::<Journal>().map_or(0, |j| j.frame);
        if let Some(journal) = ctx.resource_mut::<Journal>() {
            journal.score += self.points;
        }
        self.died_at = Some(frame);
        report(ctx, format!("killed by {} (+{})", hit.0, self.points));
        let me = ctx.id();
        ctx.commands().kill(me);
    }
}

/// The plain enemy: everything inherited from [`Enemy`].
#[derive(Component, Debug, Clone, Serialize, Deserialize)]
#[component(parent = Enemy)]
pub struct Soldier {
    /// The `Enemy` part.
    pub base: Enemy,
}

/// Sprints while it chases: its own behaviour, which sets the speed and
/// then runs the inherited `Enemy` update.
#[derive(Component, Debug, Clone, Serialize, Deserialize)]
#[component(parent = Enemy, behaviour)]
pub struct Runner {
    /// The `Enemy` part.
    pub base: Enemy,
    /// Speed factor while chasing.
    pub sprint: f32,
    /// Its patrol speed, remembered on the first update.
    #[serde(skip)]
    pub cruise: Option<f32>,
}

impl Behaviour for Runner {
    fn update(&mut self, ctx: &mut Context<'_>, dt: f32) {
        self.base.update(ctx, dt);
        let factor = if self.base.chasing { self.sprint } else { 1.0 };
        if let Some(moving) = ctx.get_mut::<AxisMoving>() {
            let cruise = *self.cruise.get_or_insert(moving.base.speed);
            moving.base.speed = cruise * factor;
        }
    }

    // An override replaces the whole behaviour: hooks it does not write are
    // the trait's no-ops, so the one `Enemy` needs is forwarded.
    fn on_revive(&mut self, ctx: &mut Context<'_>) {
        self.base.on_revive(ctx);
    }
}

/// Slow and armoured: its own behaviour (the shield after a hit wears off)
/// and its own `Hit` receiver (armour first), both ending in `Enemy`'s.
#[derive(Component, Debug, Clone, Serialize, Deserialize)]
#[component(parent = Enemy, behaviour, receives(Hit))]
pub struct Tank {
    /// The `Enemy` part.
    pub base: Enemy,
    /// Hits it survives.
    pub armor: u32,
    /// Seconds during which further hits do nothing (one explosion's
    /// flames burn for a while, and would hit it every frame).
    #[serde(skip)]
    pub shield: f32,
}

impl Behaviour for Tank {
    fn update(&mut self, ctx: &mut Context<'_>, dt: f32) {
        self.shield = (self.shield - dt).max(0.0);
        self.base.update(ctx, dt);
    }

    fn on_revive(&mut self, ctx: &mut Context<'_>) {
        self.base.on_revive(ctx);
    }
}

impl Receive<Hit> for Tank {
    fn receive(&mut self, ctx: &mut Context<'_>, hit: &Hit) {
        if self.shield > 0.0 {
            return;
        }
        if self.armor > 0 {
            self.armor -= 1;
            self.shield = 1.0;
            report(
                ctx,
                format!("loses armour to {} ({} left)", hit.0, self.armor),
            );
            return;
        }
        self.base.receive(ctx, hit);
    }
}
