//! One column borrowed mutably beside read access to everything else: what
//! a loop over one type that also reads (or writes) a sibling type needs.

use crate::entity::TypeIdx;
use crate::storage::{Column, Storage, Table, Types};

type Columns = [Option<Column>];

/// The column of one type `a`, split from every other column.
pub(crate) struct ColumnSplit<'s> {
    /// The column of `a`.
    pub own: &'s mut Column,
    /// The types, for is-a tests.
    pub types: &'s Types,
    /// The tables, for layouts and owners.
    pub tables: &'s [Table],
    before: &'s mut Columns,
    after: &'s mut Columns,
    a: TypeIdx,
}

impl<'s> ColumnSplit<'s> {
    /// Splits into `a`'s column and mutable access to the others, for loops
    /// that pair `a`'s values with another type's.
    pub fn into_parts(self) -> (&'s mut Column, OthersMut<'s>) {
        let others = OthersMut {
            before: self.before,
            after: self.after,
            a: self.a,
        };
        (self.own, others)
    }

    /// Splits into `a`'s column and a shared view of the others, for
    /// iterators that hand out `a`'s values for the split's whole lifetime.
    pub fn into_shared(self) -> (&'s mut Column, Others<'s>) {
        let others = Others {
            before: self.before,
            after: self.after,
            a: self.a,
        };
        (self.own, others)
    }
}

/// Mutable access to every column but one.
pub(crate) struct OthersMut<'s> {
    before: &'s mut Columns,
    after: &'s mut Columns,
    a: TypeIdx,
}

impl OthersMut<'_> {
    /// The column of `ty`, `None` when `ty` is the split-off type or has no
    /// column.
    pub fn get_mut(&mut self, ty: TypeIdx) -> Option<&mut Column> {
        match ty.cmp(&self.a) {
            std::cmp::Ordering::Less => self.before.get_mut(ty.index())?.as_mut(),
            std::cmp::Ordering::Equal => None,
            std::cmp::Ordering::Greater => self
                .after
                .get_mut(ty.index() - self.a.index() - 1)?
                .as_mut(),
        }
    }
}

/// Shared access to every column but one.
pub(crate) struct Others<'s> {
    before: &'s Columns,
    after: &'s Columns,
    a: TypeIdx,
}

impl<'s> Others<'s> {
    /// No columns at all.
    pub fn none() -> Self {
        Others {
            before: &[],
            after: &[],
            a: TypeIdx(0),
        }
    }

    /// The column of `ty`, `None` when `ty` is the split-off type or has no
    /// column.
    pub fn get(&self, ty: TypeIdx) -> Option<&'s Column> {
        match ty.cmp(&self.a) {
            std::cmp::Ordering::Less => self.before.get(ty.index())?.as_ref(),
            std::cmp::Ordering::Equal => None,
            std::cmp::Ordering::Greater => {
                self.after.get(ty.index() - self.a.index() - 1)?.as_ref()
            }
        }
    }
}

impl Storage {
    /// The column of `a` split from the others; `None` when `a` has no
    /// column.
    pub fn split_column(&mut self, a: TypeIdx) -> Option<ColumnSplit<'_>> {
        let Storage {
            types,
            columns,
            tables,
            ..
        } = self;
        let (before, rest) = columns.split_at_mut(a.index());
        let (own, after) = rest.split_first_mut()?;
        Some(ColumnSplit {
            own: own.as_mut()?,
            types,
            tables,
            before,
            after,
            a,
        })
    }
}
