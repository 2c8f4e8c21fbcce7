//! The showcase example, played without cargo: `examples/showcase.rs` is
//! included as a module and its `run` writes the game to a string. The
//! first frames are compared to a snapshot; the game must be deterministic
//! for a seed, and the seed must matter.

#[path = "../examples/showcase.rs"]
mod showcase;

fn play(frames: u32, seed: u64) -> String {
    let mut out = String::new();
    showcase::run(frames, seed, &mut out).expect("the showcase runs");
    out
}

/// The output without its first line, which names the seed.
fn game_only(out: &str) -> &str {
    out.split_once('\n').map_or(out, |(_, rest)| rest)
}

/// `cargo run --example showcase -- --frames 3 --seed 7`. If a change to the
/// game is intended, paste that command's output here.
const SNAPSHOT_3_FRAMES_SEED_7: &str = r#"seed 7, 3 frames; the movers, from blueprints:
  player    speed 1, colliders [Body]
  soldier-1 speed 0.5, colliders [Body, Sight]
  runner-2  speed 1, colliders [Body, Sight]
  soldier-3 speed 0.5, colliders [Body, Sight]
  soldier-4 speed 0.5, colliders [Body, Sight]
  a second Moving for the player: refused, it holds AxisMoving

frame 1: 9 collider handles, 0 dropped
  #############
  #@...s..%.r.#
  #.#.#%#.#.#.#
  #..%%...%...#
  #%#.#.#.#%#.#
  #..s..%.....#
  #.#%#.#.#.#.#
  #...%..s..%.#
  #############

frame 2: 9 collider handles, 0 dropped
  - soldier-1 spots the player and gives chase

frame 3: 9 collider handles, 0 dropped
  #############
  #..@s...%.r.#
  #.#.#%#.#.#.#
  #..%%...%...#
  #%#.#.#.#%#.#
  #...s.%.....#
  #.#%#.#.#.#.#
  #...%.s...%.#
  #############

Summary
  enemies killed:   0 of 4 (dead, kept)
  crates destroyed: 0 (despawned)
  entities:         17 alive, 0 dead
  player:           1 spare lives
  events:
      2  soldier-1 spots the player and gives chase
"#;

#[test]
fn first_frames_match_the_snapshot() {
    let out = play(3, 7);
    assert!(
        out == SNAPSHOT_3_FRAMES_SEED_7,
        "the showcase changed; if that is intended, update the snapshot:\n{out}"
    );
}

#[test]
fn a_seed_always_plays_the_same_game() {
    assert_eq!(play(12, 7), play(12, 7));
    assert_eq!(play(12, 1234), play(12, 1234));
}

#[test]
fn another_seed_plays_another_game() {
    let seven = play(3, 7);
    for seed in [8, 42] {
        assert_ne!(game_only(&seven), game_only(&play(3, seed)), "seed {seed}");
    }
}

/// The default run tells the whole story: an explosion kills an enemy and
/// destroys a crate, the player is killed and respawns once, and the dead
/// stay in the world while the flames' collider handles go stale.
#[test]
fn the_default_game_shows_every_feature() {
    let out = play(12, 7);
    for event in [
        "player drops a bomb",
        "player killed by",
        "player respawns",
        "soldier-1 killed by a bomb",
        "crate at (3,3) destroyed",
        "killed by fire",
        "enemies killed:   2 of 4",
        "entities:         14 alive, 2 dead",
        "player:           0 spare lives",
        "collider handles, 7 dropped",
    ] {
        assert!(out.contains(event), "missing `{event}` in:\n{out}");
    }
}
