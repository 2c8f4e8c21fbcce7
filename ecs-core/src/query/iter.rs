//! Walking a query's tables: the plan's tables opened one at a time, and
//! the iterator that hands out their rows.

use std::mem::ManuallyDrop;
use std::ops::Deref;
use std::sync::Arc;

use crate::entity::{Entities, EntityIndex};
use crate::query::data::QueryData;
use crate::query::plan::{Plan, Watch};
use crate::query::rows::{Cursor, Rest, TableRows};
use crate::query::runs::refine;
use crate::query::source::{Reads, Source};
use crate::query::term::UpMaps;

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
    /// In line, so that the caller sees the release cannot unwind (see
    /// [`Tables::refill`]).
    #[inline]
    fn drop(&mut self) {
        release(&mut self.0);
    }
}

#[inline(never)]
extern "C" fn release(plan: &mut Option<Arc<Plan>>) {
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
    ///
    /// `extern "C"`, a call the compiler knows cannot unwind, as are
    /// [`Tables::open_next`] and the plan's release: with a call in the
    /// loop that may unwind (and the iterator to drop if it does), it kept
    /// a `for` loop's float accumulator in memory on every row, a store
    /// and a load on the add's dependency chain (3.4 ns a row against 0.9
    /// ns, summing one `f32` over 100k rows). No user code runs in these
    /// (no hook, no component's `Drop` or `Clone`, no observer), so a panic
    /// in them would be a bug of this crate; it would abort the process.
    /// Catching it instead cost 15% on 26 tables of 20 rows; the rows
    /// passed by value under this convention already cost as much.
    #[cold]
    #[inline(never)]
    #[allow(improper_ctypes_definitions)]
    extern "C" fn refill<Q: QueryData>(
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

    /// The next table's rows, `None` after the last. Cannot unwind (see
    /// [`Tables::refill`]): `for_each` calls it between tables, where its
    /// accumulator is live.
    #[cold]
    #[inline(never)]
    #[allow(improper_ctypes_definitions)]
    extern "C" fn open_next<Q: QueryData>(&mut self) -> Option<TableRows<'w, Q>> {
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
                let places = plan.places_of(*next_table, Q::TERMS.len());
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
                let watch = plan.watch_of(i);
                if !source.may_pass(watch, &walk.since) {
                    continue;
                }
                let rows = source.table(table).owners().len();
                match source.passing(rows, watch, &walk.since) {
                    Some(runs) => Some(runs),
                    None => continue,
                }
            };
            let runs = match walk.child_of {
                None => runs,
                Some(parent) => {
                    let owners = source.table(table).owners();
                    let child = |row: usize| entities.parent(owners[row]) == parent;
                    let runs = refine(runs.as_deref(), owners.len(), child);
                    if runs.is_empty() {
                        continue;
                    }
                    Some(runs)
                }
            };
            let reads = Reads {
                places: plan.places_of(i, Q::TERMS.len()),
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
