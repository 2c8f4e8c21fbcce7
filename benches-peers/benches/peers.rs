//! ecs-core against bevy_ecs and hecs. Ids are `scenario/library`; every
//! group declares `Throughput::Elements` so `report.py` can print ns/element.
//!
//! Run everything (bench + memory probe + report) with `benches-peers/run.sh`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use benches_peers::*;
use bevy_ecs::world::World as BevyWorld;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use ecs_core::{EntityId, World as OurWorld};

// ------------------------------------------------------------------ get

/// Looks up type `k % 8` through `$get::<Ty>()`, which yields `Option<f32>`.
macro_rules! get_kth {
    ($k:expr, $get:ident) => {
        match $k & 7 {
            0 => $get!(C0),
            1 => $get!(C1),
            2 => $get!(C2),
            3 => $get!(C3),
            4 => $get!(C4),
            5 => $get!(C5),
            6 => $get!(C6),
            _ => $get!(C7),
        }
    };
}

fn bench_get(c: &mut Criterion) {
    let order = shuffled_indices(N_ENTITIES);
    let mut group = c.benchmark_group("get");
    group.throughput(Throughput::Elements(N_ENTITIES as u64));

    {
        let mut world = OurWorld::new();
        let ids: Vec<EntityId> = world
            .spawn_batch((0..N_ENTITIES).map(eight_bundle))
            .unwrap();
        group.bench_function("ours", |b| {
            b.iter(|| {
                let mut sum = 0.0f32;
                for &i in &order {
                    let e = world.entity(black_box(ids[i])).unwrap();
                    macro_rules! g {
                        ($t:ident) => {
                            e.get::<$t>().map(|c| c.0)
                        };
                    }
                    sum += get_kth!(i, g).unwrap();
                }
                black_box(sum)
            })
        });
    }
    {
        let mut world = BevyWorld::new();
        let ids: Vec<bevy_ecs::entity::Entity> = world
            .spawn_batch((0..N_ENTITIES).map(eight_bundle))
            .collect();
        group.bench_function("bevy", |b| {
            b.iter(|| {
                let mut sum = 0.0f32;
                for &i in &order {
                    let e = black_box(ids[i]);
                    macro_rules! g {
                        ($t:ident) => {
                            world.get::<$t>(e).map(|c| c.0)
                        };
                    }
                    sum += get_kth!(i, g).unwrap();
                }
                black_box(sum)
            })
        });
    }
    {
        let mut world = hecs::World::new();
        let ids: Vec<hecs::Entity> = world
            .spawn_batch((0..N_ENTITIES).map(eight_bundle))
            .collect();
        group.bench_function("hecs", |b| {
            b.iter(|| {
                let mut sum = 0.0f32;
                for &i in &order {
                    let e = black_box(ids[i]);
                    macro_rules! g {
                        ($t:ident) => {
                            world.get::<&$t>(e).ok().map(|c| c.0)
                        };
                    }
                    sum += get_kth!(i, g).unwrap();
                }
                black_box(sum)
            })
        });
    }
    group.finish();
}

// ------------------------------------------------------------------ get_one

/// `get`'s world and shuffled order, but every lookup asks for the same type
/// (`C3`): no `match` over eight types, so no mispredicted branch per
/// entity; what is left is the id check, the entity's location and the
/// column lookup, at scattered addresses (shuffled order).
fn bench_get_one(c: &mut Criterion) {
    let order = shuffled_indices(N_ENTITIES);
    let mut group = c.benchmark_group("get_one");
    group.throughput(Throughput::Elements(N_ENTITIES as u64));
    {
        let mut world = OurWorld::new();
        let ids: Vec<EntityId> = world
            .spawn_batch((0..N_ENTITIES).map(eight_bundle))
            .unwrap();
        group.bench_function("ours", |b| {
            b.iter(|| {
                let mut sum = 0.0f32;
                for &i in &order {
                    let e = world.entity(black_box(ids[i])).unwrap();
                    sum += e.get::<C3>().unwrap().0;
                }
                black_box(sum)
            })
        });
    }
    {
        let mut world = BevyWorld::new();
        let ids: Vec<bevy_ecs::entity::Entity> = world
            .spawn_batch((0..N_ENTITIES).map(eight_bundle))
            .collect();
        group.bench_function("bevy", |b| {
            b.iter(|| {
                let mut sum = 0.0f32;
                for &i in &order {
                    sum += world.get::<C3>(black_box(ids[i])).unwrap().0;
                }
                black_box(sum)
            })
        });
    }
    {
        let mut world = hecs::World::new();
        let ids: Vec<hecs::Entity> = world
            .spawn_batch((0..N_ENTITIES).map(eight_bundle))
            .collect();
        group.bench_function("hecs", |b| {
            b.iter(|| {
                let mut sum = 0.0f32;
                for &i in &order {
                    sum += world.get::<&C3>(black_box(ids[i])).unwrap().0;
                }
                black_box(sum)
            })
        });
    }
    group.finish();
}

// ------------------------------------------------------------------ get_via_parent

/// ecs-core only: `get::<Moving>()` finds the `AxisMoving` through the parent
/// chain; compared with the exact `get::<AxisMoving>()` on the same world.
fn bench_get_via_parent(c: &mut Criterion) {
    let order = shuffled_indices(N_ENTITIES);
    let mut world = OurWorld::new();
    let ids: Vec<EntityId> = world
        .spawn_batch((0..N_ENTITIES).map(|i| {
            let v = i as f32;
            (
                C0(v),
                C1(v),
                C2(v),
                C3(v),
                AxisMoving {
                    base: Moving { speed: v },
                    vertical: i % 2 == 0,
                },
                C5(v),
                C6(v),
                C7(v),
            )
        }))
        .unwrap();
    let mut group = c.benchmark_group("get_via_parent");
    group.throughput(Throughput::Elements(N_ENTITIES as u64));
    group.bench_function("ours_parent", |b| {
        b.iter(|| {
            let mut sum = 0.0f32;
            for &i in &order {
                let e = world.entity(black_box(ids[i])).unwrap();
                sum += e.get::<Moving>().unwrap().speed;
            }
            black_box(sum)
        })
    });
    group.bench_function("ours_exact", |b| {
        b.iter(|| {
            let mut sum = 0.0f32;
            for &i in &order {
                let e = world.entity(black_box(ids[i])).unwrap();
                sum += e.get::<AxisMoving>().unwrap().base.speed;
            }
            black_box(sum)
        })
    });
    group.finish();
}

// ------------------------------------------------------------------ base_iter

/// ecs-core only: a whole-world loop over the base type `Moving`, which no
/// entity holds itself (every one holds an `AxisMoving`), against the same
/// loop over the exact type, on one world. Both the closure form
/// (`for_each_mut`) and the iterator form (`iter`) sum `speed` into one
/// `f32`; float adds are not reassociated, so that sum is a chain of
/// dependent adds (about 0.5 ns per element here) which can hide a cheaper
/// walk of either kind. The `_write` pair negates `speed` in place instead:
/// no chain, so the exact loop can vectorise and whatever the parent chain
/// costs per element shows.
fn bench_base_iter(c: &mut Criterion) {
    let mut world = base_iter_world(N_ENTITIES);
    let mut group = c.benchmark_group("base_iter");
    group.throughput(Throughput::Elements(N_ENTITIES as u64));
    group.bench_function("ours_base", |b| {
        b.iter(|| {
            let mut sum = 0.0f32;
            world.for_each_mut(|m: &mut Moving| sum += m.speed);
            black_box(sum)
        })
    });
    group.bench_function("ours_exact", |b| {
        b.iter(|| {
            let mut sum = 0.0f32;
            world.for_each_mut(|m: &mut AxisMoving| sum += m.base.speed);
            black_box(sum)
        })
    });
    group.bench_function("ours_base_iter", |b| {
        b.iter(|| {
            let sum: f32 = world.iter::<Moving>().map(|(_, m)| m.speed).sum();
            black_box(sum)
        })
    });
    group.bench_function("ours_exact_iter", |b| {
        b.iter(|| {
            let sum: f32 = world.iter::<AxisMoving>().map(|(_, m)| m.base.speed).sum();
            black_box(sum)
        })
    });
    // Negation is exact and keeps the values bounded however many passes run.
    group.bench_function("ours_base_write", |b| {
        b.iter(|| world.for_each_mut(|m: &mut Moving| m.speed = -m.speed))
    });
    group.bench_function("ours_exact_write", |b| {
        b.iter(|| world.for_each_mut(|m: &mut AxisMoving| m.base.speed = -m.base.speed))
    });
    group.finish();
}

// ------------------------------------------------------------------ get_all

fn colliders(i: usize) -> [Collider; 3] {
    let v = (i % 7) as f32;
    [
        Collider { radius: v },
        Collider { radius: v + 1.0 },
        Collider { radius: v + 2.0 },
    ]
}

/// 10k entities, each with two plain components and three colliders; per
/// entity (shuffled order) sum the radii of all its colliders.
///
/// bevy_ecs and hecs have no "several components of one type per entity":
/// their idiomatic equivalent is one `Colliders(Vec<Collider>)` component.
fn bench_get_all(c: &mut Criterion) {
    let order = shuffled_indices(N_ENTITIES);
    let mut group = c.benchmark_group("get_all");
    group.throughput(Throughput::Elements(N_ENTITIES as u64));
    {
        let mut world = OurWorld::new();
        let ids: Vec<EntityId> = world
            .spawn_batch((0..N_ENTITIES).map(|i| {
                let [a, b, c] = colliders(i);
                (C0(0.0), a, C1(0.0), b, c)
            }))
            .unwrap();
        group.bench_function("ours", |b| {
            b.iter(|| {
                let mut sum = 0.0f32;
                for &i in &order {
                    let e = world.entity(black_box(ids[i])).unwrap();
                    sum += e.get_all::<Collider>().map(|c| c.radius).sum::<f32>();
                }
                black_box(sum)
            })
        });
    }
    {
        let mut world = BevyWorld::new();
        let ids: Vec<bevy_ecs::entity::Entity> = world
            .spawn_batch(
                (0..N_ENTITIES).map(|i| (C0(0.0), C1(0.0), Colliders(colliders(i).to_vec()))),
            )
            .collect();
        group.bench_function("bevy", |b| {
            b.iter(|| {
                let mut sum = 0.0f32;
                for &i in &order {
                    let cs = world.get::<Colliders>(black_box(ids[i])).unwrap();
                    sum += cs.0.iter().map(|c| c.radius).sum::<f32>();
                }
                black_box(sum)
            })
        });
    }
    {
        let mut world = hecs::World::new();
        let ids: Vec<hecs::Entity> = world
            .spawn_batch(
                (0..N_ENTITIES).map(|i| (C0(0.0), C1(0.0), Colliders(colliders(i).to_vec()))),
            )
            .collect();
        group.bench_function("hecs", |b| {
            b.iter(|| {
                let mut sum = 0.0f32;
                for &i in &order {
                    let cs = world.get::<&Colliders>(black_box(ids[i])).unwrap();
                    sum += cs.0.iter().map(|c| c.radius).sum::<f32>();
                }
                black_box(sum)
            })
        });
    }
    group.finish();
}

// ------------------------------------------------------------------ simple_insert

/// ecs_bench_suite simple_insert: a fresh world, 10k entities with
/// Transform, Position, Rotation, Velocity. Dropping the world is not timed.
fn bench_simple_insert(c: &mut Criterion) {
    let mut group = c.benchmark_group("simple_insert");
    group.throughput(Throughput::Elements(N_ENTITIES as u64));
    group.bench_function("ours", |b| {
        b.iter_with_large_drop(|| simple::ours(black_box(N_ENTITIES), simple_bundle))
    });
    group.bench_function("bevy", |b| {
        b.iter_with_large_drop(|| simple::bevy(black_box(N_ENTITIES), simple_bundle))
    });
    group.bench_function("hecs", |b| {
        b.iter_with_large_drop(|| simple::hecs(black_box(N_ENTITIES), simple_bundle))
    });
    group.finish();
}

// ------------------------------------------------------------------ simple_iter

fn add_assign(p: &mut [f32; 3], v: &[f32; 3]) {
    p[0] += v[0];
    p[1] += v[1];
    p[2] += v[2];
}

/// ecs_bench_suite simple_iter: `pos += vel` over the simple_insert world.
/// Ours two ways: `query_mut::<(&mut Position, &Velocity)>()` walked by
/// `for_each` (`ours`) or by a `for` loop (`ours_query`).
fn bench_simple_iter(c: &mut Criterion) {
    let mut group = c.benchmark_group("simple_iter");
    group.throughput(Throughput::Elements(N_ENTITIES as u64));
    {
        let mut world = simple::ours(N_ENTITIES, simple_bundle);
        // The query engine: the closure form (`ours`) and the iterator a
        // `for` loop walks (`ours_query`).
        group.bench_function("ours", |b| {
            b.iter(|| {
                world
                    .query_mut::<(&mut Position, &Velocity)>()
                    .for_each(|(p, v)| add_assign(&mut p.0, &v.0))
            })
        });
        group.bench_function("ours_query", |b| {
            b.iter(|| {
                for (p, v) in world.query_mut::<(&mut Position, &Velocity)>() {
                    add_assign(&mut p.0, &v.0);
                }
            })
        });
    }
    {
        let mut world = simple::bevy(N_ENTITIES, simple_bundle);
        // A cached QueryState is what a bevy system holds between runs.
        let mut query = world.query::<(&mut Position, &Velocity)>();
        group.bench_function("bevy", |b| {
            b.iter(|| {
                for (mut p, v) in query.iter_mut(&mut world) {
                    add_assign(&mut p.0, &v.0);
                }
            })
        });
        // The peers' closure forms: how far each library's own `for` loop
        // is from its `for_each` (the compiler vectorises the closure,
        // whose arguments it knows do not alias, and not the loop body).
        group.bench_function("bevy_for_each", |b| {
            b.iter(|| {
                query
                    .iter_mut(&mut world)
                    .for_each(|(mut p, v)| add_assign(&mut p.0, &v.0))
            })
        });
    }
    {
        let mut world = simple::hecs(N_ENTITIES, simple_bundle);
        group.bench_function("hecs", |b| {
            b.iter(|| {
                for (p, v) in world.query_mut::<(&mut Position, &Velocity)>() {
                    add_assign(&mut p.0, &v.0);
                }
            })
        });
        group.bench_function("hecs_for_each", |b| {
            b.iter(|| {
                world
                    .query_mut::<(&mut Position, &Velocity)>()
                    .into_iter()
                    .for_each(|(p, v)| add_assign(&mut p.0, &v.0))
            })
        });
    }
    {
        // The floor: a plain array of structs, no ECS at all.
        let (_, p, _, v) = simple_bundle();
        let mut data: Vec<(Position, Velocity)> = vec![(p, v); N_ENTITIES];
        group.bench_function("vec", |b| {
            b.iter(|| {
                for (p, v) in black_box(&mut data).iter_mut() {
                    add_assign(&mut p.0, &v.0);
                }
            })
        });
    }
    group.finish();
}

// ------------------------------------------------------------------ sum_iter

/// simple_iter's world read by a `for` loop that sums one `f32` of every
/// `Position`: a loop-carried float, which a call in the loop that may
/// unwind leaves in memory (a store and a load on every row's add).
fn bench_sum_iter(c: &mut Criterion) {
    let mut group = c.benchmark_group("sum_iter");
    group.throughput(Throughput::Elements(N_ENTITIES as u64));
    {
        let world = simple::ours(N_ENTITIES, simple_bundle);
        group.bench_function("ours", |b| {
            b.iter(|| {
                let mut sum = 0.0f32;
                for (p,) in world.query::<(&Position,)>() {
                    sum += p.0[0];
                }
                black_box(sum)
            })
        });
    }
    {
        let mut world = simple::bevy(N_ENTITIES, simple_bundle);
        let mut query = world.query::<&Position>();
        group.bench_function("bevy", |b| {
            b.iter(|| {
                let mut sum = 0.0f32;
                for p in query.iter(&world) {
                    sum += p.0[0];
                }
                black_box(sum)
            })
        });
    }
    {
        let world = simple::hecs(N_ENTITIES, simple_bundle);
        group.bench_function("hecs", |b| {
            b.iter(|| {
                let mut sum = 0.0f32;
                for p in world.query::<&Position>().iter() {
                    sum += p.0[0];
                }
                black_box(sum)
            })
        });
    }
    group.finish();
}

// ------------------------------------------------------------------ frag_iter

/// ecs_bench_suite frag_iter: 26 types x 20 entities, each also with Data;
/// double every Data. Ours by `for_each_mut` (`ours`) and by a `for` loop
/// over `query_mut::<(&mut Data,)>()` (`ours_query`).
fn bench_frag_iter(c: &mut Criterion) {
    let mut group = c.benchmark_group("frag_iter");
    group.throughput(Throughput::Elements(26 * 20));
    {
        let mut world = frag::ours();
        group.bench_function("ours", |b| {
            b.iter(|| {
                world.for_each_mut(|d: &mut Data| d.0 *= 2.0);
            })
        });
        group.bench_function("ours_query", |b| {
            b.iter(|| {
                for (d,) in world.query_mut::<(&mut Data,)>() {
                    d.0 *= 2.0;
                }
            })
        });
        group.bench_function("ours_query_for_each", |b| {
            b.iter(|| {
                world
                    .query_mut::<(&mut Data,)>()
                    .for_each(|(d,)| d.0 *= 2.0)
            })
        });
    }
    {
        let mut world = frag::bevy();
        let mut query = world.query::<&mut Data>();
        group.bench_function("bevy", |b| {
            b.iter(|| {
                for mut d in query.iter_mut(&mut world) {
                    d.0 *= 2.0;
                }
            })
        });
    }
    {
        let mut world = frag::hecs();
        group.bench_function("hecs", |b| {
            b.iter(|| {
                for d in world.query_mut::<&mut Data>() {
                    d.0 *= 2.0;
                }
            })
        });
    }
    group.finish();
}

// ------------------------------------------------------------------ join5

/// Five terms, three read and two written, over 10k entities in four tables
/// (5 to 8 components each, see `join5::ours`): the same components and
/// the same kernel for the three libraries. Ours by a `for` loop over
/// `query_mut` (`ours`) and by `for_each` (`ours_for_each`).
fn bench_join5(c: &mut Criterion) {
    let mut group = c.benchmark_group("join5");
    group.throughput(Throughput::Elements(N_ENTITIES as u64));
    {
        let mut world = join5::ours();
        group.bench_function("ours", |b| {
            b.iter(|| {
                for (p, h, v, r, t) in
                    world.query_mut::<(&mut Position, &mut Health, &Velocity, &Radius, &Team)>()
                {
                    join5_kernel(p, h, v, r, t);
                }
            })
        });
        group.bench_function("ours_for_each", |b| {
            b.iter(|| {
                world
                    .query_mut::<(&mut Position, &mut Health, &Velocity, &Radius, &Team)>()
                    .for_each(|(p, h, v, r, t)| join5_kernel(p, h, v, r, t))
            })
        });
    }
    {
        let mut world = join5::bevy();
        let mut query = world.query::<(&mut Position, &mut Health, &Velocity, &Radius, &Team)>();
        group.bench_function("bevy", |b| {
            b.iter(|| {
                for (mut p, mut h, v, r, t) in query.iter_mut(&mut world) {
                    join5_kernel(&mut p, &mut h, v, r, t);
                }
            })
        });
    }
    {
        let mut world = join5::hecs();
        group.bench_function("hecs", |b| {
            b.iter(|| {
                for (p, h, v, r, t) in
                    world.query_mut::<(&mut Position, &mut Health, &Velocity, &Radius, &Team)>()
                {
                    join5_kernel(p, h, v, r, t);
                }
            })
        });
    }
    group.finish();
}

// ------------------------------------------------------------------ base_term

/// ecs-core only: `base_iter`'s world through the query engine. A `&Moving`
/// (or `&mut Moving`) term finds every entity's `AxisMoving` through the
/// parent chain; the exact term names `AxisMoving`. `ours_base`/`ours_exact`
/// sum `speed` through the read-only `query` (a chain of dependent float
/// adds, as in `base_iter`); `ours_base_write`/`ours_exact_write` negate it
/// through `query_mut`.
fn bench_base_term(c: &mut Criterion) {
    let mut world = base_iter_world(N_ENTITIES);
    let mut group = c.benchmark_group("base_term");
    group.throughput(Throughput::Elements(N_ENTITIES as u64));
    group.bench_function("ours_base", |b| {
        b.iter(|| {
            let mut sum = 0.0f32;
            for (m,) in world.query::<(&Moving,)>() {
                sum += m.speed;
            }
            black_box(sum)
        })
    });
    group.bench_function("ours_exact", |b| {
        b.iter(|| {
            let mut sum = 0.0f32;
            for (m,) in world.query::<(&AxisMoving,)>() {
                sum += m.base.speed;
            }
            black_box(sum)
        })
    });
    // Negation is exact and keeps the values bounded however many passes run.
    group.bench_function("ours_base_write", |b| {
        b.iter(|| {
            for (m,) in world.query_mut::<(&mut Moving,)>() {
                m.speed = -m.speed;
            }
        })
    });
    group.bench_function("ours_exact_write", |b| {
        b.iter(|| {
            for (m,) in world.query_mut::<(&mut AxisMoving,)>() {
                m.base.speed = -m.base.speed;
            }
        })
    });
    group.finish();
}

// ------------------------------------------------------------------ par_light

/// ecs-core only: a light loop (`pos += vel`) over 10k entities in four
/// tables, by `par_for_each` (`ours_par`) and by the sequential `for_each`
/// (`ours_seq`) on the same world. What `par_for_each` costs when the work
/// is too small to share out (its probe keeps it on the calling thread).
fn bench_par_light(c: &mut Criterion) {
    let mut world = par_light_world();
    let mut group = c.benchmark_group("par_light");
    group.throughput(Throughput::Elements(N_ENTITIES as u64));
    group.bench_function("ours_par", |b| {
        b.iter(|| {
            world
                .query_mut::<(&mut Position, &Velocity)>()
                .par_for_each(|(p, v)| add_assign(&mut p.0, &v.0))
        })
    });
    group.bench_function("ours_seq", |b| {
        b.iter(|| {
            world
                .query_mut::<(&mut Position, &Velocity)>()
                .for_each(|(p, v)| add_assign(&mut p.0, &v.0))
        })
    });
    group.finish();
}

// ------------------------------------------------------------------ add_remove

/// ecs_bench_suite add_remove: 10k entities with A; add B to every entity,
/// then remove B from every entity.
fn bench_add_remove(c: &mut Criterion) {
    let mut group = c.benchmark_group("add_remove");
    group.throughput(Throughput::Elements(N_ENTITIES as u64));
    {
        let mut world = OurWorld::new();
        let ids = world
            .spawn_batch((0..N_ENTITIES).map(|_| (AddA(0.0),)))
            .unwrap();
        group.bench_function("ours", |b| {
            b.iter(|| {
                for &id in &ids {
                    world.entity_mut(id).unwrap().add(AddB(0.0)).unwrap();
                }
                for &id in &ids {
                    world.entity_mut(id).unwrap().remove::<AddB>().unwrap();
                }
            })
        });
    }
    {
        let mut world = BevyWorld::new();
        let ids: Vec<_> = world
            .spawn_batch((0..N_ENTITIES).map(|_| (AddA(0.0),)))
            .collect();
        group.bench_function("bevy", |b| {
            b.iter(|| {
                for &id in &ids {
                    world.entity_mut(id).insert(AddB(0.0));
                }
                for &id in &ids {
                    world.entity_mut(id).remove::<AddB>();
                }
            })
        });
    }
    {
        let mut world = hecs::World::new();
        let ids: Vec<_> = world
            .spawn_batch((0..N_ENTITIES).map(|_| (AddA(0.0),)))
            .collect();
        group.bench_function("hecs", |b| {
            b.iter(|| {
                for &id in &ids {
                    world.insert_one(id, AddB(0.0)).unwrap();
                }
                for &id in &ids {
                    world.remove_one::<AddB>(id).unwrap();
                }
            })
        });
    }
    group.finish();
}

// ------------------------------------------------------------------ changed

/// Change tracking: 100k entities of `Position` in 100 tables of 1k (one
/// marker type per table, `Tab00`..`Tab99`). Each iteration first
/// writes one table's `Position`s (not timed: ours takes the reader's tick
/// with `change_tick()` and then writes through `query_mut::<(&mut
/// Position,)>().with::<Tab00>()`; bevy calls `clear_trackers()` and then
/// writes through a `QueryState<&mut Position, With<Tab00>>`), then times
/// only the read: which `Position`s changed since, summing their `x` (ours
/// `query::<(&Position,)>().changed_since::<Position>(tick)`, bevy a cached
/// `QueryState<&Position, Changed<Position>>`). Both answer the 1k written
/// (`changed_worlds_agree` in lib.rs); throughput is the 100k in the world.
/// `iter_custom` times each read on its own, so the figure includes one
/// pair of `Instant::now()` calls per iteration (some 40 ns).
fn bench_changed(c: &mut Criterion) {
    let mut group = c.benchmark_group("changed");
    group.throughput(Throughput::Elements(changed::ENTITIES as u64));
    /// Runs `write` untimed and `read` timed, `iters` times.
    fn timed_reads<S, R>(
        iters: u64,
        s: &mut S,
        write: impl Fn(&mut S),
        read: impl Fn(&mut S) -> R,
    ) -> Duration {
        let mut total = Duration::ZERO;
        for _ in 0..iters {
            write(s);
            let start = Instant::now();
            black_box(read(s));
            total += start.elapsed();
        }
        total
    }
    {
        let mut s = changed::Ours::new();
        group.bench_function("ours", |b| {
            b.iter_custom(|iters| timed_reads(iters, &mut s, |s| s.write(), |s| s.read()))
        });
    }
    {
        let mut s = changed::Bevy::new();
        group.bench_function("bevy", |b| {
            b.iter_custom(|iters| timed_reads(iters, &mut s, |s| s.write(), |s| s.read()))
        });
    }
    group.finish();
}

// ------------------------------------------------------------------ observer_add

/// Observers: add_remove's pass (add `AddB` to 10k entities of `AddA`, then
/// remove it from every one) on a world with one observer of `AddB` being
/// added, doing nothing (`_observed`), and on one without (`_plain`). Ours
/// observes with `World::observe::<AddB>(ComponentEvent::Added, |_| {})`,
/// bevy with `World::add_observer(|_: On<Add<AddB>>| {})`. The difference
/// per element is what one observer costs per add. `ours_cost` and
/// `bevy_cost` time that difference directly: each sample runs the plain
/// and the observed pass alternately on two worlds and reports the
/// observed time minus the plain time (plus 100 ns per element, which
/// report.py takes off: criterion rejects a zero time), so that the
/// machine's drift between
/// two separate measurements (30% here between runs) does not land in it;
/// report.py quotes them, the `_plain`/`_observed` rows give the context.
fn bench_observer_add(c: &mut Criterion) {
    use benches_peers::observer_add::{bevy, bevy_pass, interleaved_cost, ours, ours_pass};
    let mut group = c.benchmark_group("observer_add");
    group.throughput(Throughput::Elements(N_ENTITIES as u64));
    {
        let (mut plain, ids) = ours();
        let (mut observed, observed_ids) = ours();
        observed.observe::<AddB>(ecs_core::ComponentEvent::Added, |_| {});
        group.bench_function("ours_cost", |b| {
            b.iter_custom(|iters| {
                interleaved_cost(
                    iters,
                    N_ENTITIES as u64,
                    || ours_pass(&mut plain, &ids),
                    || ours_pass(&mut observed, &observed_ids),
                )
            })
        });
    }
    {
        use bevy_ecs::prelude::{Add, On};
        let (mut plain, ids) = bevy();
        let (mut observed, observed_ids) = bevy();
        observed.add_observer(|_: On<Add<AddB>>| {});
        group.bench_function("bevy_cost", |b| {
            b.iter_custom(|iters| {
                interleaved_cost(
                    iters,
                    N_ENTITIES as u64,
                    || bevy_pass(&mut plain, &ids),
                    || bevy_pass(&mut observed, &observed_ids),
                )
            })
        });
    }
    {
        let (mut world, ids) = ours();
        group.bench_function("ours_plain", |b| b.iter(|| ours_pass(&mut world, &ids)));
    }
    {
        let (mut world, ids) = ours();
        world.observe::<AddB>(ecs_core::ComponentEvent::Added, |_| {});
        group.bench_function("ours_observed", |b| b.iter(|| ours_pass(&mut world, &ids)));
    }
    {
        let (mut world, ids) = bevy();
        group.bench_function("bevy_plain", |b| b.iter(|| bevy_pass(&mut world, &ids)));
    }
    {
        use bevy_ecs::prelude::{Add, On};
        let (mut world, ids) = bevy();
        world.add_observer(|_: On<Add<AddB>>| {});
        group.bench_function("bevy_observed", |b| b.iter(|| bevy_pass(&mut world, &ids)));
    }
    group.finish();
}

// ------------------------------------------------------------------ heavy_compute

/// ecs_bench_suite heavy_compute: 1k entities; invert each Transform 100
/// times, then transform the Position. bevy uses `par_iter_mut` on its
/// compute task pool, ours `query_mut(..).par_for_each` (`ours`, with
/// `ours_query_seq` the same query's sequential `for_each`); hecs has no
/// built-in parallel
/// iteration, so it runs sequentially.
fn bench_heavy_compute(c: &mut Criterion) {
    const HEAVY: usize = 1_000;
    let mut group = c.benchmark_group("heavy_compute");
    group.throughput(Throughput::Elements(HEAVY as u64));
    {
        let mut world = simple::ours(HEAVY, heavy_bundle);
        // `par_for_each`, and the same query's sequential `for_each` to
        // measure what the threads gain.
        group.bench_function("ours", |b| {
            b.iter(|| {
                world
                    .query_mut::<(&mut Transform, &mut Position)>()
                    .par_for_each(|(m, p)| heavy_kernel(&mut m.0, &mut p.0))
            })
        });
        group.bench_function("ours_query_seq", |b| {
            b.iter(|| {
                world
                    .query_mut::<(&mut Transform, &mut Position)>()
                    .for_each(|(m, p)| heavy_kernel(&mut m.0, &mut p.0))
            })
        });
    }
    {
        bevy_tasks::ComputeTaskPool::get_or_init(bevy_tasks::TaskPool::default);
        let mut world = simple::bevy(HEAVY, heavy_bundle);
        let mut query = world.query::<(&mut Transform, &mut Position)>();
        group.bench_function("bevy", |b| {
            b.iter(|| {
                query
                    .par_iter_mut(&mut world)
                    .for_each(|(mut m, mut p)| heavy_kernel(&mut m.0, &mut p.0));
            })
        });
    }
    {
        let mut world = simple::hecs(HEAVY, heavy_bundle);
        group.bench_function("hecs", |b| {
            b.iter(|| {
                for (m, p) in world.query_mut::<(&mut Transform, &mut Position)>() {
                    heavy_kernel(&mut m.0, &mut p.0);
                }
            })
        });
    }
    group.finish();
}

// ------------------------------------------------------------------ driver

fn config() -> Criterion {
    // ~3.5 s per benchmark id keeps the whole run near 2 minutes on 2 cores.
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(30)
}

// ------------------------------------------------------------------ update

/// Issue 5: 10k entities whose `Mover` behaviour reads and writes its sibling
/// `Position` (ours: `World::update`), against bevy running the same work as
/// a system in a schedule, per frame.
fn bench_update(c: &mut Criterion) {
    let mut group = c.benchmark_group("update");
    group.throughput(Throughput::Elements(N_ENTITIES as u64));
    {
        let mut world = OurWorld::new();
        world
            .spawn_batch((0..N_ENTITIES).map(|_| (Position([0.0; 3]), Mover([1.0, 0.5, 0.25]))))
            .unwrap();
        group.bench_function("ours", |b| {
            b.iter(|| black_box(world.update(black_box(0.016))))
        });
    }
    {
        let mut world = OurWorld::new();
        world
            .spawn_batch((0..N_ENTITIES).map(|_| (Position([0.0; 3]), CtxMover([1.0, 0.5, 0.25]))))
            .unwrap();
        group.bench_function("ours_ctx", |b| {
            b.iter(|| black_box(world.update(black_box(0.016))))
        });
    }
    {
        use bevy_ecs::prelude::{Query, Res, Resource, Schedule};
        #[derive(Resource)]
        struct Dt(f32);
        fn movement(dt: Res<Dt>, mut query: Query<(&mut Position, &BevyMover)>) {
            for (mut pos, mover) in &mut query {
                for k in 0..3 {
                    pos.0[k] += mover.0[k] * dt.0;
                }
            }
        }
        let mut world = BevyWorld::new();
        world.spawn_batch(
            (0..N_ENTITIES).map(|_| (Position([0.0; 3]), BevyMover([1.0, 0.5, 0.25]))),
        );
        world.insert_resource(Dt(0.016));
        let mut schedule = Schedule::default();
        schedule.add_systems(movement);
        schedule.run(&mut world);
        group.bench_function("bevy", |b| b.iter(|| schedule.run(&mut world)));
    }
    group.finish();
}

// --------------------------------------------------------------- broadcast

/// Issue 6: a message broadcast down a tree of 10k receivers (ours only).
fn bench_broadcast(c: &mut Criterion) {
    let mut group = c.benchmark_group("broadcast");
    let (mut world, root) = ping_tree(100);
    group.throughput(Throughput::Elements(world.len() as u64));
    group.bench_function("ours", |b| {
        b.iter(|| black_box(world.broadcast(root, &Ping(1)).unwrap()))
    });
    group.finish();
}

// --------------------------------------------------------------- blueprint

/// Issue 7: spawn 10k entities from one blueprint, against deserializing the
/// same component structs from the same parsed JSON with serde directly.
fn bench_blueprint(c: &mut Criterion) {
    let mut group = c.benchmark_group("blueprint");
    group.throughput(Throughput::Elements(N_ENTITIES as u64));
    let blueprint = ecs_core::Blueprint::from_json(HAZMAT_BLUEPRINT).unwrap();
    group.bench_function("ours", |b| {
        b.iter_batched(
            OurWorld::new,
            |mut world| {
                world.spawn_blueprints(&blueprint, N_ENTITIES).unwrap();
                world
            },
            criterion::BatchSize::LargeInput,
        )
    });
    let value: serde_json::Value = serde_json::from_str(HAZMAT_BLUEPRINT).unwrap();
    let (transform, model) = (
        &value["components"][0]["data"],
        &value["components"][1]["data"],
    );
    group.bench_function("serde", |b| {
        b.iter(|| {
            let mut out = Vec::with_capacity(N_ENTITIES);
            for _ in 0..N_ENTITIES {
                let t: BpTransform = serde::Deserialize::deserialize(transform).unwrap();
                let m: BpModel = serde::Deserialize::deserialize(model).unwrap();
                out.push((t, m));
            }
            out
        })
    });
    group.finish();
}

// --------------------------------------------------------------- save_load

/// Save and load a world of 10k entities x 5 components (trees
/// of ten, every entity named, a third holding an entity reference),
/// against serde alone writing and reading the same values (with each
/// entity's name and parent) in a `Vec`: serde_json for JSON, rmp-serde
/// (structs as arrays, as ours writes component values) for the binary
/// snapshot.
///
/// The baselines are fair: each serde row holds every value ours saves
/// for its entity (the name as a `String`, the parent and the reference
/// as saved ids, each component's fields), built from the same functions
/// as our world (`benches_peers::save_load`, `save_shapes`; the crate's
/// test `save_shapes_round_trip` checks they agree); serde's load builds
/// the `Vec` (allocating every name) and ours a whole world (columns,
/// names, hierarchy). What serde does not do is ours alone: the world
/// walk, the type names, flags and layers, the interned names.
fn bench_save_load(c: &mut Criterion) {
    use benches_peers::save_load::{rows, world, Row};
    let rows: Vec<Row> = rows(N_ENTITIES);
    let floor = rows.clone();
    save_load_group(c, "save_load", world(N_ENTITIES), rows, |group| {
        // The floor under both loads: the same world built from values
        // already in memory through the public API (no serde).
        group.bench_function("ours_build", |b| {
            b.iter_batched(
                || floor.clone(),
                |rows| black_box(benches_peers::save_load::build_from(rows)),
                criterion::BatchSize::LargeInput,
            )
        });
    });
}

/// One save/load world shape (`benches_peers::save_shapes`) against serde
/// alone writing and reading the same values (names, parents, which
/// derived type, the `multiple` components) in a `Vec<R>`: group
/// `save_load_<shape>`, the ids of `save_load` (but `ours_build`).
fn save_load_shape<R>(c: &mut Criterion, shape: &str, world: OurWorld, rows: Vec<R>)
where
    R: serde::Serialize + serde::de::DeserializeOwned,
{
    save_load_group(c, &format!("save_load_{shape}"), world, rows, |_| {});
}

/// Group `name`: ours saving and loading `world` in JSON and binary, and
/// serde_json and rmp-serde writing and reading `rows` (the same values);
/// `more` adds ids of its own.
fn save_load_group<R>(
    c: &mut Criterion,
    name: &str,
    world: OurWorld,
    rows: Vec<R>,
    more: impl FnOnce(&mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>),
) where
    R: serde::Serialize + serde::de::DeserializeOwned,
{
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(world.len() as u64));
    let json = world.save_json().unwrap();
    let binary = world.save_binary().unwrap();
    let rows_json = serde_json::to_vec(&rows).unwrap();
    let rows_binary = rmp_serde::to_vec(&rows).unwrap();
    eprintln!(
        "{name} sizes: ours JSON {} B, serde_json Vec {} B, ours binary {} B, \
         rmp-serde Vec {} B",
        json.len(),
        rows_json.len(),
        binary.len(),
        rows_binary.len()
    );
    group.bench_function("ours_save_json", |b| {
        b.iter(|| black_box(world.save_json().unwrap()))
    });
    group.bench_function("serde_save_json", |b| {
        b.iter(|| black_box(serde_json::to_vec(black_box(&rows)).unwrap()))
    });
    group.bench_function("ours_load_json", |b| {
        b.iter_with_large_drop(|| black_box(OurWorld::load(black_box(json.as_bytes())).unwrap()))
    });
    group.bench_function("serde_load_json", |b| {
        b.iter_with_large_drop(|| {
            black_box(serde_json::from_slice::<Vec<R>>(black_box(&rows_json)).unwrap())
        })
    });
    group.bench_function("ours_save_binary", |b| {
        b.iter(|| black_box(world.save_binary().unwrap()))
    });
    group.bench_function("rmp_save", |b| {
        b.iter(|| black_box(rmp_serde::to_vec(black_box(&rows)).unwrap()))
    });
    group.bench_function("ours_load_binary", |b| {
        b.iter_with_large_drop(|| black_box(OurWorld::load(black_box(&binary)).unwrap()))
    });
    group.bench_function("rmp_load", |b| {
        b.iter_with_large_drop(|| {
            black_box(rmp_serde::from_slice::<Vec<R>>(black_box(&rows_binary)).unwrap())
        })
    });
    more(&mut group);
    group.finish();
}

/// The save/load shapes beyond `save_load`'s mixed world, one feature
/// each: `named` (10k distinct names), `inherited` (derived components,
/// up to two levels below their base), `multiple` (one to four components
/// of one type per entity), `hierarchy` (ten 4-ary trees of 1k).
fn bench_save_shapes(c: &mut Criterion) {
    use benches_peers::save_shapes::*;
    const N: usize = N_ENTITIES;
    save_load_shape(c, "named", named::world(N), named::rows(N));
    save_load_shape(c, "inherited", inherited::world(N), inherited::rows(N));
    save_load_shape(c, "multiple", multiple::world(N), multiple::rows(N));
    save_load_shape(c, "hierarchy", hierarchy::world(N), hierarchy::rows(N));
}

// ------------------------------------------------------------------ snapshot

/// Snapshots of a 10k x 5 world (`benches_peers::snapshot`: 104 bytes of
/// values per entity) against cloning the same values held in five
/// `Vec`s (`vec_clone`, the floor a copy of the state costs). `snapshot`:
/// `World::snapshot`; `restore_same_world`: `World::restore` into the world
/// the snapshot was taken from after a frame of play (untimed), the
/// rollback case, which reuses the world's memory. bevy_ecs (built without
/// reflection, and without bevy_scene, so neither a reflected world copy
/// nor a `DynamicScene` round trip is available) has no whole-world copy;
/// its nearest, `bevy_clone_entities`, clones every entity with an
/// `EntityCloner` (each component's `Clone`) into the same world.
fn bench_snapshot(c: &mut Criterion) {
    use benches_peers::snapshot::*;
    let mut group = c.benchmark_group("snapshot");
    group.throughput(Throughput::Elements(N_ENTITIES as u64));
    eprintln!(
        "snapshot: {} B of component values",
        value_bytes(N_ENTITIES)
    );
    let values = columns(N_ENTITIES);
    // Each copy is dropped inside the timing, as a ring of snapshots drops
    // its oldest: the allocator hands the same warm memory back, so what
    // is measured is the copy, not the kernel's page faults on fresh
    // memory (which made `iter_with_large_drop` vary fourfold here).
    group.bench_function("vec_clone", |b| {
        b.iter(|| drop(black_box(black_box(&values).clone())))
    });
    let mut world = ours(N_ENTITIES);
    group.bench_function("snapshot", |b| {
        b.iter(|| drop(black_box(world.snapshot().unwrap())))
    });
    let frame = world.snapshot().unwrap();
    group.bench_function("restore_same_world", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                play(&mut world);
                let start = Instant::now();
                world.restore(black_box(&frame)).unwrap();
                total += start.elapsed();
            }
            total
        })
    });
    group.bench_function("bevy_clone_entities", |b| {
        b.iter_batched(
            || {
                let mut w = bevy(N_ENTITIES);
                let ids: Vec<_> = w.query::<bevy_ecs::entity::Entity>().iter(&w).collect();
                (w, ids)
            },
            |(mut w, ids)| {
                let mut cloner = bevy_ecs::entity::EntityCloner::build_opt_out(&mut w).finish();
                for id in ids {
                    cloner.spawn_clone(&mut w, id);
                }
                w
            },
            criterion::BatchSize::LargeInput,
        )
    });
    group.finish();
}

// ------------------------------------------------------------------ up_term

/// ecs-core only: the `Up<&T>` term against a plain term on the same
/// world, 1k parents with 9 children each (10k entities). `ours_up`: every
/// child reads its parent's `Tower` through `Up<&Tower>`; `ours_plain`:
/// every child reads its own copy of the value (a `Range` it holds), the
/// plain term the ancestor term is measured against.
fn bench_up_term(c: &mut Criterion) {
    use ecs_core::{EntityId, Up, World};
    #[derive(ecs_core::Component, Clone, Copy)]
    struct Tower(u32);
    #[derive(ecs_core::Component, Clone, Copy)]
    struct Range(u32);
    #[derive(ecs_core::Component, Clone, Copy)]
    struct Turret(u32);
    let mut world = World::new();
    for p in 0..1_000 {
        let parent: EntityId = world.spawn_with((Tower(p),)).unwrap();
        for _ in 0..9 {
            let child = world.spawn_with((Turret(p ^ 7), Range(p))).unwrap();
            world.set_parent(child, parent).unwrap();
        }
    }
    let mut group = c.benchmark_group("up_term");
    group.throughput(Throughput::Elements(9_000));
    group.bench_function("ours_up", |b| {
        b.iter(|| {
            let mut sum = 0u32;
            for (t, up) in world.query::<(&Turret, Up<&Tower>)>() {
                sum = sum.wrapping_add(t.0 ^ up.map_or(0, |u| u.0));
            }
            black_box(sum)
        })
    });
    group.bench_function("ours_plain", |b| {
        b.iter(|| {
            let mut sum = 0u32;
            for (t, r) in world.query::<(&Turret, &Range)>() {
                sum = sum.wrapping_add(t.0 ^ r.0);
            }
            black_box(sum)
        })
    });
    group.finish();
}

// -------------------------------------------------------------- world_patch

/// ecs-core only: `diff_1pct` diffs the save_load world (10k entities x 5
/// components) against a snapshot taken one frame before 1% of its
/// entities changed, and `apply_1pct` applies that patch to a world
/// restored to the snapshot (the restore is set-up, not timed); beside
/// them, the full binary save and load of the same world they are
/// measured against.
fn bench_world_patch(c: &mut Criterion) {
    use benches_peers::world_patch::scenario;
    let (world, frame) = scenario(N_ENTITIES);
    let patch = world.diff(&frame).unwrap();
    let bytes = world.save_binary().unwrap();
    eprintln!(
        "world_patch sizes: patch {} B binary ({} B JSON), save {} B",
        patch.to_binary().unwrap().len(),
        patch.to_json().unwrap().len(),
        bytes.len()
    );
    let mut group = c.benchmark_group("world_patch");
    group.throughput(Throughput::Elements(N_ENTITIES as u64));
    group.bench_function("diff_1pct", |b| {
        b.iter(|| black_box(world.diff(black_box(&frame)).unwrap()))
    });
    group.bench_function("apply_1pct", |b| {
        b.iter_batched(
            || {
                let mut replica = OurWorld::new();
                replica.restore(&frame).unwrap();
                replica
            },
            |mut replica| {
                replica.apply_patch(black_box(&patch)).unwrap();
                replica
            },
            criterion::BatchSize::LargeInput,
        )
    });
    group.bench_function("binary_save", |b| {
        b.iter(|| black_box(world.save_binary().unwrap()))
    });
    group.bench_function("binary_load", |b| {
        b.iter_with_large_drop(|| black_box(OurWorld::load(black_box(&bytes)).unwrap()))
    });
    group.finish();
}

criterion_group! {
    name = peers;
    config = config();
    targets = bench_get, bench_get_one, bench_get_via_parent, bench_base_iter, bench_base_term,
        bench_get_all, bench_simple_insert, bench_simple_iter, bench_sum_iter, bench_frag_iter, bench_join5,
        bench_par_light, bench_add_remove, bench_changed, bench_observer_add, bench_heavy_compute,
        bench_update, bench_broadcast, bench_blueprint, bench_save_load, bench_save_shapes,
        bench_up_term, bench_snapshot, bench_world_patch
}
criterion_main!(peers);
