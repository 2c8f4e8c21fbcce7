use ecs_core::prelude::*;

#[derive(Component, Default)]
#[component(requires(Self))]
struct Health(u32);

#[derive(Component, Default)]
#[component(requires(Mana))]
struct Mana(u32);

fn main() {}
