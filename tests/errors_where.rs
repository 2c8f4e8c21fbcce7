//! Every error a user meets says where it happened, in the words of the
//! code it was raised in: a failed save names the component type and the
//! field, `Debug` (what a `main` returning `Result` prints) carries the
//! same sentence as `Display`, and the advice of an error fits the place
//! it was raised (a behaviour's `ctx`, its `query_mut`, the world, a
//! queued command). An `EntityId` in the program's own serde data reads
//! back as it was written.

use std::sync::Mutex;

use ecs_core::prelude::*;
use ecs_core::{SaveFormat, SaveOptions, UpdateWith};
use serde::{Deserialize, Serialize};

// ------------------------------------------------------------ saves

#[derive(Component, Serialize, Deserialize)]
struct Turret {
    range: f32,
    target: EntityId,
}

#[derive(Component, Serialize, Deserialize)]
struct Squad {
    members: Vec<EntityId>,
}

/// A resource saved with the world.
#[derive(Component, Serialize, Deserialize)]
struct Focus {
    on: Option<EntityId>,
}

#[derive(Component, Serialize, Deserialize)]
struct Aim {
    x: f32,
    y: f32,
}

const DANGLING_ADVICE: &str = "which is not an entity of the saved world (it was despawned, or \
     belongs to another world); clear the reference, or save with `SaveOptions { dangling: \
     Dangling::Null, .. }` to write null (an `Option<EntityId>` then loads as `None`)";

#[test]
fn a_dangling_reference_names_the_component_type_and_the_field() {
    let mut world = World::new();
    let tank = world.spawn();
    let turret = world.spawn();
    world
        .entity_mut(turret)
        .unwrap()
        .add(Turret {
            range: 12.0,
            target: tank,
        })
        .unwrap();
    world.despawn(tank).unwrap();
    let err = world.save_json().unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "entities[0].components[0].data.target: this `Turret` holds {tank:?}, {DANGLING_ADVICE}"
        )
    );
    assert!(matches!(
        err,
        Error::DanglingEntity { component: "Turret", entity, .. } if entity == tank
    ));
    // The binary format lists values by position: the field is named the same.
    let options = SaveOptions {
        format: SaveFormat::Binary,
        ..SaveOptions::default()
    };
    assert_eq!(
        world.save(options).unwrap_err().to_string(),
        format!("entities[0].data[0].target: this `Turret` holds {tank:?}, {DANGLING_ADVICE}")
    );
}

#[test]
fn a_dangling_reference_in_a_list_or_a_resource_names_the_element() {
    let mut world = World::new();
    let a = world.spawn();
    let b = world.spawn();
    let squad = world.spawn();
    world
        .entity_mut(squad)
        .unwrap()
        .add(Squad {
            members: vec![a, b],
        })
        .unwrap();
    world.despawn(b).unwrap();
    assert_eq!(
        world.save_json().unwrap_err().to_string(),
        format!(
            "entities[1].components[0].data.members[1]: this `Squad` holds {b:?}, {DANGLING_ADVICE}"
        )
    );
    world.entity_mut(squad).unwrap().remove::<Squad>();
    world.insert_resource(Focus { on: Some(b) });
    assert_eq!(
        world.save_json().unwrap_err().to_string(),
        format!("resources[0].data.on: this `Focus` holds {b:?}, {DANGLING_ADVICE}")
    );
}

#[test]
fn a_float_json_cannot_hold_names_the_component_type_and_the_field() {
    let mut world = World::new();
    world
        .spawn_with((Aim {
            x: 1.0,
            y: f32::NAN,
        },))
        .unwrap();
    assert_eq!(
        world.save_json().unwrap_err().to_string(),
        "entities[0].components[0].data.y: in a `Aim`, NaN cannot be written as JSON (it would \
         read back as null); save it with the binary format, or keep NaN out of saved components"
    );
}

// ------------------------------------------------------------ Debug

#[derive(Component)]
struct Health(u32);

#[derive(Component)]
#[component(behaviour)]
struct Radio;

impl Behaviour for Radio {
    fn update(&mut self, ctx: &mut Context<'_>, _: f32) {
        ctx.attempt(|_| Err::<(), _>("no signal"));
    }
}

/// What a program's `main` returns: its `Err` is printed with `Debug`.
type MainResult = Result<(), Box<dyn std::error::Error>>;

/// A program, the start of what its `Err` prints, and its advice.
type Case = (fn() -> MainResult, &'static str, &'static str);

fn touch_despawned() -> MainResult {
    let mut world = World::new();
    let id = world.spawn();
    world.despawn(id)?;
    world.entity(id)?;
    Ok(())
}

fn add_twice() -> MainResult {
    let mut world = World::new();
    let id = world.spawn_with((Health(3),))?;
    world.entity_mut(id)?.add(Health(4))?;
    Ok(())
}

fn save_dangling() -> MainResult {
    let mut world = World::new();
    let tank = world.spawn();
    world.spawn_with((Turret {
        range: 1.0,
        target: tank,
    },))?;
    world.despawn(tank)?;
    world.save_json()?;
    Ok(())
}

fn query_absent() -> MainResult {
    let mut world = World::new();
    let id = world.spawn_with((Health(3),))?;
    world.query_one::<(&Health, &Aim)>(id)?;
    Ok(())
}

fn attempt_failed() -> MainResult {
    let mut world = World::new();
    world.spawn_with((Radio,))?;
    world.update(1.0);
    if let Some(error) = world.take_command_errors().pop() {
        return Err(error.into());
    }
    Ok(())
}

#[test]
fn debug_carries_the_display_sentence_for_a_main_that_returns_result() {
    let cases: [Case; 5] = [
        (
            touch_despawned,
            "NoSuchEntity: no entity 0v0 in this world",
            "spawn a new entity or keep the id returned by `spawn`",
        ),
        (
            add_twice,
            "Duplicate: entity 0v0 already holds a `Health`",
            "remove the existing one first, or add `#[component(multiple)]` to `Health` to allow several",
        ),
        (
            save_dangling,
            "DanglingEntity: entities[0].components[0].data.target: this `Turret` holds 0v0",
            "save with `SaveOptions { dangling: Dangling::Null, .. }` to write null",
        ),
        (
            query_absent,
            "MissingComponent: entity 0v0 has no component that is-a `Aim`",
            "check with `world.entity(id)?.has::<Aim>()` first, or make the term an `Option`",
        ),
        (
            attempt_failed,
            "Attempt: the `Radio` of entity 0v0 gave up in `ctx.attempt`",
            "(source: no signal)",
        ),
    ];
    for (main, start, advice) in cases {
        let err = main().unwrap_err();
        let debug = format!("{err:?}");
        assert!(debug.starts_with(start), "{debug}");
        assert!(debug.contains(advice), "{debug}");
        assert!(debug.contains(&err.to_string()), "{debug}");
        assert!(!debug.contains('\n'), "{debug}");
    }
    assert_eq!(
        format!("{:?}", touch_despawned().unwrap_err()),
        "NoSuchEntity: no entity 0v0 in this world: it was despawned or belongs to another world; \
         ids are generational, so spawn a new entity or keep the id returned by `spawn`"
    );
}

// ------------------------------------------------------------ advice by place

#[derive(Component, Debug, PartialEq)]
struct Velocity(f32);

#[derive(Component)]
struct Fuel;

/// What `Steer` met, one message per access.
static STEER_SAW: Mutex<Vec<String>> = Mutex::new(Vec::new());

#[derive(Component)]
#[component(behaviour(with = Velocity))]
struct Steer;

impl Behaviour for Steer {
    fn update(&mut self, _: &mut Context<'_>, _: f32) {}
}

impl UpdateWith<Velocity> for Steer {
    fn update_with(&mut self, ctx: &mut Context<'_>, velocity: &mut Velocity, _: f32) {
        velocity.0 += 1.0;
        let saw = vec![
            ctx.query_mut::<(&Velocity,)>().err().unwrap().to_string(),
            ctx.try_get::<Velocity>().err().unwrap().to_string(),
            ctx.query_mut::<(&Steer,)>().err().unwrap().to_string(),
            ctx.try_get::<Steer>().err().unwrap().to_string(),
            ctx.try_get::<Fuel>().err().unwrap().to_string(),
        ];
        *STEER_SAW.lock().unwrap() = saw;
    }
}

#[test]
fn a_lent_or_missing_component_is_explained_for_the_place_it_was_asked_from() {
    let mut world = World::new();
    let id = world.spawn_with((Steer, Velocity(0.0))).unwrap();
    assert_eq!(world.update(1.0), 1);
    let saw = std::mem::take(&mut *STEER_SAW.lock().unwrap());
    let queue = "queue the access with `ctx.commands().run(..)`";
    assert_eq!(
        saw,
        [
            format!(
                "`ctx.query_mut` cannot touch `Velocity`: it is stored with the sibling the \
                 running `Steer` updates with (its `behaviour(with = ..)`), lent out while \
                 `Steer` runs; use the sibling argument of `Steer::update_with` for this \
                 entity's, and {queue} for the others'"
            ),
            format!(
                "`Velocity` is stored with the sibling the running `Steer` updates with (its \
                 `behaviour(with = ..)`) and is lent out while it runs; use the sibling argument \
                 of `Steer::update_with` instead, or {queue}"
            ),
            format!(
                "`ctx.query_mut` cannot touch `Steer`: it is stored with the running `Steer`, \
                 whose components are lent out while it runs; read `self` for this entity's, \
                 and {queue} for the others'"
            ),
            format!(
                "`Steer` is stored with the running `Steer` and is lent out while it runs; read \
                 `self` instead, or {queue}"
            ),
            format!(
                "entity {id:?} has no component that is-a `Fuel`; add one, or check with \
                 `ctx.has::<Fuel>()` first"
            ),
        ]
    );
    assert_eq!(
        world.entity(id).unwrap().get::<Velocity>(),
        Some(&Velocity(1.0))
    );
}

#[test]
fn a_world_query_for_one_entity_advises_a_world_level_check() {
    let mut world = World::new();
    let id = world.spawn_with((Health(1),)).unwrap();
    let advice = format!(
        "entity {id:?} has no component that is-a `Velocity`; add one, check with \
         `world.entity(id)?.has::<Velocity>()` first, or make the term an `Option`"
    );
    let err = world.query_one::<(&Health, &Velocity)>(id).err().unwrap();
    assert_eq!(err.to_string(), advice);
    assert!(!err.to_string().contains("ctx"), "{err}");
    let err = world.query_one_mut::<(&mut Velocity,)>(id).err().unwrap();
    assert_eq!(err.to_string(), advice);
}

#[test]
fn a_queued_removal_of_nothing_advises_a_check_before_queuing() {
    let mut world = World::new();
    let id = world.spawn_with((Health(1),)).unwrap();
    world.commands().remove::<Fuel>(id);
    world.apply_commands();
    let errors = world.take_command_errors();
    assert_eq!(
        errors.iter().map(|e| e.to_string()).collect::<Vec<_>>(),
        [format!(
            "entity {id:?} has no component that is-a `Fuel`, so the queued `remove::<Fuel>` had \
             nothing to remove; check with `world.entity(id)?.has::<Fuel>()` before queuing it, \
             or ignore this error"
        )]
    );
}

// ------------------------------------------------------------ ids in user data

/// A program's own data: an editor's selection, a network message.
#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Selection {
    picked: Vec<EntityId>,
    hovered: Option<EntityId>,
}

#[test]
fn ids_in_user_data_read_back_as_they_were_written_outside_a_load() {
    let mut world = World::new();
    let a = world.spawn_with((Health(1),)).unwrap();
    let b = world.spawn_with((Health(2),)).unwrap();
    world.despawn(a).unwrap();
    let a2 = world.spawn_with((Health(3),)).unwrap(); // a's slot, a new generation
    let selection = Selection {
        picked: vec![a2, b],
        hovered: Some(a),
    };
    let json = serde_json::to_string(&selection).unwrap();
    let back: Selection = serde_json::from_str(&json).unwrap();
    assert_eq!(back, selection);
    let health = |id| world.entity(id).map(|e| e.get::<Health>().unwrap().0);
    assert_eq!(health(back.picked[0]), Ok(3));
    assert_eq!(health(back.picked[1]), Ok(2));
    // A stale id is an ordinary stale id when used.
    let stale = back.hovered.unwrap();
    assert_eq!(stale, a);
    assert_eq!(world.entity(stale).err(), Some(Error::NoSuchEntity(a)));
    assert_eq!(
        world.entity(stale).err().unwrap().to_string(),
        format!(
            "no entity {a:?} in this world: it was despawned or belongs to another world; ids \
             are generational, so spawn a new entity or keep the id returned by `spawn`"
        )
    );
    // Another world refuses it, as it refuses any of this world's ids.
    let other = World::new();
    assert_eq!(other.entity(b).err(), Some(Error::NoSuchEntity(b)));
    assert_eq!(
        other.entity(back.picked[1]).err(),
        Some(Error::NoSuchEntity(b))
    );
    // A load in between leaves user data alone.
    let loaded = World::load_json(&World::new().save_json().unwrap()).unwrap();
    assert!(loaded.is_empty());
    let again: Selection = serde_json::from_str(&json).unwrap();
    assert_eq!(again, selection);
}
