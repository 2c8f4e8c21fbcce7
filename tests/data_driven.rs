//! Components by name, clone, JSON blueprints, save and load.

use ecs_core::prelude::*;
use ecs_core::{component_type, name_conflicts, registered_components, BlueprintLibrary};
use serde::{Deserialize, Serialize};

// `common::Enemy` (requires `Transform`) is used by name only.
mod common;
use common::{AxisMoving, Moving, Transform};

#[derive(Component, Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Model {
    mesh: String,
    #[serde(default)]
    should_render: bool,
}

#[derive(Component, Debug, Clone, PartialEq, Serialize, Deserialize)]
#[component(multiple, name = "collider")]
struct Collider {
    radius: f32,
}

/// Not `Clone`, not serde.
#[derive(Component, Debug)]
struct Opaque;

/// Not serde, but left out of saves on purpose.
#[derive(Component, Debug, Clone)]
#[component(transient)]
struct CacheHandle(u64);

mod elsewhere {
    use ecs_core::Component;
    /// Claims a name another type has: detected, never silently picked.
    #[derive(Component, Default)]
    #[component(name = "Clash")]
    pub struct ClashA;
    #[derive(Component, Default)]
    #[component(name = "Clash")]
    pub struct ClashB;
}

#[test]
fn every_derived_component_is_found_by_name_with_its_parents() {
    let axis = component_type("AxisMoving").unwrap();
    assert_eq!(axis.parents().collect::<Vec<_>>(), ["Moving"]);
    assert!(axis.type_name().ends_with("AxisMoving"));
    assert!(registered_components().any(|c| c.name() == "collider"));
    let err = component_type("Transfrom").unwrap_err();
    assert_eq!(
        err,
        Error::UnknownComponent {
            name: "Transfrom".into(),
            suggestion: Some("Transform")
        }
    );
}

#[test]
fn two_types_with_one_name_are_reported_with_both_paths() {
    let conflicts = name_conflicts();
    let clash = conflicts.iter().find(|(name, _)| *name == "Clash").unwrap();
    assert_eq!(clash.1.len(), 2);
    assert!(clash.1.iter().any(|p| p.ends_with("elsewhere::ClashA")));
    assert!(clash.1.iter().any(|p| p.ends_with("elsewhere::ClashB")));
    let err = component_type("Clash").unwrap_err();
    assert!(matches!(err, Error::AmbiguousName { name: "Clash", .. }));
    assert!(err.to_string().contains("ClashA") && err.to_string().contains("ClashB"));
}

#[test]
fn add_has_get_and_remove_by_name() {
    let mut world = World::new();
    let id = world.spawn();
    let mut e = world.entity_mut(id).unwrap();
    e.add_by_name("AxisMoving").unwrap();
    assert!(e.has::<Moving>());
    assert_eq!(
        e.add_by_name("Moving").unwrap_err(),
        Error::Duplicate {
            entity: id,
            adding: "Moving",
            existing: "AxisMoving",
            single: "Moving"
        }
    );
    assert_eq!(
        e.add_by_name("Opaque").unwrap_err(),
        Error::Lacks {
            name: "Opaque",
            capability: "`Default`"
        }
    );
    e.add_by_name("Enemy").unwrap();
    assert!(e.has::<Transform>(), "requirements apply by name too");
    let r = world.entity(id).unwrap();
    assert!(r.has_by_name("Moving").unwrap(), "is-a by name");
    assert_eq!(
        r.get_by_name("Moving").unwrap().unwrap().name(),
        "AxisMoving"
    );
    assert!(!r.has_by_name("collider").unwrap());
    assert!(r.has_by_name("Nope").is_err());
    let mut e = world.entity_mut(id).unwrap();
    assert!(!e.remove_by_name("Moving").unwrap(), "exact type only");
    assert!(e.remove_by_name("AxisMoving").unwrap());
    assert!(!e.has::<Moving>());
}

#[test]
fn clone_copies_components_flags_and_subtree() {
    let mut world = World::new();
    let car = world.spawn_named("car");
    world
        .entity_mut(car)
        .unwrap()
        .add(Transform { x: 1.0, y: 2.0 })
        .unwrap();
    world
        .entity_mut(car)
        .unwrap()
        .add(Collider { radius: 1.0 })
        .unwrap();
    world
        .entity_mut(car)
        .unwrap()
        .add(Collider { radius: 2.0 })
        .unwrap();
    world.entity_mut(car).unwrap().disable::<Transform>();
    world.entity_mut(car).unwrap().set_layers(0b100);
    let wheel = world.spawn_with((Moving { speed: 3.0 },)).unwrap();
    world.set_parent(wheel, car).unwrap();

    let flat = world.clone_entity(car).unwrap();
    let e = world.entity(flat).unwrap();
    assert_eq!(e.name(), Some("car"));
    assert_eq!(e.layers(), 0b100);
    assert_eq!(
        e.get_all::<Collider>()
            .map(|c| c.radius)
            .collect::<Vec<_>>(),
        [1.0, 2.0]
    );
    assert_eq!(
        e.get_filtered::<Transform>(Filter::Disabled),
        Some(&Transform { x: 1.0, y: 2.0 })
    );
    assert_eq!(e.children().count(), 0);
    assert_eq!(e.parent(), None);

    let deep = world.clone_tree(car).unwrap();
    let child = world.entity(deep).unwrap().children().next().unwrap();
    assert_ne!(child, wheel);
    assert_eq!(
        world.entity(child).unwrap().get::<Moving>(),
        Some(&Moving { speed: 3.0 })
    );
    assert_eq!(world.len(), 5);
}

#[test]
fn cloning_a_non_clone_component_fails_and_creates_nothing() {
    let mut world = World::new();
    let parent = world.spawn_with((Transform::default(),)).unwrap();
    let child = world.spawn_with((Opaque,)).unwrap();
    world.set_parent(child, parent).unwrap();
    let before = world.len();
    let err = world.clone_tree(parent).unwrap_err();
    assert_eq!(
        err,
        Error::Lacks {
            name: "Opaque",
            capability: "`Clone`"
        }
    );
    assert_eq!(world.len(), before);
    assert_eq!(world.iter::<Transform>().count(), 1);
    assert!(
        world.clone_entity(parent).is_ok(),
        "the parent alone is cloneable"
    );
}

const HAZMAT: &str = r#"{
  "id": 10,
  "tag": "Hazmat",
  "components": [
    { "type": "Transform", "data": { "x": 1, "y": 2 } },
    { "type": "Model", "data": { "mesh": "Assets/Hazmat.fbx", "should_render": true } },
    { "type": "collider", "data": { "radius": 0.5 } },
    { "type": "collider", "data": { "radius": 1.5 }, "enabled": false }
  ],
  "children": [
    { "name": "hazmat-hat", "components": [ { "type": "AxisMoving", "data": { "base": { "speed": 2 }, "vertical": true } } ] }
  ]
}"#;

#[test]
fn a_blueprint_spawns_its_entity_and_children() {
    let bp = Blueprint::from_json(HAZMAT).unwrap();
    assert_eq!((bp.id, bp.tag.as_deref()), (Some(10), Some("Hazmat")));
    let mut world = World::new();
    let id = world.spawn_blueprint(&bp).unwrap();
    let e = world.entity(id).unwrap();
    assert_eq!(e.name(), Some("Hazmat"));
    assert_eq!(e.get::<Transform>(), Some(&Transform { x: 1.0, y: 2.0 }));
    assert_eq!(e.get::<Model>().unwrap().mesh, "Assets/Hazmat.fbx");
    assert_eq!(e.get_all_filtered::<Collider>(Filter::Enabled).count(), 1);
    let hat = e.children().next().unwrap();
    assert_eq!(world.entity(hat).unwrap().name(), Some("hazmat-hat"));
    assert_eq!(
        world.entity(hat).unwrap().get::<Moving>().unwrap().speed,
        2.0
    );

    let many = world.spawn_blueprints(&bp, 100).unwrap();
    assert_eq!(many.len(), 100);
    assert_eq!(world.len(), 202);
}

#[test]
fn many_copies_of_a_flat_blueprint_keep_names_flags_and_values() {
    let bp = Blueprint::from_json(
        r#"{"tag": "Crate", "components": [
            { "type": "Transform", "data": { "x": 3, "y": 4 } },
            { "type": "collider", "data": { "radius": 1.5 }, "enabled": false }
        ]}"#,
    )
    .unwrap();
    let mut world = World::new();
    let ids = world.spawn_blueprints(&bp, 50).unwrap();
    assert_eq!(ids.len(), 50);
    let mut instances = std::collections::HashSet::new();
    for &id in &ids {
        let e = world.entity(id).unwrap();
        assert_eq!(e.name(), Some("Crate"));
        assert_eq!(e.get::<Transform>(), Some(&Transform { x: 3.0, y: 4.0 }));
        assert_eq!(e.get_all_filtered::<Collider>(Filter::Enabled).count(), 0);
        assert_eq!(e.get_all_filtered::<Collider>(Filter::Disabled).count(), 1);
        instances.extend(e.components().map(|c| c.instance));
    }
    assert_eq!(
        instances.len(),
        100,
        "every copy's components are distinct instances"
    );

    // A bad value in the second component: refused when parsed, naming
    // the type; nothing is made.
    let bad = Blueprint::from_json(
        r#"{"components": [
            { "type": "Transform", "data": { "x": 3, "y": 4 } },
            { "type": "collider", "data": { "radius": "big" } }
        ]}"#,
    );
    let err = bad.unwrap_err().to_string();
    assert!(
        err.starts_with("components[1](collider).data.radius"),
        "{err}"
    );
    assert_eq!(world.len(), 50);
    assert_eq!(world.iter::<Transform>().count(), 50);
    let more = world.spawn_blueprints(&bp, 2).unwrap();
    assert_eq!(world.iter::<Collider>().count(), 52);
    assert!(more
        .iter()
        .all(|&id| world.entity(id).unwrap().has::<Transform>()));
}

#[test]
fn a_long_entity_from_data_is_cleared_in_one_move() {
    let colliders: Vec<serde_json::Value> = (0..300)
        .map(|i| serde_json::json!({ "type": "collider", "data": { "radius": i } }))
        .collect();
    let bp = Blueprint::from_value(&serde_json::json!({ "components": colliders })).unwrap();
    let mut world = World::new();
    let id = world.spawn_blueprint(&bp).unwrap();
    let tables = world.table_count();
    let mut e = world.entity_mut(id).unwrap();
    assert_eq!(e.get_all::<Collider>().count(), 300);
    assert_eq!(e.remove_all::<Collider>(), 300);
    assert!(e.is_empty());
    // Straight to the empty layout: no table per intermediate length (and
    // the table the entity left is given back).
    assert!(world.table_count() <= tables);
    assert_eq!(world.iter::<Collider>().count(), 0);
}

fn spawn_err(json: &str) -> (String, World) {
    let mut world = World::new();
    world.spawn_with((Transform::default(),)).unwrap();
    let result = Blueprint::from_json(json).and_then(|bp| world.spawn_blueprint(&bp));
    let message = result.unwrap_err().to_string();
    (message, world)
}

#[test]
fn bad_blueprints_name_the_json_path_and_leave_nothing() {
    let cases = [
        (
            r#"{"components": [{"type": "Transform"}, {"type": "Model", "data": {"mesh": 3}}]}"#,
            "components[1](Model).data.mesh: invalid type: integer `3`, expected a string",
        ),
        (
            r#"{"components": [{"type": "Modle", "data": {}}]}"#,
            "components[0].type: no component is called `Modle` (did you mean `Model`?)",
        ),
        (
            r#"{"components": [{"type": "Moving"}, {"type": "AxisMoving"}]}"#,
            "components[1]: `AxisMoving` and `Moving` (at components[0]) are both a `Moving`, and `Moving` is single",
        ),
        (
            r#"{"components": [{"type": "Opaque"}]}"#,
            "components[0]: `Opaque` cannot be read from data: it does not implement `serde::Deserialize`",
        ),
        (
            r#"{"children": [{"components": [{"type": "collider", "data": {"radius": "big"}}]}]}"#,
            "children[0].components[0](collider).data.radius: invalid type: string \"big\", expected f32",
        ),
        (r#"{"components": {"type": "Model"}}"#, "components: expected an array, found an object"),
        (r#"{"components": [{"data": {}}]}"#, "components[0]: missing `type`"),
        (r#"{"colour": 3}"#, "colour: unknown field `colour`"),
        (r#"{"components": [{"type": "Model", "data": {"mesh": "m"}}"#, "(root): not valid JSON"),
        (r#"[1, 2]"#, "(root): expected a blueprint object, found an array"),
    ];
    for (json, expected) in cases {
        let (message, world) = spawn_err(json);
        assert!(
            message.starts_with(expected),
            "{json}\n  got: {message}\n want: {expected}"
        );
        assert_eq!(world.len(), 1, "nothing spawned for {json}");
        assert_eq!(world.iter::<Model>().count(), 0);
        assert_eq!(world.iter::<Moving>().count(), 0);
    }
}

#[test]
fn nesting_is_bounded() {
    let mut value = serde_json::json!({"components": []});
    for _ in 0..(ecs_core::MAX_BLUEPRINT_DEPTH + 1) {
        value = serde_json::json!({ "children": [value] });
    }
    let err = Blueprint::from_value(&value).unwrap_err().to_string();
    assert!(err.contains("nested deeper than 64"), "{err}");
    // Text nested past serde_json's own limit stops in the parser.
    let json = "[".repeat(10_000);
    let err = Blueprint::from_json(&json).unwrap_err().to_string();
    assert!(err.starts_with("(root): not valid JSON"), "{err}");
}

#[test]
fn required_components_fill_gaps_without_clashing_with_listed_ones() {
    let bp = Blueprint::from_json(
        r#"{"components": [{"type": "Enemy"}, {"type": "Transform", "data": {"x": 5, "y": 0}}]}"#,
    )
    .unwrap();
    let mut world = World::new();
    let id = world.spawn_blueprint(&bp).unwrap();
    assert_eq!(world.entity(id).unwrap().get::<Transform>().unwrap().x, 5.0);
    let bare = Blueprint::from_json(r#"{"components": [{"type": "Enemy"}]}"#).unwrap();
    let id = world.spawn_blueprint(&bare).unwrap();
    assert_eq!(
        world.entity(id).unwrap().get::<Transform>(),
        Some(&Transform::default())
    );
}

#[test]
fn a_library_loads_a_directory_by_tag() {
    let dir = std::env::temp_dir().join(format!("ecs-blueprints-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("hazmat.json"), HAZMAT).unwrap();
    std::fs::write(
        dir.join("crate.json"),
        r#"{"components": [{"type": "Transform"}]}"#,
    )
    .unwrap();
    std::fs::write(dir.join("notes.txt"), "ignored").unwrap();
    let library = BlueprintLibrary::load_dir(&dir).unwrap();
    assert_eq!(library.tags().collect::<Vec<_>>(), ["Hazmat", "crate"]);
    std::fs::write(dir.join("broken.json"), r#"{"components": [{"type": 1}]}"#).unwrap();
    let err = BlueprintLibrary::load_dir(&dir).unwrap_err().to_string();
    assert!(
        err.starts_with("broken.json: components[0].type: expected a string"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(matches!(
        BlueprintLibrary::load_dir(&dir),
        Err(Error::Io { .. })
    ));
}

fn sample_world() -> World {
    let mut world = World::new();
    let car = world.spawn_named("car");
    let mut e = world.entity_mut(car).unwrap();
    e.add(Transform { x: 1.5, y: -2.0 }).unwrap();
    e.add(Collider { radius: 1.0 }).unwrap();
    e.add(Collider { radius: 2.0 }).unwrap();
    e.add(CacheHandle(7)).unwrap();
    e.set_layers(0b1010);
    e.disable::<Transform>();
    let wheels: Vec<EntityId> = (0..3)
        .map(|i| {
            world
                .spawn_with((AxisMoving {
                    base: Moving { speed: i as f32 },
                    vertical: i % 2 == 0,
                },))
                .unwrap()
        })
        .collect();
    for &w in wheels.iter().rev() {
        world.set_parent(w, car).unwrap();
    }
    world.entity_mut(wheels[1]).unwrap().kill();
    world.entity_mut(wheels[2]).unwrap().set_enabled(false);
    let gone = world.spawn();
    world.despawn(gone).unwrap();
    world.spawn_named("empty");
    world
}

#[test]
fn save_and_load_round_trip() {
    let world = sample_world();
    let loaded = common::reloaded(&world);
    let car = loaded.find_by_name("car").unwrap();
    let e = loaded.entity(car).unwrap();
    assert_eq!(e.layers(), 0b1010);
    assert_eq!(
        e.get_filtered::<Transform>(Filter::Disabled),
        Some(&Transform { x: 1.5, y: -2.0 })
    );
    assert!(
        e.get::<CacheHandle>().is_none(),
        "transient components are not saved"
    );
    let original = world.find_by_name("car").unwrap();
    assert_eq!(
        world
            .entity(original)
            .unwrap()
            .get::<CacheHandle>()
            .map(|c| c.0),
        Some(7)
    );
    let speeds: Vec<f32> = e
        .children()
        .map(|c| loaded.entity(c).unwrap().get::<Moving>().unwrap().speed)
        .collect();
    assert_eq!(speeds, [2.0, 1.0, 0.0], "child order kept");
    let children: Vec<EntityId> = e.children().collect();
    assert!(loaded.entity(children[1]).unwrap().is_dead());
    assert!(!loaded.entity(children[0]).unwrap().is_enabled());
    assert_eq!(loaded.len(), world.len());
}

#[test]
fn unsavable_components_are_named_not_dropped() {
    let mut world = sample_world();
    let id = world.spawn_with((Opaque,)).unwrap();
    assert_eq!(
        world.save_json().unwrap_err(),
        Error::NotSerializable {
            names: vec!["Opaque"]
        }
    );
    world.despawn(id).unwrap();
    assert!(world.save_json().is_ok());
}

#[test]
fn corrupt_saves_are_rejected_with_a_path() {
    let json = sample_world().save_json().unwrap();
    let mut value: serde_json::Value = serde_json::from_str(&json).unwrap();
    value["entities"][1]["components"][0]["data"]["vertical"] = serde_json::json!("yes");
    let err = World::load_value(&value).err().unwrap().to_string();
    assert!(
        err.starts_with("entities[1].components[0].data.vertical: invalid type"),
        "{err}"
    );

    // The car (entity 0) lists wheel 1 as a child; wheel 1 now lists the
    // car: no one is listed twice, but no root reaches the pair.
    let mut cyclic: serde_json::Value = serde_json::from_str(&json).unwrap();
    cyclic["entities"][1]["children"] = serde_json::json!([0]);
    assert_eq!(
        World::load_value(&cyclic).err().unwrap(),
        Error::Data {
            path: "entities[0]".into(),
            message: "this entity is its own ancestor (a parent cycle)".into(),
        }
    );

    assert!(World::load_json("{\"format\": \"something else\"}").is_err());
    assert!(World::load_json("").is_err());
}

/// Requires an `AxisMoving` (which is-a `Moving`).
#[derive(Component, Debug, Clone, Default, Serialize, Deserialize)]
#[component(requires(AxisMoving), name = "data_driven::Rider")]
struct Rider;

/// A saved world is loaded as it was saved: a requirement removed after it
/// was added stays removed, even when putting it back would now clash with
/// a component the entity gained since (before, such a save could not be
/// loaded at all).
#[test]
fn a_removed_requirement_stays_removed_through_save_and_load() {
    let mut world = World::new();
    let id = world.spawn_with((Rider,)).unwrap();
    let mut e = world.entity_mut(id).unwrap();
    assert!(e.remove::<AxisMoving>().is_some());
    e.add(Moving { speed: 1.0 }).unwrap();
    let saved = world.save_json().unwrap();
    let loaded = World::load_json(&saved).unwrap();
    let id = loaded.iter::<Rider>().next().unwrap().0;
    let e = loaded.entity(id).unwrap();
    assert!(e.get::<AxisMoving>().is_none());
    assert_eq!(e.get::<Moving>().map(|m| m.speed), Some(1.0));
    assert_eq!(loaded.save_json().unwrap(), saved);
}

/// Logs its name into the world's [`Order`] resource when updated.
#[derive(Component, Debug, Clone, Default, Serialize, Deserialize)]
#[component(behaviour, name = "data_driven::First")]
struct First;

#[derive(Component, Debug, Clone, Default, Serialize, Deserialize)]
#[component(behaviour, name = "data_driven::Second")]
struct Second;

#[derive(Default)]
struct Order(Vec<&'static str>);

impl Behaviour for First {
    fn update(&mut self, ctx: &mut Context<'_>, _: f32) {
        ctx.resource_mut::<Order>().unwrap().0.push("First");
    }
}

impl Behaviour for Second {
    fn update(&mut self, ctx: &mut Context<'_>, _: f32) {
        ctx.resource_mut::<Order>().unwrap().0.push("Second");
    }
}

fn frame_order(world: &mut World) -> Vec<&'static str> {
    world.insert_resource(Order::default());
    world.update(1.0);
    world.remove_resource::<Order>().unwrap().0
}

/// A loaded world updates its behaviour types in the order the saved one
/// did: the declared order, and the first-added order of the rest, even
/// when the file lists the later type's entity first.
#[test]
fn the_update_order_survives_save_and_load() {
    // First-added order: `First`, then `Second`; the `Second` entity is a
    // root listed before the `First` one, which is its child.
    let mut world = World::new();
    let child = world.spawn_with((First,)).unwrap();
    let root = world.spawn_with((Second,)).unwrap();
    world.set_parent(child, root).unwrap();
    assert_eq!(frame_order(&mut world), ["First", "Second"]);
    let saved = world.save_json().unwrap();
    let mut loaded = World::load_json(&saved).unwrap();
    assert_eq!(frame_order(&mut loaded), ["First", "Second"]);
    assert_eq!(loaded.save_json().unwrap(), saved);
    // A declared order.
    world.set_update_order::<(Second, First)>();
    let saved = world.save_json().unwrap();
    let mut loaded = World::load_json(&saved).unwrap();
    assert_eq!(frame_order(&mut loaded), ["Second", "First"]);
    assert_eq!(loaded.save_json().unwrap(), saved);
    // A name that is not a behaviour, or no type at all, is a data error
    // naming where it is.
    let mut value: serde_json::Value = serde_json::from_str(&saved).unwrap();
    for (name, wanted) in [("Transform", "is not a behaviour"), ("NoSuchType", "")] {
        value["update_order"] = serde_json::json!(["data_driven::First", name]);
        match World::load_value(&value) {
            Err(Error::Data { path, message }) => {
                assert_eq!(path, "update_order[1]");
                assert!(message.contains(wanted), "{message}");
            }
            Err(Error::UnknownComponent { name: unknown, .. }) => assert_eq!(unknown, name),
            other => panic!("expected an error, got {:?}", other.map(|w| w.len())),
        }
    }
}

/// A behaviour that requires an `AxisMoving`: adding it to an entity that
/// holds a plain `Moving` fails (the requirement would be a second
/// `Moving`).
#[derive(Component, Debug, Clone, Default, Serialize, Deserialize)]
#[component(behaviour, requires(AxisMoving), name = "data_driven::Mounted")]
struct Mounted;

impl Behaviour for Mounted {
    fn update(&mut self, ctx: &mut Context<'_>, _: f32) {
        ctx.resource_mut::<Order>().unwrap().0.push("Mounted");
    }
}

/// A failed add attaches nothing, so it does not decide where its type
/// updates: the order is that of the first components actually attached.
#[test]
fn a_failed_add_does_not_decide_the_update_order() {
    let mut world = World::new();
    let walker = world.spawn_with((Moving { speed: 1.0 },)).unwrap();
    assert!(matches!(
        world.entity_mut(walker).unwrap().add(Mounted),
        Err(Error::Duplicate { .. })
    ));
    world.spawn_with((First,)).unwrap();
    world.spawn_with((Mounted,)).unwrap();
    assert_eq!(frame_order(&mut world), ["First", "Mounted"]);
}

/// Only serializable one way.
#[derive(Component, Debug, Clone, Serialize)]
#[component(name = "data_driven::WriteOnly")]
struct WriteOnly(u8);

/// A type that serializes but cannot deserialize would make a save that
/// never loads: it is named, as a type that cannot be saved is.
#[test]
fn a_type_that_cannot_be_read_back_is_not_saved() {
    let mut world = World::new();
    world.spawn_with((WriteOnly(1),)).unwrap();
    assert!(matches!(
        world.save_json(),
        Err(Error::NotSerializable { names }) if names == ["data_driven::WriteOnly"]
    ));
}

// ------------------------- entity references, variants, load-time checks

/// A type with `Default` and no `#[serde(default)]`: a blueprint may still
/// leave out its data or any field.
#[derive(Component, Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Stats {
    hp: u32,
    speed: f32,
    tags: Vec<String>,
}

impl Default for Stats {
    fn default() -> Self {
        Stats {
            hp: 10,
            speed: 1.5,
            tags: vec!["basic".into()],
        }
    }
}

/// Holds entity references: in a blueprint, local ids of its own tree.
#[derive(Component, Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Rig {
    wheels: Vec<EntityId>,
    driver: Option<EntityId>,
}

#[test]
fn default_types_may_leave_out_data_or_fields() {
    let bp = Blueprint::from_json(
        r#"{"components": [{"type": "Stats", "data": {"hp": 3}}], "children": [{"components": [{"type": "Stats"}]}]}"#,
    )
    .unwrap();
    bp.check().unwrap();
    let mut world = World::new();
    let id = world.spawn_blueprint(&bp).unwrap();
    let e = world.entity(id).unwrap();
    assert_eq!(
        e.get::<Stats>(),
        Some(&Stats {
            hp: 3,
            ..Stats::default()
        })
    );
    let child = e.children().next().unwrap();
    assert_eq!(
        world.entity(child).unwrap().get::<Stats>(),
        Some(&Stats::default())
    );
}

#[test]
fn blueprints_refer_to_their_own_entities_by_local_id() {
    let car = r#"{"tag": "car",
        "components": [{"type": "Rig", "data": {"wheels": [1, 2], "driver": 3}}],
        "children": [{"components": []}, {"components": []}, {"components": [{"type": "Rig", "data": {"wheels": [], "driver": 0}}]}]}"#;
    let bp = Blueprint::from_json(car).unwrap();
    let mut world = World::new();
    world.spawn(); // ids are not positions
    let cars = world.spawn_blueprints(&bp, 3).unwrap();
    for &car in &cars {
        let e = world.entity(car).unwrap();
        let children: Vec<EntityId> = e.children().collect();
        let rig = e.get::<Rig>().unwrap();
        assert_eq!(rig.wheels, children[..2]);
        assert_eq!(rig.driver, Some(children[2]));
        let driver = world.entity(children[2]).unwrap();
        assert_eq!(driver.get::<Rig>().unwrap().driver, Some(car));
    }
    // A flat blueprint naming itself.
    let me = Blueprint::from_json(
        r#"{"components": [{"type": "Rig", "data": {"wheels": [0], "driver": null}}]}"#,
    )
    .unwrap();
    let ids = world.spawn_blueprints(&me, 4).unwrap();
    for id in ids {
        assert_eq!(world.entity(id).unwrap().get::<Rig>().unwrap().wheels, [id]);
    }
    // A local id past the tree is refused where it is read.
    let err = Blueprint::from_json(
        r#"{"tag": "x", "components": [{"type": "Rig", "data": {"wheels": [5], "driver": null}}]}"#,
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.starts_with("components[0](Rig).data.wheels[0]"),
        "{err}"
    );
    assert!(
        err.contains("not in this blueprint's tree, which has 1"),
        "{err}"
    );
}

#[test]
fn library_data_errors_name_file_tag_and_path_at_load_time() {
    let dir = std::env::temp_dir().join(format!("ecs-issue16-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("goblin.json"),
        r#"{"tag": "goblin", "components": [{"type": "Stats", "data": {"hp": "many"}}]}"#,
    )
    .unwrap();
    let err = BlueprintLibrary::load_dir(&dir).unwrap_err().to_string();
    assert!(
        err.starts_with(
            "goblin.json: goblin: components[0](Stats).data.hp: invalid type: string \"many\""
        ),
        "{err}"
    );
    // A variant's error names the variant's file and tag.
    std::fs::write(
        dir.join("goblin.json"),
        r#"{"tag": "goblin", "components": [{"type": "Stats"}]}"#,
    )
    .unwrap();
    std::fs::write(
        dir.join("chief.json"),
        r#"{"tag": "chief", "extend": "goblin", "components": [{"type": "Stats", "data": {"speed": [1]}}]}"#,
    )
    .unwrap();
    let err = BlueprintLibrary::load_dir(&dir).unwrap_err().to_string();
    assert!(
        err.starts_with("chief.json: chief: components[0](Stats).data.speed"),
        "{err}"
    );
    std::fs::write(
        dir.join("chief.json"),
        r#"{"tag": "chief", "extend": "goblin", "remove": ["Model"], "components": []}"#,
    )
    .unwrap();
    let err = BlueprintLibrary::load_dir(&dir).unwrap_err().to_string();
    assert!(
        err.starts_with("chief.json: chief: remove[0]: the base has no `Model`"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn variants_patch_add_remove_and_chain() {
    let mut library = BlueprintLibrary::default();
    let base = r#"{"name": "grunt", "components": [
        {"type": "Stats", "data": {"hp": 5, "speed": 2, "tags": ["a"]}},
        {"type": "collider", "data": {"radius": 1}},
        {"type": "collider", "data": {"radius": 2}},
        {"type": "Model", "data": {"mesh": "grunt.fbx"}}],
        "children": [{"components": [{"type": "Transform"}]}]}"#;
    library
        .insert("grunt", Blueprint::from_json(base).unwrap())
        .unwrap();
    // The second collider patched, a field removed by `null` (back to the
    // default), the model removed, a component added, a child added.
    let elite = r#"{"extend": "grunt", "remove": ["Model"], "components": [
        {"type": "Stats", "data": {"hp": 50, "tags": null}},
        {"type": "collider"},
        {"type": "collider", "data": {"radius": 9}, "enabled": false},
        {"type": "Transform", "data": {"x": 1}}],
        "children": [{"components": []}]}"#;
    library
        .insert("elite", Blueprint::from_json(elite).unwrap())
        .unwrap();
    let boss = r#"{"extend": "elite", "name": "boss", "components": [{"type": "Stats", "data": {"speed": 0.5}}]}"#;
    library
        .insert("boss", Blueprint::from_json(boss).unwrap())
        .unwrap();
    let mut world = World::new();
    let id = world.spawn_blueprint(library.get("boss").unwrap()).unwrap();
    let e = world.entity(id).unwrap();
    assert_eq!(e.name(), Some("boss"));
    assert_eq!(
        e.get::<Stats>(),
        Some(&Stats {
            hp: 50,
            speed: 0.5,
            tags: vec!["basic".into()]
        })
    );
    let radii: Vec<f32> = e
        .get_all_filtered::<Collider>(Filter::Any)
        .map(|c| c.radius)
        .collect();
    assert_eq!(radii, [1.0, 9.0]);
    assert_eq!(
        e.get_all_filtered::<Collider>(Filter::Disabled).count(),
        1,
        "the patched one is disabled"
    );
    assert!(!e.has::<Model>());
    assert_eq!(e.get::<Transform>(), Some(&Transform { x: 1.0, y: 0.0 }));
    assert_eq!(e.children().count(), 2);
    // The grunt itself is unchanged, and names itself.
    let grunt = world
        .spawn_blueprint(library.get("grunt").unwrap())
        .unwrap();
    assert_eq!(world.entity(grunt).unwrap().get::<Stats>().unwrap().hp, 5);
    assert_eq!(world.entity(grunt).unwrap().name(), Some("grunt"));
    // Replacing the base re-resolves its variants.
    let base2 = base
        .replace(r#""hp": 5"#, r#""hp": 6"#)
        .replace(r#""name": "grunt", "#, "");
    library
        .insert("grunt", Blueprint::from_json(&base2).unwrap())
        .unwrap();
    let boss = world.spawn_blueprint(library.get("boss").unwrap()).unwrap();
    assert_eq!(world.entity(boss).unwrap().get::<Stats>().unwrap().hp, 50);
    // A variant alone does not spawn.
    let alone = Blueprint::from_json(r#"{"extend": "grunt", "components": []}"#).unwrap();
    assert!(world.spawn_blueprint(&alone).is_err());
}

#[test]
fn a_level_places_instances_with_overrides() {
    let mut library = BlueprintLibrary::default();
    library
        .insert("crate", Blueprint::from_json(r#"{"components": [{"type": "Transform", "data": {"x": 0, "y": 0}}, {"type": "Stats"}]}"#).unwrap())
        .unwrap();
    let level = ecs_core::Level::from_json(
        r#"{"instances": [
            {"extend": "crate", "name": "c1", "components": [{"type": "Transform", "data": {"x": 4}}]},
            {"extend": "crate", "name": "c2", "remove": ["Stats"]}
        ]}"#,
        &library,
    )
    .unwrap();
    assert_eq!(level.len(), 2);
    let mut world = World::new();
    let ids = world.spawn_level(&level).unwrap();
    let c1 = world.entity(ids[0]).unwrap();
    assert_eq!(
        (c1.name(), c1.get::<Transform>().unwrap().x),
        (Some("c1"), 4.0)
    );
    let c2 = world.entity(ids[1]).unwrap();
    assert!(!c2.has::<Stats>());
    let err = ecs_core::Level::from_json(
        r#"{"instances": [{"extend": "crate", "components": [{"type": "Transform", "data": {"x": "far"}}]}]}"#,
        &library,
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.starts_with("instances[0].components[0](Transform).data.x"),
        "{err}"
    );
    let err = ecs_core::Level::from_json(r#"{"instances": [{"extend": "barrel"}]}"#, &library)
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("instances[0].extend: no blueprint is tagged `barrel`"),
        "{err}"
    );
}
