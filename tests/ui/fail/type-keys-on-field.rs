use ecs_core::prelude::*;

#[derive(Component, Default)]
struct Transform;

#[derive(Component)]
struct Health {
    #[component(behaviour)]
    hp: u32,
    #[component(requires(Transform))]
    max: u32,
    #[component(transient, receives(Heal))]
    cache: u32,
}

struct Heal;

fn main() {}
