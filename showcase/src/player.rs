//! The player and the things that move or tick: the player's controller,
//! grid movement, bombs, crates.

use ecs_core::prelude::*;
use serde::{Deserialize, Serialize};

use crate::components::{
    report, AxisMoving, Bomb, Boost, Breakable, Collect, Explosion, Hit, Input, Journal, Moving,
    Position, Senses,
};
use crate::level::{spawn_at, Dice};

/// The player: reads the [`Input`] resource (the keyboard's or the AI's),
/// drops bombs, takes hits and power-ups.
#[derive(Component, Debug, Clone, Serialize, Deserialize)]
#[component(behaviour, receives(Hit, Collect))]
pub struct Player {
    /// Lives left, this one included.
    pub lives: u32,
    /// Bombs it may have ticking at once.
    pub bombs: u32,
    /// Cells of flame each way.
    pub range: i32,
    /// Seconds before its bombs go off.
    pub fuse: f32,
    /// Where it (re)starts in this level.
    #[serde(skip)]
    pub spawn: Position,
    /// Seconds during which hits do nothing, after a respawn.
    #[serde(skip)]
    pub shield: f32,
}

impl Behaviour for Player {
    fn update(&mut self, ctx: &mut Context<'_>, dt: f32) {
        self.shield = (self.shield - dt).max(0.0);
        let input = ctx.resource::<Input>().copied().unwrap_or_default();
        if let Some(moving) = ctx.get_mut::<AxisMoving>() {
            moving.wish = input.wish;
        }
        let Some(&at) = ctx.get::<Position>() else {
            return;
        };
        if input.bomb && self.can_drop(ctx, at) {
            report(ctx, format!("drops a bomb at ({},{})", at.x, at.y));
            let (me, range, fuse) = (ctx.id(), self.range, self.fuse);
            // Spawning is structural, so it is queued. The bomb joins the
            // level (our parent), where explosions are broadcast from.
            ctx.commands().run(move |world| {
                let level = world.entity(me)?.parent().unwrap_or(me);
                let bomb = spawn_at(world, "Bomb", at, level)?;
                if let Some(b) = world.entity_mut(bomb)?.get_mut::<Bomb>() {
                    (b.range, b.fuse, b.owner) = (range, fuse, Some(me));
                }
                Ok(())
            });
        }
    }

    /// The game revives a dead player with a life left; the player puts
    /// itself back on its start cell, shielded for a moment.
    fn on_revive(&mut self, ctx: &mut Context<'_>) {
        self.shield = 2.0;
        let spawn = self.spawn;
        if let Some(pos) = ctx.get_mut::<Position>() {
            *pos = spawn;
        }
        if let Some(moving) = ctx.get_mut::<AxisMoving>() {
            (moving.dir, moving.wish, moving.progress) = (None, None, 0.0);
        }
        report(ctx, "respawns".into());
    }
}

impl Player {
    /// Fewer bombs ticking than allowed, and none on this cell. Asks the
    /// world with a query, as any code outside the entity would.
    fn can_drop(&self, ctx: &Context<'_>, at: Position) -> bool {
        let me = ctx.id();
        let mut mine = 0;
        for (bomb, pos) in ctx.world().query::<(&Bomb, &Position)>() {
            if *pos == at {
                return false;
            }
            mine += u32::from(bomb.owner == Some(me) && !bomb.exploded);
        }
        mine < self.bombs
    }
}

impl Receive<Hit> for Player {
    fn receive(&mut self, ctx: &mut Context<'_>, hit: &Hit) {
        if self.shield > 0.0 {
            return;
        }
        self.lives = self.lives.saturating_sub(1);
        report(
            ctx,
            format!("is hit by {} ({} lives left)", hit.0, self.lives),
        );
        let me = ctx.id();
        ctx.commands().kill(me); // the game revives it if a life is left
    }
}

impl Receive<Collect> for Player {
    fn receive(&mut self, ctx: &mut Context<'_>, power: &Collect) {
        let what = match power.0 {
            Boost::Range => {
                self.range += 1;
                format!("range {}", self.range)
            }
            Boost::Bombs => {
                self.bombs += 1;
                format!("bombs {}", self.bombs)
            }
            Boost::Speed => {
                // The `AxisMoving` it holds is-a `Moving`: asked as such.
                let moving = ctx.get_mut::<Moving>();
                moving.map_or_else(String::new, |m| {
                    m.speed += 1.0;
                    format!("speed {}", m.speed)
                })
            }
        };
        if let Some(journal) = ctx.resource_mut::<Journal>() {
            journal.score += 50;
        }
        report(ctx, format!("picks up {:?}: {what}", power.0));
    }
}

impl Behaviour for AxisMoving {
    /// On a cell, starts a step towards the wish if that way is open; then
    /// moves along, arriving on the next cell when the step is done.
    fn update(&mut self, ctx: &mut Context<'_>, dt: f32) {
        if self.dir.is_none() {
            let open = ctx.get::<Senses>().map_or([false; 4], |s| s.open);
            self.dir = self.wish.filter(|&d| open[d as usize]);
            if self.dir.is_none() {
                return;
            }
        }
        self.progress += self.base.speed * dt;
        if self.progress >= 1.0 - 1e-4 {
            let dir = self.dir.take().expect("a step is under way");
            self.progress = 0.0;
            if let Some(pos) = ctx.get_mut::<Position>() {
                *pos = pos.step(dir);
            }
        }
    }
}

impl Behaviour for Bomb {
    /// Ticks down (the game sets it off at zero), then burns, then despawns
    /// itself and, with it, its flames.
    fn update(&mut self, ctx: &mut Context<'_>, dt: f32) {
        if !self.exploded {
            self.fuse = (self.fuse - dt).max(0.0);
        } else if self.burn > dt / 2.0 {
            self.burn -= dt;
        } else {
            let me = ctx.id();
            ctx.commands().despawn(me);
        }
    }
}

impl Receive<Explosion> for Bomb {
    /// Another bomb's flames set this one off at once.
    fn receive(&mut self, ctx: &mut Context<'_>, boom: &Explosion) {
        if !self.exploded
            && ctx
                .get::<Position>()
                .is_some_and(|p| boom.cells.contains(p))
        {
            self.fuse = 0.0;
        }
    }
}

impl Receive<Explosion> for Breakable {
    /// Burns: gone for good, maybe leaving a power-up behind.
    fn receive(&mut self, ctx: &mut Context<'_>, boom: &Explosion) {
        let Some(&at) = ctx.get::<Position>() else {
            return;
        };
        if !boom.cells.contains(&at) {
            return;
        }
        if let Some(journal) = ctx.resource_mut::<Journal>() {
            journal.score += 10;
        }
        let roll = ctx.resource_mut::<Dice>().map_or(100, |d| d.0.below(100));
        let loot = (roll < u64::from(self.drop_percent)).then(|| {
            let kinds = ["RangeUp", "BombUp", "SpeedUp"];
            kinds[roll as usize % kinds.len()]
        });
        report(
            ctx,
            match loot {
                Some(kind) => format!("at ({},{}) burns, leaving a {kind}", at.x, at.y),
                None => format!("at ({},{}) burns", at.x, at.y),
            },
        );
        let me = ctx.id();
        let level = ctx.world().entity(me).ok().and_then(|e| e.parent());
        ctx.commands().despawn(me);
        if let (Some(kind), Some(level)) = (loot, level) {
            ctx.commands()
                .run(move |world| spawn_at(world, kind, at, level).map(drop));
        }
    }
}
