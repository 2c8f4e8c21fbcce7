use ecs_core::prelude::*;

struct Heal(u32);

#[derive(Component)]
#[component(receives(&Heal))]
struct Health(u32);

fn main() {}
