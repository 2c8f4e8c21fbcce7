//! The showcase played headless, as `cargo run --example showcase` plays
//! when its output is not a terminal (or with `--headless`): the autopilot
//! plays and the game is written as text. The first frames are compared to
//! a snapshot; the game must be deterministic for a seed, the seed must
//! matter, and a longer run must tell the whole story.

use ecs_showcase::headless;

fn play(frames: u32, seed: u64) -> String {
    let mut out = String::new();
    headless::run(frames, seed, &mut out).expect("the showcase runs");
    out
}

/// The output without its first line, which names the seed.
fn game_only(out: &str) -> &str {
    out.split_once('\n').map_or(out, |(_, rest)| rest)
}

/// `cargo run --example showcase -- --headless --frames 50 --seed 7`. If a
/// change to the game is intended, paste that command's output here.
const SNAPSHOT_50_FRAMES_SEED_7: &str = r#"showcase, headless: seed 7, up to 50 frames of 0.05 s; the autopilot plays
[   0] level 1: First steps
frame 1 | level 1 | score 0 | lives 3 | bombs 1 range 2 speed 5 | enemies 2
  ###############
  #@..%...%....s#
  #.#.#%#.#.#%#.#
  #..%...%...%..#
  #%#.#.#.#.#.#%#
  #...%..s..%...#
  #.#.#%#.#.#.#.#
  #.%.....%...%.#
  #.#%#.#.#%#.#.#
  #...%...%.....#
  ###############
[   9] player drops a bomb at (1,3)
frame 40 | level 1 | score 0 | lives 3 | bombs 1 range 2 speed 5 | enemies 2
  ###############
  #..@%...%.s...#
  #.#.#%#.#.#%#.#
  #o.%...%...%..#
  #%#.#.#.#.#.#%#
  #...%.....%...#
  #.#.#%#.#.#.#.#
  #.%.....%...%.#
  #.#%#.#s#%#.#.#
  #...%...%.....#
  ###############
[  50] crate at (3,3) burns
[  50] crate at (1,4) burns
frame 50 | level 1 | score 20 | lives 3 | bombs 1 range 2 speed 5 | enemies 2
  ###############
  #*.@%...%s....#
  #*#.#%#.#.#%#.#
  #***...%...%..#
  #*#.#.#.#.#.#%#
  #...%.....%...#
  #.#.#%#.#.#.#.#
  #.%.....%...%.#
  #.#%#.#.#%#.#.#
  #...%..s%.....#
  ###############

Summary after 50 frames (Playing)
  level reached:    1 (First steps)
  score:            20
  enemies killed:   0
  crates burnt:     2
  power-ups taken:  0
  bombs dropped:    1
  collider handles: 11 tracked, 0 dropped as their entities went
  blocked cells:    rebuilt on 2 of 50 frames (the others saw no crate or bomb change)
  entities:         28 (0 dead), 15 tables
"#;

#[test]
fn first_frames_match_the_snapshot() {
    let out = play(50, 7);
    assert!(
        out == SNAPSHOT_50_FRAMES_SEED_7,
        "the showcase changed; if that is intended, update the snapshot:\n{out}"
    );
}

#[test]
fn a_seed_always_plays_the_same_game() {
    assert_eq!(play(300, 7), play(300, 7));
    assert_eq!(play(300, 1234), play(300, 1234));
}

#[test]
fn another_seed_plays_another_game() {
    let seven = play(200, 7);
    for seed in [8, 42] {
        assert_ne!(
            game_only(&seven),
            game_only(&play(200, seed)),
            "seed {seed}"
        );
    }
}

/// The default headless run (800 frames, seed 7) tells the story: bombs,
/// burning crates, power-ups, enemies killed, a level cleared and the next
/// one loaded from its blueprint, while the collision manager's weak
/// handles to despawned colliders are dropped.
#[test]
fn the_default_run_shows_every_feature() {
    let out = play(800, 7);
    for event in [
        "player drops a bomb",
        "crate at (3,3) burns",
        "leaving a",
        "player picks up",
        "spots the player",
        "soldier-2 killed by fire (+100)",
        "level 1 cleared",
        "level 2: Runners",
        "dropped as their entities went",
    ] {
        assert!(out.contains(event), "missing `{event}` in:\n{out}");
    }
}

/// The cells that block a step are rebuilt only on frames where a crate
/// or bomb was added, changed or removed (change ticks and an observer),
/// and the game plays the same as when they were rebuilt every frame (the
/// seeds' stories above).
#[test]
fn blocked_cells_are_rebuilt_only_when_a_blocker_changed() {
    let out = play(800, 7);
    let line = out
        .lines()
        .find(|l| l.contains("blocked cells:"))
        .expect("the summary counts the rebuilds");
    let numbers: Vec<u32> = line
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    let [rebuilt, frames] = numbers[..] else {
        panic!("two counts in `{line}`");
    };
    assert!(rebuilt > 1 && rebuilt < frames, "{line}");
}

/// Longer, the autopilot plays through every level (the tank's armour
/// takes a hit first: its overridden receiver).
#[test]
fn the_autopilot_can_win() {
    let out = play(3000, 7);
    for event in [
        "level 3: The tank",
        "tank-1 loses armour",
        "tank-1 killed by",
        "you win",
    ] {
        assert!(out.contains(event), "missing `{event}` in:\n{out}");
    }
}
