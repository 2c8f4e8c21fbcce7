//! Entities entering, leaving and moving between tables. Each operation
//! keeps the row invariant (an entity's components all sit at its row of
//! each of its table's segments, and the table's owners name it there) and
//! updates the entity's slot; values taken out go to the trash, to be
//! dropped by [`Storage::empty_trash`] once the caller is consistent again.

use crate::entity::{Entities, EntityIndex, RowId, TableId, TypeIdx};
use crate::table::tables::EMPTY_TABLE;
use crate::table::Storage;

impl Storage {
    /// Appends entity `index` to `table`'s owners and points its slot there;
    /// the caller pushes one value onto each of the table's segments.
    #[inline(always)]
    pub fn enter_table(
        &mut self,
        entities: &mut Entities,
        index: EntityIndex,
        table: TableId,
    ) -> RowId {
        let target = &mut self.tables.list[table.index()];
        let row = RowId::from_index(target.owners.len());
        if row.index() == 0 && table != EMPTY_TABLE {
            self.tables.empty_weight -= target.weight();
        }
        target.owners.push(index);
        target.links.push(entities.parent_link(index));
        let slot = entities.slot_mut(index);
        target.inactive += u32::from(!slot.is_active());
        slot.table = table;
        slot.row = row;
        row
    }

    /// [`Storage::enter_table`] for `count` fresh entities, allocated here
    /// and appended to `out` in order, with room made once for the run (a
    /// blueprint spawned many times).
    pub fn enter_table_run(
        &mut self,
        entities: &mut Entities,
        table: TableId,
        count: usize,
        out: &mut Vec<crate::EntityId>,
    ) {
        self.tables.reserve_owners(table, count);
        out.reserve(count);
        for _ in 0..count {
            let index = entities.alloc();
            self.enter_table(entities, index, table);
            out.push(entities.id_at(index));
        }
    }

    /// Sets entity `index`'s own disabled and killed flags, keeping its
    /// table's count of inactive entities: the one place they change for an
    /// entity in a table.
    pub fn set_entity_state(
        &mut self,
        entities: &mut Entities,
        index: EntityIndex,
        disabled: bool,
        killed: bool,
    ) {
        let slot = entities.slot_mut(index);
        let was = slot.is_active();
        slot.disabled = disabled;
        slot.killed = killed;
        let now = slot.is_active();
        let table = &mut self.tables.list[slot.table.index()];
        match (was, now) {
            (true, false) => table.inactive += 1,
            (false, true) => table.inactive -= 1,
            _ => {}
        }
    }

    /// Removes entity `index` from its table's owners once every segment of
    /// the table has dropped or moved the entity's row; the table's last
    /// entity takes that row.
    ///
    /// Always in line: its callers already hold the entity's slot and
    /// tables, and called out of line it cost 26 instructions an add and
    /// remove more (one codegen unit; 2.5%-3.4% in every build profile).
    #[inline(always)]
    pub fn leave_table(&mut self, entities: &mut Entities, index: EntityIndex) {
        let slot = entities.slot(index);
        let (table, row) = (slot.table, slot.row);
        let source = &mut self.tables.list[table.index()];
        source.inactive -= u32::from(!slot.is_active());
        source.owners.swap_remove(row.index());
        source.links.swap_remove(row.index());
        if let Some(&moved) = source.owners.get(row.index()) {
            entities.slot_mut(moved).row = row;
        }
        if source.owners.is_empty() && table != EMPTY_TABLE {
            self.tables.empty_weight += source.weight();
        }
    }

    /// Records `parent` as entity `index`'s parent link, in the entity table
    /// and beside its row: the one place links change for an entity in a
    /// table.
    #[inline]
    pub fn set_parent_link(
        &mut self,
        entities: &mut Entities,
        index: EntityIndex,
        parent: Option<EntityIndex>,
    ) {
        entities.set_parent(index, parent);
        let slot = entities.slot(index);
        if !slot.alive {
            return;
        }
        let table = &mut self.tables.list[slot.table.index()];
        if table.owners.get(slot.row.index()) == Some(&index) {
            table.links[slot.row.index()] = parent.unwrap_or(Entities::NO_PARENT);
        }
    }

    /// [`Storage::set_parent_link`] for each of `children`, all under
    /// `parent`: one call for a parent's children (a load links
    /// thousands).
    pub fn set_parent_links(
        &mut self,
        entities: &mut Entities,
        children: &[EntityIndex],
        parent: EntityIndex,
    ) {
        for &child in children {
            self.set_parent_link(entities, child, Some(parent));
        }
    }

    /// Moves entity `index`'s row of each segment whose position `pick`
    /// picks into that column's trash. The table's owners are left to the
    /// caller.
    pub fn trash_rows_of(
        &mut self,
        entities: &Entities,
        index: EntityIndex,
        pick: impl Fn(usize) -> bool,
    ) {
        let slot = entities.slot(index);
        let Storage {
            tables,
            columns,
            segments,
            trashed,
            ..
        } = self;
        for (pos, place) in tables[slot.table.index()].layout.iter().enumerate() {
            if !pick(pos) {
                continue;
            }
            if let Some(column) = columns[place.ty.index()].as_mut() {
                segments[place.seg.index()].trash_row(slot.row, &mut column.trash);
                if !trashed.contains(&place.ty) {
                    trashed.push(place.ty);
                }
            }
        }
    }

    /// Takes entity `index` out of storage: every component to the trash,
    /// the entity out of its table.
    pub fn remove_entity(&mut self, entities: &mut Entities, index: EntityIndex) {
        self.trash_rows_of(entities, index, |_| true);
        self.leave_table(entities, index);
    }

    /// Takes back a row that entity `index` entered last in its table with
    /// only its first `filled` components pushed: those go to the trash and
    /// the entity is left with no components, in the empty table.
    pub fn abandon_row(&mut self, entities: &mut Entities, index: EntityIndex, filled: usize) {
        let table = entities.slot(index).table;
        self.trash_rows_of(entities, index, |pos| pos < filled);
        let source = &mut self.tables.list[table.index()];
        debug_assert_eq!(source.owners.last(), Some(&index));
        source.owners.pop();
        source.links.pop();
        source.inactive -= u32::from(!entities.slot(index).is_active());
        if source.owners.is_empty() && table != EMPTY_TABLE {
            self.tables.empty_weight += source.weight();
        }
        self.enter_table(entities, index, EMPTY_TABLE);
    }

    /// Moves every component of entity `index` except the one at `skip`
    /// (which the caller has already taken out of its segment) to table
    /// `to`, whose layout is the entity's layout without `skip`, possibly
    /// with more types appended for the caller to push.
    #[inline]
    pub fn relocate(
        &mut self,
        entities: &mut Entities,
        index: EntityIndex,
        to: TableId,
        skip: Option<usize>,
    ) {
        match skip {
            Some(pos) => self.relocate_skipping(entities, index, to, |p| p == pos),
            None => self.relocate_skipping(entities, index, to, |_| false),
        }
    }

    /// Removes the components of entity `index` at the positions `doomed`
    /// picks, into their columns' trash, and moves the rest to the table of
    /// the remaining layout in one step (so clearing a long entity makes
    /// one table, not one per component).
    pub fn trash_where(
        &mut self,
        entities: &mut Entities,
        index: EntityIndex,
        doomed: impl Fn(usize) -> bool,
    ) {
        let layout = &self.tables[entities.slot(index).table.index()].layout;
        let kept: Vec<TypeIdx> = (0..layout.len())
            .filter(|&pos| !doomed(pos))
            .map(|pos| layout[pos].ty)
            .collect();
        if kept.len() == layout.len() {
            return;
        }
        let to = self.table_for(&kept);
        self.trash_rows_of(entities, index, &doomed);
        self.relocate_skipping(entities, index, to, doomed);
    }

    /// [`Storage::relocate`] skipping every position `skip` picks (already
    /// taken out of their segments by the caller).
    fn relocate_skipping(
        &mut self,
        entities: &mut Entities,
        index: EntityIndex,
        to: TableId,
        skip: impl Fn(usize) -> bool,
    ) {
        let slot = entities.slot(index);
        let (from, row) = (slot.table, slot.row);
        let Storage {
            tables, segments, ..
        } = self;
        let source = &tables[from.index()].layout;
        let target = &tables[to.index()].layout;
        // The target holds the kept places in order, then maybe more.
        let kept = source
            .iter()
            .enumerate()
            .filter(|&(pos, _)| !skip(pos))
            .map(|(_, place)| place);
        for (place, dest) in kept.zip(target.iter()) {
            debug_assert_eq!(dest.ty, place.ty);
            let (source, target) = two_mut(segments, place.seg.index(), dest.seg.index());
            source.move_row_to(row, target);
        }
        self.leave_table(entities, index);
        self.enter_table(entities, index, to);
    }
}

/// Two distinct elements of `items`, both mutable. Always in line: as a
/// call, each component's move between tables saved and restored the
/// caller's registers around it.
#[inline(always)]
fn two_mut<T>(items: &mut [T], a: usize, b: usize) -> (&mut T, &mut T) {
    assert_ne!(a, b, "a row moves between two distinct segments");
    if a < b {
        let (left, right) = items.split_at_mut(b);
        (&mut left[a], &mut right[0])
    } else {
        let (left, right) = items.split_at_mut(a);
        (&mut right[0], &mut left[b])
    }
}
