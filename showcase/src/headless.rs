//! Headless play: the autopilot plays, and the game is written as text:
//! each frame's events, and the arena now and then. The same seed always
//! writes the same text.

use std::fmt::Write;

use ecs_core::Error;

use crate::ai::PlayerAi;
use crate::collide::Colliders;
use crate::game::{Game, Phase, DT};

/// How often the arena is drawn when nothing else asks for it, in frames.
pub const DRAW_EVERY: u32 = 40;

/// Plays `frames` frames with the autopilot, enemies and loot seeded by
/// `seed`, writing events as they happen and the arena on the first frame,
/// every [`DRAW_EVERY`] frames, when a bomb goes off, when a level starts,
/// and on the last frame; then a summary. Stops early when the game is
/// over or won.
pub fn run(frames: u32, seed: u64, out: &mut impl Write) -> Result<(), Error> {
    let mut game = Game::new(seed)?;
    let mut ai = PlayerAi::new();
    let fmt = |_| Error::Io {
        path: "output".into(),
        message: "formatting failed".into(),
    };
    writeln!(
        out,
        "showcase, headless: seed {seed}, up to {frames} frames of {DT} s; the autopilot plays"
    )
    .map_err(fmt)?;
    let mut seen = print_events(&game, 0, out).map_err(fmt)?;
    for _ in 0..frames {
        let input = ai.decide(&game);
        let frame = game.step(input)?;
        seen = print_events(&game, seen, out).map_err(fmt)?;
        let n = game.frame();
        let over = matches!(game.phase(), Phase::GameOver | Phase::Won);
        if n == 1
            || n % DRAW_EVERY == 0
            || frame.explosions > 0
            || frame.level_loaded
            || over
            || n == frames
        {
            draw(&game, out).map_err(fmt)?;
        }
        if over {
            break;
        }
    }
    summary(&game, out).map_err(fmt)
}

/// Writes the journal's lines from index `seen` on; returns the new count.
fn print_events(game: &Game, seen: usize, out: &mut impl Write) -> Result<usize, std::fmt::Error> {
    let events = &game.journal().events;
    for (frame, line) in &events[seen..] {
        writeln!(out, "[{frame:>4}] {line}")?;
    }
    Ok(events.len())
}

/// The status line and the arena, one character per cell.
pub fn draw(game: &Game, out: &mut impl Write) -> std::fmt::Result {
    writeln!(out, "{}", status(game))?;
    for line in game.render_text().lines() {
        writeln!(out, "  {line}")?;
    }
    Ok(())
}

/// `frame 40 | level 1 | score 120 | lives 3 | bombs 1 range 2 speed 5 | enemies 2`
pub fn status(game: &Game) -> String {
    let level = game.level();
    let (lives, bombs, range) = game
        .player_state()
        .map_or((0, 0, 0), |p| (p.lives, p.bombs, p.range));
    format!(
        "frame {} | level {} | score {} | lives {lives} | bombs {bombs} range {range} speed {} | enemies {}",
        game.frame(),
        level.number,
        game.journal().score,
        game.player_speed(),
        game.enemies_left()
    )
}

fn summary(game: &Game, out: &mut impl Write) -> std::fmt::Result {
    let world = &game.world;
    let events = &game.journal().events;
    let count = |what: &str| events.iter().filter(|(_, l)| l.contains(what)).count();
    let (tracked, dropped) = world
        .get_resource::<Colliders>()
        .map_or((0, 0), Colliders::counts);
    let dead = world
        .iter_ids()
        .filter(|&id| world.entity(id).is_ok_and(|e| e.is_dead()))
        .count();
    writeln!(
        out,
        "\nSummary after {} frames ({:?})",
        game.frame(),
        game.phase()
    )?;
    writeln!(
        out,
        "  level reached:    {} ({})",
        game.level().number,
        game.level().title
    )?;
    writeln!(out, "  score:            {}", game.journal().score)?;
    writeln!(out, "  enemies killed:   {}", count(" killed by "))?;
    writeln!(out, "  crates burnt:     {}", count(" burns"))?;
    writeln!(out, "  power-ups taken:  {}", count(" picks up "))?;
    writeln!(out, "  bombs dropped:    {}", count(" drops a bomb"))?;
    writeln!(
        out,
        "  collider handles: {tracked} tracked, {dropped} dropped as their entities went"
    )?;
    writeln!(
        out,
        "  blocked cells:    rebuilt on {} of {} frames (the others saw no crate or bomb change)",
        game.blocked_builds(),
        game.frame()
    )?;
    writeln!(
        out,
        "  entities:         {} ({dead} dead), {} tables",
        world.len(),
        world.table_count()
    )
}
