//! Walking a query's tables: the segments each term reads, borrowed once
//! per query, and the rows of one table at a time.

use crate::entity::{Entities, EntityIndex, SegId, TableId};
use crate::query::data::QueryData;
use crate::query::plan::{Place, Plan};
use crate::query::term::{Slot, SlotKind, TermInfo};
use crate::storage::{Segment, Storage, Table};

/// Where a query's terms borrow their segments from.
pub(crate) enum Source<'w> {
    /// A read-only query: every segment shared.
    Shared(&'w Storage),
    /// A query that writes: each segment it reads borrowed once, mutably
    /// for a mutable term, shared (and kept for other shared terms)
    /// otherwise; sorted by segment, for a binary search per table.
    Mut {
        tables: &'w [Table],
        borrowed: Vec<Borrowed<'w>>,
        /// Where the next lookup starts: tables are opened in the order
        /// they were made, which is also the order of their segments, so
        /// the next segment asked for is usually the next one.
        hint: usize,
    },
}

/// One segment a writing query reads.
pub(crate) struct Borrowed<'w> {
    seg: SegId,
    unique: Option<&'w mut Segment>,
    shared: Option<&'w Segment>,
}

impl<'w> Source<'w> {
    /// Borrows the segments `wanted` names (in any order, repeats
    /// allowed): only those, so a query over few tables or one entity does
    /// not pay for every segment of the world.
    pub fn new_mut(storage: &'w mut Storage, wanted: impl Iterator<Item = SegId>) -> Self {
        let mut wanted: Vec<SegId> = Vec::from_iter(wanted);
        wanted.sort_unstable();
        wanted.dedup();
        let (tables, segments) = storage.tables_and_segments_mut();
        let mut next = wanted.iter().peekable();
        let mut borrowed = Vec::with_capacity(wanted.len());
        for (at, segment) in segments.enumerate() {
            let Some(&&seg) = next.peek() else { break };
            if seg.index() == at {
                next.next();
                borrowed.push(Borrowed {
                    seg,
                    unique: Some(segment),
                    shared: None,
                });
            }
        }
        Source::Mut {
            tables,
            borrowed,
            hint: 0,
        }
    }

    fn table(&self, table: TableId) -> &'w Table {
        match self {
            Source::Shared(storage) => storage.table(table),
            Source::Mut { tables, .. } => &tables[table.index()],
        }
    }

    /// The slot of a term reading `seg` at `level`; `check` when disabled
    /// components are skipped.
    fn slot(&mut self, mutable: bool, seg: SegId, level: usize, inactive: bool) -> Slot<'w> {
        let check = |segment: &Segment| !inactive && segment.any_disabled();
        let kind = match self {
            Source::Shared(storage) => {
                let segment = storage.segment(seg);
                SlotKind::Shared {
                    segment,
                    level,
                    check: check(segment),
                }
            }
            Source::Mut { borrowed, hint, .. } => {
                let at = match borrowed.get(*hint) {
                    Some(b) if b.seg == seg => *hint,
                    _ => match borrowed.binary_search_by_key(&seg, |b| b.seg) {
                        Ok(at) => at,
                        Err(_) => {
                            return Slot {
                                kind: SlotKind::Missing,
                            }
                        }
                    },
                };
                *hint = at + 1;
                let entry = &mut borrowed[at];
                if mutable {
                    match entry.unique.take() {
                        Some(segment) => {
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

    /// The rows of `table`, each term reading at its place.
    pub fn open<Q: QueryData>(
        &mut self,
        table: TableId,
        places: &[Place],
        many: &[Vec<(SegId, usize)>],
        entities: &'w Entities,
        inactive: bool,
    ) -> Option<TableRows<'w, Q>> {
        let rows = self.table(table);
        let terms: &[TermInfo] = Q::TERMS;
        let mut checked = false;
        let cursors = Q::cursors(|i| {
            let slot = match (terms[i].key, places[i]) {
                (Some(_), _) if terms[i].all => {
                    let slots = many.get(i).map_or(&[][..], Vec::as_slice);
                    let kinds = slots
                        .iter()
                        .map(|&(seg, level)| self.slot(terms[i].mutable, seg, level, inactive).kind)
                        .collect();
                    Slot {
                        kind: SlotKind::Many(kinds),
                    }
                }
                (None, _) => Slot {
                    kind: SlotKind::Owners {
                        owners: rows.owners(),
                        entities,
                    },
                },
                (Some(_), None) => Slot {
                    kind: SlotKind::Missing,
                },
                (Some(_), Some((seg, level))) => self.slot(terms[i].mutable, seg, level, inactive),
            };
            checked |= slot.kind.checks();
            slot
        })?;
        let owners = (!inactive && rows.any_inactive()).then(|| rows.owners());
        Some(TableRows {
            cursors,
            left: rows.owners().len(),
            checked: owners.is_some() || checked,
            owners,
            entities,
        })
    }
}

/// One table's rows, as a query yields them.
pub(crate) struct TableRows<'w, Q: QueryData> {
    cursors: Q::Cursors<'w>,
    left: usize,
    /// The rows' owners, when some are disabled or killed (those are
    /// skipped).
    owners: Option<&'w [EntityIndex]>,
    entities: &'w Entities,
    /// Whether rows may be skipped (something in the table is disabled).
    checked: bool,
}

impl<'w, Q: QueryData> TableRows<'w, Q> {
    /// How many rows are left, skipped ones included.
    pub fn len(&self) -> usize {
        self.left
    }

    #[inline(always)]
    pub fn next(&mut self) -> Option<Q::Item<'w>> {
        if self.checked {
            return self.next_checked();
        }
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        Q::fetch_fast(&mut self.cursors)
    }

    /// [`TableRows::next`] where rows may be skipped. Inlined too: a call
    /// taking `&mut self` would keep the compiler from holding the cursors
    /// in registers in the fast path.
    #[inline(always)]
    fn next_checked(&mut self) -> Option<Q::Item<'w>> {
        while self.left > 0 {
            self.left -= 1;
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
            let item = Q::fetch(&mut self.cursors);
            if active && item.is_some() {
                return item;
            }
        }
        None
    }

    /// Calls `f` with every row left; by value, so the cursors can live in
    /// registers.
    #[inline(always)]
    pub fn for_each_row(mut self, f: &impl Fn(Q::Item<'w>)) {
        while let Some(item) = self.next() {
            f(item);
        }
    }

    /// The first `at` rows and the rest.
    pub fn split(self, at: usize) -> (Self, Self) {
        let at = at.min(self.left);
        let (a, b) = Q::split(self.cursors, at);
        let (oa, ob) = match self.owners {
            Some(owners) => {
                let (x, y) = owners.split_at(at.min(owners.len()));
                (Some(x), Some(y))
            }
            None => (None, None),
        };
        (
            TableRows {
                cursors: a,
                left: at,
                owners: oa,
                entities: self.entities,
                checked: self.checked,
            },
            TableRows {
                cursors: b,
                left: self.left - at,
                owners: ob,
                entities: self.entities,
                checked: self.checked,
            },
        )
    }
}

/// The iterator of a query: table by table, row by row.
pub struct QueryIter<'w, Q: QueryData> {
    /// The table being walked.
    current: Option<TableRows<'w, Q>>,
    /// Boxed: only the out-of-line [`Tables::open_next`] touches it, and a
    /// pointer into the iterator itself would keep the compiler from
    /// holding `current` in registers in a `for` loop.
    tables: Box<Tables<'w>>,
}

/// The tables a query has yet to open.
struct Tables<'w> {
    plan: Plan,
    next_table: usize,
    source: Source<'w>,
    entities: &'w Entities,
    inactive: bool,
}

impl<'w> Tables<'w> {
    #[cold]
    #[inline(never)]
    fn open_next<Q: QueryData>(&mut self) -> Option<TableRows<'w, Q>> {
        while self.next_table < self.plan.tables.len() {
            let i = self.next_table;
            self.next_table += 1;
            let table = self.plan.tables[i];
            let places = self.plan.places_of(i);
            let many = self.plan.many_of(i);
            if let Some(rows) = self
                .source
                .open(table, places, many, self.entities, self.inactive)
            {
                return Some(rows);
            }
        }
        None
    }
}

impl<'w, Q: QueryData> QueryIter<'w, Q> {
    pub(crate) fn new(
        plan: Plan,
        source: Source<'w>,
        entities: &'w Entities,
        inactive: bool,
    ) -> Self {
        QueryIter {
            current: None,
            tables: Box::new(Tables {
                plan,
                next_table: 0,
                source,
                entities,
                inactive,
            }),
        }
    }

    /// Every table's rows, opened at once (for splitting across threads).
    pub(crate) fn into_tables(mut self) -> Vec<TableRows<'w, Q>> {
        let mut all = Vec::with_capacity(self.tables.plan.tables.len() + 1);
        all.extend(self.current.take());
        while let Some(rows) = self.tables.open_next() {
            all.push(rows);
        }
        all
    }
}

impl<'w, Q: QueryData> Iterator for QueryIter<'w, Q> {
    type Item = Q::Item<'w>;

    #[inline(always)]
    fn next(&mut self) -> Option<Q::Item<'w>> {
        loop {
            if let Some(rows) = &mut self.current {
                if let Some(item) = rows.next() {
                    return Some(item);
                }
            }
            self.current = Some(self.tables.open_next()?);
        }
    }

    fn fold<B, F: FnMut(B, Self::Item) -> B>(mut self, init: B, mut f: F) -> B {
        let mut acc = init;
        loop {
            if let Some(mut rows) = self.current.take() {
                while let Some(item) = rows.next() {
                    acc = f(acc, item);
                }
            }
            match self.tables.open_next() {
                Some(rows) => self.current = Some(rows),
                None => return acc,
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let current = self.current.as_ref().map_or(0, TableRows::len);
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
