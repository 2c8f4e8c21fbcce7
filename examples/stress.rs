//! One million entities with eight components each: spawn, query, despawn
//! half, respawn, with the time of each phase and the heap bytes per entity
//! measured by a counting global allocator.
//!
//! ```sh
//! cargo run --release --example stress            # 1,000,000 entities
//! STRESS_ENTITIES=100000 cargo run --example stress
//! ```

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::time::{Duration, Instant};

use ecs_core::prelude::*;

/// `System`, counting live and peak heap bytes.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(bytes: usize) {
    let now = LIVE.fetch_add(bytes, Relaxed) + bytes;
    PEAK.fetch_max(now, Relaxed);
}

// SAFETY: every method forwards to `System` with the caller's arguments
// unchanged, so `System`'s guarantees carry over; the counters only observe.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller upholds `alloc`'s contract, passed on as is.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` and `layout` come from this allocator, which is `System`.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as for `dealloc`; the caller upholds `realloc`'s contract.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            LIVE.fetch_sub(layout.size(), Relaxed);
            grew(new_size);
        }
        p
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

#[derive(Component, Debug, Clone, Copy)]
struct Position {
    x: f32,
    y: f32,
    z: f32,
}

#[derive(Component, Debug, Clone, Copy)]
struct Velocity {
    x: f32,
    y: f32,
    z: f32,
}

#[derive(Component, Debug, Clone, Copy)]
struct Moving {
    speed: f32,
}

/// Derived: `get::<Moving>()` finds it through the parent chain.
#[derive(Component, Debug, Clone, Copy)]
#[component(parent = Moving)]
struct AxisMoving {
    base: Moving,
    axis: u8,
}

#[derive(Component, Debug, Clone, Copy)]
struct Health(u32);

#[derive(Component, Debug, Clone, Copy)]
struct Mass(f32);

#[derive(Component, Debug, Clone, Copy)]
#[component(multiple)]
struct Collider {
    radius: f32,
}

#[derive(Component, Debug, Clone, Copy)]
struct Team(u8);

#[derive(Component, Debug, Clone, Copy)]
struct Age(u64);

type Bundle8 = (
    Position,
    Velocity,
    AxisMoving,
    Health,
    Mass,
    Collider,
    Team,
    Age,
);

fn bundle(i: usize) -> Bundle8 {
    let f = i as f32;
    (
        Position {
            x: f,
            y: 0.0,
            z: 0.0,
        },
        Velocity {
            x: 1.0,
            y: 0.5,
            z: 0.0,
        },
        AxisMoving {
            base: Moving { speed: 2.0 },
            axis: (i % 3) as u8,
        },
        Health(100),
        Mass(1.0),
        Collider { radius: 0.5 },
        Team((i % 4) as u8),
        Age(i as u64),
    )
}

const PAYLOAD: usize = std::mem::size_of::<Position>()
    + std::mem::size_of::<Velocity>()
    + std::mem::size_of::<AxisMoving>()
    + std::mem::size_of::<Health>()
    + std::mem::size_of::<Mass>()
    + std::mem::size_of::<Collider>()
    + std::mem::size_of::<Team>()
    + std::mem::size_of::<Age>();

struct Report {
    rows: Vec<(String, Duration, usize)>,
}

impl Report {
    fn time<R>(&mut self, phase: &str, items: usize, f: impl FnOnce() -> R) -> R {
        let start = Instant::now();
        let r = black_box(f());
        self.rows.push((phase.to_string(), start.elapsed(), items));
        r
    }

    fn print(&self) {
        println!(
            "{:<44} {:>10} {:>12} {:>12}",
            "phase", "ms", "items", "ns/item"
        );
        for (phase, d, items) in &self.rows {
            let ns = d.as_nanos() as f64 / (*items).max(1) as f64;
            println!(
                "{:<44} {:>10.2} {:>12} {:>12.1}",
                phase,
                d.as_secs_f64() * 1e3,
                items,
                ns
            );
        }
    }
}

/// Reads every component of one entity.
fn checksum(e: &EntityRef<'_>) -> f64 {
    let p = e.get::<Position>().expect("spawned with one");
    let v = e.get::<Velocity>().expect("spawned with one");
    let a = e.get::<AxisMoving>().expect("spawned with one");
    let h = e.get::<Health>().expect("spawned with one");
    let m = e.get::<Mass>().expect("spawned with one");
    let c = e.get::<Collider>().expect("spawned with one");
    let t = e.get::<Team>().expect("spawned with one");
    let g = e.get::<Age>().expect("spawned with one");
    f64::from(p.x + p.y + p.z + v.x + v.y + v.z + a.base.speed + m.0 + c.radius)
        + f64::from(h.0)
        + f64::from(a.axis)
        + f64::from(t.0)
        + g.0 as f64
}

/// A cheap deterministic sequence for sampling ids.
fn lcg(state: &mut u64) -> u64 {
    *state = state
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407);
    *state >> 33
}

fn main() -> Result<(), Error> {
    let n: usize = std::env::var("STRESS_ENTITIES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000);
    let mut report = Report { rows: Vec::new() };
    let base = LIVE.load(Relaxed);
    let mut world = World::new();

    let ids = report.time("spawn_batch (8 components each)", n, || {
        world.spawn_batch((0..n).map(bundle))
    })?;
    let after_spawn = LIVE.load(Relaxed) - base;
    assert_eq!(world.len(), n);

    let sum = report.time("iter::<Position>() sum", n, || {
        world
            .iter::<Position>()
            .map(|(_, p)| p.x as f64)
            .sum::<f64>()
    });
    assert!(sum > 0.0);
    let moving = report.time("iter::<Moving>() via AxisMoving (upcast)", n, || {
        world
            .iter::<Moving>()
            .map(|(_, m)| m.speed as f64)
            .sum::<f64>()
    });
    assert_eq!(moving, 2.0 * n as f64);
    let axes = report.time("iter::<AxisMoving>() (exact column)", n, || {
        world
            .iter::<AxisMoving>()
            .filter(|(_, a)| a.axis == 0)
            .count()
    });
    assert_eq!(axes, n.div_ceil(3));
    report.time("for_each_mut::<Velocity>()", n, || {
        world.for_each_mut(|v: &mut Velocity| v.x += 0.25)
    });
    let visited = report.time("query_mut::<(&mut Position, &Velocity)>()", n, || {
        let mut visited = 0;
        for (p, v) in world.query_mut::<(&mut Position, &Velocity)>() {
            p.x += v.x;
            p.y += v.y;
            p.z += v.z;
            visited += 1;
        }
        visited
    });
    assert_eq!(visited, n);
    let samples = (n / 10).max(1);
    let mut rng = 42;
    let picks: Vec<EntityId> = (0..samples)
        .map(|_| ids[lcg(&mut rng) as usize % ids.len()])
        .collect();
    let found = report.time(
        "entity(id).get::<Health>() (random sample)",
        samples,
        || {
            picks
                .iter()
                .filter(|&&id| world.entity(id).is_ok_and(|e| e.get::<Health>().is_some()))
                .count()
        },
    );
    assert_eq!(found, samples);
    let total = report.time("entity(id) + all 8 gets (random sample)", samples, || {
        picks
            .iter()
            .map(|&id| world.entity(id).map_or(0.0, |e| checksum(&e)))
            .sum::<f64>()
    });
    assert!(total > 0.0);
    let found = report.time(
        "entity(id).get::<Moving>() (random, upcast)",
        samples,
        || {
            picks
                .iter()
                .filter(|&&id| world.entity(id).is_ok_and(|e| e.get::<Moving>().is_some()))
                .count()
        },
    );
    assert_eq!(found, samples);

    let half: Vec<EntityId> = ids.iter().copied().step_by(2).collect();
    report.time("despawn every other entity", half.len(), || {
        for &id in &half {
            world.despawn(id).expect("live");
        }
    });
    assert_eq!(world.len(), n - half.len());
    let after_despawn = LIVE.load(Relaxed) - base;
    let respawned = report.time("spawn_batch again (reusing slots)", half.len(), || {
        world.spawn_batch((0..half.len()).map(bundle))
    })?;
    assert_eq!(world.len(), n);
    assert!(
        half.iter().all(|&id| !world.contains(id)),
        "stale ids stay dead"
    );
    assert!(respawned.iter().all(|&id| world.contains(id)));
    let after_respawn = LIVE.load(Relaxed) - base;
    let id_vecs_now = [
        ids.capacity(),
        respawned.capacity(),
        half.capacity(),
        picks.capacity(),
    ]
    .iter()
    .sum::<usize>()
        * std::mem::size_of::<EntityId>();
    let count = report.time("iter::<Position>() after churn", n, || {
        world.iter::<Position>().count()
    });
    assert_eq!(count, n);
    drop(ids);
    drop(respawned);
    drop(half);
    drop(picks);
    report.time("drop the world", n, || drop(world));
    let leaked = LIVE.load(Relaxed) as isize - base as isize;

    println!("stress: {n} entities x 8 components (payload {PAYLOAD} bytes per entity)\n");
    report.print();
    println!();
    let per = |bytes: usize| bytes as f64 / n as f64;
    println!("{:<44} {:>12} {:>12}", "heap", "bytes", "per entity");
    for (what, bytes) in [
        ("after spawn (world + id vec)", after_spawn),
        ("after despawning half", after_despawn),
        ("after respawn (world + id vecs)", after_respawn),
        ("peak", PEAK.load(Relaxed) - base),
    ] {
        println!("{what:<44} {bytes:>12} {:>12.1}", per(bytes));
    }
    let id_vec = n * std::mem::size_of::<EntityId>();
    println!(
        "{:<44} {:>12} {:>12.1}",
        "world only, after spawn",
        after_spawn - id_vec,
        per(after_spawn - id_vec)
    );
    println!(
        "{:<44} {:>12} {:>12.1}",
        "world only, after respawn",
        after_respawn - id_vecs_now,
        per(after_respawn - id_vecs_now)
    );
    println!(
        "{:<44} {leaked:>12}",
        "still allocated after dropping the world"
    );
    Ok(())
}
