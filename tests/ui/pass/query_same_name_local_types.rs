// Two different component types that share a name and a module (each is
// declared inside a function body) are two types: a query writing one and
// reading the other hands out no component twice, so it must compile.
//
// FAILS TODAY: the compile-time conflict check compares `__PATH`
// (`module_path!()` + the identifier), which is the same for both, and
// reports "`&mut OuterScore` and `&InnerScore` name the same component type".
use ecs_core::prelude::*;

fn outer(world: &mut World) -> u32 {
    #[derive(Component)]
    #[component(name = "OuterScore")]
    struct Score(u32);
    let id = world.spawn_with((Score(1),)).unwrap();
    copy_inner_into::<Score>(world, |outer, inner| outer.0 += inner);
    world.entity(id).unwrap().get::<Score>().unwrap().0
}

/// Adds each entity's inner score to its `A`.
fn copy_inner_into<A: Component>(world: &mut World, add: impl Fn(&mut A, u32)) {
    #[derive(Component)]
    #[component(name = "InnerScore")]
    struct Score(u32);
    let ids: Vec<EntityId> = world
        .query::<(EntityId, &A)>()
        .into_iter()
        .map(|(id, _)| id)
        .collect();
    for id in ids {
        world.entity_mut(id).unwrap().add(Score(10)).unwrap();
    }
    for (a, inner) in world.query_mut::<(&mut A, &Score)>() {
        add(a, inner.0);
    }
}

fn main() {
    let mut world = World::new();
    assert_eq!(outer(&mut world), 11);
}
