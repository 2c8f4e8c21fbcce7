//! Data-driven entities: blueprints loaded from `examples/data/blueprints`,
//! spawned and cloned, a world saved and loaded, and bad blueprints (from
//! `examples/data/bad`) refused with errors that name the JSON path.
//!
//! Run with `cargo run --example blueprints`.

use std::path::Path;

use ecs_core::prelude::*;
use ecs_core::BlueprintLibrary;
use serde::{Deserialize, Serialize};

#[derive(Component, Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
struct Transform {
    x: f32,
    y: f32,
    z: f32,
}

#[derive(Component, Debug, Clone, Serialize, Deserialize)]
struct Model {
    mesh: String,
    #[serde(default)]
    should_render: bool,
}

#[derive(Component, Debug, Clone, Default, Serialize, Deserialize)]
struct AnimationController {
    #[serde(default)]
    clip: Option<String>,
}

#[derive(Component, Debug, Clone, Serialize, Deserialize)]
#[component(multiple)]
struct Collider {
    radius: f32,
}

fn main() -> Result<(), Error> {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/data");
    let library = BlueprintLibrary::load_dir(data.join("blueprints"))?;
    println!("blueprints: {:?}", library.tags().collect::<Vec<_>>());

    let mut world = World::new();
    let hazmat = world.spawn_blueprint(library.get("Hazmat").expect("loaded"))?;
    let crates = world.spawn_blueprints(library.get("Crate").expect("loaded"), 3)?;
    println!(
        "spawned {:?} and {} crates; {} entities",
        world.entity(hazmat)?,
        crates.len(),
        world.len()
    );

    let copy = world.clone_tree(hazmat)?;
    println!(
        "clone_tree: {:?} with child {:?}",
        copy,
        world.entity(copy)?.children().collect::<Vec<_>>()
    );

    // By name, as a console or an editor would.
    world
        .entity_mut(crates[0])?
        .add_by_name("AnimationController")?;
    println!(
        "crate 0 has an AnimationController: {}",
        world
            .entity(crates[0])?
            .has_by_name("AnimationController")?
    );

    let json = world.save_json()?;
    let loaded = World::load_json(&json)?;
    println!(
        "saved {} bytes; loaded {} entities; identical when saved again: {}",
        json.len(),
        loaded.len(),
        loaded.save_json()? == json
    );

    println!("\nbad blueprints:");
    let mut bad: Vec<_> = std::fs::read_dir(data.join("bad"))
        .map_err(|e| Error::Io {
            path: "examples/data/bad".into(),
            message: e.to_string(),
        })?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .collect();
    bad.sort();
    for file in bad {
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        let before = world.len();
        let result = Blueprint::from_json(&text).and_then(|bp| world.spawn_blueprint(&bp));
        let name = file
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        match result {
            Ok(id) => println!("  {name}: unexpectedly spawned {id:?}"),
            Err(error) => println!("  {name}: {error}"),
        }
        assert_eq!(
            world.len(),
            before,
            "a refused blueprint leaves nothing behind"
        );
    }
    Ok(())
}
