//! Property tests: random worlds survive save and load unchanged (every
//! serializable component, names and their order, hierarchy, enabled and
//! killed flags, layers, entity references, resources, update order,
//! removed requirements), through JSON, pretty JSON and the binary format;
//! saving the loaded world gives the same bytes.

use ecs_core::prelude::*;
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

mod common;
use common::{AxisMoving, Enemy, Moving, Transform};
use ecs_core::{Dangling, SaveFormat, SaveOptions};

#[derive(Component, Debug, Clone, PartialEq, Serialize, Deserialize)]
#[component(multiple)]
struct Label(String);

#[derive(Component, Debug, Clone, PartialEq, Serialize, Deserialize)]
enum Team {
    Red,
    Blue { captain: bool },
}

#[derive(Debug, Clone)]
enum Comp {
    Transform(f32, f32),
    Moving(f32),
    AxisMoving(f32, bool),
    Label(String),
    Team(Option<bool>),
}

#[derive(Debug, Clone)]
struct EntitySpec {
    name: Option<String>,
    comps: Vec<(Comp, bool)>,
    parent: Option<usize>,
    enabled: bool,
    killed: bool,
    layers: Option<u32>,
}

fn comp() -> impl Strategy<Value = Comp> {
    prop_oneof![
        (-1e6f32..1e6, -1e6f32..1e6).prop_map(|(x, y)| Comp::Transform(x, y)),
        (0f32..100.0).prop_map(Comp::Moving),
        (0f32..100.0, any::<bool>()).prop_map(|(s, v)| Comp::AxisMoving(s, v)),
        "[a-zA-Z0-9 \"\\\\é]{0,8}".prop_map(Comp::Label),
        prop::option::of(any::<bool>()).prop_map(Comp::Team),
    ]
}

fn entity() -> impl Strategy<Value = EntitySpec> {
    (
        prop::option::of("[a-z]{1,6}"),
        prop::collection::vec((comp(), any::<bool>()), 0..6),
        prop::option::of(0usize..40),
        any::<bool>(),
        any::<bool>(),
        prop::option::of(any::<u32>()),
    )
        .prop_map(
            |(name, comps, parent, enabled, killed, layers)| EntitySpec {
                name,
                comps,
                parent,
                enabled,
                killed,
                layers,
            },
        )
}

fn add(world: &mut World, id: EntityId, comp: &Comp) -> Result<(), Error> {
    let mut e = world.entity_mut(id)?;
    match comp.clone() {
        Comp::Transform(x, y) => e.add(Transform { x, y }).map(drop),
        Comp::Moving(speed) => e.add(Moving { speed }).map(drop),
        Comp::AxisMoving(speed, vertical) => e.add(AxisMoving::new(speed, vertical)).map(drop),
        Comp::Label(s) => e.add(Label(s)).map(drop),
        Comp::Team(None) => e.add(Team::Red).map(drop),
        Comp::Team(Some(captain)) => e.add(Team::Blue { captain }).map(drop),
    }
}

/// Builds a world from specs; some entities are despawned to leave holes.
fn build(specs: &[EntitySpec]) -> World {
    let mut world = World::new();
    let mut ids = Vec::new();
    for (i, spec) in specs.iter().enumerate() {
        let id = match &spec.name {
            Some(name) => world.spawn_named(name),
            None => world.spawn(),
        };
        for (comp, enabled) in &spec.comps {
            // Duplicates of single types are refused; that is fine here.
            if add(&mut world, id, comp).is_ok() && !enabled {
                let last = world
                    .entity(id)
                    .unwrap()
                    .components()
                    .last()
                    .unwrap()
                    .instance;
                world
                    .entity_mut(id)
                    .unwrap()
                    .set_instance_enabled(last, false)
                    .unwrap();
            }
        }
        if let Some(p) = spec.parent.filter(|&p| p < i) {
            if world.contains(ids[p]) {
                let _ = world.set_parent(id, ids[p]);
            }
        }
        let mut e = world.entity_mut(id).unwrap();
        e.set_enabled(spec.enabled);
        if spec.killed {
            e.kill();
        }
        if let Some(mask) = spec.layers {
            e.set_layers(mask);
        }
        ids.push(id);
        if i % 7 == 3 {
            let _ = world.despawn(ids[i / 2]);
        }
    }
    world
}

/// Everything observable about a world, without ids or instance ids: each
/// root subtree in order, with names, flags, layers and components.
fn describe(world: &World) -> Vec<String> {
    fn walk(world: &World, id: EntityId, depth: usize, out: &mut Vec<String>) {
        let e = world.entity(id).unwrap();
        let comps: Vec<String> = e
            .components()
            .map(|c| format!("{}{:?}", if c.enabled { "" } else { "!" }, c))
            .collect();
        out.push(format!(
            "{depth} {:?} enabled={} dead={} layers={} {comps:?}",
            e.name(),
            e.is_enabled(),
            e.is_dead(),
            e.layers()
        ));
        for child in e.children().collect::<Vec<_>>() {
            walk(world, child, depth + 1, out);
        }
    }
    let mut out = Vec::new();
    for root in world.roots().collect::<Vec<_>>() {
        walk(world, root, 0, &mut out);
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: common::cases("ROUNDTRIP_CASES", 500),
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_worlds_round_trip(specs in prop::collection::vec(entity(), 0..40)) {
        let world = build(&specs);
        let loaded = common::reloaded(&world);
        prop_assert_eq!(describe(&loaded), describe(&world));
        prop_assert_eq!(loaded.len(), world.len());
    }
}

// ------------------------------------------------------------ references

/// Refers to other entities: every shape a reference takes.
#[derive(Component, Debug, Clone, PartialEq, Serialize, Deserialize)]
#[component(multiple)]
struct Target {
    one: Option<EntityId>,
    many: Vec<EntityId>,
}

/// A resource saved with the world (its type derives `Component`, which
/// names it).
#[derive(Component, Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Score(u32);

#[derive(Component, Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[component(behaviour)]
struct Spin(u8);
impl Behaviour for Spin {
    fn update(&mut self, _: &mut Context<'_>, _: f32) {}
}

#[derive(Component, Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[component(behaviour)]
struct Glow(u8);
impl Behaviour for Glow {
    fn update(&mut self, _: &mut Context<'_>, _: f32) {}
}

#[derive(Debug, Clone)]
struct Rich {
    base: EntitySpec,
    /// Targets by spec index (kept only when that entity is alive).
    targets: Vec<(Option<usize>, Vec<usize>)>,
    behaviours: Vec<bool>,
    enemy: bool,
    /// Renamed to this after everything is spawned (naming order).
    rename: Option<String>,
}

fn rich() -> impl Strategy<Value = Rich> {
    (
        entity(),
        prop::collection::vec(
            (
                prop::option::of(0usize..30),
                prop::collection::vec(0usize..30, 0..3),
            ),
            0..3,
        ),
        prop::collection::vec(any::<bool>(), 2),
        any::<bool>(),
        prop::option::of("[a-c]"),
        prop::option::of("[a-c]"),
    )
        .prop_map(|(mut base, targets, behaviours, enemy, rename, shared)| {
            // Few names, so that many entities share one.
            if shared.is_some() {
                base.name = shared;
            }
            Rich {
                base,
                targets,
                behaviours,
                enemy,
                rename,
            }
        })
}

struct Built {
    world: World,
}

fn build_rich(specs: &[Rich], score: Option<u32>, order: bool) -> Built {
    let base: Vec<EntitySpec> = specs.iter().map(|r| r.base.clone()).collect();
    let mut world = build(&base);
    // `build` spawned spec `i` as the `i`th entity it made; find them again
    // by walking the ids in spawn order (despawned ones are gone).
    let ids: Vec<Option<EntityId>> = {
        let mut all: Vec<EntityId> = world.iter_ids().collect();
        all.sort_by_key(|id| id.index());
        let mut out = vec![None; specs.len()];
        // Slots are handed out in spec order with reuse; recover the
        // mapping from the spec count: entity `i` took slot `i` unless a
        // despawn freed an earlier one, which `build` never reuses before
        // `i` (it despawns after spawning `i`).
        for id in all {
            if (id.index() as usize) < out.len() {
                out[id.index() as usize] = Some(id);
            }
        }
        out
    };
    let alive = |i: usize| ids.get(i).copied().flatten();
    for (i, spec) in specs.iter().enumerate() {
        let Some(id) = alive(i) else { continue };
        for (one, many) in &spec.targets {
            let target = Target {
                one: one.and_then(alive),
                many: many.iter().filter_map(|&m| alive(m)).collect(),
            };
            world.entity_mut(id).unwrap().add(target).unwrap();
        }
        if spec.behaviours[0] {
            let _ = world.entity_mut(id).unwrap().add(Spin(i as u8));
        }
        if spec.behaviours[1] {
            let _ = world.entity_mut(id).unwrap().add(Glow(i as u8));
        }
        if spec.enemy {
            // Adds a `Transform` when missing; taking it away again leaves
            // an entity that lacks a requirement, which must load as is.
            let had = world.entity(id).unwrap().has::<Transform>();
            if world.entity_mut(id).unwrap().add(Enemy).is_ok() && !had && i % 2 == 0 {
                world.entity_mut(id).unwrap().remove::<Transform>().unwrap();
            }
        }
    }
    for (i, spec) in specs.iter().enumerate() {
        if let (Some(id), Some(name)) = (alive(i), &spec.rename) {
            world.entity_mut(id).unwrap().set_name(Some(name));
        }
    }
    if let Some(score) = score {
        world.insert_resource(Score(score));
    }
    if order {
        world.set_update_order::<(Glow, Spin)>();
    }
    Built { world }
}

/// `describe`, leaving out references (whose ids differ after a load).
fn describe_plain(world: &World) -> Vec<String> {
    describe(world)
        .into_iter()
        .map(|line| {
            let cut = line.find("[").map_or(line.len(), |c| c);
            let comps: Vec<&str> = line[cut..]
                .trim_matches(|c| c == '[' || c == ']')
                .split("\", \"")
                .filter(|c| !c.contains("Target"))
                .collect();
            format!("{}{comps:?}", &line[..cut])
        })
        .collect()
}

fn check_format(world: &World, format: SaveFormat) -> Result<(), TestCaseError> {
    let options = SaveOptions {
        format,
        ..SaveOptions::default()
    };
    let saved = world.save(options).unwrap();
    let loaded = World::load(&saved).unwrap();
    let again = loaded.world.save(options).unwrap();
    prop_assert!(
        again == saved,
        "{format:?}: saving the loaded world gives other bytes"
    );
    let (old, new) = (world, &loaded.world);
    prop_assert_eq!(describe_plain(new), describe_plain(old));
    // Every reference names the same entity as before.
    let by_old = loaded.ids.by_old(&old.save_order());
    for (&was, &now) in &by_old {
        let before: Vec<Target> = old
            .entity(was)
            .unwrap()
            .get_all::<Target>()
            .cloned()
            .collect();
        let after: Vec<Target> = new
            .entity(now)
            .unwrap()
            .get_all::<Target>()
            .cloned()
            .collect();
        let mapped: Vec<Target> = before
            .iter()
            .map(|t| Target {
                one: t.one.map(|e| by_old[&e]),
                many: t.many.iter().map(|e| by_old[e]).collect(),
            })
            .collect();
        prop_assert_eq!(after, mapped);
    }
    // Shared names: the same entity answers first, and all in order.
    for name in ["a", "b", "c"] {
        prop_assert_eq!(
            new.find_by_name(name),
            old.find_by_name(name).map(|e| by_old[&e])
        );
        let all: Vec<EntityId> = old.find_all_by_name(name).map(|e| by_old[&e]).collect();
        prop_assert_eq!(new.find_all_by_name(name).collect::<Vec<_>>(), all);
    }
    prop_assert_eq!(new.get_resource::<Score>(), old.get_resource::<Score>());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: common::cases("ROUNDTRIP_CASES", 300),
        ..ProptestConfig::default()
    })]

    #[test]
    fn rich_worlds_round_trip_in_every_format(
        specs in prop::collection::vec(rich(), 0..30),
        score in prop::option::of(any::<u32>()),
        order in any::<bool>(),
    ) {
        let built = build_rich(&specs, score, order);
        for format in [SaveFormat::Json, SaveFormat::JsonPretty, SaveFormat::Binary] {
            check_format(&built.world, format)?;
        }
    }
}

#[test]
fn a_reference_to_an_unsaved_entity_is_refused_or_nulled() {
    let mut world = World::new();
    let gone = world.spawn();
    let keep = world.spawn_named("keep");
    world
        .entity_mut(keep)
        .unwrap()
        .add(Target {
            one: Some(gone),
            many: vec![],
        })
        .unwrap();
    world.despawn(gone).unwrap();
    match world.save_json() {
        Err(Error::DanglingEntity {
            path,
            component,
            entity,
        }) => {
            assert_eq!(path, "entities[0].components[0].data.one");
            assert_eq!(component, "Target");
            assert_eq!(entity, gone);
        }
        other => panic!("expected a dangling reference, got {other:?}"),
    }
    for format in [SaveFormat::Json, SaveFormat::Binary] {
        let options = SaveOptions {
            format,
            dangling: Dangling::Null,
        };
        let loaded = World::load(&world.save(options).unwrap()).unwrap().world;
        let keep = loaded.find_by_name("keep").unwrap();
        assert_eq!(
            loaded.entity(keep).unwrap().get::<Target>().unwrap().one,
            None
        );
    }
}

#[test]
fn a_reference_past_the_last_entity_is_a_typed_error() {
    let mut world = World::new();
    let a = world.spawn();
    world
        .entity_mut(a)
        .unwrap()
        .add(Target {
            one: Some(a),
            many: vec![a],
        })
        .unwrap();
    let json = world.save_json().unwrap();
    assert!(json.contains(r#""data":{"one":0,"many":[0]}"#), "{json}");
    let bad = json.replace(r#""many":[0]"#, r#""many":[7]"#);
    match World::load_json(&bad) {
        Err(Error::UnknownEntity {
            path, saved, count, ..
        }) => {
            assert_eq!(
                (path.as_str(), saved, count),
                ("entities[0].components[0].data.many[0]", 7, 1)
            );
        }
        other => panic!(
            "expected an unknown entity, got {:?}",
            other.map(|w| w.len())
        ),
    }
    // Outside a load an id is written and read as it is: a bare saved id
    // is not one.
    assert!(serde_json::from_str::<EntityId>("0").is_err());
}

#[test]
fn non_finite_floats_round_trip_where_the_format_can_hold_them() {
    let mut world = World::new();
    let e = world.spawn();
    world
        .entity_mut(e)
        .unwrap()
        .add(Transform {
            x: f32::INFINITY,
            y: f32::NEG_INFINITY,
        })
        .unwrap();
    // JSON writes an f32 infinity as 1e+39, which reads back as infinity.
    let json = world.save_json().unwrap();
    assert!(json.contains(r#"{"x":1e+39,"y":-1e+39}"#), "{json}");
    let loaded = World::load_json(&json).unwrap();
    assert_eq!(loaded.save_json().unwrap(), json);
    // NaN: JSON cannot hold it, the binary format can.
    world
        .entity_mut(e)
        .unwrap()
        .get_mut::<Transform>()
        .unwrap()
        .x = f32::NAN;
    match world.save_json() {
        Err(Error::Data { path, message }) => {
            assert_eq!(path, "entities[0].components[0].data.x");
            assert!(
                message.starts_with("in a `Transform`, NaN cannot be written as JSON"),
                "{message}"
            );
        }
        other => panic!("expected a data error, got {other:?}"),
    }
    let loaded = World::load_binary(&world.save_binary().unwrap()).unwrap();
    let (t,) = loaded.query::<(&Transform,)>().iter().next().unwrap();
    assert!(t.x.is_nan() && t.y == f32::NEG_INFINITY);
}

#[test]
fn older_and_newer_files() {
    // Version 1 (every field written, keys sorted) still loads.
    let v1 = r#"{"entities":[{"children":[],"components":[{"data":{"x":1.0,"y":2.0},"enabled":true,"type":"Transform"}],"enabled":true,"id":0,"killed":false,"layers":1,"name":"a"}],"format":"ecs-core/world","version":1}"#;
    let world = World::load_json(v1).unwrap();
    let a = world.find_by_name("a").unwrap();
    assert_eq!(
        world.entity(a).unwrap().get::<Transform>(),
        Some(&Transform { x: 1.0, y: 2.0 })
    );
    // A newer one is refused, naming the version.
    let v3 = v1.replace(r#""version":1"#, r#""version":3"#);
    let err = World::load_json(&v3).err().unwrap().to_string();
    assert!(err.starts_with("version: version 3 is newer"), "{err}");
}

/// A snapshot's neighbours often share a type list, which the binary
/// reader then reuses; lists that differ only in one type, or only in
/// which component is disabled, must still each get their own.
#[test]
fn neighbours_with_alike_type_lists_keep_their_own() {
    let mut world = World::new();
    let a = world
        .spawn_with((Transform { x: 1.0, y: 0.0 }, Team::Red))
        .unwrap();
    let b = world
        .spawn_with((Transform { x: 2.0, y: 0.0 }, Moving { speed: 3.0 }))
        .unwrap();
    let c = world
        .spawn_with((Transform { x: 3.0, y: 0.0 }, Team::Red))
        .unwrap();
    world.entity_mut(c).unwrap().disable::<Team>();
    let d = world
        .spawn_with((Transform { x: 4.0, y: 0.0 }, Team::Blue { captain: true }))
        .unwrap();
    let saved = world.save_binary().unwrap();
    let loaded = World::load(&saved).unwrap();
    // Saved ids are positions in save order.
    let saved_order = world.save_order();
    let id = |e: EntityId| {
        let saved = saved_order.iter().position(|&s| s == e).unwrap();
        loaded.ids.get(saved as u32).unwrap()
    };
    let w = &loaded.world;
    assert_eq!(w.entity(id(a)).unwrap().get::<Team>(), Some(&Team::Red));
    assert_eq!(w.entity(id(b)).unwrap().get::<Team>(), None);
    assert_eq!(
        w.entity(id(b)).unwrap().get::<Moving>().map(|m| m.speed),
        Some(3.0)
    );
    let third = w.entity(id(c)).unwrap();
    assert!(third.get_filtered::<Team>(Filter::Disabled).is_some());
    let fourth = w.entity(id(d)).unwrap();
    assert!(fourth.get_filtered::<Team>(Filter::Enabled).is_some());
    assert_eq!(fourth.get::<Transform>().map(|t| t.x), Some(4.0));
    assert_eq!(w.save_binary().unwrap(), saved);
}

/// JSON loads guess each entity's table from the cycle its neighbours
/// went through (the table that followed the previous entity's last
/// time); a file that breaks the cycle, by a type or by a count, still
/// loads every entity into its own table with its own values.
#[test]
fn a_broken_cycle_of_tables_loads_each_entity_as_saved() {
    let label = |i: usize, k: usize| Label(format!("{i}.{k}"));
    let mut world = World::new();
    let cycle = ['a', 'b', 'c'].repeat(3);
    let broken = ['a', 'c', 'b', 'a', 'a', 'b', 'b', 'c', 'a'];
    for (i, &kind) in cycle.iter().chain(&broken).enumerate() {
        let at = Transform {
            x: i as f32,
            y: 0.0,
        };
        let id = match kind {
            'a' => world.spawn_with((at, label(i, 0))),
            'b' => world.spawn_with((at, label(i, 0), label(i, 1))),
            _ => world.spawn_with((
                at,
                Team::Blue {
                    captain: i % 2 == 0,
                },
            )),
        }
        .unwrap();
        if i == 14 {
            world.entity_mut(id).unwrap().disable::<Label>();
        }
    }
    for options in [SaveOptions::json(), SaveOptions::binary()] {
        let saved = world.save_with(options).unwrap();
        let loaded = World::load(saved.as_bytes()).unwrap();
        let w = &loaded.world;
        for (i, &kind) in cycle.iter().chain(&broken).enumerate() {
            let entity = w.entity(loaded.ids.get(i as u32).unwrap()).unwrap();
            assert_eq!(entity.get::<Transform>().map(|t| t.x), Some(i as f32));
            let labels: Vec<&Label> = entity.get_all::<Label>().collect();
            let team = entity.get::<Team>();
            match kind {
                'a' => assert_eq!((labels, team), (vec![&label(i, 0)], None)),
                'b' => assert_eq!((labels, team), (vec![&label(i, 0), &label(i, 1)], None)),
                _ => {
                    assert!(labels.is_empty(), "{i}");
                    assert_eq!(
                        team,
                        Some(&Team::Blue {
                            captain: i % 2 == 0
                        })
                    );
                }
            }
            let disabled = entity.get_filtered::<Label>(Filter::Disabled).is_some();
            assert_eq!(disabled, i == 14, "{i}");
        }
        let again = w.save_with(options).unwrap();
        assert_eq!(again.as_bytes(), saved.as_bytes(), "{options:?}");
    }
}
