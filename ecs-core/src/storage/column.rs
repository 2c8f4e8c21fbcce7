//! Per-type columns, split into one dense segment per table, over
//! type-erased arrays: a column is the same code for every component type.

use crate::entity::{EntityIndex, RowId, SegId, TableId};
use std::any::Any;

use crate::component::ComponentVTable;
use crate::storage::raw::{BlobVec, Strided, StridedMut};
use crate::storage::table::Table;

/// One row as iteration sees it: owner slot, meta word, value.
pub(crate) type Row<T> = (EntityIndex, u32, T);

/// Bit of a row's meta word set while the component is disabled.
pub(crate) const DISABLED: u32 = 1 << 31;
/// Bit of a row's meta word set once a behaviour's `start` has run.
pub(crate) const STARTED: u32 = 1 << 30;
/// The serial part of a row's meta word (2^30 instances per type).
pub(crate) const SERIAL_MASK: u32 = STARTED - 1;

/// The rows of one table that hold components of one type: one per entity
/// of the table, in the table's row order.
pub(crate) struct Segment {
    data: BlobVec,
    /// Per row: the instance serial (unique within this column's type), the
    /// [`DISABLED`] bit and the [`STARTED`] bit. Kept beside the data so
    /// per-type loops can skip disabled components without visiting the
    /// entity.
    pub(super) meta: Vec<u32>,
    /// The table this segment belongs to (whose `owners` name each row's
    /// entity).
    pub(super) table: TableId,
}

impl Segment {
    /// The table this segment belongs to.
    #[inline]
    pub fn table(&self) -> TableId {
        self.table
    }

    /// Mutable twin of [`Segment::values`].
    #[inline]
    pub fn values_mut<C: 'static>(&mut self) -> &mut [C] {
        self.data.as_mut_slice()
    }

    /// The values and meta words, for loops that update both.
    #[inline]
    pub fn values_meta_mut<C: 'static>(&mut self) -> (&mut [C], &mut [u32]) {
        (self.data.as_mut_slice(), &mut self.meta)
    }

    /// Each row's `T` at chain level `level` of the column's type (0: the
    /// type itself).
    #[inline]
    pub fn iter_as<T: 'static>(&self, level: usize) -> Option<Strided<'_, T>> {
        self.data.iter(level)
    }

    /// Mutable twin of [`Segment::iter_as`].
    #[inline]
    pub fn iter_as_mut<T: 'static>(&mut self, level: usize) -> Option<StridedMut<'_, T>> {
        self.data.iter_mut(level)
    }

    /// The `T` at chain level `level` of row `row`.
    #[inline(always)]
    pub fn get_as<T: 'static>(&self, row: RowId, level: usize) -> Option<&T> {
        self.data.get(row.index(), level)
    }

    /// Mutable twin of [`Segment::get_as`].
    #[inline(always)]
    pub fn get_as_mut<T: 'static>(&mut self, row: RowId, level: usize) -> Option<&mut T> {
        self.data.get_mut(row.index(), level)
    }
}

/// All components of one concrete type in one world: one [`Segment`] per
/// table whose layout holds the type (two for a table holding two).
pub(crate) struct Column {
    vtable: &'static ComponentVTable,
    pub(super) segs: Vec<Segment>,
    /// Values removed from segments; dropped only after the world's
    /// bookkeeping is consistent again, so a panicking `Drop` cannot leave a
    /// half-updated world behind.
    /// Boxed: a column is moved out of the world and back each time a
    /// behaviour or receiver of its type runs, so it is kept small.
    trash: Box<BlobVec>,
}

impl Column {
    pub fn new(vtable: &'static ComponentVTable) -> Self {
        Column {
            vtable,
            segs: Vec::new(),
            trash: Box::new(BlobVec::new(vtable.erased())),
        }
    }

    /// The segments, by index.
    #[inline]
    pub fn segments(&self) -> &[Segment] {
        &self.segs
    }

    /// Mutable twin of [`Column::segments`].
    #[inline]
    pub fn segments_mut(&mut self) -> &mut [Segment] {
        &mut self.segs
    }

    /// Adds an empty segment for table `table`; returns its index.
    pub fn add_segment(&mut self, table: TableId) -> SegId {
        self.segs.push(Segment {
            data: BlobVec::new(self.vtable.erased()),
            meta: Vec::new(),
            table,
        });
        SegId::from_index(self.segs.len() - 1)
    }

    /// Pushes a row onto segment `seg`; returns its row.
    ///
    /// # Panics
    /// When `C` is not the column's type.
    #[inline(always)]
    pub fn push<C: 'static>(&mut self, seg: SegId, meta: u32, value: C) -> RowId {
        let seg = &mut self.segs[seg.index()];
        let row = RowId::from_index(seg.meta.len());
        seg.data.push(value);
        seg.meta.push(meta);
        row
    }

    /// Pushes a boxed value of the column's type onto segment `seg`.
    ///
    /// # Panics
    /// When the box holds another type.
    pub fn push_boxed(
        &mut self,
        seg: SegId,
        meta: u32,
        value: Box<dyn Any + Send + Sync>,
    ) -> RowId {
        let seg = &mut self.segs[seg.index()];
        let row = RowId::from_index(seg.meta.len());
        if seg.data.push_boxed(value).is_err() {
            panic!("a boxed component is pushed onto its own type's column");
        }
        seg.meta.push(meta);
        row
    }

    /// Removes `row` of segment `seg` and returns it (the segment's last
    /// row moves into its place, as every segment of the table does).
    #[inline]
    pub fn swap_remove<C: 'static>(&mut self, seg: SegId, row: RowId) -> C {
        let seg = &mut self.segs[seg.index()];
        seg.meta.swap_remove(row.index());
        seg.data.swap_remove(row.index())
    }

    /// The value at `row` of segment `seg`, as the column's own type.
    ///
    /// # Panics
    /// When `C` is not the column's type.
    #[inline]
    pub fn get<C: 'static>(&self, seg: SegId, row: RowId) -> &C {
        self.segs[seg.index()]
            .get_as(row, 0)
            .expect("a column is read as its own type")
    }

    /// Mutable twin of [`Column::get`].
    #[inline]
    pub fn get_mut<C: 'static>(&mut self, seg: SegId, row: RowId) -> &mut C {
        self.segs[seg.index()]
            .get_as_mut(row, 0)
            .expect("a column is read as its own type")
    }

    /// The chain level at which this column's type holds a `T` (0: it is
    /// `T`).
    pub fn level_of<T: 'static>(&self) -> Option<usize> {
        self.vtable.erased.level_of(std::any::TypeId::of::<T>())
    }

    /// Every value's `T` at chain level `level`, segment by segment.
    pub fn values_as_mut<T: 'static>(&mut self, level: usize) -> impl Iterator<Item = &mut T> {
        self.segs
            .iter_mut()
            .flat_map(move |s| s.iter_as_mut::<T>(level).into_iter().flatten())
    }

    /// Every row's owner, meta word and `T` at chain level `level`.
    pub fn rows_as<'a, T: 'static>(
        &'a self,
        tables: &'a [Table],
        level: usize,
    ) -> impl Iterator<Item = Row<&'a T>> + 'a {
        self.segs.iter().flat_map(move |s| {
            let owners = &tables[s.table.index()].owners;
            owners
                .iter()
                .zip(&s.meta)
                .zip(s.iter_as::<T>(level).into_iter().flatten())
                .map(|((&owner, &meta), value)| (owner, meta, value))
        })
    }

    /// Mutable twin of [`Column::rows_as`].
    pub fn rows_as_mut<'a, T: 'static>(
        &'a mut self,
        tables: &'a [Table],
        level: usize,
    ) -> impl Iterator<Item = Row<&'a mut T>> + 'a {
        self.segs.iter_mut().flat_map(move |s| {
            let owners = &tables[s.table.index()].owners;
            let Segment { data, meta, .. } = s;
            owners
                .iter()
                .zip(meta.iter())
                .zip(data.iter_mut::<T>(level).into_iter().flatten())
                .map(|((&owner, &meta), value)| (owner, meta, value))
        })
    }

    /// Moves `row` of segment `from` to the end of segment `to`.
    #[inline]
    pub fn move_row(&mut self, from: SegId, row: RowId, to: SegId) {
        let (source, target) = two_mut(&mut self.segs, from.index(), to.index());
        let meta = source.meta.swap_remove(row.index());
        source.data.swap_remove_into(row.index(), &mut target.data);
        target.meta.push(meta);
    }

    /// Moves `row` of segment `seg` to the trash.
    pub fn trash_row(&mut self, seg: SegId, row: RowId) {
        let seg = &mut self.segs[seg.index()];
        seg.meta.swap_remove(row.index());
        seg.data.swap_remove_into(row.index(), &mut self.trash);
    }

    /// Moves the rows of segment `seg` from `len` on to the trash; `true`
    /// when there were any.
    pub fn trash_from(&mut self, seg: SegId, len: usize) -> bool {
        let seg = &mut self.segs[seg.index()];
        if seg.meta.len() <= len {
            return false;
        }
        seg.meta.truncate(len);
        seg.data.truncate_into(len, &mut self.trash);
        true
    }

    /// Drops everything in the trash.
    pub fn empty_trash(&mut self) {
        self.trash.clear();
    }

    pub fn reserve(&mut self, seg: SegId, additional: usize) {
        let seg = &mut self.segs[seg.index()];
        seg.data.reserve(additional);
        seg.meta.reserve(additional);
    }

    /// The row's meta word (serial and [`DISABLED`] bit).
    #[inline]
    pub fn meta(&self, seg: SegId, row: RowId) -> u32 {
        self.segs[seg.index()].meta[row.index()]
    }

    /// Sets or clears the row's [`DISABLED`] bit; `true` when it changed.
    pub fn set_disabled(&mut self, seg: SegId, row: RowId, disabled: bool) -> bool {
        let word = &mut self.segs[seg.index()].meta[row.index()];
        let old = *word;
        *word = if disabled {
            old | DISABLED
        } else {
            old & !DISABLED
        };
        old != *word
    }

    /// The row's value as `&dyn Debug`, when its type implements `Debug`.
    pub fn debug(&self, seg: SegId, row: RowId) -> Option<&dyn std::fmt::Debug> {
        let debug = self.vtable.ops.debug?;
        Some(debug(crate::component::ops::RowRef {
            column: self,
            seg,
            row,
        }))
    }
}

/// Two distinct elements of `items`, both mutable.
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
