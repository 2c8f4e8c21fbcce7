//! Model test of queries: random worlds (entities built from random
//! subsets of six component types in random insertion order, then random
//! adds, removes, despawns, disabled components, disabled and killed
//! entities), and after every step several query shapes compared with a
//! reference that walks every entity through `world.entity(id)`: `get`
//! (the first component that is-a the term's type), `get_filtered` (is that
//! one enabled?), `has`, `is_active`. Mutations through `query_mut` (and
//! `par_for_each`) are checked against a snapshot of every entity taken
//! before.
//!
//! Cases: 400 by default (about 25 s in debug, so CI stays short); raise with
//! `QUERY_MODEL_CASES=5000`. `QUERY_MODEL_OPS` lengthens the sequences
//! (40 operations at most by default).

use std::fmt::Debug;

use ecs_core::prelude::*;
use proptest::prelude::*;
use proptest::test_runner::Config as ProptestConfig;

// ---------------------------------------------------------------------------
// Component types: two plain ones, a single parent with a derived type, and
// a multiple parent with a (multiple) derived type.
// ---------------------------------------------------------------------------

#[derive(Component, Debug, Clone, PartialEq)]
struct QPos(i32);

#[derive(Component, Debug, Clone, PartialEq)]
struct QVel(i32);

#[derive(Component, Debug, Clone, PartialEq)]
struct QBase {
    v: i32,
}

#[derive(Component, Debug, Clone, PartialEq)]
#[component(parent = QBase)]
struct QDerived {
    base: QBase,
    extra: i32,
}

#[derive(Component, Debug, Clone, PartialEq)]
#[component(multiple)]
struct QTag {
    v: i32,
}

#[derive(Component, Debug, Clone, PartialEq)]
#[component(multiple, parent = QTag)]
struct QTagPlus {
    base: QTag,
    w: i32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Pos,
    Vel,
    Base,
    Derived,
    Tag,
    TagPlus,
}

const KINDS: [Kind; 6] = [
    Kind::Pos,
    Kind::Vel,
    Kind::Base,
    Kind::Derived,
    Kind::Tag,
    Kind::TagPlus,
];

/// Runs `$body` with `$t` bound to the component type of `$kind`.
macro_rules! with_kind {
    ($kind:expr, $t:ident => $body:expr) => {
        match $kind {
            Kind::Pos => {
                type $t = QPos;
                $body
            }
            Kind::Vel => {
                type $t = QVel;
                $body
            }
            Kind::Base => {
                type $t = QBase;
                $body
            }
            Kind::Derived => {
                type $t = QDerived;
                $body
            }
            Kind::Tag => {
                type $t = QTag;
                $body
            }
            Kind::TagPlus => {
                type $t = QTagPlus;
                $body
            }
        }
    };
}

/// Adds a component of `kind` whose numbers are all `v` (distinct per
/// component, so every read can be traced); an add the world refuses (a
/// second single `QBase`) changes nothing, which the reference sees too.
fn add(world: &mut World, id: EntityId, kind: Kind, v: i32) {
    let mut e = world.entity_mut(id).expect("live");
    let _ = match kind {
        Kind::Pos => e.add(QPos(v)).map(drop),
        Kind::Vel => e.add(QVel(v)).map(drop),
        Kind::Base => e.add(QBase { v }).map(drop),
        Kind::Derived => e
            .add(QDerived {
                base: QBase { v },
                extra: -v,
            })
            .map(drop),
        Kind::Tag => e.add(QTag { v }).map(drop),
        Kind::TagPlus => e
            .add(QTagPlus {
                base: QTag { v },
                w: -v,
            })
            .map(drop),
    };
}

// ---------------------------------------------------------------------------
// Operations.
// ---------------------------------------------------------------------------

#[derive(Clone, Debug)]
enum Op {
    /// Spawns an entity and adds these components one by one.
    Spawn(Vec<Kind>),
    /// Spawns from one of two bundles.
    SpawnBundle(bool),
    Add(usize, Kind),
    Remove(usize, Kind),
    Despawn(usize),
    /// `disable::<T>()` / `enable::<T>()`: every component that is-a `T`.
    SetType(usize, Kind, bool),
    /// Flips the enabled state of the entity's `k`-th component.
    ToggleInstance(usize, usize),
    SetEnabled(usize, bool),
    Kill(usize),
    Revive(usize),
    /// A `query_mut` that writes, checked against a snapshot.
    Mutate(usize, bool),
    /// Adds this many `QTag`s one at a time: the entity passes through a
    /// table per count, and the emptied ones pile up until the world
    /// reclaims them, so later queries run on reclaimed and reused tables.
    Gather(usize, usize),
    /// Removes the entity's `QTag`s one at a time, walking back down.
    Shed(usize),
}

fn kind() -> impl Strategy<Value = Kind> {
    proptest::sample::select(KINDS.to_vec())
}

fn op() -> impl Strategy<Value = Op> {
    let e = 0..64usize;
    prop_oneof![
        4 => proptest::collection::vec(kind(), 0..7).prop_map(Op::Spawn),
        2 => any::<bool>().prop_map(Op::SpawnBundle),
        3 => (e.clone(), kind()).prop_map(|(e, k)| Op::Add(e, k)),
        2 => (e.clone(), kind()).prop_map(|(e, k)| Op::Remove(e, k)),
        1 => e.clone().prop_map(Op::Despawn),
        2 => (e.clone(), kind(), any::<bool>()).prop_map(|(e, k, on)| Op::SetType(e, k, on)),
        2 => (e.clone(), 0..8usize).prop_map(|(e, k)| Op::ToggleInstance(e, k)),
        1 => (e.clone(), any::<bool>()).prop_map(|(e, on)| Op::SetEnabled(e, on)),
        1 => e.clone().prop_map(Op::Kill),
        1 => e.clone().prop_map(Op::Revive),
        2 => (0..4usize, any::<bool>()).prop_map(|(s, inactive)| Op::Mutate(s, inactive)),
        1 => (e.clone(), 60..90usize).prop_map(|(e, n)| Op::Gather(e, n)),
        1 => e.clone().prop_map(Op::Shed),
    ]
}

struct State {
    world: World,
    /// Every live entity, in spawn order.
    ids: Vec<EntityId>,
    /// The next component number.
    next: i32,
}

impl State {
    fn pick(&self, i: usize) -> Option<EntityId> {
        (!self.ids.is_empty()).then(|| self.ids[i % self.ids.len()])
    }

    fn number(&mut self) -> i32 {
        self.next += 1;
        self.next
    }

    fn apply(&mut self, op: &Op) {
        match *op {
            Op::Spawn(ref kinds) => {
                let id = self.world.spawn();
                self.ids.push(id);
                for &k in kinds {
                    let v = self.number();
                    add(&mut self.world, id, k, v);
                }
            }
            Op::SpawnBundle(first) => {
                let v = self.number();
                let derived = QDerived {
                    base: QBase { v: v + 1 },
                    extra: v + 2,
                };
                let spawned = if first {
                    self.world.spawn_with((
                        QTag { v },
                        derived,
                        QTagPlus {
                            base: QTag { v: v + 3 },
                            w: v + 4,
                        },
                    ))
                } else {
                    self.world
                        .spawn_with((QPos(v), QVel(v + 3), derived, QTag { v: v + 4 }))
                };
                self.next += 4;
                self.ids.push(spawned.expect("a valid bundle"));
            }
            Op::Add(i, k) => {
                if let Some(id) = self.pick(i) {
                    let v = self.number();
                    add(&mut self.world, id, k, v);
                }
            }
            Op::Gather(i, n) => {
                if let Some(id) = self.pick(i) {
                    for _ in 0..n {
                        let v = self.number();
                        add(&mut self.world, id, Kind::Tag, v);
                    }
                }
            }
            Op::Shed(i) => {
                if let Some(id) = self.pick(i) {
                    let mut e = self.world.entity_mut(id).expect("live");
                    while e.remove::<QTag>().is_some() {}
                }
            }
            Op::Remove(i, k) => {
                if let Some(id) = self.pick(i) {
                    let mut e = self.world.entity_mut(id).expect("live");
                    with_kind!(k, T => {
                        let _removed: Option<T> = e.remove::<T>();
                    });
                }
            }
            Op::Despawn(i) => {
                if let Some(id) = self.pick(i) {
                    self.world.despawn(id).expect("live");
                    self.ids.retain(|&x| x != id);
                }
            }
            Op::SetType(i, k, on) => {
                if let Some(id) = self.pick(i) {
                    let mut e = self.world.entity_mut(id).expect("live");
                    with_kind!(k, T => if on { e.enable::<T>() } else { e.disable::<T>() });
                }
            }
            Op::ToggleInstance(i, k) => {
                if let Some(id) = self.pick(i) {
                    let mut e = self.world.entity_mut(id).expect("live");
                    let infos: Vec<(InstanceId, bool)> =
                        e.components().map(|c| (c.instance, c.enabled)).collect();
                    if !infos.is_empty() {
                        let (instance, enabled) = infos[k % infos.len()];
                        let changed = e.set_instance_enabled(instance, !enabled).expect("held");
                        assert!(changed);
                    }
                }
            }
            Op::SetEnabled(i, on) => {
                if let Some(id) = self.pick(i) {
                    self.world.entity_mut(id).expect("live").set_enabled(on);
                }
            }
            Op::Kill(i) => {
                if let Some(id) = self.pick(i) {
                    self.world.entity_mut(id).expect("live").kill();
                }
            }
            Op::Revive(i) => {
                if let Some(id) = self.pick(i) {
                    self.world.entity_mut(id).expect("live").revive();
                }
            }
            Op::Mutate(shape, inactive) => mutate(self, shape, inactive),
        }
    }
}

// ---------------------------------------------------------------------------
// The reference: what a query should yield, entity by entity.
// ---------------------------------------------------------------------------

/// Whether a query visits the entity at all.
fn visits(e: &EntityRef<'_>, inactive: bool) -> bool {
    inactive || e.is_active()
}

/// What a term of type `T` reads: the first component that is-a `T`, if
/// enabled (or `inactive`). `None` drops the entity for a required term and
/// is the item of an `Option` term.
fn read<'w, T: Component>(e: &EntityRef<'w>, inactive: bool) -> Option<&'w T> {
    let first = e.get::<T>()?;
    if inactive {
        return Some(first);
    }
    let enabled = e.get_filtered::<T>(Filter::Enabled)?;
    std::ptr::eq(first, enabled).then_some(first)
}

/// `want`, computed from each live entity, against `got`, both sorted.
fn compare<R: Ord + Debug>(
    what: &str,
    world: &World,
    ids: &[EntityId],
    got: Vec<R>,
    want: impl Fn(EntityId, &EntityRef<'_>) -> Option<R>,
) {
    let mut got = got;
    got.sort();
    let mut expected: Vec<R> = ids
        .iter()
        .filter_map(|&id| want(id, &world.entity(id).expect("live")))
        .collect();
    expected.sort();
    assert_eq!(got, expected, "{what}: query (left) vs reference (right)");
}

/// Every read-only query shape, with and without `include_inactive`.
fn check_queries(world: &World, ids: &[EntityId]) {
    assert_eq!(world.len(), ids.len());
    for inactive in [false, true] {
        macro_rules! query {
            ($q:ty) => {{
                let q = world.query::<$q>();
                if inactive {
                    q.include_inactive()
                } else {
                    q
                }
            }};
        }

        compare(
            &format!("(EntityId,) inactive={inactive}"),
            world,
            ids,
            query!((EntityId,)).into_iter().map(|(id,)| id).collect(),
            |id, e| visits(e, inactive).then_some(id),
        );

        compare(
            &format!("(EntityId, &QPos) inactive={inactive}"),
            world,
            ids,
            query!((EntityId, &QPos))
                .into_iter()
                .map(|(id, p)| (id, p.0))
                .collect(),
            |id, e| {
                if !visits(e, inactive) {
                    return None;
                }
                Some((id, read::<QPos>(e, inactive)?.0))
            },
        );

        compare(
            &format!("(EntityId, &QBase, Option<&QVel>) inactive={inactive}"),
            world,
            ids,
            query!((EntityId, &QBase, Option<&QVel>))
                .into_iter()
                .map(|(id, b, v)| (id, b.v, v.map(|v| v.0)))
                .collect(),
            |id, e| {
                if !visits(e, inactive) {
                    return None;
                }
                let b = read::<QBase>(e, inactive)?;
                Some((id, b.v, read::<QVel>(e, inactive).map(|v| v.0)))
            },
        );

        compare(
            &format!("(EntityId, &QTag, Option<&QDerived>).without::<QVel>() inactive={inactive}"),
            world,
            ids,
            query!((EntityId, &QTag, Option<&QDerived>))
                .without::<QVel>()
                .into_iter()
                .map(|(id, t, d)| (id, t.v, d.map(|d| (d.base.v, d.extra))))
                .collect(),
            |id, e| {
                if !visits(e, inactive) || e.has::<QVel>() {
                    return None;
                }
                let t = read::<QTag>(e, inactive)?;
                let d = read::<QDerived>(e, inactive).map(|d| (d.base.v, d.extra));
                Some((id, t.v, d))
            },
        );

        compare(
            &format!(
                "(EntityId, Option<&QPos>, Option<&QTag>).with::<QBase>() inactive={inactive}"
            ),
            world,
            ids,
            query!((EntityId, Option<&QPos>, Option<&QTag>))
                .with::<QBase>()
                .into_iter()
                .map(|(id, p, t)| (id, p.map(|p| p.0), t.map(|t| t.v)))
                .collect(),
            |id, e| {
                if !visits(e, inactive) || !e.has::<QBase>() {
                    return None;
                }
                let p = read::<QPos>(e, inactive).map(|p| p.0);
                Some((id, p, read::<QTag>(e, inactive).map(|t| t.v)))
            },
        );

        compare(
            &format!("(EntityId, &QTagPlus, &QPos).with::<QDerived>() inactive={inactive}"),
            world,
            ids,
            query!((EntityId, &QTagPlus, &QPos))
                .with::<QDerived>()
                .into_iter()
                .map(|(id, t, p)| (id, t.base.v, t.w, p.0))
                .collect(),
            |id, e| {
                if !visits(e, inactive) || !e.has::<QDerived>() {
                    return None;
                }
                let t = read::<QTagPlus>(e, inactive)?;
                Some((id, t.base.v, t.w, read::<QPos>(e, inactive)?.0))
            },
        );

        compare(
            &format!(
                "(EntityId, &QDerived, Option<&QTagPlus>, Option<&QBase>).without::<QPos>().without::<QVel>() inactive={inactive}"
            ),
            world,
            ids,
            query!((EntityId, &QDerived, Option<&QTagPlus>, Option<&QBase>))
                .without::<QPos>()
                .without::<QVel>()
                .into_iter()
                .map(|(id, d, t, b)| {
                    // The base term reads the derived component itself.
                    assert!(std::ptr::eq(&d.base, b.expect("a QDerived is-a QBase")));
                    (id, d.base.v, d.extra, t.map(|t| t.w))
                })
                .collect(),
            |id, e| {
                if !visits(e, inactive) || e.has::<QPos>() || e.has::<QVel>() {
                    return None;
                }
                let d = read::<QDerived>(e, inactive)?;
                let t = read::<QTagPlus>(e, inactive).map(|t| t.w);
                Some((id, d.base.v, d.extra, t))
            },
        );

        // Walked twice, and through `query_mut`: the same items in the same
        // order.
        let q = query!((EntityId, &QBase, Option<&QTag>));
        let once: Vec<_> = q
            .iter()
            .map(|(id, b, t)| (id, b.v, t.map(|t| t.v)))
            .collect();
        let twice: Vec<_> = (&q)
            .into_iter()
            .map(|(id, b, t)| (id, b.v, t.map(|t| t.v)))
            .collect();
        assert_eq!(once, twice, "a query walked twice");

        // Only filters and an id: the filters see disabled components.
        compare(
            &format!("(EntityId,).with::<QTag>().without::<QDerived>() inactive={inactive}"),
            world,
            ids,
            query!((EntityId,))
                .with::<QTag>()
                .without::<QDerived>()
                .into_iter()
                .map(|(id,)| id)
                .collect(),
            |id, e| (visits(e, inactive) && e.has::<QTag>() && !e.has::<QDerived>()).then_some(id),
        );
    }
}

// ---------------------------------------------------------------------------
// Mutations: a snapshot of every number before, the expected change applied
// to it, and a snapshot after.
// ---------------------------------------------------------------------------

/// Every number an entity holds, in insertion order per type, and each
/// component's enabled state.
#[derive(Clone, Debug, PartialEq)]
struct Snap {
    pos: Vec<i32>,
    vel: Vec<i32>,
    /// Every component that is-a `QBase` (`QDerived`s through their base).
    base: Vec<i32>,
    extra: Vec<i32>,
    /// Every component that is-a `QTag`.
    tag: Vec<i32>,
    w: Vec<i32>,
    enabled: Vec<bool>,
    active: bool,
}

fn snap(world: &World, id: EntityId) -> Snap {
    let e = world.entity(id).expect("live");
    Snap {
        pos: e.get_all::<QPos>().map(|p| p.0).collect(),
        vel: e.get_all::<QVel>().map(|v| v.0).collect(),
        base: e.get_all::<QBase>().map(|b| b.v).collect(),
        extra: e.get_all::<QDerived>().map(|d| d.extra).collect(),
        tag: e.get_all::<QTag>().map(|t| t.v).collect(),
        w: e.get_all::<QTagPlus>().map(|t| t.w).collect(),
        enabled: e.components().map(|c| c.enabled).collect(),
        active: e.is_active(),
    }
}

fn snaps(world: &World, ids: &[EntityId]) -> Vec<(EntityId, Snap)> {
    ids.iter().map(|&id| (id, snap(world, id))).collect()
}

fn mutate(state: &mut State, shape: usize, inactive: bool) {
    let before = snaps(&state.world, &state.ids);
    let mut expected = before.clone();
    let world = &mut state.world;
    let mut visited: Vec<EntityId> = Vec::new();
    let mut want_visited: Vec<EntityId> = Vec::new();
    // `expected` is in `ids` order.
    let ids = &state.ids;
    let slot = |id: EntityId| ids.iter().position(|&x| x == id).expect("live");

    match shape {
        // A base-type mutable term with an Option mutable term.
        0 => {
            for &id in ids {
                let e = world.entity(id).expect("live");
                if !visits(&e, inactive) || read::<QBase>(&e, inactive).is_none() {
                    continue;
                }
                let tag = read::<QTag>(&e, inactive).is_some();
                want_visited.push(id);
                let s = &mut expected[slot(id)].1;
                s.base[0] += 1000;
                if tag {
                    s.tag[0] += 1;
                }
            }
            let mut q = world.query_mut::<(EntityId, &mut QBase, Option<&mut QTag>)>();
            if inactive {
                q = q.include_inactive();
            }
            for (id, b, t) in q {
                b.v += 1000;
                if let Some(t) = t {
                    t.v += 1;
                }
                visited.push(id);
            }
        }
        // A derived multiple type, with a filter, and an Option term on a
        // single type.
        1 => {
            for &id in ids {
                let e = world.entity(id).expect("live");
                if !visits(&e, inactive) || e.has::<QBase>() {
                    continue;
                }
                let Some(t) = read::<QTagPlus>(&e, inactive) else {
                    continue;
                };
                let at = e
                    .get_all::<QTag>()
                    .position(|x| std::ptr::eq(x, &t.base))
                    .expect("a QTagPlus is among the components that is-a QTag");
                let plus_at = e
                    .get_all::<QTagPlus>()
                    .position(|x| std::ptr::eq(x, t))
                    .expect("held");
                let pos = read::<QPos>(&e, inactive).is_some();
                want_visited.push(id);
                let s = &mut expected[slot(id)].1;
                s.tag[at] *= 2;
                s.w[plus_at] -= 5;
                if pos {
                    s.pos[0] += 3;
                }
            }
            let mut q = world
                .query_mut::<(EntityId, &mut QTagPlus, Option<&mut QPos>)>()
                .without::<QBase>();
            if inactive {
                q = q.include_inactive();
            }
            q.for_each(|(id, t, p)| {
                t.base.v *= 2;
                t.w -= 5;
                if let Some(p) = p {
                    p.0 += 3;
                }
                visited.push(id);
            });
        }
        // Two mutable terms of unrelated types, one read, in parallel.
        2 => {
            for &id in ids {
                let e = world.entity(id).expect("live");
                if !visits(&e, inactive) {
                    continue;
                }
                let (Some(_), Some(v), Some(d)) = (
                    read::<QPos>(&e, inactive),
                    read::<QVel>(&e, inactive),
                    read::<QDerived>(&e, inactive),
                ) else {
                    continue;
                };
                let (v, extra) = (v.0, d.extra);
                want_visited.push(id);
                let s = &mut expected[slot(id)].1;
                s.pos[0] += v;
                s.extra[0] += extra;
            }
            let q = world.query_mut::<(EntityId, &mut QPos, &QVel, &mut QDerived)>();
            let q = if inactive { q.include_inactive() } else { q };
            let seen = std::sync::Mutex::new(Vec::new());
            q.par_for_each(|(id, p, v, d)| {
                p.0 += v.0;
                d.extra += d.extra;
                seen.lock().unwrap().push(id);
            });
            visited = seen.into_inner().unwrap();
        }
        // A mutable term through a plain for loop over the derived type.
        _ => {
            for &id in ids {
                let e = world.entity(id).expect("live");
                if !visits(&e, inactive) || read::<QDerived>(&e, inactive).is_none() {
                    continue;
                }
                let vel = read::<QVel>(&e, inactive).map(|v| v.0);
                want_visited.push(id);
                let s = &mut expected[slot(id)].1;
                s.base[0] = vel.unwrap_or(-1);
            }
            let mut q = world.query_mut::<(EntityId, Option<&QVel>, &mut QDerived)>();
            if inactive {
                q = q.include_inactive();
            }
            for (id, v, d) in q {
                d.base.v = v.map_or(-1, |v| v.0);
                visited.push(id);
            }
        }
    }

    visited.sort();
    want_visited.sort();
    assert_eq!(
        visited, want_visited,
        "mutation shape {shape} inactive={inactive}: entities visited (left) vs reference (right)"
    );
    let after = snaps(&state.world, &state.ids);
    for ((id, got), (_, want)) in after.iter().zip(&expected) {
        assert_eq!(
            got, want,
            "mutation shape {shape} inactive={inactive}: entity {id:?} after (left) vs expected (right)"
        );
    }
}

// ---------------------------------------------------------------------------
// The property.
// ---------------------------------------------------------------------------

fn config() -> ProptestConfig {
    let from_env = |var: &str| std::env::var(var).ok().and_then(|s| s.parse().ok());
    ProptestConfig {
        cases: from_env("QUERY_MODEL_CASES").unwrap_or(400),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

fn max_ops() -> usize {
    std::env::var("QUERY_MODEL_OPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(40)
}

fn run(ops: &[Op]) {
    let mut state = State {
        world: World::new(),
        ids: Vec::new(),
        next: 0,
    };
    for op in ops {
        state.apply(op);
        check_queries(&state.world, &state.ids);
        // `query_mut` with only shared terms sees what `query` sees, in
        // the same order.
        let shared: Vec<(EntityId, i32, Option<i32>)> = state
            .world
            .query::<(EntityId, &QBase, Option<&QTag>)>()
            .include_inactive()
            .into_iter()
            .map(|(id, b, t)| (id, b.v, t.map(|t| t.v)))
            .collect();
        let via_mut: Vec<(EntityId, i32, Option<i32>)> = state
            .world
            .query_mut::<(EntityId, &QBase, Option<&QTag>)>()
            .include_inactive()
            .into_iter()
            .map(|(id, b, t)| (id, b.v, t.map(|t| t.v)))
            .collect();
        assert_eq!(
            shared, via_mut,
            "query (left) vs query_mut (right) after {op:?}"
        );
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn queries_agree_with_the_reference(ops in proptest::collection::vec(op(), 1..max_ops())) {
        run(&ops);
    }
}

/// A fixed sequence touching every operation, so a plain `cargo test` run
/// checks them even when the random cases happen to miss one.
#[test]
fn fixed_sequence_agrees_with_the_reference() {
    use Kind::*;
    run(&[
        Op::Spawn(vec![Pos, Tag, Derived, TagPlus]),
        Op::Spawn(vec![TagPlus, Tag, Base, Vel]),
        Op::SpawnBundle(true),
        Op::SpawnBundle(false),
        Op::Spawn(vec![Pos, Vel, Derived]),
        Op::Spawn(vec![]),
        Op::Mutate(0, false),
        Op::ToggleInstance(0, 1),
        Op::Mutate(0, false),
        Op::Mutate(1, true),
        Op::SetType(1, Tag, false),
        Op::Mutate(0, false),
        Op::Mutate(0, true),
        Op::SetEnabled(2, false),
        Op::Kill(3),
        Op::Mutate(2, false),
        Op::Mutate(2, true),
        Op::Mutate(3, false),
        Op::Add(3, Tag),
        Op::Remove(0, Tag),
        Op::Despawn(4),
        Op::Revive(3),
        Op::SetEnabled(2, true),
        Op::SetType(1, Base, false),
        Op::Mutate(3, true),
        Op::Mutate(1, false),
    ]);
}
