//! What a user writes in a normal program, with nothing but the prelude:
//! saving with options, despawning from a query loop, counting and
//! walking queries, and blueprints that fail when they are read.

use ecs_core::prelude::*;

#[derive(Component, serde::Serialize, serde::Deserialize, Debug, PartialEq)]
struct Target(Option<EntityId>);

#[derive(Component, serde::Serialize, serde::Deserialize, Debug, PartialEq)]
struct Health(u32);

#[derive(Component, serde::Serialize, serde::Deserialize, Debug, PartialEq)]
struct Wheel {
    size: u32,
}

#[derive(Component)]
struct Poisoned;

/// A world holding a reference to an entity that is gone.
fn world_with_dangling_target() -> World {
    let mut world = World::new();
    let gone = world.spawn();
    world.spawn_with((Target(Some(gone)), Health(3))).unwrap();
    world.despawn(gone).unwrap();
    world
}

#[test]
fn saving_with_options_gives_json_as_text() -> Result<(), Error> {
    let world = world_with_dangling_target();
    assert!(matches!(
        world.save_json(),
        Err(Error::DanglingEntity { .. })
    ));

    let json: String = world.save_json_with(SaveOptions::json().dangling(Dangling::Null))?;
    assert!(json.contains(r#"{"type":"Target","data":null}"#), "{json}");
    let loaded = World::load_json(&json)?;
    let (target, health) = loaded.query::<(&Target, &Health)>().iter().next().unwrap();
    assert_eq!((target, health), (&Target(None), &Health(3)));

    let pretty = world.save_json_with(SaveOptions::json_pretty().dangling(Dangling::Null))?;
    assert!(pretty.contains("\n  \"entities\": ["), "{pretty}");
    assert_eq!(World::load_json(&pretty)?.save_json()?, json);
    Ok(())
}

#[test]
fn save_with_returns_text_for_json_and_bytes_for_binary() -> Result<(), Error> {
    let world = world_with_dangling_target();
    let options = SaveOptions::json().dangling(Dangling::Null);
    let saved = world.save_with(options)?;
    assert!(matches!(saved, Saved::Text(_)));
    let text = saved.clone().into_text().unwrap();
    assert_eq!(saved.as_bytes(), text.as_bytes());
    assert_eq!(text, world.save_json_with(options)?);

    let binary = world.save_with(SaveOptions::binary().dangling(Dangling::Null))?;
    assert!(binary.as_text().is_none());
    let loaded = World::load(binary.as_bytes())?.world;
    assert_eq!(loaded.query::<(&Target,)>().count(), 1);

    // The formats, by value, for a format chosen at run time.
    for format in [SaveFormat::Json, SaveFormat::JsonPretty, SaveFormat::Binary] {
        let options = SaveOptions::with_format(format).dangling(Dangling::Null);
        let bytes = world.save(options)?;
        assert_eq!(bytes, world.save_with(options)?.into_bytes());
        assert_eq!(World::load(&bytes)?.world.len(), 1);
    }
    // The struct form still says the same.
    let old = SaveOptions {
        dangling: Dangling::Null,
        ..SaveOptions::default()
    };
    assert_eq!(old, SaveOptions::json().dangling(Dangling::Null));
    Ok(())
}

/// Poison ticks: entities at zero health are despawned, the others cured,
/// through a local queue applied with `?`.
fn poison_tick(world: &mut World) -> Result<(), Error> {
    let mut later = Commands::new();
    for (id, health) in world
        .query_mut::<(EntityId, &mut Health)>()
        .with::<Poisoned>()
    {
        health.0 = health.0.saturating_sub(1);
        if health.0 == 0 {
            later.despawn(id);
        } else {
            later.remove::<Poisoned>(id);
        }
    }
    later.apply(world)?;
    Ok(())
}

#[test]
fn despawning_from_a_query_loop_goes_through_commands_and_question_mark() {
    let mut world = World::new();
    let weak = world.spawn_with((Health(1), Poisoned)).unwrap();
    let strong = world.spawn_with((Health(5), Poisoned)).unwrap();
    let healthy = world.spawn_with((Health(2),)).unwrap();
    assert_eq!(poison_tick(&mut world), Ok(()));
    assert!(!world.contains(weak));
    assert!(!world.entity(strong).unwrap().has::<Poisoned>());
    assert_eq!(
        world.entity(healthy).unwrap().get::<Health>(),
        Some(&Health(2))
    );
}

#[test]
fn every_failed_change_comes_back_through_question_mark() {
    fn despawn_twice(world: &mut World, a: EntityId, b: EntityId) -> Result<(), Error> {
        let mut commands = Commands::new();
        for id in [a, b, a, b] {
            commands.despawn(id);
        }
        commands.apply(world)?;
        Ok(())
    }
    let mut world = World::new();
    let (a, b) = (world.spawn(), world.spawn());
    let err = despawn_twice(&mut world, a, b).unwrap_err();
    assert!(world.is_empty(), "the first two despawns applied");
    let Error::Commands { errors } = &err else {
        panic!("{err:?}");
    };
    assert_eq!(errors, &[Error::NoSuchEntity(a), Error::NoSuchEntity(b)]);
    let text = err.to_string();
    assert!(text.starts_with("2 queued changes failed"), "{text}");
    assert!(text.contains(&Error::NoSuchEntity(a).to_string()), "{text}");
}

#[test]
fn queries_count_and_a_mutable_query_iterates_by_reference() {
    let mut world = World::new();
    world.spawn_with((Health(1),)).unwrap();
    world.spawn_with((Health(2), Poisoned)).unwrap();
    let dead = world.spawn_with((Health(3),)).unwrap();
    world.entity_mut(dead).unwrap().kill();

    assert_eq!(world.query::<(&Health,)>().count(), 2);
    assert_eq!(world.query::<(&Health,)>().with::<Poisoned>().count(), 1);
    assert_eq!(world.query::<(&Health,)>().include_inactive().count(), 3);
    assert_eq!(world.query_mut::<(&mut Health,)>().count(), 2);

    let mut query = world.query_mut::<(&mut Health,)>();
    for (health,) in query.iter() {
        health.0 *= 10;
    }
    for (health,) in &mut query {
        health.0 += 1;
    }
    let seen: Vec<u32> = query.iter().map(|(h,)| h.0).collect();
    assert_eq!(seen, [11, 21]);
    assert_eq!(query.count(), 2);
    let total: u32 = query.into_iter().map(|(h,)| h.0).sum();
    assert_eq!(total, 32);
}

#[test]
fn a_blueprint_with_data_its_type_refuses_fails_when_read_naming_the_type() {
    let bad = r#"{"components": [
        {"type": "Health", "data": 3},
        {"type": "Wheel", "data": {"size": "big"}}]}"#;
    match Blueprint::from_json(bad) {
        Err(Error::Data { path, message }) => {
            assert_eq!(path, "components[1](Wheel).data.size");
            assert!(message.starts_with("invalid type: string"), "{message}");
        }
        other => panic!("{other:?}"),
    }
    let nested =
        r#"{"components": [], "children": [{"components": [{"type": "Wheel", "data": 7}]}]}"#;
    let err = Blueprint::from_json(nested).unwrap_err().to_string();
    assert!(
        err.starts_with("children[0].components[0](Wheel).data: invalid type"),
        "{err}"
    );
    let unknown = r#"{"components": [{"type": "Wheal", "data": {"size": 1}}]}"#;
    let err = Blueprint::from_json(unknown).unwrap_err().to_string();
    assert!(
        err.starts_with(
            "components[0].type: no component is called `Wheal` (did you mean `Wheel`?)"
        ),
        "{err}"
    );
    // Data that reads parses, and spawns.
    let good = Blueprint::from_json(r#"{"components": [{"type": "Wheel", "data": {"size": 2}}]}"#)
        .unwrap();
    let mut world = World::new();
    let id = world.spawn_blueprint(&good).unwrap();
    assert_eq!(
        world.entity(id).unwrap().get::<Wheel>(),
        Some(&Wheel { size: 2 })
    );
}

#[test]
fn a_variant_is_read_by_its_library_once_merged() {
    let mut library = BlueprintLibrary::default();
    let base = Blueprint::from_json(r#"{"components": [{"type": "Wheel", "data": {"size": 1}}]}"#)
        .unwrap();
    library.insert("cart", base).unwrap();
    // A patch alone is not a whole value: the library reads it merged.
    let variant =
        r#"{"extend": "cart", "components": [{"type": "Wheel", "data": {"size": "big"}}]}"#;
    let variant = Blueprint::from_json(variant).unwrap();
    let err = library.insert("big-cart", variant).unwrap_err().to_string();
    assert!(
        err.starts_with("big-cart: components[0](Wheel).data.size: invalid type"),
        "{err}"
    );
}
