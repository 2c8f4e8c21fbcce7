use ecs_core::prelude::*;

#[derive(Component, Clone, Copy)]
struct Moving {
    speed: f32,
}

#[derive(Component)]
#[component(parent = Moving)]
union Motion {
    moving: Moving,
    raw: u32,
}

fn main() {}
