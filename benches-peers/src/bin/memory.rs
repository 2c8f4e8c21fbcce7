//! Bytes per entity of the simple_insert world (10k entities with Transform,
//! Position, Rotation, Velocity) for each library, measured with a counting
//! global allocator: live heap bytes after building the world minus before,
//! divided by the number of entities.
//!
//! Writes JSON to the path given as the first argument (default
//! `target/peers-memory.json` under this package) and prints it.

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicIsize, Ordering};

use benches_peers::{simple, simple_bundle, N_ENTITIES, SIMPLE_COMPONENT_BYTES};

struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);

// SAFETY: every call forwards to `System` unchanged; only a counter is kept.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            LIVE.fetch_add(
                new_size as isize - layout.size() as isize,
                Ordering::Relaxed,
            );
        }
        p
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Live bytes held by the value `build` returns (kept alive while measured).
fn live_bytes<W>(build: impl FnOnce() -> W) -> isize {
    let before = LIVE.load(Ordering::SeqCst);
    let world = black_box(build());
    let after = LIVE.load(Ordering::SeqCst);
    drop(world);
    after - before
}

fn main() {
    let out = std::env::args().nth(1).unwrap_or_else(|| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/target/peers-memory.json").to_string()
    });
    let n = N_ENTITIES;
    let per = |bytes: isize| bytes as f64 / n as f64;
    let rows = [
        ("ours", live_bytes(|| simple::ours(n, simple_bundle))),
        ("ours_unreserved", live_bytes(|| simple::ours_unreserved(n))),
        ("bevy", live_bytes(|| simple::bevy(n, simple_bundle))),
        ("hecs", live_bytes(|| simple::hecs(n, simple_bundle))),
    ];
    let empty = [
        ("ours", live_bytes(|| simple::ours(0, simple_bundle))),
        ("bevy", live_bytes(|| simple::bevy(0, simple_bundle))),
        ("hecs", live_bytes(|| simple::hecs(0, simple_bundle))),
    ];
    let target = 1.5 * SIMPLE_COMPONENT_BYTES as f64 + 32.0;
    let mut json = String::from("{\n");
    json += &format!("  \"entities\": {n},\n");
    json += &format!("  \"component_bytes\": {SIMPLE_COMPONENT_BYTES},\n");
    json += &format!("  \"target_bytes_per_entity\": {target},\n");
    json += "  \"bytes_per_entity\": {\n";
    let body: Vec<String> = rows
        .iter()
        .map(|(name, bytes)| format!("    \"{name}\": {:.2}", per(*bytes)))
        .collect();
    json += &body.join(",\n");
    json += "\n  },\n  \"empty_world_bytes\": {\n";
    let body: Vec<String> = empty
        .iter()
        .map(|(name, bytes)| format!("    \"{name}\": {bytes}"))
        .collect();
    json += &body.join(",\n");
    json += "\n  }\n}\n";
    if let Some(dir) = std::path::Path::new(&out).parent() {
        std::fs::create_dir_all(dir).expect("create output directory");
    }
    std::fs::write(&out, &json).expect("write memory JSON");
    print!("{json}");
    eprintln!("wrote {out}");
}
