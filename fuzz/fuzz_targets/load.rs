//! A saved world read from any bytes, JSON or binary snapshot: loading
//! never panics, and a world that loads saves, loads and saves again to the
//! same bytes in both formats.

#![no_main]

use ecs_core::prelude::*;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(loaded) = World::load(data) {
        ecs_fuzz::check(&loaded.world);
    }
});
