//! Diffs and patches: `world.diff(&snapshot)` then `apply_patch` on a world
//! equal to the snapshot gives the diffed world (ids, components and
//! values in order, enabled states, flags, layers, names and their order,
//! hierarchy, the next ids handed out), through either encoding; a patch
//! that does not fit is refused with the world untouched.

use std::sync::atomic::{AtomicUsize, Ordering};

use ecs_core::prelude::*;
use ecs_core::WorldPatch;
use proptest::prelude::*;

#[derive(Component, Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[component(name = "patch::Position")]
struct Position(i32);

#[derive(Component, Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[component(name = "patch::Velocity")]
struct Velocity {
    dx: i32,
    dy: Option<i32>,
}

#[derive(Component, Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[component(multiple, name = "patch::Tag")]
struct Tag(u8);

static HOOKS: AtomicUsize = AtomicUsize::new(0);

#[derive(Component, Clone, Debug, serde::Serialize, serde::Deserialize)]
#[component(behaviour, name = "patch::Hooked")]
struct Hooked(u8);
impl Behaviour for Hooked {
    fn update(&mut self, _: &mut Context<'_>, _: f32) {}
    fn on_attach(&mut self, _: &mut Context<'_>) {
        HOOKS.fetch_add(1, Ordering::SeqCst);
    }
    fn on_detach(&mut self, _: &mut Context<'_>) {
        HOOKS.fetch_add(1, Ordering::SeqCst);
    }
}

/// One entity as a user sees it, ids as bits (worlds differ in tag).
#[derive(Debug, PartialEq)]
struct Seen {
    id: u64,
    name: Option<String>,
    parent: Option<u64>,
    children: Vec<u64>,
    enabled: bool,
    dead: bool,
    layers: u32,
    components: Vec<(&'static str, bool, String)>,
}

/// Everything observable of a world: its entities in slot order, and for
/// each name the entities carrying it in naming order.
fn picture(world: &World) -> (Vec<Seen>, Vec<Vec<u64>>) {
    let mut names = Vec::new();
    let entities = world
        .iter_ids()
        .map(|id| {
            let e = world.entity(id).unwrap();
            if let Some(name) = e.name() {
                names.push(world.find_all_by_name(name).map(|i| i.to_bits()).collect());
            }
            Seen {
                id: id.to_bits(),
                name: e.name().map(str::to_owned),
                parent: e.parent().map(EntityId::to_bits),
                children: e.children().map(EntityId::to_bits).collect(),
                enabled: e.is_enabled(),
                dead: e.is_dead(),
                layers: e.layers(),
                components: e
                    .components()
                    .map(|c| (c.name(), c.enabled, format!("{:?}", c.value.unwrap())))
                    .collect(),
            }
        })
        .collect();
    (entities, names)
}

/// The ids the next three spawns hand out, as bits (the world is given
/// back as it was).
fn next_ids(world: &mut World) -> Vec<u64> {
    let frame = world.snapshot().unwrap();
    let ids = (0..3).map(|_| world.spawn().to_bits()).collect();
    world.restore(&frame).unwrap();
    ids
}

/// A fresh world restored to `frame`, with `patch` applied.
fn replay(frame: &Snapshot, patch: &WorldPatch) -> World {
    let mut replica = World::new();
    replica.restore(frame).unwrap();
    replica.apply_patch(patch).unwrap();
    replica
}

fn assert_same(a: &mut World, b: &mut World) {
    assert_eq!(picture(a), picture(b));
    assert_eq!(next_ids(a), next_ids(b));
}

#[test]
fn a_written_field_travels_as_a_merge_patch_and_an_equal_write_as_nothing() {
    let mut world = World::new();
    let a = world
        .spawn_with((Velocity { dx: 1, dy: Some(2) },))
        .unwrap();
    let b = world.spawn_with((Position(7),)).unwrap();
    let frame = world.snapshot().unwrap();
    world
        .entity_mut(b)
        .unwrap()
        .get_mut::<Position>()
        .unwrap()
        .0 = 7;
    assert!(world.diff(&frame).unwrap().is_empty(), "written but equal");
    world
        .entity_mut(a)
        .unwrap()
        .get_mut::<Velocity>()
        .unwrap()
        .dx = 5;
    let patch = world.diff(&frame).unwrap();
    let json = patch.to_json().unwrap();
    assert!(
        json.contains(r#""set":[{"at":0,"patch":{"dx":5},"type":"patch::Velocity"}]"#),
        "{json}"
    );
    assert!(!json.contains("patch::Position"), "{json}");
    let mut replica = replay(&frame, &WorldPatch::from_json(&json).unwrap());
    assert_same(&mut world, &mut replica);
}

/// A query that writes every row marks its tables whole; the diff still
/// finds each value written, in every table.
#[test]
fn a_whole_table_written_by_a_query_is_diffed() {
    let mut world = World::new();
    let a = world.spawn_with((Position(1),)).unwrap();
    world.spawn_with((Position(2), Tag(0))).unwrap();
    let frame = world.snapshot().unwrap();
    for (p,) in world.query_mut::<(&mut Position,)>() {
        p.0 += 10;
    }
    // A row moving tables after the whole-table write keeps its change.
    world.entity_mut(a).unwrap().add(Tag(1)).unwrap();
    let patch = world.diff(&frame).unwrap();
    assert!(!patch.is_empty());
    let mut replica = replay(&frame, &patch);
    assert_same(&mut world, &mut replica);
}

#[test]
fn a_field_become_null_travels_whole() {
    let mut world = World::new();
    let a = world
        .spawn_with((Velocity { dx: 1, dy: Some(2) },))
        .unwrap();
    let frame = world.snapshot().unwrap();
    world
        .entity_mut(a)
        .unwrap()
        .get_mut::<Velocity>()
        .unwrap()
        .dy = None;
    let json = world.diff(&frame).unwrap().to_json().unwrap();
    assert!(json.contains(r#""data":{"dx":1,"dy":null}"#), "{json}");
    let mut replica = replay(&frame, &WorldPatch::from_json(&json).unwrap());
    assert_same(&mut world, &mut replica);
}

#[test]
fn spawns_and_despawns_keep_ids_and_the_ids_handed_out_next() {
    let mut world = World::new();
    let ids: Vec<EntityId> = (0..4)
        .map(|i| world.spawn_with((Position(i),)).unwrap())
        .collect();
    world.despawn(ids[1]).unwrap();
    let frame = world.snapshot().unwrap();
    world.despawn(ids[2]).unwrap();
    let c = world.spawn_with((Position(10), Tag(1))).unwrap(); // reuses a slot
    let d = world.spawn(); // and another
    world.despawn(d).unwrap(); // a slot spawned and freed again
    let patch = world.diff(&frame).unwrap();
    let bytes = patch.to_binary().unwrap();
    let mut replica = replay(&frame, &WorldPatch::from_binary(&bytes).unwrap());
    assert!(replica.contains(replica.id_from_bits(c.to_bits())));
    assert_same(&mut world, &mut replica);
}

#[test]
fn components_added_and_removed_keep_each_entitys_order_and_enabled_states() {
    let mut world = World::new();
    let a = world
        .spawn_with((Tag(1), Position(1), Tag(2), Velocity { dx: 0, dy: None }))
        .unwrap();
    let frame = world.snapshot().unwrap();
    {
        let mut e = world.entity_mut(a).unwrap();
        e.remove::<Position>();
        e.add(Tag(3)).unwrap();
        e.add(Position(9)).unwrap();
        let second = e.components().nth(1).unwrap().instance; // Tag(2)
        e.set_instance_enabled(second, false).unwrap();
        e.disable::<Position>();
    }
    let patch = world.diff(&frame).unwrap();
    let mut replica = replay(&frame, &patch);
    assert_same(&mut world, &mut replica);
}

#[test]
fn names_links_flags_and_layers_are_replayed() {
    let mut world = World::new();
    let root = world.spawn_named("root");
    let kids: Vec<EntityId> = (0..3).map(|_| world.spawn_named("kid")).collect();
    for &k in &kids {
        world.set_parent(k, root).unwrap();
    }
    let frame = world.snapshot().unwrap();
    world.set_parent(kids[0], root).unwrap(); // moves to the end of the children
    world.clear_parent(kids[1]).unwrap();
    world.set_parent(root, kids[1]).unwrap(); // the old parent under its old child
    world.entity_mut(kids[2]).unwrap().set_name(Some("kid")); // renamed: last of the kids
    world.entity_mut(kids[0]).unwrap().set_name(None);
    world.entity_mut(root).unwrap().set_enabled(false);
    world.entity_mut(kids[1]).unwrap().kill();
    world.entity_mut(kids[2]).unwrap().set_layers(0b110);
    let patch = world.diff(&frame).unwrap();
    let json = WorldPatch::from_json(&patch.to_json().unwrap()).unwrap();
    for patch in [patch, json] {
        let mut replica = replay(&frame, &patch);
        assert_same(&mut world, &mut replica);
    }
}

#[test]
fn applying_marks_changes_for_readers_and_runs_no_hook() {
    let mut world = World::new();
    let a = world.spawn_with((Position(0), Hooked(0))).unwrap();
    let frame = world.snapshot().unwrap();
    world
        .entity_mut(a)
        .unwrap()
        .get_mut::<Position>()
        .unwrap()
        .0 = 3;
    let b = world.spawn_with((Hooked(1),)).unwrap();
    world.despawn(a).unwrap();
    world.spawn_with((Position(5),)).unwrap();
    let patch = world.diff(&frame).unwrap();

    let mut replica = World::new();
    replica.restore(&frame).unwrap();
    let a = replica.id_from_bits(a.to_bits());
    let seen = replica.change_tick();
    let hooks = HOOKS.load(Ordering::SeqCst);
    replica.apply_patch(&patch).unwrap();
    assert_eq!(HOOKS.load(Ordering::SeqCst), hooks, "no hook ran");
    assert!(!replica.contains(a));
    let b = replica.id_from_bits(b.to_bits());
    assert!(replica.entity(b).unwrap().added_since::<Hooked>(seen));
    let added = replica
        .query::<(&Position,)>()
        .added_since::<Position>(seen)
        .count();
    assert_eq!(added, 1);
}

#[test]
fn a_changed_value_is_reported_as_changed_after_applying() {
    let mut world = World::new();
    let a = world.spawn_with((Position(0),)).unwrap();
    world.spawn_with((Position(1),)).unwrap();
    let frame = world.snapshot().unwrap();
    world
        .entity_mut(a)
        .unwrap()
        .get_mut::<Position>()
        .unwrap()
        .0 = 3;
    let patch = world.diff(&frame).unwrap();
    let mut replica = World::new();
    replica.restore(&frame).unwrap();
    let seen = replica.change_tick();
    replica.apply_patch(&patch).unwrap();
    let changed: Vec<i32> = replica
        .query::<(&Position,)>()
        .changed_since::<Position>(seen)
        .into_iter()
        .map(|(p,)| p.0)
        .collect();
    assert_eq!(changed, [3]);
}

#[test]
fn a_diff_after_a_restore_compares_everything_and_is_still_right() {
    let mut world = World::new();
    let a = world.spawn_with((Position(0),)).unwrap();
    let early = world.snapshot().unwrap();
    world
        .entity_mut(a)
        .unwrap()
        .get_mut::<Position>()
        .unwrap()
        .0 = 1;
    let late = world.snapshot().unwrap();
    world.restore(&early).unwrap(); // ticks go back with it
    world.spawn_with((Tag(4),)).unwrap();
    // `late` is no ancestor of this world: its Position(1) is not here.
    let patch = world.diff(&late).unwrap();
    let mut replica = replay(&late, &patch);
    assert_same(&mut world, &mut replica);
    // A snapshot before the one restored is an ancestor.
    let mut again = replay(&early, &world.diff(&early).unwrap());
    assert_same(&mut world, &mut again);
}

#[test]
fn a_patch_for_another_world_is_refused_and_changes_nothing() {
    let mut world = World::new();
    let a = world.spawn_with((Position(0), Tag(1))).unwrap();
    let b = world.spawn_named("b");
    let frame = world.snapshot().unwrap();
    world
        .entity_mut(a)
        .unwrap()
        .get_mut::<Position>()
        .unwrap()
        .0 = 4;
    world.entity_mut(a).unwrap().remove::<Tag>();
    world.despawn(b).unwrap();
    world.spawn_named("c");
    let patch = world.diff(&frame).unwrap();

    // A world where `b` was already despawned and respawned.
    let mut other = World::new();
    other.restore(&frame).unwrap();
    let b_there = other.id_from_bits(b.to_bits());
    other.despawn(b_there).unwrap();
    other.spawn_named("b2");
    let before = picture(&other);
    let err = other.apply_patch(&patch).unwrap_err();
    assert!(
        matches!(err, Error::PatchMismatch { entity, .. } if entity == b_there),
        "{err}"
    );
    assert!(
        err.to_string()
            .contains("apply a patch to a world equal to the snapshot"),
        "{err}"
    );
    assert_eq!(picture(&other), before);

    // A world whose `a` holds other components.
    let mut other = World::new();
    other.restore(&frame).unwrap();
    let a_there = other.id_from_bits(a.to_bits());
    other.entity_mut(a_there).unwrap().remove::<Tag>();
    let before = picture(&other);
    let err = other.apply_patch(&patch).unwrap_err();
    assert!(
        matches!(&err, Error::PatchMismatch { expected, .. } if expected.contains("patch::Tag")),
        "{err}"
    );
    assert_eq!(picture(&other), before);
}

#[test]
fn bad_patch_text_names_where_it_is_wrong() {
    let err = WorldPatch::from_json(
        r#"{"format": "ecs-core/patch", "version": 1, "slots": 1,
        "entities": [{"id": [0, 0], "add": [{"type": "patch::Position", "patch": 1}]}]}"#,
    )
    .unwrap_err();
    assert!(
        matches!(&err, Error::Data { path, .. } if path == "entities[0].add[0]"),
        "{err}"
    );
    let err = WorldPatch::from_json(
        r#"{"format": "ecs-core/patch", "version": 1, "slots": 1,
        "entities": [{"id": [0, 0], "remove": [{"at": 0, "type": "Nope"}]}]}"#,
    )
    .unwrap_err();
    assert!(matches!(err, Error::UnknownComponent { .. }), "{err}");
    assert!(WorldPatch::from_binary(&[0x93, 1, 2, 3]).is_err());
    // A value that does not read is refused when applied, naming it.
    let mut world = World::new();
    let a = world.spawn_with((Position(1),)).unwrap();
    let text = format!(
        r#"{{"format": "ecs-core/patch", "version": 1, "slots": 1,
        "entities": [{{"id": [{}, 0], "set": [{{"at": 0, "type": "patch::Position", "data": "x"}}]}}]}}"#,
        a.index()
    );
    let err = world
        .apply_patch(&WorldPatch::from_json(&text).unwrap())
        .unwrap_err();
    assert!(
        matches!(&err, Error::Data { path, .. } if path == "entities[0].set[0]"),
        "{err}"
    );
    assert_eq!(
        world.entity(a).unwrap().get::<Position>(),
        Some(&Position(1))
    );
}

/// One step of the model test.
#[derive(Clone, Debug)]
enum Op {
    Spawn(i32, bool),
    Despawn(usize),
    AddTag(usize, u8),
    RemoveTag(usize),
    AddVelocity(usize, i32),
    RemoveVelocity(usize),
    Write(usize, i32),
    WriteSame(usize),
    ClearDy(usize),
    Rename(usize, Option<u8>),
    Parent(usize, usize),
    Unparent(usize),
    Disable(usize, bool),
    Kill(usize, bool),
    DisableTag(usize, bool),
    Layers(usize, u32),
    /// A reader takes the change tick: later writes get a tick of their own.
    Look,
    /// A query writes every `Position` (each table is marked whole), adding
    /// `by` to those whose value is odd.
    WriteAll(i32),
}

fn op() -> impl Strategy<Value = Op> {
    let i = any::<usize>;
    prop_oneof![
        (any::<i32>(), any::<bool>()).prop_map(|(v, t)| Op::Spawn(v, t)),
        i().prop_map(Op::Despawn),
        (i(), any::<u8>()).prop_map(|(i, t)| Op::AddTag(i, t)),
        i().prop_map(Op::RemoveTag),
        (i(), any::<i32>()).prop_map(|(i, v)| Op::AddVelocity(i, v)),
        i().prop_map(Op::RemoveVelocity),
        (i(), any::<i32>()).prop_map(|(i, v)| Op::Write(i, v)),
        i().prop_map(Op::WriteSame),
        i().prop_map(Op::ClearDy),
        (i(), proptest::option::of(0u8..3)).prop_map(|(i, n)| Op::Rename(i, n)),
        (i(), i()).prop_map(|(a, b)| Op::Parent(a, b)),
        i().prop_map(Op::Unparent),
        (i(), any::<bool>()).prop_map(|(i, e)| Op::Disable(i, e)),
        (i(), any::<bool>()).prop_map(|(i, k)| Op::Kill(i, k)),
        (i(), any::<bool>()).prop_map(|(i, e)| Op::DisableTag(i, e)),
        (i(), 0u32..8).prop_map(|(i, l)| Op::Layers(i, l)),
        Just(Op::Look),
        any::<i32>().prop_map(Op::WriteAll),
    ]
}

fn run(world: &mut World, op: &Op) {
    let ids: Vec<EntityId> = world.iter_ids().collect();
    let Some(&id) = (match *op {
        Op::Spawn(..) | Op::Look | Op::WriteAll(_) => None,
        Op::Despawn(i) | Op::AddTag(i, _) | Op::RemoveTag(i) | Op::AddVelocity(i, _) => {
            ids.get(i % ids.len().max(1))
        }
        Op::RemoveVelocity(i) | Op::Write(i, _) | Op::WriteSame(i) | Op::ClearDy(i) => {
            ids.get(i % ids.len().max(1))
        }
        Op::Rename(i, _) | Op::Parent(i, _) | Op::Unparent(i) | Op::Disable(i, _) => {
            ids.get(i % ids.len().max(1))
        }
        Op::Kill(i, _) | Op::DisableTag(i, _) | Op::Layers(i, _) => ids.get(i % ids.len().max(1)),
    }) else {
        if let Op::Look = op {
            let _ = world.change_tick();
        }
        if let Op::WriteAll(by) = *op {
            for (p,) in world.query_mut::<(&mut Position,)>() {
                if p.0 % 2 != 0 {
                    p.0 = p.0.wrapping_add(by);
                }
            }
        }
        if let Op::Spawn(v, tagged) = *op {
            let id = world
                .spawn_with((Position(v), Velocity { dx: v, dy: Some(1) }))
                .unwrap();
            if tagged {
                world.entity_mut(id).unwrap().add(Tag(v as u8)).unwrap();
            }
        }
        return;
    };
    let mut e = world.entity_mut(id).unwrap();
    match *op {
        Op::Spawn(..) | Op::Look | Op::WriteAll(_) => unreachable!(),
        Op::Despawn(_) => world.despawn(id).unwrap(),
        Op::AddTag(_, t) => drop(e.add(Tag(t)).unwrap()),
        Op::RemoveTag(_) => drop(e.remove::<Tag>()),
        Op::AddVelocity(_, v) => drop(e.add(Velocity { dx: v, dy: None })),
        Op::RemoveVelocity(_) => drop(e.remove::<Velocity>()),
        Op::Write(_, v) => {
            if let Some(p) = e.get_mut::<Position>() {
                p.0 = v;
            }
        }
        Op::WriteSame(_) => drop(e.get_mut::<Position>()),
        Op::ClearDy(_) => {
            if let Some(v) = e.get_mut::<Velocity>() {
                v.dy = None;
            }
        }
        Op::Rename(_, n) => e.set_name(n.map(|n| format!("n{n}")).as_deref()),
        Op::Parent(_, b) => {
            let parent = ids[b % ids.len()];
            let _ = world.set_parent(id, parent);
        }
        Op::Unparent(_) => world.clear_parent(id).unwrap(),
        Op::Disable(_, on) => e.set_enabled(on),
        Op::Kill(_, true) => e.kill(),
        Op::Kill(_, false) => e.revive(),
        Op::DisableTag(_, on) => {
            let tag = e
                .components()
                .find(|c| c.name() == "patch::Tag")
                .map(|c| c.instance);
            if let Some(tag) = tag {
                e.set_instance_enabled(tag, on).unwrap();
            }
        }
        Op::Layers(_, l) => e.set_layers(l),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A random world, a snapshot, random changes, a diff: the patch
    /// applied (in memory, or through JSON or binary) to a world restored
    /// to the snapshot gives the changed world.
    #[test]
    fn diff_then_apply_reaches_the_target(
        before in proptest::collection::vec(op(), 0..30),
        after in proptest::collection::vec(op(), 0..30),
        form in 0u8..3,
        look in any::<bool>(),
    ) {
        let mut world = World::new();
        for op in &before {
            run(&mut world, op);
        }
        if look {
            // As a frame's readers do: what is written next is later than
            // the snapshot, so the diff reads only that.
            let _ = world.change_tick();
        }
        let frame = world.snapshot().unwrap();
        for op in &after {
            run(&mut world, op);
        }
        let patch = world.diff(&frame).unwrap();
        let patch = match form {
            0 => patch,
            1 => WorldPatch::from_json(&patch.to_json().unwrap()).unwrap(),
            _ => WorldPatch::from_binary(&patch.to_binary().unwrap()).unwrap(),
        };
        let mut replica = replay(&frame, &patch);
        prop_assert_eq!(picture(&replica), picture(&world));
        prop_assert_eq!(next_ids(&mut replica), next_ids(&mut world));
        // An empty patch for an unchanged world.
        let again = replica.snapshot().unwrap();
        prop_assert!(replica.diff(&again).unwrap().is_empty());
    }
}

/// The layout reads the same after a `Tag` is removed and another added:
/// the positions hold other components, which the patch must not mix up.
#[test]
fn a_component_replaced_by_one_of_its_type_is_not_taken_for_it() {
    let mut world = World::new();
    let a = world
        .spawn_with((Position(0), Velocity { dx: 0, dy: Some(1) }))
        .unwrap();
    world.entity_mut(a).unwrap().remove::<Velocity>();
    world.entity_mut(a).unwrap().add(Tag(0)).unwrap();
    world.entity_mut(a).unwrap().add(Tag(1)).unwrap();
    world
        .entity_mut(a)
        .unwrap()
        .add(Velocity { dx: 0, dy: None })
        .unwrap();
    let _ = world.change_tick();
    let frame = world.snapshot().unwrap();
    world.entity_mut(a).unwrap().add(Tag(0)).unwrap();
    world.entity_mut(a).unwrap().remove::<Tag>();
    world.entity_mut(a).unwrap().remove::<Velocity>();
    world
        .entity_mut(a)
        .unwrap()
        .add(Velocity { dx: 0, dy: None })
        .unwrap();
    let patch = world.diff(&frame).unwrap();
    let mut replica = replay(&frame, &patch);
    assert_same(&mut world, &mut replica);
}
