//! Data-driven entities: blueprints loaded from `examples/data/blueprints`
//! (one a variant of another), spawned and cloned, a level placed from
//! `examples/data/levels`, a world with an entity reference saved as JSON
//! and as a binary snapshot and loaded back, and bad blueprints (from
//! `examples/data/bad`) refused with errors that name the JSON path.
//!
//! Run with `cargo run --example blueprints`.

use std::path::Path;

use ecs_core::prelude::*;
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

/// Aims at another entity: in a blueprint, a local id of its own tree (0
/// is the blueprint's entity, then its children depth-first); in a saved
/// world, remapped to the loaded entity.
#[derive(Component, Debug, Clone, Default, Serialize, Deserialize)]
struct Turret {
    target: Option<EntityId>,
    range: f32,
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

    // A variant: the Hazmat with another model, one collider patched, its
    // animation removed, a turret aimed at its own first child added.
    let captain = world.spawn_blueprint(library.get("HazmatCaptain").expect("loaded"))?;
    let e = world.entity(captain)?;
    let turret = e.get::<Turret>().expect("added by the variant");
    println!(
        "variant {:?}: {} colliders, turret aimed at {:?} (its child {:?})",
        e.name(),
        e.get_all::<Collider>().count(),
        turret.target,
        world.entity(turret.target.expect("aimed"))?.name()
    );

    // A level: instances of the library's blueprints with overrides.
    let text = std::fs::read_to_string(data.join("levels/yard.json")).map_err(|e| Error::Io {
        path: "examples/data/levels/yard.json".into(),
        message: e.to_string(),
    })?;
    let level = Level::from_json(&text, &library)?;
    let placed = world.spawn_level(&level)?;
    println!("level yard: placed {} instances", placed.len());

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
        "saved {} bytes of JSON; loaded {} entities; identical when saved again: {}",
        json.len(),
        loaded.len(),
        loaded.save_json()? == json
    );
    // The binary snapshot, and the turret's reference after a load.
    let order = world.save_order();
    let snapshot = world.save_binary()?;
    let loaded = World::load(&snapshot)?;
    let new_captain = loaded.ids.by_old(&order)[&captain];
    let target = loaded
        .world
        .entity(new_captain)?
        .get::<Turret>()
        .and_then(|t| t.target);
    let target_name = match target {
        Some(t) => loaded.world.entity(t)?.name().map(str::to_owned),
        None => None,
    };
    println!(
        "binary snapshot: {} bytes; the loaded captain's turret aims at {target:?}, its child {target_name:?}",
        snapshot.len(),
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
