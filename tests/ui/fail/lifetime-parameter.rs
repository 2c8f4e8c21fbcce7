use ecs_core::prelude::*;

#[derive(Component)]
struct Label<'a> {
    text: &'a str,
}

fn main() {}
