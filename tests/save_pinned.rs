//! The saved bytes themselves, pinned: a world with every feature a save
//! has (names shared and renamed, a hierarchy, disabled and killed
//! entities, disabled components, layers, resources, the update order,
//! entity references, a transient component) saved in every format must
//! give exactly these texts and bytes, and loading each must give a world
//! that saves the same again. The expected values were written by the
//! save code as it was before the format-neutral writer and reader, so a
//! file saved by any version since reads and writes unchanged.

use ecs_core::prelude::*;
use ecs_core::{SaveFormat, SaveOptions};
use serde::{Deserialize, Serialize};

#[derive(Component, Debug, Clone, PartialEq, Serialize, Deserialize)]
#[component(name = "GoldenPos")]
struct Pos {
    x: f32,
    y: f32,
}

#[derive(Component, Debug, Clone, PartialEq, Serialize, Deserialize)]
#[component(name = "GoldenHp")]
struct Hp(u32);

#[derive(Component, Debug, Clone, PartialEq, Serialize, Deserialize)]
#[component(name = "GoldenMark")]
struct Mark;

/// Every shape a reference takes, several per entity.
#[derive(Component, Debug, Clone, PartialEq, Serialize, Deserialize)]
#[component(name = "GoldenAim", multiple)]
struct Aim {
    one: Option<EntityId>,
    many: Vec<EntityId>,
}

#[derive(Component, Debug, Clone, PartialEq, Serialize, Deserialize)]
#[component(name = "GoldenMood")]
enum Mood {
    Calm,
    Angry { level: u8 },
}

/// Left out of saves on purpose.
#[derive(Component, Debug, Clone, PartialEq, Serialize, Deserialize)]
#[component(name = "GoldenScratch", transient)]
struct Scratch(u32);

/// A resource that holds a reference.
#[derive(Component, Debug, Clone, PartialEq, Serialize, Deserialize)]
#[component(name = "GoldenBoss")]
struct Boss(Option<EntityId>);

#[derive(Component, Debug, Clone, PartialEq, Serialize, Deserialize)]
#[component(name = "GoldenScore")]
struct Score(u32);

#[derive(Component, Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[component(name = "GoldenSpin", behaviour)]
struct Spin(u8);
impl Behaviour for Spin {
    fn update(&mut self, _: &mut Context<'_>, _: f32) {}
}

#[derive(Component, Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[component(name = "GoldenGlow", behaviour)]
struct Glow(u8);
impl Behaviour for Glow {
    fn update(&mut self, _: &mut Context<'_>, _: f32) {}
}

/// The world whose saves are pinned below; `transient` adds a transient
/// component (which a binary save still lists among its types, though it
/// writes no value of it: so a loaded world, which lacks it, saves fewer).
fn golden_world(transient: bool) -> World {
    let mut world = World::new();
    let car = world.spawn_named("car");
    let wheel = world.spawn_named("wheel");
    let wheel2 = world.spawn_named("wheel");
    let ghost = world.spawn_named("ghost \"quoted\" é");
    let loose = world.spawn();
    let gone = world.spawn_named("gone");
    world.set_parent(wheel, car).unwrap();
    world.set_parent(wheel2, car).unwrap();
    world.set_parent(loose, wheel2).unwrap();
    // A hole in the slots: saved ids are positions, not slots.
    world.despawn(gone).unwrap();
    // Renamed after the others: `wheel2` is named before `wheel` now,
    // which the naming order keeps.
    world.entity_mut(wheel).unwrap().set_name(Some("wheel"));
    let mut e = world.entity_mut(car).unwrap();
    e.add(Pos { x: 1.5, y: -2.0 }).unwrap();
    e.add(Hp(30)).unwrap();
    e.add(Aim {
        one: Some(wheel2),
        many: vec![loose, car],
    })
    .unwrap();
    e.add(Aim {
        one: None,
        many: vec![],
    })
    .unwrap();
    e.add(Spin(1)).unwrap();
    if transient {
        e.add(Scratch(9)).unwrap();
    }
    let mut e = world.entity_mut(wheel).unwrap();
    e.add(Pos { x: 0.25, y: 0.0 }).unwrap();
    e.add(Hp(5)).unwrap();
    e.disable::<Hp>();
    e.add(Mood::Angry { level: 3 }).unwrap();
    let mut e = world.entity_mut(wheel2).unwrap();
    e.add(Pos { x: 0.25, y: 0.0 }).unwrap();
    e.add(Hp(6)).unwrap();
    e.add(Mood::Calm).unwrap();
    e.add(Glow(2)).unwrap();
    e.set_layers(0b101);
    let mut e = world.entity_mut(ghost).unwrap();
    e.add(Mark).unwrap();
    e.add(Aim {
        one: Some(ghost),
        many: vec![wheel],
    })
    .unwrap();
    e.set_enabled(false);
    e.kill();
    let mut e = world.entity_mut(loose).unwrap();
    e.set_layers(0);
    world.insert_resource(Boss(Some(wheel)));
    world.insert_resource(Score(77));
    world.set_update_order::<(Glow, Spin)>();
    world
}

const JSON: &str = r#"{"format":"ecs-core/world","version":2,"update_order":["GoldenGlow","GoldenSpin"],"resources":[{"type":"GoldenBoss","data":1},{"type":"GoldenScore","data":77}],"name_order":[0,2,4,1],"entities":[{"id":0,"name":"car","children":[1,2],"components":[{"type":"GoldenPos","data":{"x":1.5,"y":-2.0}},{"type":"GoldenHp","data":30},{"type":"GoldenAim","data":{"one":2,"many":[3,0]}},{"type":"GoldenAim","data":{"one":null,"many":[]}},{"type":"GoldenSpin","data":1}]},{"id":1,"name":"wheel","components":[{"type":"GoldenPos","data":{"x":0.25,"y":0.0}},{"type":"GoldenHp","enabled":false,"data":5},{"type":"GoldenMood","data":{"Angry":{"level":3}}}]},{"id":2,"name":"wheel","layers":5,"children":[3],"components":[{"type":"GoldenPos","data":{"x":0.25,"y":0.0}},{"type":"GoldenHp","data":6},{"type":"GoldenMood","data":"Calm"},{"type":"GoldenGlow","data":2}]},{"id":3,"layers":0,"components":[]},{"id":4,"name":"ghost \"quoted\" é","enabled":false,"killed":true,"components":[{"type":"GoldenMark","data":null},{"type":"GoldenAim","data":{"one":4,"many":[1]}}]}]}"#;

const JSON_PRETTY: &str = r#"{
  "format": "ecs-core/world",
  "version": 2,
  "update_order": [
    "GoldenGlow",
    "GoldenSpin"
  ],
  "resources": [
    {
      "type": "GoldenBoss",
      "data": 1
    },
    {
      "type": "GoldenScore",
      "data": 77
    }
  ],
  "name_order": [
    0,
    2,
    4,
    1
  ],
  "entities": [
    {
      "id": 0,
      "name": "car",
      "children": [
        1,
        2
      ],
      "components": [
        {
          "type": "GoldenPos",
          "data": {
            "x": 1.5,
            "y": -2.0
          }
        },
        {
          "type": "GoldenHp",
          "data": 30
        },
        {
          "type": "GoldenAim",
          "data": {
            "one": 2,
            "many": [
              3,
              0
            ]
          }
        },
        {
          "type": "GoldenAim",
          "data": {
            "one": null,
            "many": []
          }
        },
        {
          "type": "GoldenSpin",
          "data": 1
        }
      ]
    },
    {
      "id": 1,
      "name": "wheel",
      "components": [
        {
          "type": "GoldenPos",
          "data": {
            "x": 0.25,
            "y": 0.0
          }
        },
        {
          "type": "GoldenHp",
          "enabled": false,
          "data": 5
        },
        {
          "type": "GoldenMood",
          "data": {
            "Angry": {
              "level": 3
            }
          }
        }
      ]
    },
    {
      "id": 2,
      "name": "wheel",
      "layers": 5,
      "children": [
        3
      ],
      "components": [
        {
          "type": "GoldenPos",
          "data": {
            "x": 0.25,
            "y": 0.0
          }
        },
        {
          "type": "GoldenHp",
          "data": 6
        },
        {
          "type": "GoldenMood",
          "data": "Calm"
        },
        {
          "type": "GoldenGlow",
          "data": 2
        }
      ]
    },
    {
      "id": 3,
      "layers": 0,
      "components": []
    },
    {
      "id": 4,
      "name": "ghost \"quoted\" é",
      "enabled": false,
      "killed": true,
      "components": [
        {
          "type": "GoldenMark",
          "data": null
        },
        {
          "type": "GoldenAim",
          "data": {
            "one": 4,
            "many": [
              1
            ]
          }
        }
      ]
    }
  ]
}"#;

/// The binary snapshot, as hex.
const BINARY_HEX: &str = "98ae6563732d636f72652f776f726c640292aa476f6c64656e476c6f77aa476f6c64656e5370696e9292aa476f6c6465\
    6e426f7373c6000000010192ab476f6c64656e53636f7265c6000000014d940002040198a9476f6c64656e506f73a847\
    6f6c64656e4870a9476f6c64656e41696daa476f6c64656e5370696ead476f6c64656e53637261746368aa476f6c6465\
    6e4d6f6f64aa476f6c64656e476c6f77aa476f6c64656e4d61726b93a3636172a5776865656cb167686f737420227175\
    6f7465642220c3a9959600000192010295000204040695c60000000b92ca3fc00000cac0000000c6000000011ec60000\
    00059202920300c60000000392c090c6000000010196010001909300030a93c60000000b92ca3e800000ca00000000c6\
    0000000105c60000000981a5416e67727991039601000591039400020a0c94c60000000b92ca3e800000ca00000000c6\
    0000000106c600000005a443616c6dc6000000010296c000009090909602030190920e0492c60000000190c600000004\
    92049101";

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn save(world: &World, format: SaveFormat) -> Vec<u8> {
    world
        .save(SaveOptions {
            format,
            ..SaveOptions::default()
        })
        .unwrap()
}

#[test]
fn saves_are_byte_identical_to_the_pinned_ones() {
    let world = golden_world(true);
    let json = String::from_utf8(save(&world, SaveFormat::Json)).unwrap();
    let pretty = String::from_utf8(save(&world, SaveFormat::JsonPretty)).unwrap();
    let binary = hex(&save(&world, SaveFormat::Binary));
    if std::env::var_os("ECS_PRINT_GOLDEN").is_some() {
        println!("JSON:\n{json}\nPRETTY:\n{pretty}\nBINARY:\n{binary}");
    }
    assert_eq!(json, JSON);
    assert_eq!(pretty, JSON_PRETTY);
    assert_eq!(binary, BINARY_HEX);
}

#[test]
fn pinned_saves_load_and_save_the_same_again() {
    for format in [SaveFormat::Json, SaveFormat::JsonPretty, SaveFormat::Binary] {
        let saved = save(&golden_world(false), format);
        let loaded = World::load(&saved).unwrap();
        assert_eq!(save(&loaded.world, format), saved, "{format:?}");
        // And across formats: what one format loads, another saves alike.
        for other in [SaveFormat::Json, SaveFormat::JsonPretty, SaveFormat::Binary] {
            let again = World::load(&save(&loaded.world, other)).unwrap().world;
            assert_eq!(save(&again, format), saved, "{format:?} via {other:?}");
        }
    }
}

/// `value` as compact JSON with every object's keys rotated left by `by`
/// (a keyed format may list them in any order).
fn rotated(value: &serde_json::Value, by: usize, out: &mut String) {
    match value {
        serde_json::Value::Object(map) => {
            let mut keys: Vec<_> = map.iter().collect();
            let n = keys.len().max(1);
            keys.rotate_left(by % n);
            out.push('{');
            for (i, (key, value)) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&serde_json::to_string(key).unwrap());
                out.push(':');
                rotated(value, by, out);
            }
            out.push('}');
        }
        serde_json::Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                rotated(item, by, out);
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

/// Whatever order a file gives the keys in (a component's data before its
/// type, an entity's flags after its components, the entities before the
/// header), the same world loads: the reader's guesses about a
/// component's table must fall back cleanly.
#[test]
fn key_order_does_not_matter() {
    let world = golden_world(false);
    let value: serde_json::Value = serde_json::from_str(JSON).unwrap();
    for by in 0..6 {
        let mut text = String::new();
        rotated(&value, by, &mut text);
        let loaded = World::load(text.as_bytes()).unwrap().world;
        assert_eq!(
            save(&loaded, SaveFormat::Json),
            save(&world, SaveFormat::Json)
        );
    }
}

/// Neighbours alike but for one component's type, its flag or its data's
/// presence each get their own components, in every format.
#[test]
fn alike_neighbours_keep_their_own() {
    let mut world = World::new();
    for k in 0..4u32 {
        let e = world
            .spawn_with((
                Pos {
                    x: k as f32,
                    y: 0.0,
                },
                Hp(k),
            ))
            .unwrap();
        if k == 1 {
            world.entity_mut(e).unwrap().disable::<Hp>();
        }
        if k == 2 {
            world.entity_mut(e).unwrap().remove::<Hp>().unwrap();
            world.entity_mut(e).unwrap().add(Mark).unwrap();
        }
    }
    for format in [SaveFormat::Json, SaveFormat::Binary] {
        let saved = save(&world, format);
        assert_eq!(save(&World::load(&saved).unwrap().world, format), saved);
    }
    // A component with no `data` reads its type's `null` or `{}`.
    let json = String::from_utf8(save(&world, SaveFormat::Json)).unwrap();
    let json = json.replace(r#","data":null"#, "");
    let loaded = World::load_json(&json).unwrap();
    assert_eq!(loaded.save_json().unwrap(), save_text(&world));
}

fn save_text(world: &World) -> String {
    String::from_utf8(save(world, SaveFormat::Json)).unwrap()
}
