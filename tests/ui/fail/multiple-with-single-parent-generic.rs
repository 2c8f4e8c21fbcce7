use ecs_core::prelude::*;

#[derive(Component)]
struct Moving {
    speed: f32,
}

// Generic: the check runs on the definition, whatever `T` is.
#[derive(Component)]
#[component(parent = Moving, multiple)]
struct Tagged<T> {
    base: Moving,
    tag: T,
}

fn main() {}
