//! Writes the README's pictures from a recorded headless run:
//! `docs/showcase.gif` (the autopilot playing, tiles drawn by the
//! showcase) and `docs/inspector.png` (the terminal screen with the
//! inspector open); and the Graphviz DOT of the showcase's component
//! types and of its scene graph while a bomb burns (`docs/types.dot`,
//! `docs/scene.dot`), for `dot` to draw:
//!
//! ```text
//! cargo run --release --example pictures
//! dot -Tsvg docs/types.dot -o docs/types.svg
//! dot -Tsvg -Grankdir=LR docs/scene.dot -o docs/scene.svg
//! ```

use std::path::Path;

use ecs_showcase::ai::PlayerAi;
use ecs_showcase::{pictures, Game};

/// Frames recorded, one GIF frame every `EVERY` game frames (seed 7: level 1
/// cleared and level 2 started).
const FRAMES: u32 = 760;
const EVERY: u32 = 2;
const SEED: u64 = 7;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs");
    std::fs::create_dir_all(&docs)?;
    let gif = pictures::record_gif(FRAMES, SEED, EVERY)?;
    std::fs::write(docs.join("showcase.gif"), &gif)?;
    println!("wrote docs/showcase.gif ({} KB)", gif.len() / 1024);
    let screen = pictures::inspector_screen(124, 34, 300, SEED)?;
    let png = pictures::buffer_png(&screen)?;
    std::fs::write(docs.join("inspector.png"), &png)?;
    println!("wrote docs/inspector.png ({} KB)", png.len() / 1024);
    // Frame 50 of seed 7: the first bomb burns, its flames its children.
    let mut game = Game::new(SEED)?;
    let mut ai = PlayerAi::new();
    for _ in 0..50 {
        let input = ai.decide(&game);
        game.step(input)?;
    }
    std::fs::write(docs.join("scene.dot"), game.world.scene_graph_dot())?;
    std::fs::write(docs.join("types.dot"), ecs_core::type_hierarchy_dot())?;
    println!("wrote docs/scene.dot and docs/types.dot");
    Ok(())
}
