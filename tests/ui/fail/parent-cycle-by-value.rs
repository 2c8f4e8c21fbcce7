// Each says the other is its parent, both embedded by value: the compiler
// reports the infinite type first; its advice (a `Box`) leads to the
// derive's message in parent-cycle.rs. The errors after the first are the
// compiler's, from the layout and drop questions any code about the types
// asks; the derive cannot see the other type to report the cycle itself.
use ecs_core::prelude::*;

#[derive(Component)]
#[component(parent = Walker)]
struct Runner {
    base: Walker,
}

#[derive(Component)]
#[component(parent = Runner)]
struct Walker {
    base: Runner,
}

fn main() {}
