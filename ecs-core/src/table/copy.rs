//! Copies of a whole storage, for snapshots: every row at the same place,
//! with its meta word and ticks, so that a restored world iterates in the
//! same order and hands out the same ids.

use crate::storage::raw::BlobVec;
use crate::table::{Column, Segment, Storage};

/// Why a storage cannot be copied.
pub(crate) enum CopyError {
    /// A stored type lacks `Clone`.
    NotClone(&'static str),
    /// A type's segments are lent out to its running behaviour.
    Lent(&'static str),
}

impl Storage {
    /// A copy of everything stored, each value cloned with its type's
    /// `Clone`; `Err` with the name of the first stored type that lacks it.
    /// Values waiting in the trash are not copied (there are none between
    /// operations).
    pub fn try_clone(&self) -> Result<Storage, CopyError> {
        self.try_lent()?;
        let mut segments = Vec::with_capacity(self.segments.len());
        for segment in &self.segments {
            segments.push(self.clone_segment(segment).map_err(CopyError::NotClone)?);
        }
        let columns = self
            .columns
            .iter()
            .map(|column| column.as_ref().map(Column::emptied_copy))
            .collect();
        Ok(Storage {
            types: self.types.clone(),
            columns,
            segments,
            vacant_segments: self.vacant_segments.clone(),
            tables: self.tables.clone(),
            first: self.first.clone(),
            trashed: Vec::new(),
            clock: self.clock.clone(),
            spares: Vec::new(),
        })
    }

    /// `Err` naming a type whose segments are lent out to its running
    /// behaviour, hook or receiver.
    pub fn try_lent(&self) -> Result<(), CopyError> {
        match self
            .columns
            .iter()
            .position(|c| c.as_ref().is_some_and(|c| c.lent))
        {
            Some(ty) => {
                let info = self.types.info(crate::entity::TypeIdx::from_index(ty));
                Err(CopyError::Lent(info.key().name()))
            }
            None => Ok(()),
        }
    }

    /// A copy of `segment`, row by row.
    fn clone_segment(&self, segment: &Segment) -> Result<Segment, &'static str> {
        let info = self.types.info(segment.ty);
        let name = info.key().name();
        let vtable = info.vtable().ok_or(name)?;
        let mut data = BlobVec::new(vtable.erased());
        if !segment.meta.is_empty() {
            let clone = vtable.ops.clone.ok_or(name)?;
            (clone.rows)(&segment.data, &mut data);
        }
        Ok(Segment {
            data,
            meta: segment.meta.clone(),
            table: segment.table,
            ty: segment.ty,
            disabled: segment.disabled,
            added: segment.added.clone(),
            changed: segment.changed.clone(),
            changed_all: segment.changed_all,
            added_max: segment.added_max,
            changed_max: segment.changed_max,
        })
    }
}
