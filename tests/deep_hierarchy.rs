//! Trees of any depth and width: loading, cloning, inspecting and
//! despawning them neither recurses (a stack overflow aborts the process,
//! which no `catch_unwind` can stop) nor takes time quadratic in their size.
//!
//! Each deep case runs in a child process (this test binary, asked to run
//! that one test), so an abort fails that test instead of ending the run.

use std::process::Command;
use std::time::Instant;

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

/// Time to despawn a parent of `width` children (built untimed).
fn despawn_wide(width: usize) -> f64 {
    let mut world = World::new();
    let parent = world.spawn();
    for i in 0..width {
        let child = world.spawn_with((Link(i as u32),)).unwrap();
        world.set_parent(child, parent).unwrap();
    }
    let start = Instant::now();
    world.despawn(parent).unwrap();
    assert!(world.is_empty());
    start.elapsed().as_secs_f64()
}

/// Time to load a chain of `depth` entities (saved untimed).
fn load_chain(depth: usize) -> f64 {
    let mut world = World::new();
    chain(&mut world, depth);
    let saved = world.save_json().unwrap();
    let start = Instant::now();
    let loaded = World::load_json(&saved).unwrap();
    let elapsed = start.elapsed().as_secs_f64();
    assert_eq!(loaded.len(), depth);
    elapsed
}

/// How much longer `large` takes than `small` (four times the size): the
/// best of five runs each, taken in turn so that a burst of load elsewhere
/// on the machine lands on both sizes. A linear operation gives about 4
/// (more when the larger size outgrows a cache), a quadratic one 16; the
/// tests draw the line at 11, well clear of both.
fn scaling_ratio(small: impl Fn() -> f64, large: impl Fn() -> f64) -> f64 {
    let (mut best_small, mut best_large) = (f64::INFINITY, f64::INFINITY);
    for _ in 0..5 {
        best_small = best_small.min(small());
        best_large = best_large.min(large());
    }
    best_large / best_small
}

/// What separates linear from quadratic in [`scaling_ratio`].
const LINEAR_AT_MOST: f64 = 11.0;

/// Four times the size must cost well under the sixteen times a quadratic
/// operation would (each detach once scanned every sibling; each loaded
/// link once walked every ancestor).
#[test]
fn wide_despawns_and_deep_loads_scale_linearly() {
    let (small, large) = (5_000, 20_000);
    let despawn = scaling_ratio(|| despawn_wide(small), || despawn_wide(large));
    assert!(
        despawn < LINEAR_AT_MOST,
        "despawning 4x the children took {despawn:.1}x as long"
    );
    let load = scaling_ratio(|| load_chain(small), || load_chain(large));
    assert!(
        load < LINEAR_AT_MOST,
        "loading a 4x deeper chain took {load:.1}x as long"
    );
}

/// A `multiple` component, many of which one blueprint entity may list.
#[derive(Component, Debug, Clone, serde::Serialize, serde::Deserialize)]
#[component(multiple, name = "deep_hierarchy::Tag")]
struct Tag(u32);

/// Time to spawn one entity listing `count` `Tag`s from a blueprint (its
/// text built and parsed untimed).
fn spawn_many_tags(count: usize) -> f64 {
    let components: Vec<String> = (0..count)
        .map(|i| format!(r#"{{"type": "deep_hierarchy::Tag", "data": {i}}}"#))
        .collect();
    let text = format!(
        r#"{{"tag": "crowd", "components": [{}]}}"#,
        components.join(",")
    );
    let blueprint = Blueprint::from_json(&text).unwrap();
    let mut world = World::new();
    let start = Instant::now();
    let id = world.spawn_blueprint(&blueprint).unwrap();
    let elapsed = start.elapsed().as_secs_f64();
    assert_eq!(world.entity(id).unwrap().get_all::<Tag>().count(), count);
    elapsed
}

/// The single-per-entity check over one entity's listed components once
/// compared every pair: 40,000 tags took seconds.
#[test]
fn a_blueprint_listing_many_components_spawns_in_linear_time() {
    let ratio = scaling_ratio(|| spawn_many_tags(4_000), || spawn_many_tags(16_000));
    assert!(
        ratio < LINEAR_AT_MOST,
        "4x the components took {ratio:.1}x as long"
    );
}

/// Time to despawn `count` entities sharing a name, oldest first, asking
/// for the name's first carrier after each.
fn despawn_and_find(count: usize) -> f64 {
    let mut world = World::new();
    let ids: Vec<EntityId> = (0..count).map(|_| world.spawn_named("crate")).collect();
    let start = Instant::now();
    for (i, &id) in ids.iter().enumerate() {
        world.despawn(id).unwrap();
        assert_eq!(world.find_by_name("crate"), ids.get(i + 1).copied());
    }
    start.elapsed().as_secs_f64()
}

/// The first carrier of a name is found in constant time however many
/// carriers before it were removed (each lookup once walked past every
/// removal not yet swept).
#[test]
fn finding_a_name_after_many_removals_scales_linearly() {
    let ratio = scaling_ratio(|| despawn_and_find(5_000), || despawn_and_find(20_000));
    assert!(
        ratio < LINEAR_AT_MOST,
        "4x the carriers took {ratio:.1}x as long"
    );
}
