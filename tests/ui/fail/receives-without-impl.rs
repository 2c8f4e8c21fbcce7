use ecs_core::prelude::*;

struct TakeDamage(u32);

#[derive(Component)]
#[component(receives(TakeDamage))]
struct Health(u32);

fn main() {}
