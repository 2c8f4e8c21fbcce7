// Writing a type and reading it up the tree in one query could alias: the
// ancestor may be an entity of the same kind (a transform and its parent's).
use ecs_core::prelude::*;

#[derive(Component)]
struct Transform(f32);

fn main() {
    let mut world = World::new();
    for (own, parent) in world.query_mut::<(&mut Transform, Up<&Transform>)>() {
        own.0 += parent.map_or(0.0, |p| p.0);
    }
}
