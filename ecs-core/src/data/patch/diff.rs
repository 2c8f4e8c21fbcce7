//! [`World::diff`](crate::World::diff): one compare of the entity slots
//! (spawned, despawned, moved to another layout, flags, layers), then the
//! values change tracking says were written, then enabled states of the
//! types whose components were enabled or disabled, then names and links.

use std::collections::{BTreeMap, HashMap};

use crate::data::codec::{RowRef, Stored};
use crate::entity::{EntityIndex, EntitySlot, RowId, TableId, TypeIdx};
use crate::scene::hierarchy::Hierarchy;
use crate::scene::names::Names;
use crate::table::{ChangeKind, CopyError, Segment, Storage, Tick};
use crate::world::DEFAULT_LAYERS;
use crate::{Error, Snapshot, World};

use super::values::{name, writers};
use super::{Ent, EntityPatch, Type, Value, WorldPatch};

static NO_NAMES: Names = Names::new();
static NO_LINKS: Hierarchy = Hierarchy::new();

/// What became of a slot between the snapshot and the world.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Free in the world.
    Dead,
    /// The same entity lives in both.
    Kept,
    /// An entity the snapshot did not hold.
    Spawned,
}

struct Differ<'a> {
    world: &'a World,
    old: &'a Snapshot,
    /// Rows whose change tick is not after this are unchanged.
    since: Tick,
    /// Change tracking cannot be trusted: compare everything.
    full: bool,
    /// Table ids name the same layouts in both.
    stable_tables: bool,
    touched: BTreeMap<u32, EntityPatch>,
    /// For kept entities whose layout changed, by position in the world's
    /// layout: the position of the same component in the snapshot's.
    moved: HashMap<u32, Vec<Option<u32>>>,
    same_tables: HashMap<(TableId, TableId), bool>,
    /// Types met without serde support.
    missing: Vec<&'static str>,
}

/// [`World::diff`](crate::World::diff).
pub(super) fn diff(world: &World, old: &Snapshot) -> Result<WorldPatch, Error> {
    if let Err(CopyError::Lent(running)) = world.storage().try_lent() {
        return Err(Error::SnapshotWhileRunning { running });
    }
    let full = !world.grew_from(old);
    let mut d = Differ {
        world,
        old,
        since: if full { Tick(0) } else { old.storage.settled() },
        full,
        stable_tables: !full && old.storage.table_epoch() == world.storage().table_epoch(),
        touched: BTreeMap::new(),
        moved: HashMap::new(),
        same_tables: HashMap::new(),
        missing: Vec::new(),
    };
    let mut patch = WorldPatch {
        slots: u32::try_from(world.entities().slot_count()).expect("fewer than 2^32 slots"),
        ..WorldPatch::default()
    };
    d.slots(&mut patch)?;
    d.added()?;
    d.values()?;
    d.toggles();
    d.names(&mut patch);
    d.links(&mut patch);
    let (was, now) = (old.entities.free_list(), world.free_slots());
    if was != now {
        patch.free = Some(now.iter().map(|i| i.0).collect());
    }
    if !d.missing.is_empty() {
        d.missing.sort_unstable();
        return Err(Error::NotSerializable { names: d.missing });
    }
    patch.entities = d.touched.into_values().filter(|e| !e.is_empty()).collect();
    Ok(patch)
}

impl Differ<'_> {
    /// The entity in slot `i` as the world numbers it.
    fn ent(&self, i: usize) -> Ent {
        let index = EntityIndex::from_index(i);
        Ent {
            index: index.0,
            generation: self.world.entities().slot(index).generation,
        }
    }

    /// The changes of the kept entity in slot `i`.
    fn entry(&mut self, i: u32) -> &mut EntityPatch {
        let id = self.ent(i as usize);
        self.touched
            .entry(i)
            .or_insert_with(|| EntityPatch::new(id, false))
    }

    /// Walks every slot of either side once, 64 at a time: a run of
    /// slots equal on both sides (the common case) is one comparison of
    /// small integers, and only the slots of a run that differs are looked
    /// at one by one.
    fn slots(&mut self, patch: &mut WorldPatch) -> Result<(), Error> {
        const RUN: usize = 64;
        // Equal slots mean the same layouts and flags only while table ids
        // name the same layouts; layers are kept apart from the slots.
        let (was, now) = (&self.old.layers[..], self.world.layer_masks());
        let all_layers = was == now;
        let layer = |masks: &[u32], i: usize| masks.get(i).copied().unwrap_or(DEFAULT_LAYERS);
        let same_layers = |range: std::ops::Range<usize>| {
            all_layers || range.into_iter().all(|i| layer(was, i) == layer(now, i))
        };
        let (was_slots, now_slots) = (&self.old.entities, self.world.entities());
        let n = was_slots.slot_count().max(now_slots.slot_count());
        for start in (0..n).step_by(RUN) {
            let end = (start + RUN).min(n);
            if self.stable_tables
                && was_slots.same_run(now_slots, start..end)
                && same_layers(start..end)
            {
                continue;
            }
            for i in start..end {
                self.slot(i, patch)?;
            }
        }
        Ok(())
    }

    /// What became of slot `i`.
    fn kind(&self, i: usize) -> Kind {
        let (old, new) = (self.old.entities.slots(), self.world.entities().slots());
        match (old.get(i), new.get(i)) {
            (Some(o), Some(w)) if w.alive && o.alive && o.generation == w.generation => Kind::Kept,
            (_, Some(w)) if w.alive => Kind::Spawned,
            _ => Kind::Dead,
        }
    }

    /// Slot `i`: despawned, spawned, kept (and maybe changed), or a free
    /// slot whose generation moved.
    fn slot(&mut self, i: usize, patch: &mut WorldPatch) -> Result<(), Error> {
        let (old, new) = (&self.old.entities, self.world.entities());
        let index = EntityIndex::from_index(i);
        let o = (i < old.slot_count()).then(|| old.slot(index));
        let w = (i < new.slot_count()).then(|| new.slot(index));
        if let Some(o) = o.filter(|o| o.alive)
            && self.kind(i) != Kind::Kept
        {
            patch.despawned.push(Ent {
                index: index.0,
                generation: o.generation,
            });
        }
        match (self.kind(i), o, w) {
            (Kind::Kept, Some(o), Some(w)) => self.kept(index, o, w)?,
            (Kind::Spawned, _, Some(w)) => self.spawned(index, w)?,
            _ => {
                let (then, now) = (o.map_or(0, |s| s.generation), w.map_or(0, |s| s.generation));
                if then != now {
                    patch.dead.push((index.0, now));
                }
            }
        }
        Ok(())
    }

    /// A kept entity: its layout, flags and layers.
    fn kept(&mut self, index: EntityIndex, o: &EntitySlot, w: &EntitySlot) -> Result<(), Error> {
        if !self.same_layout(o.table, w.table) {
            self.restructure(index, o, w)?;
        }
        if (o.disabled, o.killed) != (w.disabled, w.killed) {
            self.entry(index.0).flags = Some((w.disabled, w.killed));
        }
        let layers = self.world.layers_of(index);
        let then = self.old.layers.get(index.index()).copied();
        if layers != then.unwrap_or(DEFAULT_LAYERS) {
            self.entry(index.0).layers = Some(layers);
        }
        Ok(())
    }

    /// Whether the snapshot's table `old` and the world's `new` hold the
    /// same types in the same order.
    fn same_layout(&mut self, old: TableId, new: TableId) -> bool {
        if self.stable_tables && old == new {
            return true;
        }
        let (a, b) = (&self.old.storage, self.world.storage());
        *self.same_tables.entry((old, new)).or_insert_with(|| {
            let (x, y) = (a.table(old).layout(), b.table(new).layout());
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|(p, q)| type_id(a, p.ty) == type_id(b, q.ty))
        })
    }

    /// A spawned entity, whole.
    fn spawned(&mut self, index: EntityIndex, w: &EntitySlot) -> Result<(), Error> {
        let world = self.world;
        let mut e = EntityPatch::new(self.ent(index.index()), true);
        e.flags = Some((w.disabled, w.killed));
        let layers = world.layers_of(index);
        e.layers = (layers != DEFAULT_LAYERS).then_some(layers);
        for c in world.comps(index) {
            let ty = world.vtable(c.ty);
            if ty.transient {
                continue;
            }
            let segment = world.storage().segment(c.seg);
            let enabled = segment.meta(c.row).is_none_or(|m| m.is_enabled());
            if let Some(new) = self.encode(ty, segment, c.row)? {
                e.add.push((ty, enabled, Value::Bin { new, old: None }));
            }
        }
        self.touched.insert(index.0, e);
        Ok(())
    }

    /// A kept entity whose layout changed: components kept (matched by
    /// type and instance serial), removed and added. When the kept ones
    /// are not a prefix of the new layout in their old order (which no
    /// add or remove makes), everything is removed and added again.
    fn restructure(
        &mut self,
        index: EntityIndex,
        o: &EntitySlot,
        w: &EntitySlot,
    ) -> Result<(), Error> {
        let world = self.world;
        let (a, b) = (&self.old.storage, world.storage());
        let olds = comps_of(a, o);
        let news = comps_of(b, w);
        let mut used = vec![false; olds.len()];
        let mut moved: Vec<Option<u32>> = news
            .iter()
            .map(|n| {
                let at =
                    (0..olds.len()).find(|&k| !used[k] && olds[k].0 == n.0 && olds[k].1 == n.1)?;
                used[at] = true;
                Some(at as u32)
            })
            .collect();
        let kept = moved.iter().take_while(|m| m.is_some()).count();
        let ordered = moved[kept..].iter().all(Option::is_none)
            && moved[..kept].windows(2).all(|p| p[0] < p[1]);
        if !ordered {
            moved.iter_mut().for_each(|m| *m = None);
        }
        let mut e = self.entry(index.0).clone();
        for (k, old) in olds.iter().enumerate() {
            if !moved.contains(&Some(k as u32)) {
                e.remove.push((k as u32, old.3));
            }
        }
        for (j, new) in news.iter().enumerate() {
            match moved[j] {
                Some(k) if olds[k as usize].2 != new.2 => e.enable.push((k, new.3, new.2)),
                Some(_) => {}
                None if new.3.transient => {}
                None => {
                    let place = b.table(w.table).layout()[j];
                    if let Some(bytes) = self.encode(new.3, b.segment(place.seg), w.row)? {
                        let value = Value::Bin {
                            new: bytes,
                            old: None,
                        };
                        e.add.push((new.3, new.2, value));
                    }
                }
            }
        }
        self.touched.insert(index.0, e);
        self.moved.insert(index.0, moved);
        Ok(())
    }

    /// The value at `row` of `segment` as MessagePack; `None` (and the type
    /// noted) when its type lacks serde support.
    fn encode(
        &mut self,
        ty: Type,
        segment: &Segment,
        row: RowId,
    ) -> Result<Option<Vec<u8>>, Error> {
        let mut out = Vec::new();
        Ok(self.encode_into(ty, segment, row, &mut out)?.then_some(out))
    }

    /// [`Differ::encode`] into `out` (emptied first); `false` for a type
    /// without serde support.
    fn encode_into(
        &mut self,
        ty: Type,
        segment: &Segment,
        row: RowId,
        out: &mut Vec<u8>,
    ) -> Result<bool, Error> {
        let Some(write) = writers(ty) else {
            if !self.missing.contains(&name(ty)) {
                self.missing.push(name(ty));
            }
            return Ok(false);
        };
        out.clear();
        (write.binary)(Stored::Row(RowRef { segment, row }), out).map_err(|e| Error::Data {
            path: format!("(diff of a `{}`)", name(ty)),
            message: e.to_string(),
        })?;
        Ok(true)
    }

    /// Kept entities holding a component added since the snapshot, whose
    /// layout may read the same (a `Tag` removed, another added) while
    /// its positions hold other components: matched component by
    /// component as when the layout changed. Without an addition, equal
    /// layouts hold the same components at the same positions.
    fn added(&mut self) -> Result<(), Error> {
        let (world, old) = (self.world, self.old);
        let storage = world.storage();
        let now = storage.now();
        for (_, segment) in storage.segments_after(ChangeKind::Added, self.since) {
            let table = storage.table(segment.table());
            for row in segment.rows_after(ChangeKind::Added, self.since, now) {
                let owner = table.owners()[row.index()];
                if self.kind(owner.index()) == Kind::Kept && !self.moved.contains_key(&owner.0) {
                    let (o, w) = (old.entities.slot(owner), world.entities().slot(owner));
                    self.restructure(owner, o, w)?;
                }
            }
        }
        Ok(())
    }

    /// Values of kept components written since the snapshot, compared
    /// with the snapshot's.
    fn values(&mut self) -> Result<(), Error> {
        let world = self.world;
        let storage = world.storage();
        let now = storage.now();
        // Both sides are written into buffers kept across rows: only a
        // value that changed is copied out.
        let (mut new, mut old) = (Vec::new(), Vec::new());
        for (seg, segment) in storage.segments_after(ChangeKind::Changed, self.since) {
            let ty = world.vtable(segment.ty());
            let table = storage.table(segment.table());
            let Some(pos) = table.layout().iter().position(|p| p.seg == seg) else {
                continue;
            };
            if ty.transient {
                continue;
            }
            for row in segment.rows_after(ChangeKind::Changed, self.since, now) {
                let owner = table.owners()[row.index()];
                let Some(at) = self.old_position(owner, pos) else {
                    continue;
                };
                let slot = self.old.entities.slot(owner);
                let place = self.old.storage.table(slot.table).layout()[at];
                let was = self.old.storage.segment(place.seg);
                if !self.encode_into(ty, segment, row, &mut new)?
                    || !self.encode_into(ty, was, slot.row, &mut old)?
                    || new == old
                {
                    continue;
                }
                let value = Value::Bin {
                    new: new.clone(),
                    old: Some(old.clone()),
                };
                self.entry(owner.0).set.push((at as u32, ty, value));
            }
        }
        Ok(())
    }

    /// Where the component at position `pos` of kept entity `owner` sat
    /// in the snapshot; `None` for an entity not kept, or a component
    /// added since.
    fn old_position(&self, owner: EntityIndex, pos: usize) -> Option<usize> {
        if self.kind(owner.index()) != Kind::Kept {
            return None;
        }
        match self.moved.get(&owner.0) {
            Some(moved) => moved[pos].map(|at| at as usize),
            None => Some(pos),
        }
    }

    /// Enabled states of kept components, for the types some component of
    /// which was enabled or disabled since (entities whose layout changed
    /// were compared whole).
    fn toggles(&mut self) {
        let world = self.world;
        let storage = world.storage();
        for t in 0..storage.types().len() {
            let t = TypeIdx::from_index(t);
            if !self.full && !storage.toggled_after(t, self.since) {
                continue;
            }
            for &seg in storage.segments_of(t) {
                let segment = storage.segment(seg);
                let table = storage.table(segment.table());
                let pos = table.layout().iter().position(|p| p.seg == seg);
                let (Some(pos), true) = (pos, segment.ty() == t) else {
                    continue;
                };
                for (row, meta) in segment.metas().iter().enumerate() {
                    let owner = table.owners()[row];
                    if self.moved.contains_key(&owner.0) || self.old_position(owner, pos).is_none()
                    {
                        continue;
                    }
                    let slot = self.old.entities.slot(owner);
                    let place = self.old.storage.table(slot.table).layout()[pos];
                    let was = self.old.storage.segment(place.seg).meta(slot.row);
                    if was.is_none_or(|m| m.is_enabled()) != meta.is_enabled() {
                        let ty = world.vtable(t);
                        let enabled = meta.is_enabled();
                        self.entry(owner.0).enable.push((pos as u32, ty, enabled));
                    }
                }
            }
        }
    }

    /// Names given or taken, in the order the world gave them.
    fn names(&self, patch: &mut WorldPatch) {
        let old = self.old.extensions.get::<Names>().unwrap_or(&NO_NAMES);
        let new = self.world.names();
        if !self.full && old.edits() == new.edits() {
            return;
        }
        // Along one history a naming order is one naming: equal orders
        // are equal names, with no text to compare.
        let texts = self.full;
        let mut named = Vec::new();
        for i in 0..self.world.entities().slot_count() {
            let (index, kind) = (EntityIndex::from_index(i), self.kind(i));
            let order = new.order_of(index);
            let same = match kind {
                Kind::Dead => true,
                Kind::Kept => {
                    order == old.order_of(index) && (!texts || new.get(index) == old.get(index))
                }
                Kind::Spawned => order.is_none(),
            };
            if !same {
                named.push((order, self.ent(i), new.get(index).map(str::to_owned)));
            }
        }
        // Unnamings first (no order), then names in the order given.
        named.sort_by_key(|n| n.0);
        patch.names = named.into_iter().map(|(_, e, n)| (e, n)).collect();
    }

    /// Parents whose children changed, and entities left without one.
    fn links(&self, patch: &mut WorldPatch) {
        let old = self.old.extensions.get::<Hierarchy>().unwrap_or(&NO_LINKS);
        let new = self.world.hierarchy();
        if !self.full && old.edits() == new.edits() {
            return;
        }
        for i in 0..self.world.entities().slot_count() {
            let (index, kind) = (EntityIndex::from_index(i), self.kind(i));
            let children = new.children(index);
            let same = match kind {
                Kind::Dead => true,
                Kind::Kept => {
                    old.children(index) == children
                        && children.iter().all(|c| self.kind(c.index()) == Kind::Kept)
                }
                Kind::Spawned => children.is_empty(),
            };
            if !same {
                let list = children.iter().map(|c| self.ent(c.index())).collect();
                patch.children.push((self.ent(i), list));
            }
            if kind == Kind::Kept && new.parent(index).is_none() && old.parent(index).is_some() {
                patch.orphans.push(self.ent(i));
            }
        }
    }
}

/// The type id of type `ty` of `storage`.
fn type_id(storage: &Storage, ty: TypeIdx) -> std::any::TypeId {
    storage.info(ty).key().type_id()
}

/// The components of the entity at `slot` of `storage`: type id, serial,
/// enabled, description.
fn comps_of(storage: &Storage, slot: &EntitySlot) -> Vec<(std::any::TypeId, u32, bool, Type)> {
    storage
        .table(slot.table)
        .layout()
        .iter()
        .map(|p| {
            let meta = storage.segment(p.seg).meta(slot.row);
            let info = storage.info(p.ty);
            let vtable = info
                .vtable()
                .expect("a stored type was registered by its own type");
            (
                info.key().type_id(),
                meta.map_or(0, |m| m.serial()),
                meta.is_none_or(|m| m.is_enabled()),
                vtable,
            )
        })
        .collect()
}
