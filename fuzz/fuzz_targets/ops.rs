//! A random sequence of operations: none panics or aborts, failures are
//! typed errors, and after every step the world's answers agree with each
//! other and with the ids the sequence kept (see `ecs_fuzz::check`).

#![no_main]

use arbitrary::Arbitrary;
use ecs_core::prelude::*;
use ecs_fuzz::{check, AxisMoving, Health, Moving, Pulse, Tag, TagPlus};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Kind {
    Moving,
    AxisMoving,
    Tag,
    TagPlus,
    Pulse,
    Health,
}

#[derive(Arbitrary, Debug)]
enum Op {
    Spawn,
    SpawnWith(u8),
    SpawnBatch(u8),
    Add(u8, Kind, u8),
    Remove(u8, Kind),
    Despawn(u8),
    SetParent(u8, u8),
    ClearParent(u8),
    Disable(u8, Kind),
    SetEnabled(u8, bool),
    Kill(u8),
    Revive(u8),
    Clone(u8, bool),
    Rename(u8, u8),
    Update,
    SaveLoad(bool),
}

fn add(world: &mut World, id: EntityId, kind: Kind, v: u8) -> Result<(), Error> {
    let mut e = world.entity_mut(id)?;
    match kind {
        Kind::Moving => e.add(Moving { speed: v.into() }).map(drop),
        Kind::AxisMoving => e
            .add(AxisMoving {
                base: Moving { speed: v.into() },
                vertical: v % 2 == 0,
            })
            .map(drop),
        Kind::Tag => e.add(Tag(v)).map(drop),
        Kind::TagPlus => e
            .add(TagPlus {
                base: Tag(v),
                extra: v.into(),
            })
            .map(drop),
        Kind::Pulse => e.add(Pulse { beats: v.into() }).map(drop),
        Kind::Health => e
            .add(Health {
                hp: v.into(),
                hooks: 0,
            })
            .map(drop),
    }
}

fn remove(world: &mut World, id: EntityId, kind: Kind) -> bool {
    let Ok(mut e) = world.entity_mut(id) else {
        return false;
    };
    match kind {
        Kind::Moving => e.remove::<Moving>().is_some(),
        Kind::AxisMoving => e.remove::<AxisMoving>().is_some(),
        Kind::Tag => e.remove::<Tag>().is_some(),
        Kind::TagPlus => e.remove::<TagPlus>().is_some(),
        Kind::Pulse => e.remove::<Pulse>().is_some(),
        Kind::Health => e.remove::<Health>().is_some(),
    }
}

fn disable(world: &mut World, id: EntityId, kind: Kind) {
    let Ok(mut e) = world.entity_mut(id) else {
        return;
    };
    match kind {
        Kind::Moving => e.disable::<Moving>(),
        Kind::AxisMoving => e.disable::<AxisMoving>(),
        Kind::Tag => e.disable::<Tag>(),
        Kind::TagPlus => e.disable::<TagPlus>(),
        Kind::Pulse => e.disable::<Pulse>(),
        Kind::Health => e.disable::<Health>(),
    };
}

fuzz_target!(|ops: Vec<Op>| {
    let mut world = World::new();
    // Every id the sequence made; dead ones stay, to be used stale.
    let mut ids: Vec<EntityId> = Vec::new();
    let pick = |ids: &[EntityId], i: u8| (!ids.is_empty()).then(|| ids[usize::from(i) % ids.len()]);
    for op in ops.iter().take(64) {
        match *op {
            Op::Spawn => ids.push(world.spawn()),
            Op::SpawnWith(v) => {
                let spawned = match v % 3 {
                    0 => world.spawn_with((Pulse { beats: v.into() },)),
                    1 => world.spawn_with((
                        Tag(v),
                        TagPlus {
                            base: Tag(v),
                            extra: 1,
                        },
                        Moving { speed: 1 },
                    )),
                    _ => world.spawn_with((Moving { speed: 1 }, AxisMoving::default())),
                };
                if let Ok(id) = spawned {
                    ids.push(id);
                } else {
                    assert_eq!(v % 3, 2, "only the bundle holding two Moving fails");
                }
            }
            Op::SpawnBatch(n) => {
                let made = world
                    .spawn_batch((0..n % 8).map(|i| (Tag(i), Health::default())))
                    .expect("a batch of valid bundles spawns");
                ids.extend(made);
            }
            Op::Add(i, kind, v) => {
                if let Some(id) = pick(&ids, i) {
                    let alive = world.contains(id);
                    match add(&mut world, id, kind, v) {
                        Ok(()) => assert!(alive),
                        Err(Error::NoSuchEntity(_)) => assert!(!alive),
                        Err(Error::Duplicate { .. }) => assert!(alive),
                        Err(other) => panic!("unexpected error: {other}"),
                    }
                }
            }
            Op::Remove(i, kind) => {
                if let Some(id) = pick(&ids, i) {
                    remove(&mut world, id, kind);
                }
            }
            Op::Despawn(i) => {
                if let Some(id) = pick(&ids, i) {
                    let alive = world.contains(id);
                    assert_eq!(world.despawn(id).is_ok(), alive);
                    assert!(!world.contains(id));
                }
            }
            Op::SetParent(a, b) => {
                if let (Some(child), Some(parent)) = (pick(&ids, a), pick(&ids, b)) {
                    let _ = world.set_parent(child, parent);
                }
            }
            Op::ClearParent(i) => {
                if let Some(id) = pick(&ids, i) {
                    let _ = world.clear_parent(id);
                }
            }
            Op::Disable(i, kind) => {
                if let Some(id) = pick(&ids, i) {
                    disable(&mut world, id, kind);
                }
            }
            Op::SetEnabled(i, on) => {
                if let Some(Ok(mut e)) = pick(&ids, i).map(|id| world.entity_mut(id)) {
                    e.set_enabled(on);
                }
            }
            Op::Kill(i) => {
                if let Some(Ok(mut e)) = pick(&ids, i).map(|id| world.entity_mut(id)) {
                    e.kill();
                }
            }
            Op::Revive(i) => {
                if let Some(Ok(mut e)) = pick(&ids, i).map(|id| world.entity_mut(id)) {
                    e.revive();
                }
            }
            Op::Clone(i, tree) => {
                if let Some(id) = pick(&ids, i) {
                    let cloned = if tree {
                        world.clone_tree(id)
                    } else {
                        world.clone_entity(id)
                    };
                    match cloned {
                        Ok(copy) => ids.push(copy),
                        Err(error) => assert!(!world.contains(id), "{error}"),
                    }
                }
            }
            Op::Rename(i, n) => {
                if let Some(Ok(mut e)) = pick(&ids, i).map(|id| world.entity_mut(id)) {
                    e.set_name((n % 4 != 0).then(|| ["a", "b", "c"][usize::from(n % 3)]));
                }
            }
            Op::Update => {
                world.update(0.5);
            }
            Op::SaveLoad(binary) => {
                let saved = if binary {
                    world.save_binary()
                } else {
                    world.save_json().map(String::into_bytes)
                }
                .expect("every component type here saves");
                world = World::load(&saved).expect("a saved world loads").world;
                // Ids of the loaded world are new; old ones are stale now.
                ids = world
                    .query::<(EntityId,)>()
                    .include_inactive()
                    .into_iter()
                    .map(|(id,)| id)
                    .collect();
            }
        }
        world.apply_commands();
        check(&world);
    }
});
