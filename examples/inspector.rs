//! The inspector: an entity tree with every component's name, instance id,
//! enabled flag and `Debug` value, plus Graphviz DOT files for the component
//! type hierarchy and the scene graph.
//!
//! Run with `cargo run --example inspector`; render the DOT files with
//! `dot -Tsvg target/inspector/scene.dot -o scene.svg`.

// The components' fields are only ever read through `Debug`, by the inspector.
#![allow(dead_code)]

use std::path::Path;

use ecs_core::prelude::*;

#[derive(Component, Debug, Clone)]
struct Transform {
    x: f32,
    y: f32,
}

#[derive(Component, Debug, Clone)]
struct Moving {
    speed: f32,
}

#[derive(Component, Debug, Clone)]
#[component(parent = Moving)]
struct AxisMoving {
    base: Moving,
    vertical: bool,
}

#[derive(Component, Debug)]
#[component(multiple)]
struct Collider {
    radius: f32,
}

#[derive(Component, Debug)]
#[component(multiple, parent = Collider)]
struct Sensor(Collider);

/// No `Debug`: the inspector shows its name only.
#[derive(Component)]
struct ScriptHandle;

fn main() -> Result<(), Error> {
    let mut world = World::new();
    let level = world.spawn_named("level");
    let player = world.spawn_named("player");
    world.set_parent(player, level)?;
    let mut e = world.entity_mut(player)?;
    e.add(Transform { x: 1.0, y: 2.0 })?;
    e.add(AxisMoving {
        base: Moving { speed: 2.0 },
        vertical: false,
    })?;
    e.add(Collider { radius: 0.5 })?;
    e.add(Sensor(Collider { radius: 2.0 }))?;
    e.add(ScriptHandle)?;
    e.disable::<Sensor>();
    let enemy = world.spawn_named("enemy");
    world.set_parent(enemy, level)?;
    world.entity_mut(enemy)?.add(Transform { x: 5.0, y: 5.0 })?;
    world.entity_mut(enemy)?.add(Moving { speed: 1.0 })?;
    world.entity_mut(enemy)?.kill();

    print!("{}", world.inspect());

    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/inspector");
    let write = |name: &str, text: String| -> Result<(), Error> {
        let path = dir.join(name);
        std::fs::create_dir_all(&dir)
            .and_then(|()| std::fs::write(&path, text))
            .map_err(|e| Error::Io {
                path: path.display().to_string(),
                message: e.to_string(),
            })?;
        println!("wrote {}", path.display());
        Ok(())
    };
    write("types.dot", ecs_core::type_hierarchy_dot())?;
    write("scene.dot", world.scene_graph_dot())?;
    Ok(())
}
