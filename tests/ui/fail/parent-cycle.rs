// Each says the other is its parent; the compiler's advice for the infinite
// type (a `Box`) is taken on one side.
use ecs_core::prelude::*;

#[derive(Component)]
#[component(parent = Walker)]
struct Runner {
    base: Box<Walker>,
}

#[derive(Component)]
#[component(parent = Runner)]
struct Walker {
    base: Runner,
}

fn main() {}
