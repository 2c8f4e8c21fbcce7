//! One table's rows as a query walks them: the cursor that a row loop
//! keeps in registers, and what the out-of-line code keeps beside it.

use std::ops::Range;

use crate::entity::{Entities, EntityIndex};
use crate::query::data::QueryData;
use crate::query::runs::{Jump, Runs};
use crate::query::term::{Generations, UpMaps};
use crate::storage::raw::{Lanes, Lockstep};

/// What a walk touches on every row of a table where none is skipped:
/// the terms' arrays, one row counter for all, and the terms' states. The
/// iterator keeps it apart from the rest of [`TableRows`], so that only
/// this much moves in and out of the out-of-line code that opens tables.
pub(crate) struct Cursor<'w, Q: QueryData> {
    pub(super) lanes: Lockstep<Q::Lanes<'w>>,
    pub(super) states: Q::States<'w>,
}

impl<'w, Q: QueryData> Cursor<'w, Q> {
    /// No rows.
    pub(super) fn idle(entities: &'w Entities) -> Self {
        Cursor {
            lanes: Lockstep::empty(),
            states: Q::idle(Generations(entities)),
        }
    }

    /// The next row of a table where none is skipped; `None` at the end
    /// and in a table where rows may be skipped.
    #[inline(always)]
    pub(super) fn next_unchecked(&mut self, ups: &UpMaps<'w>) -> Option<Q::Item<'w>> {
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
pub(super) struct Rest<'w> {
    pub(super) owners: Option<&'w [EntityIndex]>,
    pub(super) runs: Option<Box<Runs>>,
}

impl Rest<'_> {
    /// Whether the walked table left nothing behind.
    pub(super) fn is_empty(&self) -> bool {
        self.owners.is_none() && self.runs.is_none()
    }
}

/// One table's rows, as a query yields them.
pub(crate) struct TableRows<'w, Q: QueryData> {
    pub(super) cursor: Cursor<'w, Q>,
    /// The rows' owners, when some are disabled or killed (those are
    /// skipped).
    pub(super) owners: Option<&'w [EntityIndex]>,
    pub(super) entities: &'w Entities,
    /// The runs of rows that pass the query's per-row filters (change
    /// filters, `child_of`), when it has some: the lanes walk one run at a
    /// time.
    pub(super) runs: Option<Box<Runs>>,
}

impl<'w, Q: QueryData> TableRows<'w, Q> {
    /// How many rows are left, skipped ones included.
    pub fn len(&self) -> usize {
        self.cursor.lanes.len() + self.runs.as_ref().map_or(0, |runs| runs.rows_left())
    }

    /// The rows walked only in `runs`, `None` when none is left.
    pub(super) fn in_runs(mut self, runs: Vec<Range<usize>>, guarded: bool) -> Option<Self> {
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
        self.jump(jump);
        true
    }

    /// Moves the lanes to the run `jump` leads to, and the skipped rows'
    /// owners with them.
    #[inline]
    fn jump(&mut self, jump: Jump) {
        if let Some(owners) = &mut self.owners {
            *owners = owners.get(jump.skip..).unwrap_or_default();
        }
        let Cursor { lanes, states } =
            std::mem::replace(&mut self.cursor, Cursor::idle(self.entities));
        self.cursor = Cursor {
            lanes: lanes.skip_then(jump.skip, jump.take, jump.guarded),
            states: Q::split(states, jump.skip).1,
        };
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
        if let Some(mut runs) = self.runs.take() {
            // Run by run, with the move to the next run in line and outside
            // the row loops: with `next_run` (out of line, given the rows
            // by reference) in the row loop, the compiler kept the rows
            // and a float accumulator of `f` in memory on every row.
            loop {
                while let Some(item) = self.cursor.next_unchecked(ups) {
                    acc = f(acc, item);
                }
                while let Some(item) = self.next_checked(ups) {
                    acc = f(acc, item);
                }
                let Some(jump) = runs.next_jump() else {
                    return acc;
                };
                self.jump(jump);
            }
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
