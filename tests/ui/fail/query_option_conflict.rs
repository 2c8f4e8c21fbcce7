// An optional mutable term conflicts like a required one.
use ecs_core::prelude::*;

#[derive(Component)]
struct Position(f32);

fn main() {
    let mut world = World::new();
    for (a, b) in world.query_mut::<(Option<&mut Position>, &Position)>() {
        if let Some(a) = a {
            a.0 = b.0;
        }
    }
}
