//! A saved world that refers to an entity past its last one (a file edited
//! by hand, or cut short) is refused with `Error::UnknownEntity`, which
//! names the component type and reaches the field that holds the id, in
//! JSON and in binary saves alike; the failed load changes nothing.

use ecs_core::prelude::*;
use ecs_core::{SaveFormat, SaveOptions};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

#[derive(Component, Clone, Serialize, Deserialize)]
struct Turret {
    range: u8,
    target: EntityId,
}

#[derive(Component, Clone, Serialize, Deserialize)]
struct Squad {
    size: u8,
    members: Vec<EntityId>,
}

/// A resource saved with the world.
#[derive(Component, Clone, Serialize, Deserialize)]
struct Focus {
    on: Option<EntityId>,
}

/// Entities `tank`, `scout`, a `Turret` aiming at the tank and a `Squad`
/// of both (the tank twice), saved in that order; a `Focus` on the scout.
fn world() -> World {
    let mut world = World::new();
    let tank = world.spawn_named("tank");
    let scout = world.spawn_named("scout");
    world
        .spawn_with((Turret {
            range: 12,
            target: tank,
        },))
        .unwrap();
    world
        .spawn_with((Squad {
            size: 42,
            members: vec![tank, scout, tank],
        },))
        .unwrap();
    world.insert_resource(Focus { on: Some(scout) });
    assert_eq!(world.save_order().len(), 4);
    world
}

/// `world`'s JSON save, as a value.
fn json_of(world: &World) -> Value {
    serde_json::from_str(&world.save_json().unwrap()).unwrap()
}

fn binary_of(world: &World) -> Vec<u8> {
    world.save(SaveOptions::binary()).unwrap()
}

/// `bytes` with the only run of `from` made `to` (the same length).
fn patched(bytes: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    let at: Vec<usize> = (bytes.windows(from.len()).enumerate())
        .filter(|(_, w)| *w == from)
        .map(|(i, _)| i)
        .collect();
    assert_eq!(at.len(), 1, "{from:x?} should occur once in {bytes:x?}");
    let mut out = bytes.to_vec();
    out[at[0]..at[0] + to.len()].copy_from_slice(to);
    out
}

/// The `Turret`'s value as a binary save holds it: a `bin` (32-bit
/// length) of 3 bytes holding `[12, 0]`, its fields by position (the tank
/// is saved id 0), the id last.
const TURRET: [u8; 8] = [0xc6, 0, 0, 0, 3, 0x92, 12, 0];
/// The `Squad`'s: a `bin` of 6 bytes holding `[42, [0, 1, 0]]`.
const SQUAD: [u8; 11] = [0xc6, 0, 0, 0, 6, 0x92, 42, 0x93, 0, 1, 0];
/// The `Focus` resource's, after its type's name: a `bin` of 2 bytes
/// holding `[1]` (`Some(scout)`).
const FOCUS: [u8; 8] = [b's', 0xc6, 0, 0, 0, 2, 0x91, 1];

/// `value` with its last bytes made `last`.
fn ending(value: &[u8], last: &[u8]) -> Vec<u8> {
    let mut out = value.to_vec();
    let at = out.len() - last.len();
    out[at..].copy_from_slice(last);
    out
}

/// Loads `bad`, which must fail with an `UnknownEntity` at `path` in a
/// `component` holding `saved`, with this message; checks that nothing
/// changed: the world saved from, the world already loaded, and a good
/// file still loading the same.
fn refused(bad: &[u8], good: &[u8], path: &str, component: &str, saved: u64) {
    let source = world();
    let before = source.save_json().unwrap();
    let mut held = World::load(good).unwrap().world;
    held.spawn_named("held");
    let held_before = held.save_json().unwrap();

    let err = World::load(bad).map(|l| l.world.len()).unwrap_err();
    match &err {
        Error::UnknownEntity {
            path: p,
            component: c,
            saved: s,
            count,
        } => {
            assert_eq!(
                (p.as_str(), *c, *s, *count),
                (path, component, saved, 4),
                "{err}"
            );
        }
        other => panic!("expected an unknown entity, got {other:?}"),
    }
    assert_eq!(
        err.to_string(),
        format!(
            "{path}: this `{component}` refers to entity {saved}, but the file holds 4 entities \
             (saved ids 0 to 3); saved ids are positions in the file's list of entities, from 0, \
             so the file was edited or cut short: put back the entities it lost, or change the \
             id to one the file holds"
        )
    );
    assert_eq!(format!("{err:?}"), format!("UnknownEntity: {err}"));

    // Nothing changed, and the load left no state behind.
    assert_eq!(source.save_json().unwrap(), before);
    assert_eq!(held.save_json().unwrap(), held_before);
    assert_eq!(held.len(), 5);
    assert_eq!(
        World::load(good).unwrap().world.save_json().unwrap(),
        before
    );
    assert!(serde_json::from_str::<EntityId>("0").is_err());
}

#[test]
fn json_a_struct_field_past_the_last_entity() {
    let good = json_of(&world());
    let mut bad = good.clone();
    bad["entities"][2]["components"][0]["data"]["target"] = json!(40);
    refused(
        bad.to_string().as_bytes(),
        good.to_string().as_bytes(),
        "entities[2].components[0].data.target",
        "Turret",
        40,
    );
}

#[test]
fn json_a_vec_element_past_the_last_entity() {
    let good = json_of(&world());
    let mut bad = good.clone();
    bad["entities"][3]["components"][0]["data"]["members"][2] = json!(41);
    refused(
        bad.to_string().as_bytes(),
        good.to_string().as_bytes(),
        "entities[3].components[0].data.members[2]",
        "Squad",
        41,
    );
}

#[test]
fn json_pretty_reaches_the_field_too() {
    let good = world()
        .save_with(SaveOptions::json_pretty())
        .unwrap()
        .into_text()
        .unwrap();
    let mut bad: Value = serde_json::from_str(&good).unwrap();
    bad["entities"][3]["components"][0]["data"]["members"][1] = json!(7);
    let bad = serde_json::to_string_pretty(&bad).unwrap();
    refused(
        bad.as_bytes(),
        good.as_bytes(),
        "entities[3].components[0].data.members[1]",
        "Squad",
        7,
    );
}

#[test]
fn binary_a_struct_field_past_the_last_entity() {
    let good = binary_of(&world());
    let bad = patched(&good, &TURRET, &ending(&TURRET, &[40]));
    refused(&bad, &good, "entities[2].data[0].target", "Turret", 40);
}

#[test]
fn binary_a_vec_element_past_the_last_entity() {
    let good = binary_of(&world());
    let bad = patched(&good, &SQUAD, &ending(&SQUAD, &[41]));
    refused(&bad, &good, "entities[3].data[0].members[2]", "Squad", 41);
}

#[test]
fn a_resource_names_its_type_and_field() {
    let good = json_of(&world());
    let mut bad = good.clone();
    bad["resources"][0]["data"]["on"] = json!(9);
    refused(
        bad.to_string().as_bytes(),
        good.to_string().as_bytes(),
        "resources[0].data.on",
        "Focus",
        9,
    );
    let good = binary_of(&world());
    let bad = patched(&good, &FOCUS, &ending(&FOCUS, &[9]));
    refused(&bad, &good, "resources[0].data.on", "Focus", 9);
}

#[test]
fn the_largest_id_is_the_one_reported_wherever_it_is() {
    for format in [SaveFormat::Json, SaveFormat::Binary] {
        let good = world().save(SaveOptions::with_format(format)).unwrap();
        let bad = match format {
            SaveFormat::Binary => {
                let bad = patched(&good, &TURRET, &ending(&TURRET, &[100]));
                patched(&bad, &SQUAD, &ending(&SQUAD, &[30, 0]))
            }
            _ => {
                let mut bad: Value = serde_json::from_slice(&good).unwrap();
                bad["entities"][2]["components"][0]["data"]["target"] = json!(100);
                bad["entities"][3]["components"][0]["data"]["members"][1] = json!(30);
                bad.to_string().into_bytes()
            }
        };
        let path = match format {
            SaveFormat::Binary => "entities[2].data[0].target",
            _ => "entities[2].components[0].data.target",
        };
        refused(&bad, &good, path, "Turret", 100);
    }
}

#[test]
fn a_file_cut_short_refers_past_its_end() {
    // The same world with its last entity (the squad) dropped: the turret
    // and the focus still refer to the first two, so the file loads; a
    // reference to the dropped one is refused.
    let mut value = json_of(&world());
    value["entities"].as_array_mut().unwrap().truncate(3);
    assert_eq!(World::load_value(&value).unwrap().len(), 3);
    value["entities"][2]["components"][0]["data"]["target"] = json!(3);
    match World::load_value(&value) {
        Err(Error::UnknownEntity {
            path,
            component: "Turret",
            saved: 3,
            count: 3,
        }) => assert_eq!(path, "entities[2].components[0].data.target"),
        other => panic!(
            "expected an unknown entity, got {:?}",
            other.map(|w| w.len())
        ),
    }
}

#[test]
fn a_value_read_ahead_then_disowned_is_checked_where_it_is_read_again() {
    // Two turrets in a row: the second's value is read straight into the
    // first's column, then taken back when a second `type` key follows,
    // and read again. Its reference is checked all the same.
    let mut world = World::new();
    let tank = world.spawn();
    for range in [1, 2] {
        world
            .spawn_with((Turret {
                range,
                target: tank,
            },))
            .unwrap();
    }
    let good = world.save_json().unwrap();
    let from = r#"{"type":"Turret","data":{"range":2,"target":0}}"#;
    let to = r#"{"type":"Turret","data":{"range":2,"target":99},"type":"Turret"}"#;
    assert_eq!(good.matches(from).count(), 1, "{good}");
    let bad = good.replace(from, to);
    match World::load_json(&bad) {
        Err(Error::UnknownEntity {
            path,
            component: "Turret",
            saved: 99,
            count: 3,
        }) => assert_eq!(path, "entities[2].components[0].data.target"),
        other => panic!(
            "expected an unknown entity, got {:?}",
            other.map(|w| w.len())
        ),
    }
    // Read again with its reference in range, it loads.
    let fine = good.replace(from, &to.replace("99", "1"));
    assert_eq!(World::load_json(&fine).unwrap().len(), 3);
}
