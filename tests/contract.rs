//! Every rule of the crate's contract (the README's "Rules and choices"),
//! checked through the public API.

use ecs_core::prelude::*;

mod common;
use common::{AxisMoving, Moving};

/// Three levels deep, parent in a tuple field.
#[derive(Component, Debug, Clone, PartialEq)]
#[component(parent = AxisMoving)]
struct Sliding(AxisMoving, f32);

#[derive(Component, Debug, PartialEq)]
#[component(multiple)]
struct Collider {
    radius: f32,
}

#[derive(Component, Debug, PartialEq)]
#[component(multiple, parent = Collider)]
struct CircleCollider {
    #[component(parent)]
    shape: Collider,
    segments: u8,
}

#[derive(Component, Debug, PartialEq)]
struct Health(u32);

#[derive(Component, Debug, PartialEq)]
struct Tagged<T: Send + Sync + 'static> {
    value: T,
}

#[derive(Component, Debug, PartialEq)]
#[component(name = "player-marker")]
struct PlayerMarker;

#[derive(Component, Debug, PartialEq)]
enum Team {
    Red,
    Blue,
}

fn sliding(speed: f32) -> Sliding {
    Sliding(
        AxisMoving {
            base: Moving { speed },
            vertical: true,
        },
        0.5,
    )
}

#[test]
fn key_stack_lists_own_key_then_ancestors() {
    assert_eq!(
        Sliding::key_stack(),
        &[
            ComponentKey::of::<Sliding>(),
            ComponentKey::of::<AxisMoving>(),
            ComponentKey::of::<Moving>()
        ]
    );
    assert_eq!(Moving::key_stack(), &[ComponentKey::of::<Moving>()]);
    assert!(Sliding::is_derived_from(ComponentKey::of::<Moving>()));
    assert!(Sliding::is_derived_from(ComponentKey::of::<Sliding>()));
    assert!(!Moving::is_derived_from(ComponentKey::of::<Sliding>()));
    assert!(!Sliding::is_derived_from(ComponentKey::of::<Health>()));
}

#[test]
fn names_and_multiple_flags() {
    assert_eq!(Moving::NAME, "Moving");
    assert_eq!(PlayerMarker::NAME, "player-marker");
    assert_eq!([Collider::MULTIPLE, CircleCollider::MULTIPLE], [true, true]);
    assert_eq!([Moving::MULTIPLE, Health::MULTIPLE], [false, false]);
    assert_eq!(
        format!("{:?}", ComponentKey::of::<Health>()),
        "ComponentKey(Health)"
    );
}

#[test]
fn generic_instantiations_have_distinct_keys() {
    assert_ne!(
        ComponentKey::of::<Tagged<u8>>(),
        ComponentKey::of::<Tagged<u16>>()
    );
    let mut world = World::new();
    let id = world.spawn();
    let mut e = world.entity_mut(id).unwrap();
    e.add(Tagged { value: 1u8 }).unwrap();
    e.add(Tagged { value: 2u16 }).unwrap();
    assert_eq!(e.get::<Tagged<u8>>().unwrap().value, 1);
    assert_eq!(e.get::<Tagged<u16>>().unwrap().value, 2);
    assert!(e.get::<Tagged<u32>>().is_none());
}

#[test]
fn get_finds_through_a_three_level_chain() {
    let mut world = World::new();
    let id = world.spawn();
    world.entity_mut(id).unwrap().add(sliding(3.0)).unwrap();
    let e = world.entity(id).unwrap();
    assert_eq!(e.get::<Moving>().unwrap().speed, 3.0);
    assert!(e.get::<AxisMoving>().unwrap().vertical);
    assert_eq!(e.get::<Sliding>().unwrap().1, 0.5);
    assert!(e.has::<Moving>() && e.has::<AxisMoving>() && e.has::<Sliding>());
    assert!(!e.has::<Health>());
}

#[test]
fn get_mut_through_parent_changes_the_derived_component() {
    let mut world = World::new();
    let id = world.spawn();
    let mut e = world.entity_mut(id).unwrap();
    e.add(sliding(1.0)).unwrap();
    e.get_mut::<Moving>().unwrap().speed = 7.0;
    assert_eq!(e.get::<Sliding>().unwrap().0.base.speed, 7.0);
}

#[test]
fn enums_unit_structs_and_plain_types_are_components() {
    let mut world = World::new();
    let id = world.spawn();
    let mut e = world.entity_mut(id).unwrap();
    e.add(Team::Blue).unwrap();
    e.add(PlayerMarker).unwrap();
    assert_eq!(e.get::<Team>(), Some(&Team::Blue));
    assert!(e.has::<PlayerMarker>());
    assert_ne!(e.get::<Team>(), Some(&Team::Red));
}

#[test]
fn get_all_yields_every_is_a_match_in_insertion_order() {
    let mut world = World::new();
    let id = world.spawn();
    let mut e = world.entity_mut(id).unwrap();
    e.add(Collider { radius: 1.0 }).unwrap();
    e.add(Health(1)).unwrap();
    e.add(CircleCollider {
        shape: Collider { radius: 2.0 },
        segments: 8,
    })
    .unwrap();
    e.add(Collider { radius: 3.0 }).unwrap();
    let radii: Vec<f32> = e.get_all::<Collider>().map(|c| c.radius).collect();
    assert_eq!(radii, [1.0, 2.0, 3.0]);
    assert_eq!(e.get_all::<CircleCollider>().count(), 1);
    assert_eq!(e.get::<Collider>().unwrap().radius, 1.0);
    for c in e.get_all_mut::<Collider>() {
        c.radius *= 10.0;
    }
    let radii: Vec<f32> = e.get_all::<Collider>().map(|c| c.radius).collect();
    assert_eq!(radii, [10.0, 20.0, 30.0]);
    assert_eq!(e.get_all::<Moving>().count(), 0);
}

#[test]
fn duplicate_single_is_rejected_and_nothing_changes() {
    let mut world = World::new();
    let id = world.spawn();
    let mut e = world.entity_mut(id).unwrap();
    e.add(AxisMoving {
        base: Moving { speed: 2.0 },
        vertical: false,
    })
    .unwrap();
    // Moving is single and the entity already holds something that is-a Moving.
    let err = e.add(Moving { speed: 1.0 }).unwrap_err();
    assert_eq!(
        err,
        Error::Duplicate {
            entity: id,
            adding: "Moving",
            existing: "AxisMoving",
            single: "Moving",
        }
    );
    assert!(err.to_string().contains("remove the `AxisMoving` first"));
    // A deeper type is-a Moving too.
    assert!(matches!(e.add(sliding(5.0)), Err(Error::Duplicate { .. })));
    assert_eq!(e.len(), 1);
    assert_eq!(e.get::<Moving>().unwrap().speed, 2.0);
    assert!(e.get::<Sliding>().is_none());
}

/// The `Duplicate` message names a type once per role it plays and says
/// what to do: the same type again, a derived type beside its base, a base
/// beside a derived type, two siblings under one single base.
#[test]
fn duplicate_message_names_only_the_types_that_differ() {
    #[derive(Component)]
    struct Base;
    #[derive(Component)]
    #[component(parent = Base)]
    struct Walking(Base);
    #[derive(Component)]
    #[component(parent = Base)]
    struct Flying(Base);

    let mut world = World::new();
    let id = world.spawn();
    let mut e = world.entity_mut(id).unwrap();
    e.add(Base).unwrap();
    let prefix = format!("entity {id:?} ");
    let message = |result: Result<&mut Walking, Error>| result.map(drop).unwrap_err().to_string();
    let same = e.add(Base).map(drop).unwrap_err().to_string();
    assert_eq!(
        same.strip_prefix(&prefix),
        Some("already holds a `Base`; `Base` is single, so a second one cannot be added: remove the existing one first, or add `#[component(multiple)]` to `Base` to allow several")
    );
    let derived = message(e.add(Walking(Base)));
    assert_eq!(
        derived.strip_prefix(&prefix),
        Some("already holds a `Base`, and `Walking` is-a `Base`; `Base` is single, so `Walking` cannot be added too: remove the `Base` first, or add `#[component(multiple)]` to `Base` to allow several")
    );
    e.remove::<Base>().unwrap();
    e.add(Walking(Base)).unwrap();
    let base = e.add(Base).map(drop).unwrap_err().to_string();
    assert_eq!(
        base.strip_prefix(&prefix),
        Some("already holds `Walking`, which is-a `Base`; `Base` is single, so a `Base` cannot be added too: remove the `Walking` first, or add `#[component(multiple)]` to `Base` to allow several")
    );
    let sibling = e.add(Flying(Base)).map(drop).unwrap_err().to_string();
    assert_eq!(
        sibling.strip_prefix(&prefix),
        Some("already holds `Walking`, which is-a `Base`, and `Flying` is-a `Base` too; `Base` is single, so `Flying` cannot be added: remove the `Walking` first, or add `#[component(multiple)]` to `Base` to allow several")
    );
}

#[test]
fn a_single_type_with_a_multiple_parent_is_still_single() {
    #[derive(Component)]
    #[component(parent = Collider)]
    struct Hitbox(Collider);

    let mut world = World::new();
    let id = world.spawn();
    let mut e = world.entity_mut(id).unwrap();
    e.add(Collider { radius: 1.0 }).unwrap();
    e.add(Hitbox(Collider { radius: 2.0 })).unwrap();
    assert!(matches!(
        e.add(Hitbox(Collider { radius: 3.0 })),
        Err(Error::Duplicate {
            single: "Hitbox",
            ..
        })
    ));
    e.add(Collider { radius: 4.0 }).unwrap();
    assert_eq!(e.get_all::<Collider>().count(), 3);
}

#[test]
fn remove_takes_the_exact_type_only() {
    let mut world = World::new();
    let id = world.spawn();
    let mut e = world.entity_mut(id).unwrap();
    e.add(sliding(2.0)).unwrap();
    e.add(Collider { radius: 1.0 }).unwrap();
    e.add(Collider { radius: 2.0 }).unwrap();
    assert_eq!(e.remove::<Moving>(), None);
    assert!(e.has::<Moving>());
    assert_eq!(e.remove::<Sliding>(), Some(sliding(2.0)));
    assert!(!e.has::<Moving>());
    assert_eq!(e.remove::<Collider>(), Some(Collider { radius: 1.0 }));
    assert_eq!(e.get::<Collider>().unwrap().radius, 2.0);
    // Moving may be added again now that nothing is-a Moving.
    e.add(Moving { speed: 9.0 }).unwrap();
}

#[test]
fn despawned_ids_are_dead_and_recycled_slots_have_new_generations() {
    let mut world = World::new();
    let old = world.spawn_named("old");
    world.entity_mut(old).unwrap().add(Health(1)).unwrap();
    world.despawn(old).unwrap();
    assert!(!world.contains(old));
    assert_eq!(world.entity(old).unwrap_err(), Error::NoSuchEntity(old));
    assert!(matches!(world.entity_mut(old), Err(Error::NoSuchEntity(_))));
    assert_eq!(world.despawn(old), Err(Error::NoSuchEntity(old)));
    let new = world.spawn();
    assert_eq!(new.index(), old.index());
    assert_ne!(new, old);
    assert!(!world.contains(old));
    let e = world.entity(new).unwrap();
    assert!(
        e.name().is_none(),
        "the name does not leak into the reused slot"
    );
    assert!(e.get::<Health>().is_none(), "components do not leak either");
}

#[test]
fn ids_from_another_world_are_rejected() {
    let mut a = World::new();
    let mut b = World::new();
    let id = a.spawn();
    assert_eq!(b.entity(id).unwrap_err(), Error::NoSuchEntity(id));
    // Even with a live entity in the same slot and generation.
    let own = b.spawn();
    assert_eq!(
        (own.index(), own.generation()),
        (id.index(), id.generation())
    );
    assert_eq!(b.entity(id).unwrap_err(), Error::NoSuchEntity(id));
    assert!(b.despawn(id).is_err());
    assert!(b.contains(own) && !a.contains(own));
}

#[test]
fn names_and_len() {
    let mut world = World::new();
    assert!(world.is_empty());
    let p = world.spawn_named("player");
    let q = world.spawn();
    assert_eq!(world.len(), 2);
    assert_eq!(world.entity(p).unwrap().name(), Some("player"));
    assert_eq!(world.entity(q).unwrap().name(), None);
    world.despawn(p).unwrap();
    assert_eq!(world.len(), 1);
}

#[test]
fn twenty_thousand_entities_stay_consistent_through_churn() {
    let mut world = World::new();
    let mut ids = Vec::new();
    for i in 0..20_000u32 {
        let id = world.spawn();
        let mut e = world.entity_mut(id).unwrap();
        e.add(Health(i)).unwrap();
        if i % 3 == 0 {
            e.add(sliding(i as f32)).unwrap();
        }
        for r in 0..i % 4 {
            e.add(Collider { radius: r as f32 }).unwrap();
        }
        ids.push(id);
    }
    // Despawn every other entity, then remove Health from every fifth survivor.
    for (i, id) in ids.iter().enumerate() {
        if i % 2 == 1 {
            world.despawn(*id).unwrap();
        }
    }
    for (i, id) in ids.iter().enumerate().filter(|(i, _)| i % 2 == 0) {
        if i % 5 == 0 {
            assert_eq!(
                world.entity_mut(*id).unwrap().remove::<Health>(),
                Some(Health(i as u32))
            );
        }
    }
    assert_eq!(world.len(), 10_000);
    for (i, id) in ids.iter().enumerate() {
        let i32_ = i as u32;
        if i % 2 == 1 {
            assert!(!world.contains(*id));
            continue;
        }
        let e = world.entity(*id).unwrap();
        if i % 5 == 0 {
            assert!(e.get::<Health>().is_none());
        } else {
            assert_eq!(e.get::<Health>(), Some(&Health(i32_)));
        }
        assert_eq!(e.has::<Moving>(), i % 3 == 0);
        if i % 3 == 0 {
            assert_eq!(e.get::<Moving>().unwrap().speed, i as f32);
        }
        let radii: Vec<f32> = e.get_all::<Collider>().map(|c| c.radius).collect();
        let expected: Vec<f32> = (0..i32_ % 4).map(|r| r as f32).collect();
        assert_eq!(radii, expected);
    }
}

#[test]
fn world_is_send_and_sync() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<World>();
}
