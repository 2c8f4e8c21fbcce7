//! Snapshots: restoring gives back the world exactly (ids, order, names,
//! hierarchy, states, change answers), runs no hook, and refuses what it
//! cannot copy.

use std::sync::atomic::{AtomicUsize, Ordering};

use ecs_core::prelude::*;
use proptest::prelude::*;

#[derive(Component, Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[component(name = "snapshot::Position")]
struct Position(i32);

#[derive(Component, Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[component(name = "snapshot::Velocity")]
struct Velocity(i32);

#[derive(Component, Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[component(multiple, name = "snapshot::Tag")]
struct Tag(u8);

static ATTACHED: AtomicUsize = AtomicUsize::new(0);

#[derive(Component, Clone, Debug, serde::Serialize, serde::Deserialize)]
#[component(behaviour, name = "snapshot::Hooked")]
struct Hooked;
impl Behaviour for Hooked {
    fn update(&mut self, _: &mut Context<'_>, _: f32) {}
    fn on_attach(&mut self, _: &mut Context<'_>) {
        ATTACHED.fetch_add(1, Ordering::SeqCst);
    }
    fn on_detach(&mut self, _: &mut Context<'_>) {
        ATTACHED.fetch_add(1, Ordering::SeqCst);
    }
}

/// Everything a user can observe of a world, as text: its save (entities,
/// components, names, hierarchy, states) and its iteration order.
fn picture(world: &World) -> (String, Vec<EntityId>) {
    let order = world
        .query::<(EntityId,)>()
        .include_inactive()
        .into_iter()
        .map(|(id,)| id)
        .collect();
    (world.save_json().unwrap(), order)
}

#[test]
fn restore_gives_back_ids_order_names_hierarchy_and_states() {
    let mut world = World::new();
    let root = world.spawn_named("root");
    let a = world.spawn_with((Position(1), Velocity(2))).unwrap();
    let b = world.spawn_with((Position(3), Tag(1), Tag(2))).unwrap();
    world.set_parent(a, root).unwrap();
    world.entity_mut(b).unwrap().set_enabled(false);
    let gone = world.spawn_with((Position(9),)).unwrap();
    world.despawn(gone).unwrap();
    let before = picture(&world);
    let frame = world.snapshot().unwrap();

    let first_after = world.spawn();
    world
        .entity_mut(a)
        .unwrap()
        .get_mut::<Position>()
        .unwrap()
        .0 = 100;
    world.despawn(root).unwrap();
    let c = world.spawn_with((Velocity(5),)).unwrap();
    world.entity_mut(b).unwrap().set_enabled(true);
    world.restore(&frame).unwrap();

    assert_eq!(picture(&world), before);
    assert!(world.contains(root) && world.contains(a) && world.contains(b));
    assert!(!world.contains(c), "an id handed out after the snapshot");
    assert!(!world.contains(gone));
    assert_eq!(world.entity(a).unwrap().parent(), Some(root));
    assert_eq!(world.entity(root).unwrap().name(), Some("root"));
    assert!(!world.contains(first_after));
    // The free list is the snapshot's: the next spawn is the id the first
    // spawn after the snapshot got.
    assert_eq!(world.spawn(), first_after);
    // Restoring twice is the same.
    world.restore(&frame).unwrap();
    assert_eq!(picture(&world), before);
}

#[test]
fn no_hook_runs_and_nothing_counts_as_changed_on_restore() {
    let mut world = World::new();
    let a = world.spawn_with((Hooked, Position(0))).unwrap();
    let seen = world.change_tick();
    let frame = world.snapshot().unwrap();
    world.spawn_with((Hooked,)).unwrap();
    world
        .entity_mut(a)
        .unwrap()
        .get_mut::<Position>()
        .unwrap()
        .0 = 1;
    let hooks = ATTACHED.load(Ordering::SeqCst);
    world.restore(&frame).unwrap();
    assert_eq!(ATTACHED.load(Ordering::SeqCst), hooks, "no hook fired");
    assert_eq!(
        world
            .query::<(&Position,)>()
            .changed_since::<Position>(seen)
            .count(),
        0
    );
    assert!(!world.entity(a).unwrap().added_since::<Hooked>(seen));
    assert!(world
        .entity(a)
        .unwrap()
        .added_since::<Hooked>(Tick::default()));
}

#[test]
fn a_whole_segment_written_after_the_snapshot_has_its_old_ticks_after_restore() {
    let mut world = World::new();
    let ids: Vec<EntityId> = (0..10)
        .map(|i| world.spawn_with((Position(i), Velocity(1))).unwrap())
        .collect();
    let seen = world.change_tick();
    // One row changed since `seen` when the snapshot is taken.
    world
        .entity_mut(ids[3])
        .unwrap()
        .get_mut::<Position>()
        .unwrap()
        .0 = 7;
    let frame = world.snapshot().unwrap();
    // A writing query over every row marks the segment as a whole.
    for (p, v) in world.query_mut::<(&mut Position, &Velocity)>() {
        p.0 += v.0;
    }
    let changed = |world: &World| {
        (world.query::<(&Position,)>())
            .changed_since::<Position>(seen)
            .count()
    };
    assert_eq!(changed(&world), 10);
    world.restore(&frame).unwrap();
    assert_eq!(changed(&world), 1);
    // Restored in place twice: the second from a world marked again.
    for (p, v) in world.query_mut::<(&mut Position, &Velocity)>() {
        p.0 += v.0;
    }
    world.restore(&frame).unwrap();
    assert_eq!(changed(&world), 1);
}

#[test]
fn a_type_without_clone_is_named_and_the_world_is_untouched() {
    #[derive(Component, Debug)]
    struct Socket;
    let mut world = World::new();
    world.spawn_with((Position(1),)).unwrap();
    let frame = world.snapshot().unwrap();
    world.spawn_with((Socket,)).unwrap();
    let err = world.snapshot().unwrap_err();
    assert!(matches!(err, Error::Lacks { name: "Socket", .. }), "{err}");
    assert!(err
        .to_string()
        .contains("derive or implement it for `Socket`"));
    // Restoring an earlier snapshot drops the value (it was not in it).
    world.restore(&frame).unwrap();
    assert_eq!(world.len(), 1);
}

#[test]
fn resources_and_observers_stay_across_a_restore() {
    struct Frame(u32);
    let mut world = World::new();
    world.insert_resource(Frame(1));
    let frame = world.snapshot().unwrap();
    world.get_resource_mut::<Frame>().unwrap().0 = 2;
    let heard = std::sync::Arc::new(AtomicUsize::new(0));
    let count = std::sync::Arc::clone(&heard);
    world.observe::<Position>(ComponentEvent::Added, move |_| {
        count.fetch_add(1, Ordering::SeqCst);
    });
    world.restore(&frame).unwrap();
    assert_eq!(world.get_resource::<Frame>().unwrap().0, 2);
    world.spawn_with((Position(0),)).unwrap();
    assert_eq!(heard.load(Ordering::SeqCst), 1);
}

#[test]
fn a_snapshot_from_inside_an_update_is_refused() {
    #[derive(Component, Clone)]
    #[component(behaviour)]
    struct Recorder(Option<String>);
    impl Behaviour for Recorder {
        fn update(&mut self, ctx: &mut Context<'_>, _: f32) {
            self.0 = ctx.world().snapshot().err().map(|e| e.to_string());
        }
    }
    let mut world = World::new();
    let id = world.spawn_with((Recorder(None),)).unwrap();
    world.update(1.0);
    let said = world
        .entity(id)
        .unwrap()
        .get::<Recorder>()
        .unwrap()
        .0
        .clone();
    assert_eq!(
        said.as_deref(),
        Some(
            "a snapshot cannot be taken while `Recorder` runs (its components are lent out to \
             it); take it between updates, or queue it with `ctx.commands().run(|world| ..)`"
        )
    );
}

/// One step of the model test.
#[derive(Clone, Debug)]
enum Op {
    Spawn(i32),
    Despawn(usize),
    AddTag(usize, u8),
    RemoveVelocity(usize),
    Write(usize, i32),
    Disable(usize, bool),
    Parent(usize, usize),
    Name(usize),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        any::<i32>().prop_map(Op::Spawn),
        any::<usize>().prop_map(Op::Despawn),
        (any::<usize>(), any::<u8>()).prop_map(|(i, t)| Op::AddTag(i, t)),
        any::<usize>().prop_map(Op::RemoveVelocity),
        (any::<usize>(), any::<i32>()).prop_map(|(i, v)| Op::Write(i, v)),
        (any::<usize>(), any::<bool>()).prop_map(|(i, e)| Op::Disable(i, e)),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Op::Parent(a, b)),
        any::<usize>().prop_map(Op::Name),
    ]
}

fn apply(world: &mut World, op: &Op) {
    let ids: Vec<EntityId> = world
        .query::<(EntityId,)>()
        .include_inactive()
        .into_iter()
        .map(|(id,)| id)
        .collect();
    let pick = |i: usize| (!ids.is_empty()).then(|| ids[i % ids.len()]);
    match *op {
        Op::Spawn(v) => {
            world.spawn_with((Position(v), Velocity(-v))).unwrap();
        }
        Op::Despawn(i) => {
            if let Some(id) = pick(i) {
                world.despawn(id).unwrap();
            }
        }
        Op::AddTag(i, t) => {
            if let Some(id) = pick(i) {
                world.entity_mut(id).unwrap().add(Tag(t)).unwrap();
            }
        }
        Op::RemoveVelocity(i) => {
            if let Some(id) = pick(i) {
                let _ = world.entity_mut(id).unwrap().remove::<Velocity>();
            }
        }
        Op::Write(i, v) => {
            if let Some(p) = pick(i).and_then(|id| world.entity_mut(id).ok()) {
                let mut p = p;
                if let Some(p) = p.get_mut::<Position>() {
                    p.0 = v;
                }
            }
        }
        Op::Disable(i, enabled) => {
            if let Some(id) = pick(i) {
                world.entity_mut(id).unwrap().set_enabled(enabled);
            }
        }
        Op::Parent(a, b) => {
            if let (Some(a), Some(b)) = (pick(a), pick(b)) {
                let _ = world.set_parent(a, b);
            }
        }
        Op::Name(i) => {
            if let Some(id) = pick(i) {
                world.entity_mut(id).unwrap().set_name(Some("n"));
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Snapshot at a random step, go on, restore: the world is the one of
    /// that step, and it goes on exactly as it did from there.
    #[test]
    fn restore_after_any_sequence_gives_the_world_of_that_step(
        ops in proptest::collection::vec(op(), 1..40),
        at in any::<usize>(),
    ) {
        let at = at % ops.len();
        let mut world = World::new();
        for op in &ops[..at] {
            apply(&mut world, op);
        }
        let expected = picture(&world);
        let frame = world.snapshot().unwrap();
        for op in &ops[at..] {
            apply(&mut world, op);
        }
        let ended = picture(&world);
        world.restore(&frame).unwrap();
        prop_assert_eq!(picture(&world), expected);
        // Re-simulating from the restored world is deterministic.
        for op in &ops[at..] {
            apply(&mut world, op);
        }
        prop_assert_eq!(picture(&world), ended);
    }
}

static LIVE: AtomicUsize = AtomicUsize::new(0);
static CLONES_LEFT: AtomicUsize = AtomicUsize::new(usize::MAX);

/// Counts its live values; its `clone` panics once `CLONES_LEFT` runs out.
#[derive(Component, Debug)]
#[component(name = "snapshot::Fragile")]
struct Fragile(u32);

impl Fragile {
    fn new(v: u32) -> Self {
        LIVE.fetch_add(1, Ordering::SeqCst);
        Fragile(v)
    }
}

impl Clone for Fragile {
    fn clone(&self) -> Self {
        if CLONES_LEFT.fetch_sub(1, Ordering::SeqCst) == 0 {
            panic!("clone failed");
        }
        Fragile::new(self.0)
    }
}

impl Drop for Fragile {
    fn drop(&mut self) {
        LIVE.fetch_sub(1, Ordering::SeqCst);
    }
}

#[test]
fn a_clone_that_panics_half_way_leaves_the_world_and_every_value_whole() {
    let mut world = World::new();
    for i in 0..10 {
        world.spawn_with((Fragile::new(i),)).unwrap();
    }
    let frame = world.snapshot().unwrap();
    assert_eq!(LIVE.load(Ordering::SeqCst), 20);
    CLONES_LEFT.store(4, Ordering::SeqCst);
    let taken = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| world.snapshot()));
    assert!(taken.is_err());
    CLONES_LEFT.store(4, Ordering::SeqCst);
    let restored = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| world.restore(&frame)));
    assert!(restored.is_err());
    CLONES_LEFT.store(usize::MAX, Ordering::SeqCst);
    // The clones made before each panic were dropped; the world is as it
    // was, and a restore now works.
    assert_eq!(LIVE.load(Ordering::SeqCst), 20);
    assert_eq!(world.query::<(&Fragile,)>().count(), 10);
    world.restore(&frame).unwrap();
    assert_eq!(LIVE.load(Ordering::SeqCst), 20);
    drop(frame);
    drop(world);
    assert_eq!(LIVE.load(Ordering::SeqCst), 0);
}

thread_local! {
    /// `Brittle` values alive on this thread.
    static BRITTLE_LIVE: std::cell::Cell<isize> = const { std::cell::Cell::new(0) };
    /// Clones left before a `Brittle` clone panics.
    static BRITTLE_CLONES_LEFT: std::cell::Cell<usize> = const { std::cell::Cell::new(usize::MAX) };
    /// The value whose next `Drop` panics.
    static BRITTLE_DROP_PANICS: std::cell::Cell<Option<u32>> = const { std::cell::Cell::new(None) };
}

/// Counts its live values (per thread, so tests do not race); its `clone`
/// panics once `BRITTLE_CLONES_LEFT` runs out, its `drop` when it holds
/// the value `BRITTLE_DROP_PANICS` names.
#[derive(Component, Debug)]
#[component(name = "snapshot::Brittle")]
struct Brittle(u32);

impl Brittle {
    fn new(v: u32) -> Self {
        BRITTLE_LIVE.set(BRITTLE_LIVE.get() + 1);
        Brittle(v)
    }
}

impl Clone for Brittle {
    fn clone(&self) -> Self {
        let left = BRITTLE_CLONES_LEFT.get();
        if left == 0 {
            panic!("clone failed");
        }
        BRITTLE_CLONES_LEFT.set(left - 1);
        Brittle::new(self.0)
    }
}

impl Drop for Brittle {
    fn drop(&mut self) {
        BRITTLE_LIVE.set(BRITTLE_LIVE.get() - 1);
        if BRITTLE_DROP_PANICS.get() == Some(self.0) {
            BRITTLE_DROP_PANICS.set(None);
            panic!("drop failed");
        }
    }
}

/// Each entity with its `Brittle` and `Position`, in iteration order.
fn brittle_picture(world: &World) -> BrittleRows {
    let rows = world.query::<(EntityId,)>().include_inactive().into_iter();
    rows.map(|(id,)| {
        let e = world.entity(id).unwrap();
        (
            id,
            e.get::<Brittle>().map(|b| b.0),
            e.get::<Position>().map(|p| p.0),
        )
    })
    .collect()
}

/// Rows of [`brittle_picture`].
type BrittleRows = Vec<(EntityId, Option<u32>, Option<i32>)>;

/// A world of `Brittle`s in two tables, changed since its snapshot was
/// taken (within the same tables, so a restore is in place); the
/// snapshot, and the world's picture when it was taken.
fn brittle_world() -> (World, Snapshot, BrittleRows) {
    let mut world = World::new();
    let mut ids = Vec::new();
    for i in 0..10 {
        ids.push(world.spawn_with((Brittle::new(i),)).unwrap());
        world
            .spawn_with((Position(i as i32), Brittle::new(100 + i)))
            .unwrap();
    }
    let frame = world.snapshot().unwrap();
    let then = brittle_picture(&world);
    world.despawn(ids[3]).unwrap();
    world.spawn_with((Brittle::new(50),)).unwrap();
    for (b,) in world.query_mut::<(&mut Brittle,)>() {
        b.0 += 1000;
    }
    (world, frame, then)
}

#[test]
fn a_clone_that_panics_during_a_restore_in_place_leaves_the_world_as_it_was() {
    let (mut world, frame, then) = brittle_world();
    let changed = brittle_picture(&world);
    let live = BRITTLE_LIVE.get();
    // Both tables: a panic in the first and one in the second.
    for left in [4, 15] {
        BRITTLE_CLONES_LEFT.set(left);
        let restored =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| world.restore(&frame)));
        BRITTLE_CLONES_LEFT.set(usize::MAX);
        assert!(restored.is_err());
        assert_eq!(brittle_picture(&world), changed);
        assert_eq!(BRITTLE_LIVE.get(), live, "the clones made were dropped");
    }
    // The world works on, and a restore now succeeds.
    world.spawn_with((Brittle::new(7),)).unwrap();
    world.restore(&frame).unwrap();
    assert_eq!(brittle_picture(&world), then);
    assert_eq!(BRITTLE_LIVE.get(), 20 * 2);
    drop((world, frame));
    assert_eq!(BRITTLE_LIVE.get(), 0);
}

#[test]
fn a_drop_that_panics_during_a_restore_leaves_the_world_restored() {
    let (mut world, frame, then) = brittle_world();
    // An old value (changed since the snapshot, so only the world has it)
    // panics when dropped.
    BRITTLE_DROP_PANICS.set(Some(1005));
    let restored = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| world.restore(&frame)));
    assert!(restored.is_err());
    assert_eq!(BRITTLE_DROP_PANICS.get(), None, "the panicking drop ran");
    let picture = brittle_picture(&world);
    assert_eq!(picture, then);
    // Every old value was dropped once: the world and the snapshot hold
    // 20 each.
    assert_eq!(BRITTLE_LIVE.get(), 20 * 2);
    // The world works on: a second restore, a change, a despawn.
    world.restore(&frame).unwrap();
    let id = picture[0].0;
    world
        .entity_mut(id)
        .unwrap()
        .get_mut::<Brittle>()
        .unwrap()
        .0 = 9;
    world.despawn(id).unwrap();
    assert_eq!(BRITTLE_LIVE.get(), 20 * 2 - 1);
    drop((world, frame));
    assert_eq!(BRITTLE_LIVE.get(), 0);
}
