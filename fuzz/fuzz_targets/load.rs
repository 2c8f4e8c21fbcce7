//! A saved world read from any text: loading never panics, and a world
//! that loads saves, loads and saves again to the same text.

#![no_main]

use ecs_core::prelude::*;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // The component types the saves may name.
    let _ = std::hint::black_box(ecs_fuzz::check as fn(&World));
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(world) = World::load_json(text) {
        ecs_fuzz::check(&world);
    }
});
