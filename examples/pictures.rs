//! Writes the README's pictures from a recorded headless run:
//! `docs/showcase.gif` (the autopilot playing, tiles drawn by the
//! showcase) and `docs/inspector.png` (the terminal screen with the
//! inspector open).
//!
//! ```text
//! cargo run --release --example pictures
//! ```

use std::path::Path;

use ecs_showcase::pictures;

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
    Ok(())
}
