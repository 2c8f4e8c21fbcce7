//! A Bomberman-like arena game in the terminal, in the spirit of Lifish,
//! with a live inspector (Tab). The game itself is the `ecs-showcase` crate
//! (`showcase/`); this is its `main`.
//!
//! ```text
//! cargo run --example showcase                       # play (arrows/WASD, space, p, Tab, q)
//! cargo run --example showcase -- --headless --frames 400 --seed 7
//! ```
//!
//! When standard output is not a terminal (a pipe, CI), or with
//! `--headless`, the autopilot plays and the game is written as text:
//! events, and the arena now and then, the same for the same seed.

use std::io::IsTerminal;

use ecs_showcase::{headless, term};

/// Frames a headless run plays unless `--frames` says otherwise (40 s of game).
const HEADLESS_FRAMES: u32 = 800;

struct Args {
    headless: bool,
    frames: u32,
    seed: u64,
}

/// `--headless`, `--frames N`, `--seed S`, parsed by hand.
fn parse_args() -> Result<Args, String> {
    let mut parsed = Args {
        headless: false,
        frames: HEADLESS_FRAMES,
        seed: 7,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        if flag == "--headless" {
            parsed.headless = true;
            continue;
        }
        let value = args.next().unwrap_or_default();
        let bad = |_| format!("{flag} wants a number, got `{value}`");
        match flag.as_str() {
            "--frames" => parsed.frames = value.parse().map_err(bad)?,
            "--seed" => parsed.seed = value.parse().map_err(bad)?,
            _ => return Err("usage: showcase [--headless] [--frames N] [--seed S]".into()),
        }
    }
    Ok(parsed)
}

fn headless(args: &Args) -> Result<(), Box<dyn std::error::Error>> {
    let mut out = String::new();
    headless::run(args.frames, args.seed, &mut out)?;
    print!("{out}");
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = parse_args()?;
    if args.headless || !std::io::stdout().is_terminal() {
        return headless(&args);
    }
    if let Err(error) = term::play(args.seed) {
        // No usable terminal (no tty to read keys from, say): play headless.
        eprintln!("showcase: cannot play in this terminal ({error}); playing headless");
        return headless(&args);
    }
    Ok(())
}
