//! Dense per-type columns: every component of one concrete type, packed.

use std::any::{Any, TypeId};

use crate::Component;

/// Bit of a row's meta word set while the component is disabled.
pub(crate) const DISABLED: u32 = 1 << 31;
/// Bit of a row's meta word set once a behaviour's `start` has run.
pub(crate) const STARTED: u32 = 1 << 30;
/// The serial part of a row's meta word (2^30 instances per type).
pub(crate) const SERIAL_MASK: u32 = STARTED - 1;

/// All components of concrete type `C` in one world, with the owning entity's
/// index beside each, so a swap-remove can repair the moved entity's record.
pub(crate) struct Column<C> {
    pub data: Vec<C>,
    pub owners: Vec<u32>,
    /// Per row: the instance serial (unique within this column's type), the
    /// [`DISABLED`] bit and the [`STARTED`] bit. Kept beside the data so
    /// per-type loops can skip disabled components without visiting the
    /// entity.
    pub meta: Vec<u32>,
    /// Values removed through the erased interface; dropped only after the
    /// world's bookkeeping is consistent again, so a panicking `Drop` cannot
    /// leave a half-updated world behind.
    trash: Vec<C>,
}

impl<C> Column<C> {
    pub fn new() -> Self {
        Column {
            data: Vec::new(),
            owners: Vec::new(),
            meta: Vec::new(),
            trash: Vec::new(),
        }
    }

    pub fn push(&mut self, owner: u32, serial: u32, value: C) -> u32 {
        let row = self.data.len() as u32;
        self.data.push(value);
        self.owners.push(owner);
        self.meta.push(serial & SERIAL_MASK);
        row
    }

    /// Removes `row`; returns the value and, when another row moved into its
    /// place, that row's owner.
    pub fn swap_remove(&mut self, row: u32) -> (C, Option<u32>) {
        let row = row as usize;
        let value = self.data.swap_remove(row);
        self.owners.swap_remove(row);
        self.meta.swap_remove(row);
        (value, self.owners.get(row).copied())
    }
}

/// One row as iteration sees it: owner slot, meta word, value.
pub(crate) type Row<T> = (u32, u32, T);

impl<C> Column<C> {
    pub fn rows(&self) -> impl Iterator<Item = Row<&C>> {
        self.owners
            .iter()
            .zip(&self.meta)
            .zip(&self.data)
            .map(|((&o, &m), c)| (o, m, c))
    }

    pub fn rows_mut(&mut self) -> impl Iterator<Item = Row<&mut C>> {
        self.owners
            .iter()
            .zip(&self.meta)
            .zip(&mut self.data)
            .map(|((&o, &m), c)| (o, m, c))
    }
}

/// The type-erased operations the world needs on a column.
pub(crate) trait ErasedColumn: Any + Send + Sync {
    /// Moves `row` to the trash; returns the owner of the row that moved into
    /// its place, if any.
    fn trash_row(&mut self, row: u32) -> Option<u32>;
    /// Drops everything in the trash.
    fn empty_trash(&mut self);
    fn upcast_ref(&self, row: u32, target: TypeId) -> Option<&dyn Any>;
    fn upcast_mut(&mut self, row: u32, target: TypeId) -> Option<&mut dyn Any>;
    /// Pushes `(tag, part of row that is `target`)` for every `(row, tag)`;
    /// `rows` must be sorted by row and free of duplicates.
    fn upcast_rows_mut<'a>(
        &'a mut self,
        rows: &[(u32, usize)],
        target: TypeId,
        out: &mut Vec<(usize, &'a mut dyn Any)>,
    );
    /// Every row's owner and meta word with the part of the row that is `target`.
    fn iter_upcast(&self, target: TypeId) -> Box<dyn Iterator<Item = Row<&dyn Any>> + '_>;
    /// Mutable twin of [`ErasedColumn::iter_upcast`].
    fn iter_upcast_mut(
        &mut self,
        target: TypeId,
    ) -> Box<dyn Iterator<Item = Row<&mut dyn Any>> + '_>;
    fn reserve(&mut self, additional: usize);
    fn len(&self) -> usize;
    /// The row's meta word (serial and [`DISABLED`] bit).
    fn meta(&self, row: u32) -> u32;
    /// Sets or clears the row's [`DISABLED`] bit; `true` when it changed.
    fn set_disabled(&mut self, row: u32, disabled: bool) -> bool;
    /// The row's value as `&dyn Debug`, when its type implements `Debug`.
    fn debug(&self, row: u32) -> Option<&dyn std::fmt::Debug>;
}

impl<C: Component> ErasedColumn for Column<C> {
    fn trash_row(&mut self, row: u32) -> Option<u32> {
        let (value, moved) = self.swap_remove(row);
        self.trash.push(value);
        moved
    }

    fn empty_trash(&mut self) {
        self.trash.clear();
    }

    fn upcast_ref(&self, row: u32, target: TypeId) -> Option<&dyn Any> {
        self.data[row as usize].__upcast_ref(target)
    }

    fn upcast_mut(&mut self, row: u32, target: TypeId) -> Option<&mut dyn Any> {
        self.data[row as usize].__upcast_mut(target)
    }

    fn upcast_rows_mut<'a>(
        &'a mut self,
        rows: &[(u32, usize)],
        target: TypeId,
        out: &mut Vec<(usize, &'a mut dyn Any)>,
    ) {
        let mut rest: &'a mut [C] = &mut self.data;
        let mut consumed = 0usize;
        for &(row, tag) in rows {
            let tail = std::mem::take(&mut rest);
            let (item, after) = tail[row as usize - consumed..]
                .split_first_mut()
                .expect("row in bounds");
            consumed = row as usize + 1;
            rest = after;
            if let Some(part) = item.__upcast_mut(target) {
                out.push((tag, part));
            }
        }
    }

    fn iter_upcast(&self, target: TypeId) -> Box<dyn Iterator<Item = Row<&dyn Any>> + '_> {
        Box::new(
            self.rows()
                .filter_map(move |(owner, meta, c)| Some((owner, meta, c.__upcast_ref(target)?))),
        )
    }

    fn iter_upcast_mut(
        &mut self,
        target: TypeId,
    ) -> Box<dyn Iterator<Item = Row<&mut dyn Any>> + '_> {
        Box::new(
            self.rows_mut()
                .filter_map(move |(owner, meta, c)| Some((owner, meta, c.__upcast_mut(target)?))),
        )
    }

    fn reserve(&mut self, additional: usize) {
        self.data.reserve(additional);
        self.owners.reserve(additional);
        self.meta.reserve(additional);
    }

    fn meta(&self, row: u32) -> u32 {
        self.meta[row as usize]
    }

    fn set_disabled(&mut self, row: u32, disabled: bool) -> bool {
        let word = &mut self.meta[row as usize];
        let old = *word;
        *word = if disabled {
            old | DISABLED
        } else {
            old & !DISABLED
        };
        old != *word
    }

    fn debug(&self, row: u32) -> Option<&dyn std::fmt::Debug> {
        self.data[row as usize].__debug()
    }

    fn len(&self) -> usize {
        self.data.len()
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
