//! Per-type columns: which segments hold a concrete type's values, where
//! removed values wait to be dropped, and lending a type's segments out of
//! the world while a behaviour of that type runs.

use crate::component::ComponentVTable;
use crate::entity::{RowId, SegId, TypeIdx};
use crate::storage::raw::BlobVec;
use crate::table::{Meta, Segment, Storage};

/// All components of one concrete type in one world: the segments (one per
/// table whose layout holds the type, two for a table holding two), and
/// the trash.
pub(crate) struct Column {
    vtable: &'static ComponentVTable,
    /// The type's segments, in the order their tables were made.
    pub(super) segs: Vec<SegId>,
    /// Values removed from segments; dropped only after the world's
    /// bookkeeping is consistent again, so a panicking `Drop` cannot leave a
    /// half-updated world behind.
    /// Boxed: the column is moved out of the world and back each time a
    /// behaviour or receiver of its type runs, so it is kept small.
    pub(super) trash: Box<BlobVec>,
    /// Set while the type's segments (or one of them) are lent out: the
    /// type then reads as having no column.
    pub(super) lent: bool,
    /// The latest tick any of the type's components was enabled or
    /// disabled at (0: never), so a diff passes over a type none of whose
    /// components changed state without reading a row.
    pub(super) toggled: u64,
}

impl Column {
    pub fn new(vtable: &'static ComponentVTable) -> Self {
        Column {
            vtable,
            segs: Vec::new(),
            trash: Box::new(BlobVec::new(vtable.erased())),
            lent: false,
            toggled: 0,
        }
    }

    /// The same column with an empty trash, for a copy of the storage.
    pub fn emptied_copy(&self) -> Self {
        Column {
            segs: self.segs.clone(),
            lent: self.lent,
            toggled: self.toggled,
            ..Column::new(self.vtable)
        }
    }

    /// The type's description.
    pub fn vtable(&self) -> &'static ComponentVTable {
        self.vtable
    }

    /// The chain level at which this column's type holds a `T` (0: it is
    /// `T`).
    pub fn level_of<T: 'static>(&self) -> Option<usize> {
        self.vtable.erased.level_of(std::any::TypeId::of::<T>())
    }
}

/// Every segment of one type, taken out of the world (see
/// [`Storage::lend_column`]); reads of the type find nothing until it is
/// given back.
pub(crate) struct LentColumn {
    ty: TypeIdx,
    /// The column's segment ids, parallel to `segs`.
    ids: Vec<SegId>,
    segs: Vec<Segment>,
}

impl LentColumn {
    /// The lent segments, in the column's order.
    pub fn segments_mut(&mut self) -> &mut [Segment] {
        &mut self.segs
    }

    /// Where segment `seg` sits in [`LentColumn::segments_mut`].
    pub fn position(&self, seg: SegId) -> Option<usize> {
        self.ids.iter().position(|&s| s == seg)
    }
}

/// One segment taken out of the world for a hook on one of its values (see
/// [`Storage::lend_segment`]).
pub(crate) struct LentSegment {
    ty: TypeIdx,
    seg: SegId,
    pub segment: Segment,
}

impl Storage {
    /// Lends out every segment of `ty`, so its values can be borrowed while
    /// the rest of the world is in use; the type counts as having no column
    /// until [`Storage::return_column`]. No row may enter or leave a table
    /// holding `ty` meanwhile (structural changes are deferred then).
    /// `None` when the type has no column or is lent out already.
    pub fn lend_column(&mut self, ty: TypeIdx) -> Option<LentColumn> {
        let column = self.columns.get_mut(ty.index())?.as_mut()?;
        if column.lent {
            return None;
        }
        column.lent = true;
        let ids = std::mem::take(&mut column.segs);
        let segs = ids
            .iter()
            .map(|&s| self.segments[s.index()].take())
            .collect();
        Some(LentColumn { ty, ids, segs })
    }

    /// Gives back what [`Storage::lend_column`] lent.
    pub fn return_column(&mut self, lent: LentColumn) {
        for (&s, segment) in lent.ids.iter().zip(lent.segs) {
            self.segments[s.index()] = segment;
        }
        if let Some(column) = self.columns[lent.ty.index()].as_mut() {
            column.segs = lent.ids;
            column.lent = false;
        }
    }

    /// Lends out segment `seg` of `ty` alone; `ty` counts as having no
    /// column until [`Storage::return_segment`], as with
    /// [`Storage::lend_column`].
    #[inline(always)]
    pub fn lend_segment(&mut self, ty: TypeIdx, seg: SegId) -> Option<LentSegment> {
        let column = self.columns.get_mut(ty.index())?.as_mut()?;
        if column.lent {
            return None;
        }
        column.lent = true;
        let segment = self.segments[seg.index()].take();
        Some(LentSegment { ty, seg, segment })
    }

    /// Gives back what [`Storage::lend_segment`] lent.
    #[inline(always)]
    pub fn return_segment(&mut self, lent: LentSegment) {
        let stand_in = std::mem::replace(&mut self.segments[lent.seg.index()], lent.segment);
        // Nothing enters a segment standing in for a lent one (see
        // `Storage::push_meta`), so it owns no allocation: nothing to drop.
        debug_assert_eq!(stand_in.len(), 0);
        std::mem::forget(stand_in);
        if let Some(column) = self.columns[lent.ty.index()].as_mut() {
            column.lent = false;
        }
    }

    /// Segment `seg`.
    #[inline(always)]
    pub fn segment(&self, seg: SegId) -> &Segment {
        &self.segments[seg.index()]
    }

    /// Mutable twin of [`Storage::segment`].
    #[inline(always)]
    pub fn segment_mut(&mut self, seg: SegId) -> &mut Segment {
        &mut self.segments[seg.index()]
    }

    /// The meta word of the component at `row` of `seg`, `None` while its
    /// type is lent out.
    #[inline]
    pub fn meta(&self, ty: TypeIdx, seg: SegId, row: RowId) -> Option<Meta> {
        self.try_column(ty)?;
        self.segments[seg.index()].meta(row)
    }

    /// Disables or enables the component at `row` of `seg`; `true` when
    /// that changed it.
    pub fn set_disabled(&mut self, seg: SegId, row: RowId, disabled: bool) -> bool {
        let changed = self.segments[seg.index()].set_disabled(row, disabled);
        if changed {
            let ty = self.segments[seg.index()].ty;
            let now = self.write_tick();
            if let Some(column) = self.columns[ty.index()].as_mut() {
                column.toggled = now;
            }
        }
        changed
    }

    /// Removes the value at `row` of `seg` and returns it (the segment's
    /// last row moves into its place).
    #[inline]
    pub fn swap_remove<C: 'static>(&mut self, seg: SegId, row: RowId) -> C {
        self.segments[seg.index()].swap_remove(row)
    }

    /// The value at `row` of `seg` as `&dyn Debug`, when its type
    /// implements `Debug`.
    pub fn debug(&self, ty: TypeIdx, seg: SegId, row: RowId) -> Option<&dyn std::fmt::Debug> {
        let debug = self.try_column(ty)?.vtable.ops.debug?;
        let segment = &self.segments[seg.index()];
        (row.index() < segment.len()).then(|| debug(&segment.data, row.index()))
    }
}
