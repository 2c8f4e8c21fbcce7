//! Blueprint and save-file loading fed hostile input: truncated, deeply
//! nested, huge, wrongly typed, random values and random text shaped like
//! the two formats (so it gets past the JSON parser into the readers).
//! Always a typed error or a success, never a panic, and a failed spawn
//! leaves the world unchanged.

use ecs_core::prelude::*;
use proptest::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

mod common;
use common::{Enemy, Transform};

#[derive(Component, Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Model {
    mesh: String,
}

#[derive(Component, Debug, Clone, PartialEq, Serialize, Deserialize)]
#[component(multiple)]
struct Tag(String);

/// The keys of blueprints and saved worlds (and of this file's components'
/// data), now and then a made-up one.
const KEYS: [&str; 16] = [
    "id",
    "tag",
    "name",
    "components",
    "type",
    "data",
    "enabled",
    "children",
    "format",
    "version",
    "entities",
    "killed",
    "layers",
    "mesh",
    "x",
    "y",
];

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => prop::sample::select(&KEYS[..]).prop_map(str::to_owned),
        1 => "[a-z]{1,6}",
    ]
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
            prop::collection::vec((key(), inner), 0..6)
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

/// A field that is mostly right (`right`), sometimes of any kind, sometimes
/// missing.
fn field(
    key: &'static str,
    right: impl Strategy<Value = Value>,
) -> impl Strategy<Value = Option<(String, Value)>> {
    prop_oneof![
        1 => Just(None),
        6 => right.prop_map(move |v| Some((key.to_owned(), v))),
        1 => json_value().prop_map(move |v| Some((key.to_owned(), v))),
    ]
}

/// Now and then a field no format has, or a real key in the wrong place.
fn stray_field() -> impl Strategy<Value = Option<(String, Value)>> {
    prop::option::weighted(0.1, (key(), json_value()))
}

fn object(fields: impl IntoIterator<Item = Option<(String, Value)>>) -> Value {
    Value::Object(fields.into_iter().flatten().collect())
}

/// A blueprint's component entry: a registered type (or a near miss) with
/// data of its shape, now and then of another.
fn component_entry() -> impl Strategy<Value = Value> {
    let typed = prop_oneof![
        (-1e3f64..1e3, -1e3f64..1e3).prop_map(|(x, y)| ("Transform", json!({ "x": x, "y": y }))),
        "[a-z]{0,6}".prop_map(|mesh| ("Model", json!({ "mesh": mesh }))),
        "[a-z]{0,6}".prop_map(|tag| ("Tag", json!(tag))),
        Just(("Enemy", Value::Null)),
        Just(("Modle", json!({ "mesh": "m" }))),
    ];
    typed
        .prop_flat_map(|(name, data)| {
            (
                field("type", Just(json!(name))),
                field("data", Just(data)),
                prop::option::weighted(0.3, field("enabled", any::<bool>().prop_map(Value::Bool))),
                stray_field(),
            )
        })
        .prop_map(|(ty, data, enabled, stray)| object([ty, data, enabled.flatten(), stray]))
}

fn components() -> impl Strategy<Value = Value> {
    prop::collection::vec(component_entry(), 0..4).prop_map(Value::Array)
}

/// A blueprint document: the real fields, mostly of the right kind, with
/// children that are blueprints too.
fn blueprint_document() -> impl Strategy<Value = Value> {
    fn node(children: impl Strategy<Value = Value>) -> impl Strategy<Value = Value> {
        (
            field("id", any::<u16>().prop_map(|n| json!(n))),
            field("tag", "[a-z]{1,6}".prop_map(Value::String)),
            field("name", "[a-z]{1,6}".prop_map(Value::String)),
            field("components", components()),
            field("children", children),
            stray_field(),
        )
            .prop_map(|(id, tag, name, comps, children, stray)| {
                object([id, tag, name, comps, children, stray])
            })
    }
    node(Just(json!([]))).prop_recursive(3, 16, 3, |inner| {
        node(prop::collection::vec(inner, 0..3).prop_map(Value::Array))
    })
}

/// A saved-world document: format, version and entities whose ids are
/// mostly their positions and whose children mostly come after them.
fn saved_world_document() -> impl Strategy<Value = Value> {
    let entity = (
        field("name", "[a-z]{1,6}".prop_map(Value::String)),
        field("enabled", any::<bool>().prop_map(Value::Bool)),
        field("killed", any::<bool>().prop_map(Value::Bool)),
        field("layers", any::<u32>().prop_map(|n| json!(n))),
        field("components", components()),
        field(
            "children",
            prop::collection::vec(1u64..4, 0..3).prop_map(|offsets| json!(offsets)),
        ),
        0u8..8,
        stray_field(),
    );
    (
        field("format", Just(json!("ecs-core/world"))),
        field("version", Just(json!(1))),
        prop::collection::vec(entity, 0..5),
        stray_field(),
    )
        .prop_map(|(format, version, entities, stray)| {
            let entities = entities
                .into_iter()
                .enumerate()
                .map(
                    |(i, (name, enabled, killed, layers, comps, children, id, stray))| {
                        let id = match id {
                            0 => None,
                            1 => Some(("id".to_owned(), json!(i + 1))),
                            _ => Some(("id".to_owned(), json!(i))),
                        };
                        // Children are offsets from the entity's own id.
                        let children = children.map(|(key, offsets)| match offsets {
                            Value::Array(offsets) => {
                                let ids = offsets
                                    .iter()
                                    .filter_map(Value::as_u64)
                                    .map(|o| i as u64 + o);
                                (key, json!(ids.collect::<Vec<_>>()))
                            }
                            other => (key, other),
                        });
                        object([id, name, enabled, killed, layers, comps, children, stray])
                    },
                )
                .collect();
            object([
                format,
                version,
                Some(("entities".to_owned(), Value::Array(entities))),
                stray,
            ])
        })
}

/// Valid documents of both formats, in ASCII (so any byte offset is a
/// char boundary).
fn valid_documents() -> Vec<Value> {
    let mut world = World::new();
    let a = world.spawn_named("a");
    let mut e = world.entity_mut(a).unwrap();
    e.add(Model { mesh: "m".into() }).unwrap();
    e.add(Tag("t".into())).unwrap();
    e.add(Tag("u".into())).unwrap();
    e.add(Enemy).unwrap();
    e.disable::<Model>();
    let b = world.spawn_with((Transform { x: 1.5, y: -2.0 },)).unwrap();
    world.set_parent(b, a).unwrap();
    world.entity_mut(b).unwrap().kill();
    world.spawn_named("c");
    let saved = world.save_value().unwrap();
    let blueprint = json!({
        "id": 3, "tag": "crate", "name": "crate-1",
        "components": [
            { "type": "Transform", "data": { "x": 1, "y": 2 } },
            { "type": "Model", "data": { "mesh": "box" } },
            { "type": "Tag", "data": "loot", "enabled": false },
            { "type": "Enemy" }
        ],
        "children": [{ "components": [{ "type": "Tag", "data": "lid" }] }]
    });
    assert!(World::load_value(&saved).is_ok());
    assert!(Blueprint::from_value(&blueprint).is_ok());
    vec![saved, blueprint]
}

/// A text edit: at a position, remove some bytes or insert a fragment.
#[derive(Clone, Debug)]
enum Edit {
    Remove(prop::sample::Index, usize),
    Insert(prop::sample::Index, &'static str),
}

fn edit() -> impl Strategy<Value = Edit> {
    let fragment = prop::sample::select(vec![
        "{",
        "}",
        "[",
        "]",
        ":",
        ",",
        "\"",
        "\\",
        "null",
        "true",
        "-1",
        "1e400",
        "0.5",
        "\"Tag\"",
        "\"type\":",
        "\"components\":",
        "\"children\": [0]",
        "{}",
        "[]",
    ]);
    prop_oneof![
        (any::<prop::sample::Index>(), 1usize..12).prop_map(|(at, n)| Edit::Remove(at, n)),
        (any::<prop::sample::Index>(), fragment).prop_map(|(at, f)| Edit::Insert(at, f)),
    ]
}

fn apply(mut text: String, edits: &[Edit]) -> String {
    for e in edits {
        match e {
            Edit::Remove(at, n) if !text.is_empty() => {
                let at = at.index(text.len());
                text.replace_range(at..(at + n).min(text.len()), "");
            }
            Edit::Remove(..) => {}
            Edit::Insert(at, fragment) => {
                let at = at.index(text.len() + 1);
                text.insert_str(at, fragment);
            }
        }
    }
    text
}

/// JSON pointers to every node of `value`, the root first.
fn pointers(value: &Value, here: String, out: &mut Vec<String>) {
    out.push(here.clone());
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                let k = k.replace('~', "~0").replace('/', "~1");
                pointers(v, format!("{here}/{k}"), out);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                pointers(v, format!("{here}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// One node of a valid document replaced by any value, or removed.
fn replace_node(mut doc: Value, at: prop::sample::Index, with: Option<Value>) -> Value {
    let mut all = Vec::new();
    pointers(&doc, String::new(), &mut all);
    let target = &all[at.index(all.len())];
    match with {
        Some(value) => *doc.pointer_mut(target).expect("a node of doc") = value,
        None => {
            let (parent, last) = target.rsplit_once('/').unwrap_or(("", ""));
            match doc.pointer_mut(parent) {
                Some(Value::Object(map)) => {
                    map.remove(&last.replace("~1", "/").replace("~0", "~"));
                }
                Some(Value::Array(items)) => {
                    if let Ok(i) = last.parse::<usize>() {
                        items.remove(i);
                    }
                }
                _ => doc = Value::Null,
            }
        }
    }
    doc
}

/// JSON text shaped like the loaders' input, so most of it gets past the
/// JSON parser into the blueprint and save readers: documents built from
/// the real keys with values of mixed kinds, and valid documents cut short,
/// edited as text or with one node replaced.
fn json_text() -> impl Strategy<Value = String> {
    let valid = prop::sample::select(valid_documents());
    prop_oneof![
        2 => blueprint_document().prop_map(|v| v.to_string()),
        2 => saved_world_document().prop_map(|v| v.to_string()),
        1 => (valid.clone(), any::<prop::sample::Index>()).prop_map(|(doc, cut)| {
            let text = doc.to_string();
            text[..cut.index(text.len())].to_owned()
        }),
        2 => (valid.clone(), prop::collection::vec(edit(), 1..4))
            .prop_map(|(doc, edits)| apply(doc.to_string(), &edits)),
        2 => (valid, any::<prop::sample::Index>(), prop::option::weighted(0.8, json_value()))
            .prop_map(|(doc, at, with)| replace_node(doc, at, with).to_string()),
    ]
}

fn world_with_one() -> World {
    let mut world = World::new();
    world.spawn_with((Transform { x: 1.0, y: 1.0 },)).unwrap();
    world
}

fn snapshot(world: &World) -> String {
    world.save_json().unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: common::cases("HOSTILE_CASES", 1000), ..ProptestConfig::default() })]

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
    fn json_text_never_panics_and_failures_change_nothing(text in json_text()) {
        let mut world = world_with_one();
        let before = snapshot(&world);
        match Blueprint::from_json(&text).and_then(|bp| world.spawn_blueprint(&bp)) {
            Ok(id) => prop_assert!(world.contains(id)),
            Err(error) => {
                prop_assert!(matches!(error, Error::Data { .. }), "{:?}", error);
                prop_assert_eq!(snapshot(&world), before);
            }
        }
        match World::load_json(&text) {
            Ok(loaded) => prop_assert!(loaded.save_json().is_ok()),
            Err(error) => prop_assert!(matches!(error, Error::Data { .. }), "{:?}", error),
        }
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

    // Beyond f64: serde_json refuses the number itself.
    let err = Blueprint::from_json(r#"{"id": 1e400}"#)
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("(root): not valid JSON: number out of range"),
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
            "components[0](Model).data.mesh: invalid type",
        ),
        (
            json!({"components": [{"type": "Model", "data": 5}]}),
            "components[0](Model).data: invalid type",
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
    version["version"] = json!(3);
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

// ---------------------------------------------------------- binary format

/// A binary snapshot of a small world with a bit of everything.
fn binary_snapshot() -> Vec<u8> {
    let mut world = World::new();
    let a = world.spawn_named("a");
    world
        .entity_mut(a)
        .unwrap()
        .add(Model { mesh: "m".into() })
        .unwrap();
    world.entity_mut(a).unwrap().add(Tag("t".into())).unwrap();
    let b = world.spawn_with((Transform { x: 1.5, y: -2.0 },)).unwrap();
    world.set_parent(b, a).unwrap();
    world.entity_mut(b).unwrap().kill();
    world.spawn_named("c");
    world.save_binary().unwrap()
}

/// One edit of a binary snapshot.
#[derive(Debug, Clone)]
enum ByteEdit {
    Set(prop::sample::Index, u8),
    Insert(prop::sample::Index, u8),
    Remove(prop::sample::Index),
}

fn byte_edit() -> impl Strategy<Value = ByteEdit> {
    prop_oneof![
        (any::<prop::sample::Index>(), any::<u8>()).prop_map(|(i, b)| ByteEdit::Set(i, b)),
        (any::<prop::sample::Index>(), any::<u8>()).prop_map(|(i, b)| ByteEdit::Insert(i, b)),
        any::<prop::sample::Index>().prop_map(ByteEdit::Remove),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: common::cases("HOSTILE_CASES", 1000), ..ProptestConfig::default() })]

    #[test]
    fn edited_binary_snapshots_load_or_are_refused(edits in prop::collection::vec(byte_edit(), 1..6)) {
        let mut bytes = binary_snapshot();
        for edit in edits {
            match edit {
                ByteEdit::Set(i, b) => {
                    let i = i.index(bytes.len());
                    bytes[i] = b;
                }
                ByteEdit::Insert(i, b) => {
                    let i = i.index(bytes.len() + 1);
                    bytes.insert(i, b);
                }
                ByteEdit::Remove(i) => {
                    let i = i.index(bytes.len());
                    bytes.remove(i);
                }
            }
        }
        match World::load_binary(&bytes) {
            // What loads saves again, in both formats.
            Ok(loaded) => {
                let again = loaded.save_binary().unwrap();
                prop_assert_eq!(World::load_binary(&again).unwrap().save_binary().unwrap(), again);
            }
            Err(error) => prop_assert!(matches!(error, Error::Data { .. } | Error::UnknownEntity { .. }), "{:?}", error),
        }
    }

    #[test]
    fn truncated_binary_snapshots_are_refused(cut in 0usize..400) {
        let bytes = binary_snapshot();
        let cut = cut.min(bytes.len() - 1);
        prop_assert!(World::load_binary(&bytes[..cut]).is_err());
    }
}

#[test]
fn binary_lengths_that_lie_are_refused_without_allocating_them() {
    // An array header claiming 2^32 - 1 entities, then nothing.
    let mut bytes = binary_snapshot();
    let world = World::load_binary(&bytes).unwrap();
    assert_eq!(world.len(), 3);
    // The entity count sits right before the first entity; find it by
    // rewriting every 0x93 (array of 3) to a 32-bit array of u32::MAX.
    let at = bytes.iter().rposition(|&b| b == 0x93).unwrap();
    bytes.splice(at..=at, [0xdd, 0xff, 0xff, 0xff, 0xff]);
    assert!(World::load_binary(&bytes).is_err());
    assert!(World::load(b"").is_err());
    assert!(World::load(&[0x97]).is_err());
}

#[test]
fn a_lying_entity_count_after_real_entities_makes_no_room_for_them() {
    // The reader makes room ahead for the entities left once a table has
    // 8 and 16 rows; here the file claims 2^32 - 1 entities after its
    // 16 real ones, and that room must stay within what its bytes hold.
    let mut world = World::new();
    for i in 0..16 {
        world
            .spawn_with((Transform {
                x: i as f32,
                y: 0.0,
            },))
            .unwrap();
    }
    let mut bytes = world.save_binary().unwrap();
    assert_eq!(World::load_binary(&bytes).unwrap().len(), 16);
    // No names (an empty array), then the entities: an array of 16.
    let at = bytes
        .windows(4)
        .position(|w| w == [0x90, 0xdc, 0x00, 0x10])
        .unwrap()
        + 1;
    bytes.splice(at..at + 3, [0xdd, 0xff, 0xff, 0xff, 0xff]);
    assert!(World::load_binary(&bytes).is_err());
}

// ----------------------------------------------------------- variant chains

#[derive(Debug, Clone)]
struct ChainSpec {
    /// Each blueprint's base, by index (a cycle when it points forward
    /// along a loop).
    bases: Vec<Option<usize>>,
}

proptest! {
    #![proptest_config(ProptestConfig { cases: common::cases("HOSTILE_CASES", 500), ..ProptestConfig::default() })]

    #[test]
    fn variant_chains_resolve_or_name_their_cycle(
        bases in prop::collection::vec(prop::option::of(0usize..12), 1..12),
        xs in prop::collection::vec(-100i32..100, 12),
    ) {
        let spec = ChainSpec { bases };
        let mut library = ecs_core::BlueprintLibrary::default();
        let mut result = Ok(());
        // Insert bases before variants where possible; what is left (a
        // variant whose base comes later or a cycle) must fail cleanly.
        for (i, base) in spec.bases.iter().enumerate() {
            let mut value = json!({ "components": [{ "type": "Transform", "data": { "x": xs[i] } }] });
            if let Some(b) = base {
                value["extend"] = json!(format!("bp{b}"));
            }
            let bp = Blueprint::from_value(&value).unwrap();
            if let Err(e) = library.insert(format!("bp{i}"), bp) {
                prop_assert!(matches!(e, Error::Data { .. }), "{:?}", e);
                let text = e.to_string();
                prop_assert!(text.contains("no blueprint is tagged") || text.contains("cycle"), "{}", text);
                result = Err(());
            }
        }
        // Every blueprint that made it in spawns, with its own `x`.
        let mut world = World::new();
        for tag in library.tags().map(str::to_owned).collect::<Vec<_>>() {
            let id = world.spawn_blueprint(library.get(&tag).unwrap()).unwrap();
            let i: usize = tag[2..].parse().unwrap();
            prop_assert_eq!(world.entity(id).unwrap().get::<Transform>().unwrap().x, xs[i] as f32);
        }
        let _ = result;
    }
}

#[test]
fn a_variant_cycle_names_its_chain_and_a_deep_chain_resolves() {
    let dir = std::env::temp_dir().join(format!("ecs-variants-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("a.json"), r#"{"extend": "b", "components": []}"#).unwrap();
    std::fs::write(dir.join("b.json"), r#"{"extend": "c", "components": []}"#).unwrap();
    std::fs::write(dir.join("c.json"), r#"{"extend": "a", "components": []}"#).unwrap();
    let err = ecs_core::BlueprintLibrary::load_dir(&dir)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("variants form a cycle: a extends b extends c extends a"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();

    // 5,000 levels: no recursion on the chain.
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("v0.json"),
        r#"{"components": [{"type": "Transform", "data": {"x": 0}}]}"#,
    )
    .unwrap();
    for i in 1..5_000 {
        let json = format!(
            r#"{{"extend": "v{}", "components": [{{"type": "Transform", "data": {{"y": {i}}}}}]}}"#,
            i - 1
        );
        std::fs::write(dir.join(format!("v{i}.json")), json).unwrap();
    }
    let library = ecs_core::BlueprintLibrary::load_dir(&dir).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let mut world = World::new();
    let id = world
        .spawn_blueprint(library.get("v4999").unwrap())
        .unwrap();
    assert_eq!(
        world.entity(id).unwrap().get::<Transform>(),
        Some(&Transform { x: 0.0, y: 4999.0 })
    );
}
