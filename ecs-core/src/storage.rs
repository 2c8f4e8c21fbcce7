//! Per-type columns, split into one dense segment per table.

use std::any::{Any, TypeId};

use crate::table::Table;
use crate::Component;

/// Bit of a row's meta word set while the component is disabled.
pub(crate) const DISABLED: u32 = 1 << 31;
/// Bit of a row's meta word set once a behaviour's `start` has run.
pub(crate) const STARTED: u32 = 1 << 30;
/// The serial part of a row's meta word (2^30 instances per type).
pub(crate) const SERIAL_MASK: u32 = STARTED - 1;

/// The rows of one table that hold components of type `C`: one per entity
/// of the table, in the table's row order.
pub(crate) struct Segment<C> {
    pub data: Vec<C>,
    /// Per row: the instance serial (unique within this column's type), the
    /// [`DISABLED`] bit and the [`STARTED`] bit. Kept beside the data so
    /// per-type loops can skip disabled components without visiting the
    /// entity.
    pub meta: Vec<u32>,
    /// The table this segment belongs to (whose `owners` name each row's
    /// entity).
    pub table: u32,
}

/// All components of concrete type `C` in one world: one [`Segment`] per
/// table whose layout holds `C` (two for a table holding two `C`s).
pub(crate) struct Column<C> {
    pub segs: Vec<Segment<C>>,
    /// Values removed through the erased interface; dropped only after the
    /// world's bookkeeping is consistent again, so a panicking `Drop` cannot
    /// leave a half-updated world behind.
    trash: Vec<C>,
}

impl<C> Column<C> {
    pub fn new() -> Self {
        Column {
            segs: Vec::new(),
            trash: Vec::new(),
        }
    }

    /// Pushes a row onto segment `seg`; returns its row.
    #[inline]
    pub fn push(&mut self, seg: u32, serial: u32, value: C) -> u32 {
        let seg = &mut self.segs[seg as usize];
        let row = seg.data.len() as u32;
        seg.data.push(value);
        seg.meta.push(serial & SERIAL_MASK);
        row
    }

    /// Removes `row` of segment `seg` (the segment's last row moves into its
    /// place, as every segment of the table does at the same time).
    #[inline]
    pub fn swap_remove(&mut self, seg: u32, row: u32) -> C {
        let seg = &mut self.segs[seg as usize];
        seg.meta.swap_remove(row as usize);
        seg.data.swap_remove(row as usize)
    }

    #[inline]
    pub fn get(&self, seg: u32, row: u32) -> &C {
        &self.segs[seg as usize].data[row as usize]
    }

    #[inline]
    pub fn get_mut(&mut self, seg: u32, row: u32) -> &mut C {
        &mut self.segs[seg as usize].data[row as usize]
    }

    /// Every value, segment by segment.
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut C> {
        self.segs.iter_mut().flat_map(|s| s.data.iter_mut())
    }
}

/// One row as iteration sees it: owner slot, meta word, value.
pub(crate) type Row<T> = (u32, u32, T);

impl<C> Column<C> {
    pub fn rows<'a>(&'a self, tables: &'a [Table]) -> impl Iterator<Item = Row<&'a C>> + 'a {
        self.segs.iter().flat_map(move |s| {
            tables[s.table as usize]
                .owners
                .iter()
                .zip(&s.meta)
                .zip(&s.data)
                .map(|((&o, &m), c)| (o, m, c))
        })
    }

    pub fn rows_mut<'a>(
        &'a mut self,
        tables: &'a [Table],
    ) -> impl Iterator<Item = Row<&'a mut C>> + 'a {
        self.segs.iter_mut().flat_map(move |s| {
            tables[s.table as usize]
                .owners
                .iter()
                .zip(&s.meta)
                .zip(&mut s.data)
                .map(|((&o, &m), c)| (o, m, c))
        })
    }
}

/// The type-erased operations the world needs on a column.
pub(crate) trait ErasedColumn: Any + Send + Sync {
    /// Adds an empty segment for table `table`; returns its index.
    fn add_segment(&mut self, table: u32) -> u32;
    /// Moves `row` of segment `from` to the end of segment `to`.
    fn move_row(&mut self, from: u32, row: u32, to: u32);
    /// Moves `row` of segment `seg` to the trash.
    fn trash_row(&mut self, seg: u32, row: u32);
    /// Moves the rows of segment `seg` from `len` on to the trash; `true`
    /// when there were any.
    fn trash_from(&mut self, seg: u32, len: usize) -> bool;
    /// Drops everything in the trash.
    fn empty_trash(&mut self);
    fn upcast_ref(&self, seg: u32, row: u32, target: TypeId) -> Option<&dyn Any>;
    fn upcast_mut(&mut self, seg: u32, row: u32, target: TypeId) -> Option<&mut dyn Any>;
    /// Pushes `(tag, part of the row that is `target`)` for every
    /// `(seg, row, tag)`; `rows` must be sorted and free of duplicates.
    fn upcast_rows_mut<'a>(
        &'a mut self,
        rows: &[(u32, u32, usize)],
        target: TypeId,
        out: &mut Vec<(usize, &'a mut dyn Any)>,
    );
    /// Every row's owner and meta word with the part of the row that is `target`.
    fn iter_upcast<'a>(
        &'a self,
        tables: &'a [Table],
        target: TypeId,
    ) -> Box<dyn Iterator<Item = Row<&'a dyn Any>> + 'a>;
    /// Mutable twin of [`ErasedColumn::iter_upcast`].
    fn iter_upcast_mut<'a>(
        &'a mut self,
        tables: &'a [Table],
        target: TypeId,
    ) -> Box<dyn Iterator<Item = Row<&'a mut dyn Any>> + 'a>;
    fn reserve(&mut self, seg: u32, additional: usize);
    /// The row's meta word (serial and [`DISABLED`] bit).
    fn meta(&self, seg: u32, row: u32) -> u32;
    /// Sets or clears the row's [`DISABLED`] bit; `true` when it changed.
    fn set_disabled(&mut self, seg: u32, row: u32, disabled: bool) -> bool;
    /// The row's value as `&dyn Debug`, when its type implements `Debug`.
    fn debug(&self, seg: u32, row: u32) -> Option<&dyn std::fmt::Debug>;
}

impl<C: Component> ErasedColumn for Column<C> {
    fn add_segment(&mut self, table: u32) -> u32 {
        self.segs.push(Segment {
            data: Vec::new(),
            meta: Vec::new(),
            table,
        });
        self.segs.len() as u32 - 1
    }

    #[inline]
    fn move_row(&mut self, from: u32, row: u32, to: u32) {
        let source = &mut self.segs[from as usize];
        let meta = source.meta.swap_remove(row as usize);
        let value = source.data.swap_remove(row as usize);
        let target = &mut self.segs[to as usize];
        target.data.push(value);
        target.meta.push(meta);
    }

    fn trash_row(&mut self, seg: u32, row: u32) {
        let value = self.swap_remove(seg, row);
        self.trash.push(value);
    }

    fn trash_from(&mut self, seg: u32, len: usize) -> bool {
        let seg = &mut self.segs[seg as usize];
        if seg.data.len() <= len {
            return false;
        }
        seg.meta.truncate(len);
        self.trash.extend(seg.data.drain(len..));
        true
    }

    fn empty_trash(&mut self) {
        self.trash.clear();
    }

    fn upcast_ref(&self, seg: u32, row: u32, target: TypeId) -> Option<&dyn Any> {
        self.get(seg, row).__upcast_ref(target)
    }

    fn upcast_mut(&mut self, seg: u32, row: u32, target: TypeId) -> Option<&mut dyn Any> {
        self.get_mut(seg, row).__upcast_mut(target)
    }

    fn upcast_rows_mut<'a>(
        &'a mut self,
        rows: &[(u32, u32, usize)],
        target: TypeId,
        out: &mut Vec<(usize, &'a mut dyn Any)>,
    ) {
        // Each segment is split once per wanted row, front to back, so the
        // borrows handed out are disjoint without any `unsafe`.
        let mut segs = self.segs.iter_mut().enumerate();
        let mut current: Option<(usize, &'a mut [C], usize)> = None;
        for &(seg, row, tag) in rows {
            while current.as_ref().is_none_or(|(s, _, _)| *s != seg as usize) {
                let (s, segment) = segs.next().expect("segment in bounds");
                current = Some((s, &mut segment.data[..], 0));
            }
            let (s, rest, consumed) = current.take().expect("set above");
            let (item, after) = rest[row as usize - consumed..]
                .split_first_mut()
                .expect("row in bounds");
            current = Some((s, after, row as usize + 1));
            if let Some(part) = item.__upcast_mut(target) {
                out.push((tag, part));
            }
        }
    }

    fn iter_upcast<'a>(
        &'a self,
        tables: &'a [Table],
        target: TypeId,
    ) -> Box<dyn Iterator<Item = Row<&'a dyn Any>> + 'a> {
        Box::new(
            self.rows(tables)
                .filter_map(move |(owner, meta, c)| Some((owner, meta, c.__upcast_ref(target)?))),
        )
    }

    fn iter_upcast_mut<'a>(
        &'a mut self,
        tables: &'a [Table],
        target: TypeId,
    ) -> Box<dyn Iterator<Item = Row<&'a mut dyn Any>> + 'a> {
        Box::new(
            self.rows_mut(tables)
                .filter_map(move |(owner, meta, c)| Some((owner, meta, c.__upcast_mut(target)?))),
        )
    }

    fn reserve(&mut self, seg: u32, additional: usize) {
        let seg = &mut self.segs[seg as usize];
        seg.data.reserve(additional);
        seg.meta.reserve(additional);
    }

    fn meta(&self, seg: u32, row: u32) -> u32 {
        self.segs[seg as usize].meta[row as usize]
    }

    fn set_disabled(&mut self, seg: u32, row: u32, disabled: bool) -> bool {
        let word = &mut self.segs[seg as usize].meta[row as usize];
        let old = *word;
        *word = if disabled {
            old | DISABLED
        } else {
            old & !DISABLED
        };
        old != *word
    }

    fn debug(&self, seg: u32, row: u32) -> Option<&dyn std::fmt::Debug> {
        self.get(seg, row).__debug()
    }
}

/// Downcasts an erased column to its concrete type.
#[inline]
pub(crate) fn typed<C: Component>(column: &dyn ErasedColumn) -> &Column<C> {
    (column as &dyn Any)
        .downcast_ref::<Column<C>>()
        .expect("column type matches its type slot")
}

/// Mutable twin of [`typed`].
#[inline]
pub(crate) fn typed_mut<C: Component>(column: &mut dyn ErasedColumn) -> &mut Column<C> {
    (column as &mut dyn Any)
        .downcast_mut::<Column<C>>()
        .expect("column type matches its type slot")
}
