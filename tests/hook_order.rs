//! The order of `on_attach`/`on_enable` after components are added, on
//! every path that adds them: of the components one operation adds, each
//! requirement attaches before the component that required it (Unity's
//! `RequireComponent` order), and each component gets `on_attach` then,
//! when it is enabled on an enabled entity, `on_enable`. `on_enable` and
//! `on_disable` alternate: on a disabled entity, its `set_enabled` fires
//! them, nothing else does.

use std::cell::RefCell;

use ecs_core::prelude::*;
use serde::{Deserialize, Serialize};

mod common;

type Entry = (&'static str, &'static str);

thread_local! {
    /// Hooks run on the thread that adds the components: one log per test.
    static LOG: RefCell<Vec<Entry>> = const { RefCell::new(Vec::new()) };
}

fn take_log() -> Vec<Entry> {
    LOG.with(|log| std::mem::take(&mut *log.borrow_mut()))
}

/// `on_attach` then `on_enable` for each type, in the order given.
fn attached_and_enabled(types: &[&'static str]) -> Vec<Entry> {
    types
        .iter()
        .flat_map(|&t| [(t, "attach"), (t, "enable")])
        .collect()
}

/// Logs its type's attach and enable hooks.
macro_rules! logs_hooks {
    ($($t:ident),+) => {$(
        impl Behaviour for $t {
            fn update(&mut self, _: &mut Context<'_>, _: f32) {}
            fn on_attach(&mut self, _: &mut Context<'_>) {
                LOG.with(|log| log.borrow_mut().push((stringify!($t), "attach")));
            }
            fn on_enable(&mut self, _: &mut Context<'_>) {
                LOG.with(|log| log.borrow_mut().push((stringify!($t), "enable")));
            }
        }
    )+};
}

/// Required by `Mover` and `Player`.
#[derive(Component, Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[component(behaviour)]
#[serde(default)]
struct Body {
    mass: f32,
}

#[derive(Component, Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[component(behaviour, requires(Body))]
#[serde(default)]
struct Mover {
    speed: f32,
}

/// A requirement (`Mover`) that has a requirement of its own (`Body`).
#[derive(Component, Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[component(behaviour, requires(Mover))]
struct Steering;

/// Hook-less: required by `Player`, never in the log.
#[derive(Component, Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
struct Sprite;

#[derive(Component, Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[component(behaviour, requires(Sprite, Body))]
struct Player;

logs_hooks!(Body, Mover, Steering, Player);

fn blueprint(json: &str) -> Blueprint {
    Blueprint::from_json(json).unwrap()
}

#[test]
fn add_attaches_requirements_first() {
    let mut world = World::new();
    let id = world.spawn();
    world.entity_mut(id).unwrap().add(Mover::default()).unwrap();
    assert_eq!(take_log(), attached_and_enabled(&["Body", "Mover"]));

    // A requirement's own requirement comes before it.
    let id = world.spawn();
    world.entity_mut(id).unwrap().add(Steering).unwrap();
    assert_eq!(
        take_log(),
        attached_and_enabled(&["Body", "Mover", "Steering"])
    );

    // A hook-less requirement in between changes nothing.
    let id = world.spawn();
    world.entity_mut(id).unwrap().add(Player).unwrap();
    assert_eq!(take_log(), attached_and_enabled(&["Body", "Player"]));

    // What the entity already holds is not attached again.
    let id = world.spawn_with((Body::default(),)).unwrap();
    take_log();
    world.entity_mut(id).unwrap().add(Steering).unwrap();
    assert_eq!(take_log(), attached_and_enabled(&["Mover", "Steering"]));
}

#[test]
fn spawn_with_attaches_each_element_after_its_requirements() {
    let mut world = World::new();
    let id = world.spawn_with((Steering, Player)).unwrap();
    // `Player`'s `Body` came with `Steering`.
    assert_eq!(
        take_log(),
        attached_and_enabled(&["Body", "Mover", "Steering", "Player"])
    );
    assert_eq!(world.entity(id).unwrap().len(), 5);

    world
        .spawn_batch([(Mover::default(),), (Mover::default(),)])
        .unwrap();
    assert_eq!(
        take_log(),
        attached_and_enabled(&["Body", "Mover", "Body", "Mover"])
    );
}

#[test]
fn a_bundle_is_one_operation_a_listed_requirement_is_kept() {
    let mut world = World::new();
    // `Mover` requires `Body`; the bundle lists its own `Body` after it.
    let id = world
        .spawn_with((Mover { speed: 2.0 }, Body { mass: 7.0 }))
        .unwrap();
    let e = world.entity(id).unwrap();
    assert_eq!(e.len(), 2, "no default Body beside the listed one");
    assert_eq!(e.get::<Body>(), Some(&Body { mass: 7.0 }));
    // The listed `Body` meets `Mover`'s requirement, so it attaches first.
    assert_eq!(take_log(), attached_and_enabled(&["Body", "Mover"]));
}

#[test]
fn a_bundle_that_fails_runs_no_hook() {
    let mut world = World::new();
    let bad = world.spawn_with((Mover::default(), Body::default(), Body::default()));
    assert!(matches!(bad, Err(Error::Duplicate { adding: "Body", .. })));
    assert_eq!(take_log(), [], "nothing was attached, so nothing detaches");
    assert!(world.is_empty());
}

#[test]
fn add_by_name_attaches_requirements_first() {
    let mut world = World::new();
    let id = world.spawn();
    world
        .entity_mut(id)
        .unwrap()
        .add_by_name("Steering")
        .unwrap();
    assert_eq!(
        take_log(),
        attached_and_enabled(&["Body", "Mover", "Steering"])
    );
}

#[test]
fn spawn_blueprint_attaches_requirements_first() {
    let mut world = World::new();
    // Both requirements are added by the spawn, after the listed component.
    let id = world
        .spawn_blueprint(&blueprint(r#"{"components": [{"type": "Steering"}]}"#))
        .unwrap();
    assert_eq!(
        take_log(),
        attached_and_enabled(&["Body", "Mover", "Steering"])
    );
    assert_eq!(world.entity(id).unwrap().len(), 3);

    // A requirement listed after the component that requires it still
    // attaches first.
    world
        .spawn_blueprint(&blueprint(
            r#"{"components": [{"type": "Mover"}, {"type": "Body"}]}"#,
        ))
        .unwrap();
    assert_eq!(take_log(), attached_and_enabled(&["Body", "Mover"]));

    // Entity by entity, the parent before its child; every copy in turn.
    let tree = blueprint(
        r#"{"components": [{"type": "Mover"}],
            "children": [{"components": [{"type": "Player"}]}]}"#,
    );
    world.spawn_blueprints(&tree, 2).unwrap();
    let one = attached_and_enabled(&["Body", "Mover", "Body", "Player"]);
    assert_eq!(take_log(), [one.clone(), one].concat());

    // Without children, every copy in turn too.
    let flat = blueprint(r#"{"components": [{"type": "Mover"}]}"#);
    world.spawn_blueprints(&flat, 2).unwrap();
    assert_eq!(
        take_log(),
        attached_and_enabled(&["Body", "Mover", "Body", "Mover"])
    );
}

#[test]
fn a_component_spawned_disabled_is_attached_but_not_enabled() {
    let mut world = World::new();
    world
        .spawn_blueprint(&blueprint(
            r#"{"components": [{"type": "Mover", "enabled": false}]}"#,
        ))
        .unwrap();
    assert_eq!(
        take_log(),
        [("Body", "attach"), ("Body", "enable"), ("Mover", "attach")]
    );
}

#[test]
fn clone_entity_attaches_requirements_first() {
    let mut world = World::new();
    let original = world.spawn();
    // Stored as Steering, Mover, Body: requirements are appended.
    world.entity_mut(original).unwrap().add(Steering).unwrap();
    take_log();

    let copy = world.clone_entity(original).unwrap();
    assert_eq!(
        take_log(),
        attached_and_enabled(&["Body", "Mover", "Steering"])
    );
    assert_eq!(world.entity(copy).unwrap().len(), 3);

    // A disabled component is copied disabled: attached, not enabled.
    world.entity_mut(original).unwrap().disable::<Mover>();
    world.clone_entity(original).unwrap();
    assert_eq!(
        take_log(),
        [
            ("Body", "attach"),
            ("Body", "enable"),
            ("Mover", "attach"),
            ("Steering", "attach"),
            ("Steering", "enable"),
        ]
    );
}

#[test]
fn clone_tree_attaches_requirements_first_parent_before_child() {
    let mut world = World::new();
    let root = world.spawn();
    world.entity_mut(root).unwrap().add(Steering).unwrap();
    let child = world.spawn();
    world.entity_mut(child).unwrap().add(Player).unwrap();
    world.set_parent(child, root).unwrap();
    take_log();

    world.clone_tree(root).unwrap();
    assert_eq!(
        take_log(),
        attached_and_enabled(&["Body", "Mover", "Steering", "Body", "Player"])
    );
}

/// A loaded world's components are fresh: their hooks fire as for a clone.
#[test]
fn load_attaches_requirements_first() {
    let mut world = World::new();
    let root = world.spawn_named("root");
    world.entity_mut(root).unwrap().add(Steering).unwrap();
    let child = world.spawn_named("child");
    world.entity_mut(child).unwrap().add(Player).unwrap();
    world.entity_mut(child).unwrap().disable::<Player>();
    world.set_parent(child, root).unwrap();
    take_log();

    common::reloaded(&world);
    let mut expected = attached_and_enabled(&["Body", "Mover", "Steering", "Body"]);
    expected.push(("Player", "attach"));
    assert_eq!(take_log(), expected);
}

/// Logs all four hooks that enabling touches.
#[derive(Component, Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[component(behaviour)]
struct Lamp;

impl Behaviour for Lamp {
    fn update(&mut self, _: &mut Context<'_>, _: f32) {}
    fn on_attach(&mut self, _: &mut Context<'_>) {
        LOG.with(|log| log.borrow_mut().push(("Lamp", "attach")));
    }
    fn on_enable(&mut self, _: &mut Context<'_>) {
        LOG.with(|log| log.borrow_mut().push(("Lamp", "enable")));
    }
    fn on_disable(&mut self, _: &mut Context<'_>) {
        LOG.with(|log| log.borrow_mut().push(("Lamp", "disable")));
    }
    fn on_detach(&mut self, _: &mut Context<'_>) {
        LOG.with(|log| log.borrow_mut().push(("Lamp", "detach")));
    }
}

/// Regression (found by `tests/model.rs`): a component added to a disabled
/// entity got `on_enable` when attached and again when the entity was
/// enabled, with no `on_disable` between.
#[test]
fn a_component_added_to_a_disabled_entity_is_enabled_once_with_it() {
    let mut world = World::new();
    let id = world.spawn();
    world.entity_mut(id).unwrap().set_enabled(false);
    world.entity_mut(id).unwrap().add(Lamp).unwrap();
    assert_eq!(take_log(), [("Lamp", "attach")]);
    world.entity_mut(id).unwrap().set_enabled(true);
    assert_eq!(take_log(), [("Lamp", "enable")]);

    // A clone copies the entity's flag: the same rule.
    world.entity_mut(id).unwrap().set_enabled(false);
    take_log();
    let copy = world.clone_entity(id).unwrap();
    assert_eq!(take_log(), [("Lamp", "attach")]);
    world.entity_mut(copy).unwrap().set_enabled(true);
    assert_eq!(take_log(), [("Lamp", "enable")]);
}

/// While its entity is disabled a component already had `on_disable`:
/// its own flag changing, its removal or a despawn fire no second one, and
/// no `on_enable` that `on_disable` would not follow.
#[test]
fn on_a_disabled_entity_only_set_enabled_fires_enable_and_disable() {
    let mut world = World::new();
    let id = world.spawn_with((Lamp,)).unwrap();
    world.entity_mut(id).unwrap().set_enabled(false);
    assert_eq!(
        take_log(),
        [("Lamp", "attach"), ("Lamp", "enable"), ("Lamp", "disable")]
    );
    let mut e = world.entity_mut(id).unwrap();
    assert_eq!(e.disable::<Lamp>(), 1);
    assert_eq!(e.enable::<Lamp>(), 1);
    assert_eq!(take_log(), []);
    assert!(e.remove::<Lamp>().is_some());
    assert_eq!(take_log(), [("Lamp", "detach")]);

    // Disabled on its own while the entity is off: enabling the entity
    // leaves it disabled, so nothing fires.
    e.add(Lamp).unwrap();
    e.disable::<Lamp>();
    e.set_enabled(true);
    assert_eq!(take_log(), [("Lamp", "attach")]);
    e.enable::<Lamp>();
    assert_eq!(take_log(), [("Lamp", "enable")]);

    world.entity_mut(id).unwrap().set_enabled(false);
    take_log();
    world.despawn(id).unwrap();
    assert_eq!(take_log(), [("Lamp", "detach")]);
}
