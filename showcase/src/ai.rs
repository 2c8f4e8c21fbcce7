//! The player's autopilot, for headless runs and the README's pictures: it
//! reads the world through queries, as any game system would, and answers
//! with the same [`Input`] the keyboard gives.
//!
//! Its rules, first that applies: get out of the blast of a ticking bomb
//! (or away from an enemy next to it); drop a bomb when a crate is next to
//! it or an enemy is in the blast, if a way out is short enough; walk to a
//! power-up, else to the nearest cell next to a crate, else towards an
//! enemy; never into flames or a blast to come.

use std::collections::{HashMap, HashSet, VecDeque};

use ecs_core::prelude::*;

use crate::components::{
    AxisMoving, Bomb, Breakable, Collider, Dir, Input, Position, PowerUp, Role,
};
use crate::enemies::Enemy;
use crate::game::{Blocked, Game};

/// The autopilot's memory between frames.
#[derive(Debug, Default, Clone)]
pub struct PlayerAi {
    last: Option<Dir>,
}

/// What the autopilot sees on one frame.
struct View {
    me: Position,
    blocked: Blocked,
    /// Cells a blast will cover, with the seconds before it does (0: burning).
    danger: HashMap<Position, f32>,
    enemies: Vec<Position>,
    crates: HashSet<Position>,
    loot: Vec<Position>,
    seconds_per_cell: f32,
}

impl View {
    fn near_enemy(&self, p: Position) -> bool {
        self.enemies.iter().any(|e| e.manhattan(p) <= 1)
    }

    fn burning(&self, p: Position) -> bool {
        self.danger.get(&p).is_some_and(|&t| t <= 0.0)
    }

    /// Breadth-first from `me` through cells `pass` allows, to the nearest
    /// cell `goal` accepts: the first step and the path length.
    fn search(
        &self,
        pass: impl Fn(Position) -> bool,
        goal: impl Fn(Position) -> bool,
    ) -> Option<(Option<Dir>, usize)> {
        if goal(self.me) {
            return Some((None, 0));
        }
        let mut seen = HashSet::from([self.me]);
        let mut queue = VecDeque::from([(self.me, None::<Dir>, 0usize)]);
        while let Some((p, first, len)) = queue.pop_front() {
            for dir in Dir::ALL {
                let next = p.step(dir);
                if self.blocked.at(next) || !pass(next) || !seen.insert(next) {
                    continue;
                }
                let first = first.or(Some(dir));
                if goal(next) {
                    return Some((first, len + 1));
                }
                queue.push_back((next, first, len + 1));
            }
        }
        None
    }
}

impl PlayerAi {
    /// A fresh autopilot.
    pub fn new() -> Self {
        Self::default()
    }

    /// The input for this frame.
    pub fn decide(&mut self, game: &Game) -> Input {
        let Some(view) = look(game) else {
            return Input::default();
        };
        let world = &game.world;
        let player = world.entity(game.player()).ok();
        let on_cell = player
            .as_ref()
            .and_then(|e| e.get::<AxisMoving>())
            .is_none_or(AxisMoving::on_cell);
        if !on_cell {
            return Input {
                wish: self.last,
                bomb: false,
            };
        }
        let input = self.choose(game, &view);
        self.last = input.wish;
        input
    }

    fn choose(&self, game: &Game, view: &View) -> Input {
        let me = view.me;
        let go = |wish: Option<Dir>| Input { wish, bomb: false };
        // 1. In a blast to come, or next to an enemy: find a safe cell.
        if view.danger.contains_key(&me) || view.near_enemy(me) {
            let escape = view.search(
                |p| !view.burning(p) && !view.enemies.contains(&p),
                |p| !view.danger.contains_key(&p) && !view.near_enemy(p),
            );
            return go(escape.and_then(|(first, _)| first));
        }
        // 2. A bomb here would do something, and there is a way out in time.
        let (range, bombs) = game.player_state().map_or((1, 0), |p| (p.range, p.bombs));
        let ticking = game
            .world
            .query::<(&Bomb,)>()
            .into_iter()
            .filter(|(b,)| !b.exploded && b.owner == Some(game.player()))
            .count();
        let blast = game.flame_cells(me, range);
        let useful = Dir::ALL.iter().any(|&d| view.crates.contains(&me.step(d)))
            || view.enemies.iter().any(|e| blast.contains(e));
        if useful && (ticking as u32) < bombs {
            let fuse = game.player_state().map_or(2.0, |p| p.fuse);
            let out = view.search(
                |p| !view.burning(p) && !view.near_enemy(p) && p != me,
                |p| !blast.contains(&p) && !view.danger.contains_key(&p),
            );
            if let Some((first, len)) = out {
                if (len as f32 + 1.0) * view.seconds_per_cell < fuse - 0.3 {
                    return Input {
                        wish: first,
                        bomb: true,
                    };
                }
            }
        }
        // 3. Somewhere worth going, through safe cells only.
        let safe = |p: Position| !view.danger.contains_key(&p) && !view.near_enemy(p);
        let loot = view.search(safe, |p| view.loot.contains(&p));
        let crate_side = || {
            view.search(safe, |p| {
                Dir::ALL.iter().any(|&d| view.crates.contains(&p.step(d)))
            })
        };
        let hunt = || {
            view.search(safe, |p| {
                view.enemies.iter().any(|e| {
                    let d = e.manhattan(p);
                    (2..=range).contains(&d) && (e.x == p.x || e.y == p.y)
                })
            })
        };
        let target = loot.or_else(crate_side).or_else(hunt);
        go(target.and_then(|(first, _)| first))
    }
}

/// Reads what the autopilot needs from the world.
fn look(game: &Game) -> Option<View> {
    let world = &game.world;
    let player = world.entity(game.player()).ok()?;
    if !player.is_active() {
        return None;
    }
    let me = *player.get::<Position>()?;
    let speed = game.player_speed().max(0.1);
    let mut danger: HashMap<Position, f32> = HashMap::new();
    for (bomb, at) in world.query::<(&Bomb, &Position)>() {
        if !bomb.exploded {
            for cell in game.flame_cells(*at, bomb.range) {
                let t = danger.entry(cell).or_insert(bomb.fuse);
                *t = t.min(bomb.fuse);
            }
        }
    }
    for (colliders, at) in world.query::<(All<&Collider>, &Position)>() {
        if colliders.iter().any(|c| c.role == Role::Fire) {
            danger.insert(*at, 0.0);
        }
    }
    let enemies = world
        .query::<(&Enemy, &Position)>()
        .into_iter()
        .map(|(_, p)| *p)
        .collect();
    let crates = world
        .query::<(&Breakable, &Position)>()
        .into_iter()
        .map(|(_, p)| *p)
        .collect();
    let loot = world
        .query::<(&PowerUp, &Position)>()
        .into_iter()
        .map(|(_, p)| *p)
        .collect();
    Some(View {
        me,
        blocked: game.blocked(),
        danger,
        enemies,
        crates,
        loot,
        seconds_per_cell: 1.0 / speed,
    })
}
