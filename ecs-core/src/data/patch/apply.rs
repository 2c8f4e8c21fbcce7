//! [`World::apply_patch`](crate::World::apply_patch): the whole patch is
//! checked against the world and every value decoded first ([`check`]),
//! then replayed in an order where each step finds what it needs: links
//! undone, entities despawned, slots and spawns, components, flags and
//! layers, names, links made, free slots. No hook runs.

use std::collections::{HashMap, HashSet};

use crate::component::ops::BoxedComponent;
use crate::data::codec::{RowRef, Stored};
use crate::entity::EntityIndex;
use crate::scene::hierarchy::hierarchy_mut;
use crate::table::CopyError;
use crate::{EntityId, Error, World};

use super::values::{decode, name, readers};
use super::{Ent, EntityPatch, Type, WorldPatch};

/// What a checked patch replays with: the values decoded, by entity (in
/// the patch's order), and the free list to end with.
struct Plan {
    sets: Vec<Vec<BoxedComponent>>,
    adds: Vec<Vec<BoxedComponent>>,
    free: Vec<EntityIndex>,
}

/// [`World::apply_patch`](crate::World::apply_patch).
pub(super) fn apply(world: &mut World, patch: &WorldPatch) -> Result<(), Error> {
    if let Err(CopyError::Lent(running)) = world.storage().try_lent() {
        return Err(Error::SnapshotWhileRunning { running });
    }
    let plan = check(world, patch)?;
    replay(world, patch, plan);
    Ok(())
}

fn id(world: &World, e: Ent) -> EntityId {
    world.id_from_bits((u64::from(e.generation) << 32) | u64::from(e.index))
}

fn mismatch(world: &World, e: Ent, expected: impl Into<String>) -> Error {
    Error::PatchMismatch {
        entity: id(world, e),
        expected: expected.into(),
    }
}

/// Which slots are live once the patch is replayed.
struct After<'a> {
    world: &'a World,
    despawned: HashSet<u32>,
    spawned: HashMap<u32, u32>,
}

impl After<'_> {
    fn live_now(&self, index: u32) -> bool {
        let i = index as usize;
        i < self.world.entities().slot_count() && self.world.slot(EntityIndex(index)).alive
    }

    /// Whether slot `index` holds a live entity afterwards.
    fn live_slot(&self, index: u32) -> bool {
        self.spawned.contains_key(&index)
            || (self.live_now(index) && !self.despawned.contains(&index))
    }

    /// Whether `e` is a live entity afterwards.
    fn live(&self, e: Ent) -> bool {
        match self.spawned.get(&e.index) {
            Some(&generation) => generation == e.generation,
            None => self.world.contains(id(self.world, e)) && !self.despawned.contains(&e.index),
        }
    }
}

/// Checks `patch` against `world` and decodes its values; changes nothing.
fn check(world: &World, patch: &WorldPatch) -> Result<Plan, Error> {
    let slots = world.entities().slot_count();
    if slots > patch.slots as usize {
        let e = Ent {
            index: patch.slots,
            generation: 0,
        };
        let why = format!(
            "at most {} entity slots, as the patch's world had; this one has {slots}",
            patch.slots
        );
        return Err(mismatch(world, e, why));
    }
    let mut after = After {
        world,
        despawned: HashSet::new(),
        spawned: HashMap::new(),
    };
    for &e in &patch.despawned {
        if !world.contains(id(world, e)) || !after.despawned.insert(e.index) {
            return Err(mismatch(
                world,
                e,
                "a live entity with this generation, to despawn",
            ));
        }
    }
    for e in patch.entities.iter().filter(|e| e.spawned) {
        let free = !after.live_now(e.id.index) || after.despawned.contains(&e.id.index);
        if !free || after.spawned.insert(e.id.index, e.id.generation).is_some() {
            return Err(mismatch(
                world,
                e.id,
                "a free slot to spawn this entity into",
            ));
        }
    }
    let mut plan = Plan {
        sets: Vec::with_capacity(patch.entities.len()),
        adds: Vec::with_capacity(patch.entities.len()),
        free: world.free_slots().to_vec(),
    };
    for (k, e) in patch.entities.iter().enumerate() {
        if !e.spawned && !after.live(e.id) {
            return Err(mismatch(
                world,
                e.id,
                "a live entity with this generation, to change",
            ));
        }
        let (sets, adds) = check_entity(world, e, k)?;
        plan.sets.push(sets);
        plan.adds.push(adds);
    }
    for &(e, _) in &patch.names {
        if !after.live(e) {
            return Err(mismatch(world, e, "a live entity, to name"));
        }
    }
    check_links(world, patch, &after)?;
    check_slots(world, patch, &after)?;
    if let Some(free) = &patch.free {
        plan.free = free.iter().map(|&i| EntityIndex(i)).collect();
    }
    Ok(plan)
}

/// Checks one entity's changes against the components it holds (none,
/// for a spawn) and decodes its values.
fn check_entity(
    world: &World,
    e: &EntityPatch,
    k: usize,
) -> Result<(Vec<BoxedComponent>, Vec<BoxedComponent>), Error> {
    let index = EntityIndex(e.id.index);
    let layout: &[_] = if e.spawned {
        &[]
    } else {
        world.layout_of(index)
    };
    let held: Vec<Type> = layout.iter().map(|p| world.vtable(p.ty)).collect();
    let at = |pos: u32, ty: Type| -> Result<usize, Error> {
        match held.get(pos as usize) {
            Some(found) if found.type_id() == ty.type_id() => Ok(pos as usize),
            _ => Err(mismatch(
                world,
                e.id,
                format!("a `{}` at position {pos} of its components", name(ty)),
            )),
        }
    };
    let mut removed = vec![false; held.len()];
    for &(pos, ty) in &e.remove {
        let pos = at(pos, ty)?;
        if std::mem::replace(&mut removed[pos], true) {
            return Err(mismatch(
                world,
                e.id,
                format!("position {pos} removed once"),
            ));
        }
    }
    for &(pos, ty, _) in &e.enable {
        at(pos, ty)?;
    }
    let mut sets = Vec::with_capacity(e.set.len());
    for (j, (pos, ty, value)) in e.set.iter().enumerate() {
        let comp = world.comp_at(index, at(*pos, ty)?);
        let current = || {
            let segment = world.storage().segment(comp.seg);
            Some(Stored::Row(RowRef {
                segment,
                row: comp.row,
            }))
        };
        sets.push(decode(
            ty,
            value,
            current,
            &format!("entities[{k}].set[{j}]"),
        )?);
    }
    let mut adds = Vec::with_capacity(e.add.len());
    for (j, (ty, _, value)) in e.add.iter().enumerate() {
        readers(ty)?;
        adds.push(decode(
            ty,
            value,
            || None,
            &format!("entities[{k}].add[{j}]"),
        )?);
    }
    let kept = held
        .iter()
        .zip(&removed)
        .filter(|(_, r)| !**r)
        .map(|(t, _)| *t);
    let all: Vec<Type> = kept.chain(e.add.iter().map(|a| a.0)).collect();
    check_single(world, e.id, &all)?;
    Ok((sets, adds))
}

/// The single rule, over the types entity `e` holds afterwards.
fn check_single(world: &World, e: Ent, all: &[Type]) -> Result<(), Error> {
    for (i, a) in all.iter().enumerate() {
        if let Some(b) = all[i + 1..].iter().find(|b| clash(a, b) || clash(b, a)) {
            let why = format!(
                "room for a `{}` beside its `{}`: both are-a single type",
                name(a),
                name(b)
            );
            return Err(mismatch(world, e, why));
        }
    }
    Ok(())
}

/// Whether `b` is-a a single type `a` is-a.
fn clash(a: Type, b: Type) -> bool {
    let singles = a.chain.keys().iter().zip(a.chain.multiple_flags());
    singles
        .filter(|(_, multiple)| !**multiple)
        .any(|(key, _)| b.chain.keys().contains(key))
}

/// Every entity a link names is live afterwards, every entity despawned
/// has its children despawned or moved, and no link closes a cycle.
fn check_links(world: &World, patch: &WorldPatch, after: &After<'_>) -> Result<(), Error> {
    let mut parent_of: HashMap<u32, Option<u32>> = HashMap::new();
    for &e in &patch.orphans {
        if !after.live(e) {
            return Err(mismatch(world, e, "a live entity, to unlink"));
        }
        parent_of.insert(e.index, None);
    }
    for (parent, children) in &patch.children {
        for &e in std::iter::once(parent).chain(children) {
            if !after.live(e) {
                return Err(mismatch(world, e, "a live entity, to link"));
            }
        }
        for c in children {
            parent_of.insert(c.index, Some(parent.index));
        }
    }
    let links = world.hierarchy();
    for &e in &patch.despawned {
        for child in links.children(EntityIndex(e.index)) {
            if !after.despawned.contains(&child.0) && !parent_of.contains_key(&child.0) {
                let child = Ent {
                    index: child.0,
                    generation: world.slot(*child).generation,
                };
                return Err(mismatch(
                    world,
                    child,
                    "despawned with its parent, or moved",
                ));
            }
        }
    }
    let parent = |i: u32| match parent_of.get(&i) {
        Some(&p) => p,
        None if after.spawned.contains_key(&i) => None,
        None => links.parent(EntityIndex(i)).map(|p| p.0),
    };
    for (&child, &first) in &parent_of {
        let mut up = first;
        for _ in 0..=world.entities().slot_count() {
            match up {
                Some(p) if p == child => {
                    let (c, p) = (
                        Ent {
                            index: child,
                            generation: 0,
                        },
                        first.unwrap_or(child),
                    );
                    let c = id(
                        world,
                        Ent {
                            generation: world.slot(EntityIndex(c.index)).generation,
                            ..c
                        },
                    );
                    let p = world.id_at(EntityIndex(p));
                    return Err(Error::HierarchyCycle {
                        child: c,
                        parent: p,
                    });
                }
                Some(p) => up = parent(p),
                None => break,
            }
        }
    }
    Ok(())
}

/// Free slots and their generations name slots free afterwards.
fn check_slots(world: &World, patch: &WorldPatch, after: &After<'_>) -> Result<(), Error> {
    let free = patch.free.iter().flatten();
    let mut seen = HashSet::new();
    for (&index, generation) in patch
        .dead
        .iter()
        .map(|(i, g)| (i, *g))
        .chain(free.map(|i| (i, 0)))
    {
        let fits = index < patch.slots && !after.live_slot(index);
        if !fits {
            return Err(mismatch(world, Ent { index, generation }, "a free slot"));
        }
    }
    for &index in patch.free.iter().flatten() {
        if !seen.insert(index) {
            return Err(mismatch(
                world,
                Ent {
                    index,
                    generation: 0,
                },
                "a slot freed once",
            ));
        }
    }
    Ok(())
}

/// Replays a checked patch.
fn replay(world: &mut World, patch: &WorldPatch, plan: Plan) {
    // Links first undone, so despawns and new links find no stale one.
    let moving = patch.children.iter().flat_map(|(_, c)| c);
    for &e in patch.orphans.iter().chain(moving) {
        let index = EntityIndex(e.index);
        if e.index < world.entities().slot_count() as u32 && world.slot(index).alive {
            hierarchy_mut(world).detach(index);
            world.set_parent_link(index, None);
        }
    }
    for &e in &patch.despawned {
        world.take_out_one(EntityIndex(e.index), false);
    }
    world.empty_trash();
    world.replay_slot_count(patch.slots as usize);
    let (sets, adds) = (plan.sets.into_iter(), plan.adds.into_iter());
    for ((e, sets), adds) in patch.entities.iter().zip(sets).zip(adds) {
        replay_entity(world, e, sets, adds);
    }
    for (e, name) in &patch.names {
        world.names_mut().set(EntityIndex(e.index), name.as_deref());
    }
    for (parent, children) in &patch.children {
        for c in children {
            let (c, p) = (EntityIndex(c.index), EntityIndex(parent.index));
            hierarchy_mut(world).attach(c, p);
            world.set_parent_link(c, Some(p));
        }
    }
    for &(index, generation) in &patch.dead {
        world.replay_generation(EntityIndex(index), generation);
    }
    world.replay_free(plan.free);
    world.reclaim_tables();
}

/// Replays one entity's changes: values and enabled states at the
/// snapshot's positions first, then removals, then additions.
fn replay_entity(
    world: &mut World,
    e: &EntityPatch,
    sets: Vec<BoxedComponent>,
    adds: Vec<BoxedComponent>,
) {
    let index = EntityIndex(e.id.index);
    if e.spawned {
        world.replay_spawn(index, e.id.generation);
    }
    for ((pos, ty, _), value) in e.set.iter().zip(sets) {
        let comp = world.comp_at(index, *pos as usize);
        let replace = readers(ty).expect("checked").replace;
        replace(world, comp.seg, comp.row, value);
    }
    for &(pos, _, enabled) in &e.enable {
        let comp = world.comp_at(index, pos as usize);
        world
            .storage_mut()
            .set_disabled(comp.seg, comp.row, !enabled);
    }
    if !e.remove.is_empty() {
        let doomed: Vec<usize> = e.remove.iter().map(|r| r.0 as usize).collect();
        world.trash_where(index, |pos| doomed.contains(&pos));
        world.empty_trash();
    }
    for ((ty, enabled, _), value) in e.add.iter().zip(adds) {
        let t = world.register_vtable(ty);
        world.append_boxed(index, t, value);
        if !enabled {
            let comp = world.comp_at(index, world.comp_count(index) - 1);
            world.storage_mut().set_disabled(comp.seg, comp.row, true);
        }
    }
    if let Some((disabled, killed)) = e.flags {
        world.replay_flags(index, disabled, killed);
    }
    if let Some(layers) = e.layers {
        world.set_layers_at(index, layers);
    }
}
