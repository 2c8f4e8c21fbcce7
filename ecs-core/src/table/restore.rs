//! Restoring a copy of the storage into the storage it was taken from (or
//! one of the same shape) in place: the rollback loop's case, which then
//! reuses every buffer and allocates nothing.
//!
//! The values are cloned into spare arrays first (one per segment, kept
//! between restores), so a panicking `Clone` leaves the storage as it was;
//! then spares and segments swap, and the old values, now in the spares,
//! are dropped last, so a panicking `Drop` finds the storage restored.

use std::any::Any;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};

use crate::table::{tables::Tables, CopyError, Segment, Storage};

/// A panic's payload, kept to be raised again once the storage is whole.
type Payload = Box<dyn Any + Send>;

impl Tables {
    /// Whether `other` has the same tables in the same slots: then their
    /// lookups, is-a sets and cached moves are equal, and only rows differ.
    fn same_layouts(&self, other: &Tables) -> bool {
        self.list.len() == other.list.len()
            && self.vacant == other.vacant
            && self
                .list
                .iter()
                .zip(&other.list)
                .all(|(a, b)| a.layout == b.layout)
    }

    /// Takes `other`'s rows (owners and counts) into the same tables,
    /// reusing this one's buffers. The epoch stays: every table id still
    /// names the table it named, so plans made from this storage stay
    /// valid.
    fn take_rows(&mut self, other: &Tables) {
        for (to, from) in self.list.iter_mut().zip(&other.list) {
            to.owners.clone_from(&from.owners);
            to.links.clone_from(&from.links);
            to.inactive = from.inactive;
        }
        self.weight = other.weight;
        self.empty_weight = other.empty_weight;
    }
}

impl Storage {
    /// Whether `other` has the same types, columns, tables and segments
    /// (each of the same type in the same table), so that
    /// [`Storage::restore_in_place`] can copy rows across.
    pub fn same_shape(&self, other: &Storage) -> bool {
        self.types.same_types(&other.types)
            && self.columns.len() == other.columns.len()
            && (self.columns.iter())
                .zip(&other.columns)
                .all(|(a, b)| a.is_some() == b.is_some())
            && self.segments.len() == other.segments.len()
            && (self.segments.iter())
                .zip(&other.segments)
                .all(|(a, b)| a.ty == b.ty && a.table == b.table)
            && self.tables.same_layouts(&other.tables)
    }

    /// Makes this storage equal to `from`, which has the same shape (see
    /// [`Storage::same_shape`]), reusing its buffers: once every buffer is
    /// large enough, nothing is allocated. The old values are left in the
    /// spares, for [`Storage::drop_spares`] to drop once the caller has
    /// made the rest of the world whole.
    ///
    /// When a value's `Clone` panics, the clones made so far are dropped
    /// and the panic goes on with this storage untouched; `Err` (and no
    /// change) when a stored type lacks `Clone`.
    pub fn restore_in_place(&mut self, from: &Storage) -> Result<(), CopyError> {
        debug_assert!(self.same_shape(from) && self.trashed.is_empty());
        match catch_unwind(AssertUnwindSafe(|| self.clone_into_spares(from))) {
            Ok(Ok(())) => {}
            Ok(Err(name)) => {
                // No user code ran but `Clone`s that returned: a `Drop`
                // panic here is the first panic, raised as it comes.
                self.drop_spares();
                return Err(CopyError::NotClone(name));
            }
            Err(panic) => {
                // The clones are forgotten before the panic goes on. Only
                // the spares were touched: the storage is as it was.
                let _ = catch_unwind(AssertUnwindSafe(|| self.drop_spares()));
                resume_unwind(panic);
            }
        }
        self.take_rows(from);
        Ok(())
    }

    /// Clones every segment of `from` into this storage's spare of the
    /// same slot (made or remade when missing or of another type); `Err`
    /// naming a type without `Clone`.
    fn clone_into_spares(&mut self, from: &Storage) -> Result<(), &'static str> {
        for (slot, (segment, source)) in self.segments.iter().zip(&from.segments).enumerate() {
            if self.spares.len() == slot {
                self.spares.push(segment.data.empty_like());
            }
            let spare = &mut self.spares[slot];
            if !spare.same_type(&segment.data) || !spare.is_empty() {
                *spare = segment.data.empty_like();
            }
            if source.data.is_empty() {
                continue;
            }
            let info = from.types.info(source.ty);
            let name = info.key().name();
            let clone = info.vtable().and_then(|v| v.ops.clone).ok_or(name)?;
            (clone.rows)(&source.data, spare);
        }
        Ok(())
    }

    /// Swaps the clones in and copies everything else from `from`; the old
    /// values end in the spares. Runs no user code.
    fn take_rows(&mut self, from: &Storage) {
        let spares = &mut self.spares;
        for ((to, from), spare) in self.segments.iter_mut().zip(&from.segments).zip(spares) {
            // Every field named, so a field added to `Segment` is a compile
            // error here until the restore copies it too.
            let Segment {
                data: _,
                meta,
                table: _,
                ty: _,
                disabled,
                added,
                changed,
                changed_all,
                added_max,
                changed_max,
            } = from;
            std::mem::swap(&mut to.data, spare);
            to.meta.clone_from(meta);
            to.added.clone_from(added);
            to.changed.clone_from(changed);
            to.disabled = *disabled;
            to.changed_all = *changed_all;
            to.added_max = *added_max;
            to.changed_max = *changed_max;
        }
        for (to, from) in self.columns.iter_mut().zip(&from.columns) {
            if let (Some(to), Some(from)) = (to, from) {
                to.segs.clone_from(&from.segs);
            }
        }
        self.types.take_serials(&from.types);
        self.tables.take_rows(&from.tables);
        self.first.clone_from(&from.first);
        self.vacant_segments.clone_from(&from.vacant_segments);
        self.clock = from.clock.clone();
    }

    /// Drops the values the spares hold (the old values after a restore),
    /// keeping their buffers for the next one. When a `Drop` panics, the
    /// other values are still dropped, and the first panic goes on once
    /// every spare is empty.
    pub fn drop_spares(&mut self) {
        let mut first: Option<Payload> = None;
        for spare in &mut self.spares {
            if let Err(panic) = catch_unwind(AssertUnwindSafe(|| spare.clear())) {
                first.get_or_insert(panic);
            }
        }
        if let Some(panic) = first {
            resume_unwind(panic);
        }
    }
}
