//! Property test: random worlds survive save and load unchanged (every
//! serializable component, names, hierarchy, enabled and killed flags,
//! layers).

use ecs_core::prelude::*;
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

mod common;
use common::{AxisMoving, Moving, Transform};

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
