//! The world's view of where an entity's components are: its slot names a
//! table and a row, the table's layout names the components. Structural
//! moves themselves belong to [`Storage`]; these
//! wrappers pair them with the entity table.

use crate::entity::{CompRef, Entities, EntityIndex, EntitySlot, TableId, TypeIdx};
use crate::table::{Comps, Place, Storage};
use crate::world::World;

impl World {
    /// The entity table.
    #[inline]
    pub(crate) fn entities(&self) -> &Entities {
        &self.entities
    }

    /// The slot of entity `index`.
    #[inline]
    pub(crate) fn slot(&self, index: EntityIndex) -> &EntitySlot {
        self.entities.slot(index)
    }

    /// The component storage.
    #[inline]
    pub(crate) fn storage(&self) -> &Storage {
        &self.storage
    }

    /// Mutable twin of [`World::storage`]: for changes that keep every
    /// entity's location (values, meta words, serials, new tables).
    #[inline]
    pub(crate) fn storage_mut(&mut self) -> &mut Storage {
        &mut self.storage
    }

    /// The components of entity `index`, in insertion order.
    #[inline]
    pub(crate) fn comps(&self, index: EntityIndex) -> Comps<'_> {
        let slot = self.entities.slot(index);
        self.storage.table(slot.table).comps(slot.row)
    }

    /// The layout of entity `index`'s table.
    #[inline]
    pub(crate) fn layout_of(&self, index: EntityIndex) -> &[Place] {
        self.storage.table(self.entities.slot(index).table).layout()
    }

    /// How many components entity `index` holds.
    #[inline]
    pub(crate) fn comp_count(&self, index: EntityIndex) -> usize {
        self.layout_of(index).len()
    }

    /// The component at position `pos` of entity `index`.
    #[inline]
    pub(crate) fn comp_at(&self, index: EntityIndex, pos: usize) -> CompRef {
        let place = self.layout_of(index)[pos];
        CompRef {
            ty: place.ty,
            seg: place.seg,
            row: self.entities.slot(index).row,
        }
    }

    /// Position in the entity's layout of the first component that is-a `t`.
    #[inline]
    pub(crate) fn position_of(&self, index: EntityIndex, t: TypeIdx) -> Option<usize> {
        self.storage.position_of(self.entities.slot(index).table, t)
    }

    /// The entity's first component that is-a `t`, with the chain level at
    /// which its type meets `t`.
    #[inline]
    pub(crate) fn first_isa_level(
        &self,
        index: EntityIndex,
        t: TypeIdx,
    ) -> Option<(CompRef, usize)> {
        let slot = self.entities.slot(index);
        let (place, level) = self.storage.first_isa_level(slot.table, t)?;
        Some((
            CompRef {
                ty: place.ty,
                seg: place.seg,
                row: slot.row,
            },
            level,
        ))
    }

    /// Spawns an entity straight into `table`; the caller pushes one value
    /// onto each of the table's segments.
    #[inline]
    pub(crate) fn spawn_in(&mut self, table: TableId) -> crate::EntityId {
        let index = self.entities.alloc();
        self.storage.enter_table(&mut self.entities, index, table);
        self.entities.id_at(index)
    }

    /// [`World::spawn_in`] for `count` entities, their ids in order.
    pub(crate) fn spawn_run_in(&mut self, table: TableId, count: usize) -> Vec<crate::EntityId> {
        let mut ids = Vec::new();
        self.storage
            .enter_table_run(&mut self.entities, table, count, &mut ids);
        ids
    }

    /// See [`Storage::relocate`].
    #[inline]
    pub(crate) fn relocate(&mut self, index: EntityIndex, to: TableId, skip: Option<usize>) {
        self.storage.relocate(&mut self.entities, index, to, skip);
    }

    /// See [`Storage::trash_where`].
    pub(crate) fn trash_where(&mut self, index: EntityIndex, doomed: impl Fn(usize) -> bool) {
        self.storage.trash_where(&mut self.entities, index, doomed);
    }

    /// See [`Storage::abandon_row`].
    pub(crate) fn abandon_row(&mut self, index: EntityIndex, filled: usize) {
        self.storage.abandon_row(&mut self.entities, index, filled);
    }

    /// See [`Storage::table_for`].
    #[inline]
    pub(crate) fn table_for(&mut self, types: &[TypeIdx]) -> TableId {
        self.storage.table_for(types)
    }

    /// Reclaims the tables no entity uses once enough have piled up (see
    /// [`Storage::reclaim_empty_tables`]). Called where an operation
    /// starts or ends, holding no table id: an entity that gathers
    /// components one at a time, or many layouts that came and went, then
    /// leave no memory behind.
    #[inline]
    pub(crate) fn reclaim_tables(&mut self) {
        if self.storage.reclaim_empty_tables() {
            self.bundle_tables.clear();
        }
    }

    /// Records the parent of entity `child` for queries that read up the
    /// tree: the scene graph calls it whenever it links or unlinks one.
    pub(crate) fn set_parent_link(&mut self, child: EntityIndex, parent: Option<EntityIndex>) {
        self.storage
            .set_parent_link(&mut self.entities, child, parent);
    }

    /// [`World::set_parent_link`] for each of `children`, all under
    /// `parent`.
    pub(crate) fn set_parent_links(&mut self, children: &[EntityIndex], parent: EntityIndex) {
        self.storage
            .set_parent_links(&mut self.entities, children, parent);
    }

    /// Makes room for the parent links of the first `slots` slots, before
    /// linking many entities at once.
    pub(crate) fn reserve_parent_links(&mut self, slots: usize) {
        self.entities.reserve_parents(slots);
    }

    /// Forgets which table each bundle type goes to (they are worked out
    /// again on next use).
    pub(crate) fn forget_bundle_tables(&mut self) {
        self.bundle_tables.clear();
    }

    /// See [`Storage::empty_trash`].
    #[inline]
    pub(crate) fn empty_trash(&mut self) {
        self.storage.empty_trash();
    }
}
