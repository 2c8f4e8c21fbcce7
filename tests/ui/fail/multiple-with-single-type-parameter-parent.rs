use ecs_core::prelude::*;

#[derive(Component)]
struct Moving {
    speed: f32,
}

// The parent is a type parameter: whether it is single is known per use.
#[derive(Component)]
#[component(multiple)]
struct Boxed<T> {
    #[component(parent)]
    inner: T,
}

fn main() {
    let _ = Boxed::<Moving>::key_stack();
}
