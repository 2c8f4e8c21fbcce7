//! Tables no entity uses are given back: an entity gathering `multiple`
//! components one `add` at a time passes through a table per count, and a
//! long-running world must not keep them all. The world keeps working
//! through it: lookups, cached query plans and cached bundle layouts see
//! the tables as they are now.

use ecs_core::prelude::*;

#[derive(Component, Debug, Clone, PartialEq)]
#[component(multiple)]
struct Hit(u32);

#[derive(Component, Debug, Clone, PartialEq)]
struct Position(i32);

#[derive(Component, Debug, Clone, PartialEq)]
struct Velocity(i32);

/// The most tables the world may hold while one entity walks through
/// thousands of layouts: the layouts in use, plus the empty ones that may
/// pile up before they are reclaimed (a constant, whatever the walk's
/// length).
const BOUND: usize = 2 * 64 + 8;

#[test]
fn gathering_components_one_at_a_time_keeps_tables_bounded() {
    let mut world = World::new();
    let bystander = world.spawn_with((Position(7), Velocity(1))).unwrap();
    let gatherer = world.spawn();
    let mut most = 0;
    for i in 0..2_000 {
        world.entity_mut(gatherer).unwrap().add(Hit(i)).unwrap();
        most = most.max(world.table_count());
    }
    assert!(
        most <= BOUND,
        "{most} tables for 2,000 layouts walked through"
    );
    // Nothing was lost on the way: every value, in insertion order.
    let e = world.entity(gatherer).unwrap();
    let hits: Vec<u32> = e.get_all::<Hit>().map(|h| h.0).collect();
    assert_eq!(hits, (0..2_000).collect::<Vec<_>>());
    let other = world.entity(bystander).unwrap();
    assert_eq!(other.get::<Position>(), Some(&Position(7)));
    // Walking back down reclaims too.
    let mut e = world.entity_mut(gatherer).unwrap();
    let mut removed = 0;
    while e.remove::<Hit>().is_some() {
        removed += 1;
    }
    assert_eq!(removed, 2_000);
    assert!(world.table_count() <= BOUND);
}

#[test]
fn despawning_gives_back_what_the_entity_walked_through() {
    let mut world = World::new();
    let gatherer = world.spawn();
    for i in 0..500 {
        world.entity_mut(gatherer).unwrap().add(Hit(i)).unwrap();
    }
    world.despawn(gatherer).unwrap();
    // The empty layout's table, and at most the few emptied since the last
    // reclaim.
    assert!(world.table_count() <= 64 + 1, "{}", world.table_count());
    // A fresh walk reuses what was given back.
    let again = world.spawn();
    for i in 0..500 {
        world.entity_mut(again).unwrap().add(Hit(i)).unwrap();
        assert!(world.table_count() <= BOUND);
    }
    assert_eq!(world.entity(again).unwrap().get_all::<Hit>().count(), 500);
}

#[test]
fn queries_and_bundles_see_tables_as_they_are_after_reclaiming() {
    let mut world = World::new();
    let a = world.spawn_with((Position(1), Velocity(10))).unwrap();
    // Plans and the bundle's cached table are made now...
    assert_eq!(
        world.query::<(&Position, &Velocity)>().into_iter().count(),
        1
    );
    let walker = world.spawn_with((Position(2),)).unwrap();
    for round in 0..3u32 {
        // ...then the walker makes and empties hundreds of tables, which
        // are reclaimed and their slots reused by the next round's.
        for i in 0..150 {
            world
                .entity_mut(walker)
                .unwrap()
                .add(Hit(round * 1000 + i))
                .unwrap();
        }
        let mut e = world.entity_mut(walker).unwrap();
        while e.remove::<Hit>().is_some() {}
        let b = world.spawn_with((Position(3), Velocity(30))).unwrap();
        let mut seen: Vec<(EntityId, i32, Option<i32>)> = world
            .query::<(EntityId, &Position, Option<&Velocity>)>()
            .into_iter()
            .map(|(id, p, v)| (id, p.0, v.map(|v| v.0)))
            .collect();
        seen.sort_by_key(|s| s.0);
        let moved = 100 * round as i32;
        assert_eq!(seen[0], (a, 1 + moved, Some(10)));
        assert_eq!(seen[1], (walker, 2, None));
        assert_eq!(seen.len(), 3 + round as usize);
        assert!(seen[2..].iter().all(|s| s.2 == Some(30)));
        assert!(seen.iter().any(|s| s.0 == b));
        // Writes land where reads find them.
        for (p, _v) in world.query_mut::<(&mut Position, &Velocity)>() {
            p.0 += 100;
        }
        let a_now = world.entity(a).unwrap().get::<Position>().cloned();
        assert_eq!(a_now, Some(Position(1 + moved + 100)));
        let hits = world.query::<(&Hit,)>().into_iter().count();
        assert_eq!(hits, 0, "no Hit is left after round {round}");
    }
    assert!(world.table_count() <= BOUND);
}

/// An entity that gathered a thousand components one `add` at a time, then
/// goes (despawned, or stripped of everything): the tables it walked
/// through are given back as it goes, not at some later call. (Each of
/// those tables holds a segment per component: about 9 MiB for 1,000.)
#[test]
fn a_world_gives_back_an_entitys_tables_when_the_entity_goes() {
    let mut world = World::new();
    world.spawn_with((Position(7), Velocity(1))).unwrap();
    let before = world.table_count();
    for how in ["despawn", "detach_all", "remove_all", "despawn_command"] {
        let gatherer = world.spawn();
        for i in 0..1_000 {
            world.entity_mut(gatherer).unwrap().add(Hit(i)).unwrap();
        }
        assert!(world.table_count() > before, "{how}");
        match how {
            "despawn" => world.despawn(gatherer).unwrap(),
            "detach_all" => assert_eq!(world.entity_mut(gatherer).unwrap().detach_all(), 1_000),
            "remove_all" => {
                assert_eq!(
                    world.entity_mut(gatherer).unwrap().remove_all::<Hit>(),
                    1_000
                );
            }
            _ => {
                world.commands().despawn(gatherer);
                world.apply_commands();
            }
        }
        assert_eq!(
            world.table_count(),
            before,
            "{how}: only the tables still in use are held"
        );
        if world.contains(gatherer) {
            world.despawn(gatherer).unwrap();
        }
    }
    // Walking back down one `remove` at a time gives back all but the few
    // small tables emptied last, whatever the walk's length.
    let gatherer = world.spawn();
    for i in 0..1_000 {
        world.entity_mut(gatherer).unwrap().add(Hit(i)).unwrap();
    }
    let mut e = world.entity_mut(gatherer).unwrap();
    while e.remove::<Hit>().is_some() {}
    assert!(
        world.table_count() <= before + 16,
        "{}",
        world.table_count()
    );
}

/// Adding and removing a component in a loop does not make and reclaim a
/// table each time, even on an entity holding hundreds of components: the
/// table it leaves stays until empty tables weigh more than those in use.
#[test]
fn an_add_remove_loop_keeps_its_tables() {
    let mut world = World::new();
    world.spawn_with((Position(7),)).unwrap();
    let e = world.spawn();
    for i in 0..300 {
        world.entity_mut(e).unwrap().add(Hit(i)).unwrap();
    }
    let mut steady = 0;
    for round in 0..100 {
        world.entity_mut(e).unwrap().add(Velocity(round)).unwrap();
        assert_eq!(
            world.entity_mut(e).unwrap().remove::<Velocity>(),
            Some(Velocity(round))
        );
        if round == 3 {
            steady = world.table_count();
        }
        if round > 3 {
            assert_eq!(world.table_count(), steady, "round {round}");
        }
    }
    assert_eq!(world.entity(e).unwrap().get_all::<Hit>().count(), 300);
}
