//! Rollback netcode with snapshots: two peers exchange their players'
//! inputs with a delay. Each simulates every frame at once, predicting the
//! other player's input (the last one it heard); when the real input
//! arrives and differs, it restores the snapshot of that frame and
//! simulates again from there. Both must end bit-identical.
//!
//! ```text
//! cargo run --example rollback
//! ```
//!
//! The simulation spawns and despawns bullets that point at their owner,
//! so a restore must give back the same ids, the same free slots and the
//! same iteration order for the peers to agree.

use std::collections::VecDeque;
use std::time::Instant;

use ecs_core::prelude::*;

/// Frames an input takes to reach the other peer.
const DELAY: usize = 4;
/// Frames simulated.
const FRAMES: usize = 600;
/// Snapshots kept: enough to go back `DELAY` frames and a margin.
const KEPT: usize = DELAY + 4;

#[derive(Component, Clone, Debug, serde::Serialize, serde::Deserialize)]
#[component(name = "rollback::Player")]
struct Player(usize);

#[derive(Component, Clone, Debug, serde::Serialize, serde::Deserialize)]
#[component(name = "rollback::Position")]
struct Position(i64);

#[derive(Component, Clone, Debug, serde::Serialize, serde::Deserialize)]
#[component(name = "rollback::Velocity")]
struct Velocity(i64);

#[derive(Component, Clone, Debug, serde::Serialize, serde::Deserialize)]
#[component(name = "rollback::Bullet")]
struct Bullet {
    owner: EntityId,
    age: u32,
}

/// A player's input for one frame: -1, 0 or 1.
type Input = i8;

/// Marsaglia's xorshift: the same inputs on every run.
struct Inputs(u64);

impl Inputs {
    fn next(&mut self) -> Input {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        // Players hold a direction for a while, as people do.
        match self.0 % 10 {
            0 => -1,
            1 => 1,
            _ => 0,
        }
    }
}

/// The world both peers start from.
fn start() -> World {
    let mut world = World::new();
    for player in 0..2 {
        world
            .spawn_with((Player(player), Position(player as i64 * 100), Velocity(0)))
            .unwrap();
    }
    world
}

/// One frame of the game: inputs steer the players, a player moving right
/// fires, bullets fly and expire.
fn step(world: &mut World, inputs: [Input; 2]) {
    let mut fired = Vec::new();
    for (id, player, pos, vel) in
        world.query_mut::<(EntityId, &Player, &mut Position, &mut Velocity)>()
    {
        vel.0 = (vel.0 + i64::from(inputs[player.0])).clamp(-5, 5);
        pos.0 += vel.0;
        if inputs[player.0] > 0 {
            fired.push((id, pos.0));
        }
    }
    for (owner, at) in fired {
        world
            .spawn_with((Bullet { owner, age: 0 }, Position(at), Velocity(3)))
            .unwrap();
    }
    let mut expired = Vec::new();
    for (id, bullet, pos, vel) in
        world.query_mut::<(EntityId, &mut Bullet, &mut Position, &Velocity)>()
    {
        bullet.age += 1;
        pos.0 += vel.0;
        if bullet.age > 30 {
            expired.push(id);
        }
    }
    for id in expired {
        world.despawn(id).unwrap();
    }
}

/// One peer: its world, the inputs it knows, and the snapshots of the
/// frames it may have to go back to.
struct Peer {
    me: usize,
    world: World,
    /// The inputs each frame was simulated with (the other player's
    /// predicted until heard).
    used: Vec<[Input; 2]>,
    /// The other player's inputs heard so far, by frame.
    heard: Vec<Option<Input>>,
    /// This peer's own inputs, by frame.
    locals: Vec<Input>,
    /// The snapshot taken at the start of each recent frame.
    snapshots: VecDeque<(usize, Snapshot)>,
    rollbacks: usize,
    resimulated: usize,
}

impl Peer {
    fn new(me: usize) -> Self {
        Peer {
            me,
            world: start(),
            used: Vec::new(),
            heard: Vec::new(),
            locals: Vec::new(),
            snapshots: VecDeque::new(),
            rollbacks: 0,
            resimulated: 0,
        }
    }

    /// The other player's input for `frame`: heard, or predicted as the
    /// last one heard before it.
    fn other(&self, frame: usize) -> Input {
        self.heard[..=frame.min(self.heard.len().saturating_sub(1))]
            .iter()
            .rev()
            .find_map(|&i| i)
            .unwrap_or(0)
    }

    /// Simulates the next frame with the local input.
    fn advance(&mut self, local: Input) {
        let frame = self.used.len();
        if self.heard.len() <= frame {
            self.heard.resize(frame + 1, None);
        }
        self.snapshots
            .push_back((frame, self.world.snapshot().unwrap()));
        if self.snapshots.len() > KEPT {
            self.snapshots.pop_front();
        }
        let mut inputs = [0; 2];
        inputs[self.me] = local;
        inputs[1 - self.me] = self.other(frame);
        step(&mut self.world, inputs);
        self.used.push(inputs);
    }

    /// The other player's input for `frame` arrived: when the prediction
    /// was wrong, go back to that frame and simulate again.
    fn hear(&mut self, frame: usize, input: Input) {
        if self.heard.len() <= frame {
            self.heard.resize(frame + 1, None);
        }
        self.heard[frame] = Some(input);
        let Some(first_wrong) =
            (frame..self.used.len()).find(|&f| self.used[f][1 - self.me] != self.other(f))
        else {
            return;
        };
        let (_, snapshot) = self
            .snapshots
            .iter()
            .find(|(f, _)| *f == first_wrong)
            .expect("a snapshot is kept for every frame an input can still change");
        self.world.restore(snapshot).unwrap();
        self.rollbacks += 1;
        let end = self.used.len();
        self.used.truncate(first_wrong);
        self.snapshots.retain(|(f, _)| *f < first_wrong);
        for f in first_wrong..end {
            let local = self.used_local(f);
            self.advance(local);
            self.resimulated += 1;
        }
    }

    fn used_local(&self, frame: usize) -> Input {
        self.locals[frame]
    }
}

/// Runs the two peers for `frames` frames and delivers every input; returns
/// both worlds' saves and each peer's (rollbacks, frames re-simulated).
fn play(frames: usize) -> ([String; 2], [(usize, usize); 2]) {
    let mut peers = [Peer::new(0), Peer::new(1)];
    let mut sources = [Inputs(0x9E37_79B9), Inputs(0x85EB_CA6B)];
    // Inputs in flight: (arrives at frame, to peer, of frame, input).
    let mut wire: Vec<(usize, usize, usize, Input)> = Vec::new();
    for frame in 0..frames {
        for (me, peer) in peers.iter_mut().enumerate() {
            let input = sources[me].next();
            peer.locals.push(input);
            peer.advance(input);
            wire.push((frame + DELAY, 1 - me, frame, input));
        }
        wire.retain(|&(arrives, to, of, input)| {
            if arrives > frame {
                return true;
            }
            peers[to].hear(of, input);
            false
        });
    }
    for (_, to, of, input) in wire.drain(..) {
        peers[to].hear(of, input);
    }
    let saves = [
        peers[0].world.save_json().unwrap(),
        peers[1].world.save_json().unwrap(),
    ];
    let stats = [
        (peers[0].rollbacks, peers[0].resimulated),
        (peers[1].rollbacks, peers[1].resimulated),
    ];
    (saves, stats)
}

fn main() {
    let started = Instant::now();
    let ([a, b], stats) = play(FRAMES);
    let took = started.elapsed();
    assert_eq!(a, b, "the peers disagree");
    println!(
        "{FRAMES} frames, inputs {DELAY} frames late: peer 0 rolled back {} times \
         ({} frames again), peer 1 {} times ({} frames again); both end identical \
         ({} bytes saved) in {:.1} ms",
        stats[0].0,
        stats[0].1,
        stats[1].0,
        stats[1].1,
        a.len(),
        took.as_secs_f64() * 1e3,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_peers_end_identical_after_rolling_back() {
        let ([a, b], stats) = play(300);
        assert_eq!(a, b);
        assert!(
            stats.iter().all(|&(rollbacks, _)| rollbacks > 0),
            "{stats:?}"
        );
    }

    #[test]
    fn a_peer_that_rolls_back_ends_where_one_that_waited_does() {
        // The same inputs simulated in order, with no prediction.
        let mut sources = [Inputs(0x9E37_79B9), Inputs(0x85EB_CA6B)];
        let mut world = start();
        for _ in 0..300 {
            let inputs = [sources[0].next(), sources[1].next()];
            step(&mut world, inputs);
        }
        let ([a, _], _) = play(300);
        assert_eq!(a, world.save_json().unwrap());
    }
}
