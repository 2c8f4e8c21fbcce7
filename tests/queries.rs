//! Per-type iteration, pair joins and bundles.

use ecs_core::prelude::*;

mod common;
use common::{AxisMoving, Moving, Position};

#[derive(Component, Debug, Clone, Copy, PartialEq)]
struct Velocity(f32);

#[derive(Component, Debug, PartialEq)]
#[component(multiple)]
struct Collider(f32);

fn ids_of<T>(items: impl Iterator<Item = (EntityId, T)>) -> Vec<EntityId> {
    items.map(|(id, _)| id).collect()
}

#[test]
fn iter_visits_exact_column_then_derived_columns() {
    let mut world = World::new();
    let a = world.spawn_with((AxisMoving::new(1.0, false),)).unwrap();
    let m = world.spawn_with((Moving { speed: 2.0 },)).unwrap();
    let speeds: Vec<f32> = world.iter::<Moving>().map(|(_, m)| m.speed).collect();
    assert_eq!(speeds, [2.0, 1.0]);
    assert_eq!(ids_of(world.iter::<Moving>()), [m, a]);
    for (_, moving) in world.iter_mut::<Moving>() {
        moving.speed *= 10.0;
    }
    assert_eq!(
        world
            .entity(a)
            .unwrap()
            .get::<AxisMoving>()
            .unwrap()
            .base
            .speed,
        10.0
    );
    assert_eq!(world.iter::<AxisMoving>().count(), 1);
    assert_eq!(world.iter::<Position>().count(), 0);
}

#[test]
fn iter_skips_despawned_entities() {
    let mut world = World::new();
    let ids = world
        .spawn_batch((0..5).map(|i| (Position(i as f32),)))
        .unwrap();
    world.despawn(ids[1]).unwrap();
    world.despawn(ids[3]).unwrap();
    let mut seen: Vec<f32> = world.iter::<Position>().map(|(_, p)| p.0).collect();
    seen.sort_by(f32::total_cmp);
    assert_eq!(seen, [0.0, 2.0, 4.0]);
    for (id, p) in world.iter::<Position>() {
        assert_eq!(world.entity(id).unwrap().get::<Position>(), Some(p));
    }
}

#[test]
fn queries_join_only_entities_holding_both() {
    let mut world = World::new();
    let both = world.spawn_with((Position(1.0), Velocity(0.5))).unwrap();
    let only_pos = world.spawn_with((Position(7.0),)).unwrap();
    // Velocity first, Position second: another table, in the other order.
    let swapped = world.spawn_with((Velocity(2.0), Position(3.0))).unwrap();
    world.spawn_with((Velocity(9.0),)).unwrap();
    let mut visited = Vec::new();
    for (id, pos, vel) in world.query_mut::<(EntityId, &mut Position, &Velocity)>() {
        pos.0 += vel.0;
        visited.push(id);
    }
    assert_eq!(visited, [both, swapped]);
    let pos = |world: &World, id| world.entity(id).unwrap().get::<Position>().copied();
    assert_eq!(pos(&world, both), Some(Position(1.5)));
    assert_eq!(pos(&world, swapped), Some(Position(5.0)));
    assert_eq!(pos(&world, only_pos), Some(Position(7.0)));

    let mut n = 0;
    world
        .query_mut::<(&mut Position, &mut Velocity)>()
        .for_each(|(pos, vel)| {
            pos.0 += vel.0;
            vel.0 = 0.0;
            n += 1;
        });
    assert_eq!(n, 2);
    assert_eq!(pos(&world, swapped), Some(Position(7.0)));
    assert_eq!(
        world.entity(swapped).unwrap().get::<Velocity>(),
        Some(&Velocity(0.0))
    );
}

#[test]
fn queries_find_a_term_through_its_parent() {
    let mut world = World::new();
    let id = world
        .spawn_with((Position(0.0), AxisMoving::new(3.0, false)))
        .unwrap();
    for (pos, moving) in world.query_mut::<(&mut Position, &Moving)>() {
        pos.0 += moving.speed;
    }
    // The first term may be a base type too (pairs required it exact).
    for (moving, pos) in world.query_mut::<(&mut Moving, &mut Position)>() {
        pos.0 += moving.speed;
        moving.speed = 0.0;
    }
    let e = world.entity(id).unwrap();
    assert_eq!(e.get::<Position>(), Some(&Position(6.0)));
    assert_eq!(e.get::<Moving>().unwrap().speed, 0.0);
    assert_eq!(e.get::<AxisMoving>().unwrap().base.speed, 0.0);
}

#[test]
fn parallel_queries_visit_every_entity_once() {
    let mut world = World::new();
    world
        .spawn_batch((0..1000).map(|i| (Position(i as f32), Velocity(1.0))))
        .unwrap();
    world
        .query_mut::<(&mut Position, &Velocity)>()
        .par_for_each(|(pos, vel)| pos.0 += vel.0);
    let sum: f32 = world.iter::<Position>().map(|(_, p)| p.0).sum();
    assert_eq!(sum, (1..=1000).sum::<i32>() as f32);
    // A second table, in the other order, is visited too.
    let extra = world.spawn_with((Velocity(1.0), Position(0.0))).unwrap();
    let visited = std::sync::atomic::AtomicUsize::new(0);
    world
        .query_mut::<(&mut Position, &Velocity)>()
        .par_for_each(|(pos, vel)| {
            pos.0 += vel.0;
            visited.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        });
    assert_eq!(visited.into_inner(), 1001);
    assert_eq!(
        world.entity(extra).unwrap().get::<Position>(),
        Some(&Position(1.0))
    );
}

#[test]
fn bundles_are_atomic() {
    let mut world = World::new();
    let err = world
        .spawn_with((Moving { speed: 1.0 }, AxisMoving::new(2.0, false)))
        .unwrap_err();
    assert!(matches!(
        err,
        Error::Duplicate {
            single: "Moving",
            ..
        }
    ));
    assert_eq!(world.len(), 0);
    assert_eq!(world.iter::<Moving>().count(), 0);

    let ok = world.spawn_with((Collider(1.0), Collider(2.0))).unwrap();
    assert_eq!(world.entity(ok).unwrap().get_all::<Collider>().count(), 2);

    let err = world.spawn_batch(vec![(Position(1.0), Position(2.0))]);
    assert!(err.is_err());
    let made = world
        .spawn_batch(vec![
            (Position(1.0), Velocity(0.0)),
            (Position(2.0), Velocity(0.0)),
        ])
        .unwrap();
    assert_eq!(made.len(), 2);
    assert_eq!(world.len(), 3);
    assert_eq!(world.iter::<Position>().count(), 2);
}

/// A one-term query of a base type walks exact and derived tables alike:
/// every row once, in a `for` loop, a closure, on threads, and through a
/// change filter (which walks runs of rows), writes landing in place.
#[test]
fn a_base_type_term_alone_walks_exact_and_derived_rows() {
    let mut world = World::new();
    let mut derived = Vec::new();
    for i in 0..300 {
        world.spawn_with((Moving { speed: i as f32 },)).unwrap();
        derived.push(
            world
                .spawn_with((AxisMoving::new(i as f32, i % 2 == 0),))
                .unwrap(),
        );
        world
            .spawn_with((AxisMoving::new(i as f32, true), Velocity(1.0)))
            .unwrap();
    }
    let sum = |world: &World| -> f32 {
        world
            .query::<(&Moving,)>()
            .into_iter()
            .map(|(m,)| m.speed)
            .sum()
    };
    let start = sum(&world);
    assert_eq!(start, 3.0 * (0..300).sum::<i32>() as f32);

    for (m,) in world.query_mut::<(&mut Moving,)>() {
        m.speed += 1.0;
    }
    assert_eq!(sum(&world), start + 900.0);
    world
        .query_mut::<(&mut Moving,)>()
        .for_each(|(m,)| m.speed += 1.0);
    assert_eq!(sum(&world), start + 1800.0);
    world
        .query_mut::<(&mut Moving,)>()
        .par_for_each(|(m,)| m.speed += 1.0);
    assert_eq!(sum(&world), start + 2700.0);

    // Every other derived component written since `since`: the filter
    // walks those rows alone, skipping the rows between them.
    let since = world.change_tick();
    for &id in derived.iter().step_by(2) {
        world
            .entity_mut(id)
            .unwrap()
            .get_mut::<AxisMoving>()
            .unwrap()
            .base
            .speed += 0.5;
    }
    let mut seen = 0;
    for (m,) in world
        .query_mut::<(&mut Moving,)>()
        .changed_since::<Moving>(since)
    {
        assert_eq!(m.speed.fract(), 0.5);
        m.speed += 0.5;
        seen += 1;
    }
    assert_eq!(seen, 150);
    assert_eq!(sum(&world), start + 2700.0 + 150.0);
    let axis = world
        .entity(derived[2])
        .unwrap()
        .get::<AxisMoving>()
        .unwrap();
    assert_eq!(axis.base.speed, 2.0 + 3.0 + 1.0);
}
