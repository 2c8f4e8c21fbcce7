//! Resources: one value per type, beside the entities, readable and
//! writable from behaviours, hooks and message receivers.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use ecs_core::prelude::*;

mod common;
use common::Position;

#[derive(Debug, PartialEq)]
struct Score(u32);

#[derive(Debug, PartialEq)]
struct Gravity(f32);

#[test]
fn insert_replace_get_and_remove() {
    let mut world = World::new();
    assert_eq!(world.get_resource::<Score>(), None);
    assert!(!world.contains_resource::<Score>());

    assert_eq!(world.insert_resource(Score(1)), None);
    assert!(world.contains_resource::<Score>());
    assert_eq!(world.get_resource::<Score>(), Some(&Score(1)));

    assert_eq!(
        world.insert_resource(Score(2)),
        Some(Score(1)),
        "a second insert replaces the value and hands the old one back"
    );
    world.get_resource_mut::<Score>().unwrap().0 += 10;
    assert_eq!(world.get_resource::<Score>(), Some(&Score(12)));

    assert_eq!(world.remove_resource::<Score>(), Some(Score(12)));
    assert_eq!(world.remove_resource::<Score>(), None);
    assert_eq!(world.get_resource_mut::<Score>(), None);
    assert!(!world.contains_resource::<Score>());
}

#[test]
fn each_type_has_its_own_value() {
    let mut world = World::new();
    world.insert_resource(Score(3));
    world.insert_resource(Gravity(-9.8));
    world.insert_resource(String::from("level 1"));
    world.insert_resource(vec![1_u8, 2]);
    world.insert_resource(vec![1_u16]); // another type: another value

    assert_eq!(world.get_resource::<Score>(), Some(&Score(3)));
    assert_eq!(world.get_resource::<Gravity>(), Some(&Gravity(-9.8)));
    assert_eq!(world.get_resource::<String>().unwrap(), "level 1");
    assert_eq!(world.get_resource::<Vec<u8>>().unwrap(), &[1, 2]);
    assert_eq!(world.get_resource::<Vec<u16>>().unwrap(), &[1]);

    world.remove_resource::<Score>();
    assert_eq!(world.get_resource::<Gravity>(), Some(&Gravity(-9.8)));
    assert_eq!(world.get_resource::<Vec<u8>>().unwrap(), &[1, 2]);
}

#[test]
fn resources_are_not_entities_or_components() {
    let mut world = World::new();
    world.insert_resource(Position(1.0)); // a component type as a resource
    assert!(world.is_empty());
    let id = world.spawn_with((Position(2.0),)).unwrap();
    assert_eq!(world.get_resource::<Position>(), Some(&Position(1.0)));
    assert_eq!(world.iter::<Position>().count(), 1);
    world.despawn(id).unwrap();
    assert_eq!(world.get_resource::<Position>(), Some(&Position(1.0)));
}

#[test]
fn get_or_insert_with_makes_the_value_once() {
    let mut world = World::new();
    let mut made = 0;
    for _ in 0..3 {
        world
            .get_resource_or_insert_with(|| {
                made += 1;
                Score(0)
            })
            .0 += 1;
    }
    assert_eq!(made, 1);
    assert_eq!(world.get_resource::<Score>(), Some(&Score(3)));
}

#[test]
fn a_panicking_maker_inserts_nothing() {
    let mut world = World::new();
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        world.get_resource_or_insert_with::<Score>(|| panic!("no score today"));
    }));
    assert!(result.is_err());
    assert!(!world.contains_resource::<Score>());
    world.insert_resource(Score(1));
    assert_eq!(world.get_resource::<Score>(), Some(&Score(1)));
}

/// Counts the drops of its values.
struct Counted(Arc<AtomicUsize>);

impl Drop for Counted {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

#[test]
fn values_are_dropped_with_the_world_and_not_before() {
    let drops = Arc::new(AtomicUsize::new(0));
    let mut world = World::new();
    world.insert_resource(Counted(drops.clone()));
    let old = world.insert_resource(Counted(drops.clone()));
    assert_eq!(drops.load(Ordering::SeqCst), 0, "the old value is returned");
    drop(old);
    assert_eq!(drops.load(Ordering::SeqCst), 1);
    world.spawn_with((Position(0.0),)).unwrap();
    drop(world);
    assert_eq!(drops.load(Ordering::SeqCst), 2);
}

/// Falls by the world's `Gravity`; counts the fallers in `Score`.
#[derive(Component, Debug)]
#[component(behaviour)]
struct Falling(f32);

impl Behaviour for Falling {
    fn update(&mut self, ctx: &mut Context<'_>, dt: f32) {
        self.0 += ctx.resource::<Gravity>().map_or(0.0, |g| g.0) * dt;
        if let Some(score) = ctx.resource_mut::<Score>() {
            score.0 += 1;
        }
    }
}

#[test]
fn a_behaviour_reads_one_resource_and_writes_another() {
    let mut world = World::new();
    let a = world.spawn_with((Falling(0.0),)).unwrap();
    let b = world.spawn_with((Falling(0.0), Position(0.0))).unwrap();
    world.update(1.0);
    assert_eq!(world.entity(a).unwrap().get::<Falling>().unwrap().0, 0.0);
    assert!(!world.contains_resource::<Score>(), "reading never inserts");

    world.insert_resource(Gravity(-2.0));
    world.insert_resource(Score(0));
    world.update(0.5);
    world.update(0.5);
    for id in [a, b] {
        assert_eq!(world.entity(id).unwrap().get::<Falling>().unwrap().0, -2.0);
    }
    assert_eq!(world.get_resource::<Score>(), Some(&Score(4)));
}

/// A component type used as a resource too: the running component's column
/// is lent out, the resource is not.
#[derive(Component, Debug, PartialEq)]
#[component(behaviour)]
struct Tally(u32);

impl Behaviour for Tally {
    fn update(&mut self, ctx: &mut Context<'_>, _: f32) {
        assert!(ctx.get::<Tally>().is_none());
        assert!(matches!(ctx.try_get::<Tally>(), Err(Error::InUse { .. })));
        let total = ctx.resource_mut::<Tally>().expect("inserted by the test");
        total.0 += self.0;
    }
}

#[test]
fn the_running_components_type_is_still_reachable_as_a_resource() {
    let mut world = World::new();
    world.insert_resource(Tally(0));
    world.spawn_with((Tally(2),)).unwrap();
    world.spawn_with((Tally(3),)).unwrap();
    assert_eq!(world.update(1.0), 2);
    assert_eq!(world.get_resource::<Tally>(), Some(&Tally(5)));
}

struct Hit(u32);

/// Its damage is scaled by the world's `Difficulty`; it counts hits in `Score`.
#[derive(Component, Debug)]
#[component(receives(Hit))]
struct Health(u32);

struct Difficulty(u32);

impl Receive<Hit> for Health {
    fn receive(&mut self, ctx: &mut Context<'_>, hit: &Hit) {
        let scale = ctx.resource::<Difficulty>().map_or(1, |d| d.0);
        self.0 = self.0.saturating_sub(hit.0 * scale);
        if let Some(score) = ctx.resource_mut::<Score>() {
            score.0 += 1;
        }
    }
}

#[test]
fn a_receiver_reads_and_writes_resources() {
    let mut world = World::new();
    let parent = world.spawn_with((Health(100),)).unwrap();
    let child = world.spawn_with((Health(100),)).unwrap();
    world.set_parent(child, parent).unwrap();
    world.insert_resource(Difficulty(3));
    world.insert_resource(Score(0));
    assert_eq!(world.broadcast(parent, &Hit(10)).unwrap(), 2);
    for id in [parent, child] {
        assert_eq!(world.entity(id).unwrap().get::<Health>().unwrap().0, 70);
    }
    assert_eq!(world.get_resource::<Score>(), Some(&Score(2)));
}

/// Reads the `Score` when attached, into itself.
#[derive(Component, Debug)]
#[component(behaviour)]
struct Snapshot(Option<u32>);

impl Behaviour for Snapshot {
    fn update(&mut self, _: &mut Context<'_>, _: f32) {}
    fn on_attach(&mut self, ctx: &mut Context<'_>) {
        self.0 = ctx.resource::<Score>().map(|s| s.0);
    }
}

#[test]
fn hooks_see_resources_too() {
    let mut world = World::new();
    world.insert_resource(Score(7));
    let id = world.spawn_with((Snapshot(None),)).unwrap();
    assert_eq!(
        world.entity(id).unwrap().get::<Snapshot>().unwrap().0,
        Some(7)
    );
}
