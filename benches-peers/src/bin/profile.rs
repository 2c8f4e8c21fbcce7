//! Runs one of ecs-core's scenarios in a loop, for a profiler:
//!
//! ```sh
//! cargo build --release --bin profile
//! valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.out target/release/profile get 50
//! callgrind_annotate --inclusive=yes /tmp/cg.out | head -40
//! ```
//!
//! Scenarios: get, get_one, get_parent, get_exact, base_iter, exact_iter,
//! base_term, exact_term, get_all, update, broadcast, simple_insert,
//! simple_iter, query_iter, join5, frag_iter, add_remove, load_json,
//! load_binary, save_json, save_binary, rmp_load, serde_load_json, build,
//! blueprint, blueprint_serde, and the wall-clock pair time_load_binary and
//! time_rmp_load (`BATCH=n`: loads kept per timed batch), time_blueprint and
//! time_blueprint_serde. The second
//! argument is the number of repetitions (default 200).

use std::hint::black_box;

use benches_peers::*;
use ecs_core::{EntityId, World};

fn main() {
    let mut args = std::env::args().skip(1);
    let scenario = args.next().unwrap_or_else(|| "get".into());
    let reps: usize = args.next().map_or(200, |r| r.parse().expect("repetitions"));
    let order = shuffled_indices(N_ENTITIES);
    match scenario.as_str() {
        "get" => {
            let mut w = World::new();
            let ids = w.spawn_batch((0..N_ENTITIES).map(eight_bundle)).unwrap();
            for _ in 0..reps {
                let mut sum = 0.0;
                for &i in &order {
                    let e = w.entity(black_box(ids[i])).unwrap();
                    sum += match i & 7 {
                        0 => e.get::<C0>().unwrap().0,
                        1 => e.get::<C1>().unwrap().0,
                        2 => e.get::<C2>().unwrap().0,
                        3 => e.get::<C3>().unwrap().0,
                        4 => e.get::<C4>().unwrap().0,
                        5 => e.get::<C5>().unwrap().0,
                        6 => e.get::<C6>().unwrap().0,
                        _ => e.get::<C7>().unwrap().0,
                    };
                }
                black_box(sum);
            }
        }
        "get_one" => {
            let mut w = World::new();
            let ids = w.spawn_batch((0..N_ENTITIES).map(eight_bundle)).unwrap();
            for _ in 0..reps {
                let mut sum = 0.0;
                for &i in &order {
                    sum += w.entity(black_box(ids[i])).unwrap().get::<C3>().unwrap().0;
                }
                black_box(sum);
            }
        }
        "base_iter" | "exact_iter" => {
            let mut w = base_iter_world(N_ENTITIES);
            let base = scenario == "base_iter";
            // As in frag_iter: a pass takes microseconds, so it takes far more
            // passes than a lookup scenario for the loop to outweigh building
            // the world in the profile.
            for _ in 0..reps * 100 {
                let mut sum = 0.0;
                if base {
                    w.for_each_mut(|m: &mut Moving| sum += m.speed);
                } else {
                    w.for_each_mut(|m: &mut AxisMoving| sum += m.base.speed);
                }
                black_box(sum);
            }
        }
        "base_sum" => {
            // base_term's read form: a shared query summing the base speed.
            let w = base_iter_world(N_ENTITIES);
            for _ in 0..reps * 100 {
                let mut sum = 0.0f32;
                for (m,) in w.query::<(&Moving,)>() {
                    sum += m.speed;
                }
                black_box(sum);
            }
        }
        "base_term" | "exact_term" => {
            // base_iter's world through the query engine: a `&mut Moving`
            // term reaching every `AxisMoving` through the parent chain, or
            // the exact `&mut AxisMoving`, negating the speed (the `_write`
            // pair of the `base_term` bench).
            let mut w = base_iter_world(N_ENTITIES);
            let base = scenario == "base_term";
            for _ in 0..reps * 100 {
                if base {
                    for (m,) in w.query_mut::<(&mut Moving,)>() {
                        m.speed = -m.speed;
                    }
                } else {
                    for (m,) in w.query_mut::<(&mut AxisMoving,)>() {
                        m.base.speed = -m.base.speed;
                    }
                }
                black_box(&mut w);
            }
        }
        "get_parent" | "get_exact" => {
            let mut w = World::new();
            let ids: Vec<EntityId> = w
                .spawn_batch((0..N_ENTITIES).map(|i| {
                    let v = i as f32;
                    let m = AxisMoving {
                        base: Moving { speed: v },
                        vertical: false,
                    };
                    (C0(v), C1(v), C2(v), C3(v), m, C5(v), C6(v), C7(v))
                }))
                .unwrap();
            let parent = scenario == "get_parent";
            for _ in 0..reps {
                let mut sum = 0.0;
                for &i in &order {
                    let e = w.entity(black_box(ids[i])).unwrap();
                    sum += if parent {
                        e.get::<Moving>().unwrap().speed
                    } else {
                        e.get::<AxisMoving>().unwrap().base.speed
                    };
                }
                black_box(sum);
            }
        }
        "get_all" => {
            let mut w = World::new();
            let ids = w
                .spawn_batch((0..N_ENTITIES).map(|_| {
                    let c = Collider { radius: 1.0 };
                    (C0(0.0), c, C1(0.0), c, c)
                }))
                .unwrap();
            for _ in 0..reps {
                let mut sum = 0.0;
                for &i in &order {
                    let e = w.entity(black_box(ids[i])).unwrap();
                    sum += e.get_all::<Collider>().map(|c| c.radius).sum::<f32>();
                }
                black_box(sum);
            }
        }
        "update" => {
            let mut w = World::new();
            w.spawn_batch((0..N_ENTITIES).map(|_| (Position([0.0; 3]), Mover([1.0, 0.5, 0.25]))))
                .unwrap();
            for _ in 0..reps {
                black_box(w.update(black_box(0.016)));
            }
        }
        "update_ctx" => {
            // update, the sibling looked up through `ctx.get_mut`.
            let mut w = World::new();
            w.spawn_batch(
                (0..N_ENTITIES).map(|_| (Position([0.0; 3]), CtxMover([1.0, 0.5, 0.25]))),
            )
            .unwrap();
            for _ in 0..reps {
                black_box(w.update(black_box(0.016)));
            }
        }
        "broadcast" => {
            let (mut w, root) = ping_tree(100);
            for _ in 0..reps {
                black_box(w.broadcast(root, &Ping(1)).unwrap());
            }
        }
        "simple_insert" => {
            for _ in 0..reps {
                black_box(simple::ours(N_ENTITIES, simple_bundle));
            }
        }
        "simple_iter" => {
            let mut w = simple::ours(N_ENTITIES, simple_bundle);
            for _ in 0..reps {
                w.query_mut::<(&mut Position, &Velocity)>()
                    .for_each(|(p, v)| {
                        for k in 0..3 {
                            p.0[k] += v.0[k];
                        }
                    });
            }
        }
        "query_iter" => {
            // simple_iter through a `for` loop over `query_mut`.
            let mut w = simple::ours(N_ENTITIES, simple_bundle);
            for _ in 0..reps {
                for (p, v) in w.query_mut::<(&mut Position, &Velocity)>() {
                    for k in 0..3 {
                        p.0[k] += v.0[k];
                    }
                }
                black_box(&mut w);
            }
        }
        "join5" => {
            // Five terms over four tables (the `join5` bench's `ours`).
            let mut w = join5::ours();
            for _ in 0..reps {
                for (p, h, v, r, t) in
                    w.query_mut::<(&mut Position, &mut Health, &Velocity, &Radius, &Team)>()
                {
                    join5_kernel(p, h, v, r, t);
                }
                black_box(&mut w);
            }
        }
        "frag_iter" => {
            let mut w = frag::ours();
            for _ in 0..reps * 100 {
                w.for_each_mut(|d: &mut Data| d.0 *= 2.0);
            }
        }
        "par_light" | "seq_light" => {
            // par_light's world: `par_for_each` (which stays on this thread
            // for so light a loop) against the sequential `for_each`.
            let mut w = par_light_world();
            let par = scenario == "par_light";
            for _ in 0..reps {
                let q = w.query_mut::<(&mut Position, &Velocity)>();
                if par {
                    q.par_for_each(|(p, v)| {
                        for k in 0..3 {
                            p.0[k] += v.0[k];
                        }
                    });
                } else {
                    q.for_each(|(p, v)| {
                        for k in 0..3 {
                            p.0[k] += v.0[k];
                        }
                    });
                }
            }
        }
        "frag_query" => {
            // frag_iter through the query engine: the per-call cost of
            // matching 26 small tables and opening each.
            let mut w = frag::ours();
            for _ in 0..reps * 100 {
                for (d,) in w.query_mut::<(&mut Data,)>() {
                    d.0 *= 2.0;
                }
            }
        }
        "frag_fold" => {
            // frag_query through `for_each`: no iterator state between tables.
            let mut w = frag::ours();
            for _ in 0..reps * 100 {
                w.query_mut::<(&mut Data,)>().for_each(|(d,)| d.0 *= 2.0);
            }
        }
        "add_remove" => {
            let mut w = World::new();
            let ids = w
                .spawn_batch((0..N_ENTITIES).map(|_| (AddA(0.0),)))
                .unwrap();
            for _ in 0..reps {
                for &id in &ids {
                    w.entity_mut(id).unwrap().add(AddB(0.0)).unwrap();
                }
                for &id in &ids {
                    w.entity_mut(id).unwrap().remove::<AddB>().unwrap();
                }
            }
        }
        "build" => {
            // The floor under a load: the same world built from values
            // already in memory (a clone of the rows), no serde.
            use benches_peers::save_load::*;
            let rows = rows(N_ENTITIES);
            let mut kept = Vec::with_capacity(reps);
            let start = std::time::Instant::now();
            for _ in 0..reps {
                let w = build_from(rows.clone());
                kept.push(w);
            }
            eprintln!(
                "build: {:.2} ms per run",
                start.elapsed().as_secs_f64() * 1e3 / reps as f64
            );
        }
        "load_json" | "load_binary" | "save_json" | "save_binary" => {
            let w = save_load::world(N_ENTITIES);
            let saved = match scenario.as_str() {
                "load_json" | "save_json" => w.save_json().unwrap().into_bytes(),
                _ => w.save_binary().unwrap(),
            };
            // Loaded worlds are dropped after the clock stops, as criterion's
            // `iter_with_large_drop` does.
            let mut kept = Vec::with_capacity(reps);
            let start = std::time::Instant::now();
            for _ in 0..reps {
                match scenario.as_str() {
                    "save_json" => drop(black_box(w.save_json().unwrap())),
                    "save_binary" => drop(black_box(w.save_binary().unwrap())),
                    _ => kept.push(black_box(World::load(black_box(&saved)).unwrap())),
                }
            }
            eprintln!(
                "{scenario}: {:.2} ms per run",
                start.elapsed().as_secs_f64() * 1e3 / reps as f64
            );
            drop(kept);
        }
        "rmp_load" | "serde_load_json" => {
            // The loads' baselines: serde alone reading the same values.
            use benches_peers::save_load::{rows, Row};
            let rows = rows(N_ENTITIES);
            let binary = scenario == "rmp_load";
            let saved = if binary {
                rmp_serde::to_vec(&rows).unwrap()
            } else {
                serde_json::to_vec(&rows).unwrap()
            };
            let mut kept = Vec::with_capacity(reps);
            for _ in 0..reps {
                let read: Vec<Row> = if binary {
                    rmp_serde::from_slice(black_box(&saved)).unwrap()
                } else {
                    serde_json::from_slice(black_box(&saved)).unwrap()
                };
                kept.push(black_box(read));
            }
            drop(kept);
        }
        "blueprint" => {
            let blueprint = ecs_core::Blueprint::from_json(HAZMAT_BLUEPRINT).unwrap();
            let mut kept = Vec::with_capacity(reps);
            for _ in 0..reps {
                let mut w = World::new();
                w.spawn_blueprints(black_box(&blueprint), N_ENTITIES)
                    .unwrap();
                kept.push(w);
            }
            drop(kept);
        }
        "blueprint_serde" => {
            // The blueprint bench's baseline: serde alone, from the parsed
            // JSON.
            let value: serde_json::Value = serde_json::from_str(HAZMAT_BLUEPRINT).unwrap();
            let (transform, model) = (
                &value["components"][0]["data"],
                &value["components"][1]["data"],
            );
            for _ in 0..reps {
                let mut out = Vec::with_capacity(N_ENTITIES);
                for _ in 0..N_ENTITIES {
                    let t: BpTransform = serde::Deserialize::deserialize(transform).unwrap();
                    let m: BpModel = serde::Deserialize::deserialize(model).unwrap();
                    out.push((t, m));
                }
                black_box(out);
            }
        }
        "time_load_binary" | "time_rmp_load" => {
            // Wall-clock per load on a busy machine: the fastest of `reps`
            // batches of `BATCH` (default 8: kept until the batch ends, as criterion's
            // `iter_with_large_drop` keeps them), per load.
            use benches_peers::save_load::{rows, world, Row};
            let ours = scenario == "time_load_binary";
            let saved = if ours {
                world(N_ENTITIES).save_binary().unwrap()
            } else {
                rmp_serde::to_vec(&rows(N_ENTITIES)).unwrap()
            };
            let batch: usize = std::env::var("BATCH").map_or(8, |b| b.parse().expect("batch"));
            let mut best = f64::MAX;
            for _ in 0..reps {
                let start = std::time::Instant::now();
                if ours {
                    let kept: Vec<_> = (0..batch)
                        .map(|_| World::load(black_box(&saved)).unwrap())
                        .collect();
                    best = best.min(start.elapsed().as_secs_f64());
                    drop(black_box(kept));
                } else {
                    let kept: Vec<Vec<Row>> = (0..batch)
                        .map(|_| rmp_serde::from_slice(black_box(&saved)).unwrap())
                        .collect();
                    best = best.min(start.elapsed().as_secs_f64());
                    drop(black_box(kept));
                }
            }
            eprintln!(
                "{scenario}: best {:.3} ms per load",
                best * 1e3 / batch as f64
            );
        }
        "time_blueprint" | "time_blueprint_serde" => {
            // Wall-clock per 10k-copy spawn, the fastest of `reps`, each
            // world (or `Vec`) dropped after the clock stops.
            let blueprint = ecs_core::Blueprint::from_json(HAZMAT_BLUEPRINT).unwrap();
            let value: serde_json::Value = serde_json::from_str(HAZMAT_BLUEPRINT).unwrap();
            let (transform, model) = (
                &value["components"][0]["data"],
                &value["components"][1]["data"],
            );
            let mut best = f64::MAX;
            for _ in 0..reps {
                if scenario == "time_blueprint" {
                    let mut w = World::new();
                    let start = std::time::Instant::now();
                    w.spawn_blueprints(black_box(&blueprint), N_ENTITIES)
                        .unwrap();
                    best = best.min(start.elapsed().as_secs_f64());
                    drop(black_box(w));
                } else {
                    let start = std::time::Instant::now();
                    let mut out = Vec::with_capacity(N_ENTITIES);
                    for _ in 0..N_ENTITIES {
                        let t: BpTransform = serde::Deserialize::deserialize(transform).unwrap();
                        let m: BpModel = serde::Deserialize::deserialize(model).unwrap();
                        out.push((t, m));
                    }
                    drop(black_box(out));
                    best = best.min(start.elapsed().as_secs_f64());
                }
            }
            eprintln!("{scenario}: best {:.3} ms", best * 1e3);
        }
        other => panic!("unknown scenario {other}"),
    }
}
