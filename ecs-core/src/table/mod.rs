//! Tables: the type registry, type-erased columns split into one segment
//! per table, and the tables themselves. [`Storage`] owns their invariants:
//! every entity of a table has one row in each of the table's segments, at
//! the same index; a table's owners name those rows' entities; removed
//! values go to the trash and are dropped only once everything else is
//! consistent.
//!
//! Everything here is safe code over the storage layer's
//! [`BlobVec`](crate::storage::raw::BlobVec).

mod column;
mod copy;
mod delta;
mod meta;
mod moves;
mod reclaim;
mod restore;
mod rows;
mod segment;
pub(crate) mod tables;
mod tick_column;
mod ticks;
mod types;

pub(crate) use column::{Column, LentColumn};
pub(crate) use copy::CopyError;
pub(crate) use meta::Meta;
pub(crate) use segment::{Row, Segment};
pub(crate) use tables::{Comps, Place, Table, EMPTY_TABLE};
pub use ticks::Tick;
pub(crate) use ticks::{is_after, ChangeKind, Ticks};
pub(crate) use types::{TypeIdHasher, TypeInfo, Types};

use crate::component::ComponentVTable;
use crate::entity::{RowId, SegId, TableId, TypeIdx};
use crate::Component;

/// Every component of one world: the types, their columns and the tables
/// that group entities by the component types they hold.
#[derive(Default)]
pub(crate) struct Storage {
    types: Types,
    /// Parallel to `types`; present once a component of exactly that type
    /// was registered by its own type (not only as an ancestor).
    columns: Vec<Option<Column>>,
    /// Every segment of every column, so the is-a index names a
    /// component's segment directly, whatever its type.
    segments: Vec<Segment>,
    /// Slots of `segments` whose tables were reclaimed, reused first.
    vacant_segments: Vec<SegId>,
    tables: tables::Tables,
    /// The is-a index: by type index, then by table, where the table's
    /// first component that is-a the type sits, so `get` and its is-a rule
    /// are one lookup wherever the component is in the layout.
    first: Vec<Vec<tables::FirstIsa>>,
    /// Columns whose trash holds values to drop (see [`Storage::empty_trash`]).
    trashed: Vec<TypeIdx>,
    /// The change clock every row's ticks are read against.
    clock: ticks::Clock,
    /// By segment slot, an empty array of the segment's type whose buffer
    /// a restore in place clones into (see [`Storage::restore_in_place`]):
    /// empty until the first restore, then the buffer the segment had.
    spares: Vec<crate::storage::raw::BlobVec>,
}

impl Storage {
    /// The tick a reader keeps: what is added or changed from now on is
    /// later than it.
    pub fn look(&self) -> Tick {
        self.clock.look()
    }

    /// The clock's current tick, for reading row ticks against.
    #[inline]
    pub fn now(&self) -> u64 {
        self.clock.now()
    }

    /// The tick of a write about to happen (see [`ticks::Clock::write`]);
    /// caps old row ticks when they are due.
    #[inline]
    pub fn write_tick(&mut self) -> u64 {
        let (now, due) = self.clock.write();
        if due {
            self.clamp_ticks();
        }
        now
    }

    /// Moves the clock `ticks` on, as that many looks each followed by a
    /// write would.
    pub fn skip_ticks(&mut self, ticks: u64) {
        if self.clock.skip(ticks) {
            self.clamp_ticks();
        }
    }

    #[cold]
    fn clamp_ticks(&mut self) {
        let now = self.clock.now();
        self.segments.iter_mut().for_each(|s| s.clamp_ticks(now));
        self.clock.clamped();
    }

    /// The type registry.
    #[inline]
    pub fn types(&self) -> &Types {
        &self.types
    }

    /// The index of `T`, if registered.
    #[inline]
    pub fn type_idx<T: Component>(&self) -> Option<TypeIdx> {
        self.types.index_of::<T>()
    }

    /// The entry of type `ty`.
    #[inline]
    pub fn info(&self, ty: TypeIdx) -> &TypeInfo {
        self.types.info(ty)
    }

    /// The index of the type `vtable` describes when it already has a
    /// column.
    #[inline]
    pub fn registered(&self, vtable: &'static ComponentVTable) -> Option<TypeIdx> {
        let ty = self.types.index_of_id(vtable.type_id())?;
        self.columns[ty.index()].is_some().then_some(ty)
    }

    /// Registers the type `vtable` describes (and its ancestors) and gives
    /// it a column.
    pub fn register(
        &mut self,
        vtable: &'static ComponentVTable,
        has_requirements: bool,
    ) -> TypeIdx {
        if let Some(ty) = self.registered(vtable) {
            return ty;
        }
        let ty = self.types.register(vtable, has_requirements);
        self.columns.resize_with(self.types.len(), || None);
        self.columns[ty.index()] = Some(Column::new(vtable));
        ty
    }

    /// The column of `ty`, `None` when the type has none (only registered
    /// as an ancestor) or its segments are lent out.
    #[inline]
    pub fn try_column(&self, ty: TypeIdx) -> Option<&Column> {
        self.columns.get(ty.index())?.as_ref().filter(|c| !c.lent)
    }

    /// The tables, with every segment borrowed mutably (in index order),
    /// for loops that hand out values of many segments at once.
    pub fn tables_and_segments_mut(&mut self) -> (&[Table], &mut [Segment]) {
        (&self.tables, &mut self.segments)
    }

    /// The tables and every segment, shared.
    pub fn tables_and_segments(&self) -> (&[Table], &[Segment]) {
        (&self.tables, &self.segments)
    }

    /// Table `table`.
    #[inline]
    pub fn table(&self, table: TableId) -> &Table {
        &self.tables[table.index()]
    }

    /// How many table slots there are, reclaimed ones included: table ids
    /// are below this.
    pub fn table_slots(&self) -> usize {
        self.tables.len()
    }

    /// How many tables are in use, the empty layout's included.
    pub fn table_count(&self) -> usize {
        self.tables.len() - self.tables.vacant.len()
    }

    /// Changes whenever a table id stops naming the table it named.
    pub fn table_epoch(&self) -> u64 {
        self.tables.epoch
    }

    /// Makes room for `additional` more rows in `table`.
    pub fn reserve_table(&mut self, table: TableId, additional: usize) {
        let Storage {
            tables, segments, ..
        } = self;
        for place in tables[table.index()].layout.iter() {
            segments[place.seg.index()].reserve(additional);
        }
        self.tables.reserve_owners(table, additional);
    }

    /// Pushes `value` onto segment `place` with a fresh serial; returns its
    /// row. The caller keeps rows aligned (one push per segment of the
    /// table per entity entering it).
    #[inline(always)]
    pub fn push_value<C: Component>(&mut self, place: Place, value: C) -> RowId {
        let meta = self.types.take_meta(place.ty);
        self.push_meta(place, meta, value)
    }

    /// [`Storage::push_value`] for a world being loaded, row by row: the
    /// load made the world (no type is lent out) and took its write tick
    /// before reading values (nothing looks at the clock while they are
    /// read), so neither is checked again for each value.
    #[inline(always)]
    pub fn push_loaded<C: Component>(&mut self, place: Place, value: C) -> RowId {
        debug_assert!(
            self.try_column(place.ty).is_some() && !self.clock.looked(),
            "a loaded value enters a new world, after the load's write tick"
        );
        let meta = self.types.take_meta(place.ty);
        let now = self.clock.now();
        self.segments[place.seg.index()].push(meta, value, now)
    }

    /// Pushes `value` onto segment `place` with meta word `meta`.
    ///
    /// # Panics
    /// When the place's type is lent out (a structural change while a
    /// behaviour of that type runs: those are deferred).
    #[inline(always)]
    pub fn push_meta<C: Component>(&mut self, place: Place, meta: Meta, value: C) -> RowId {
        self.assert_present(place.ty);
        let now = self.write_tick();
        self.segments[place.seg.index()].push(meta, value, now)
    }

    /// Pushes `count` values made by `next` onto segment `place`, each with
    /// a fresh serial, disabled when `disabled`: [`Storage::push_value`]
    /// with its look-ups made once for the run (a blueprint spawned many
    /// times). Stops at the first error; the values pushed before it stay
    /// for the caller to take back.
    pub fn push_run<C: Component, E>(
        &mut self,
        place: Place,
        count: usize,
        disabled: bool,
        mut next: impl FnMut() -> Result<C, E>,
    ) -> Result<(), E> {
        self.assert_present(place.ty);
        let now = self.write_tick();
        let Storage {
            types, segments, ..
        } = self;
        let segment = &mut segments[place.seg.index()];
        segment.reserve(count);
        for _ in 0..count {
            let value = next()?;
            let meta = types.take_meta(place.ty).with_enabled(!disabled);
            segment.push(meta, value, now);
        }
        Ok(())
    }

    /// [`Storage::push_value`] for a boxed value of the place's type.
    pub fn push_boxed(&mut self, place: Place, value: crate::component::ops::BoxedComponent) {
        let meta = self.types.take_meta(place.ty);
        self.assert_present(place.ty);
        let now = self.write_tick();
        self.segments[place.seg.index()].push_boxed(meta, value, now);
    }

    /// Rows never enter a segment standing in for one lent out.
    #[inline(always)]
    fn assert_present(&self, ty: TypeIdx) {
        assert!(
            self.try_column(ty).is_some(),
            "a stored type's segments are in place when rows enter them"
        );
    }

    /// Moves the rows of segment `seg` of `ty` from `len` on into the
    /// trash (taking back a batch that failed half way).
    pub fn trash_from(&mut self, ty: TypeIdx, seg: SegId, len: usize) {
        let Some(column) = self.columns[ty.index()].as_mut().filter(|c| !c.lent) else {
            return;
        };
        if self.segments[seg.index()].trash_from(len, &mut column.trash)
            && !self.trashed.contains(&ty)
        {
            self.trashed.push(ty);
        }
    }

    /// Drops the values waiting in the columns' trash: called once the world
    /// is consistent again, so a panicking `Drop` cannot leave it half
    /// updated. When one panics, every other value waiting is still
    /// dropped (once) before the panic goes on, as a slice's values are.
    pub fn empty_trash(&mut self) {
        if self.trashed.is_empty() {
            return;
        }
        let mut rest = TrashRest {
            columns: &mut self.columns,
            trashed: &mut self.trashed,
        };
        rest.run();
    }
}

/// The columns whose trash still holds values: emptied by
/// [`TrashRest::run`], and by its own `Drop` when a value's `Drop` panics,
/// so the other columns' values are dropped while the panic unwinds.
struct TrashRest<'a> {
    columns: &'a mut [Option<Column>],
    trashed: &'a mut Vec<TypeIdx>,
}

impl TrashRest<'_> {
    fn run(&mut self) {
        // `pop` keeps the buffer's capacity: no allocation per removal.
        // A column is taken off the list before its trash is emptied: one
        // whose `clear` panics has dropped all its values anyway.
        while let Some(ty) = self.trashed.pop() {
            if let Some(column) = self.columns[ty.index()].as_mut() {
                column.trash.clear();
            }
        }
    }
}

impl Drop for TrashRest<'_> {
    fn drop(&mut self) {
        self.run();
    }
}
