//! `World::query` and `World::query_mut`: every term kind, the is-a rule
//! across tables, `with`/`without`, inactive components and entities,
//! generic components, iteration styles, `par_for_each`, and queries after
//! entities move between tables.

use std::marker::PhantomData;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use ecs_core::prelude::*;

mod common;
use common::{AxisMoving, Enemy, Moving, Position};

#[derive(Component, Debug, Clone, Copy, PartialEq)]
struct Velocity(f32);

/// A marker with no data.
#[derive(Component, Debug, Clone, Copy, PartialEq)]
struct Frozen;

/// Is-a [`Enemy`] (which requires a `Transform`).
#[derive(Component, Debug, Clone, PartialEq)]
#[component(parent = Enemy)]
struct FastEnemy {
    base: Enemy,
    boost: f32,
}

/// Three levels: `DiagonalMoving` is-a `AxisMoving` is-a `Moving`.
#[derive(Component, Debug, Clone, PartialEq)]
#[component(parent = AxisMoving)]
struct DiagonalMoving {
    base: AxisMoving,
    slope: f32,
}

/// Is-a [`Moving`] whose parent field sits behind other data.
#[derive(Component, Debug, Clone, PartialEq)]
#[component(parent = Moving)]
struct PaddedMoving {
    pad: [u64; 3],
    base: Moving,
}

/// An entity may hold several.
#[derive(Component, Debug, Clone, PartialEq)]
#[component(multiple)]
struct Collider {
    radius: f32,
}

/// Is-a [`Collider`]; several per entity too.
#[derive(Component, Debug, Clone, PartialEq)]
#[component(multiple, parent = Collider)]
struct CircleCollider {
    base: Collider,
    segments: u32,
}

/// One generic component type, instantiated per kind of stat.
#[derive(Component, Debug)]
struct Stat<K: Send + Sync + 'static> {
    value: i32,
    _kind: PhantomData<K>,
}

impl<K: Send + Sync + 'static> Stat<K> {
    fn new(value: i32) -> Self {
        Stat {
            value,
            _kind: PhantomData,
        }
    }
}

struct Hp;
struct Mana;

/// A non-generic parent of a generic component type; an entity may hold
/// several.
#[derive(Component, Debug, Clone, PartialEq)]
#[component(multiple)]
struct Effect {
    strength: i32,
}

/// Each instantiation is-a [`Effect`].
#[derive(Component, Debug)]
#[component(multiple, parent = Effect)]
struct Buff<K: Send + Sync + 'static> {
    base: Effect,
    _kind: PhantomData<K>,
}

fn buff<K: Send + Sync + 'static>(strength: i32) -> Buff<K> {
    Buff {
        base: Effect { strength },
        _kind: PhantomData,
    }
}

fn circle(radius: f32) -> CircleCollider {
    CircleCollider {
        base: Collider { radius },
        segments: 8,
    }
}

fn diagonal(speed: f32) -> DiagonalMoving {
    DiagonalMoving {
        base: AxisMoving::new(speed, true),
        slope: 0.5,
    }
}

fn padded(speed: f32) -> PaddedMoving {
    PaddedMoving {
        pad: [7, 8, 9],
        base: Moving { speed },
    }
}

/// The `EntityId`s of a query's items, in the order yielded.
fn ids<T>(items: impl IntoIterator<Item = (EntityId, T)>) -> Vec<EntityId> {
    items.into_iter().map(|(id, _)| id).collect()
}

fn sorted(mut v: Vec<EntityId>) -> Vec<EntityId> {
    v.sort();
    v
}

// ---------------------------------------------------------------- terms

#[test]
fn shared_term_reads_every_holder() {
    let mut world = World::new();
    world.spawn_with((Position(1.0),)).unwrap();
    world.spawn_with((Position(2.0), Velocity(5.0))).unwrap();
    world.spawn_with((Velocity(9.0),)).unwrap();
    world.spawn();
    let mut seen: Vec<f32> = world
        .query::<(&Position,)>()
        .into_iter()
        .map(|(p,)| p.0)
        .collect();
    seen.sort_by(f32::total_cmp);
    assert_eq!(seen, [1.0, 2.0]);
    assert_eq!(world.query::<(&Velocity,)>().into_iter().count(), 2);
}

#[test]
fn mutable_term_writes_back_and_joins() {
    let mut world = World::new();
    let a = world.spawn_with((Position(0.0), Velocity(1.0))).unwrap();
    let b = world.spawn_with((Velocity(2.0), Position(10.0))).unwrap();
    let only_pos = world.spawn_with((Position(100.0),)).unwrap();
    let mut visited = 0;
    for (pos, vel) in world.query_mut::<(&mut Position, &Velocity)>() {
        pos.0 += vel.0;
        visited += 1;
    }
    assert_eq!(visited, 2, "only entities holding both");
    let pos = |world: &World, id| world.entity(id).unwrap().get::<Position>().unwrap().0;
    assert_eq!(pos(&world, a), 1.0);
    assert_eq!(pos(&world, b), 12.0);
    assert_eq!(pos(&world, only_pos), 100.0);
}

#[test]
fn option_terms_yield_none_when_the_component_is_missing() {
    let mut world = World::new();
    let a = world.spawn_with((Position(1.0),)).unwrap();
    let b = world.spawn_with((Position(2.0), Velocity(3.0))).unwrap();
    world.spawn_with((Velocity(4.0),)).unwrap();
    let mut got: Vec<(EntityId, f32, Option<f32>)> = world
        .query::<(EntityId, &Position, Option<&Velocity>)>()
        .into_iter()
        .map(|(id, p, v)| (id, p.0, v.map(|v| v.0)))
        .collect();
    got.sort_by_key(|g| g.0);
    assert_eq!(got, [(a, 1.0, None), (b, 2.0, Some(3.0))]);

    // Only Option terms: every entity is visited, the empty one too.
    let empty = world.spawn();
    let all = world
        .query::<(EntityId, Option<&Position>, Option<&Velocity>)>()
        .into_iter()
        .count();
    assert_eq!(all, 4);
    let (_, p, v) = world
        .query::<(EntityId, Option<&Position>, Option<&Velocity>)>()
        .into_iter()
        .find(|(id, _, _)| *id == empty)
        .unwrap();
    assert_eq!((p, v), (None, None));
}

#[test]
fn option_mut_term_writes_where_present() {
    let mut world = World::new();
    let a = world.spawn_with((Position(1.0),)).unwrap();
    let b = world.spawn_with((Position(2.0), Velocity(3.0))).unwrap();
    let mut nones = 0;
    world
        .query_mut::<(&Position, Option<&mut Velocity>)>()
        .for_each(|(p, v)| match v {
            Some(v) => v.0 += p.0,
            None => nones += 1,
        });
    assert_eq!(nones, 1);
    assert_eq!(
        world.entity(b).unwrap().get::<Velocity>(),
        Some(&Velocity(5.0))
    );
    assert!(world.entity(a).unwrap().get::<Velocity>().is_none());
}

#[test]
fn entity_id_term_resolves_back_to_the_same_components() {
    let mut world = World::new();
    for i in 0..20 {
        let id = world.spawn_with((Position(i as f32),)).unwrap();
        if i % 3 == 0 {
            world
                .entity_mut(id)
                .unwrap()
                .add(Velocity(i as f32))
                .unwrap();
        }
        if i % 4 == 0 {
            world
                .entity_mut(id)
                .unwrap()
                .add(AxisMoving::new(1.0, false))
                .unwrap();
        }
    }
    let mut count = 0;
    for (id, pos, moving) in &world.query::<(EntityId, &Position, Option<&Moving>)>() {
        let e = world.entity(id).unwrap();
        assert!(std::ptr::eq(e.get::<Position>().unwrap(), pos));
        match moving {
            Some(m) => assert!(std::ptr::eq(e.get::<Moving>().unwrap(), m)),
            None => assert!(!e.has::<Moving>()),
        }
        count += 1;
    }
    assert_eq!(count, 20);
}

#[test]
fn entity_id_alone_visits_every_active_entity_even_without_components() {
    let mut world = World::new();
    let bare = world.spawn();
    let with_pos = world.spawn_with((Position(0.0),)).unwrap();
    let killed = world.spawn_with((Velocity(0.0),)).unwrap();
    world.entity_mut(killed).unwrap().kill();
    let disabled = world.spawn();
    world.entity_mut(disabled).unwrap().set_enabled(false);
    let despawned = world.spawn();
    world.despawn(despawned).unwrap();
    let got: Vec<EntityId> = world
        .query::<(EntityId,)>()
        .into_iter()
        .map(|(id,)| id)
        .collect();
    assert_eq!(sorted(got), sorted(vec![bare, with_pos]));
    let all: Vec<EntityId> = world
        .query::<(EntityId,)>()
        .include_inactive()
        .into_iter()
        .map(|(id,)| id)
        .collect();
    assert_eq!(sorted(all), sorted(vec![bare, with_pos, killed, disabled]));
}

#[test]
fn zero_sized_components_are_terms_too() {
    let mut world = World::new();
    let a = world.spawn_with((Frozen, Position(1.0))).unwrap();
    world.spawn_with((Position(2.0),)).unwrap();
    let got = ids(world.query::<(EntityId, &Frozen)>());
    assert_eq!(got, [a]);
    let mut n = 0;
    for (_, pos) in world.query_mut::<(&mut Frozen, &mut Position)>() {
        pos.0 = -1.0;
        n += 1;
    }
    assert_eq!(n, 1);
    assert_eq!(
        world.entity(a).unwrap().get::<Position>(),
        Some(&Position(-1.0))
    );
}

#[test]
fn same_type_twice_shared_is_allowed() {
    let mut world = World::new();
    world.spawn_with((Position(3.0), Velocity(1.0))).unwrap();
    for (a, b) in world.query::<(&Position, &Position)>() {
        assert!(std::ptr::eq(a, b));
    }
    // Also in a query that writes something else.
    for (a, b, v) in world.query_mut::<(&Position, &Position, &mut Velocity)>() {
        assert!(std::ptr::eq(a, b));
        v.0 = a.0 + b.0;
    }
    let (v,) = world.query::<(&Velocity,)>().into_iter().next().unwrap();
    assert_eq!(v.0, 6.0);
    // And a base read twice through a derived component.
    world.spawn_with((AxisMoving::new(2.0, true),)).unwrap();
    let n = world
        .query_mut::<(&Moving, &AxisMoving, &Moving)>()
        .into_iter()
        .inspect(|(m, a, m2)| {
            assert!(std::ptr::eq(*m, &a.base));
            assert!(std::ptr::eq(*m, *m2));
        })
        .count();
    assert_eq!(n, 1);
}

// --------------------------------------------------------------- filters

#[test]
fn with_and_without_filters() {
    let mut world = World::new();
    let plain = world.spawn_with((Position(1.0),)).unwrap();
    let moving = world.spawn_with((Position(2.0), Velocity(1.0))).unwrap();
    let frozen = world
        .spawn_with((Position(3.0), Velocity(1.0), Frozen))
        .unwrap();
    assert_eq!(
        sorted(ids(world
            .query::<(EntityId, &Position)>()
            .with::<Velocity>())),
        sorted(vec![moving, frozen])
    );
    assert_eq!(
        sorted(ids(world
            .query::<(EntityId, &Position)>()
            .without::<Velocity>())),
        [plain]
    );
    assert_eq!(
        sorted(ids(world
            .query::<(EntityId, &Position)>()
            .with::<Velocity>()
            .without::<Frozen>())),
        [moving]
    );
    assert_eq!(
        sorted(ids(world
            .query::<(EntityId, &Position)>()
            .with::<Velocity>()
            .with::<Frozen>())),
        [frozen]
    );
    // A filter on a type the world has never seen.
    assert_eq!(
        world
            .query::<(&Position,)>()
            .with::<Stat<Hp>>()
            .into_iter()
            .count(),
        0
    );
    assert_eq!(
        world
            .query::<(&Position,)>()
            .without::<Stat<Hp>>()
            .into_iter()
            .count(),
        3
    );
    // The same filters on a mutable query.
    let mut n = 0;
    for (p,) in world.query_mut::<(&mut Position,)>().without::<Frozen>() {
        p.0 *= 10.0;
        n += 1;
    }
    assert_eq!(n, 2);
    assert_eq!(
        world.entity(frozen).unwrap().get::<Position>(),
        Some(&Position(3.0))
    );
    assert_eq!(
        world.entity(moving).unwrap().get::<Position>(),
        Some(&Position(20.0))
    );
}

#[test]
fn filters_follow_the_is_a_rule() {
    let mut world = World::new();
    let plain = world.spawn_with((Position(0.0),)).unwrap();
    let enemy = world.spawn_with((Position(1.0), Enemy)).unwrap();
    let fast = world
        .spawn_with((
            Position(2.0),
            FastEnemy {
                base: Enemy,
                boost: 2.0,
            },
        ))
        .unwrap();
    let with_enemy = ids(world.query::<(EntityId, &Position)>().with::<Enemy>());
    assert_eq!(
        sorted(with_enemy),
        sorted(vec![enemy, fast]),
        "a FastEnemy is-a Enemy"
    );
    let with_fast = ids(world.query::<(EntityId, &Position)>().with::<FastEnemy>());
    assert_eq!(with_fast, [fast], "an Enemy is not a FastEnemy");
    let without_enemy = ids(world.query::<(EntityId, &Position)>().without::<Enemy>());
    assert_eq!(without_enemy, [plain]);
    let without_fast = ids(world
        .query::<(EntityId, &Position)>()
        .without::<FastEnemy>());
    assert_eq!(sorted(without_fast), sorted(vec![plain, enemy]));
}

#[test]
fn filters_ignore_enabled_state() {
    let mut world = World::new();
    let a = world.spawn_with((Position(1.0), Frozen)).unwrap();
    let b = world.spawn_with((Position(2.0),)).unwrap();
    assert_eq!(world.entity_mut(a).unwrap().disable::<Frozen>(), 1);
    assert_eq!(
        ids(world.query::<(EntityId, &Position)>().with::<Frozen>()),
        [a]
    );
    assert_eq!(
        ids(world.query::<(EntityId, &Position)>().without::<Frozen>()),
        [b]
    );
    // A filter on a derived component disabled through its parent.
    let fast = world
        .spawn_with((
            Position(3.0),
            FastEnemy {
                base: Enemy,
                boost: 1.0,
            },
        ))
        .unwrap();
    assert_eq!(world.entity_mut(fast).unwrap().disable::<Enemy>(), 1);
    assert_eq!(
        ids(world.query::<(EntityId, &Position)>().with::<Enemy>()),
        [fast]
    );
    // But the term itself is disabled: not yielded by default.
    assert_eq!(world.query::<(&Enemy,)>().into_iter().count(), 0);
    assert_eq!(
        world
            .query::<(&Enemy,)>()
            .include_inactive()
            .into_iter()
            .count(),
        1
    );
}

// --------------------------------------------------------------- is-a

/// Entities of several layouts that all hold something that is-a `Moving`.
fn moving_zoo(world: &mut World) -> Vec<(EntityId, f32)> {
    vec![
        (world.spawn_with((Moving { speed: 1.0 },)).unwrap(), 1.0),
        (
            world.spawn_with((AxisMoving::new(2.0, false),)).unwrap(),
            2.0,
        ),
        (
            world
                .spawn_with((Position(0.0), AxisMoving::new(3.0, true)))
                .unwrap(),
            3.0,
        ),
        (
            world
                .spawn_with((AxisMoving::new(4.0, true), Velocity(1.0), Frozen))
                .unwrap(),
            4.0,
        ),
        (world.spawn_with((diagonal(5.0),)).unwrap(), 5.0),
        (world.spawn_with((Position(1.0), padded(6.0))).unwrap(), 6.0),
        (
            world
                .spawn_with((Velocity(0.0), Moving { speed: 7.0 }))
                .unwrap(),
            7.0,
        ),
    ]
}

#[test]
fn base_term_matches_exact_and_derived_types_across_tables_in_table_order() {
    let mut world = World::new();
    let zoo = moving_zoo(&mut world);
    world.spawn_with((Position(9.0),)).unwrap();
    // Each entity above made a new table, so table order is spawn order.
    let got: Vec<(EntityId, f32)> = world
        .query::<(EntityId, &Moving)>()
        .into_iter()
        .map(|(id, m)| (id, m.speed))
        .collect();
    assert_eq!(got, zoo);
    // A derived term matches only that type and the types below it.
    let axis: Vec<f32> = world
        .query::<(&AxisMoving,)>()
        .into_iter()
        .map(|(a,)| a.base.speed)
        .collect();
    assert_eq!(axis, [2.0, 3.0, 4.0, 5.0]);
    let diag: Vec<f32> = world
        .query::<(&DiagonalMoving,)>()
        .into_iter()
        .map(|(d,)| d.base.base.speed)
        .collect();
    assert_eq!(diag, [5.0]);
    // Joined with another term and a filter.
    let got = ids(world
        .query::<(EntityId, &Moving, &Position)>()
        .into_iter()
        .map(|(id, m, _)| (id, m)));
    assert_eq!(got, [zoo[2].0, zoo[5].0]);
    let got = ids(world.query::<(EntityId, &Moving)>().with::<Velocity>());
    assert_eq!(got, [zoo[3].0, zoo[6].0]);
}

#[test]
fn base_mut_term_writes_through_to_the_derived_component() {
    let mut world = World::new();
    let zoo = moving_zoo(&mut world);
    for (moving,) in world.query_mut::<(&mut Moving,)>() {
        moving.speed *= 10.0;
    }
    for &(id, speed) in &zoo {
        let e = world.entity(id).unwrap();
        assert_eq!(e.get::<Moving>().unwrap().speed, speed * 10.0);
    }
    let e = world.entity(zoo[1].0).unwrap();
    assert_eq!(
        e.get::<AxisMoving>().unwrap(),
        &AxisMoving::new(20.0, false)
    );
    let e = world.entity(zoo[4].0).unwrap();
    assert_eq!(e.get::<DiagonalMoving>().unwrap(), &diagonal(50.0));
    let e = world.entity(zoo[5].0).unwrap();
    assert_eq!(e.get::<PaddedMoving>().unwrap(), &padded(60.0));
    // Through the middle of a three-level chain.
    for (axis,) in world.query_mut::<(&mut AxisMoving,)>() {
        axis.vertical = !axis.vertical;
        axis.base.speed += 1.0;
    }
    let e = world.entity(zoo[4].0).unwrap();
    let d = e.get::<DiagonalMoving>().unwrap();
    assert_eq!(
        (d.base.base.speed, d.base.vertical, d.slope),
        (51.0, false, 0.5)
    );
    assert_eq!(
        world
            .entity(zoo[0].0)
            .unwrap()
            .get::<Moving>()
            .unwrap()
            .speed,
        10.0
    );
}

#[test]
fn base_and_derived_shared_terms_read_the_same_component() {
    let mut world = World::new();
    moving_zoo(&mut world);
    let mut n = 0;
    for (m, a, d) in world.query::<(&Moving, &AxisMoving, Option<&DiagonalMoving>)>() {
        assert!(std::ptr::eq(m, &a.base));
        if let Some(d) = d {
            assert!(std::ptr::eq(a, &d.base));
        }
        n += 1;
    }
    assert_eq!(n, 4);
}

// -------------------------------------------------------------- multiple

#[test]
fn multiple_components_the_first_in_insertion_order_is_read() {
    let mut world = World::new();
    let two = world
        .spawn_with((Collider { radius: 1.0 }, Collider { radius: 2.0 }))
        .unwrap();
    let derived_first = world
        .spawn_with((circle(3.0), Collider { radius: 4.0 }))
        .unwrap();
    let base_first = world
        .spawn_with((Collider { radius: 5.0 }, circle(6.0), circle(7.0)))
        .unwrap();
    // Added one at a time, in a different order.
    let added = world.spawn();
    world.entity_mut(added).unwrap().add(circle(8.0)).unwrap();
    world.entity_mut(added).unwrap().add(circle(9.0)).unwrap();

    let got: Vec<(EntityId, f32)> = world
        .query::<(EntityId, &Collider)>()
        .into_iter()
        .map(|(id, c)| (id, c.radius))
        .collect();
    assert_eq!(
        got,
        [
            (two, 1.0),
            (derived_first, 3.0),
            (base_first, 5.0),
            (added, 8.0)
        ],
        "each entity once, with its first component that is-a Collider"
    );
    for (id, c) in world.query::<(EntityId, &Collider)>() {
        assert!(std::ptr::eq(
            world.entity(id).unwrap().get::<Collider>().unwrap(),
            c
        ));
    }
    let circles: Vec<(EntityId, f32)> = world
        .query::<(EntityId, &CircleCollider)>()
        .into_iter()
        .map(|(id, c)| (id, c.base.radius))
        .collect();
    assert_eq!(
        circles,
        [(derived_first, 3.0), (base_first, 6.0), (added, 8.0)]
    );

    // Writing touches only the first.
    for (c,) in world.query_mut::<(&mut Collider,)>() {
        c.radius = -c.radius;
    }
    let radii = |world: &World, id| -> Vec<f32> {
        world
            .entity(id)
            .unwrap()
            .get_all::<Collider>()
            .map(|c| c.radius)
            .collect()
    };
    assert_eq!(radii(&world, two), [-1.0, 2.0]);
    assert_eq!(radii(&world, derived_first), [-3.0, 4.0]);
    assert_eq!(radii(&world, base_first), [-5.0, 6.0, 7.0]);
    assert_eq!(radii(&world, added), [-8.0, 9.0]);
}

#[test]
fn multiple_components_with_the_first_disabled() {
    let mut world = World::new();
    let id = world
        .spawn_with((
            Collider { radius: 1.0 },
            Collider { radius: 2.0 },
            Position(0.0),
        ))
        .unwrap();
    let first = world
        .entity(id)
        .unwrap()
        .components()
        .next()
        .unwrap()
        .instance;
    assert!(world
        .entity_mut(id)
        .unwrap()
        .set_instance_enabled(first, false)
        .unwrap());
    // The term's component is the first one, which is disabled.
    assert_eq!(world.query::<(&Collider,)>().into_iter().count(), 0);
    let (c,) = world
        .query::<(Option<&Collider>,)>()
        .into_iter()
        .next()
        .unwrap();
    assert!(c.is_none());
    let radii: Vec<f32> = world
        .query::<(&Collider,)>()
        .include_inactive()
        .into_iter()
        .map(|(c,)| c.radius)
        .collect();
    assert_eq!(radii, [1.0]);
    // The second one disabled instead.
    let second = world
        .entity(id)
        .unwrap()
        .components()
        .nth(1)
        .unwrap()
        .instance;
    let mut e = world.entity_mut(id).unwrap();
    e.set_instance_enabled(first, true).unwrap();
    e.set_instance_enabled(second, false).unwrap();
    let radii: Vec<f32> = world
        .query::<(&Collider,)>()
        .into_iter()
        .map(|(c,)| c.radius)
        .collect();
    assert_eq!(radii, [1.0]);
}

// ---------------------------------------------------- inactive states

#[test]
fn disabled_component_is_skipped_unless_include_inactive() {
    let mut world = World::new();
    let a = world.spawn_with((Position(1.0), Velocity(1.0))).unwrap();
    let b = world.spawn_with((Position(2.0), Velocity(2.0))).unwrap();
    let c = world.spawn_with((Position(3.0),)).unwrap();
    assert_eq!(world.entity_mut(b).unwrap().disable::<Position>(), 1);

    assert_eq!(
        sorted(ids(world.query::<(EntityId, &Position)>())),
        sorted(vec![a, c])
    );
    assert_eq!(
        sorted(ids(world
            .query::<(EntityId, &Position)>()
            .include_inactive())),
        sorted(vec![a, b, c])
    );
    // The disabled component also hides the entity from a join on another term.
    assert_eq!(
        ids(world
            .query::<(EntityId, &Velocity, &Position)>()
            .into_iter()
            .map(|(i, v, _)| (i, v))),
        [a]
    );
    // An Option term yields None for it; the entity is still visited.
    let mut got: Vec<(EntityId, Option<f32>)> = world
        .query::<(EntityId, &Velocity, Option<&Position>)>()
        .into_iter()
        .map(|(id, _, p)| (id, p.map(|p| p.0)))
        .collect();
    got.sort_by_key(|g| g.0);
    assert_eq!(got, [(a, Some(1.0)), (b, None)]);
    let mut got: Vec<(EntityId, Option<f32>)> = world
        .query::<(EntityId, &Velocity, Option<&Position>)>()
        .include_inactive()
        .into_iter()
        .map(|(id, _, p)| (id, p.map(|p| p.0)))
        .collect();
    got.sort_by_key(|g| g.0);
    assert_eq!(got, [(a, Some(1.0)), (b, Some(2.0))]);

    // Writing: only enabled by default, all with include_inactive.
    for (p,) in world.query_mut::<(&mut Position,)>() {
        p.0 += 10.0;
    }
    for (p,) in world.query_mut::<(Option<&mut Position>,)>() {
        if let Some(p) = p {
            p.0 += 100.0;
        }
    }
    assert_eq!(
        world.entity(b).unwrap().get::<Position>(),
        Some(&Position(2.0))
    );
    for (p,) in world.query_mut::<(&mut Position,)>().include_inactive() {
        p.0 += 1000.0;
    }
    let pos = |id| world.entity(id).unwrap().get::<Position>().unwrap().0;
    assert_eq!((pos(a), pos(b), pos(c)), (1111.0, 1002.0, 1113.0));

    // Enabled again: visible again.
    world.entity_mut(b).unwrap().enable::<Position>();
    assert_eq!(world.query::<(&Position,)>().into_iter().count(), 3);
}

#[test]
fn disabling_a_base_type_disables_the_derived_component_the_term_reads() {
    let mut world = World::new();
    let zoo = moving_zoo(&mut world);
    let axis = zoo[1].0;
    assert_eq!(world.entity_mut(axis).unwrap().disable::<Moving>(), 1);
    let got = ids(world.query::<(EntityId, &Moving)>());
    assert_eq!(got.len(), zoo.len() - 1);
    assert!(!got.contains(&axis));
    assert!(!ids(world.query::<(EntityId, &AxisMoving)>()).contains(&axis));
    assert!(ids(world.query::<(EntityId, &AxisMoving)>().include_inactive()).contains(&axis));
}

#[test]
fn disabled_and_killed_entities_are_skipped_unless_include_inactive() {
    let mut world = World::new();
    let ids_all: Vec<EntityId> = world
        .spawn_batch((0..6).map(|i| (Position(i as f32), Velocity(0.0))))
        .unwrap();
    world.entity_mut(ids_all[1]).unwrap().set_enabled(false);
    world.entity_mut(ids_all[4]).unwrap().kill();
    let expected_default: Vec<EntityId> = [0, 2, 3, 5].iter().map(|&i| ids_all[i]).collect();

    let got = ids(world.query::<(EntityId, &Position)>());
    assert_eq!(
        got, expected_default,
        "rows in storage order, inactive skipped"
    );
    let got = ids(world.query::<(EntityId, Option<&Position>)>());
    assert_eq!(got, expected_default, "Option terms do not bring them back");
    let got = ids(world.query::<(EntityId, &Position)>().include_inactive());
    assert_eq!(got, ids_all);

    let mut visited = Vec::new();
    world
        .query_mut::<(EntityId, &mut Position)>()
        .for_each(|(id, p)| {
            p.0 = -1.0;
            visited.push(id);
        });
    assert_eq!(visited, expected_default);
    assert_eq!(
        world.entity(ids_all[1]).unwrap().get::<Position>(),
        Some(&Position(1.0))
    );
    assert_eq!(
        world.entity(ids_all[4]).unwrap().get::<Position>(),
        Some(&Position(4.0))
    );
    let n = world
        .query_mut::<(&mut Position,)>()
        .include_inactive()
        .into_iter()
        .map(|(p,)| p.0 = -2.0)
        .count();
    assert_eq!(n, 6);
    assert_eq!(
        world.entity(ids_all[4]).unwrap().get::<Position>(),
        Some(&Position(-2.0))
    );

    // Revived and re-enabled: back in the default query.
    world.entity_mut(ids_all[1]).unwrap().set_enabled(true);
    world.entity_mut(ids_all[4]).unwrap().revive();
    assert_eq!(ids(world.query::<(EntityId, &Position)>()), ids_all);
}

#[test]
fn inactive_entities_stay_skipped_after_moving_to_another_table() {
    let mut world = World::new();
    let disabled = world.spawn_with((Position(1.0),)).unwrap();
    let killed = world.spawn_with((Position(2.0),)).unwrap();
    let active = world.spawn_with((Position(3.0),)).unwrap();
    world.entity_mut(disabled).unwrap().set_enabled(false);
    world.entity_mut(killed).unwrap().kill();
    // Each moves to a table of its own, then back to a shared one.
    world
        .entity_mut(disabled)
        .unwrap()
        .add(Velocity(0.0))
        .unwrap();
    world.entity_mut(killed).unwrap().add(Frozen).unwrap();
    assert_eq!(ids(world.query::<(EntityId, &Position)>()), [active]);
    assert_eq!(world.query::<(&Velocity,)>().into_iter().count(), 0);
    assert_eq!(world.query::<(&Frozen,)>().into_iter().count(), 0);
    world
        .entity_mut(disabled)
        .unwrap()
        .remove::<Velocity>()
        .unwrap();
    world
        .entity_mut(killed)
        .unwrap()
        .remove::<Frozen>()
        .unwrap();
    assert_eq!(ids(world.query::<(EntityId, &Position)>()), [active]);
    world.entity_mut(active).unwrap().add(Frozen).unwrap();
    world.entity_mut(disabled).unwrap().add(Frozen).unwrap();
    assert_eq!(ids(world.query::<(EntityId, &Frozen)>()), [active]);
    // A disabled component moves with its entity too.
    world.entity_mut(active).unwrap().disable::<Position>();
    world
        .entity_mut(active)
        .unwrap()
        .add(Velocity(1.0))
        .unwrap();
    assert_eq!(world.query::<(&Position,)>().into_iter().count(), 0);
    assert_eq!(
        world
            .query::<(&Velocity, Option<&Position>)>()
            .into_iter()
            .next()
            .map(|(_, p)| p.is_none()),
        Some(true)
    );
}

// --------------------------------------------------------------- generics

#[test]
fn generic_component_instantiations_are_distinct_terms() {
    let mut world = World::new();
    let a = world
        .spawn_with((Stat::<Hp>::new(10), Stat::<Mana>::new(3)))
        .unwrap();
    let b = world.spawn_with((Stat::<Hp>::new(20),)).unwrap();
    let c = world.spawn_with((Stat::<Mana>::new(5),)).unwrap();
    assert_eq!(ids(world.query::<(EntityId, &Stat<Hp>)>()), [a, b]);
    assert_eq!(ids(world.query::<(EntityId, &Stat<Mana>)>()), [a, c]);
    for (hp, mana) in world.query_mut::<(&mut Stat<Hp>, &Stat<Mana>)>() {
        hp.value += mana.value;
    }
    for (mana, hp) in world.query_mut::<(&mut Stat<Mana>, Option<&Stat<Hp>>)>() {
        mana.value += hp.map_or(100, |h| h.value);
    }
    let e = |id| world.entity(id).unwrap();
    assert_eq!(e(a).get::<Stat<Hp>>().unwrap().value, 13);
    assert_eq!(e(b).get::<Stat<Hp>>().unwrap().value, 20);
    assert_eq!(e(a).get::<Stat<Mana>>().unwrap().value, 16);
    assert_eq!(e(c).get::<Stat<Mana>>().unwrap().value, 105);
    // Both shared, same instantiation: allowed.
    let n = world
        .query_mut::<(&Stat<Hp>, &Stat<Hp>)>()
        .into_iter()
        .count();
    assert_eq!(n, 2);
    assert_eq!(
        ids(world
            .query::<(EntityId, &Stat<Hp>)>()
            .without::<Stat<Mana>>()),
        [b]
    );
}

#[test]
#[should_panic(expected = "are the same instantiation of a generic component")]
fn generic_same_instantiation_mut_and_shared_panics() {
    let mut world = World::new();
    world.spawn_with((Stat::<Hp>::new(1),)).unwrap();
    let _ = world.query_mut::<(&mut Stat<Hp>, &Stat<Hp>)>();
}

#[test]
#[should_panic(expected = "terms 1 (`Stat`) and 2 (`Stat`)")]
fn generic_same_instantiation_option_mut_panics_naming_the_terms() {
    let mut world = World::new();
    let _ = world.query_mut::<(EntityId, &Stat<Mana>, Option<&mut Stat<Mana>>)>();
}

#[test]
fn generic_derived_components_match_their_non_generic_parent() {
    let mut world = World::new();
    let plain = world.spawn_with((Effect { strength: 1 },)).unwrap();
    let hp = world.spawn_with((buff::<Hp>(2),)).unwrap();
    let mana = world.spawn_with((buff::<Mana>(3), Position(0.0))).unwrap();
    let got: Vec<(EntityId, i32)> = world
        .query::<(EntityId, &Effect)>()
        .into_iter()
        .map(|(id, e)| (id, e.strength))
        .collect();
    assert_eq!(got, [(plain, 1), (hp, 2), (mana, 3)]);
    for (e,) in world.query_mut::<(&mut Effect,)>() {
        e.strength *= 10;
    }
    assert_eq!(
        world
            .entity(hp)
            .unwrap()
            .get::<Buff<Hp>>()
            .unwrap()
            .base
            .strength,
        20
    );
    assert_eq!(
        world
            .entity(mana)
            .unwrap()
            .get::<Buff<Mana>>()
            .unwrap()
            .base
            .strength,
        30
    );
    // Two instantiations in one query that writes: checked at run time,
    // and different, so allowed.
    world.entity_mut(hp).unwrap().add(buff::<Mana>(4)).unwrap();
    for (a, b) in world.query_mut::<(&mut Buff<Hp>, &Buff<Mana>)>() {
        a.base.strength += b.base.strength;
    }
    assert_eq!(
        world
            .entity(hp)
            .unwrap()
            .get::<Buff<Hp>>()
            .unwrap()
            .base
            .strength,
        24
    );
    // `hp` moved to a table made after `mana`'s.
    assert_eq!(ids(world.query::<(EntityId, &Buff<Mana>)>()), [mana, hp]);
}

#[test]
#[should_panic(expected = "terms 0 (`Buff`) and 2 (`Buff`) are the same instantiation")]
fn generic_derived_same_instantiation_twice_panics() {
    let mut world = World::new();
    let _ = world.query_mut::<(&Buff<Hp>, &Position, &mut Buff<Hp>)>();
}

// ---------------------------------------------------- iteration styles

#[test]
fn iteration_styles_agree() {
    let mut world = World::new();
    for i in 0..10 {
        world.spawn_with((Position(i as f32),)).unwrap();
        if i % 2 == 0 {
            world
                .spawn_with((Position(i as f32), Velocity(1.0)))
                .unwrap();
        }
    }
    let q = world.query::<(&Position,)>();
    let mut by_for = 0.0;
    for (p,) in &q {
        by_for += p.0;
    }
    let mut again = 0.0;
    for (p,) in &q {
        again += p.0;
    }
    let by_iter: f32 = q.iter().map(|(p,)| p.0).sum();
    let count = world.query::<(&Position,)>().into_iter().count();
    let mut by_for_each = 0.0;
    world
        .query::<(&Position,)>()
        .for_each(|(p,)| by_for_each += p.0);
    let evens = world
        .query::<(&Position,)>()
        .into_iter()
        .filter(|(p,)| (p.0 as u32).is_multiple_of(2))
        .count();
    assert_eq!(count, 15);
    assert_eq!(evens, 10);
    assert_eq!(by_for, 45.0 + 20.0);
    assert_eq!(again, by_for);
    assert_eq!(by_iter, by_for);
    assert_eq!(by_for_each, by_for);
    let (lo, hi) = q.iter().size_hint();
    assert!(lo <= 15 && hi.is_none_or(|h| h >= 15));
    let mut it = q.iter();
    assert!(it.by_ref().take(3).count() == 3);
    assert_eq!(it.count(), 12);
    let max = q.iter().map(|(p,)| p.0).fold(f32::MIN, f32::max);
    assert_eq!(max, 9.0);
    let zipped = q.iter().zip(q.iter().skip(1)).count();
    assert_eq!(zipped, 14);
    let collected: Vec<(&Position,)> = q.iter().collect();
    assert_eq!(collected.len(), 15);

    let mut n = 0;
    world
        .query_mut::<(&mut Position, &Velocity)>()
        .for_each(|(p, v)| {
            p.0 += v.0;
            n += 1;
        });
    assert_eq!(n, 5);
    let total: f32 = world
        .query_mut::<(&mut Position,)>()
        .into_iter()
        .map(|(p,)| {
            p.0 *= 2.0;
            p.0
        })
        .sum();
    assert_eq!(total, 2.0 * (65.0 + 5.0));
}

// ------------------------------------------------------------- parallel

/// A world of several tables with some inactive rows, built the same way
/// every time.
fn par_world(n: usize) -> World {
    let mut world = World::new();
    for i in 0..n {
        let id = match i % 5 {
            0 => world.spawn_with((Position(i as f32), Velocity(1.0))),
            1 => world.spawn_with((Velocity(2.0), Position(i as f32), Frozen)),
            2 => world.spawn_with((Position(i as f32), AxisMoving::new(i as f32, false))),
            3 => world.spawn_with((Position(i as f32),)),
            _ => world.spawn_with((Position(i as f32), Velocity(3.0), Moving { speed: 1.0 })),
        }
        .unwrap();
        match i % 7 {
            0 => world.entity_mut(id).unwrap().kill(),
            1 => {
                world.entity_mut(id).unwrap().disable::<Position>();
            }
            2 if i % 3 == 0 => world.entity_mut(id).unwrap().set_enabled(false),
            _ => {}
        }
    }
    world
}

/// Every entity's `Position`, by index (the two worlds compared give
/// their entities different ids).
fn positions(world: &World) -> Vec<(u32, f32)> {
    let mut v: Vec<(u32, f32)> = world
        .query::<(EntityId, &Position)>()
        .include_inactive()
        .into_iter()
        .map(|(id, p)| (id.index(), p.0))
        .collect();
    v.sort_by_key(|x| x.0);
    v
}

/// Some work per item, so the parallel loop spreads over threads.
fn busy(x: f32, work: u32) -> f32 {
    let mut acc = x;
    for k in 0..work {
        acc = std::hint::black_box(acc + k as f32 * 0.0);
    }
    acc
}

/// `par_for_each` over `n` entities, with `work` steps per item, against
/// `for_each` on an identical world.
fn par_matches_sequential(n: usize, work: u32) {
    let mut seq = par_world(n);
    let mut par = par_world(n);
    let mut seq_ids = Vec::new();
    seq.query_mut::<(EntityId, &mut Position, Option<&Velocity>, Option<&Moving>)>()
        .for_each(|(id, p, v, m)| {
            p.0 = busy(p.0, work) * 2.0 + v.map_or(0.0, |v| v.0) + m.map_or(0.0, |m| m.speed);
            seq_ids.push(id.index());
        });
    let par_ids = Mutex::new(Vec::new());
    let calls = AtomicUsize::new(0);
    par.query_mut::<(EntityId, &mut Position, Option<&Velocity>, Option<&Moving>)>()
        .par_for_each(|(id, p, v, m)| {
            p.0 = busy(p.0, work) * 2.0 + v.map_or(0.0, |v| v.0) + m.map_or(0.0, |m| m.speed);
            par_ids.lock().unwrap().push(id.index());
            calls.fetch_add(1, Ordering::Relaxed);
        });
    let mut par_ids = par_ids.into_inner().unwrap();
    par_ids.sort_unstable();
    seq_ids.sort_unstable();
    assert_eq!(calls.load(Ordering::Relaxed), seq_ids.len());
    assert!(par_ids == seq_ids, "each matching entity once");
    assert!(positions(&par) == positions(&seq), "same values");
    assert!(!seq_ids.is_empty());

    // With a filter and include_inactive.
    par.query_mut::<(&mut Position, &Velocity)>()
        .without::<Frozen>()
        .include_inactive()
        .par_for_each(|(p, v)| p.0 = busy(p.0, work) - v.0);
    seq.query_mut::<(&mut Position, &Velocity)>()
        .without::<Frozen>()
        .include_inactive()
        .for_each(|(p, v)| p.0 = busy(p.0, work) - v.0);
    assert!(positions(&par) == positions(&seq), "same values");
}

#[test]
fn par_for_each_over_10k_entities_matches_sequential() {
    // Heavy enough that the rows after the timed probe are split across
    // the pool.
    par_matches_sequential(10_000, 200);
}

#[test]
fn par_for_each_over_50_entities_matches_sequential() {
    // Fewer rows than the probe: all on the calling thread.
    par_matches_sequential(50, 200);
}

#[test]
fn par_for_each_splits_small_tables_into_many_chunks() {
    // A few hundred rows with heavy work: chunks of a few dozen rows, cut
    // inside tables and at their ends.
    par_matches_sequential(300, 20_000);
}

#[test]
fn par_for_each_on_an_empty_world_calls_nothing() {
    let mut world = World::new();
    let calls = AtomicUsize::new(0);
    world.query_mut::<(&mut Position,)>().par_for_each(|_| {
        calls.fetch_add(1, Ordering::Relaxed);
    });
    world.spawn_with((Velocity(1.0),)).unwrap();
    world
        .query_mut::<(&mut Position, &Velocity)>()
        .par_for_each(|_| {
            calls.fetch_add(1, Ordering::Relaxed);
        });
    assert_eq!(calls.load(Ordering::Relaxed), 0);
}

// ------------------------------------------------- structural changes

#[test]
fn queries_after_despawns_removals_and_adds_see_current_values() {
    let mut world = World::new();
    let e: Vec<EntityId> = world
        .spawn_batch((0..6).map(|i| (Position(i as f32), Velocity(i as f32 * 10.0))))
        .unwrap();
    // Despawning row 1 moves the last row into its place.
    world.despawn(e[1]).unwrap();
    assert_eq!(
        ids(world.query::<(EntityId, &Position)>()),
        [e[0], e[5], e[2], e[3], e[4]]
    );
    // e2 loses its Velocity: a new table, after the first.
    assert_eq!(
        world.entity_mut(e[2]).unwrap().remove::<Velocity>(),
        Some(Velocity(20.0))
    );
    // e3 gains a Moving: another new table.
    world
        .entity_mut(e[3])
        .unwrap()
        .add(AxisMoving::new(33.0, false))
        .unwrap();
    assert_eq!(
        ids(world.query::<(EntityId, &Position)>()),
        [e[0], e[5], e[4], e[2], e[3]]
    );
    let got: Vec<(EntityId, f32, Option<f32>, Option<f32>)> = world
        .query::<(EntityId, &Position, Option<&Velocity>, Option<&Moving>)>()
        .into_iter()
        .map(|(id, p, v, m)| (id, p.0, v.map(|v| v.0), m.map(|m| m.speed)))
        .collect();
    assert_eq!(
        got,
        [
            (e[0], 0.0, Some(0.0), None),
            (e[5], 5.0, Some(50.0), None),
            (e[4], 4.0, Some(40.0), None),
            (e[2], 2.0, None, None),
            (e[3], 3.0, Some(30.0), Some(33.0)),
        ]
    );
    // Writing after the moves lands on the moved entities.
    for (id, p, m) in world.query_mut::<(EntityId, &mut Position, Option<&mut Moving>)>() {
        p.0 += 0.5;
        if let Some(m) = m {
            m.speed = id.index() as f32;
        }
    }
    for &id in &[e[0], e[2], e[3], e[4], e[5]] {
        let ent = world.entity(id).unwrap();
        let i = e.iter().position(|&x| x == id).unwrap();
        assert_eq!(ent.get::<Position>(), Some(&Position(i as f32 + 0.5)));
    }
    assert_eq!(
        world
            .entity(e[3])
            .unwrap()
            .get::<AxisMoving>()
            .unwrap()
            .base
            .speed,
        e[3].index() as f32
    );
    // Removing the only matching component and despawning everything.
    world
        .entity_mut(e[3])
        .unwrap()
        .remove::<AxisMoving>()
        .unwrap();
    assert_eq!(world.query::<(&Moving,)>().into_iter().count(), 0);
    for &id in &[e[0], e[2], e[3], e[4], e[5]] {
        world.despawn(id).unwrap();
    }
    assert_eq!(world.query::<(&Position,)>().into_iter().count(), 0);
    assert_eq!(world.query::<(EntityId,)>().into_iter().count(), 0);
    // A recycled index is seen with its new id.
    let again = world.spawn_with((Position(7.0),)).unwrap();
    assert_eq!(ids(world.query::<(EntityId, &Position)>()), [again]);
}

#[test]
fn remove_all_and_detach_all_take_entities_out_of_queries() {
    let mut world = World::new();
    let a = world
        .spawn_with((Collider { radius: 1.0 }, circle(2.0), Position(0.0)))
        .unwrap();
    let b = world.spawn_with((Position(1.0), Velocity(1.0))).unwrap();
    assert_eq!(world.entity_mut(a).unwrap().remove_all::<Collider>(), 2);
    assert_eq!(world.query::<(&Collider,)>().into_iter().count(), 0);
    // `a` moved to a table made after `b`'s.
    assert_eq!(ids(world.query::<(EntityId, &Position)>()), [b, a]);
    assert_eq!(world.entity_mut(b).unwrap().detach_all(), 2);
    assert_eq!(ids(world.query::<(EntityId, &Position)>()), [a]);
    assert_eq!(world.query::<(EntityId,)>().into_iter().count(), 2);
}

#[test]
fn a_loaded_world_answers_queries_like_the_saved_one() {
    let mut world = World::new();
    let a = world
        .spawn_with((Position(1.0), AxisMoving::new(2.0, true)))
        .unwrap();
    let b = world
        .spawn_with((Moving { speed: 3.0 }, Position(4.0)))
        .unwrap();
    let c = world.spawn_with((Position(5.0),)).unwrap();
    world.entity_mut(b).unwrap().disable::<Moving>();
    world.entity_mut(c).unwrap().kill();
    let answers = |world: &World| {
        let active: Vec<(f32, Option<f32>)> = world
            .query::<(&Position, Option<&Moving>)>()
            .into_iter()
            .map(|(p, m)| (p.0, m.map(|m| m.speed)))
            .collect();
        let all: Vec<(f32, Option<f32>)> = world
            .query::<(&Position, Option<&Moving>)>()
            .include_inactive()
            .into_iter()
            .map(|(p, m)| (p.0, m.map(|m| m.speed)))
            .collect();
        (active, all)
    };
    let (mut active, mut all) = answers(&world);
    active.sort_by(|x, y| x.0.total_cmp(&y.0));
    all.sort_by(|x, y| x.0.total_cmp(&y.0));
    assert_eq!(active, [(1.0, Some(2.0)), (4.0, None)]);
    assert_eq!(all, [(1.0, Some(2.0)), (4.0, Some(3.0)), (5.0, None)]);
    let loaded = common::reloaded(&world);
    let (mut l_active, mut l_all) = answers(&loaded);
    l_active.sort_by(|x, y| x.0.total_cmp(&y.0));
    l_all.sort_by(|x, y| x.0.total_cmp(&y.0));
    assert_eq!((l_active, l_all), (active, all));
    let _ = a;
}

#[test]
fn empty_world_and_unknown_types_yield_nothing() {
    let mut world = World::new();
    assert_eq!(world.query::<(&Position,)>().into_iter().count(), 0);
    assert_eq!(world.query::<(EntityId,)>().into_iter().count(), 0);
    assert_eq!(world.query::<(Option<&Position>,)>().into_iter().count(), 0);
    assert_eq!(world.query_mut::<(&mut Position,)>().into_iter().count(), 0);
    assert_eq!(
        world
            .query::<(EntityId,)>()
            .include_inactive()
            .with::<Position>()
            .into_iter()
            .count(),
        0
    );
    let mut n = 0;
    world
        .query_mut::<(&mut Position, Option<&mut Velocity>)>()
        .for_each(|_| n += 1);
    assert_eq!(n, 0);
    // Entities, but none holding the required type.
    world.spawn_with((Velocity(1.0),)).unwrap();
    world.spawn();
    assert_eq!(world.query::<(&Position,)>().into_iter().count(), 0);
    assert_eq!(
        world.query::<(&Stat<Hp>, &Velocity)>().into_iter().count(),
        0
    );
    let (v, p) = world
        .query::<(&Velocity, Option<&Position>)>()
        .into_iter()
        .next()
        .unwrap();
    assert_eq!((v.0, p), (1.0, None));
}

// ------------------------------------------------------------ 16 terms

macro_rules! numbered {
    ($($name:ident),*) => {
        $(
            #[derive(Component, Debug, Clone, Copy, PartialEq)]
            struct $name(u32);
        )*
    };
}
numbered!(N0, N1, N2, N3, N4, N5, N6, N7, N8, N9, N10, N11, N12, N13, N14, N15);

#[test]
fn sixteen_terms_compile_and_work() {
    let mut world = World::new();
    let full = world
        .spawn_with((
            N0(0),
            N1(1),
            N2(2),
            N3(3),
            N4(4),
            N5(5),
            N6(6),
            N7(7),
            N8(8),
            N9(9),
            N10(10),
            N11(11),
            N12(12),
            N13(13),
            N14(14),
            N15(15),
        ))
        .unwrap();
    let partial = world
        .spawn_with((
            N0(100),
            N1(101),
            N2(102),
            N3(103),
            N4(104),
            N5(105),
            N6(106),
            N7(107),
        ))
        .unwrap();

    type Shared<'a> = (
        &'a N0,
        &'a N1,
        &'a N2,
        &'a N3,
        &'a N4,
        &'a N5,
        &'a N6,
        &'a N7,
        &'a N8,
        &'a N9,
        &'a N10,
        &'a N11,
        &'a N12,
        &'a N13,
        &'a N14,
        &'a N15,
    );
    assert_eq!(world.query::<Shared<'_>>().into_iter().count(), 1);
    let (a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p) =
        world.query::<Shared<'_>>().into_iter().next().unwrap();
    let sum: u32 = [
        a.0, b.0, c.0, d.0, e.0, f.0, g.0, h.0, i.0, j.0, k.0, l.0, m.0, n.0, o.0, p.0,
    ]
    .iter()
    .sum();
    assert_eq!(sum, 120);

    // Mixed kinds, 16 of them, in a query that writes.
    type Mixed<'a> = (
        EntityId,
        &'a mut N0,
        &'a N1,
        Option<&'a N2>,
        Option<&'a mut N3>,
        &'a mut N4,
        &'a N5,
        &'a N6,
        &'a N7,
        Option<&'a N8>,
        Option<&'a N9>,
        Option<&'a N10>,
        Option<&'a N11>,
        Option<&'a N12>,
        Option<&'a N13>,
        Option<&'a mut N15>,
    );
    let mut seen = Vec::new();
    for (id, n0, n1, n2, n3, n4, _, _, n7, n8, _, _, _, _, _, n15) in world.query_mut::<Mixed<'_>>()
    {
        n0.0 += n1.0 + n2.unwrap().0;
        if let Some(n3) = n3 {
            n3.0 = 0;
        }
        n4.0 = n7.0;
        if let Some(n15) = n15 {
            n15.0 = n8.map_or(0, |n| n.0) * 2;
        }
        seen.push(id);
    }
    assert_eq!(seen, [full, partial]);
    let e = world.entity(full).unwrap();
    assert_eq!(e.get::<N0>(), Some(&N0(3)));
    assert_eq!(e.get::<N3>(), Some(&N3(0)));
    assert_eq!(e.get::<N4>(), Some(&N4(7)));
    assert_eq!(e.get::<N15>(), Some(&N15(16)));
    let e = world.entity(partial).unwrap();
    assert_eq!(e.get::<N0>(), Some(&N0(303)));
    assert_eq!(e.get::<N4>(), Some(&N4(107)));
    assert!(!e.has::<N15>());
}

/// A query keeps its matched tables between calls: a later call must see
/// tables made since (including a derived type first added after the
/// first call), tables that were empty and filled up, and tell apart the
/// same terms with different filters.
#[test]
fn repeated_queries_see_tables_made_since() {
    let mut world = World::new();
    let a = world.spawn_with((Moving { speed: 1.0 },)).unwrap();
    let moving = |w: &World| {
        sorted(ids(w
            .query::<(EntityId, &Moving)>()
            .into_iter()
            .map(|(id, m)| (id, m.speed))))
    };
    assert_eq!(moving(&world), [a]);
    let frozen = world.spawn_with((Moving { speed: 2.0 }, Frozen)).unwrap();
    let axis = world
        .spawn_with((AxisMoving {
            base: Moving { speed: 3.0 },
            vertical: false,
        },))
        .unwrap();
    assert_eq!(moving(&world), sorted(vec![a, frozen, axis]));
    let unfrozen: Vec<EntityId> = world
        .query::<(EntityId, &Moving)>()
        .without::<Frozen>()
        .into_iter()
        .map(|(id, _)| id)
        .collect();
    assert_eq!(sorted(unfrozen), sorted(vec![a, axis]));
    // Empty the `(Moving, Frozen)` table, query, then fill it again.
    world.despawn(frozen).unwrap();
    for (m,) in world.query_mut::<(&mut Moving,)>() {
        m.speed += 1.0;
    }
    let refrozen = world.spawn_with((Moving { speed: 9.0 }, Frozen)).unwrap();
    let mut speeds: Vec<(EntityId, f32)> = world
        .query_mut::<(EntityId, &mut Moving)>()
        .into_iter()
        .map(|(id, m)| (id, m.speed))
        .collect();
    speeds.sort_by_key(|&(id, _)| id);
    let mut expected = vec![(a, 2.0), (axis, 4.0), (refrozen, 9.0)];
    expected.sort_by_key(|&(id, _)| id);
    assert_eq!(speeds, expected);
}
