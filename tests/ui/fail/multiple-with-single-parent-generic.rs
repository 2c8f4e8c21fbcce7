use ecs_core::prelude::*;

#[derive(Component)]
struct Moving {
    speed: f32,
}

// Generic: the check runs when the type is used with concrete arguments.
#[derive(Component)]
#[component(parent = Moving, multiple)]
struct Tagged<T> {
    base: Moving,
    tag: T,
}

fn main() {
    let _ = Tagged::<u8>::key_stack();
}
