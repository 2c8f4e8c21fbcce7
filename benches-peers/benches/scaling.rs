//! How ecs-core's hierarchy, load, blueprint and name operations scale with
//! their size (ours only). Each group times one operation at [`SMALL`] and
//! at four times that, [`LARGE`]; ids are `group/size`, and every id
//! declares `Throughput::Elements(size)`, so criterion's per-element time
//! compares the two sizes directly: linear scaling gives the same time per
//! element at both, a quadratic operation four times as much at the larger.
//!
//! These replace the timed scaling assertions `tests/deep_hierarchy.rs`
//! once made (a timed test fails on a loaded machine). Run with
//! `cargo bench --bench scaling` from `benches-peers/`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion, Throughput};
use ecs_core::{Blueprint, Component, EntityId, World};

/// The smaller size of every group.
const SMALL: usize = 5_000;
/// Four times [`SMALL`].
const LARGE: usize = 4 * SMALL;

#[derive(Component, Clone, Copy, Debug, serde::Serialize, serde::Deserialize)]
#[component(name = "scaling::Link")]
struct Link(u32);

/// A `multiple` component, many of which one blueprint entity lists.
#[derive(Component, Clone, Copy, Debug, serde::Serialize, serde::Deserialize)]
#[component(multiple, name = "scaling::Tag")]
struct Tag(u32);

/// Runs `bench` once per size in a group named `name`, each id declaring its
/// size as its throughput in elements.
fn by_size(c: &mut Criterion, name: &str, mut bench: impl FnMut(&mut criterion::Bencher, usize)) {
    let mut group = c.benchmark_group(name);
    for size in [SMALL, LARGE] {
        group.throughput(Throughput::Elements(size as u64));
        group.bench_with_input(BenchmarkId::from_parameter(size), &size, |b, &size| {
            bench(b, size)
        });
    }
    group.finish();
}

/// A chain of `depth` entities, each the parent of the next.
fn chain(world: &mut World, depth: usize) {
    let mut parent = None;
    for i in 0..depth {
        let id = world.spawn_with((Link(i as u32),)).unwrap();
        if let Some(parent) = parent {
            world.set_parent(id, parent).unwrap();
        }
        parent = Some(id);
    }
}

/// Despawning one parent of `size` children (built untimed): each child's
/// detach once scanned every sibling.
fn bench_despawn_wide(c: &mut Criterion) {
    by_size(c, "despawn_wide", |b, size| {
        b.iter_batched(
            || {
                let mut world = World::new();
                let parent = world.spawn();
                for i in 0..size {
                    let child = world.spawn_with((Link(i as u32),)).unwrap();
                    world.set_parent(child, parent).unwrap();
                }
                (world, parent)
            },
            |(mut world, parent)| {
                world.despawn(black_box(parent)).unwrap();
                world
            },
            BatchSize::LargeInput,
        )
    });
}

/// Loading a chain `size` deep from JSON (saved untimed): each loaded link
/// once walked every ancestor.
fn bench_load_chain(c: &mut Criterion) {
    by_size(c, "load_chain", |b, size| {
        let mut world = World::new();
        chain(&mut world, size);
        let saved = world.save_json().unwrap();
        b.iter_batched(
            || (),
            |()| World::load_json(black_box(&saved)).unwrap(),
            BatchSize::LargeInput,
        )
    });
}

/// Spawning one entity that lists `size` `multiple` tags from a blueprint
/// (its text built and parsed untimed): the single-per-entity check over one
/// entity's listed components once compared every pair.
fn bench_blueprint_many_tags(c: &mut Criterion) {
    by_size(c, "blueprint_many_tags", |b, size| {
        let components: Vec<String> = (0..size)
            .map(|i| format!(r#"{{"type": "scaling::Tag", "data": {i}}}"#))
            .collect();
        let text = format!(
            r#"{{"tag": "crowd", "components": [{}]}}"#,
            components.join(",")
        );
        let blueprint = Blueprint::from_json(&text).unwrap();
        b.iter_batched(
            World::new,
            |mut world| {
                black_box(world.spawn_blueprint(&blueprint).unwrap());
                world
            },
            BatchSize::LargeInput,
        )
    });
}

/// Despawning `size` carriers of one name (spawned untimed), oldest first,
/// asking for the name's first carrier after each: each lookup once walked
/// past every removal not yet swept.
fn bench_despawn_and_find(c: &mut Criterion) {
    by_size(c, "despawn_and_find", |b, size| {
        b.iter_batched(
            || {
                let mut world = World::new();
                let ids: Vec<EntityId> = (0..size).map(|_| world.spawn_named("crate")).collect();
                (world, ids)
            },
            |(mut world, ids)| {
                for id in &ids {
                    world.despawn(*id).unwrap();
                    black_box(world.find_by_name(black_box("crate")));
                }
                (world, ids)
            },
            BatchSize::LargeInput,
        )
    });
}

fn config() -> Criterion {
    // Each iteration builds a fresh world untimed, so a run takes several
    // times its measurement time; 20 samples keep it short on 2 cores.
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(20)
}

criterion_group! {
    name = scaling;
    config = config();
    targets = bench_despawn_wide, bench_load_chain, bench_blueprint_many_tags,
        bench_despawn_and_find
}
criterion_main!(scaling);
