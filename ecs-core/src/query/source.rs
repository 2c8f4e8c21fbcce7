//! Where a query's terms borrow their segments (once per query, before
//! the first table), and the opening of one table's rows.

use std::ops::Range;

use crate::entity::RowId;
use crate::entity::{Entities, SegId, TableId};
use crate::query::data::QueryData;
use crate::query::plan::Place;
use crate::query::rows::{Cursor, TableRows};
use crate::query::term::{Slot, SlotKind, TermInfo, UpMaps};
use crate::storage::raw::{LendOnce, Lockstep};
use crate::table::{Segment, Storage, Table};

/// Where a query's terms borrow their segments from, beside the tables
/// they are in (a plain slice for both kinds, so opening a table does not
/// first ask which kind it is).
pub(crate) struct Source<'w> {
    tables: &'w [Table],
    segments: Segments<'w>,
    /// The clock's tick: what a writing query marks the rows it hands out
    /// mutably with, and what row ticks are read against.
    pub(super) now: u64,
    /// The one row a writing query hands out (`query_one_mut`), marked
    /// alone; `None`: every row it walks.
    only_row: Option<usize>,
    /// Per term, for [`Up`](crate::Up) terms: where their type sits by
    /// table, gathered when the first table is opened.
    pub(super) ups: UpMaps<'w>,
    /// Whether a segment the query borrowed has disabled rows: while none
    /// has, a table's rows are all handed out unless its entities are not.
    pub(super) disabled_rows: bool,
}

enum Segments<'w> {
    /// A read-only query: every segment shared.
    Shared(&'w [Segment]),
    /// A query that writes: each segment lent when a term first reads it,
    /// mutably for a mutable term, shared (and kept for other shared
    /// terms) otherwise. Segment `base + i` is the lender's `i`: it holds
    /// only the span of segments the query may read, so its record of
    /// what it lent stays small for a query of one table in a large world.
    Mut {
        lend: LendOnce<'w, Segment>,
        base: usize,
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
pub(super) fn is_required(term: &TermInfo) -> bool {
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

    /// Lends the world's segments to a writing query: each when a term
    /// first reads it (a query that reaches few tables pays for few).
    /// `wanted`, the segments the query may read, tells whether any of
    /// them has disabled rows.
    pub fn new_mut(storage: &'w mut Storage, wanted: &[SegId]) -> Self {
        let now = storage.write_tick();
        let (tables, segments) = storage.tables_and_segments_mut();
        let disabled_rows = wanted
            .iter()
            .any(|seg| segments.get(seg.index()).is_some_and(Segment::any_disabled));
        // `wanted` is sorted: its first and last segments bound the span.
        let (base, end) = match (wanted.first(), wanted.last()) {
            (Some(first), Some(last)) => (first.index(), last.index() + 1),
            _ => (0, 0),
        };
        let span = segments.get_mut(base..end).unwrap_or_default();
        Source {
            tables,
            segments: Segments::Mut {
                lend: LendOnce::new(span),
                base,
            },
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
            Segments::Mut { lend, base } => lend.share(seg.index().wrapping_sub(*base)),
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
    pub(super) fn peek(&self, seg: SegId) -> Option<&Segment> {
        match &self.segments {
            Segments::Shared(segments) => segments.get(seg.index()),
            Segments::Mut { lend, base } => lend.peek(seg.index().wrapping_sub(*base)),
        }
    }

    pub(super) fn table(&self, table: TableId) -> &'w Table {
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
            Segments::Mut { lend, base } if mutable => {
                match lend.take_mut(seg.index().wrapping_sub(*base)) {
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
            }
            Segments::Mut { lend, base } => match lend.share(seg.index().wrapping_sub(*base)) {
                Some(segment) => SlotKind::Shared {
                    segment,
                    level,
                    check: check(segment),
                },
                None => SlotKind::Missing,
            },
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
    /// that read beyond their row ([`Walk::is_plain`](super::iter::Walk::is_plain)): only what such a
    /// table can need is decided, in line.
    #[inline(always)]
    pub(super) fn open_plain<Q: QueryData>(
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
