//! Walking a query's tables: the segments each term reads, borrowed once
//! per query, and the rows of one table at a time.

use std::mem::ManuallyDrop;
use std::ops::{Deref, Range};
use std::sync::Arc;

use crate::entity::RowId;
use crate::entity::{Entities, EntityIndex, SegId, TableId};
use crate::query::borrows::{position, Borrowed, Borrows};
use crate::query::data::QueryData;
use crate::query::plan::Watch;
use crate::query::plan::{Place, Plan};
use crate::query::runs::{changed_runs, refine, runs_where, Runs, TickLane};
use crate::query::term::Generations;
use crate::query::term::{Slot, SlotKind, TermInfo, UpMaps};
use crate::storage::raw::{Lanes, Lockstep};
use crate::table::{Segment, Storage, Table};

/// Where a query's terms borrow their segments from, beside the tables
/// they are in (a plain slice for both kinds, so opening a table does not
/// first ask which kind it is).
pub(crate) struct Source<'w> {
    tables: &'w [Table],
    segments: Segments<'w>,
    /// The clock's tick: what a writing query marks the rows it hands out
    /// mutably with, and what row ticks are read against.
    now: u64,
    /// The one row a writing query hands out (`query_one_mut`), marked
    /// alone; `None`: every row it walks.
    only_row: Option<usize>,
    /// Per term, for [`Up`](crate::Up) terms: where their type sits by
    /// table, gathered when the first table is opened.
    ups: UpMaps<'w>,
    /// Whether a segment the query borrowed has disabled rows: while none
    /// has, a table's rows are all handed out unless its entities are not.
    disabled_rows: bool,
}

enum Segments<'w> {
    /// A read-only query: every segment shared.
    Shared(&'w [Segment]),
    /// A query that writes: each segment it reads borrowed once, mutably
    /// for a mutable term, shared (and kept for other shared terms)
    /// otherwise; sorted by segment, for a binary search per table.
    Mut {
        borrowed: Borrows<'w>,
        /// Where the next lookup starts: tables are opened in the order
        /// they were made, which is also the order of their segments, so
        /// the next segment asked for is usually the next one.
        hint: usize,
    },
}

/// Where a query's terms read in one table: each term's place, every
/// place of [`All`](crate::All) terms, and where [`Up`](crate::Up) terms
/// find their type by table.
pub(crate) struct Reads<'p> {
    pub places: &'p [Place],
    pub many: &'p [Vec<(SegId, usize)>],
    pub ups: &'p [Vec<Place>],
}

/// Whether a term skips the rows whose component it reads is disabled.
fn is_required(term: &TermInfo) -> bool {
    term.required && !term.all && !term.up && term.key.is_some()
}

impl<'w> Source<'w> {
    /// Every segment shared, for a read-only query.
    pub fn shared(storage: &'w Storage) -> Self {
        let (tables, segments) = storage.tables_and_segments();
        Source {
            tables,
            segments: Segments::Shared(segments),
            now: storage.now(),
            only_row: None,
            ups: UpMaps::default(),
            disabled_rows: true,
        }
    }

    /// Borrows the segments `wanted` names (sorted, each once): only those,
    /// so a query over few tables or one entity does not pay for every
    /// segment of the world.
    pub fn new_mut(storage: &'w mut Storage, wanted: &[SegId]) -> Self {
        let now = storage.write_tick();
        let (tables, mut rest) = storage.tables_and_segments_mut();
        let mut borrowed = Borrows::with_capacity(wanted.len());
        // `rest` starts at segment `next`: each wanted segment is split off
        // the front, so no segment is borrowed twice.
        let mut next = 0;
        let mut disabled_rows = false;
        for &seg in wanted {
            let skip = seg.index() - next;
            let Some((segment, tail)) = std::mem::take(&mut rest)
                .get_mut(skip..)
                .and_then(<[Segment]>::split_first_mut)
            else {
                break;
            };
            rest = tail;
            next = seg.index() + 1;
            disabled_rows |= segment.any_disabled();
            borrowed.push(Borrowed {
                seg,
                unique: Some(segment),
                shared: None,
            });
        }
        Source {
            tables,
            segments: Segments::Mut { borrowed, hint: 0 },
            now,
            only_row: None,
            ups: UpMaps::default(),
            disabled_rows,
        }
    }

    /// Gathers where the [`Up`](crate::Up) term `i` finds its type, by
    /// table (`places`: the plan's, by table id), unless it has: each
    /// segment shared for the rest of the walk.
    fn map_up(&mut self, i: usize, places: &[Place]) {
        if self.ups.has(i) {
            return;
        }
        let map = places
            .iter()
            .map(|place| {
                let (seg, level) = (*place)?;
                Some((self.share(seg)?, level))
            })
            .collect();
        self.ups.set(i, map);
    }

    /// Segment `seg`, shared from now on.
    fn share(&mut self, seg: SegId) -> Option<&'w Segment> {
        match &mut self.segments {
            Segments::Shared(segments) => segments.get(seg.index()),
            Segments::Mut { borrowed, .. } => {
                let borrowed = borrowed.as_mut_slice();
                let at = borrowed.binary_search_by_key(&seg, |b| b.seg).ok()?;
                let entry = &mut borrowed[at];
                if entry.shared.is_none() {
                    entry.shared = entry.unique.take().map(|s| &*s);
                }
                entry.shared
            }
        }
    }

    /// The maps of the query's [`Up`](crate::Up) terms, for the rows of
    /// the tables opened so far.
    pub fn up_maps(&self) -> &UpMaps<'w> {
        &self.ups
    }

    /// Marks only row `row` handed out (a query of one entity).
    pub fn only_row(mut self, row: usize) -> Self {
        self.only_row = Some(row);
        self
    }

    /// Segment `seg` to read, if the source holds it and has not lent it
    /// out mutably.
    #[inline]
    fn peek(&self, seg: SegId) -> Option<&Segment> {
        match &self.segments {
            Segments::Shared(segments) => segments.get(seg.index()),
            Segments::Mut { borrowed, hint } => {
                let borrowed = borrowed.as_slice();
                let entry = &borrowed[position(borrowed, seg, *hint)?];
                entry.shared.or(entry.unique.as_deref())
            }
        }
    }

    /// The runs of rows of a table with `rows` rows that pass the change
    /// filters (`watch`: per filter, the segments whose components are-a
    /// its type; `since`: per filter, its kind and tick). `None` when no
    /// row does, read off each segment's latest tick first, so a table
    /// with no change since is passed over without reading its rows.
    fn passing(
        &self,
        rows: usize,
        watch: &[Vec<SegId>],
        since: &[Watch],
    ) -> Option<Vec<Range<usize>>> {
        if watch
            .iter()
            .zip(since)
            .any(|(segs, &watched)| self.changed(segs, watched).next().is_none())
        {
            return None;
        }
        let mut lanes = Vec::new();
        for (filter, (segs, &(kind, tick))) in watch.iter().zip(since).enumerate() {
            lanes.extend(self.changed(segs, (kind, tick)).map(|segment| TickLane {
                filter,
                ticks: segment.ticks(kind),
                since: tick,
            }));
        }
        let runs = changed_runs(rows, &lanes, since.len(), self.now);
        (!runs.is_empty()).then_some(runs)
    }

    /// The rows of `table` that a writing query which skips disabled
    /// components and inactive entities hands out, as runs (within `runs`
    /// when the query has per-row filters); `runs` itself when no row is
    /// skipped, and `None` when none is left. Marking only these keeps
    /// change answers per entity: a row passed over is not changed.
    #[inline(always)]
    fn handed_out(
        &self,
        table: &Table,
        runs: Option<Vec<Range<usize>>>,
        terms: &[TermInfo],
        places: &[Place],
        entities: &Entities,
    ) -> Option<Option<Vec<Range<usize>>>> {
        let skips = |i: usize| {
            is_required(&terms[i])
                && places[i]
                    .and_then(|(seg, _)| self.peek(seg))
                    .is_some_and(Segment::any_disabled)
        };
        let skipped = self.disabled_rows && (0..terms.len().min(places.len())).any(skips);
        if !table.any_inactive() && !skipped {
            return Some(runs);
        }
        self.active_rows(table, runs, terms, places, entities)
    }

    /// The segments a query's required terms read in one table.
    fn required<'s>(
        &'s self,
        terms: &'s [TermInfo],
        places: &'s [Place],
    ) -> impl Iterator<Item = &'s Segment> + 's {
        terms
            .iter()
            .zip(places)
            .filter(|(term, _)| is_required(term))
            .filter_map(|(_, place)| place.and_then(|(seg, _)| self.peek(seg)))
    }

    /// [`Source::handed_out`] for a table where some rows are skipped.
    #[cold]
    #[inline(never)]
    fn active_rows(
        &self,
        table: &Table,
        runs: Option<Vec<Range<usize>>>,
        terms: &[TermInfo],
        places: &[Place],
        entities: &Entities,
    ) -> Option<Option<Vec<Range<usize>>>> {
        let disabled: Vec<&Segment> = self
            .required(terms, places)
            .filter(|segment| segment.any_disabled())
            .collect();
        let owners = table.owners();
        let pass = |row: usize| {
            entities.slot(owners[row]).is_active()
                && disabled
                    .iter()
                    .all(|segment| segment.metas().get(row).is_some_and(|m| m.is_enabled()))
        };
        let out = match runs {
            Some(runs) => refine(&runs, pass),
            None => {
                let mut out = Vec::new();
                runs_where(0..owners.len(), &mut out, pass);
                out
            }
        };
        (!out.is_empty()).then_some(Some(out))
    }

    /// The segments of `segs` with a row added (or changed, by the kind)
    /// after the tick.
    fn changed<'s>(
        &'s self,
        segs: &'s [SegId],
        (kind, tick): Watch,
    ) -> impl Iterator<Item = &'s Segment> + 's {
        segs.iter()
            .filter_map(|&seg| self.peek(seg))
            .filter(move |segment| segment.maybe_after(kind, tick))
    }

    fn table(&self, table: TableId) -> &'w Table {
        &self.tables[table.index()]
    }

    /// The slot of a term reading `seg` at `level`; `check` when disabled
    /// components are skipped.
    #[inline(always)]
    fn slot(
        &mut self,
        mutable: bool,
        seg: SegId,
        level: usize,
        inactive: bool,
        runs: Option<&[Range<usize>]>,
    ) -> Slot<'w> {
        let (now, only_row) = (self.now, self.only_row);
        let mark = |segment: &mut Segment| match only_row {
            Some(row) => segment.mark_changed(RowId::from_index(row), now),
            None => segment.mark_all_changed(now, runs),
        };
        let check = |segment: &Segment| !inactive && segment.any_disabled();
        let kind = match &mut self.segments {
            Segments::Shared(segments) => {
                let segment = &segments[seg.index()];
                SlotKind::Shared {
                    segment,
                    level,
                    check: check(segment),
                }
            }
            Segments::Mut { borrowed, hint } => {
                let borrowed = borrowed.as_mut_slice();
                let Some(at) = position(borrowed, seg, *hint) else {
                    return Slot {
                        kind: SlotKind::Missing,
                    };
                };
                *hint = at + 1;
                let entry = &mut borrowed[at];
                if mutable {
                    match entry.unique.take() {
                        Some(segment) => {
                            mark(segment);
                            let check = check(segment);
                            SlotKind::Mut {
                                segment,
                                level,
                                check,
                            }
                        }
                        None => SlotKind::Missing,
                    }
                } else {
                    let segment = match entry.shared {
                        Some(segment) => Some(segment),
                        None => entry.unique.take().map(|s| &*s),
                    };
                    entry.shared = segment;
                    match segment {
                        Some(segment) => SlotKind::Shared {
                            segment,
                            level,
                            check: check(segment),
                        },
                        None => SlotKind::Missing,
                    }
                }
            }
        };
        Slot { kind }
    }

    /// The slot of a term that reads its own row (not [`Up`](crate::Up),
    /// not [`All`](crate::All)) at `place` in `table`: the owners for an
    /// [`EntityId`](crate::EntityId), its segment, or nothing.
    #[inline(always)]
    fn own_slot(
        &mut self,
        term: &TermInfo,
        place: Place,
        table: &'w Table,
        entities: &'w Entities,
        inactive: bool,
        marks: Option<&[Range<usize>]>,
    ) -> Slot<'w> {
        let kind = match (term.key, place) {
            (None, _) => SlotKind::Owners {
                owners: table.owners(),
                entities,
            },
            (Some(_), None) => SlotKind::Missing,
            (Some(_), Some((seg, level))) => {
                return self.slot(term.mutable, seg, level, inactive, marks);
            }
        };
        Slot { kind }
    }

    /// [`Source::open`] for a walk with no per-row filters and no terms
    /// that read beyond their row ([`Walk::is_plain`]): only what such a
    /// table can need is decided, in line.
    #[inline(always)]
    fn open_plain<Q: QueryData>(
        &mut self,
        table: TableId,
        places: &[Place],
        entities: &'w Entities,
        inactive: bool,
    ) -> Option<TableRows<'w, Q>> {
        let rows = self.table(table);
        let len = rows.owners().len();
        if len == 0 {
            return None;
        }
        let terms: &[TermInfo] = Q::TERMS;
        let any_inactive = !inactive && rows.any_inactive();
        if terms.iter().any(|t| t.mutable) && !inactive && (any_inactive || self.disabled_rows) {
            // Some rows may be passed over, and only those handed out are
            // marked changed.
            let reads = Reads {
                places,
                many: &[],
                ups: &[],
            };
            return self.open(table, reads, entities, inactive, None);
        }
        let mut checked = any_inactive;
        let (lanes, states) = Q::open(|i| {
            let slot = self.own_slot(&terms[i], places[i], rows, entities, inactive, None);
            checked |= slot.kind.checks();
            slot
        })?;
        Some(TableRows {
            cursor: Cursor {
                lanes: Lockstep::new(lanes, len, checked),
                states,
            },
            owners: any_inactive.then(|| rows.owners()),
            entities,
            runs: None,
        })
    }

    /// The rows of `table`, each term reading at its place; `None` when it
    /// has none (plans keep empty tables, which may fill up before a later
    /// call) or lacks a required term.
    pub fn open<Q: QueryData>(
        &mut self,
        table: TableId,
        reads: Reads<'_>,
        entities: &'w Entities,
        inactive: bool,
        runs: Option<Vec<Range<usize>>>,
    ) -> Option<TableRows<'w, Q>> {
        let Reads { places, many, ups } = reads;
        let rows = self.table(table);
        if rows.owners().is_empty() {
            return None;
        }
        let terms: &[TermInfo] = Q::TERMS;
        let runs = match inactive || !terms.iter().any(|t| t.mutable) {
            true => runs,
            false => self.handed_out(rows, runs, terms, places, entities)?,
        };
        let marks = runs.as_deref();
        let mut checked = false;
        let (lanes, states) = Q::open(|i| {
            let slot = match (terms[i].key, places[i]) {
                (Some(_), _) if terms[i].up => {
                    self.map_up(i, ups.get(i).map_or(&[][..], Vec::as_slice));
                    Slot {
                        kind: SlotKind::Up {
                            links: rows.parent_links(),
                            entities,
                            term: i,
                        },
                    }
                }
                (Some(_), _) if terms[i].all => {
                    let slots = many.get(i).map_or(&[][..], Vec::as_slice);
                    let kinds = slots
                        .iter()
                        .map(|&(seg, level)| {
                            self.slot(terms[i].mutable, seg, level, inactive, marks)
                                .kind
                        })
                        .collect();
                    Slot {
                        kind: SlotKind::Many(kinds),
                    }
                }
                _ => self.own_slot(&terms[i], places[i], rows, entities, inactive, marks),
            };
            checked |= slot.kind.checks();
            slot
        })?;
        let owners = (!inactive && rows.any_inactive()).then(|| rows.owners());
        let checked = owners.is_some() || checked;
        let lanes = Lockstep::new(lanes, rows.owners().len(), checked);
        let rows = TableRows {
            cursor: Cursor { lanes, states },
            owners,
            entities,
            runs: None,
        };
        match runs {
            None => Some(rows),
            Some(runs) => rows.in_runs(runs, checked),
        }
    }
}

/// What a walk touches on every row of a table where none is skipped:
/// the terms' arrays, one row counter for all, and the terms' states. The
/// iterator keeps it apart from the rest of [`TableRows`], so that only
/// this much moves in and out of the out-of-line code that opens tables.
pub(crate) struct Cursor<'w, Q: QueryData> {
    lanes: Lockstep<Q::Lanes<'w>>,
    states: Q::States<'w>,
}

impl<'w, Q: QueryData> Cursor<'w, Q> {
    /// No rows.
    fn idle(entities: &'w Entities) -> Self {
        Cursor {
            lanes: Lockstep::empty(),
            states: Q::idle(Generations(entities)),
        }
    }

    /// The next row of a table where none is skipped; `None` at the end
    /// and in a table where rows may be skipped.
    #[inline(always)]
    fn next_unchecked(&mut self, ups: &UpMaps<'w>) -> Option<Q::Item<'w>> {
        if const { crate::query::data::reads_up(Q::TERMS) } {
            // One fetch for both kinds of walk. With two, the compiler
            // shared the row's code between them and reached it from the
            // dense walk's same-parent test by a second taken jump, every
            // row. One copy costs about 9% more instructions and took 3-11%
            // off the `Up` loop's time in three profiles of four (noise in
            // the fourth); other queries compile as before.
            let row = match self.lanes.next_dense() {
                Some(row) => row,
                None => self.lanes.next_strided()?,
            };
            return Some(Q::fetch_fast(row, &mut self.states, ups));
        }
        if let Some(row) = self.lanes.next_dense() {
            return Some(Q::fetch_fast(row, &mut self.states, ups));
        }
        let row = self.lanes.next_strided()?;
        Some(Q::fetch_fast(row, &mut self.states, ups))
    }
}

/// The rest of a walked table's [`TableRows`], which only the out-of-line
/// code reads: the skipped rows' owners and the runs of rows to walk.
#[derive(Default)]
struct Rest<'w> {
    owners: Option<&'w [EntityIndex]>,
    runs: Option<Box<Runs>>,
}

impl Rest<'_> {
    /// Whether the walked table left nothing behind.
    fn is_empty(&self) -> bool {
        self.owners.is_none() && self.runs.is_none()
    }
}

/// One table's rows, as a query yields them.
pub(crate) struct TableRows<'w, Q: QueryData> {
    cursor: Cursor<'w, Q>,
    /// The rows' owners, when some are disabled or killed (those are
    /// skipped).
    owners: Option<&'w [EntityIndex]>,
    entities: &'w Entities,
    /// The runs of rows that pass the query's per-row filters (change
    /// filters, `child_of`), when it has some: the lanes walk one run at a
    /// time.
    runs: Option<Box<Runs>>,
}

impl<'w, Q: QueryData> TableRows<'w, Q> {
    /// How many rows are left, skipped ones included.
    pub fn len(&self) -> usize {
        self.cursor.lanes.len() + self.runs.as_ref().map_or(0, |runs| runs.rows_left())
    }

    /// The rows walked only in `runs`, `None` when none is left.
    fn in_runs(mut self, runs: Vec<Range<usize>>, guarded: bool) -> Option<Self> {
        // A lent array reads as empty: the runs end where the lanes do.
        let runs = Runs::new(runs, self.cursor.lanes.len(), guarded)?;
        self.runs = Some(Box::new(runs));
        self.next_run();
        Some(self)
    }

    /// Moves the lanes to the next run of rows that pass the per-row
    /// filters, once the current one is walked: `false` when none is left
    /// (or the table has no runs).
    #[cold]
    #[inline(never)]
    fn next_run(&mut self) -> bool {
        let Some(jump) = self.runs.as_mut().and_then(|runs| runs.next_jump()) else {
            return false;
        };
        let Cursor { lanes, states } =
            std::mem::replace(&mut self.cursor, Cursor::idle(self.entities));
        self.cursor = Cursor {
            lanes: lanes.skip_then(jump.skip, jump.take, jump.guarded),
            states: Q::split(states, jump.skip).1,
        };
        if let Some(owners) = &mut self.owners {
            *owners = owners.get(jump.skip..).unwrap_or_default();
        }
        true
    }

    /// The next row that is not skipped (`ups`: the walk's maps for its
    /// [`Up`](crate::Up) terms).
    #[inline(always)]
    pub fn next(&mut self, ups: &UpMaps<'w>) -> Option<Q::Item<'w>> {
        loop {
            if let Some(item) = self.cursor.next_unchecked(ups) {
                return Some(item);
            }
            if let Some(item) = self.next_checked(ups) {
                return Some(item);
            }
            if self.runs.is_none() || !self.next_run() {
                return None;
            }
        }
    }

    /// The next row that is not skipped, in a table where rows may be
    /// skipped (a checked table's walk is guarded).
    #[inline(always)]
    fn next_checked(&mut self, ups: &UpMaps<'w>) -> Option<Q::Item<'w>> {
        while let Some(row) = self.cursor.lanes.next_guarded() {
            if let Some(item) = self.check(row, ups) {
                return Some(item);
            }
        }
        None
    }

    /// The item of `row` in a table where rows may be skipped: `None` when
    /// its entity or one of its components is inactive.
    #[inline(always)]
    fn check(
        &mut self,
        row: <Q::Lanes<'w> as Lanes>::Item,
        ups: &UpMaps<'w>,
    ) -> Option<Q::Item<'w>> {
        let active = match &mut self.owners {
            None => true,
            Some(owners) => match owners.split_first() {
                Some((&owner, rest)) => {
                    *owners = rest;
                    self.entities.slot(owner).is_active()
                }
                None => false,
            },
        };
        let item = Q::fetch(row, &mut self.cursor.states, ups);
        item.filter(|_| active)
    }

    /// Folds every row left into `acc`; by value, so the lanes can live in
    /// registers, and with the check for skipped rows decided once per
    /// table rather than per row.
    #[inline(always)]
    pub fn fold<B>(
        mut self,
        mut acc: B,
        f: &mut impl FnMut(B, Q::Item<'w>) -> B,
        ups: &UpMaps<'w>,
    ) -> B {
        if self.runs.is_some() {
            while let Some(item) = self.next(ups) {
                acc = f(acc, item);
            }
            return acc;
        }
        while let Some(item) = self.next_checked(ups) {
            acc = f(acc, item);
        }
        let Cursor {
            lanes, mut states, ..
        } = self.cursor;
        lanes.fold(acc, |acc, row| f(acc, Q::fetch_fast(row, &mut states, ups)))
    }

    /// The first `at` rows and the rest. In a table walked by runs the
    /// first part ends with the current run at the latest.
    pub fn split(mut self, at: usize) -> (Self, Self) {
        if self.cursor.lanes.len() == 0 {
            self.next_run();
        }
        let Cursor { lanes, states } = self.cursor;
        let at = at.min(lanes.len());
        let (a, b) = lanes.split_at(at);
        let (sa, sb) = Q::split(states, at);
        let (oa, ob) = match self.owners {
            Some(owners) => {
                let (x, y) = owners.split_at(at.min(owners.len()));
                (Some(x), Some(y))
            }
            None => (None, None),
        };
        (
            TableRows {
                cursor: Cursor {
                    lanes: a,
                    states: sa,
                },
                owners: oa,
                entities: self.entities,
                runs: None,
            },
            TableRows {
                cursor: Cursor {
                    lanes: b,
                    states: sb,
                },
                owners: ob,
                entities: self.entities,
                runs: self.runs,
            },
        )
    }
}

/// The iterator of a query: table by table, row by row.
pub struct QueryIter<'w, Q: QueryData> {
    /// The table being walked (no rows before the first and after the
    /// last); the rest of its rows is in `tables`.
    rows: Cursor<'w, Q>,
    /// Boxed: only the out-of-line [`Tables::refill`] touches it, and a
    /// pointer into the iterator itself would keep the compiler from
    /// holding `rows` in registers in a `for` loop.
    tables: Box<Tables<'w>>,
}

/// The tables a query has yet to open.
struct Tables<'w> {
    plan: PlanHandle,
    next_table: usize,
    source: Source<'w>,
    entities: &'w Entities,
    inactive: bool,
    /// The per-row filters.
    walk: Walk,
    /// Whether the walk hands out whole tables ([`Walk::is_plain`]),
    /// decided once rather than as each table is opened.
    plain: bool,
    /// The rest of the rows of the table being walked.
    rest: Rest<'w>,
}

/// A walk's per-row filters: its change filters' kinds and ticks (in the
/// plan's order) and the parent whose children it visits. A parent that
/// is gone leaves nothing to visit.
pub(crate) struct Walk {
    since: Vec<Watch>,
    child_of: Option<Option<EntityIndex>>,
}

impl Walk {
    /// Whether the walk hands out whole tables: no per-row filters, and
    /// no term that reads beyond its own row's segment.
    #[inline(always)]
    fn is_plain<Q: QueryData>(&self) -> bool {
        self.since.is_empty() && self.child_of.is_none() && !Q::TERMS.iter().any(|t| t.up || t.all)
    }

    /// The filters of a walk over `entities`.
    pub fn new(since: Vec<Watch>, child_of: Option<crate::EntityId>, entities: &Entities) -> Self {
        let child_of = child_of.map(|id| entities.get_live(id).map(|_| id.index));
        Walk { since, child_of }
    }
}

/// A query's share of its plan, released out of line: an atomic count
/// update inlined into the caller's loop, even on a path the loop never
/// takes, makes the compiler keep the loop's own variables in memory.
struct PlanHandle(ManuallyDrop<Option<Arc<Plan>>>);

impl Deref for PlanHandle {
    type Target = Plan;
    #[inline(always)]
    fn deref(&self) -> &Plan {
        self.0.as_deref().expect("a plan is released only on drop")
    }
}

impl Drop for PlanHandle {
    fn drop(&mut self) {
        release(&mut self.0);
    }
}

#[inline(never)]
fn release(plan: &mut Option<Arc<Plan>>) {
    drop(plan.take());
}

impl<'w> Tables<'w> {
    /// The next item once `rows` has none left unchecked: a checked row of
    /// `rows`, or the first row of a table opened after it. Out of line and
    /// by value, so the iterator's rows stay in registers in a `for` loop.
    /// Handing out the new table's first row here, rather than looping back
    /// to the inlined path for it, is what keeps a many-term join's walk in
    /// registers: that loop shape doubled `join5`'s time (its inner loop
    /// spilled three lanes and its counter every row) while it saved a
    /// third on 26 tables of 20 rows.
    #[cold]
    #[inline(never)]
    fn refill<Q: QueryData>(
        &mut self,
        cursor: Cursor<'w, Q>,
    ) -> (Cursor<'w, Q>, Option<Q::Item<'w>>) {
        // A table walked to its end leaves nothing to join when it had no
        // runs and no rows to check: open the next table straight away.
        let mut rows = match self.rest.is_empty() && cursor.lanes.len() == 0 {
            true => match self.open_next() {
                Some(rows) => rows,
                None => return (cursor, None),
            },
            false => self.join(cursor),
        };
        loop {
            if let Some(item) = rows.next(&self.source.ups) {
                return (self.part(rows), Some(item));
            }
            match self.open_next() {
                Some(next) => rows = next,
                None => return (self.part(rows), None),
            }
        }
    }

    /// The walked table's rows: `cursor` and the rest kept here.
    fn join<Q: QueryData>(&mut self, cursor: Cursor<'w, Q>) -> TableRows<'w, Q> {
        let Rest { owners, runs } = std::mem::take(&mut self.rest);
        TableRows {
            cursor,
            owners,
            entities: self.entities,
            runs,
        }
    }

    /// `rows`' cursor, the rest kept here.
    fn part<Q: QueryData>(&mut self, rows: TableRows<'w, Q>) -> Cursor<'w, Q> {
        self.rest = Rest {
            owners: rows.owners,
            runs: rows.runs,
        };
        rows.cursor
    }

    #[cold]
    #[inline(never)]
    fn open_next<Q: QueryData>(&mut self) -> Option<TableRows<'w, Q>> {
        let Tables {
            plan,
            next_table,
            source,
            entities,
            inactive,
            walk,
            plain,
            ..
        } = self;
        let plan: &Plan = plan;
        if *plain {
            while let Some(&table) = plan.tables.get(*next_table) {
                let places = plan.places_of(*next_table);
                *next_table += 1;
                // Taken out and returned: kept as an `Option` to test and
                // return, the rows were built on the stack and copied out
                // (18 instructions a table).
                if let Some(rows) = source.open_plain(table, places, entities, *inactive) {
                    return Some(rows);
                }
            }
            return None;
        }
        if walk.child_of == Some(None) {
            // The parent is gone: no entity is its child.
            return None;
        }
        while let Some(&table) = plan.tables.get(*next_table) {
            let i = *next_table;
            *next_table += 1;
            let runs = if walk.since.is_empty() {
                None
            } else {
                let rows = source.table(table).owners().len();
                match source.passing(rows, plan.watch_of(i), &walk.since) {
                    Some(runs) => Some(runs),
                    None => continue,
                }
            };
            let runs = match walk.child_of {
                None => runs,
                Some(parent) => {
                    let owners = source.table(table).owners();
                    let child = |row: usize| entities.parent(owners[row]) == parent;
                    let runs = match runs {
                        Some(runs) => refine(&runs, child),
                        None => {
                            let mut out = Vec::new();
                            runs_where(0..owners.len(), &mut out, child);
                            out
                        }
                    };
                    if runs.is_empty() {
                        continue;
                    }
                    Some(runs)
                }
            };
            let reads = Reads {
                places: plan.places_of(i),
                many: plan.many_of(i),
                ups: plan.ups(),
            };
            if let Some(rows) = source.open(table, reads, entities, *inactive, runs) {
                return Some(rows);
            }
        }
        None
    }
}

impl<'w, Q: QueryData> QueryIter<'w, Q> {
    pub(crate) fn new(
        plan: Arc<Plan>,
        source: Source<'w>,
        entities: &'w Entities,
        inactive: bool,
        walk: Walk,
    ) -> Self {
        QueryIter {
            rows: Cursor::idle(entities),
            tables: Box::new(Tables {
                plan: PlanHandle(ManuallyDrop::new(Some(plan))),
                next_table: 0,
                source,
                entities,
                inactive,
                plain: walk.is_plain::<Q>(),
                walk,
                rest: Rest::default(),
            }),
        }
    }

    /// Every table's rows, opened at once (for splitting across threads),
    /// and the maps their [`Up`](crate::Up) terms read.
    pub(crate) fn into_tables(mut self) -> (Vec<TableRows<'w, Q>>, UpMaps<'w>) {
        let mut all = Vec::with_capacity(self.tables.plan.tables.len() + 1);
        let cursor = std::mem::replace(&mut self.rows, Cursor::idle(self.tables.entities));
        let rows = self.tables.join(cursor);
        if rows.len() > 0 {
            all.push(rows);
        }
        while let Some(rows) = self.tables.open_next() {
            all.push(rows);
        }
        (all, std::mem::take(&mut self.tables.source.ups))
    }
}

impl<'w, Q: QueryData> Iterator for QueryIter<'w, Q> {
    type Item = Q::Item<'w>;

    #[inline(always)]
    fn next(&mut self) -> Option<Q::Item<'w>> {
        if let Some(item) = self.rows.next_unchecked(&self.tables.source.ups) {
            return Some(item);
        }
        let rows = std::mem::replace(&mut self.rows, Cursor::idle(self.tables.entities));
        let (rows, item) = self.tables.refill(rows);
        self.rows = rows;
        item
    }

    fn fold<B, F: FnMut(B, Self::Item) -> B>(self, init: B, mut f: F) -> B {
        let QueryIter { rows, mut tables } = self;
        let mut acc = tables.join(rows).fold(init, &mut f, &tables.source.ups);
        while let Some(rows) = tables.open_next::<Q>() {
            acc = rows.fold(acc, &mut f, &tables.source.ups);
        }
        acc
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let t = &self.tables;
        let current = self.rows.lanes.len() + t.rest.runs.as_ref().map_or(0, |r| r.rows_left());
        (0, Some(current + self.remaining_rows()))
    }
}

impl<Q: QueryData> QueryIter<'_, Q> {
    fn remaining_rows(&self) -> usize {
        let t = &self.tables;
        t.plan.tables[t.next_table..]
            .iter()
            .map(|&table| t.source.table(table).owners().len())
            .sum()
    }
}
