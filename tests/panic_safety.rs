//! A panic in any user code the world calls (hooks, receivers, `Clone`,
//! `Default`, serde impls) propagates, and leaves the world consistent and
//! usable: the operation that panicked either happened whole or not at all.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

use ecs_core::prelude::*;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

mod common;
use common::Position;

/// Set to make the next call of the matching user code panic.
static ARMED: AtomicBool = AtomicBool::new(false);
/// `ARMED` is global: each test holds this for its whole run, so no other
/// test's user code can trip over it.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// How many armed calls of user code pass before one panics.
static SPARED: AtomicU32 = AtomicU32::new(0);

fn exclusive() -> std::sync::MutexGuard<'static, ()> {
    let guard = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    ARMED.store(false, Ordering::SeqCst);
    SPARED.store(0, Ordering::SeqCst);
    guard
}

fn arm() {
    arm_after(0);
}

/// Makes the call of user code after the next `spared` ones panic: for
/// operations that run user code at several points, the panic lands in
/// the middle.
fn arm_after(spared: u32) {
    SPARED.store(spared, Ordering::SeqCst);
    ARMED.store(true, Ordering::SeqCst);
}

fn boom(what: &str) {
    if !ARMED.load(Ordering::SeqCst) {
        return;
    }
    if SPARED.load(Ordering::SeqCst) > 0 {
        SPARED.fetch_sub(1, Ordering::SeqCst);
        return;
    }
    ARMED.store(false, Ordering::SeqCst);
    panic!("user code panicked in {what}");
}

/// Every hook can be made to panic once.
#[derive(Component, Debug, Default)]
#[component(behaviour, receives(Ping))]
struct Fragile;

struct Ping;

impl Behaviour for Fragile {
    fn update(&mut self, _: &mut Context<'_>, _: f32) {}
    fn on_attach(&mut self, _: &mut Context<'_>) {
        boom("on_attach");
    }
    fn on_enable(&mut self, _: &mut Context<'_>) {
        boom("on_enable");
    }
    fn on_disable(&mut self, _: &mut Context<'_>) {
        boom("on_disable");
    }
    fn on_kill(&mut self, _: &mut Context<'_>) {
        boom("on_kill");
    }
    fn on_revive(&mut self, _: &mut Context<'_>) {
        boom("on_revive");
    }
}

impl Receive<Ping> for Fragile {
    fn receive(&mut self, ctx: &mut Context<'_>, _: &Ping) {
        ctx.commands().spawn((Position(9.0),));
        boom("receive");
    }
}

/// `Clone`, `Default`, `Serialize` and `Deserialize` that can panic.
#[derive(Component, Debug, PartialEq)]
struct Touchy(u32);

impl Clone for Touchy {
    fn clone(&self) -> Self {
        boom("clone");
        Touchy(self.0)
    }
}
impl Default for Touchy {
    fn default() -> Self {
        boom("default");
        Touchy(1)
    }
}
impl Serialize for Touchy {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        boom("serialize");
        s.serialize_u32(self.0)
    }
}
impl<'de> Deserialize<'de> for Touchy {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let n = u32::deserialize(d)?;
        if n == 13 {
            boom("deserialize");
        }
        Ok(Touchy(n))
    }
}

#[derive(Component, Debug, Default, PartialEq, Clone, Serialize, Deserialize)]
#[component(requires(Touchy))]
struct NeedsTouchy;

/// The world still works: every kind of operation, and an update.
fn still_usable(world: &mut World) {
    let id = world.spawn_with((Position(1.0),)).unwrap();
    world.entity_mut(id).unwrap().add(Fragile).unwrap();
    world.update(0.1);
    assert_eq!(world.send(id, &Ping).unwrap(), 1);
    world.despawn(id).unwrap();
    // Saving works, or names the types that cannot be saved.
    match world.save_json() {
        Ok(json) => assert_eq!(World::load_json(&json).unwrap().len(), world.len()),
        Err(error) => assert!(matches!(error, Error::NotSerializable { .. }), "{error}"),
    }
}

fn panics(f: impl FnOnce()) -> bool {
    catch_unwind(AssertUnwindSafe(f)).is_err()
}

#[test]
fn a_panicking_attach_or_enable_hook_leaves_the_component_attached() {
    let _exclusive = exclusive();
    arm();
    let mut world = World::new();
    let id = world.spawn();
    assert!(panics(|| {
        world.entity_mut(id).unwrap().add(Fragile).unwrap();
    }));
    assert!(
        world.entity(id).unwrap().has::<Fragile>(),
        "the add happened; its hook did not finish"
    );
    still_usable(&mut world);
}

#[test]
fn panicking_enable_disable_kill_and_revive_hooks_keep_the_new_state() {
    let _exclusive = exclusive();
    let mut world = World::new();
    let id = world.spawn_with((Fragile,)).unwrap();
    arm();
    assert!(panics(|| {
        world.entity_mut(id).unwrap().disable::<Fragile>();
    }));
    assert!(world
        .entity(id)
        .unwrap()
        .get_filtered::<Fragile>(Filter::Disabled)
        .is_some());
    arm();
    assert!(panics(|| {
        world.entity_mut(id).unwrap().enable::<Fragile>();
    }));
    assert!(world
        .entity(id)
        .unwrap()
        .get_filtered::<Fragile>(Filter::Enabled)
        .is_some());
    arm();
    assert!(panics(|| world.entity_mut(id).unwrap().kill()));
    assert!(world.entity(id).unwrap().is_dead());
    arm();
    assert!(panics(|| world.entity_mut(id).unwrap().revive()));
    assert!(!world.entity(id).unwrap().is_dead());
    still_usable(&mut world);
}

#[test]
fn a_panicking_receiver_discards_its_queued_changes() {
    let _exclusive = exclusive();
    let mut world = World::new();
    let a = world.spawn_with((Fragile,)).unwrap();
    let b = world.spawn_with((Fragile,)).unwrap();
    world.set_parent(b, a).unwrap();
    arm();
    assert!(panics(|| {
        world.broadcast(a, &Ping).unwrap();
    }));
    assert_eq!(
        world.len(),
        2,
        "the spawn queued before the panic was dropped"
    );
    assert_eq!(
        world.broadcast(a, &Ping).unwrap(),
        2,
        "both receivers work again"
    );
    assert_eq!(world.len(), 4, "and their queued spawns apply");
    still_usable(&mut world);
}

#[test]
fn a_panicking_clone_creates_nothing() {
    let _exclusive = exclusive();
    let mut world = World::new();
    let id = world.spawn_with((Position(1.0), Touchy(4))).unwrap();
    arm();
    assert!(panics(|| {
        world.clone_entity(id).unwrap();
    }));
    assert_eq!(world.len(), 1);
    assert_eq!(world.iter::<Touchy>().count(), 1);
    assert!(world.clone_entity(id).is_ok());
    still_usable(&mut world);
}

#[test]
fn a_panicking_default_takes_the_whole_add_back() {
    let _exclusive = exclusive();
    let mut world = World::new();
    let id = world.spawn_with((Position(1.0),)).unwrap();
    arm();
    assert!(panics(|| {
        world.entity_mut(id).unwrap().add(NeedsTouchy).unwrap();
    }));
    let e = world.entity(id).unwrap();
    assert!(
        !e.has::<NeedsTouchy>() && !e.has::<Touchy>(),
        "all or nothing"
    );
    assert_eq!(world.iter::<NeedsTouchy>().count(), 0);
    arm();
    assert!(panics(|| {
        world.entity_mut(id).unwrap().add_by_name("Touchy").unwrap();
    }));
    assert!(!world.entity(id).unwrap().has::<Touchy>());
    world.entity_mut(id).unwrap().add(NeedsTouchy).unwrap();
    assert_eq!(world.entity(id).unwrap().len(), 3);
    still_usable(&mut world);
}

#[test]
fn a_panicking_serialize_writes_nothing_and_changes_nothing() {
    let _exclusive = exclusive();
    let mut world = World::new();
    world.spawn_with((Touchy(2),)).unwrap();
    arm();
    assert!(panics(|| {
        let _ = world.save_json();
    }));
    assert!(world.save_json().is_ok());
    still_usable(&mut world);
}

#[test]
fn a_panicking_deserialize_leaves_no_half_spawned_blueprint() {
    let _exclusive = exclusive();
    let ok = Blueprint::from_json(
        r#"{"components": [{"type": "Touchy", "data": 13}, {"type": "Position", "data": 2}]}"#,
    )
    .unwrap();
    let mut world = World::new();
    world.spawn_with((Position(0.0),)).unwrap();
    arm();
    assert!(panics(|| {
        world.spawn_blueprints(&ok, 5).unwrap();
    }));
    assert_eq!(world.len(), 1);
    assert_eq!(world.iter::<Position>().count(), 1);
    assert_eq!(world.spawn_blueprints(&ok, 5).unwrap().len(), 5);

    // The panic comes after the row already holds a value: that value is
    // taken back too, and the table stays whole for the next spawn.
    let second = Blueprint::from_json(
        r#"{"components": [{"type": "Position", "data": 3}, {"type": "Touchy", "data": 13}]}"#,
    )
    .unwrap();
    arm();
    assert!(panics(|| {
        world.spawn_blueprints(&second, 3).unwrap();
    }));
    assert_eq!(world.len(), 6);
    assert_eq!(world.iter::<Position>().count(), 6);
    assert_eq!(world.spawn_blueprints(&second, 2).unwrap().len(), 2);
    assert_eq!(
        world.iter::<Position>().filter(|(_, p)| p.0 == 3.0).count(),
        2
    );
    let touchy = world.iter::<Touchy>().next().unwrap().0;
    world.despawn(touchy).unwrap();
    assert_eq!(world.len(), 7);

    let json = world.save_json().unwrap();
    arm();
    assert!(panics(|| {
        let _ = World::load_json(&json);
    }));
    assert_eq!(World::load_json(&json).unwrap().len(), 7);
    still_usable(&mut world);
}

/// A requirement's panicking `Default` while spawning from data takes back
/// everything that spawn made: no entity is left holding a component
/// without its requirement.
#[test]
fn a_panicking_default_of_a_requirement_takes_the_whole_spawn_back() {
    let _exclusive = exclusive();
    let mut world = World::new();
    world.spawn_with((Position(0.0),)).unwrap();
    let blueprint = Blueprint::from_json(
        r#"{"components": [{"type": "NeedsTouchy"}, {"type": "Position", "data": 2}]}"#,
    )
    .unwrap();
    arm();
    assert!(panics(|| {
        world.spawn_blueprints(&blueprint, 5).unwrap();
    }));
    assert_eq!(world.len(), 1, "no entity of the failed spawn is left");
    assert_eq!(world.iter::<NeedsTouchy>().count(), 0);
    arm();
    assert!(panics(|| {
        world.spawn_blueprint(&blueprint).unwrap();
    }));
    assert_eq!(world.len(), 1);
    // A clone whose original lost its requirement adds it back: the same
    // rule when that `Default` panics.
    let original = world.spawn_with((NeedsTouchy,)).unwrap();
    world
        .entity_mut(original)
        .unwrap()
        .remove::<Touchy>()
        .unwrap();
    arm();
    assert!(panics(|| {
        world.clone_entity(original).unwrap();
    }));
    assert_eq!(world.len(), 2, "the clone is taken back");
    assert_eq!(world.iter::<NeedsTouchy>().count(), 1);
    still_usable(&mut world);
}

/// Panics in `on_detach` when armed.
#[derive(Component, Debug, Default)]
#[component(behaviour)]
struct BrittleDetach;

impl Behaviour for BrittleDetach {
    fn update(&mut self, _: &mut Context<'_>, _: f32) {}
    fn on_detach(&mut self, _: &mut Context<'_>) {
        boom("on_detach");
    }
}

/// Counts its updates.
#[derive(Component, Debug, Default)]
#[component(behaviour)]
struct Ticker(u32);

impl Behaviour for Ticker {
    fn update(&mut self, _: &mut Context<'_>, _: f32) {
        self.0 += 1;
    }
}

/// Removing several components fires their hooks newest first; when one
/// panics, those already told they are detached are removed (none stays
/// attached, and updating, after its `on_detach`), and the rest stay.
#[test]
fn a_panicking_detach_hook_removes_the_components_already_detached() {
    let _exclusive = exclusive();
    let mut world = World::new();
    for despawn in [false, true] {
        let id = world.spawn_with((BrittleDetach, Ticker(0))).unwrap();
        arm();
        assert!(panics(|| {
            if despawn {
                world.despawn(id).unwrap();
            } else {
                world.entity_mut(id).unwrap().detach_all();
            }
        }));
        let e = world.entity(id).unwrap();
        assert!(
            e.has::<BrittleDetach>(),
            "the hook that panicked aborts its own removal"
        );
        assert!(!e.has::<Ticker>(), "detached before the panic, so removed");
        world.update(1.0);
        assert_eq!(world.iter::<Ticker>().count(), 0);
        world.despawn(id).unwrap();
    }
    still_usable(&mut world);
}

/// Queues a spawn from its attach hook.
#[derive(Component, Debug, Default)]
#[component(behaviour)]
struct Herald;

impl Behaviour for Herald {
    fn update(&mut self, _ctx: &mut Context<'_>, _dt: f32) {}
    fn on_attach(&mut self, ctx: &mut Context<'_>) {
        ctx.commands().spawn((Position(99.0),));
    }
}

/// Queues a spawn from its attach hook, and makes the next user code
/// panic.
#[derive(Component, Debug, Default)]
#[component(behaviour)]
struct ArmingHerald;

impl Behaviour for ArmingHerald {
    fn update(&mut self, _ctx: &mut Context<'_>, _dt: f32) {}
    fn on_attach(&mut self, ctx: &mut Context<'_>) {
        ctx.commands().spawn((Position(98.0),));
        arm();
    }
}

/// An operation taken back leaves nothing queued behind it: hooks run only
/// once every component and requirement is in, so a requirement that fails
/// (here a panicking `Default`) stops the spawn before any hook could queue
/// work for components that then vanish.
#[test]
fn a_spawn_taken_back_leaves_no_queued_work() {
    let _exclusive = exclusive();
    let mut world = World::new();
    arm();
    assert!(panics(|| {
        let _ = world.spawn_with((Herald, NeedsTouchy));
    }));
    assert_eq!(world.len(), 0, "the spawn happened whole or not at all");
    let e = world.spawn();
    arm();
    assert!(panics(|| {
        let _ = world.entity_mut(e).unwrap().add(NeedsTouchy);
    }));
    world.entity_mut(e).unwrap().add(Herald).unwrap();
    // A batch taken back takes back the work its hooks queued: the first
    // entity's hook queues a spawn and arms the second's `Default`.
    assert!(panics(|| {
        let _ = world.spawn_batch([(ArmingHerald, NeedsTouchy), (ArmingHerald, NeedsTouchy)]);
    }));
    assert_eq!(world.len(), 1, "the batch happened whole or not at all");
    world.despawn(e).unwrap();
    world.apply_commands();
    // Only the add that stayed (Herald on `e`) queued its spawn.
    let positions: Vec<f32> = world
        .query::<(&Position,)>()
        .into_iter()
        .map(|(p,)| p.0)
        .collect();
    assert_eq!(positions, [99.0]);
    assert_eq!(world.len(), 1);
    still_usable(&mut world);
}

/// A `multiple` type whose enable and disable hooks can panic.
#[derive(Component, Debug, Default)]
#[component(multiple, behaviour)]
struct Brittle;

impl Behaviour for Brittle {
    fn update(&mut self, _: &mut Context<'_>, _: f32) {}
    fn on_enable(&mut self, _: &mut Context<'_>) {
        boom("on_enable");
    }
    fn on_disable(&mut self, _: &mut Context<'_>) {
        boom("on_disable");
    }
}

/// Operations that run user code at several points, with the panic in the
/// middle (the second call): a world-wide disable, an entity's disable, a
/// broadcast, a tree clone. Each keeps the world consistent and usable, and
/// does what its own rule says: state changes are kept whole, spawns are
/// taken back whole.
#[test]
fn a_panic_in_the_middle_of_a_many_step_operation_keeps_the_world_whole() {
    let _exclusive = exclusive();
    let mut world = World::new();
    let e = world.spawn_with((Brittle, Brittle, Brittle)).unwrap();
    arm_after(1);
    assert!(panics(|| {
        world.entity_mut(e).unwrap().disable::<Brittle>();
    }));
    assert_eq!(
        world
            .entity(e)
            .unwrap()
            .get_all_filtered::<Brittle>(Filter::Disabled)
            .count(),
        3,
        "every Brittle is disabled: the new state is kept whole"
    );
    world.entity_mut(e).unwrap().enable::<Brittle>();
    arm_after(1);
    assert!(panics(|| world.entity_mut(e).unwrap().set_enabled(false)));
    assert!(
        !world.entity(e).unwrap().is_enabled(),
        "the entity is disabled"
    );
    world.entity_mut(e).unwrap().set_enabled(true);

    let ids: Vec<EntityId> = (0..3)
        .map(|_| world.spawn_with((Fragile,)).unwrap())
        .collect();

    world.set_parent(ids[1], ids[0]).unwrap();
    world.set_parent(ids[2], ids[1]).unwrap();
    arm_after(1);
    assert!(panics(|| {
        world.broadcast(ids[0], &Ping).unwrap();
    }));
    world.apply_commands();
    let before = world.len();
    assert_eq!(
        world.broadcast(ids[0], &Ping).unwrap(),
        3,
        "every receiver works again"
    );

    let root = world.spawn_with((Touchy(1),)).unwrap();
    for _ in 0..2 {
        let child = world.spawn_with((Touchy(2),)).unwrap();
        world.set_parent(child, root).unwrap();
    }
    let count = world.len();
    arm_after(1);
    assert!(panics(|| {
        world.clone_tree(root).unwrap();
    }));
    assert_eq!(world.len(), count, "a tree clone taken back whole");
    assert!(before <= world.len());
    world.apply_commands();
    still_usable(&mut world);
}
