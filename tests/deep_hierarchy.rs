//! Trees of any depth and width: loading, cloning, inspecting and
//! despawning them does not recurse (a stack overflow aborts the process,
//! which no `catch_unwind` can stop), and large cases come out right. That
//! their time grows linearly with their size is measured by the criterion
//! benchmark `benches-peers/benches/scaling.rs`, not asserted here.
//!
//! Each deep case runs in a child process (this test binary, asked to run
//! that one test), so an abort fails that test instead of ending the run.

use std::process::Command;

use ecs_core::prelude::*;
use ecs_core::INSPECT_MAX_INDENT;

#[derive(Component, Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
struct Link(u32);

/// Far deeper than any thread's stack allows a recursive walk to go (a
/// recursive load overflowed at about 7,000 levels in a debug build).
const DEPTH: usize = 50_000;

/// Runs `body` in a child process running only the test `name`, and fails
/// unless the child exits successfully.
fn isolated(name: &str, body: impl FnOnce()) {
    if std::env::var("ECS_ISOLATED_TEST").as_deref() == Ok(name) {
        body();
        return;
    }
    let output = Command::new(std::env::current_exe().expect("the test binary"))
        .args([name, "--exact", "--test-threads=1", "--nocapture"])
        .env("ECS_ISOLATED_TEST", name)
        .output()
        .expect("the test binary runs");
    assert!(
        output.status.success(),
        "`{name}` failed or aborted in its child process: {:?}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
}

/// A chain of `depth` entities, each the parent of the next; the root
/// first.
fn chain(world: &mut World, depth: usize) -> Vec<EntityId> {
    let mut ids = Vec::with_capacity(depth);
    for i in 0..depth {
        let id = world.spawn_with((Link(i as u32),)).unwrap();
        if let Some(&parent) = ids.last() {
            world.set_parent(id, parent).unwrap();
        }
        ids.push(id);
    }
    ids
}

fn depth_of(world: &World, id: EntityId) -> usize {
    world.entity(id).unwrap().ancestors().count()
}

#[test]
fn a_saved_deep_chain_loads_and_saves_back_the_same() {
    isolated("a_saved_deep_chain_loads_and_saves_back_the_same", || {
        let mut world = World::new();
        chain(&mut world, DEPTH);
        let saved = world.save_json().unwrap();
        let loaded = World::load_json(&saved).unwrap();
        assert_eq!(loaded.len(), DEPTH);
        let leaf = loaded
            .query::<(EntityId, &Link)>()
            .into_iter()
            .find(|(_, l)| l.0 as usize == DEPTH - 1)
            .map(|(id, _)| id)
            .unwrap();
        assert_eq!(depth_of(&loaded, leaf), DEPTH - 1);
        assert_eq!(loaded.save_json().unwrap(), saved);
    });
}

#[test]
fn a_deep_chain_clones_and_inspects() {
    isolated("a_deep_chain_clones_and_inspects", || {
        let mut world = World::new();
        let ids = chain(&mut world, DEPTH);
        let copy = world.clone_tree(ids[0]).unwrap();
        assert_eq!(world.len(), 2 * DEPTH);
        let copied_leaf = world.entity(copy).unwrap().descendants().last().unwrap();
        assert_eq!(depth_of(&world, copied_leaf), DEPTH - 1);
        assert_eq!(
            world.entity(copied_leaf).unwrap().get::<Link>(),
            Some(&Link(DEPTH as u32 - 1))
        );
        let text = world.inspect();
        // Two lines per entity (itself and its one component), and the
        // indentation capped: the text grows linearly with the depth.
        assert_eq!(text.lines().count(), 4 * DEPTH);
        assert!(text.len() < 4 * DEPTH * (2 * INSPECT_MAX_INDENT + 64));
        assert!(text.contains(&format!("[depth {}]", DEPTH - 1)));
        // Dropping the world drops the chain without recursing either.
        drop(world);
    });
}

#[test]
fn a_deep_chain_despawns_from_its_root() {
    isolated("a_deep_chain_despawns_from_its_root", || {
        let mut world = World::new();
        let ids = chain(&mut world, DEPTH);
        let other = world.spawn_with((Link(0),)).unwrap();
        world.despawn(ids[0]).unwrap();
        assert_eq!(world.len(), 1);
        assert!(world.contains(other));
    });
}

/// How wide and how many the untimed large cases below go. How their cost
/// grows with the size (linearly, not quadratically) is measured by the
/// criterion benchmark `benches-peers/benches/scaling.rs`, not here (a
/// deep chain's load, also benchmarked there, is checked above at [`DEPTH`]).
const MANY: usize = 20_000;

/// Despawning a parent detaches and removes each of its children (each
/// detach once scanned every sibling), leaving every other entity.
#[test]
fn despawning_a_parent_of_many_children_leaves_none() {
    let mut world = World::new();
    let parent = world.spawn();
    let children: Vec<EntityId> = (0..MANY)
        .map(|i| {
            let child = world.spawn_with((Link(i as u32),)).unwrap();
            world.set_parent(child, parent).unwrap();
            child
        })
        .collect();
    let other = world.spawn_with((Link(0),)).unwrap();
    assert_eq!(world.entity(parent).unwrap().children().count(), MANY);
    world.despawn(parent).unwrap();
    assert_eq!(world.len(), 1);
    assert!(world.contains(other));
    assert!(!world.contains(parent));
    assert!(children.iter().all(|&child| !world.contains(child)));
}

/// A `multiple` component, many of which one blueprint entity may list.
#[derive(Component, Debug, Clone, serde::Serialize, serde::Deserialize)]
#[component(multiple, name = "deep_hierarchy::Tag")]
struct Tag(u32);

/// One blueprint entity listing 40,000 tags spawns with every one of them
/// (the single-per-entity check over its listed components once compared
/// every pair).
#[test]
fn a_blueprint_listing_many_components_spawns_with_all_of_them() {
    let count = 2 * MANY;
    let components: Vec<String> = (0..count)
        .map(|i| format!(r#"{{"type": "deep_hierarchy::Tag", "data": {i}}}"#))
        .collect();
    let text = format!(
        r#"{{"tag": "crowd", "components": [{}]}}"#,
        components.join(",")
    );
    let blueprint = Blueprint::from_json(&text).unwrap();
    let mut world = World::new();
    let id = world.spawn_blueprint(&blueprint).unwrap();
    let mut values: Vec<u32> = world
        .entity(id)
        .unwrap()
        .get_all::<Tag>()
        .map(|t| t.0)
        .collect();
    values.sort_unstable();
    assert!(values.iter().copied().eq(0..count as u32));
}

/// Despawning many carriers of one name, oldest first, the name's first
/// carrier is the oldest one left after each removal (each lookup once
/// walked past every removal not yet swept), and none after the last.
#[test]
fn a_name_is_found_after_many_removals() {
    let mut world = World::new();
    let ids: Vec<EntityId> = (0..MANY).map(|_| world.spawn_named("crate")).collect();
    let other = world.spawn_named("barrel");
    for (i, &id) in ids.iter().enumerate() {
        world.despawn(id).unwrap();
        assert_eq!(world.find_by_name("crate"), ids.get(i + 1).copied());
    }
    assert_eq!(world.find_by_name("crate"), None);
    assert_eq!(world.find_by_name("barrel"), Some(other));
}
