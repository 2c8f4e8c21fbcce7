//! Behaviours updated type by type in a declared order: a ball falls under
//! gravity, bounces, and a timer kills and later revives it.
//!
//! Run with `cargo run --example behaviour`.

use ecs_core::prelude::*;

#[derive(Component, Debug, Clone, Copy)]
struct Position {
    y: f32,
}

/// Pulls the velocity down every frame.
#[derive(Component)]
#[component(behaviour, requires(Velocity))]
struct Gravity(f32);

impl Behaviour for Gravity {
    fn update(&mut self, ctx: &mut Context<'_>, dt: f32) {
        if let Some(v) = ctx.get_mut::<Velocity>() {
            v.dy -= self.0 * dt;
        }
    }
}

/// Moves the position; bounces off the floor. The position is its typed
/// sibling: the update loop hands it in, fetched in bulk.
#[derive(Component, Default)]
#[component(behaviour(with = Position))]
struct Velocity {
    dy: f32,
}

impl UpdateWith<Position> for Velocity {
    fn update_with(&mut self, _: &mut Context<'_>, pos: &mut Position, dt: f32) {
        pos.y += self.dy * dt;
        if pos.y < 0.0 {
            pos.y = -pos.y;
            self.dy = -self.dy * 0.5;
        }
    }
}

impl Behaviour for Velocity {
    /// Only for an entity without a `Position`: nothing to move.
    fn update(&mut self, _: &mut Context<'_>, _: f32) {}

    fn on_attach(&mut self, ctx: &mut Context<'_>) {
        println!(
            "  [hook] Velocity attached to {}",
            ctx.name().unwrap_or("?")
        );
    }
}

/// Kills its entity after `left` frames, then revives it a frame later.
#[derive(Component)]
#[component(behaviour)]
struct Timer {
    left: u32,
}

impl Behaviour for Timer {
    fn update(&mut self, ctx: &mut Context<'_>, _: f32) {
        self.left = self.left.saturating_sub(1);
        if self.left == 0 {
            let me = ctx.id();
            ctx.commands().kill(me);
            ctx.commands().spawn_named("ghost", (Position { y: 0.0 },));
        }
    }

    fn on_kill(&mut self, ctx: &mut Context<'_>) {
        println!("  [hook] {} killed", ctx.name().unwrap_or("?"));
    }

    fn on_revive(&mut self, ctx: &mut Context<'_>) {
        println!("  [hook] {} revived", ctx.name().unwrap_or("?"));
    }
}

fn main() -> Result<(), Error> {
    let mut world = World::new();
    world.set_update_order::<(Timer, Gravity, Velocity)>();
    let ball = world.spawn_named("ball");
    world.entity_mut(ball)?.add(Position { y: 10.0 })?;
    world.entity_mut(ball)?.add(Gravity(9.8))?;
    world.entity_mut(ball)?.add(Timer { left: 6 })?;

    for frame in 1..=8 {
        let updated = world.update(0.25);
        let e = world.entity(ball)?;
        let y = e.get::<Position>().map_or(f32::NAN, |p| p.y);
        let dy = e.get::<Velocity>().map_or(f32::NAN, |v| v.dy);
        let dead = if e.is_dead() { "  (dead)" } else { "" };
        println!(
            "frame {frame}: {updated} updated, y = {y:6.2}, dy = {dy:6.2}, {} entities{dead}",
            world.len()
        );
        if e.is_dead() {
            world.entity_mut(ball)?.revive();
            world
                .entity_mut(ball)?
                .get_mut::<Timer>()
                .expect("has a timer")
                .left = 100;
        }
    }
    Ok(())
}
