use ecs_core::prelude::*;

#[derive(Component)]
#[component(transient = "yes")]
struct CacheHandle(u64);

fn main() {}
