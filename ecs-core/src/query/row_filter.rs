//! Which rows of a table a walk hands out: those that pass its change
//! filters, and, for a writing query, those whose entity and required
//! components are active (only the rows handed out are marked changed).

use std::ops::Range;

use crate::entity::{Entities, SegId};
use crate::query::plan::{Place, Watch};
use crate::query::runs::{changed_runs, refine, TickLane};
use crate::query::source::{is_required, Source};
use crate::query::term::TermInfo;
use crate::table::{Segment, Table};

impl Source<'_> {
    /// Whether some row of a table may pass the change filters (`watch`:
    /// per filter, the segments whose components are-a its type; `since`:
    /// per filter, its kind and tick), read off each segment's latest
    /// tick: `false` passes the table over without reading its rows. In
    /// line and with plain loops, because a reader that looks every frame
    /// asks this of every table it matches and most say no.
    #[inline(always)]
    pub(super) fn may_pass(&self, watch: &[Vec<SegId>], since: &[Watch]) -> bool {
        'filters: for (segs, &(kind, tick)) in watch.iter().zip(since) {
            for &seg in segs {
                if self.peek(seg).is_some_and(|s| s.maybe_after(kind, tick)) {
                    continue 'filters;
                }
            }
            return false;
        }
        true
    }

    /// The runs of rows of a table with `rows` rows that pass the change
    /// filters (as for [`Source::may_pass`], which the caller asked
    /// first); `None` when no row does.
    #[cold]
    #[inline(never)]
    pub(super) fn passing(
        &self,
        rows: usize,
        watch: &[Vec<SegId>],
        since: &[Watch],
    ) -> Option<Vec<Range<usize>>> {
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
    pub(super) fn handed_out(
        &self,
        table: &Table,
        runs: Option<Vec<Range<usize>>>,
        terms: &[TermInfo],
        places: &[Place],
        entities: &Entities,
    ) -> Option<Option<Vec<Range<usize>>>> {
        let skipped = self.disabled_rows && self.required(terms, places).any(Segment::any_disabled);
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
        let out = refine(runs.as_deref(), owners.len(), pass);
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
}
