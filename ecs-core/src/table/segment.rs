//! Segments: the rows of one table that hold components of one concrete
//! type. Every segment of the world sits in one array owned by
//! [`Storage`](super::Storage), so a component's address is one index away
//! from the is-a index, whatever its type.

use std::any::Any;
use std::ops::Range;

use crate::entity::{EntityIndex, RowId, TableId, TypeIdx};
use crate::storage::raw::{BlobVec, ErasedType, Strided, StridedMut};

use super::tick_column::TickColumn;
use super::ticks::{clamp, ChangeKind, RowTicks, Tick, Ticks};
use super::Meta;

/// One row as iteration sees it: owner slot, meta word, value.
pub(crate) type Row<T> = (EntityIndex, Meta, T);

/// The rows of one table that hold components of one type: one per entity
/// of the table, in the table's row order.
pub(crate) struct Segment {
    pub(super) data: BlobVec,
    /// Per row: the instance serial (unique within the type), whether it
    /// is enabled and whether it has started (see [`Meta`]). Kept beside
    /// the data so per-type loops can skip disabled components without
    /// visiting the entity.
    pub(super) meta: Vec<Meta>,
    /// The table this segment belongs to (whose `owners` name each row's
    /// entity).
    pub(super) table: TableId,
    /// The concrete type of every value.
    pub(super) ty: TypeIdx,
    /// How many rows are disabled: while none is, a query skips the
    /// per-row check.
    pub(super) disabled: u32,
    /// Per row: when the component was added and when it was last handed
    /// out mutably, in two columns so that marking a table's rows is one
    /// fill of contiguous words (or, while every row has one tick, one
    /// word).
    pub(super) added: TickColumn,
    pub(super) changed: TickColumn,
    /// When every row then held was last handed out mutably at once (0:
    /// never): a writing query that walks the whole segment sets it instead
    /// of filling `changed`, so marking costs the same for ten rows or a
    /// million. A row's change tick is the later of its own and this one;
    /// a row moving in is older than it, so the tick is first written into
    /// the rows it covers ([`Segment::settle_changed_all`]).
    pub(super) changed_all: u64,
    /// The latest tick any row was added at and handed out mutably at (at
    /// least: rows leaving do not lower them), so a question about changes
    /// passes over a segment with none without reading its rows.
    pub(super) added_max: u64,
    pub(super) changed_max: u64,
}

impl Segment {
    pub(super) fn new(erased: &'static ErasedType, table: TableId, ty: TypeIdx) -> Self {
        Segment {
            data: BlobVec::new(erased),
            meta: Vec::new(),
            table,
            ty,
            disabled: 0,
            added: TickColumn::default(),
            changed: TickColumn::default(),
            changed_all: 0,
            added_max: 0,
            changed_max: 0,
        }
    }

    /// Takes every row out into a segment of its own, leaving this one
    /// empty: what stands in the storage's array while the rows are lent
    /// out, so reads of them find nothing.
    #[inline]
    pub(super) fn take(&mut self) -> Self {
        Segment {
            data: self.data.take(),
            meta: std::mem::take(&mut self.meta),
            table: self.table,
            ty: self.ty,
            disabled: std::mem::take(&mut self.disabled),
            added: std::mem::take(&mut self.added),
            changed: std::mem::take(&mut self.changed),
            changed_all: self.changed_all,
            added_max: self.added_max,
            changed_max: self.changed_max,
        }
    }

    /// The table this segment belongs to.
    #[inline]
    pub fn table(&self) -> TableId {
        self.table
    }

    /// Whether some row is disabled.
    #[inline]
    pub fn any_disabled(&self) -> bool {
        self.disabled != 0
    }

    /// The meta words, one per row.
    #[inline]
    pub fn metas(&self) -> &[Meta] {
        &self.meta
    }

    /// The rows' ticks of kind `kind`.
    #[inline]
    pub fn ticks(&self, kind: ChangeKind) -> Ticks<'_> {
        match kind {
            ChangeKind::Added => self.added.view(self.len(), 0),
            ChangeKind::Changed => self.changed.view(self.len(), self.changed_all),
        }
    }

    /// Whether some row may have been added (or changed, by `kind`) after
    /// `since`: `false` only when none was.
    #[inline]
    pub fn maybe_after(&self, kind: ChangeKind, since: Tick) -> bool {
        let max = match kind {
            ChangeKind::Added => self.added_max,
            ChangeKind::Changed => self.changed_max,
        };
        max > since.0
    }

    /// Marks row `row` handed out mutably at `now`.
    #[inline(always)]
    pub fn mark_changed(&mut self, row: RowId, now: u64) {
        let len = self.len();
        if row.index() < len {
            self.changed.set(len, row.index(), now as u32);
            self.changed_max = now;
        }
    }

    /// Marks every row handed out mutably at `now`, or the runs of rows
    /// `only` names.
    #[inline]
    pub fn mark_all_changed(&mut self, now: u64, only: Option<&[Range<usize>]>) {
        let len = self.len();
        if len == 0 {
            return;
        }
        match only {
            None => self.changed_all = now,
            Some(only) => self.mark_runs_changed(len, now, only),
        }
        self.changed_max = now;
    }

    /// Marks the runs of rows `only` names handed out mutably at `now`:
    /// out of line, which keeps the opening of a table in a writing walk
    /// small enough for the compiler to inline.
    #[inline(never)]
    fn mark_runs_changed(&mut self, len: usize, now: u64, only: &[Range<usize>]) {
        for run in only {
            self.changed.fill(len, run.clone(), now as u32);
        }
    }

    /// Writes [`Segment::changed_all`] into the rows whose own tick is
    /// older, and clears it: before a row with older ticks moves in, which
    /// it does not cover.
    #[inline(always)]
    fn settle_changed_all(&mut self) {
        if self.changed_all != 0 {
            self.settle_changed_all_now();
        }
    }

    /// [`Segment::settle_changed_all`] once there is a tick to settle: out
    /// of line, so that a row moving in pays one test while there is none.
    #[cold]
    fn settle_changed_all_now(&mut self) {
        let all = std::mem::take(&mut self.changed_all);
        // Ages are read below the latest change, which no row is after.
        let latest = self.changed_max.max(all);
        let all_age = latest - all;
        self.changed.rewrite(|tick| {
            if u64::from((latest as u32).wrapping_sub(tick)) > all_age {
                all as u32
            } else {
                tick
            }
        });
    }

    /// Row `row`'s change tick: its own, or when later the tick of the
    /// last walk of the whole segment.
    #[inline(always)]
    fn changed_at(&self, row: usize) -> u32 {
        let own = self.changed.get(row);
        let all = self.changed_all;
        if all == 0 {
            return own;
        }
        let latest = self.changed_max.max(all);
        if u64::from((latest as u32).wrapping_sub(own)) > latest - all {
            all as u32
        } else {
            own
        }
    }

    /// Raises row ticks older than the cap (see [`super::ticks`]).
    pub fn clamp_ticks(&mut self, now: u64) {
        self.settle_changed_all();
        self.added.rewrite(|tick| clamp(tick, now));
        self.changed.rewrite(|tick| clamp(tick, now));
    }

    /// How many rows it holds.
    #[inline]
    pub fn len(&self) -> usize {
        self.meta.len()
    }

    /// The values, as the segment's own type.
    ///
    /// # Panics
    /// When `C` is not the segment's type.
    #[inline]
    pub fn values_mut<C: 'static>(&mut self, now: u64) -> &mut [C] {
        self.mark_all_changed(now, None);
        self.data.as_mut_slice()
    }

    /// Each row's `T` at chain level `level` of the segment's type (0: the
    /// type itself).
    #[inline]
    pub fn iter_as<T: 'static>(&self, level: usize) -> Option<Strided<'_, T>> {
        self.data.iter(level)
    }

    /// Mutable twin of [`Segment::iter_as`].
    #[inline]
    pub fn iter_as_mut<T: 'static>(&mut self, level: usize, now: u64) -> Option<StridedMut<'_, T>> {
        self.mark_all_changed(now, None);
        self.data.iter_mut(level)
    }

    /// The values and meta words, for loops that update both (they may mark
    /// a row started, never disable it: [`Segment::set_disabled`] counts
    /// those).
    #[inline]
    pub fn values_meta_mut<C: 'static>(&mut self, now: u64) -> (&mut [C], &mut [Meta]) {
        self.mark_all_changed(now, None);
        (self.data.as_mut_slice(), &mut self.meta)
    }

    /// [`Segment::iter_as_mut`] beside the meta words, both mutable: for
    /// the update loop, which may mark a row started, never disable it
    /// (which [`Segment::set_disabled`] counts), and for query writes,
    /// which only read them. Every row is marked handed out at `now`.
    #[inline]
    pub fn values_as_meta_mut<T: 'static>(
        &mut self,
        level: usize,
        now: u64,
    ) -> Option<(StridedMut<'_, T>, &mut [Meta])> {
        self.mark_all_changed(now, None);
        self.values_as_meta_marked(level)
    }

    /// [`Segment::values_as_meta_mut`] for a caller that marked the rows
    /// it hands out itself ([`Segment::mark_all_changed`]).
    #[inline]
    pub fn values_as_meta_marked<T: 'static>(
        &mut self,
        level: usize,
    ) -> Option<(StridedMut<'_, T>, &mut [Meta])> {
        let Segment { data, meta, .. } = self;
        Some((data.iter_mut(level)?, meta))
    }

    /// Each row's owner (from `owners`, the table's), meta word and `T` at
    /// chain level `level`.
    pub fn rows_as<'a, T: 'static>(
        &'a self,
        owners: &'a [EntityIndex],
        level: usize,
    ) -> impl Iterator<Item = Row<&'a T>> + 'a {
        owners
            .iter()
            .zip(&self.meta)
            .zip(self.iter_as::<T>(level).into_iter().flatten())
            .map(|((&owner, &meta), value)| (owner, meta, value))
    }

    /// Mutable twin of [`Segment::rows_as`].
    pub fn rows_as_mut<'a, T: 'static>(
        &'a mut self,
        owners: &'a [EntityIndex],
        level: usize,
        now: u64,
    ) -> impl Iterator<Item = Row<&'a mut T>> + 'a {
        self.mark_all_changed(now, None);
        let Segment { data, meta, .. } = self;
        owners
            .iter()
            .zip(meta.iter())
            .zip(data.iter_mut::<T>(level).into_iter().flatten())
            .map(|((&owner, &meta), value)| (owner, meta, value))
    }

    /// The `T` at chain level `level` of row `row`.
    #[inline(always)]
    pub fn get_as<T: 'static>(&self, row: RowId, level: usize) -> Option<&T> {
        self.data.get(row.index(), level)
    }

    /// Mutable twin of [`Segment::get_as`].
    #[inline(always)]
    pub fn get_as_mut<T: 'static>(&mut self, row: RowId, level: usize, now: u64) -> Option<&mut T> {
        self.mark_changed(row, now);
        self.data.get_mut(row.index(), level)
    }

    /// The values, for the erased functions a type's table carries (clone,
    /// debug) that read a row by its index.
    #[inline]
    pub fn values(&self) -> &BlobVec {
        &self.data
    }

    /// The value at `row`, as the segment's own type.
    ///
    /// # Panics
    /// When `C` is not the segment's type or `row` is out of range.
    #[inline]
    pub fn get<C: 'static>(&self, row: RowId) -> &C {
        self.get_as(row, 0)
            .expect("a segment is read as its own type at a row it holds")
    }

    /// The value just pushed at `row`, as the segment's own type. It was
    /// added, and so changed, at the latest tick: unlike
    /// [`Segment::get_mut`], this does not mark it again.
    ///
    /// # Panics
    /// When `C` is not the segment's type or `row` is out of range.
    #[inline]
    pub fn pushed_mut<C: 'static>(&mut self, row: RowId) -> &mut C {
        self.data
            .get_mut(row.index(), 0)
            .expect("a segment is read as its own type at a row it holds")
    }

    /// Mutable twin of [`Segment::get`].
    #[inline]
    pub fn get_mut<C: 'static>(&mut self, row: RowId, now: u64) -> &mut C {
        self.get_as_mut(row, 0, now)
            .expect("a segment is read as its own type at a row it holds")
    }

    /// Appends a row; returns its index.
    ///
    /// # Panics
    /// When `C` is not the segment's type.
    #[inline(always)]
    pub(super) fn push<C: 'static>(&mut self, meta: Meta, value: C, now: u64) -> RowId {
        let row = RowId::from_index(self.meta.len());
        self.data.push(value);
        self.note_added(meta, RowTicks::new(now));
        self.note_ticks(now, now);
        row
    }

    /// Appends a boxed value of the segment's type.
    ///
    /// # Panics
    /// When the box holds another type.
    pub(super) fn push_boxed(
        &mut self,
        meta: Meta,
        value: Box<dyn Any + Send + Sync>,
        now: u64,
    ) -> RowId {
        let row = RowId::from_index(self.meta.len());
        if self.data.push_boxed(value).is_err() {
            panic!("a boxed component is pushed onto its own type's segment");
        }
        self.note_added(meta, RowTicks::new(now));
        self.note_ticks(now, now);
        row
    }

    /// Removes `row` and returns it (the last row moves into its place, as
    /// in every segment of the table).
    #[inline]
    pub(super) fn swap_remove<C: 'static>(&mut self, row: RowId) -> C {
        self.remove_meta(row);
        self.data.swap_remove(row.index())
    }

    /// Appends a row's meta word and ticks, counting it when disabled.
    #[inline(always)]
    fn note_added(&mut self, meta: Meta, ticks: RowTicks) {
        let len = self.len();
        self.added.push(len, ticks.added);
        self.changed.push(len, ticks.changed);
        self.meta.push(meta);
        self.disabled += u32::from(!meta.is_enabled());
    }

    /// Raises the latest ticks to `added` and `changed`.
    #[inline(always)]
    fn note_ticks(&mut self, added: u64, changed: u64) {
        // Two tests, not `max`: the compiler paired the two maxima into
        // vector code that baseline x86-64 has no 64-bit compare for (18
        // instructions rather than 6 on every row moved between tables).
        if added > self.added_max {
            self.added_max = added;
        }
        if changed > self.changed_max {
            self.changed_max = changed;
        }
    }

    /// Removes a row's meta word and ticks (the last takes its place),
    /// uncounting it.
    #[inline(always)]
    fn remove_meta(&mut self, row: RowId) -> (Meta, RowTicks) {
        let changed = self.changed_at(row.index());
        let meta = self.meta.swap_remove(row.index());
        self.changed.swap_remove(row.index());
        let ticks = RowTicks {
            added: self.added.swap_remove(row.index()),
            changed,
        };
        self.disabled -= u32::from(!meta.is_enabled());
        (meta, ticks)
    }

    /// Moves `row` to the end of `target` (the last row takes its place),
    /// with its ticks: a component that changes tables is not added again.
    #[inline]
    pub(super) fn move_row_to(&mut self, row: RowId, target: &mut Segment) {
        let (meta, ticks) = self.remove_meta(row);
        self.data.swap_remove_into(row.index(), &mut target.data);
        target.settle_changed_all();
        target.note_added(meta, ticks);
        target.note_ticks(self.added_max, self.changed_max);
    }

    /// Moves `row` into `trash` (the last row takes its place).
    pub(super) fn trash_row(&mut self, row: RowId, trash: &mut BlobVec) {
        self.remove_meta(row);
        self.data.swap_remove_into(row.index(), trash);
    }

    /// Moves the rows from `len` on into `trash`; `true` when there were any.
    pub(super) fn trash_from(&mut self, len: usize, trash: &mut BlobVec) -> bool {
        if self.meta.len() <= len {
            return false;
        }
        let gone = self.meta[len..].iter().filter(|m| !m.is_enabled()).count();
        self.disabled -= u32::try_from(gone).expect("a segment holds fewer than 2^32 rows");
        self.meta.truncate(len);
        self.added.truncate(len);
        self.changed.truncate(len);
        self.data.truncate_into(len, trash);
        true
    }

    pub(super) fn reserve(&mut self, additional: usize) {
        self.data.reserve(additional);
        self.meta.reserve(additional);
        self.added.reserve(additional);
        self.changed.reserve(additional);
    }

    /// The row's meta word, `None` past the end (a segment lent out).
    #[inline]
    pub fn meta(&self, row: RowId) -> Option<Meta> {
        self.meta.get(row.index()).copied()
    }

    /// Disables or enables the row; `true` when that changed it.
    pub(super) fn set_disabled(&mut self, row: RowId, disabled: bool) -> bool {
        let word = &mut self.meta[row.index()];
        let old = *word;
        *word = old.with_enabled(!disabled);
        let changed = old != *word;
        if changed {
            if disabled {
                self.disabled += 1;
            } else {
                self.disabled -= 1;
            }
        }
        changed
    }
}
