//! Change answers against a reference model: random sequences of spawns,
//! despawns, adds, removes and writes through every kind of write path,
//! with several readers taking their ticks at random points. After every
//! step each reader's answers (query filters through `for` loops and
//! `for_each`, writing queries, `EntityRef`) must equal the model's.
//!
//! `CHANGE_MODEL_CASES=10000 cargo test --release --test change_model` runs
//! the long version.

use std::collections::{BTreeMap, BTreeSet};

use ecs_core::prelude::*;
use proptest::prelude::*;

#[derive(Component, Clone, Debug)]
struct Pos(f32);

#[derive(Component, Clone, Debug)]
struct Vel(#[allow(dead_code)] f32);

#[derive(Component, Clone, Debug)]
struct Moving {
    speed: f32,
}

#[derive(Component, Clone, Debug)]
#[component(parent = Moving)]
struct AxisMoving {
    base: Moving,
}

const READERS: usize = 3;

#[derive(Clone, Debug)]
enum Op {
    /// Spawns an entity holding `Pos`, plus `Vel` and/or an `AxisMoving`.
    Spawn {
        vel: bool,
        axis: bool,
    },
    Despawn(usize),
    AddVel(usize),
    RemoveVel(usize),
    RemovePos(usize),
    AddPos(usize),
    /// A reader takes its tick.
    Look(usize),
    /// `query_mut::<(&mut Pos,)>()`, all or only with `Vel`.
    WritePos {
        only_with_vel: bool,
    },
    /// `get_mut::<Pos>()` on one entity.
    GetMut(usize),
    /// `query_one_mut` of `Pos` on one entity.
    OneMut(usize),
    /// A base-type term: `query_mut::<(&mut Moving,)>()`.
    WriteMoving,
    /// A writing query filtered by a reader's tick: marks only what passes.
    WriteChanged(usize),
    /// Disables one entity's `Pos`, or enables it again.
    Toggle(usize),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (any::<bool>(), any::<bool>()).prop_map(|(vel, axis)| Op::Spawn { vel, axis }),
        1 => any::<usize>().prop_map(Op::Despawn),
        1 => any::<usize>().prop_map(Op::AddVel),
        1 => any::<usize>().prop_map(Op::RemoveVel),
        1 => any::<usize>().prop_map(Op::RemovePos),
        1 => any::<usize>().prop_map(Op::AddPos),
        2 => (0..READERS).prop_map(Op::Look),
        1 => any::<bool>().prop_map(|only_with_vel| Op::WritePos { only_with_vel }),
        2 => any::<usize>().prop_map(Op::GetMut),
        1 => any::<usize>().prop_map(Op::OneMut),
        1 => Just(Op::WriteMoving),
        1 => (0..READERS).prop_map(Op::WriteChanged),
        1 => any::<usize>().prop_map(Op::Toggle),
    ]
}

/// When a component was added and last changed, in model steps.
#[derive(Clone, Copy, Debug)]
struct Stamps {
    added: u64,
    changed: u64,
}

impl Stamps {
    fn new(step: u64) -> Self {
        Stamps {
            added: step,
            changed: step,
        }
    }
}

#[derive(Default, Debug)]
struct Model {
    pos: BTreeMap<EntityId, Stamps>,
    vel: BTreeMap<EntityId, Stamps>,
    moving: BTreeMap<EntityId, Stamps>,
    /// The entities whose `Pos` is disabled (queries pass them over).
    disabled: BTreeSet<EntityId>,
    /// Each reader's tick and the step it was taken at.
    readers: [Option<(Tick, u64)>; READERS],
}

fn after(map: &BTreeMap<EntityId, Stamps>, seen: u64, added: bool) -> Vec<EntityId> {
    map.iter()
        .filter(|(_, s)| {
            if added {
                s.added > seen
            } else {
                s.changed > seen
            }
        })
        .map(|(&id, _)| id)
        .collect()
}

fn pick(alive: &[EntityId], k: usize) -> Option<EntityId> {
    (!alive.is_empty()).then(|| alive[k % alive.len()])
}

fn apply(world: &mut World, model: &mut Model, alive: &mut Vec<EntityId>, op: &Op, step: u64) {
    let target = |k: &usize| pick(alive, *k);
    match op {
        Op::Spawn { vel, axis } => {
            let id = world.spawn_with((Pos(1.0),)).unwrap();
            model.pos.insert(id, Stamps::new(step));
            if *vel {
                world.entity_mut(id).unwrap().add(Vel(1.0)).unwrap();
                model.vel.insert(id, Stamps::new(step));
            }
            if *axis {
                let base = Moving { speed: 1.0 };
                world
                    .entity_mut(id)
                    .unwrap()
                    .add(AxisMoving { base })
                    .unwrap();
                model.moving.insert(id, Stamps::new(step));
            }
            alive.push(id);
        }
        Op::Despawn(k) => {
            if let Some(id) = target(k) {
                world.despawn(id).unwrap();
                alive.retain(|&a| a != id);
                for map in [&mut model.pos, &mut model.vel, &mut model.moving] {
                    map.remove(&id);
                }
                model.disabled.remove(&id);
            }
        }
        Op::AddVel(k) => {
            if let Some(id) = target(k).filter(|id| !model.vel.contains_key(id)) {
                world.entity_mut(id).unwrap().add(Vel(2.0)).unwrap();
                model.vel.insert(id, Stamps::new(step));
            }
        }
        Op::RemoveVel(k) => {
            if let Some(id) = target(k).filter(|id| model.vel.contains_key(id)) {
                world.entity_mut(id).unwrap().remove::<Vel>().unwrap();
                model.vel.remove(&id);
            }
        }
        Op::RemovePos(k) => {
            if let Some(id) = target(k).filter(|id| model.pos.contains_key(id)) {
                world.entity_mut(id).unwrap().remove::<Pos>().unwrap();
                model.pos.remove(&id);
                model.disabled.remove(&id);
            }
        }
        Op::AddPos(k) => {
            if let Some(id) = target(k).filter(|id| !model.pos.contains_key(id)) {
                world.entity_mut(id).unwrap().add(Pos(3.0)).unwrap();
                model.pos.insert(id, Stamps::new(step));
            }
        }
        Op::Look(r) => model.readers[*r] = Some((world.change_tick(), step)),
        Op::WritePos { only_with_vel } => {
            if *only_with_vel {
                for (p,) in world.query_mut::<(&mut Pos,)>().with::<Vel>() {
                    p.0 += 1.0;
                }
            } else {
                world.query_mut::<(&mut Pos,)>().for_each(|(p,)| p.0 += 1.0);
            }
            for (id, s) in model.pos.iter_mut() {
                let skipped = model.disabled.contains(id);
                if !skipped && (!only_with_vel || model.vel.contains_key(id)) {
                    s.changed = step;
                }
            }
        }
        Op::GetMut(k) => {
            if let Some(id) = target(k) {
                let mut e = world.entity_mut(id).unwrap();
                if let Some(p) = e.get_mut::<Pos>() {
                    p.0 += 1.0;
                    model.pos.get_mut(&id).unwrap().changed = step;
                }
            }
        }
        Op::OneMut(k) => {
            if let Some(id) = target(k) {
                if let Ok((p,)) = world.query_one_mut::<(&mut Pos,)>(id) {
                    // Disabled components are handed out here too, and
                    // marked.
                    p.0 -= 1.0;
                    model.pos.get_mut(&id).unwrap().changed = step;
                }
            }
        }
        Op::WriteMoving => {
            for (m,) in world.query_mut::<(&mut Moving,)>() {
                m.speed = -m.speed;
            }
            model.moving.values_mut().for_each(|s| s.changed = step);
        }
        Op::Toggle(k) => {
            if let Some(id) = target(k).filter(|id| model.pos.contains_key(id)) {
                let mut e = world.entity_mut(id).unwrap();
                if model.disabled.remove(&id) {
                    e.enable::<Pos>();
                } else {
                    e.disable::<Pos>();
                    model.disabled.insert(id);
                }
            }
        }
        Op::WriteChanged(r) => {
            if let Some((tick, seen)) = model.readers[*r] {
                for (p,) in world.query_mut::<(&mut Pos,)>().changed_since::<Pos>(tick) {
                    p.0 *= 0.5;
                }
                for (id, s) in model.pos.iter_mut() {
                    if s.changed > seen && !model.disabled.contains(id) {
                        s.changed = step;
                    }
                }
            }
        }
    }
}

fn sorted(mut ids: Vec<EntityId>) -> Vec<EntityId> {
    ids.sort();
    ids
}

/// Every reader's answers, by every path, against the model's.
fn check(world: &World, model: &Model) -> Result<(), TestCaseError> {
    for (tick, seen) in model.readers.iter().flatten().copied() {
        let enabled = |ids: Vec<EntityId>| -> Vec<EntityId> {
            ids.into_iter()
                .filter(|id| !model.disabled.contains(id))
                .collect()
        };
        let q = world.query::<(EntityId, &Pos)>().changed_since::<Pos>(tick);
        let changed = sorted(q.into_iter().map(|(id, _)| id).collect());
        prop_assert_eq!(changed, enabled(after(&model.pos, seen, false)));
        let mut by_fold = Vec::new();
        world
            .query::<(EntityId, &Pos)>()
            .added_since::<Pos>(tick)
            .for_each(|(id, _)| by_fold.push(id));
        prop_assert_eq!(sorted(by_fold), enabled(after(&model.pos, seen, true)));
        let both: Vec<EntityId> = world
            .query::<(EntityId, &Pos)>()
            .changed_since::<Pos>(tick)
            .added_since::<Vel>(tick)
            .into_iter()
            .map(|(id, _)| id)
            .collect();
        let vel_added = after(&model.vel, seen, true);
        let expected: Vec<EntityId> = after(&model.pos, seen, false)
            .into_iter()
            .filter(|id| vel_added.contains(id))
            .collect();
        prop_assert_eq!(sorted(both), enabled(expected));
        let moving: Vec<EntityId> = world
            .query::<(EntityId,)>()
            .changed_since::<Moving>(tick)
            .into_iter()
            .map(|(id,)| id)
            .collect();
        prop_assert_eq!(sorted(moving), after(&model.moving, seen, false));
        for (&id, s) in &model.vel {
            prop_assert_eq!(
                world.entity(id).unwrap().changed_since::<Vel>(tick),
                s.changed > seen
            );
        }
    }
    Ok(())
}

fn cases() -> u32 {
    std::env::var("CHANGE_MODEL_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    #[test]
    fn change_answers_agree_with_the_model(ops in prop::collection::vec(op(), 1..60)) {
        let mut world = World::new();
        let mut model = Model::default();
        let mut alive = Vec::new();
        for (step, op) in ops.iter().enumerate() {
            apply(&mut world, &mut model, &mut alive, op, step as u64 + 1);
            check(&world, &model)?;
        }
    }
}
