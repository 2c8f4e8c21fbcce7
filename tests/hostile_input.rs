//! Blueprint and save-file loading fed hostile input: truncated, deeply
//! nested, huge, wrongly typed and random. Always a typed error or a
//! success, never a panic, and a failed spawn leaves the world unchanged.

use ecs_core::prelude::*;
use proptest::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

#[derive(Component, Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
struct Transform {
    x: f32,
    y: f32,
}

#[derive(Component, Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Model {
    mesh: String,
}

#[derive(Component, Debug, Clone, PartialEq, Serialize, Deserialize)]
#[component(multiple)]
struct Tag(String);

#[derive(Component, Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[component(requires(Transform))]
struct Enemy;

fn cases() -> u32 {
    std::env::var("HOSTILE_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000)
}

/// Any JSON value, biased towards the shapes blueprints use.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| json!(f)),
        prop_oneof![
            Just("Transform".to_owned()),
            Just("Model".to_owned()),
            Just("Tag".to_owned()),
            Just("Enemy".to_owned()),
            Just("type".to_owned()),
            Just("data".to_owned()),
            ".{0,12}"
        ]
        .prop_map(Value::String),
    ];
    leaf.prop_recursive(6, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec(
                (
                    prop_oneof![
                        Just("id".to_owned()),
                        Just("tag".to_owned()),
                        Just("name".to_owned()),
                        Just("components".to_owned()),
                        Just("children".to_owned()),
                        Just("type".to_owned()),
                        Just("data".to_owned()),
                        Just("enabled".to_owned()),
                        Just("mesh".to_owned()),
                        Just("x".to_owned()),
                        "[a-z]{1,6}"
                    ],
                    inner
                ),
                0..6
            )
            .prop_map(|fields| Value::Object(fields.into_iter().collect())),
        ]
    })
}

/// A blueprint-shaped value with random (often wrong) component entries.
fn blueprint_like() -> impl Strategy<Value = Value> {
    let component = (
        prop_oneof![
            Just(json!("Transform")),
            Just(json!("Model")),
            Just(json!("Tag")),
            Just(json!("Enemy")),
            json_value()
        ],
        json_value(),
    )
        .prop_map(|(ty, data)| json!({ "type": ty, "data": data }));
    (
        prop::collection::vec(component, 0..5),
        prop::option::of(json_value()),
    )
        .prop_map(|(components, extra)| {
            let mut bp = json!({ "tag": "fuzz", "components": components });
            if let Some(extra) = extra {
                bp["children"] = json!([{ "components": [ { "type": "Tag", "data": extra } ] }]);
            }
            bp
        })
}

const OPEN_BRACE: char = '{';

fn world_with_one() -> World {
    let mut world = World::new();
    world.spawn_with((Transform { x: 1.0, y: 1.0 },)).unwrap();
    world
}

fn snapshot(world: &World) -> String {
    world.save_json().unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    #[test]
    fn random_values_never_panic_and_failures_change_nothing(value in prop_oneof![json_value(), blueprint_like()]) {
        let mut world = world_with_one();
        let before = snapshot(&world);
        match Blueprint::from_value(&value).and_then(|bp| world.spawn_blueprint(&bp)) {
            Ok(id) => prop_assert!(world.contains(id)),
            Err(error) => {
                prop_assert!(!error.to_string().is_empty());
                prop_assert_eq!(snapshot(&world), before);
            }
        }
        // The same value as a saved world: loads or is refused, never panics.
        let _ = World::load_value(&value);
    }

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        let text = String::from_utf8_lossy(&bytes);
        let looks_like_an_object = text.trim_start().starts_with(OPEN_BRACE);
        prop_assert!(Blueprint::from_json(&text).is_err() || looks_like_an_object);
        let _ = World::load_json(&text);
    }

    #[test]
    fn truncated_saves_are_refused(cut in 0usize..1000) {
        let mut world = World::new();
        let a = world.spawn_named("a");
        world.entity_mut(a).unwrap().add(Model { mesh: "m".into() }).unwrap();
        world.entity_mut(a).unwrap().add(Tag("t".into())).unwrap();
        let b = world.spawn_with((Transform::default(),)).unwrap();
        world.set_parent(b, a).unwrap();
        let json = world.save_json().unwrap();
        let cut = cut.min(json.len().saturating_sub(1));
        if json.is_char_boundary(cut) {
            prop_assert!(World::load_json(&json[..cut]).is_err());
        }
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    for depth in [100, 1_000, 100_000] {
        let text = format!("{}{}", "{\"children\": [".repeat(depth), "]}".repeat(depth));
        let err = Blueprint::from_json(&text).unwrap_err();
        assert!(matches!(err, Error::Data { .. }), "{err}");
        assert!(World::load_json(&text).is_err());
    }
    let mut value = json!({});
    for _ in 0..200 {
        value = json!({ "children": [value] });
    }
    let err = Blueprint::from_value(&value).unwrap_err().to_string();
    assert!(err.contains("nested deeper than"), "{err}");
}

#[test]
fn huge_inputs_are_handled() {
    // A long string, many components, a big number.
    let mesh = "x".repeat(1 << 20);
    let bp = Blueprint::from_value(
        &json!({ "components": [{ "type": "Model", "data": { "mesh": mesh } }] }),
    )
    .unwrap();
    let mut world = World::new();
    let id = world.spawn_blueprint(&bp).unwrap();
    assert_eq!(
        world.entity(id).unwrap().get::<Model>().unwrap().mesh.len(),
        1 << 20
    );

    let many: Vec<Value> = (0..10_000)
        .map(|i| json!({ "type": "Tag", "data": i.to_string() }))
        .collect();
    let bp = Blueprint::from_value(&json!({ "components": many })).unwrap();
    let id = world.spawn_blueprint(&bp).unwrap();
    assert_eq!(world.entity(id).unwrap().get_all::<Tag>().count(), 10_000);

    let err = Blueprint::from_json(r#"{"id": 1e400}"#)
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("(root): not valid JSON") || err.starts_with("id:"),
        "{err}"
    );
}

#[test]
fn wrong_types_everywhere_name_their_path() {
    let cases = [
        (json!({"id": "ten"}), "id: expected a non-negative integer"),
        (json!({"id": -1}), "id: expected a non-negative integer"),
        (json!({"tag": 3}), "tag: expected a string"),
        (json!({"name": []}), "name: expected a string"),
        (
            json!({"children": [3]}),
            "children[0]: expected a blueprint object",
        ),
        (
            json!({"components": [{"type": "Tag", "enabled": "no"}]}),
            "components[0].enabled: expected true or false",
        ),
        (
            json!({"components": [{"type": "Model", "data": {"mesh": ["a"]}}]}),
            "components[0].data.mesh: invalid type",
        ),
        (
            json!({"components": [{"type": "Model", "data": 5}]}),
            "components[0].data: invalid type",
        ),
    ];
    for (value, expected) in cases {
        let mut world = world_with_one();
        let err = Blueprint::from_value(&value)
            .and_then(|bp| world.spawn_blueprint(&bp))
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with(expected),
            "{value}\n  got: {err}\n want: {expected}"
        );
        assert_eq!(world.len(), 1);
    }
}

#[test]
fn saved_world_structure_errors_are_typed() {
    let base = json!({ "format": "ecs-core/world", "version": 1, "entities": [
        { "id": 0, "children": [1], "components": [] },
        { "id": 1, "children": [], "components": [] }
    ]});
    assert_eq!(World::load_value(&base).unwrap().len(), 2);
    let mut wrong_id = base.clone();
    wrong_id["entities"][1]["id"] = json!(7);
    let mut self_child = base.clone();
    self_child["entities"][0]["children"] = json!([0]);
    let mut cycle = base.clone();
    cycle["entities"][1]["children"] = json!([0]);
    let mut out_of_range = base.clone();
    out_of_range["entities"][0]["children"] = json!([9]);
    let mut bad_layers = base.clone();
    bad_layers["entities"][0]["layers"] = json!(1u64 << 40);
    let mut version = base.clone();
    version["version"] = json!(2);
    for (value, path) in [
        (wrong_id, "entities[1].id"),
        (self_child, "entities[0].children[0]"),
        (cycle, "entities[0]"),
        (out_of_range, "entities[0].children[0]"),
        (bad_layers, "entities[0].layers"),
        (version, "version"),
    ] {
        match World::load_value(&value) {
            Err(Error::Data { path: got, .. }) => assert_eq!(got, path),
            other => panic!(
                "{value}: expected a data error at {path}, got {:?}",
                other.map(|w| w.len())
            ),
        }
    }
}
