//! Dense per-type columns: every component of one concrete type, packed.

use std::any::{Any, TypeId};

use crate::Component;

/// All components of concrete type `C` in one world, with the owning entity's
/// index beside each, so a swap-remove can repair the moved entity's record.
pub(crate) struct Column<C> {
    pub data: Vec<C>,
    pub owners: Vec<u32>,
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
            trash: Vec::new(),
        }
    }

    pub fn push(&mut self, owner: u32, value: C) -> u32 {
        let row = self.data.len() as u32;
        self.data.push(value);
        self.owners.push(owner);
        row
    }

    /// Removes `row`; returns the value and, when another row moved into its
    /// place, that row's owner.
    pub fn swap_remove(&mut self, row: u32) -> (C, Option<u32>) {
        let row = row as usize;
        let value = self.data.swap_remove(row);
        self.owners.swap_remove(row);
        (value, self.owners.get(row).copied())
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
    /// Every row's owner with the part of the row that is `target`.
    fn iter_upcast(&self, target: TypeId) -> Box<dyn Iterator<Item = (u32, &dyn Any)> + '_>;
    /// Mutable twin of [`ErasedColumn::iter_upcast`].
    fn iter_upcast_mut(
        &mut self,
        target: TypeId,
    ) -> Box<dyn Iterator<Item = (u32, &mut dyn Any)> + '_>;
    fn reserve(&mut self, additional: usize);
    fn len(&self) -> usize;
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

    fn iter_upcast(&self, target: TypeId) -> Box<dyn Iterator<Item = (u32, &dyn Any)> + '_> {
        Box::new(
            self.owners
                .iter()
                .zip(&self.data)
                .filter_map(move |(&owner, c)| Some((owner, c.__upcast_ref(target)?))),
        )
    }

    fn iter_upcast_mut(
        &mut self,
        target: TypeId,
    ) -> Box<dyn Iterator<Item = (u32, &mut dyn Any)> + '_> {
        Box::new(
            self.owners
                .iter()
                .zip(&mut self.data)
                .filter_map(move |(&owner, c)| Some((owner, c.__upcast_mut(target)?))),
        )
    }

    fn reserve(&mut self, additional: usize) {
        self.data.reserve(additional);
        self.owners.reserve(additional);
    }

    fn len(&self) -> usize {
        self.data.len()
    }
}

/// Downcasts an erased column to its concrete type.
pub(crate) fn typed<C: Component>(column: &dyn ErasedColumn) -> &Column<C> {
    (column as &dyn Any)
        .downcast_ref::<Column<C>>()
        .expect("column type matches its type slot")
}

/// Mutable twin of [`typed`].
pub(crate) fn typed_mut<C: Component>(column: &mut dyn ErasedColumn) -> &mut Column<C> {
    (column as &mut dyn Any)
        .downcast_mut::<Column<C>>()
        .expect("column type matches its type slot")
}
